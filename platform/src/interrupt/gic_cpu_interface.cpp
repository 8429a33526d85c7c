// gic_cpu_interface.cpp - acknowledge, priority drop, deactivation, masking and preemption.
#include "pmtrace/platform/interrupt/gic_cpu_interface.h"

#include "pmtrace/platform/interrupt/gic_distributor.h"
#include "pmtrace/platform/interrupt/gic_redistributor.h"

#include <systemc>
#include <utility>

namespace pmtrace::platform
{

namespace
{

struct icc_info {
    icc_reg reg;
    uint8_t crn, crm, op2;
    bool readable, writable;
    const char *name;
};

// Every ICC_*_EL1 register here is op0 = 3, op1 = 0.
const icc_info icc_table[] = {
    {icc_reg::PMR, 4, 6, 0, true, true, "ICC_PMR_EL1"},
    {icc_reg::IAR0, 12, 8, 0, true, false, "ICC_IAR0_EL1"},
    {icc_reg::EOIR0, 12, 8, 1, false, true, "ICC_EOIR0_EL1"},
    {icc_reg::HPPIR0, 12, 8, 2, true, false, "ICC_HPPIR0_EL1"},
    {icc_reg::BPR0, 12, 8, 3, true, true, "ICC_BPR0_EL1"},
    {icc_reg::AP0R0, 12, 8, 4, true, true, "ICC_AP0R0_EL1"},
    {icc_reg::AP1R0, 12, 9, 0, true, true, "ICC_AP1R0_EL1"},
    {icc_reg::DIR, 12, 11, 1, false, true, "ICC_DIR_EL1"},
    {icc_reg::RPR, 12, 11, 3, true, false, "ICC_RPR_EL1"},
    {icc_reg::SGI1R, 12, 11, 5, false, true, "ICC_SGI1R_EL1"},
    {icc_reg::IAR1, 12, 12, 0, true, false, "ICC_IAR1_EL1"},
    {icc_reg::EOIR1, 12, 12, 1, false, true, "ICC_EOIR1_EL1"},
    {icc_reg::HPPIR1, 12, 12, 2, true, false, "ICC_HPPIR1_EL1"},
    {icc_reg::BPR1, 12, 12, 3, true, true, "ICC_BPR1_EL1"},
    {icc_reg::CTLR, 12, 12, 4, true, true, "ICC_CTLR_EL1"},
    {icc_reg::SRE, 12, 12, 5, true, true, "ICC_SRE_EL1"},
    {icc_reg::IGRPEN0, 12, 12, 6, true, true, "ICC_IGRPEN0_EL1"},
    {icc_reg::IGRPEN1, 12, 12, 7, true, true, "ICC_IGRPEN1_EL1"},
};

const icc_info *info(icc_reg reg)
{
    for (const icc_info &i : icc_table)
        if (i.reg == reg)
            return &i;
    return nullptr;
}

constexpr unsigned priority_shift = 3; // preemption level = group priority >> 3
constexpr unsigned min_bpr0 = 2, min_bpr1 = 3;
// ICC_CTLR_EL1 read-only fields: PRIbits = 4 (5 bits), IDbits = 0 (16 bits), SEIS = 0, A3V = 0.
constexpr uint64_t ctlr_ro = 4u << 8;
constexpr uint64_t sre_value = 0x7; // SRE, DFB, DIB: RAO/WI

} // namespace

icc_reg icc_decode(pmt_sysreg e)
{
    if (e.op0 != 3 || e.op1 != 0)
        return icc_reg::none;
    for (const icc_info &i : icc_table)
        if (i.crn == e.crn && i.crm == e.crm && i.op2 == e.op2)
            return i.reg;
    return icc_reg::none;
}

const char *icc_name(icc_reg reg)
{
    const icc_info *i = info(reg);
    return i ? i->name : "not an ICC register";
}

gic_cpu_interface::gic_cpu_interface(const std::string &log_name, unsigned cpu,
                                     gic_redistributor &redistributor, gic_distributor &distributor,
                                     std::function<void(uint32_t, unsigned)> sgi,
                                     std::function<void()> changed, sc_core::sc_time &access_offset)
    : log_name_(log_name), cpu_(cpu), rd_(redistributor), gicd_(distributor), sgi_(std::move(sgi)),
      changed_(std::move(changed)), access_offset_(access_offset)
{
}

unsigned gic_cpu_interface::group(unsigned intid) const
{
    return intid < gic_first_spi ? rd_.group(intid) : gicd_.state().group(intid);
}

uint8_t gic_cpu_interface::priority(unsigned intid) const
{
    return intid < gic_first_spi ? rd_.priority(intid) : gicd_.state().priority(intid);
}

bool gic_cpu_interface::active(unsigned intid) const
{
    return intid < gic_first_spi ? rd_.active(intid) : gicd_.state().active(intid);
}

void gic_cpu_interface::deactivate(unsigned intid)
{
    if (intid < gic_first_spi)
        rd_.deactivate(intid);
    else
        gicd_.deactivate(intid);
}

unsigned gic_cpu_interface::highest_pending() const
{
    // The Redistributor's best (SGIs, PPIs) against the best SPI routed here: the higher
    // priority, the lower INTID among equals.
    const unsigned local = rd_.highest_pending();
    const unsigned spi = gicd_.highest_pending(cpu_);
    if (spi == gic_no_interrupt)
        return local;
    if (local == gic_no_interrupt || priority(spi) < priority(local))
        return spi;
    return local;
}

void gic_cpu_interface::warn(const std::string &what) const
{
    SC_REPORT_WARNING(log_name_.c_str(), what.c_str());
}

unsigned gic_cpu_interface::bpr(unsigned group) const
{
    return group == 1 && !(ctlr_ & icc_ctlr_cbpr) ? bpr1_ : bpr0_;
}

uint8_t gic_cpu_interface::group_priority(unsigned intid) const
{
    // Group 0 (or Group 1 with CBPR) with BPR0 = n: bits [7:n+1]; Group 1 with BPR1 = n:
    // bits [7:n].
    const unsigned g = group(intid);
    const unsigned n = bpr(g) + (g == 1 && !(ctlr_ & icc_ctlr_cbpr) ? 0 : 1);
    return static_cast<uint8_t>(priority(intid) & (0xFFu << n));
}

uint8_t gic_cpu_interface::running_priority() const
{
    const uint32_t active = ap_[0] | ap_[1];
    for (unsigned level = 0; level < 32; level++)
        if (active >> level & 1)
            return static_cast<uint8_t>(level << priority_shift);
    return 0xFF; // idle
}

bool gic_cpu_interface::can_preempt(unsigned intid) const
{
    // Enabled for its group here, higher priority than the mask, and its group priority
    // higher than the running priority.
    return igrpen_[group(intid)] && priority(intid) < pmr_ &&
           group_priority(intid) < running_priority();
}

unsigned gic_cpu_interface::highest_pending_of(unsigned group) const
{
    // HPPIR: the highest-priority pending interrupt if it is of this group, not taking the
    // priority mask or the running priority into account.
    const unsigned intid = highest_pending();
    return intid != gic_no_interrupt && this->group(intid) == group ? intid : gic_no_interrupt;
}

bool gic_cpu_interface::signalled(unsigned group) const
{
    const unsigned intid = highest_pending_of(group);
    return intid != gic_no_interrupt && !rd_.asleep() && can_preempt(intid);
}

unsigned gic_cpu_interface::acknowledge(unsigned group)
{
    const unsigned intid = highest_pending_of(group);
    if (intid == gic_no_interrupt || !can_preempt(intid))
        return gic_no_interrupt;
    ap_[group] |= 1u << (group_priority(intid) >> priority_shift);
    // Active, and no longer pending unless its line holds it; calls back: the outputs follow.
    if (intid < gic_first_spi)
        rd_.acknowledge(intid);
    else
        gicd_.acknowledge(intid);
    acked_[intid]++;
    return intid;
}

void gic_cpu_interface::end_of_interrupt(unsigned group, uint64_t v)
{
    const unsigned intid = static_cast<unsigned>(v & 0xFFFFFF);
    if (intid >= 1020 && intid <= 1023)
        return; // special INTIDs: ignored
    // Priority drop: the highest active priority of the group.
    if (!ap_[group]) {
        warn("EOI of INTID " + std::to_string(intid) + " with no active priority in Group " +
             std::to_string(group) + " (UNPREDICTABLE): ignored");
        return;
    }
    ap_[group] &= ap_[group] - 1; // clears the lowest set bit: the highest priority
    if (!(ctlr_ & icc_ctlr_eoimode)) {
        if (!active(intid))
            warn("EOI of INTID " + std::to_string(intid) + " that is not active");
        else
            deactivate(intid);
        return;
    }
    changed_(); // nothing deactivated; the outputs follow the drop
}

void gic_cpu_interface::dir(uint64_t v)
{
    const unsigned intid = static_cast<unsigned>(v & 0xFFFFFF);
    if (intid >= 1020 && intid <= 1023)
        return;
    if (!(ctlr_ & icc_ctlr_eoimode)) {
        warn("ICC_DIR_EL1 write with ICC_CTLR_EL1.EOImode 0 (UNPREDICTABLE): ignored");
        return;
    }
    if (!active(intid)) {
        warn("ICC_DIR_EL1 write for INTID " + std::to_string(intid) + " that is not active");
        return;
    }
    deactivate(intid);
}

void gic_cpu_interface::set_pmr(uint64_t v)
{
    pmr_ = static_cast<uint8_t>(v) & gic_priority_mask;
    changed_(); // re-evaluate the outputs
}

void gic_cpu_interface::sgi1r(uint64_t v)
{
    // TargetList [15:0] names Aff0 values in Aff3.Aff2.Aff1 = 0 (the PEs of this GIC have
    // Aff0 = their number); IRM [40] = 1 means every PE but this one.
    const unsigned intid = static_cast<unsigned>(v >> 24 & 0xF);
    uint32_t targets = 0;
    if (v >> 40 & 1)
        targets = ~(1u << cpu_);
    else if ((v >> 16 & 0xFF) == 0 && (v >> 32 & 0xFF) == 0 && (v >> 48 & 0xFF) == 0)
        targets = static_cast<uint32_t>(v & 0xFFFF);
    sgi_(targets, intid);
}

bool gic_cpu_interface::read(pmt_sysreg encoding, uint64_t &value, const sc_core::sc_time &offset)
{
    gic_access_scope at(access_offset_, offset);
    return read(icc_decode(encoding), value);
}

bool gic_cpu_interface::write(pmt_sysreg encoding, uint64_t value, const sc_core::sc_time &offset)
{
    gic_access_scope at(access_offset_, offset);
    return write(icc_decode(encoding), value);
}

bool gic_cpu_interface::read(icc_reg reg, uint64_t &value)
{
    const icc_info *i = info(reg);
    if (!i || !i->readable)
        return false;
    switch (reg) {
    case icc_reg::PMR: value = pmr_; break;
    case icc_reg::IAR0: value = iar0(); break;
    case icc_reg::HPPIR0: value = hppir0(); break;
    case icc_reg::BPR0: value = bpr0_; break;
    case icc_reg::AP0R0: value = ap_[0]; break;
    case icc_reg::AP1R0: value = ap_[1]; break;
    case icc_reg::RPR: value = rpr(); break;
    case icc_reg::IAR1: value = iar1(); break;
    case icc_reg::HPPIR1: value = hppir1(); break;
    case icc_reg::BPR1: value = ctlr_ & icc_ctlr_cbpr ? (bpr0_ < 7 ? bpr0_ + 1 : 7) : bpr1_; break;
    case icc_reg::CTLR: value = ctlr_ | ctlr_ro; break;
    case icc_reg::SRE: value = sre_value; break;
    case icc_reg::IGRPEN0: value = igrpen_[0]; break;
    case icc_reg::IGRPEN1: value = igrpen_[1]; break;
    default: return false;
    }
    return true;
}

bool gic_cpu_interface::write(icc_reg reg, uint64_t value)
{
    const icc_info *i = info(reg);
    if (!i || !i->writable)
        return false;
    switch (reg) {
    case icc_reg::PMR: set_pmr(value); return true;
    case icc_reg::EOIR0: eoir0(value); return true;
    case icc_reg::EOIR1: eoir1(value); return true;
    case icc_reg::DIR: dir(value); return true;
    case icc_reg::SGI1R: sgi1r(value); return true;
    case icc_reg::SRE: return true; // RAO/WI
    case icc_reg::BPR0: {
        const unsigned v = static_cast<unsigned>(value & 7);
        bpr0_ = v < min_bpr0 ? min_bpr0 : v;
        break;
    }
    case icc_reg::BPR1:
        if (!(ctlr_ & icc_ctlr_cbpr)) {
            const unsigned v = static_cast<unsigned>(value & 7);
            bpr1_ = v < min_bpr1 ? min_bpr1 : v;
        }
        break;
    case icc_reg::AP0R0: ap_[0] = static_cast<uint32_t>(value); break;
    case icc_reg::AP1R0: ap_[1] = static_cast<uint32_t>(value); break;
    case icc_reg::CTLR: ctlr_ = value & (icc_ctlr_cbpr | icc_ctlr_eoimode); break;
    case icc_reg::IGRPEN0: igrpen_[0] = value & 1; break;
    case icc_reg::IGRPEN1: igrpen_[1] = value & 1; break;
    default: return false;
    }
    changed_(); // re-evaluate the outputs
    return true;
}

} // namespace pmtrace::platform
