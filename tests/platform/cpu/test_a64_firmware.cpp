// What A64 software sees of the platform around the CPU (tests/platform/cpu/a64/): PSCI as firmware
// answers it, and the Trace Buffer Unit driven as Linux's coresight-trbe drives it.
#include "a64_program.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace pmtrace::platform;
using namespace a64_test;

// PSCI 1.0 (Arm DEN 0022D) for the one PE, which is on: PSCI_VERSION 1.0 (0x10000);
// PSCI_FEATURES SUCCESS (0) for implemented functions and NOT_SUPPORTED (-1) for others;
// AFFINITY_INFO ON (0) for this PE and INVALID_PARAMETERS (-2) for one that does not exist;
// CPU_ON ALREADY_ON (-4) for this PE; MIGRATE_INFO_TYPE 2 (no Trusted OS that needs migrating).
// SYSTEM_OFF does not return: the CPU ends, the simulation stops there, and nothing after the
// HVC runs.
TEST(A64Firmware, PsciAnswersAndSystemOffEndsTheSimulation)
{
    run_result r = run("psci");
    auto result = [&](unsigned n) { return static_cast<int32_t>(r.x[n]); };
    EXPECT_EQ(result(10), 0x10000);
    EXPECT_EQ(result(11), 0);
    EXPECT_EQ(result(12), 0);
    EXPECT_EQ(result(13), -1);
    EXPECT_EQ(result(14), 0);
    EXPECT_EQ(result(15), -2);
    EXPECT_EQ(result(16), -4);
    EXPECT_EQ(result(17), 2);
    EXPECT_EQ(r.x[9], 0u);
    EXPECT_EQ(r.x[0], 0x8400'0008u); // SYSTEM_OFF's function ID, not overwritten by a result
    EXPECT_EQ(r.platform->a64->end(), a64_cpu_end::system_off);
    EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_STOPPED);
    EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_MS));
}

// Entered at EL3 (a64_cpu_config::entry_el 3, QEMU's secure=on), the image is the firmware: it
// ends through semihosting, nobody answers PSCI for it.
static run_result run_at_el3(const std::string &name)
{
    vp_config config;
    config.a64.entry_el = 3;
    config.a64.semihosting = true;
    run_result r;
    r.platform =
        pmtrace::test::run_image(std::string(PMTRACE_A64_DIR) + "/" + name + ".bin", config);
    for (unsigned n = 0; n < 31; n++)
        r.x[n] = r.platform->a64->engine().x(n);
    EXPECT_EQ(r.platform->a64->end(), a64_cpu_end::exit) << r.platform->a64->error();
    EXPECT_EQ(r.platform->a64->exit_status(), 0)
        << "vector entry " << r.x[18] << " at EL" << r.x[17];
    return r;
}

// At EL3: SMC is taken to EL3 (EC 0x17, ISS the immediate, ELR_EL3 the instruction after it:
// AArch64.CallSecureMonitor), from EL3 to the current EL's vector with SP_EL3 (entry 4) and from
// EL1 to the lower EL's (entry 8); HVC at Non-secure EL1 with SCR_EL3.HCE 1 is taken to EL2
// (EC 0x16), and with HCR_EL2.TSC an SMC at EL1 is trapped to EL2 (EC 0x17, ELR_EL2 the SMC:
// AArch64.CheckForSMCUndefOrTrap). SCR_EL3.NS 1 makes EL1 Non-secure: INST_RETIRED counts the
// HVC and the SMC that was not trapped there,
// and nothing at EL3 (Secure, MDCR_EL3.{SPME, MPMX} 0: counting prohibited, D13.7). With
// SCR_EL3.IRQ 1 the timer's IRQ is routed to EL3 and taken from EL1 although PSTATE.I is set
// there (D1.3.6: an interrupt routed to a higher Exception level is not masked by PSTATE).
TEST(A64Firmware, EnteredAtEl3TheImageIsTheFirmware)
{
    run_result r = run_at_el3("el3");
    EXPECT_EQ(r.x[2], 0xCu); // CurrentEL: EL3
    EXPECT_EQ(r.x[20], esr(0x17, 5));
    EXPECT_EQ(r.x[21], r.x[15] + 4);
    EXPECT_EQ(r.x[3], 0x531u); // with SCR_EL3[5:4], RES1
    EXPECT_EQ(r.x[12], esr(0x16, 7));
    EXPECT_EQ(r.x[13], 8u);
    EXPECT_EQ(r.x[8], esr(0x17, 8)); // HCR_EL2.TSC: the SMC trapped to EL2 ...
    EXPECT_EQ(r.x[9], r.x[7]);       // ... with ELR_EL2 the SMC, which did not retire
    EXPECT_EQ(r.x[22], esr(0x17, 9));
    EXPECT_EQ(r.x[23], r.x[16] + 4);
    EXPECT_EQ(r.x[24], 0x3C5u);
    EXPECT_EQ(r.x[10], 2u);
    EXPECT_EQ(r.x[4], 1u); // EXC_SMC: SMC #9, taken to EL3 from EL1 (SMC #5 was at EL3)
    EXPECT_EQ(r.x[5], 1u); // EXC_TRAP_OTHER: SMC #8, trapped to EL2 (D14.1, EC 0x17 to EL2)
    EXPECT_EQ(r.x[25], 30u);
    EXPECT_EQ(r.x[26], r.x[14]);
    EXPECT_EQ(r.x[27], 0x3C5u); // taken from EL1h with I set
}

