// Self-hosted debug on the AArch64 CPU (Arm ARM D2; a64_cpu_debug.cpp): the Breakpoint,
// Watchpoint, Software Step and Breakpoint Instruction exceptions, each with its syndrome, its
// return address and its FAR, their routing, and the OS Lock, by what the test programs
// (tests/platform/cpu/a64/debug_*.S) leave in registers and memory.
#include "a64_program.h"

#include <pmtrace/platform/vp.h>

#include <gtest/gtest.h>

#include <cstring>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{
// ESR_ELx.ISS of the debug exceptions: IFSC/DFSC 0b100010 (Debug exception); a Watchpoint's
// WnR [6]; a Software Step's ISV [24] and EX [6].
constexpr uint32_t debug_fsc = 0x22;
constexpr uint32_t wnr = 1u << 6;
constexpr uint32_t isv = 1u << 24;
constexpr uint32_t ex = 1u << 6;
} // namespace

// From EL0 to EL1 (debug_el0.S): no Breakpoint exception while the OS Lock is locked
// (AArch64.GenerateDebugExceptionsFrom); once it is unlocked, the breakpoint at bp_target is
// taken before it executes (EC 0x30 from a lower level, ELR bp_target), and bp_target runs once
// in each of the two runs; a store watchpoint is not hit by a load of the watched doubleword and
// is hit by the 4-byte store at +4 (EC 0x34, WnR, FAR the first byte written, ELR the store,
// which then runs once); software step takes an exception after each instruction (EC 0x32,
// ISV 1, ELR the next instruction; EX after the LDXR) and the stepped SVC is taken as the SVC;
// BRK #0x77 is EC 0x3C with the immediate, ELR the BRK.
TEST(A64Debug, DebugExceptionsFromEl0)
{
    run_result r = run("debug_el0");
    const labels at("debug_el0");
    EXPECT_EQ(r.x[9], 2u) << "bp_target's runs";
    EXPECT_EQ(r.x[8], 1u) << "Breakpoint exceptions";
    EXPECT_EQ(r.x[10], esr(0x30, debug_fsc));
    EXPECT_EQ(r.x[11], at("bp_target"));
    EXPECT_EQ(r.x[22], 1u) << "Watchpoint exceptions";
    EXPECT_EQ(r.x[12], esr(0x34, wnr | debug_fsc));
    EXPECT_EQ(r.x[13], at("wp_store"));
    EXPECT_EQ(r.x[14], at("var") + 4);
    uint32_t stored = 0;
    std::memcpy(&stored, r.platform->ram.data() + (at("var") + 4 - virt::ram_base), 4);
    EXPECT_EQ(stored, 0x5A5Au);
    EXPECT_EQ(r.x[27], 3u) << "Software Step exceptions";
    EXPECT_EQ(r.x[15], at("step1"));
    EXPECT_EQ(r.x[16], at("step2"));
    EXPECT_EQ(r.x[17], at("step3"));
    EXPECT_EQ(r.x[23], esr(0x32, isv | debug_fsc));
    EXPECT_EQ(r.x[24], esr(0x32, isv | debug_fsc));
    EXPECT_EQ(r.x[25], esr(0x32, isv | ex | debug_fsc));
    EXPECT_EQ(r.x[18], esr(0x3C, 0x77));
    EXPECT_EQ(r.x[26], at("brk_insn"));
}

