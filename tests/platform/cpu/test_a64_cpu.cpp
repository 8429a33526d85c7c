// The AArch64 CPU on the reference platform: A64 programs (tests/platform/cpu/a64/) run to PSCI
// SYSTEM_OFF; each test checks what the program leaves in registers and memory against the
// architecture (ESR_ELx encodings of D24.2.40, the vector offsets of D1.3.1, PMU overflow).
#include "a64_program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace pmtrace::platform;
using namespace a64_test;
using pmtrace::test::warning_log;

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
// ISS DFSC 0b010000 and ISV 0 (AArch64.InstructionSyndromeValid: only stage 2 faults give the
// instruction syndrome); FAR_EL1 the address; ELR_EL1 the load.
TEST(A64Cpu, DeviceAccessesAndAnExternalAbort)
{
    warning_log warnings;
    run_result r = run("device");
    ASSERT_EQ(warnings.list().size(), 1u);
    EXPECT_EQ(warnings.list()[0], "vp.bus: no target at 0xa000004 (4 bytes)");
    EXPECT_EQ(r.platform->uart.output(), "hi");
    EXPECT_EQ(r.x[3] & 0x90, 0x90u);
    EXPECT_EQ(r.x[4] & 0x10, 0x10u);
    EXPECT_EQ(r.x[20], esr(0x25, 0x10));
    EXPECT_EQ(r.x[21], r.x[6]);
    EXPECT_EQ(r.x[22], 0x0A00'0004u);
    EXPECT_EQ(r.x[9], 1u);
}

// Device accesses in the middle of one block (device_block.S): each is made once, at its
// instruction, and the instructions around it run once (Unicorn 2.0.1 replayed the start of a
// block after a store it stopped at: issue 28), with the MMU off at EL1, on at EL1, and at EL0.
// A store to a hole is a synchronous External abort at the store (DFSC 0b010000, WnR; EC 0x25
// from EL1, 0x24 from EL0; FAR the address); the instructions after it run once, after the
// handler. EL0's virtual addresses that are physical addresses of the GIC and of a hole reach
// the RAM its tables map them to. A 64-bit load and a pair of 32-bit loads from the GIC are one
// bus access per register.
TEST(A64Cpu, DeviceAccessesInsideABlockAreMadeOnceAtTheirInstruction)
{
    warning_log warnings;
    const labels at("device_block");
    run_result r = run("device_block");
    EXPECT_EQ(r.platform->uart.output(), "abc");
    EXPECT_EQ(r.x[10], 4u); // MMU off
    EXPECT_EQ(r.x[13], 4u); // MMU on
    EXPECT_EQ(r.x[14], 4u); // EL0
    EXPECT_EQ(r.x[11], 3u);
    EXPECT_EQ(r.x[12], 3u);
    EXPECT_EQ(r.x[17], 3u);
    EXPECT_EQ(r.x[18], esr(0x25, 0x50)); // the last EL1 abort: hole_on
    EXPECT_EQ(r.x[19], at("hole_on"));
    EXPECT_EQ(r.x[26], 0x0A00'0008u);
    EXPECT_EQ(r.x[23], esr(0x24, 0x50));
    EXPECT_EQ(r.x[24], at("hole_el0") + 0x4000'0000);
    EXPECT_EQ(r.x[25], 0x0A00'0008u);
    EXPECT_EQ(r.x[15], 0x5A5Au);
    EXPECT_EQ(r.x[16], 0x6B6Bu);
    uint64_t gic_alias = 0, hole_alias = 0;
    std::memcpy(&gic_alias, r.platform->ram.data() + 0x40'0010, 8);
    std::memcpy(&hole_alias, r.platform->ram.data() + 0x60'0020, 8);
    EXPECT_EQ(gic_alias, 0x5A5Au);
    EXPECT_EQ(hole_alias, 0x6B6Bu);
    EXPECT_EQ(r.x[4] >> 32, 0u);       // GICR_TYPER: affinity 0.0.0.0
    EXPECT_EQ(r.x[4] & 0x10, 0x10u);   // Last
    EXPECT_EQ(r.x[6] & 0xFFF, 0x43Bu); // GICR_IIDR: Arm's JEP106 code
    // Bus accesses: three PL011 stores, three loads of UARTFR, three stores to the hole,
    // GICR_TYPER once (8 bytes), GICR_CTLR and GICR_IIDR; nothing else (RAM, the tables).
    EXPECT_EQ(r.platform->a64->stats().device_accesses, 12u);
    EXPECT_EQ(r.platform->a64->stats().bus_errors, 3u);
    ASSERT_FALSE(warnings.list().empty()); // the first, then a count of the repeats
    EXPECT_EQ(warnings.list()[0], "vp.bus: no target at 0xa000008 (4 bytes)");
}

// DC ZVA (dc_zva.S) zeroes the aligned block of DCZID_EL0.BS words holding Xt, and nothing
// around it: through a high virtual address, at EL0 (SCTLR_EL1.DZE). To Device memory it is an
// Alignment fault (DC ZVA: "any type of Device memory"): EC 0x25, WnR 1, DFSC 0b100001, FAR Xt;
// with the MMU off (data accesses Device-nGnRnE: RAM untouched) and to the PL011 (no access).
TEST(A64Cpu, DcZvaZeroesItsBlockAndFaultsOnDeviceMemory)
{
    const labels at("dc_zva");
    run_result r = run("dc_zva");
    const unsigned block = 4u << (r.x[10] & 0xF);
    ASSERT_EQ(block, 64u); // DCZID_EL0.BS 4; DZP 0
    const uint8_t *ram = r.platform->ram.data();
    auto zeroed = [&](uint64_t pa) {
        std::vector<unsigned> zero;
        for (unsigned i = 0; i < 0x100; i++)
            if (ram[pa - 0x4000'0000 + i] == 0)
                zero.push_back(i);
        return zero;
    };
    auto range = [](unsigned from, unsigned n) {
        std::vector<unsigned> v;
        for (unsigned i = 0; i < n; i++)
            v.push_back(from + i);
        return v;
    };
    EXPECT_EQ(zeroed(0x4020'0000), range(0, 0));
    EXPECT_EQ(zeroed(0x4020'1000), range(0x80, 64));
    EXPECT_EQ(zeroed(0x4020'2000), range(0xC0, 64));
    ASSERT_EQ(r.x[25], 2u);
    const struct {
        uint64_t elr, far;
    } aborts[] = {{at("zva_mmu_off"), 0x4020'0048}, {at("zva_device"), 0x0900'0000}};
    for (unsigned n = 0; n < 2; n++) {
        uint64_t rec[3] = {};
        std::memcpy(rec, ram + 0x30'0000 + 32 * n, sizeof rec);
        EXPECT_EQ(rec[0], esr(0x25, 0x61)) << n;
        EXPECT_EQ(rec[1], aborts[n].elr) << n;
        EXPECT_EQ(rec[2], aborts[n].far) << n;
    }
    EXPECT_EQ(r.platform->a64->stats().device_accesses, 0u);
    EXPECT_EQ(r.platform->uart.output(), "");
}

// Two address spaces with different code at one virtual address (code_switch.S): the events
// of each are its own. A function of four instructions at VA 0x400000 loads and stores only
// under the second tables; after TTBR0_EL1 is switched to them (no TLB maintenance: another
// ASID), its 10 calls count 10 loads and 10 stores, none from the first tables' 10 calls.
TEST(A64Cpu, EventsFollowTheCodeOfTheAddressSpaceRunning)
{
    run_result r = run("code_switch");
    EXPECT_EQ(r.x[10], 10u); // LD_RETIRED
    EXPECT_EQ(r.x[11], 10u); // ST_RETIRED
}

// With the MMU on (4 KiB granule, walks from level 1), each abort is taken to VBAR_EL1 + 0x200
// with the ESR and FAR of AArch64.Abort (J1.1): EC 0x25 (Data Abort, same EL) or 0x21
// (Instruction Abort), IL 1, ISV 0, WnR for the store, the FSC of EncodeLDFSC (translation
// 0b0001ll, Access flag 0b0010ll, permission 0b0011ll with the level ll), FAR the virtual
// address; ELR the instruction (for the branch: its target), SPSR EL1h with DAIF masked. Before
// them, RAM is read and written through a virtual range that is not its physical address.
TEST(A64Cpu, AbortsWithTheMmuOn)
{
    run_result r = run("mmu_abort");
    struct record {
        uint64_t esr, far, elr, spsr;
    };
    const uint8_t *records = r.platform->ram.data() + 0x20'0100;
    auto at = [&](unsigned n) {
        record rec{};
        std::memcpy(&rec, records + 32 * n, sizeof rec);
        return rec;
    };
    const struct {
        uint64_t esr, far, elr;
    } expected[] = {
        {esr(0x25, 0x06), 0x4040'0010, r.x[6]},      // level 2 entry invalid
        {esr(0x25, 0x07), 0x4020'1008, r.x[7]},      // level 3 entry invalid
        {esr(0x25, 0x0B), 0x4020'2000, r.x[8]},      // Access flag 0, level 3
        {esr(0x25, 0x4F), 0x4020'3010, r.x[9]},      // store to read-only, level 3: WnR
        {esr(0x21, 0x06), 0x4040'0000, 0x4040'0000}, // branch to an unmapped address
    };
    EXPECT_EQ(r.x[12], 0x4020'0000u); // read through VA 0x8020_0000
    EXPECT_EQ(r.x[11], 0x77u);        // written through it
    EXPECT_EQ(r.x[19], 5u);           // five aborts taken
    for (unsigned n = 0; n < 5; n++) {
        const record rec = at(n);
        EXPECT_EQ(rec.esr, expected[n].esr) << "abort " << n;
        EXPECT_EQ(rec.far, expected[n].far) << "abort " << n;
        EXPECT_EQ(rec.elr, expected[n].elr) << "abort " << n;
        EXPECT_EQ(rec.spsr, 0x3C5u) << "abort " << n;
    }
}

// An instruction fetch from an address that is not memory is a synchronous External abort on the
// fetch taken to VBAR_EL1 + 0x200 (AArch64.Abort, J1.1): EC 0x21 (Instruction Abort, same EL),
// IL 1, IFSC 0b010000, FAR and ELR the branch's target; with the MMU off from a hole and from a
// device (the platform's devices answer no fetch), with the MMU on from Device memory over a hole
// (INSTRDEVICE: no Permission fault). The simulation goes on to the program's end.
TEST(A64Cpu, FetchesFromOutsideMemoryAreExternalAborts)
{
    run_result r = run("fetch_abort");
    struct record {
        uint64_t esr, far, elr, spsr;
    };
    const uint8_t *records = r.platform->ram.data() + 0x20'0100;
    const uint64_t targets[] = {0x1000, 0x0800'0000, 0x2000};
    EXPECT_EQ(r.x[19], 3u); // three aborts taken
    for (unsigned n = 0; n < 3; n++) {
        record rec{};
        std::memcpy(&rec, records + 32 * n, sizeof rec);
        EXPECT_EQ(rec.esr, esr(0x21, 0x10)) << "abort " << n;
        EXPECT_EQ(rec.far, targets[n]) << "abort " << n;
        EXPECT_EQ(rec.elr, targets[n]) << "abort " << n;
        EXPECT_EQ(rec.spsr, 0x3C5u) << "abort " << n;
    }
}

// An exception taken again and again at a vector that cannot be fetched retires nothing: after
// no_progress_limit stops in a row without an instruction retired the CPU ends with an error
// that names the pc, the Exception level and the last stop, instead of holding the simulation
// at one instant for ever.
TEST(A64Cpu, SoftwareThatCannotGoOnEndsWithNoProgress)
{
    pmtrace::platform::vp_config config;
    config.a64.no_progress_limit = 100;
    pmtrace::test::warning_log quiet; // the CPU's error report
    auto p = pmtrace::test::run_image(std::string(PMTRACE_A64_DIR) + "/no_progress.bin", config);
    ASSERT_EQ(p->a64->end(), pmtrace::platform::a64_cpu_end::error);
    EXPECT_EQ(p->a64->error(),
              "no progress: 100 stops in a row without an instruction retired, at pc 0x1200 (EL1); "
              "the last: an instruction fetch outside RAM at 0x1200; 100 exceptions taken "
              "meanwhile");
    EXPECT_EQ(p->a64->stats().exceptions, 101u); // the UNDEFINED instruction's, then 100 aborts
}

// RAM through a virtual range that is not a physical one (TTBR1, 0xFFFF_FF80_xxxx_xxxx): code
// runs there, loads and stores reach the right bytes with no device access (docs/cpu.md, "The
// memory path"); the PL011 through a Device block in that range still gets its bytes over the bus;
// after TLBI VMALLE1 a page remapped from RAM to the PL011 reaches the PL011; a load from an
// address of the range the tables do not map is a translation fault (level 1), not a bus access.
TEST(A64Cpu, HighVirtualRangeReachesRamAndDevices)
{
    run_result r = run("high_va");
    constexpr uint64_t hi = 0xFFFF'FF80'0000'0000;
    constexpr uint64_t value = 0x1122'3344'5566'7788;
    EXPECT_EQ(r.x[25], 1u);                // one exception: the last load's translation fault,
    EXPECT_EQ(r.x[27], esr(0x25, 0x05));   // level 1
    EXPECT_EQ(r.x[26], 0xC000'0008u + hi); // FAR
    EXPECT_EQ(r.x[24], r.x[20]);           // ELR
    EXPECT_EQ(r.x[12], r.x[17] + hi);      // func ran at its high address
    EXPECT_EQ(r.x[13], 0x55u);
    EXPECT_EQ(r.x[10], value);        // stored through the block, read at 0x40200000
    EXPECT_EQ(r.x[11], value * 1000); // 1000 loads through the block
    EXPECT_EQ(r.x[14], 0xAAAAu);      // page 0: 0x40200000
    EXPECT_EQ(r.x[15], 0xBBBBu);      // page 1: 0x40300000
    EXPECT_EQ(r.x[16], value);        // the block after the invalidation
    EXPECT_EQ(r.x[18], 0u);           // the store to the remapped page did not reach RAM
    EXPECT_EQ(r.platform->uart.output(), "ok!");
    // Device accesses: the PL011's three; RAM through any virtual address is not one.
    EXPECT_EQ(r.platform->a64->stats().device_accesses, 3u);
}

// MIDR_EL1 (D24.2.137) read at EL1 (EL2 enabled: VPIDR_EL2, which reset sets to the MIDR) is
// a64_cpu_config::midr when one is given, else the engine's Cortex-A72 r0p3 (0x410FD083).
// ID_AA64PFR0_EL1.CSV3 [63:60] is 0b0001 (the CPU does not speculate); ID_AA64DFR0_EL1 carries
// the PE model's PMUVer [11:8] (0b0111, FEAT_PMUv3p7 by default) and TraceBuffer [47:44]
// (0b0001). At EL0 an MRS of an ID register is UNDEFINED without FEAT_IDST: EC 0, IL 1, taken
// to EL1 from the MRS, which wrote nothing.
static void expect_id_registers(const run_result &r, uint64_t midr)
{
    EXPECT_EQ(r.x[10], midr);
    EXPECT_EQ(r.x[11] >> 60, 1u);
    EXPECT_EQ((r.x[12] >> 8) & 0xF, 7u);
    EXPECT_EQ((r.x[12] >> 44) & 0xF, 1u);
    EXPECT_EQ(r.x[13], esr(0, 0));
    EXPECT_EQ(r.x[14], labels("id_registers")("el0_mrs"));
    EXPECT_EQ(r.x[15], 0u);
}

TEST(A64Cpu, IdRegistersOfTheEngineAndTheModel)
{
    expect_id_registers(run("id_registers"), 0x410FD083u);
}

TEST(A64Cpu, MidrIsTheConfiguredPart)
{
    vp_config config;
    config.a64.midr = 0x412FD470u; // Cortex-A710 r2p0
    expect_id_registers(run("id_registers", config), 0x412FD470u);
}

// ID_AA64DFR0_EL1 carries every field the PE model reports (pmt_pe_id_aa64dfr): with FEAT_PMUv3p9,
// FEAT_HPMN0, FEAT_PMUv3_SS and FEAT_SEBEP (with FEAT_EBEP, which it needs), HPMN0 [63:60], PMSS
// [19:16] and SEBEP [27:24] are 0b0001 and PMUVer [11:8] 0b1001.
TEST(A64Cpu, IdAa64Dfr0CarriesThePmusFeatures)
{
    vp_config config;
    config.pe.core.pmu_version = PMT_PMUV3P9;
    config.pe.core.feat_hpmn0 = true;
    config.pe.core.feat_ss = true;
    config.pe.core.feat_ebep = true;
    config.pe.core.feat_sebep = true;
    const run_result r = run("id_registers", config);
    EXPECT_EQ((r.x[12] >> 60) & 0xF, 1u);
    EXPECT_EQ((r.x[12] >> 16) & 0xF, 1u);
    EXPECT_EQ((r.x[12] >> 24) & 0xF, 1u);
    EXPECT_EQ((r.x[12] >> 8) & 0xF, 9u);
}

// D24.2.137 at EL2 and below it (entered at EL2): MIDR_EL1 at EL2 is the configured MIDR and
// VPIDR_EL2 resets to it; at EL1 (EL2 enabled) MIDR_EL1 reads VPIDR_EL2 as EL2 wrote it; with
// HCR_EL2.TID3, ID_AA64PFR0_EL1 at EL1 traps to EL2 (EC 0x18, ISS Op0 3, Op2 0, Op1 0, CRn 0,
// Rt 15, CRm 4, read), which CSV3 (read at EL2: 1) does not bypass.
TEST(A64Cpu, MidrAtEl2AndVpidrAtEl1)
{
    vp_config config;
    config.a64.entry_el = 2;
    config.a64.midr = 0x412FD470u;
    run_result r = run("midr_el2", config);
    EXPECT_EQ(r.x[10], 0x412FD470u);
    EXPECT_EQ(r.x[11], 0x412FD470u);
    EXPECT_EQ(r.x[12] >> 60, 1u);
    EXPECT_EQ(r.x[13], 0x410FD461u);
    EXPECT_EQ(r.x[14], esr(0x18, (3u << 20) | (4u << 1) | (15u << 5) | 1u));
    EXPECT_EQ(r.x[15], 0u);
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

// The same timer while the PE runs a loop instead of WFI: the CPU's run ends at the timer's
// next event (generic_timer::next_event), not at the end of its quantum (100 us by default,
// 6250 ticks), so INTID 30 is taken within the loop's block after the count reaches the compare
// value: the handler sees a count of at least 625 more, as with WFI.
TEST(A64Cpu, TimerInterruptInterruptsABusyLoopOnTime)
{
    run_result r = run("timer_busy");
    EXPECT_EQ(r.x[9], 1u); // taken in the loop
    EXPECT_EQ(r.x[21], 30u);
    EXPECT_EQ(r.x[23], 0b101u); // ENABLE, ISTATUS
    EXPECT_GE(r.x[22] - r.x[1], 625u);
    EXPECT_LE(r.x[22] - r.x[1], 627u);
    EXPECT_EQ(r.platform->a64->stats().wfis, 0u);
}

// An exception keeps the stack pointers (D1.3.4): taken from EL1h to EL1h, the handler runs on
// the SP in use and the program has it back after ERET; taken from EL0, SP_EL0 holds the SP EL0
// had, and EL0 has it back after ERET.
TEST(A64Cpu, ExceptionsKeepTheStackPointers)
{
    run_result r = run("stack_pointer");
    EXPECT_EQ(r.x[2], 0x4010'0000u); // the SVC's handler at EL1
    EXPECT_EQ(r.x[3], 0x4010'0000u); // the UNDEFINED's
    EXPECT_EQ(r.x[4], 0x4010'0000u); // after both
    EXPECT_EQ(r.x[5], 0x4010'FF00u); // SP_EL0 in the handler of EL0's SVC
    EXPECT_EQ(r.x[6], 0x4010'FF00u); // EL0's SP after it
}

// a64_cpu_config::trace_batch outside 1..a64_trace_batch_max is refused with the CPU's error (the
// run fails with it), not taken as another size.
TEST(A64Cpu, TraceBatchOutsideItsRangeIsRefused)
{
    a64_cpu_config zero, above;
    zero.trace_batch = 0;
    above.trace_batch = a64_trace_batch_max + 1;
    a64_cpu none("none", zero), too_many("too_many", above);
    EXPECT_NE(none.error().find("trace_batch must be 1..1024"), std::string::npos) << none.error();
    EXPECT_NE(too_many.error().find("trace_batch must be 1..1024"), std::string::npos);
    a64_cpu_config most;
    most.trace_batch = a64_trace_batch_max;
    a64_cpu fine("fine", most);
    EXPECT_EQ(fine.error().find("trace_batch"), std::string::npos) << fine.error();
}

// Loops that poll the counter (counter_poll.S), with a64_cpu_config::skip_counter_polls on (the
// default) and off: the iterations that go on are retired without running them, and each loop
// leaves exactly as one that ran every iteration does. An iteration (3 to 5 ns) is shorter than
// a tick of the counter (16 ns), so each loop reads every count and leaves at the first that
// meets its condition; with one cycle per instruction and no exception, cycles and instructions
// counted over the program are equal.
class A64CounterPoll : public ::testing::TestWithParam<bool>
{
};

TEST_P(A64CounterPoll, LoopsLeaveAtTheirCountWithEveryIterationCounted)
{
    pmtrace::platform::vp_config config;
    config.a64.skip_counter_polls = GetParam();
    run_result r = run("counter_poll", config);
    EXPECT_EQ(r.x[2], r.x[3]);   // 1: at its target, no later
    EXPECT_EQ(r.x[5], r.x[4]);   // 2
    EXPECT_EQ(r.x[7], 4096u);    // 3: bit 12 set first at 4096
    EXPECT_EQ(r.x[10], r.x[12]); // 4
    // 4 ran every iteration: 6,250 ticks of 16 ns, 4 ns each, from where in a tick it began.
    EXPECT_GE(r.x[9], 25'000u - 4);
    EXPECT_LE(r.x[9], 25'000u + 4);
    EXPECT_EQ(r.x[20], r.x[21]); // cycles, INST_RETIRED
    // One branch retired per iteration: at least the iterations each loop's time implies.
    EXPECT_GE(r.x[22], 125'000u * 4 + 31'250u * 16 / 5 + 4096u * 16 / 3 + 25'000u - 8);
    const uint64_t skipped = r.platform->a64->stats().polls_skipped;
    if (GetParam())
        EXPECT_GT(skipped, 600'000u); // loops 1 to 3 but their last iterations and the syncs'
    else
        EXPECT_EQ(skipped, 0u);
}

INSTANTIATE_TEST_SUITE_P(SkipOnAndOff, A64CounterPoll, ::testing::Bool());
