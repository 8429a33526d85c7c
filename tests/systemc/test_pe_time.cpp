// pe_model time: cycles come from simulated time, an overflow is one scheduled event, and calls
// with a local time offset happen at their own time (docs/systemc.md, "Time").
#include "pe_model_fixture.h"

namespace
{

using namespace pmtrace_test;
constexpr uint64_t cycle_bit = uint64_t(1) << PMT_CYCLE_COUNTER_ID;

// D13.3.1: PMUIRQ is asserted when PMCCNTR overflows (PMOVSSET.C with PMINTENSET.C and PMCR.E);
// with a 1 ns clock a cycle counter 1000 cycles before its 64-bit overflow overflows at 1000 ns.
TEST(PeTime, PmuirqRisesAtTheExactTimeOfACycleCounterOverflow)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_TRUE(gic.changes[0].level);
    EXPECT_EQ(gic.changes[0].at, ns(1000));
}

TEST(PeTime, PmuirqFallsWhenSoftwareClearsPmovsclr)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(1500));
    EXPECT_EQ(rd(pe, PMT_REG_PMOVSCLR_EL0), cycle_bit);
    wr(pe, PMT_REG_PMOVSCLR_EL0, 0, cycle_bit); // the interrupt handler, at 1500 ns
    ASSERT_EQ(gic.changes.size(), 2u);
    EXPECT_FALSE(gic.changes[1].level);
    EXPECT_EQ(gic.changes[1].at, ns(1500));
}

// Programmed from sc_main before simulation starts: the overflow is still at its time.
TEST(PeTime, ProgrammingBeforeSimulationStarts)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].at, ns(1000));
}

// PMCR_EL0.LC = 0: the cycle counter overflows from 0xFFFFFFFF (bit 31 to 32); with a 2 ns clock,
// 100 cycles take 200 ns after the counter was written at 300 ns.
TEST(PeTime, ThirtyTwoBitOverflowWithATwoNanosecondClock)
{
    pmtrace::pe_model_config cfg;
    cfg.clock_period = ns(2);
    pmtrace::pe_model pe("pe", cfg);
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(ns(300));
    enter_el1(pe);
    arm_cycle_counter(pe, 0xFFFFFFFFu - 99, false);
    sc_core::sc_start(ns(1000));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].at, ns(500));
}

// Software moves the overflow: a write of PMCCNTR re-schedules it.
TEST(PeTime, WritingTheCounterMovesTheOverflow)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(500));
    wr(pe, PMT_REG_PMCCNTR_EL0, 0, ~uint64_t(0) - 99); // 100 cycles left
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].at, ns(600));
}

// Disabling the counter removes the overflow.
TEST(PeTime, DisablingTheCounterCancelsTheOverflow)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(500));
    wr(pe, PMT_REG_PMCNTENCLR_EL0, 0, cycle_bit);
    sc_core::sc_start(ns(2000));
    EXPECT_TRUE(gic.changes.empty());
    EXPECT_EQ(rd(pe, PMT_REG_PMCCNTR_EL0), ~uint64_t(0) - 999 + 500);
}

// PMCCNTR_EL0 read with a local time offset: the cycles up to sc_time_stamp() + offset.
TEST(PeTime, CycleCounterReadAtTheCallersLocalTime)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, 0);
    sc_core::sc_start(ns(100));
    EXPECT_EQ(rd(pe, PMT_REG_PMCCNTR_EL0, 0, ns(50)), 150u);
}

// A tool reading the core directly calls sync() first: the counters include the cycles up to now.
TEST(PeTime, SyncBringsTheCoreUpToNowForATool)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, 0);
    sc_core::sc_start(ns(500));
    pe.sync();
    uint64_t v = 0;
    ASSERT_EQ(pmt_pmu_ext_read(pe.core(), 0x0F8, 4, PMT_SS_NONSECURE, false, &v), PMT_EXT_OK);
    EXPECT_EQ(v, 500u);
    EXPECT_EQ(pe.cycles(), 500u);
}

// A counter counting CPU_CYCLES (a time-driven event) overflows at its time too.
TEST(PeTime, EventCounterOnCpuCyclesOverflowsAtItsTime)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 2, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 2, 0xFFFFFFFFu - 249);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1u << 2);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1u << 2);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    sc_core::sc_start(ns(1000));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].at, ns(250));
}

