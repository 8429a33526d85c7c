// generic_timer_access.cpp - the accessibility pseudocode of the Generic Timer's registers.
//
// At EL0 the EL1&0 regime's controls are CNTKCTL_EL1's, and a trap goes to EL1, or to EL2 when
// HCR_EL2.TGE is 1; in the EL2&0 host regime (HCR_EL2.{E2H, TGE} = {1, 1}) CNTKCTL_EL1 does not
// apply and CNTHCTL_EL2's EL0 fields trap to EL2. CNTHCTL_EL2 traps EL0 and EL1 accesses of the
// EL1&0 regime to the physical counter and timer when EL2 is enabled; its fields move with
// HCR_EL2.E2H. EL2 registers are UNDEFINED below EL2. CNTFRQ_EL0 is writable only at the highest
// implemented Exception level.
#include "generic_timer_access.h"

namespace pmtrace::platform
{

namespace
{

// The effective controls at the access's Exception level.
struct controls {
    bool el2;      // EL2Enabled()
    bool e2h, tge; // the Effective values of HCR_EL2.E2H and TGE
    bool host_el0; // ELIsInHost(EL0)
};

controls effective(const cnt_access_state &s)
{
    controls c{};
    c.el2 = s.have_el2 && (s.el == 2 || s.el2_enabled);
    c.e2h = c.el2 && s.hcr_e2h;
    c.tge = c.el2 && s.hcr_tge;
    c.host_el0 = s.el == 0 && c.e2h && c.tge;
    return c;
}

bool has(uint64_t reg, uint64_t bits)
{
    return (reg & bits) != 0;
}

// AArch64.SystemAccessTrap for a control of CNTKCTL_EL1 at EL0: EL1, or EL2 when HCR_EL2.TGE is 1.
pmt_access cntkctl_trap(const controls &c)
{
    return c.tge ? PMT_ACCESS_TRAP_EL2 : PMT_ACCESS_TRAP_EL1;
}

unsigned highest_el(const cnt_access_state &s)
{
    return s.have_el3 ? 3 : s.have_el2 ? 2 : 1;
}

// MRS CNTFRQ_EL0: at EL0, allowed when either counter is (EL0PCTEN or EL0VCTEN).
pmt_access frequency_read(const cnt_access_state &s, const controls &c)
{
    if (s.el != 0)
        return PMT_ACCESS_OK;
    if (c.host_el0)
        return has(s.cnthctl, cnthctl_e2h_el0pcten | cnthctl_e2h_el0vcten) ? PMT_ACCESS_OK
                                                                           : PMT_ACCESS_TRAP_EL2;
    return has(s.cntkctl, cntkctl_el0pcten | cntkctl_el0vcten) ? PMT_ACCESS_OK : cntkctl_trap(c);
}

// CNTPCT_EL0 (el0_bit: CNTKCTL_EL1.EL0PCTEN, CNTHCTL_EL2.EL1PCTEN) and CNTP_*_EL0 (EL0PTEN,
// EL1PCEN or, with E2H, EL1PTEN): the EL1&0 regime's physical counter and timer.
pmt_access el1_physical(const cnt_access_state &s, const controls &c, uint64_t el0_bit,
                        uint64_t host_el0_bit, uint64_t el1_bit, uint64_t e2h_el1_bit)
{
    if (s.el >= 2)
        return PMT_ACCESS_OK;
    if (c.host_el0)
        return has(s.cnthctl, host_el0_bit) ? PMT_ACCESS_OK : PMT_ACCESS_TRAP_EL2;
    if (s.el == 0 && !has(s.cntkctl, el0_bit))
        return cntkctl_trap(c);
    if (c.el2 && !has(s.cnthctl, c.e2h ? e2h_el1_bit : el1_bit))
        return PMT_ACCESS_TRAP_EL2;
    return PMT_ACCESS_OK;
}

// CNTVCT_EL0 (EL0VCTEN) and CNTV_*_EL0 (EL0VTEN): only EL0 is controlled (without FEAT_ECV's
// EL1TVCT and EL1TVT).
pmt_access el1_virtual(const cnt_access_state &s, const controls &c, uint64_t el0_bit,
                       uint64_t host_el0_bit)
{
    if (s.el != 0)
        return PMT_ACCESS_OK;
    if (c.host_el0)
        return has(s.cnthctl, host_el0_bit) ? PMT_ACCESS_OK : PMT_ACCESS_TRAP_EL2;
    return has(s.cntkctl, el0_bit) ? PMT_ACCESS_OK : cntkctl_trap(c);
}

} // namespace

bool cnt_in_host(const cnt_access_state &s)
{
    controls c = effective(s);
    return (s.el == 2 && c.e2h) || c.host_el0;
}

pmt_access cnt_access(cnt_reg reg, bool write, const cnt_access_state &s)
{
    controls c = effective(s);
    switch (reg) {
    case cnt_reg::CNTFRQ_EL0:
        if (write)
            return s.el == highest_el(s) ? PMT_ACCESS_OK : PMT_ACCESS_UNDEFINED;
        return frequency_read(s, c);
    case cnt_reg::CNTPCT_EL0:
        if (write) // a read-only register: MSR is not allocated
            return PMT_ACCESS_UNDEFINED;
        return el1_physical(s, c, cntkctl_el0pcten, cnthctl_e2h_el0pcten, cnthctl_el1pcten,
                            cnthctl_e2h_el1pcten);
    case cnt_reg::CNTVCT_EL0:
        if (write)
            return PMT_ACCESS_UNDEFINED;
        return el1_virtual(s, c, cntkctl_el0vcten, cnthctl_e2h_el0vcten);
    case cnt_reg::CNTP_TVAL_EL0:
    case cnt_reg::CNTP_CTL_EL0:
    case cnt_reg::CNTP_CVAL_EL0:
        return el1_physical(s, c, cntkctl_el0pten, cnthctl_e2h_el0pten, cnthctl_el1pcen,
                            cnthctl_e2h_el1pten);
    case cnt_reg::CNTV_TVAL_EL0:
    case cnt_reg::CNTV_CTL_EL0:
    case cnt_reg::CNTV_CVAL_EL0: return el1_virtual(s, c, cntkctl_el0vten, cnthctl_e2h_el0vten);
    case cnt_reg::CNTKCTL_EL1: return s.el >= 1 ? PMT_ACCESS_OK : PMT_ACCESS_UNDEFINED;
    case cnt_reg::CNTVOFF_EL2:
    case cnt_reg::CNTHCTL_EL2:
    case cnt_reg::CNTHP_TVAL_EL2:
    case cnt_reg::CNTHP_CTL_EL2:
    case cnt_reg::CNTHP_CVAL_EL2: return s.el >= 2 ? PMT_ACCESS_OK : PMT_ACCESS_UNDEFINED;
    case cnt_reg::none: break;
    }
    return PMT_ACCESS_NOT_MINE;
}

} // namespace pmtrace::platform