// The EL3 translation regime (TTBR0_EL3, TCR_EL3, MAIR_EL3, SCTLR_EL3.M): a device and RAM
// reached through their mappings, and a load from an address whose level 1 entry is invalid: a
// Data Abort taken to EL3 from EL3 (EC 0x25, DFSC translation fault level 1, 0x05; FAR_EL3 the
// address; ELR_EL3 the load), entry 4.
TEST(A64Firmware, El3TranslationRegimeAndItsAborts)
{
    run_result r = run_at_el3("el3_mmu");
    EXPECT_EQ(r.x[4], 0x1234u);
    EXPECT_EQ(r.x[5], 0x90u);
    EXPECT_EQ(r.x[28], 4u);
    EXPECT_EQ(r.x[20], esr(0x25, 0x05));
    EXPECT_EQ(r.x[21], 0x8000'0000u);
    EXPECT_EQ(r.x[22], r.x[6]);
}

// Semihosting (Arm IHI 0069, a64_cpu_config::semihosting): HLT #0xF000 with the operation in W0
// and the parameter in X1; SYS_WRITE0 and SYS_WRITEC print and answer 0, an operation not served
// answers -1, SYS_EXIT with {ADP_Stopped_ApplicationExit, 3} ends the run with status 3 and
// nothing after it runs.
TEST(A64Firmware, SemihostingPrintsAndExitsWithAStatus)
{
    vp_config config;
    config.a64.semihosting = true;
    testing::internal::CaptureStdout();
    auto p = pmtrace::test::run_image(std::string(PMTRACE_A64_DIR) + "/semihosting.bin", config);
    const std::string out = testing::internal::GetCapturedStdout();
    // ... then SystemC's own line on the stop.
    EXPECT_EQ(out.substr(0, out.find("Info: ")), "semihosting says hi\n!\n") << out;
    EXPECT_EQ(p->a64->end(), a64_cpu_end::exit) << p->a64->error();
    EXPECT_EQ(p->a64->exit_status(), 3);
    EXPECT_EQ(p->a64->engine().x(10), 0u);
    EXPECT_EQ(p->a64->engine().x(11), 0u);
    EXPECT_EQ(p->a64->engine().x(12), ~uint64_t{0});
    EXPECT_EQ(p->a64->engine().x(9), 0u);
    EXPECT_EQ(p->a64->engine().x(28), ~uint64_t{0}); // no exception taken
}

// Without semihosting HLT is UNDEFINED (the Halt Instruction debug event, Part H: with halting
// not allowed, no external debugger having set EDSCR.HDE, HLT is UNDEFINED): EC 0x00 with IL = 1
// (ESR_EL1 0x02000000), to the current EL's vector with SP_ELx (offset 0x200: x28 = 4), ELR_EL1 the
// HLT.
TEST(A64Firmware, HltIsUndefinedWithoutSemihosting)
{
    run_result r = run("semihosting");
    EXPECT_EQ(r.x[28], 4u);
    EXPECT_EQ(r.x[13], esr(0x00, 0));
    EXPECT_EQ(r.x[14], r.x[15]);
    EXPECT_EQ(r.x[10], 0u); // nothing after the HLT ran
}

// D6.5.2 RMBSHC (Fill mode): when the current write pointer wraps, the buffer management event
// sets TRBSR_EL1.IRQ and WRAP and, as S was 0, S = 1, EC = 0x00 (other buffer management
// event), BSC = 0b000001 (buffer filled), and "the current write pointer will point to the Base
// pointer". RLRTBP, RTPPCF: TRBIRQ is TRBSR_EL1.IRQ, a level-sensitive PPI (INTID 22), taken by
// the program waiting in WFI. RVHNTF: the wrap is at the byte at Limit - 1, so the 4 KiB hold
// consecutive bytes of the stand-in trace unit's stream (byte k of the stream is k mod 256) and
// nothing outside [BUF, LIMIT) is written. Clearing TRBSR_EL1 lowers TRBIRQ.
TEST(A64Firmware, TrbeFillModeBufferFullThroughTrbirq)
{
    constexpr uint64_t buf = 0x4010'0000, limit = 0x4010'1000;
    vp_config c;
    c.a64_trace_stand_in = true;
    run_result r = run("trbe_fill", c);
    EXPECT_EQ(r.x[27], 1u);
    EXPECT_EQ(r.x[21], 22u);
    EXPECT_EQ(r.x[22], (1u << 22) | (1u << 20) | (1u << 17) | 1u); // IRQ, WRAP, S, BSC full
    EXPECT_EQ(r.x[23], buf);
    EXPECT_EQ(r.x[24], limit | (3u << 3) | 1u);
    EXPECT_FALSE(r.platform->pe.trbirq.read());
    const uint8_t *ram = r.platform->ram.data() - virt::ram_base;
    bool consecutive = true;
    for (uint64_t a = buf + 1; a < limit; a++)
        consecutive &= ram[a] == static_cast<uint8_t>(ram[a - 1] + 1);
    EXPECT_TRUE(consecutive);
    bool untouched = true;
    for (uint64_t a = buf - 0x1000; a < buf; a++)
        untouched &= ram[a] == 0;
    for (uint64_t a = limit; a < limit + 0x1000; a++)
        untouched &= ram[a] == 0;
    EXPECT_TRUE(untouched);
    const auto &bus = r.platform->pe.trace_stats();
    EXPECT_EQ(bus.transport_bytes + bus.dmi_bytes, limit - buf);
}

// D6.6.1, RJQDJD: the stand-in trace unit sends exactly 1,000 bytes (bytes 0..999 of its
// stream, all while the buffer is enabled). Whole 64-byte units are written as they complete:
// TRBPTR_EL1 is BUF + 960 before TSB CSYNC; the TSB CSYNC writes the last 40 bytes: BUF + 1,000
// after it, and memory holds byte k of the stream at BUF + k.
TEST(A64Firmware, TsbCsyncWritesThePartialAlignmentUnit)
{
    constexpr uint64_t buf = 0x4010'0000, sent = 1000;
    vp_config c;
    c.a64_trace_stand_in = true;
    c.a64_trace.start_delay = sc_core::sc_time(10, sc_core::SC_US);
    c.a64_trace.limit = sent;
    run_result r = run("trbe_tsb", c);
    ASSERT_EQ(r.platform->trace_unit->bytes_sent(), sent);
    EXPECT_EQ(r.x[20], buf + 960);
    EXPECT_EQ(r.x[21], buf + sent);
    EXPECT_EQ(r.platform->a64->stats().tsb_csyncs, 1u);
    const uint8_t *ram = r.platform->ram.data() - virt::ram_base;
    bool holds = true;
    for (uint64_t k = 0; k < sent; k++)
        holds &= ram[buf + k] == static_cast<uint8_t>(k);
    EXPECT_TRUE(holds);
    EXPECT_EQ(ram[buf + sent], 0u);
}

// Entered at EL1 or EL2 the image finds the GIC as firmware hands it over (TF-A wakes each
// Redistributor before it enters the next stage; gic_config::redistributors_awake): GICR_WAKER
// reads 0, and code that never writes it gets an SGI to itself, the PMU's overflow interrupt
// (PPI 23) and the timer's (PPI 30), at EL1 and at EL2 (gic_handoff.S).
static void expect_gic_handed_over(unsigned entry_el)
{
    vp_config config;
    config.a64.entry_el = entry_el;
    run_result r = run("gic_handoff", config);
    EXPECT_EQ(r.x[10], 0u) << "GICR_WAKER";
    EXPECT_EQ(r.x[9], (1u << 1) | (1u << 23) | (1u << 30)) << "the INTIDs taken";
    EXPECT_NE(r.x[11], 0u) << "the SGI never arrived";
    EXPECT_NE(r.x[12], 0u) << "the PMU's overflow interrupt never arrived";
    EXPECT_NE(r.x[13], 0u) << "the timer's interrupt never arrived";
}

TEST(A64Firmware, EnteredAtEl1TheGicIsAsFirmwareLeavesIt)
{
    expect_gic_handed_over(1);
}

TEST(A64Firmware, EnteredAtEl2TheGicIsAsFirmwareLeavesIt)
{
    expect_gic_handed_over(2);
}

// Entered at EL3 the image is the firmware and finds the GIC's reset values: the Redistributor
// asleep (GICR_WAKER ProcessorSleep and ChildrenAsleep, 0x6) until it wakes it.
TEST(A64Firmware, EnteredAtEl3TheGicHasItsResetValues)
{
    run_result r = run_at_el3("gic_reset_el3");
    EXPECT_EQ(r.x[10], 0x6u);
    EXPECT_EQ(r.x[11], 0u);
}
