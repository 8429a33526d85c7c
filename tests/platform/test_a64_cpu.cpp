// The AArch64 CPU on the reference platform: A64 programs (tests/platform/a64/) run to PSCI
// SYSTEM_OFF; each test checks what the program leaves in registers and memory against the
// architecture (ESR_ELx encodings of D24.2.40, the vector offsets of D1.3.1, PMU overflow).
#include "a64_program.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

std::vector<std::string> warnings;
void keep_warnings(const sc_core::sc_report &report, const sc_core::sc_actions &)
{
    if (report.get_severity() == sc_core::SC_WARNING)
        warnings.push_back(std::string(report.get_msg_type()) + ": " + report.get_msg());
}

} // namespace

// SVC (EC 0x15, ISS imm16, ELR the next instruction), BRK (EC 0x3C, ISS the comment, ELR the
// instruction) and an UNDEFINED instruction (EC 0x00, ELR the instruction), each taken from EL1h
// to VBAR_EL1 + 0x200 (current EL with SP_ELx, synchronous) with SPSR_EL1 = EL1h, DAIF masked.
TEST(A64Cpu, SynchronousExceptionsAtEl1)
{
    run_result r = run("exceptions");
    EXPECT_EQ(r.x[10], esr(0x15, 0x1234));
    EXPECT_EQ(r.x[11], r.x[1] + 4);
    EXPECT_EQ(r.x[12], 0x3C5u);
    EXPECT_EQ(r.x[13], 4u); // entry 4: current EL with SPx, synchronous
    EXPECT_EQ(r.x[14], esr(0x3C, 0x42));
    EXPECT_EQ(r.x[15], r.x[2]);
    EXPECT_EQ(r.x[16], esr(0x00, 0));
    EXPECT_EQ(r.x[17], r.x[3]);
}

// An INST_RETIRED counter preset to 2^32 - 10 overflows on the tenth instruction after the MSR
// that enables it (which counts itself); the IRQ (GIC INTID 23) is taken before the eleventh:
// ELR_EL1 is its address. PMOVSCLR_EL0 shows counter 0's overflow.
TEST(A64Cpu, OverflowInterruptAtTheExactInstruction)
{
    run_result r = run("overflow");
    EXPECT_EQ(r.x[2], r.x[1] + 40);
    EXPECT_EQ(r.x[20], r.x[2]);
    EXPECT_EQ(r.x[21], 23u);
    EXPECT_EQ(r.x[22], 1u);
    EXPECT_EQ(r.x[23], 5u); // entry 5: current EL with SPx, IRQ
    EXPECT_EQ(r.platform->a64->stats().irqs, 1u);
}

// Loads and stores to devices go over the bus: the PL011 gets "hi", UARTFR reads TXFE | RXFE,
// GICR_TYPER reads Last (bit 4); a load from a hole is a synchronous External abort: EC 0x25,
// ISS ISV, SAS 0b10, SRT 5, DFSC 0b010000; FAR_EL1 the address; ELR_EL1 the load.
TEST(A64Cpu, DeviceAccessesAndAnExternalAbort)
{
    sc_core::sc_report_handler::set_handler(keep_warnings);
    run_result r = run("device");
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "vp.bus: no target at 0xa000004 (4 bytes)");
    EXPECT_EQ(r.platform->uart.output(), "hi");
    EXPECT_EQ(r.x[3] & 0x90, 0x90u);
    EXPECT_EQ(r.x[4] & 0x10, 0x10u);
    EXPECT_EQ(r.x[20], esr(0x25, (1u << 24) | (2u << 22) | (5u << 16) | 0x10));
    EXPECT_EQ(r.x[21], r.x[6]);
    EXPECT_EQ(r.x[22], 0x0A00'0004u);
    EXPECT_EQ(r.x[9], 1u);
}

// At EL0 with PMUSERENR_EL0.EN = 0, MRS PMCCNTR_EL0 traps to EL1: EC 0x18 with ISS Op0 3, Op2 0,
// Op1 3, CRn 9, Rt 5, CRm 13, Direction 1 (read); ELR_EL1 the MRS; SPSR_EL1 EL0t; taken to
// VBAR_EL1 + 0x400 (lower EL, AArch64). MRS CurrentEL at EL0 is UNDEFINED (x1 stays 0).
TEST(A64Cpu, PmuAccessAtEl0TrapsToEl1)
{
    run_result r = run("el0_trap");
    uint32_t iss = (3u << 20) | (0u << 17) | (3u << 14) | (9u << 10) | (5u << 5) | (13u << 1) | 1u;
    EXPECT_EQ(r.x[10], esr(0x18, iss));
    EXPECT_EQ(r.x[11], r.x[8]);
    EXPECT_EQ(r.x[12], 0u);
    EXPECT_EQ(r.x[1], 0u);
    EXPECT_EQ(r.x[5], 0u);
    EXPECT_EQ(r.x[7], 4u); // back at EL1
}

// CNTP fires 625 ticks (10 us at CNTFRQ_EL0 = 62.5 MHz) after CNTP_TVAL_EL0 is written: WFI
// idles until then, INTID 30 is taken, the handler sees ISTATUS and a count of at least 625 more
// (within the two instructions between the interrupt and the read).
TEST(A64Cpu, TimerInterruptWakesWfi)
{
    run_result r = run("timer");
    EXPECT_EQ(r.x[3], 62'500'000u);
    EXPECT_EQ(r.x[21], 30u);
    EXPECT_EQ(r.x[23], 0b101u); // ENABLE, ISTATUS
    EXPECT_GE(r.x[22] - r.x[1], 625u);
    EXPECT_LE(r.x[22] - r.x[1], 627u);
    EXPECT_EQ(r.x[9], 1u);
    EXPECT_EQ(r.platform->a64->stats().wfis, 1u);
}