// At EL1, with MDSCR_EL1.KDE and PSTATE.D clear (debug_el1.S): a breakpoint on EL1 code is taken
// to EL1 itself (EC 0x31, ELR the instruction); with PSTATE.D set it is not taken. Software step
// at EL1: an ERET made with PSTATE.D set (stepping not enabled where it runs) to SPSR_EL1.SS 1
// and D 0 steps stepA, then stepB: EC 0x33, ISV 1, ELR the next instruction each time. A load
// watchpoint at EL1: EC 0x35, WnR 0, FAR the address, ELR the load; not taken while the OS Lock
// or the OS Double Lock is locked.
TEST(A64Debug, DebugExceptionsAtEl1WithKde)
{
    run_result r = run("debug_el1");
    const labels at("debug_el1");
    EXPECT_EQ(r.x[12], 1u) << "Breakpoint exceptions";
    EXPECT_EQ(r.x[10], esr(0x31, debug_fsc));
    EXPECT_EQ(r.x[11], at("el1_target"));
    EXPECT_EQ(r.x[9], 2u);
    EXPECT_EQ(r.x[17], 2u) << "Software Step exceptions";
    EXPECT_EQ(r.x[13], at("stepB"));
    EXPECT_EQ(r.x[14], at("stepC"));
    EXPECT_EQ(r.x[15], esr(0x33, isv | debug_fsc));
    EXPECT_EQ(r.x[16], esr(0x33, isv | debug_fsc));
    EXPECT_EQ(r.x[6], 3u);
    EXPECT_EQ(r.x[22], 2u) << "Watchpoint exceptions";
    EXPECT_EQ(r.x[18], esr(0x35, debug_fsc)) << "a load: WnR 0";
    EXPECT_EQ(r.x[19], at("wp_load1"));
    EXPECT_EQ(r.x[20], at("var"));
    EXPECT_EQ(r.x[21], at("wp_load2")) << "none while the OS Lock or the OS Double Lock is locked";
}

// Entered at EL2 with MDCR_EL2.TDE (debug_el2.S): a breakpoint on EL0 code and BRK at EL0 are
// taken to EL2 (EC 0x30 and 0x3C in ESR_EL2); an SVC still goes to EL1; EL1's MRS of
// DBGBCR0_EL1 is trapped to EL2 (EC 0x18: Op0 2, Op2 5, Op1 0, CRn 0, Rt 1, CRm 0, read), ELR_EL2
// the MRS.
TEST(A64Debug, MdcrEl2TdeRoutesDebugExceptionsToEl2)
{
    vp_config config;
    config.a64.entry_el = 2;
    run_result r = run("debug_el2", config);
    const labels at("debug_el2");
    EXPECT_EQ(r.x[10], esr(0x30, debug_fsc));
    EXPECT_EQ(r.x[11], at("el0_target"));
    EXPECT_EQ(r.x[9], 1u);
    EXPECT_EQ(r.x[12], esr(0x3C, 5));
    EXPECT_EQ(r.x[13], at("brk_insn"));
    EXPECT_EQ(r.x[14], esr(0x18, (2u << 20) | (5u << 17) | (1u << 5) | 1u));
    EXPECT_EQ(r.x[15], at("el1_mrs"));
    EXPECT_EQ(r.x[1], 0x1234u);
}

// With MDSCR_EL1.MDE set, an ERET that returns to itself at EL1 runs until the timer's
// interrupt, which is taken from the loop (debug_eret_loop.S): the run ends at the quantum and at
// the timer's event as any run does (before, every ERET planned the run anew and pushed its end
// forward: the simulation never advanced; found by fuzz_cpu).
TEST(A64Debug, AnEretLoopWithDebugOnStillEndsItsRuns)
{
    run_result r = run("debug_eret_loop");
    const labels at("debug_eret_loop");
    EXPECT_EQ(r.x[9], 1u);
    EXPECT_EQ(r.x[21], 30u);
    EXPECT_EQ(r.x[20], at("loop"));
}

// OSDLR_EL1 read and written at EL1 (osdlr_read.S): DLK 0 out of reset, 1 after a write of 1,
// 0 after a write of 0; reading it no longer aborts the simulator inside Unicorn (fuzz_cpu).
TEST(A64Debug, OsdlrEl1ReadsBackItsDlk)
{
    run_result r = run("osdlr_read");
    EXPECT_EQ(r.x[10], 0u);
    EXPECT_EQ(r.x[11], 1u);
    EXPECT_EQ(r.x[12], 0u);
}
