// gic_redistributor.cpp - GICR_* registers and the SGI/PPI state of one PE.
#include "pmtrace/platform/interrupt/gic_redistributor.h"

#include "pmtrace/platform/interrupt/gic_distributor.h"

#include <utility>

namespace pmtrace::platform
{

namespace
{

enum row {
    CTLR,
    IIDR,
    TYPER,
    WAKER,
    PIDR2,
    IGROUPR0,
    ISENABLER0,
    ICENABLER0,
    ISPENDR0,
    ICPENDR0,
    ISACTIVER0,
    ICACTIVER0,
    IPRIORITYR,
    ICFGR0,
    ICFGR1,
    IGRPMODR0,
    NSACR
};

constexpr uint32_t sgi = gicr_sgi_base;
const register_info table[] = {
    {0x0000, 1, 4, size32, "GICR_CTLR"},
    {0x0004, 1, 4, size32, "GICR_IIDR"},
    {0x0008, 1, 8, size32 | size64, "GICR_TYPER"},
    {0x0014, 1, 4, size32, "GICR_WAKER"},
    {0xFFE8, 1, 4, size32, "GICR_PIDR2"},
    {sgi + 0x0080, 1, 4, size32, "GICR_IGROUPR0"},
    {sgi + 0x0100, 1, 4, size32, "GICR_ISENABLER0"},
    {sgi + 0x0180, 1, 4, size32, "GICR_ICENABLER0"},
    {sgi + 0x0200, 1, 4, size32, "GICR_ISPENDR0"},
    {sgi + 0x0280, 1, 4, size32, "GICR_ICPENDR0"},
    {sgi + 0x0300, 1, 4, size32, "GICR_ISACTIVER0"},
    {sgi + 0x0380, 1, 4, size32, "GICR_ICACTIVER0"},
    {sgi + 0x0400, 8, 4, size8 | size32, "GICR_IPRIORITYR"},
    {sgi + 0x0C00, 1, 4, size32, "GICR_ICFGR0"},
    {sgi + 0x0C04, 1, 4, size32, "GICR_ICFGR1"},
    {sgi + 0x0D00, 1, 4, size32, "GICR_IGRPMODR0"}, // RAZ/WI with one Security state
    {sgi + 0x0E00, 1, 4, size32, "GICR_NSACR"},     // RAZ/WI with one Security state
};

constexpr uint32_t icfgr0_sgis = 0xAAAAAAAA; // SGIs are edge-triggered (RAO/WI)

} // namespace

gic_redistributor::gic_redistributor(const std::string &log_name, unsigned cpu, bool last,
                                     bool awake, uint32_t iidr, const gic_distributor &distributor,
                                     std::function<void()> changed)
    : register_frame(log_name.c_str(), table, sizeof table / sizeof table[0]), cpu_(cpu),
      last_(last), iidr_(iidr), distributor_(distributor), changed_(std::move(changed)),
      waker_(awake ? 0 : gicr_waker_processor_sleep)
{
    state_.implement(0, 15, false, true);  // SGIs: edge-triggered
    state_.implement(16, 31, true, false); // PPIs: level-sensitive out of reset, configurable
}

void gic_redistributor::set_line(unsigned intid, bool level)
{
    if (intid < 16 || intid > 31)
        return;
    state_.set_line(intid, level);
    changed_();
}

void gic_redistributor::raise_sgi(unsigned intid)
{
    if (intid < 16) {
        state_.set_pending(0, 1u << intid);
        changed_();
    }
}

unsigned gic_redistributor::highest_pending() const
{
    return state_.highest_pending(
        [this](unsigned intid) { return distributor_.group_enabled(state_.group(intid)); });
}

void gic_redistributor::acknowledge(unsigned intid)
{
    if (intid < 32) {
        state_.acknowledge(intid);
        changed_();
    }
}

void gic_redistributor::deactivate(unsigned intid)
{
    if (intid < 32) {
        state_.deactivate(intid);
        changed_();
    }
}

uint64_t gic_redistributor::read_register(size_t row, unsigned index, bool)
{
    switch (row) {
    case IIDR: return iidr_;
    case TYPER:
        // Affinity_Value = Aff0 = cpu, Processor_Number = cpu, Last.
        return uint64_t{cpu_} << 32 | uint64_t{cpu_} << 8 | (last_ ? 1u << 4 : 0u);
    case WAKER: // ChildrenAsleep follows ProcessorSleep at once
        return asleep() ? gicr_waker_processor_sleep | gicr_waker_children_asleep : 0;
    case PIDR2: return gic_pidr2_gicv3;
    case IGROUPR0: return state_.group_word(0);
    case ISENABLER0:
    case ICENABLER0: return state_.enable_word(0);
    case ISPENDR0:
    case ICPENDR0: return state_.pending_word(0);
    case ISACTIVER0:
    case ICACTIVER0: return state_.active_word(0);
    case IPRIORITYR: return state_.priority_word(index);
    case ICFGR0: return icfgr0_sgis;
    case ICFGR1: return state_.config_word(1);
    default: return 0; // CTLR (no LPIs, RWP 0), IGRPMODR0, NSACR
    }
}

void gic_redistributor::write_register(size_t row, unsigned index, uint64_t value, uint64_t mask)
{
    const uint32_t v = static_cast<uint32_t>(value & mask);
    const uint32_t m = static_cast<uint32_t>(mask);
    switch (row) {
    case WAKER:
        if (m & gicr_waker_processor_sleep)
            waker_ = v & gicr_waker_processor_sleep;
        break;
    case IGROUPR0: state_.write_group(0, v, m); break;
    case ISENABLER0: state_.set_enable(0, v); break;
    case ICENABLER0: state_.clear_enable(0, v); break;
    case ISPENDR0: state_.set_pending(0, v); break;
    case ICPENDR0: state_.clear_pending(0, v); break;
    case ISACTIVER0: state_.set_active(0, v); break;
    case ICACTIVER0: state_.clear_active(0, v); break;
    case IPRIORITYR: state_.write_priority(index, v, m); break;
    case ICFGR1: state_.write_config(1, v, m); break;
    default: return; // read-only, or RAZ/WI
    }
    changed_();
}

} // namespace pmtrace::platform
