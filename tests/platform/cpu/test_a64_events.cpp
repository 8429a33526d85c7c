// The PMU events of executed A64 code (tests/platform/cpu/a64/): counts over programs of known
// shape, exact overflow at the instruction that causes it for events besides INST_RETIRED,
// CHAIN, SW_INCR and filtering by Exception level. Expected values come from the programs'
// shapes and the event definitions of D14.3 (and D14.1 for what an instruction is).
#include "a64_program.h"

#include <pmtrace/pmt_pe.h>

#include <gtest/gtest.h>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

vp_config with_counters(unsigned n)
{
    vp_config c;
    c.pe.core.num_counters = n;
    return c;
}

} // namespace

// events.S, per iteration: ldr, str, ldp, stp; bl -> ret; blr -> ret; svc -> (vector: mov, b)
// -> eret; cbz (not taken); subs; b.ne (taken but the last time): 15 instructions.
// D14.3 LD_RETIRED/ST_RETIRED count Memory-reading/-writing instructions (D14.1): LDP is one
// instruction, so one each. MEM_ACCESS: the number of operations an instruction makes is
// IMPLEMENTATION DEFINED; this CPU makes one per LDR/STR/LDP/STP (docs/choices.md), so 4.
// BR_RETIRED: every branch, conditional ones "regardless of whether the branch is taken", and
// exception returns (required with FEAT_PMUv3p9, recommended before; not SVC): bl, ret, blr,
// ret, b, eret, cbz, b.ne = 8. BR_IMMED_RETIRED: bl, b, cbz, b.ne = 4, taken or not.
// BR_RETURN_RETIRED: two RETs. BR_IND_RETIRED: software changes of the PC that are neither
// immediate nor exception-generating: ret, blr, ret, eret = 4. INST_RETIRED: the enabling MSR
// and 15 per iteration.
TEST(A64Events, LoadsStoresAndBranchesOfALoop)
{
    run_result r = run("events", with_counters(8));
    const uint64_t k = r.x[18];
    ASSERT_EQ(k, 10u);
    EXPECT_EQ(r.x[10], 4 * k); // MEM_ACCESS
    EXPECT_EQ(r.x[11], 2 * k); // LD_RETIRED
    EXPECT_EQ(r.x[12], 2 * k); // ST_RETIRED
    EXPECT_EQ(r.x[13], 8 * k); // BR_RETIRED
    EXPECT_EQ(r.x[14], 4 * k); // BR_IMMED_RETIRED
    EXPECT_EQ(r.x[15], 2 * k); // BR_RETURN_RETIRED
    EXPECT_EQ(r.x[16], 4 * k); // BR_IND_RETIRED
    EXPECT_EQ(r.x[17], 1 + 15 * k);
}

// RHTPDY, and the exact overflow for every event the CPU delivers: MEM_ACCESS from
// 2^32 - 5 overflows on the fifth access (an LDR in the middle of a block of loads, stores and
// data processing); the IRQ's ELR_EL1 is the next instruction. BR_RETIRED from 2^32 - 3
// overflows on the third B, the last instruction of its block: the IRQ's ELR_EL1 is that
// branch's target. PMOVSCLR_EL0 shows the one counter each time.
TEST(A64Events, OverflowInterruptAtTheExactAccessAndBranch)
{
    run_result r = run("event_overflow");
    EXPECT_EQ(r.x[27], 2u);
    EXPECT_EQ(r.x[20], r.x[24]); // after_mem
    EXPECT_EQ(r.x[22], 1u);
    EXPECT_EQ(r.x[21], r.x[25]); // after_br
    EXPECT_EQ(r.x[23], 2u);
    EXPECT_EQ(r.platform->a64->stats().irqs, 2u);
}

// The same exactness inside loops, where the CPU adds up whole blocks without looking at their
// instructions: MEM_ACCESS from 2^32 - 1000 in a loop of one block (the engine repeats it without
// calling the CPU) overflows on the 1000th LDR, and the IRQ is taken right after it; BR_RETIRED
// from 2^32 - 777 in a loop of two blocks (each counted on on_block's fast path) overflows on
// the B of iteration 389, and the IRQ is taken at its target. The counters end exact.
TEST(A64Events, OverflowInsideLoopsAtTheExactInstruction)
{
    run_result r = run("loop_overflow");
    EXPECT_EQ(r.x[27], 2u);
    EXPECT_EQ(r.x[20], r.x[24]); // after_ldr
    EXPECT_EQ(r.x[21], 999u);
    EXPECT_EQ(r.x[22], r.x[25]); // target
    EXPECT_EQ(r.x[23], 389u);
    // 64-bit event counters (FEAT_PMUv3p5) overflow at bits [31:0] with PMCR_EL0.LP = 0 and
    // keep counting in bits [63:32].
    EXPECT_EQ(r.x[12], 0x1'0000'0000u + 5000u - 1000u);
    EXPECT_EQ(r.x[13], 0x1'0000'0000u + 2000u + 4u - 777u);
    EXPECT_EQ(r.platform->a64->stats().irqs, 2u);
}

