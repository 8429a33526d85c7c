// generic_timer_access.h - whether an MRS or MSR of a Generic Timer register is allowed, UNDEFINED
// or trapped: the accessibility pseudocode of the register descriptions (CNTFRQ_EL0, CNTPCT_EL0,
// CNTVCT_EL0, CNTKCTL_EL1, CNTP_*_EL0, CNTV_*_EL0, CNTHCTL_EL2, CNTVOFF_EL2, CNTHP_*_EL2), for a
// PE using AArch64 at every Exception level, without FEAT_ECV and FEAT_NV.
#ifndef PMTRACE_PLATFORM_SRC_GENERIC_TIMER_ACCESS_H
#define PMTRACE_PLATFORM_SRC_GENERIC_TIMER_ACCESS_H

#include "pmtrace/platform/timer/generic_timer_regs.h"

#include <cstdint>

namespace pmtrace::platform
{

struct cnt_access_state {
    unsigned el = 0; // PSTATE.EL, an implemented Exception level
    bool have_el2 = true;
    bool have_el3 = true;
    bool el2_enabled = false; // EL2Enabled() (true at EL2 whenever EL2 is implemented)
    bool hcr_e2h = false;
    bool hcr_tge = false;
    uint64_t cntkctl = 0; // CNTKCTL_EL1
    uint64_t cnthctl = 0; // CNTHCTL_EL2
};

// PMT_ACCESS_OK, _UNDEFINED, _TRAP_EL1 or _TRAP_EL2.
pmt_access cnt_access(cnt_reg reg, bool write, const cnt_access_state &s);

// ELIsInHost(PSTATE.EL): EL2 with HCR_EL2.E2H set, or EL0 with HCR_EL2.{E2H, TGE} = {1, 1}.
bool cnt_in_host(const cnt_access_state &s);

} // namespace pmtrace::platform

#endif
