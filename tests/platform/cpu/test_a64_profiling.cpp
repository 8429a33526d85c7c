// The Profiling exceptions on the AArch64 CPU (tests/platform/cpu/a64/): the PMU Profiling
// exception (FEAT_EBEP D13.3.2, FEAT_SEBEP D13.3.3), the TRBE Profiling exception (FEAT_TRBE_EXC,
// D6.5), PSTATE.PM and SPSR_ELx.{PM, PPEND}, and system register traps to EL2 from a program
// entered at EL2. Each program leaves what it saw in registers; the expected values come from the
// rules (TakeProfilingException and AArch64.TakeException of J1.1, ESR_ELx.EC of D24.2, the vector
// offsets of D1.3.1, Table D13-1, Table D13-2).
#include "a64_program.h"

#include <gtest/gtest.h>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

constexpr uint64_t spsr_pm = uint64_t{1} << 32;
constexpr uint64_t spsr_ppend = uint64_t{1} << 33;
constexpr uint64_t el1h_daif = 0x3C5; // SPSR: EL1h, D, A, I, F masked

vp_config with_ebep()
{
    vp_config c;
    c.pe.core.feat_ebep = true;
    return c;
}

} // namespace

// RGWLVY, RSCBDZ (Table D13-1, MDCR_EL3.PMEE = MDCR_EL2.PMEE = 0b01, PMECR_EL1.PMEE = 0b11,
// KPME = 1, PSTATE.PM = 0: "EL1" at EL1 and EL0), RKBPMJ: the overflow of counter 0 makes the
// exception pending, and it is taken before the next instruction. TakeProfilingException: EC
// 0x3D, IL 1, ISS<5:1> 0b00000 (PMU), ISS<0> 0 (asynchronous); ELR the instruction not executed;
// IKLVCH: the vector offset for non-interrupt exceptions, VBAR_EL1 + 0x200 (current EL with SPx,
// entry 4) and + 0x400 from EL0 (entry 8). AArch64.TakeException: SPSR_EL1 the state taken from
// (EL1h with D, A, I, F masked, PM 0 at bit 32; EL0t), PSTATE.PM = 1 (the PM register reads bit
// 32 set in the handler), D, A, I, F set, SP = 1 (SPSel); the ERET restores PM from
// SPSR_EL1[32]. IPFDLQ: the enabled exception disables PMUIRQ: no IRQ.
TEST(A64Profiling, PmuExceptionTakenAsynchronouslyAtEl1AndFromEl0)
{
    run_result r = run("pmu_exception", with_ebep());
    EXPECT_EQ(r.x[19], 2u);
    EXPECT_EQ(r.x[20], esr(0x3D, 0));
    EXPECT_EQ(r.x[21], r.x[1]);
    EXPECT_EQ(r.x[22], el1h_daif);
    EXPECT_EQ(r.x[23], 4u);
    EXPECT_EQ(r.x[24], spsr_pm);
    EXPECT_EQ(r.x[25], 0x3C0u); // D, A, I, F set
    EXPECT_EQ(r.x[27], 1u);     // SP_EL1 selected
    EXPECT_EQ(r.x[26], 0u);
    EXPECT_EQ(r.x[10], esr(0x3D, 0));
    EXPECT_EQ(r.x[11], r.x[2]);
    EXPECT_EQ(r.x[12], 0u);
    EXPECT_EQ(r.x[13], 8u);
    EXPECT_EQ(r.platform->a64->stats().profiling_exceptions, 2u);
    EXPECT_EQ(r.platform->a64->stats().irqs, 0u);
}

namespace
{

vp_config with_sebep()
{
    vp_config c = with_ebep();
    c.pe.core.feat_sebep = true;
    c.pe.core.pmu_version = PMT_PMUV3P9;
    return c;
}

} // namespace

