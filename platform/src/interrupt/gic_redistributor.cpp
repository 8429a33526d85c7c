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

constexpr uint8_t priority_mask = 0xF8;          // 5 priority bits (ICC_CTLR_EL1.PRIbits = 4)
constexpr uint32_t icfgr0_sgis = 0xAAAAAAAA;     // SGIs are edge-triggered (RAO/WI)
constexpr uint32_t icfgr1_writable = 0xAAAAAAAA; // Int_config[1] of each PPI

} // namespace

gic_redistributor::gic_redistributor(const std::string &log_name, unsigned cpu, bool last,
                                     uint32_t iidr, const gic_distributor &distributor,
                                     std::function<void()> changed)
    : register_frame(log_name.c_str(), table, sizeof table / sizeof table[0]), cpu_(cpu),
      last_(last), iidr_(iidr), distributor_(distributor), changed_(std::move(changed))
{
}

bool gic_redistributor::edge_triggered(unsigned intid) const
{
    return intid < 16 || (icfgr1_ >> (2 * (intid - 16) + 1) & 1);
}

uint32_t gic_redistributor::pending_bits() const
{
    uint32_t level = 0;
    for (unsigned i = 16; i < 32; i++)
        if (!edge_triggered(i))
            level |= lines_ & (1u << i);
    return latch_ | level;
}

void gic_redistributor::set_line(unsigned intid, bool level)
{
    if (intid < 16 || intid > 31)
        return;
    const uint32_t bit = 1u << intid;
    const bool rising = level && !(lines_ & bit);
    lines_ = level ? lines_ | bit : lines_ & ~bit;
    if (rising && edge_triggered(intid))
        latch_ |= bit;
    changed_();
}

void gic_redistributor::raise_sgi(unsigned intid)
{
    if (intid < 16) {
        latch_ |= 1u << intid;
        changed_();
    }
}

unsigned gic_redistributor::highest_pending() const
{
    const uint32_t candidates = pending_bits() & enabled_ & ~active_;
    unsigned best = gic_no_interrupt;
    for (unsigned i = 0; i < 32; i++) {
        if (!(candidates >> i & 1) || !distributor_.group_enabled(group(i)))
            continue;
        if (best == gic_no_interrupt || priority_[i] < priority_[best])
            best = i;
    }
    return best;
}

void gic_redistributor::acknowledge(unsigned intid)
{
    if (intid < 32) {
        active_ |= 1u << intid;
        latch_ &= ~(1u << intid);
        changed_();
    }
}

void gic_redistributor::deactivate(unsigned intid)
{
    if (intid < 32) {
        active_ &= ~(1u << intid);
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
    case IGROUPR0: return group_;
    case ISENABLER0:
    case ICENABLER0: return enabled_;
    case ISPENDR0:
    case ICPENDR0: return pending_bits();
    case ISACTIVER0:
    case ICACTIVER0: return active_;
    case IPRIORITYR: {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++)
            v |= uint32_t{priority_[index * 4 + b]} << (8 * b);
        return v;
    }
    case ICFGR0: return icfgr0_sgis;
    case ICFGR1: return icfgr1_;
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
    case IGROUPR0: group_ = (group_ & ~m) | v; break;
    case ISENABLER0: enabled_ |= v; break;
    case ICENABLER0: enabled_ &= ~v; break;
    case ISPENDR0: latch_ |= v; break;
    case ICPENDR0:
        latch_ &= ~v;
        break; // a level-sensitive PPI stays pending while its line is high
    case ISACTIVER0: active_ |= v; break;
    case ICACTIVER0: active_ &= ~v; break;
    case IPRIORITYR:
        for (unsigned b = 0; b < 4; b++)
            if (m >> (8 * b) & 0xFF)
                priority_[index * 4 + b] = static_cast<uint8_t>(v >> (8 * b)) & priority_mask;
        break;
    case ICFGR1: icfgr1_ = (icfgr1_ & ~(m & icfgr1_writable)) | (v & icfgr1_writable); break;
    default: return; // read-only, or RAZ/WI
    }
    changed_();
}

} // namespace pmtrace::platform
