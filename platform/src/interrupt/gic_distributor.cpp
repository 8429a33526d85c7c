// gic_distributor.cpp - GICD_* registers and the SPIs' state and routing (gic_distributor.h).
#include "pmtrace/platform/interrupt/gic_distributor.h"

#include <utility>

namespace pmtrace::platform
{

namespace
{

enum row {
    CTLR,
    TYPER,
    IIDR,
    TYPER2,
    IGROUPR,
    ISENABLER,
    ICENABLER,
    ISPENDR,
    ICPENDR,
    ISACTIVER,
    ICACTIVER,
    IPRIORITYR,
    ITARGETSR,
    ICFGR,
    IGRPMODR,
    NSACR,
    SGIR,
    CPENDSGIR,
    SPENDSGIR,
    IROUTER,
    PIDR2
};

// The Distributor's register map (IHI 0069, "The GIC Distributor register map"). IPRIORITYR and
// ITARGETSR are byte-accessible; GICD_IROUTER<n> is 64 bits wide, reached by 64-bit accesses or
// by 32-bit ones to either half. Instance n of each row is the register of the same number.
const register_info table[] = {
    {0x0000, 1, 4, size32, "GICD_CTLR"},
    {0x0004, 1, 4, size32, "GICD_TYPER"},
    {0x0008, 1, 4, size32, "GICD_IIDR"},
    {0x000C, 1, 4, size32, "GICD_TYPER2"},
    {0x0080, 32, 4, size32, "GICD_IGROUPR"},
    {0x0100, 32, 4, size32, "GICD_ISENABLER"},
    {0x0180, 32, 4, size32, "GICD_ICENABLER"},
    {0x0200, 32, 4, size32, "GICD_ISPENDR"},
    {0x0280, 32, 4, size32, "GICD_ICPENDR"},
    {0x0300, 32, 4, size32, "GICD_ISACTIVER"},
    {0x0380, 32, 4, size32, "GICD_ICACTIVER"},
    {0x0400, 255, 4, size8 | size32, "GICD_IPRIORITYR"},
    {0x0800, 255, 4, size8 | size32, "GICD_ITARGETSR"},
    {0x0C00, 64, 4, size32, "GICD_ICFGR"},
    {0x0D00, 32, 4, size32, "GICD_IGRPMODR"},
    {0x0E00, 64, 4, size32, "GICD_NSACR"},
    {0x0F00, 1, 4, size32, "GICD_SGIR"},
    {0x0F10, 4, 4, size8 | size32, "GICD_CPENDSGIR"},
    {0x0F20, 4, 4, size8 | size32, "GICD_SPENDSGIR"},
    {0x6000, 1020, 8, size32 | size64, "GICD_IROUTER"},
    {0xFFE8, 1, 4, size32, "GICD_PIDR2"},
};

// GICD_TYPER fields besides ITLinesNumber [4:0]: IDbits [23:19] 15 (16-bit INTIDs, as
// ICC_CTLR_EL1.IDbits), No1N [25] 0 (1 of N routing supported), A3V [24] 0, SecurityExtn [10] 0
// (one Security state), CPUNumber [7:5] 0 (it describes legacy operation), no LPIs, MBIS, ESPI.
constexpr uint32_t typer_idbits = 15u << 19;

unsigned words_for(unsigned num_spis)
{
    return (gic_first_spi + num_spis + 31) / 32;
}

} // namespace

gic_distributor::gic_distributor(const std::string &log_name, uint32_t iidr, unsigned num_spis,
                                 unsigned num_cpus, std::function<bool(unsigned)> asleep,
                                 std::function<void()> changed)
    : register_frame(log_name.c_str(), table, sizeof table / sizeof table[0]), name_(log_name),
      iidr_(iidr), num_spis_(num_spis > gic_max_spis ? gic_max_spis : num_spis),
      num_cpus_(num_cpus), asleep_(std::move(asleep)), changed_(std::move(changed)),
      spis_(words_for(num_spis_)), router_(gic_first_spi + num_spis_, 0)
{
    // SPIs: level-sensitive out of reset, software may make any edge-triggered (GICD_ICFGR).
    if (num_spis_)
        spis_.implement(gic_first_spi, gic_first_spi + num_spis_ - 1, true, false);
}

uint32_t gic_distributor::typer() const
{
    return typer_idbits | (spis_.words() - 1); // ITLinesNumber: 32 x (N + 1) INTIDs
}

void gic_distributor::set_line(unsigned intid, bool level)
{
    if (!spis_.implemented(intid) || spis_.line(intid) == level)
        return;
    spis_.set_line(intid, level);
    changed_();
}

uint64_t gic_distributor::router(unsigned intid) const
{
    return spis_.implemented(intid) ? router_[intid] : 0;
}

unsigned gic_distributor::one_of_n_target() const
{
    // E1NWF is RAZ/WI: "a PE that is asleep cannot be picked for 1 of N interrupts"
    // (GICD_CTLR.E1NWF). Among the awake PEs, the choice is the implementation's: the lowest.
    for (unsigned n = 0; n < num_cpus_; n++)
        if (!asleep_ || !asleep_(n))
            return n;
    return num_cpus_;
}

bool gic_distributor::routed_to(unsigned intid, unsigned cpu) const
{
    if (!spis_.implemented(intid) || cpu >= num_cpus_)
        return false;
    const uint64_t r = router_[intid];
    if (r & gicd_irouter_irm)
        return cpu == one_of_n_target();
    // Interrupt_Routing_Mode 0 with an affinity no PE has: CONSTRAINED UNPREDICTABLE; the
    // interrupt is not forwarded to any PE and reads return the written value (GICD_IROUTER<n>).
    return r == cpu; // Aff3.Aff2.Aff1.Aff0 = 0.0.0.cpu
}

unsigned gic_distributor::highest_pending(unsigned cpu) const
{
    return spis_.highest_pending([this, cpu](unsigned intid) {
        return group_enabled(spis_.group(intid)) && routed_to(intid, cpu);
    });
}

void gic_distributor::acknowledge(unsigned intid)
{
    if (spis_.implemented(intid)) {
        spis_.acknowledge(intid);
        changed_();
    }
}

void gic_distributor::deactivate(unsigned intid)
{
    if (spis_.implemented(intid)) {
        spis_.deactivate(intid);
        changed_();
    }
}

uint64_t gic_distributor::read_register(size_t row, unsigned index, bool)
{
    switch (row) {
    case CTLR: return ctlr(); // RWP reads 0: writes take effect at once
    case TYPER: return typer();
    case IIDR: return iidr_;
    case IGROUPR: return spis_.group_word(index);
    case ISENABLER:
    case ICENABLER: return spis_.enable_word(index);
    case ISPENDR:
    case ICPENDR: return spis_.pending_word(index);
    case ISACTIVER:
    case ICACTIVER: return spis_.active_word(index);
    case IPRIORITYR: return spis_.priority_word(index);
    case ICFGR: return spis_.config_word(index);
    case IROUTER: return router(index);
    case PIDR2: return gic_pidr2_gicv3;
    // TYPER2 (no vPEs, no nASSGI), IGRPMODR and NSACR (RAZ/WI with GICD_CTLR.DS 1), ITARGETSR,
    // SGIR, CPENDSGIR and SPENDSGIR (RES0 with affinity routing: RAZ/WI here).
    default: return 0;
    }
}

void gic_distributor::write_register(size_t row, unsigned index, uint64_t value, uint64_t mask)
{
    const uint32_t v = static_cast<uint32_t>(value & mask);
    const uint32_t m = static_cast<uint32_t>(mask);
    switch (row) {
    case CTLR: {
        const uint32_t rw = gicd_ctlr_enable_grp0 | gicd_ctlr_enable_grp1;
        ctlr_ = (ctlr_ & ~(m & rw)) | (v & rw);
        break;
    }
    case IGROUPR: spis_.write_group(index, v, m); break;
    case ISENABLER: spis_.set_enable(index, v); break;
    case ICENABLER: spis_.clear_enable(index, v); break;
    case ISPENDR: spis_.set_pending(index, v); break;
    case ICPENDR: spis_.clear_pending(index, v); break;
    case ISACTIVER: spis_.set_active(index, v); break;
    case ICACTIVER: spis_.clear_active(index, v); break;
    case IPRIORITYR: spis_.write_priority(index, v, m); break;
    case ICFGR: spis_.write_config(index, v, m); break;
    case IROUTER:
        if (!spis_.implemented(index))
            return;
        router_[index] =
            (router_[index] & ~(mask & gicd_irouter_fields)) | (value & mask & gicd_irouter_fields);
        break;
    default: return; // read-only, or RAZ/WI
    }
    changed_();
}

} // namespace pmtrace::platform