// FEAT_SEBEP with counter 0 in synchronous mode (RSSVKV; INST_RETIRED is a synchronous event of
// D14.7). Entry 1: RNZLVW, the overflowing instruction sets PSTATE.PPEND and PMIAR_EL1 is its
// address; RHLYTW, the next instruction observes PPEND and takes the exception synchronously
// (ITSHPG: in its place, ELR its address): ISS<0> = 1; RBVBYS: SPSR_EL1[33] = PPEND = 1.
// Entry 2: the handler returns with SPSR_EL1.PPEND = 1: Table D13-2 case 2 (enabled, masked at
// EL1 with PSTATE.PM = 1, unmasked after at EL1 with PM = 0): PPEND comes back from SPSR_EL1
// and (RGBQFX) the target instruction takes the exception again; RMQDPX: the ERET itself counts
// as masked, so PMIAR_EL1 keeps the first address. Case 1: returning with SPSR_EL1.PM = 1 (masked
// after) sets PPEND to 0: no exception, and the PM register reads 1 after it. Entry 3: MSR PM,
// #0 unmasks the exception while PMOVSSET_EL0[0] is still 1; it generates INST_RETIRED, which
// counter 0 counts, so (IHMXCY, RNZLVW with RMQDPX's new values: docs/choices.md sync_values)
// it sets PPEND and PMIAR_EL1 is its address; the instruction after it takes the exception.
// Entry 4: the return from entry 3 (case 2, SPSR_EL1.PPEND cleared: PPEND 0) leaves the flag
// set and the exception unmasked: the first instruction after it generates INST_RETIRED and sets
// PPEND (IHMXCY), the second takes the exception, PMIAR_EL1 the first.
TEST(A64Profiling, SynchronousPmuExceptionAndPpendAcrossExceptionReturn)
{
    run_result r = run("sebep", with_sebep());
    const uint64_t overflows = r.x[1], taken_at = r.x[2], unmask = r.x[3];
    EXPECT_EQ(taken_at, overflows + 4);
    EXPECT_EQ(r.x[19], 4u);
    EXPECT_EQ(r.x[10], esr(0x3D, 1));
    EXPECT_EQ(r.x[11], taken_at);
    EXPECT_EQ(r.x[12], el1h_daif | spsr_ppend);
    EXPECT_EQ(r.x[13], overflows);
    EXPECT_EQ(r.x[14], esr(0x3D, 1));
    EXPECT_EQ(r.x[15], taken_at);
    EXPECT_EQ(r.x[16], el1h_daif | spsr_ppend);
    EXPECT_EQ(r.x[17], overflows);
    EXPECT_EQ(r.x[24], spsr_pm);
    EXPECT_EQ(r.x[20], esr(0x3D, 1));
    EXPECT_EQ(r.x[21], unmask + 4);
    EXPECT_EQ(r.x[22], el1h_daif | spsr_ppend);
    EXPECT_EQ(r.x[23], unmask);
    EXPECT_EQ(r.x[8], esr(0x3D, 1));
    EXPECT_EQ(r.x[26], unmask + 8);
    EXPECT_EQ(r.x[9], el1h_daif | spsr_ppend);
    EXPECT_EQ(r.x[27], unmask + 4);
    EXPECT_EQ(r.platform->a64->stats().profiling_exceptions, 4u);
}

// RMFMXQ (TRBSR_EL1.IRQ with MDCR_EL3.TRBEE = 0b01, TRFCR_EL2.EE = 0b01, TRFCR_EL1.EE = 0b11,
// KE = 1, TGE 0): Table D6-8, "EL1" from EL1 with PSTATE.PM = 0. RMBSHC: the buffer full event
// sets TRBSR_EL1.{IRQ, WRAP, S} and BSC 0b000001. The exception is taken at the spinning
// instruction (the one instruction of the loop; RYXTTY): CheckForTRBEException's
// TakeProfilingException with ISS<5:1> = 0b00010 and ISS<0> = 0, VBAR_EL1 + 0x200 (entry 4),
// SPSR_EL1 EL1h with D, A, F masked and I clear. RVSCDV: with the exception enabled TRBIRQ is
// LOW: no IRQ although PPI 22 is enabled and PSTATE.I is clear. AArch64.TakeException sets
// PSTATE.PM only with FEAT_EBEP, which this PE has too: the handler runs with the exception
// masked (KE = 1, PM = 1) and is entered once.
TEST(A64Profiling, TrbeProfilingExceptionOnBufferFull)
{
    vp_config c = with_ebep();
    c.pe.core.trbe.feat_trbe_exc = true;
    c.a64_trace_stand_in = true;
    run_result r = run("trbe_exception", c);
    EXPECT_EQ(r.x[27], 1u);
    EXPECT_EQ(r.x[20], esr(0x3D, 0b00010 << 1));
    EXPECT_EQ(r.x[21], r.x[1]);
    EXPECT_EQ(r.x[22], 0x345u);
    EXPECT_EQ(r.x[23], (1u << 22) | (1u << 20) | (1u << 17) | 1u); // IRQ, WRAP, S, BSC full
    EXPECT_EQ(r.x[25], 4u);
    EXPECT_EQ(r.platform->a64->stats().profiling_exceptions, 1u);
    EXPECT_EQ(r.platform->a64->stats().irqs, 0u);
    EXPECT_FALSE(r.platform->pe.trbirq.read());
}