// An event reported with a local time offset is counted at that time: counter 0 (INST_RETIRED)
// overflows at 300 ns; with PMCR_EL0.FZO = 1 that freezes counter 1, which counts CPU_CYCLES
// (D13.5, freezing on overflow), so counter 1 holds the 300 cycles before the event.
TEST(PeTime, EventWithAnOffsetIsCountedAtItsTime)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFFu);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 1, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 3);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, FZO));
    EXPECT_EQ(pe.events->count_event(PMT_EV_INST_RETIRED, 1, ns(300)), PMT_OK);
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(rd(pe, PMT_REG_PMEVCNTR_EL0, 1), 300u);
    EXPECT_EQ(rd(pe, PMT_REG_PMOVSCLR_EL0), 1u);
}

// A PE state change with an offset: the cycles before it are counted in the old state.
// PMCCFILTR_EL0.NSH = 0: cycles at Non-secure EL2 are not counted.
TEST(PeTime, StateChangeWithAnOffsetSplitsTheCycles)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, 0);
    EXPECT_EQ(pe.state->set_pe_state(at_el(2), ns(400)), PMT_OK);
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(rd(pe, PMT_REG_PMCCNTR_EL0), 400u);
}

// The outputs a call changes change at the caller's time, sc_time_stamp() + its offset (a CPU
// ahead of SystemC time under temporal decoupling): the target is told the offset, and the view
// (for waveforms) changes then. Counter 0 counts INST_RETIRED from 0xFFFFFFFF: the instruction
// the CPU retires at 300 ns overflows it (PMUIRQ and CTI trigger 1 rise), its handler's
// PMOVSCLR_EL0 write at 700 ns lowers them; SystemC time stays at 0 meanwhile.
TEST(PeTime, OutputsChangeAtTheCallersLocalTime)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    cti_probe cti;
    pe.pmuirq.bind(gic);
    pe.cti_pmu_overflow.bind(cti);
    view_watcher<bool> pmuirq("pmuirq_watcher", pe.pmuirq.view());
    view_watcher<bool> trigger("trigger_watcher", pe.cti_pmu_overflow.view());
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFFu);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    EXPECT_EQ(pe.events->count_event(PMT_EV_INST_RETIRED, 1, ns(300)), PMT_OK);
    wr(pe, PMT_REG_PMOVSCLR_EL0, 0, 1, ns(700));
    ASSERT_EQ(gic.changes.size(), 2u);
    EXPECT_EQ(gic.changes[0].at, sc_core::SC_ZERO_TIME); // delivered in the call ...
    EXPECT_EQ(gic.changes[0].offset, ns(300));           // ... with the time of the change
    EXPECT_EQ(gic.changes[1].offset, ns(700));
    ASSERT_EQ(cti.triggers.size(), 1u);
    EXPECT_EQ(cti.triggers[0].offset, ns(300));
    EXPECT_TRUE(pmuirq.changes.empty()); // the views wait for simulated time
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(pmuirq.changes, (view_changes{{ns(300), true}, {ns(700), false}}));
    EXPECT_EQ(trigger.changes, (view_changes{{ns(300), true}, {ns(700), false}}));
}

// A call behind the model's clock (another initiator, behind a CPU that has called at its local
// time 900 ns) is performed at the later time (counters, registers), but the outputs it
// changes change at its own time: PMUIRQ rises at 100 ns, when the PMOVSSET_EL0 write is made.
TEST(PeTime, OutputsOfACallBehindTheClockAreAtItsTime)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    view_watcher<bool> pmuirq("pmuirq_watcher", pe.pmuirq.view());
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, 0);
    EXPECT_EQ(rd(pe, PMT_REG_PMCCNTR_EL0, 0, ns(900)), 900u);
    wr(pe, PMT_REG_PMOVSSET_EL0, 0, cycle_bit, ns(100));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].offset, ns(100));
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(pmuirq.changes, (view_changes{{ns(100), true}}));
}