// CHAIN (D14.3 0x001E) with FEAT_PMUv3p5 and PMCR_EL0.LP = 0: counter 0 overflows at bits
// [31:0] (RQZJKS: PMOVS[0] = 1) while bits [63:0] increment (IFYVTD): 2^32 - 10 + 20; the odd
// counter 1 counts the overflow, from 2^32 - 1 to 2^32, which overflows its own bits [31:0]
// (PMOVS[1] = 1).
TEST(A64Events, ChainCountsTheEvenCountersOverflowWithPmuv3p5)
{
    run_result r = run("chain", vp_config(), 1); // PMCR_EL0.E
    EXPECT_EQ(r.x[10], 0x1'0000'000Au);
    EXPECT_EQ(r.x[11], 0x1'0000'0000u);
    EXPECT_EQ(r.x[12], 3u);
}

// With PMCR_EL0.LP = 1 event counters overflow at bits [63:0] (RQZJKS): counter 0 does not
// overflow, and CHAIN counts only when LP is 0 (D14.3 0x001E): counter 1 stays.
TEST(A64Events, ChainDoesNotCountWithLongEventCounters)
{
    run_result r = run("chain", vp_config(), 1 | (1u << 7)); // E, LP
    EXPECT_EQ(r.x[10], 0x1'0000'000Au);
    EXPECT_EQ(r.x[11], 0xFFFF'FFFFu);
    EXPECT_EQ(r.x[12], 0u);
}

// Without FEAT_PMUv3p5 event counters are 32 bits (RQZJKS): counter 0 wraps to 10 and CHAIN
// (counted whenever FEAT_PMUv3p5 is not implemented) wraps counter 1 to 0: both overflow.
TEST(A64Events, ChainMakesA64BitCounterBeforePmuv3p5)
{
    vp_config c;
    c.pe.core.pmu_version = PMT_PMUV3P4;
    run_result r = run("chain", c, 1);
    EXPECT_EQ(r.x[10], 0xAu);
    EXPECT_EQ(r.x[11], 0u);
    EXPECT_EQ(r.x[12], 3u);
}

// SW_INCR (D14.3 0x0000, D13.7.3.2): each MSR PMSWINC_EL0 with bit [n] set increments counter
// n when it counts SW_INCR, is enabled (PMCR_EL0.E, PMCNTENSET_EL0) and its filter allows the
// Exception level (counter 3 has P = 1: not at EL1). Counter 0, from 2^32 - 2, overflows on
// the second write that selects it; the IRQ is taken right after that MSR.
TEST(A64Events, SoftwareIncrementCountsAndOverflowsAtTheMsr)
{
    run_result r = run("swincr");
    EXPECT_EQ(r.x[20], r.x[1]); // after
    EXPECT_EQ(r.x[21], 23u);
    EXPECT_EQ(r.x[22], 1u);
    EXPECT_EQ(r.x[10], 0x1'0000'0000u); // 64-bit counter, overflow at [31:0] (PMCR_EL0.LP = 0)
    EXPECT_EQ(r.x[11], 2u);
    EXPECT_EQ(r.x[12], 5u); // disabled
    EXPECT_EQ(r.x[13], 7u); // filtered out at EL1
    EXPECT_EQ(r.platform->a64->stats().irqs, 1u);
}

// PMEVTYPER<n>_EL0.U = 1 (with NSU = 0): the counter does not count at Non-secure EL0. The
// program counts at EL1 from the enabling MSR through the ERET, at EL0 from `user` through the
// SVC (the SVC executes at EL0), and at EL1 the vector's two instructions.
TEST(A64Events, FilterUExcludesEveryEl0Instruction)
{
    run_result r = run("el_filter");
    const uint64_t el1 = (r.x[2] - r.x[1]) / 4 + 1 + 2;
    const uint64_t el0 = (r.x[4] - r.x[3]) / 4 + 1;
    EXPECT_EQ(el0, 10u); // 8 NOPs, ADD, SVC
    EXPECT_EQ(r.x[10], el1);
    EXPECT_EQ(r.x[11], el1 + el0);
}

// Filtering is re-evaluated when the Exception level changes, and so is the CPU's budget: a
// counter that counts only at EL0 (P = 1), 5 instructions from overflow when EL1 ERETs to EL0,
// overflows on the fifth EL0 instruction; the IRQ is taken from EL0 (SPSR_EL1 EL0t) before
// the sixth.
TEST(A64Events, OverflowAtEl0RightAfterTheEret)
{
    run_result r = run("el0_overflow");
    EXPECT_EQ(r.x[20], r.x[1] + 5 * 4);
    EXPECT_EQ(r.x[21], 0u);
    EXPECT_EQ(r.x[22], 23u);
    EXPECT_EQ(r.x[23], 1u);
}

// The same with SCTLR_EL1.nTWI = 0 (WFI at EL0 traps to EL1, D1.6): the run that stops after the
// fifth instruction at EL0 ends exactly there, and no exception but the IRQ is taken (Unicorn
// imitates a WFI where it stops inside a block, which would trap: docs/cpu.md).
TEST(A64Events, OverflowAtEl0WithWfiTrapped)
{
    run_result r = run("el0_overflow", vp_config(), 1);
    EXPECT_EQ(r.x[20], r.x[1] + 5 * 4);
    EXPECT_EQ(r.x[21], 0u);
    EXPECT_EQ(r.x[22], 23u);
    EXPECT_EQ(r.x[23], 1u);
    EXPECT_EQ(r.platform->a64->stats().exceptions, 2u); // the IRQ and the final SVC
}

// D14.3 EXC_TAKEN counts each exception taken, EXC_SVC each SVC Taken locally, EXC_UNDEF every
// other synchronous exception Taken locally (BRK, UDF, the trapped MRS), EXC_IRQ each IRQ Taken
// locally, EXC_TRAP_OTHER none (nothing here leaves the EL or EL0 -> EL1 path: D14.1 "Taken
// locally"); EXC_RETURN each ERET: 7. D13.7.3.1: an exception is counted before it is taken,
// an exception return before it returns, so the third ERET's overflow is an IRQ taken at the
// instruction it returns to.
TEST(A64Events, ExceptionEventsAndAnOverflowOnExceptionReturn)
{
    run_result r = run("exc_events");
    EXPECT_EQ(r.x[10], 6u);
    EXPECT_EQ(r.x[11], 2u);
    EXPECT_EQ(r.x[12], 3u);
    EXPECT_EQ(r.x[13], 0x1'0000'0004u); // 2^32 - 3 + 7
    EXPECT_EQ(r.x[14], 1u);
    EXPECT_EQ(r.x[15], 0u);
    EXPECT_EQ(r.x[20], r.x[1]);
    EXPECT_EQ(r.x[21], 23u);
    EXPECT_EQ(r.x[22], 1u << 3);
}

// D14.3: PMCEID0_EL0[e] (e < 32), PMCEID1_EL0[e - 32] and PMCEID0_EL0[32 + e - 0x4000] read 1
// for an implemented event: with the AArch64 CPU exactly those it delivers (SW_INCR, LD_RETIRED,
// ST_RETIRED, INST_RETIRED, EXC_TAKEN, EXC_RETURN, PC_WRITE_RETIRED, BR_IMMED_RETIRED,
// BR_RETURN_RETIRED, CPU_CYCLES, MEM_ACCESS, CHAIN; BR_RETIRED, STALL_FRONTEND, STALL_BACKEND,
// STALL; the Trace Buffer Unit's TRB_WRAP and TRB_TRIG).
// D14.3 PC_WRITE_RETIRED counts each Software change of the PC that is taken: a conditional
// branch only when taken (pc_write.S: 4 per iteration but the last b.ne), where BR_RETIRED counts
// every branch (6 per iteration).
TEST(A64Events, PcWriteRetiredCountsTakenBranchesOnly)
{
    run_result r = run("pc_write");
    EXPECT_EQ(r.x[10], 4u * 10 - 1);
    EXPECT_EQ(r.x[11], 6u * 10);
}

TEST(A64Events, PmceidListsTheEventsTheCpuDelivers)
{
    run_result r = run("events", with_counters(8));
    uint64_t pmceid0 = 0;
    for (unsigned e : {0x00, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x11, 0x13, 0x1E})
        pmceid0 |= uint64_t{1} << e;
    pmceid0 |= (uint64_t{1} << (32 + 0x0C)) | (uint64_t{1} << (32 + 0x0E));
    EXPECT_EQ(r.x[19], pmceid0);
    // PMCEID1_EL0: BR_RETIRED, STALL_FRONTEND, STALL_BACKEND, STALL (0x21, 0x23, 0x24, 0x3C).
    uint64_t pmceid1 = 0;
    for (unsigned e : {0x21, 0x23, 0x24, 0x3C})
        pmceid1 |= uint64_t{1} << (e - 32);
    EXPECT_EQ(r.x[20], pmceid1);
}

// D14.3 STALL_FRONTEND, STALL_BACKEND, STALL: cycles counted by CPU_CYCLES with no operation sent
// for execution. The CPU's timing model has two such waits (docs/choices.md): the delay of a
// device access (backend: the bus's 5 cycles and the PL011's 10 here, for a load of UARTFR) and
// an exception's entry (frontend: 5 cycles an SVC here). stalls.S makes 4 of each; STALL counts
// both kinds.
TEST(A64Events, StallCyclesOfDeviceAccessesAndExceptionEntries)
{
    vp_config c = with_counters(3);
    c.bus_latency = sc_core::sc_time(5, sc_core::SC_NS); // cycles of the 1 ns clock
    c.uart.access_latency = sc_core::sc_time(10, sc_core::SC_NS);
    c.a64.exception_entry_cycles = 5;
    run_result r = run("stalls", c);
    EXPECT_EQ(r.x[10], 4 * 5u);          // STALL_FRONTEND
    EXPECT_EQ(r.x[11], 4 * 15u);         // STALL_BACKEND
    EXPECT_EQ(r.x[12], 4 * 5u + 4 * 15); // STALL
}

// With no latency anywhere and no entry cycles the CPU never waits: no stall cycle.
TEST(A64Events, NoStallCyclesWithoutWaits)
{
    vp_config c = with_counters(3);
    c.uart.access_latency = sc_core::SC_ZERO_TIME;
    run_result r = run("stalls", c);
    EXPECT_EQ(r.x[10], 0u);
    EXPECT_EQ(r.x[11], 0u);
    EXPECT_EQ(r.x[12], 0u);
}

// D14.3 ST_RETIRED "does not count a Store-Exclusive instruction that fails" (D14.1: Condition
// code check pass excludes "a Store-Exclusive instruction that does not write to memory"), and
// a failed one makes no Memory-write operation (MEM_ACCESS); LDXR is a Memory-reading
// instruction. The third STXR's status is overwritten by the next instruction but one: the CPU
// still sees it failed.
TEST(A64Events, AFailedStoreExclusiveIsNoStore)
{
    run_result r = run("exclusive");
    EXPECT_EQ(r.x[3], 0u); // the architecture's results, as the engine executed them
    EXPECT_EQ(r.x[4], 1u);
    EXPECT_EQ(r.x[6], 1u);
    EXPECT_EQ(r.x[10], 2u); // MEM_ACCESS: LDXR, the first STXR
    EXPECT_EQ(r.x[11], 1u); // LD_RETIRED
    EXPECT_EQ(r.x[12], 1u); // ST_RETIRED
}

// Six store-exclusives in one block, three of which fail: the statuses the CPU keeps per block
// (four) and the ones it reads from the code beyond them uncount the same way.
TEST(A64Events, FailedStoreExclusivesBeyondFourInABlockAreNoStores)
{
    run_result r = run("exclusive_many");
    EXPECT_EQ(r.x[3], 0u);
    EXPECT_EQ(r.x[4], 1u);
    EXPECT_EQ(r.x[5], 0u);
    EXPECT_EQ(r.x[6], 1u);
    EXPECT_EQ(r.x[7], 0u);
    EXPECT_EQ(r.x[8], 1u);
    EXPECT_EQ(r.x[10], 6u); // MEM_ACCESS: three LDXR, three STXR that succeeded
    EXPECT_EQ(r.x[11], 3u); // LD_RETIRED
    EXPECT_EQ(r.x[12], 3u); // ST_RETIRED
}
