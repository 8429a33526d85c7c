// a64_cpu_regs.h - the system register encodings the CPU model itself reads and writes, and
// the Exception Syndrome classes it generates (Arm ARM D24.2, ESR_ELx.EC).
#ifndef PMTRACE_PLATFORM_A64_CPU_REGS_H
#define PMTRACE_PLATFORM_A64_CPU_REGS_H

#include <pmtrace/platform/cpu/a64_engine.h>
#include <pmtrace/pmt_types.h>

#include "hal/hal.h"
#include "hal/hal_impl.h"

#include <cstdint>
#include <sstream>
#include <string>

namespace pmtrace::platform::a64
{

struct enc {
    unsigned op0, op1, crn, crm, op2;
};

// op1 of the EL1, EL2 and EL3 copies of a register (index: the Exception level).
constexpr unsigned el_op1[4] = {0, 0, 4, 6};
inline enc elr(unsigned el)
{
    return {3, el_op1[el], 4, 0, 1};
}
inline enc spsr(unsigned el)
{
    return {3, el_op1[el], 4, 0, 0};
}
inline enc esr(unsigned el)
{
    return {3, el_op1[el], 5, 2, 0};
}
inline enc far(unsigned el)
{
    return {3, el_op1[el], 6, 0, 0};
}
inline enc vbar(unsigned el)
{
    return {3, el_op1[el], 12, 0, 0};
}
inline enc sctlr(unsigned el)
{
    return {3, el_op1[el], 1, 0, 0};
}
inline enc tcr(unsigned el)
{
    return {3, el_op1[el], 2, 0, 2};
}
inline enc ttbr0(unsigned el)
{
    return {3, el_op1[el], 2, 0, 0};
}
inline enc ttbr1(unsigned el)
{
    return {3, el_op1[el], 2, 0, 1};
}
inline enc mair(unsigned el)
{
    return {3, el_op1[el], 10, 2, 0};
}
constexpr enc midr_el1{3, 0, 0, 0, 0};
constexpr enc vpidr_el2{3, 4, 0, 0, 0};
constexpr enc hcr_el2{3, 4, 1, 1, 0};
constexpr enc scr_el3{3, 6, 1, 1, 0};
constexpr enc cpacr_el1{3, 0, 1, 0, 2};
constexpr enc cptr_el2{3, 4, 1, 1, 2};
constexpr enc cptr_el3{3, 6, 1, 1, 2};
constexpr enc id_aa64pfr0_el1{3, 0, 0, 4, 0};
constexpr enc id_aa64mmfr0_el1{3, 0, 0, 7, 0};
constexpr enc id_aa64dfr0_el1{3, 0, 0, 5, 0};
constexpr enc id_aa64dfr1_el1{3, 0, 0, 5, 1};
constexpr enc dc_zva{1, 3, 7, 4, 1}; // DC ZVA (SYS)
constexpr enc contextidr_el1{3, 0, 13, 0, 1};
constexpr enc contextidr_el2{3, 4, 13, 0, 1};
constexpr enc contextidr_el12{3, 5, 13, 0, 1};
constexpr enc vttbr_el2{3, 4, 2, 1, 0};
constexpr enc mdcr_el2{3, 4, 1, 1, 1};
constexpr enc mdcr_el3{3, 6, 1, 3, 1};
constexpr enc oslsr_el1{2, 0, 1, 1, 4};
constexpr enc osdlr_el1{2, 0, 1, 3, 4};
constexpr enc dbgprcr_el1{2, 0, 1, 4, 4};

// Whether the access is to register r.
inline bool is(const a64_sysreg_access &a, enc r)
{
    return a.op0 == r.op0 && a.op1 == r.op1 && a.crn == r.crn && a.crm == r.crm && a.op2 == r.op2;
}

// SCTLR_ELx bits.
constexpr uint64_t sctlr_m = 1u << 0;     // stage 1 translation enabled
constexpr uint64_t sctlr_ntwi = 1u << 16; // SCTLR_EL1: WFI at EL0 not trapped

// HCR_EL2 bits.
constexpr uint64_t hcr_imo = 1u << 4;
constexpr uint64_t hcr_amo = 1u << 5;
constexpr uint64_t hcr_tid3 = 1u << 18;
constexpr uint64_t hcr_tsc = 1u << 19;
constexpr uint64_t hcr_tge = 1u << 27;
constexpr uint64_t hcr_e2h = uint64_t{1} << 34;

// SCR_EL3 bits (D24.2.169).
constexpr uint64_t scr_ns = 1u << 0;
constexpr uint64_t scr_irq = 1u << 1;
constexpr uint64_t scr_ea = 1u << 3;
constexpr uint64_t scr_smd = 1u << 7;
constexpr uint64_t scr_hce = 1u << 8;
constexpr uint64_t scr_eel2 = 1u << 18;

// PSTATE (SPSR layout).
constexpr uint64_t pstate_sp = 1u << 0;
constexpr uint64_t pstate_f = 1u << 6;
constexpr uint64_t pstate_i = 1u << 7;
constexpr uint64_t pstate_a = 1u << 8;
constexpr uint64_t pstate_d = 1u << 9;
constexpr uint64_t pstate_ss = 1u << 21; // software step (the CPU holds it: a64_cpu_debug.cpp)
constexpr uint64_t pstate_pan = 1u << 22;
constexpr uint64_t pstate_nzcv = 0xFull << 28;
// SPSR_ELx bits the engine's PSTATE does not hold (GetPSRFromPSTATE): PM (FEAT_EBEP,
// FEAT_TRBE_EXC) and PPEND (FEAT_SEBEP).
constexpr uint64_t spsr_pm = uint64_t{1} << 32;
constexpr uint64_t spsr_ppend = uint64_t{1} << 33;

// ESR_ELx.EC.
enum ec : uint32_t {
    EC_UNKNOWN = 0x00,
    EC_SVC64 = 0x15,
    EC_HVC64 = 0x16,
    EC_SMC64 = 0x17,
    EC_SYS64 = 0x18,
    EC_IABORT_LOWER = 0x20,
    EC_IABORT_SAME = 0x21,
    EC_DABORT_LOWER = 0x24,
    EC_DABORT_SAME = 0x25,
    EC_SERROR = 0x2F,
    // The debug exceptions (D2): from a lower Exception level; one more from the same one.
    EC_BREAKPOINT_LOWER = 0x30,
    EC_SOFTWARE_STEP_LOWER = 0x32,
    EC_WATCHPOINT_LOWER = 0x34,
    EC_BRK64 = 0x3C,
    EC_PROFILING = 0x3D, // Exception_Profiling (FEAT_EBEP, FEAT_TRBE_EXC, FEAT_SPE_EXC)
};

// Vector offsets (D1.3.1): the exception type within a group.
enum vector_type : unsigned { VEC_SYNC = 0, VEC_IRQ = 1, VEC_FIQ = 2, VEC_SERROR = 3 };

// The engine's copy of a register.
inline uint64_t get(a64_engine &e, enc r)
{
    uint64_t v = 0;
    e.sysreg(r.op0, r.op1, r.crn, r.crm, r.op2, v);
    return v;
}
inline void put(a64_engine &e, enc r, uint64_t v)
{
    e.set_sysreg(r.op0, r.op1, r.crn, r.crm, r.op2, v);
}

// An address or a value in messages.
inline std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

} // namespace pmtrace::platform::a64

#endif