// A decoupled CPU's call past an overflow the model has scheduled (at 1000 ns, SystemC time still
// at 0): the cycles up to the overflow are counted first, so PMUIRQ rises at the overflow's time,
// as it would have at the event; the read, at 1500 ns, sees the counter 500 cycles past it.
TEST(PeTime, AnOverflowACallPassesIsAtItsOwnTime)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    view_watcher<bool> pmuirq("pmuirq_watcher", pe.pmuirq.view());
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    EXPECT_EQ(rd(pe, PMT_REG_PMCCNTR_EL0, 0, ns(1500)), 500u);
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_EQ(gic.changes[0].at, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(gic.changes[0].offset, ns(1000));
    sc_core::sc_start(ns(2000));
    EXPECT_EQ(gic.changes.size(), 1u); // the event, re-armed, has nothing left to do
    EXPECT_EQ(pmuirq.changes, (view_changes{{ns(1000), true}}));
}

// CPU_CYCLES comes from the clock: the event export refuses it and says so once.
TEST(PeTime, CpuCyclesThroughTheEventExportIsRefused)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    pmt_status status = PMT_OK;
    EXPECT_NONFATAL_FAILURE(status = pe.events->count_event(PMT_EV_CPU_CYCLES, 1),
                            "CPU_CYCLES is counted from the clock");
    EXPECT_EQ(status, PMT_ERR_ARG);
    EXPECT_EQ(pe.events->count_event(PMT_EV_CPU_CYCLES, 1), PMT_ERR_ARG); // no second warning
}

// The SPE buffer state with an offset (FEAT_SPEv1p2, PMCR_EL0.FZS): a buffer management event
// (PMBSR_EL1.S = 1 with PMBLIMITR_EL1.{E, PMFZ} = {1, 1}) freezes the event counters at 400 ns.
TEST(PeTime, SpeBufferStateFreezesAtItsTime)
{
    pmtrace::pe_model_config cfg;
    cfg.core.feat_spev1p2 = true;
    pmtrace::pe_model pe("pe", cfg);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, FZS));
    EXPECT_EQ(pe.spe->set_spe_state(true, true, true, ns(400)), PMT_OK);
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(rd(pe, PMT_REG_PMEVCNTR_EL0, 0), 400u);
}

// The external snapshot request with an offset (RSCLCQ): PMCCNTSVR_EL1 takes PMCCNTR_EL0 as it
// is at 250 ns; with FEAT_BRBE the BRBE gets its capture freeze event (RLBQZR).
TEST(PeTime, SnapshotRequestCapturesTheCountersAtItsTime)
{
    pmtrace::pe_model_config cfg;
    cfg.core.feat_ss = true;
    cfg.core.feat_brbe = true;
    pmtrace::pe_model pe("pe", cfg);
    event_probe brbe;
    pe.brbe_capture_freeze.bind(brbe);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe, PMT_PUT(MDCR_EL3, PMSSE, 3));
    arm_cycle_counter(pe, 0);
    EXPECT_EQ(pe.snapshot->snapshot_request(ns(250)), PMT_OK);
    pmt_pmu_snapshot snap;
    ASSERT_EQ(pmt_pmu_snapshot_get(pe.core(), &snap), PMT_OK);
    EXPECT_EQ(snap.pmccntsvr, 250u);
    EXPECT_EQ(snap.pmsscr, 0u); // {NC, SS} = {0, 0}: captured
    EXPECT_EQ(brbe.events.size(), 1u);
}

// Cold reset through the reset export: registers to their reset values, PMUIRQ falls.
TEST(PeTime, ResetLowersPmuirqAndResetsTheRegisters)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(1200));
    pe.reset_in->reset();
    ASSERT_EQ(gic.changes.size(), 2u);
    EXPECT_FALSE(gic.changes[1].level);
    EXPECT_EQ(gic.changes[1].at, ns(1200));
    // Out of reset the PE is at EL3; PMCR_EL0.E resets to 0, PMOVSCLR_EL0 to 0.
    EXPECT_EQ(pe.pe_state().el, 3u);
    EXPECT_EQ(rd(pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), 0u);
    EXPECT_EQ(rd(pe, PMT_REG_PMOVSCLR_EL0), 0u);
}

} // namespace
