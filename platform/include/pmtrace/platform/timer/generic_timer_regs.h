// generic_timer_regs.h - the Generic Timer's AArch64 System registers (Arm ARM D12, "The
// Generic Timer in AArch64 state", and the register descriptions in D24): their encodings and
// names, and the fields of the control registers the timer interprets.
//
// Encodings (op0, op1, CRn, CRm, op2), as the register descriptions and Linux's
// arch/arm64/include/asm/sysreg.h give them:
//   CNTFRQ_EL0 3,3,14,0,0   CNTPCT_EL0 3,3,14,0,1   CNTVCT_EL0 3,3,14,0,2   CNTKCTL_EL1 3,0,14,1,0
//   CNTP_TVAL/CTL/CVAL_EL0  3,3,14,2,0/1/2          CNTV_TVAL/CTL/CVAL_EL0  3,3,14,3,0/1/2
//   CNTVOFF_EL2 3,4,14,0,3  CNTHCTL_EL2 3,4,14,1,0  CNTHP_TVAL/CTL/CVAL_EL2 3,4,14,2,0/1/2
#ifndef PMTRACE_PLATFORM_GENERIC_TIMER_REGS_H
#define PMTRACE_PLATFORM_GENERIC_TIMER_REGS_H

#include <pmtrace/pmt_types.h>

#include <cstdint>

namespace pmtrace::platform
{

enum class cnt_reg {
    CNTFRQ_EL0,
    CNTPCT_EL0,
    CNTVCT_EL0,
    CNTKCTL_EL1,
    CNTP_TVAL_EL0,
    CNTP_CTL_EL0,
    CNTP_CVAL_EL0,
    CNTV_TVAL_EL0,
    CNTV_CTL_EL0,
    CNTV_CVAL_EL0,
    CNTVOFF_EL2,
    CNTHCTL_EL2,
    CNTHP_TVAL_EL2,
    CNTHP_CTL_EL2,
    CNTHP_CVAL_EL2,
    none
};

// The register an encoding names (cnt_reg::none if it is not one of the timer's), and its name.
cnt_reg cnt_decode(pmt_sysreg encoding);
const char *cnt_name(cnt_reg reg);

// CNTP_CTL_EL0, CNTV_CTL_EL0, CNTHP_CTL_EL2. ISTATUS is read-only.
constexpr uint64_t cnt_ctl_enable = 1u << 0;
constexpr uint64_t cnt_ctl_imask = 1u << 1;
constexpr uint64_t cnt_ctl_istatus = 1u << 2;

// CNTFRQ_EL0.ClockFreq, bits [31:0]; bits [63:32] are RES0.
constexpr uint64_t cntfrq_mask = 0xFFFF'FFFFu;

// CNTP_TVAL_EL0, CNTV_TVAL_EL0, CNTHP_TVAL_EL2: TimerValue, bits [31:0]; bits [63:32] are RES0.
constexpr uint64_t cnt_tval_mask = 0xFFFF'FFFFu;

// CNTKCTL_EL1 (without FEAT_ECV: bits [63:10] are RES0).
constexpr uint64_t cntkctl_el0pcten = 1u << 0; // EL0 access to CNTPCT_EL0 (and CNTFRQ_EL0)
constexpr uint64_t cntkctl_el0vcten = 1u << 1; // EL0 access to CNTVCT_EL0 (and CNTFRQ_EL0)
constexpr uint64_t cntkctl_evnten = 1u << 2;   // event stream (held, not generated)
constexpr uint64_t cntkctl_evntdir = 1u << 3;
constexpr uint64_t cntkctl_evnti = 0xFu << 4;
constexpr uint64_t cntkctl_el0vten = 1u << 8; // EL0 access to CNTV_*_EL0
constexpr uint64_t cntkctl_el0pten = 1u << 9; // EL0 access to CNTP_*_EL0
constexpr uint64_t cntkctl_writable = 0x3FF;

// CNTHCTL_EL2 when HCR_EL2.E2H is 0.
constexpr uint64_t cnthctl_el1pcten = 1u << 0; // EL0/EL1 access to CNTPCT_EL0
constexpr uint64_t cnthctl_el1pcen = 1u << 1;  // EL0/EL1 access to CNTP_*_EL0
// CNTHCTL_EL2 when HCR_EL2.E2H is 1 (FEAT_VHE): bits [9:0] take CNTKCTL_EL1's layout.
constexpr uint64_t cnthctl_e2h_el0pcten = 1u << 0;
constexpr uint64_t cnthctl_e2h_el0vcten = 1u << 1;
constexpr uint64_t cnthctl_e2h_el0vten = 1u << 8;
constexpr uint64_t cnthctl_e2h_el0pten = 1u << 9;
constexpr uint64_t cnthctl_e2h_el1pcten = 1u << 10;
constexpr uint64_t cnthctl_e2h_el1pten = 1u << 11;
// Both layouts are held in one register (without FEAT_ECV or FEAT_RME: bits [63:12] RES0).
constexpr uint64_t cnthctl_writable = 0xFFF;

} // namespace pmtrace::platform

#endif