// IGMXLL (RBKHSW): the priority of the asynchronous PMU Profiling exception over an IRQ is
// IMPLEMENTATION DEFINED: a64_cpu_config::profiling_before_irq. Both are pending after the MSR
// ICC_SGI1R_EL1 that overflows counter 0, at `after`.
namespace
{
void profiling_and_irq(bool profiling_first)
{
    vp_config c = with_ebep();
    c.a64.profiling_before_irq = profiling_first;
    run_result r = run("profiling_irq", c);
    EXPECT_EQ(r.x[20], profiling_first ? 1u : 2u);
    EXPECT_EQ(r.x[22], profiling_first ? 2u : 1u);
    EXPECT_EQ(r.x[21], r.x[1]);
    EXPECT_EQ(r.x[23], r.x[1]);
    EXPECT_EQ(r.x[24], 1u); // SGI 1
    EXPECT_EQ(r.platform->a64->stats().profiling_exceptions, 1u);
    EXPECT_EQ(r.platform->a64->stats().irqs, 1u);
}
} // namespace

// The Profiling exception first: its handler runs with D, A, I, F masked, and the IRQ is taken
// when it returns (PSTATE.I restored from SPSR_EL1), at the same instruction.
TEST(A64Profiling, ProfilingExceptionBeforeAnIrq)
{
    profiling_and_irq(true);
}

// The IRQ first: its entry sets PSTATE.PM (FEAT_EBEP), which masks the Profiling exception at
// EL1 (RSCBDZ) until the IRQ handler returns; it is then taken at the same instruction.
TEST(A64Profiling, ProfilingExceptionAfterAnIrq)
{
    profiling_and_irq(false);
}

// A program entered at EL2 (vp_config::a64.entry_el). MDCR_EL2.TPM traps EL1's MRS PMCCNTR_EL0
// to EL2 (the PE model answers TRAP_EL2): EC 0x18 with the ISS of D24.2.40 (Op0 3, Op2 0, Op1 3,
// CRn 9, Rt 5, CRm 13, read), ELR_EL2 the MRS, SPSR_EL2 EL1h with D, A, I, F masked, VBAR_EL2 +
// 0x400 (lower EL using AArch64: entry 8); x5 is not written. HVC #3 from EL1: EC 0x16, ISS 3, at
// entry 8 too. D14.3 with D14.1's Taken locally, each counted at EL1 (the state taken from,
// D13.7.3.1; the counters do not count at EL2): EXC_TAKEN 3 (the trap, SVC, HVC), EXC_TRAP_OTHER
// 1 (the trap: EL1 to EL2 is not Taken locally), EXC_UNDEF 0, EXC_HVC 1, EXC_SVC 1 (EL1 to EL1),
// EXC_RETURN 1 (the EL1 handler's ERET; the two ERETs at EL2 are not counted there).
TEST(A64Profiling, El1PmuAccessTrapsToEl2WithMdcrEl2Tpm)
{
    vp_config c;
    c.a64.entry_el = 2;
    run_result r = run("el2_trap", c);
    const uint32_t iss =
        (3u << 20) | (0u << 17) | (3u << 14) | (9u << 10) | (5u << 5) | (13u << 1) | 1u;
    EXPECT_EQ(r.x[20], esr(0x18, iss));
    EXPECT_EQ(r.x[21], r.x[1]);
    EXPECT_EQ(r.x[22], el1h_daif);
    EXPECT_EQ(r.x[23], 8u);
    EXPECT_EQ(r.x[5], 0u);
    EXPECT_EQ(r.x[24], esr(0x15, 7));
    EXPECT_EQ(r.x[26], esr(0x16, 3));
    EXPECT_EQ(r.x[27], 8u);
    EXPECT_EQ(r.x[10], 3u); // EXC_TAKEN
    EXPECT_EQ(r.x[11], 1u); // EXC_TRAP_OTHER
    EXPECT_EQ(r.x[12], 0u); // EXC_UNDEF
    EXPECT_EQ(r.x[13], 1u); // EXC_HVC
    EXPECT_EQ(r.x[14], 1u); // EXC_SVC
    EXPECT_EQ(r.x[15], 1u); // EXC_RETURN
    EXPECT_EQ(r.platform->a64->stats().exceptions, 3u);
}
