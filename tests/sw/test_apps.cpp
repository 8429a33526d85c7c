// The apps (stat, record, trace, fault) on the core HAL, with exact results from the
// architecture: counts, interrupts at exact counts, the trace a buffer mode keeps, the syndrome of
// a fault and where the capture resumes.
#include "sw_fixture.h"

#include <cstring>

namespace
{

class Apps : public SwTest
{
  protected:
    std::string text;
    std::vector<uint8_t> out = std::vector<uint8_t>(0x10000, 0);

    // A loop of `iterations` iterations of `trace_bytes` trace bytes each at EL0.
    sw_workload trace_loop(uint64_t iterations, size_t trace_bytes)
    {
        sw_workload w = make_loop(iterations);
        loop.trace_bytes = trace_bytes;
        return w;
    }
    sw_trace_config trace_config(unsigned fm)
    {
        sw_trace_config c{};
        c.base = BUF;
        c.size = BUF_SIZE;
        c.fill_mode = fm;
        c.out = out.data();
        c.out_size = out.size();
        return c;
    }
    std::vector<uint8_t> captured(const sw_trace_result &r)
    {
        return std::vector<uint8_t>(out.begin(), out.begin() + static_cast<long>(r.out_len));
    }
    bool has(const std::string &s) const { return text.find(s) != std::string::npos; }
};

// ---- stat ---------------------------------------------------------------------------------

TEST_F(Apps, StatCountsALoop)
{
    make();
    sw_workload w = make_loop(1000);
    loop.instructions = 1000;
    loop.cycles = 1300;
    loop.events[0] = {PMT_EV_BR_RETIRED, 200};
    loop.events[1] = {PMT_EV_L1D_CACHE, 300};
    loop.num_events = 2;
    loop.per_piece = 100;
    sw_stat_config c{};
    const uint16_t ev[] = {PMT_EV_CPU_CYCLES, PMT_EV_INST_RETIRED, PMT_EV_BR_RETIRED,
                           PMT_EV_L1D_CACHE, PMT_EV_L1D_CACHE_REFILL};
    std::memcpy(c.events, ev, sizeof ev);
    c.num_events = 5;
    sw_stat_result r;
    sw_env e = env();
    ASSERT_EQ(sw_stat_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.pieces, 10u);
    EXPECT_EQ(r.counters[0].idx, SW_PMU_CYCLE_IDX);
    EXPECT_EQ(r.counters[0].count, 1300000u);
    EXPECT_EQ(r.counters[1].count, 1000000u);
    EXPECT_EQ(r.counters[2].count, 200000u);
    EXPECT_EQ(r.counters[3].count, 300000u);
    EXPECT_EQ(r.counters[4].count, 0u);
    EXPECT_EQ(r.pmu_irqs, 0u);
    char buf[2048];
    sw_stat_format(&r, buf, sizeof buf);
    text = buf;
    EXPECT_TRUE(has("1,300,000      CPU_CYCLES               (PMCCNTR_EL0)")) << text;
    EXPECT_TRUE(has("1,000,000      INST_RETIRED             (PMEVCNTR0_EL0)")) << text;
    EXPECT_TRUE(has("0      overflow interrupts")) << text;
    // The PMU is left disabled and its interrupt off.
    EXPECT_EQ(PMT_GET(PMCR, E, peek(HAL_PMCR_EL0)), 0u);
    EXPECT_EQ(peek(HAL_PMCNTENSET_EL0), 0u);
}

// 32-bit counters (no PMUv3p5): the overflow interrupts fold each counter into a 64-bit count.
TEST_F(Apps, StatFoldsThirtyTwoBitOverflows)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    make();
    sw_workload w = make_loop(5);
    loop.instructions = 1000000000;
    sw_stat_config c{};
    c.events[0] = PMT_EV_INST_RETIRED;
    c.num_events = 1;
    sw_stat_result r;
    sw_env e = env();
    ASSERT_EQ(sw_stat_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.counters[0].count, 5000000000u);
    EXPECT_EQ(r.pmu_irqs, 2u); // every 2^31 - 1 events
}

// Long counters without PMUv3p5: chained pairs, three on six counters; the fourth event gets none.
TEST_F(Apps, StatLongCountersUseChainedPairs)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    make();
    sw_workload w = make_loop(3);
    loop.instructions = 3000000000;
    loop.events[0] = {PMT_EV_BR_RETIRED, 5};
    loop.num_events = 1;
    sw_stat_config c{};
    const uint16_t ev[] = {PMT_EV_INST_RETIRED, PMT_EV_BR_RETIRED, PMT_EV_L1D_CACHE,
                           PMT_EV_L1I_CACHE};
    std::memcpy(c.events, ev, sizeof ev);
    c.num_events = 4;
    c.long_counters = true;
    sw_stat_result r;
    sw_env e = env();
    ASSERT_EQ(sw_stat_run(&e, &c, &w, &r), SW_OK);
    EXPECT_TRUE(r.counters[0].chained);
    EXPECT_EQ(r.counters[0].idx, 1);
    EXPECT_EQ(r.counters[1].idx, 3);
    EXPECT_EQ(r.counters[2].idx, 5);
    EXPECT_FALSE(r.counters[3].counted);
    EXPECT_EQ(r.counters[0].count, 9000000000u);
    EXPECT_EQ(r.counters[1].count, 15u);
    EXPECT_EQ(r.pmu_irqs, 0u);
    char buf[2048];
    sw_stat_format(&r, buf, sizeof buf);
    text = buf;
    EXPECT_TRUE(has("9,000,000,000      INST_RETIRED             (PMEVCNTR0+1_EL0)")) << text;
    EXPECT_TRUE(has("<not counted>      L1I_CACHE")) << text;
}

TEST_F(Apps, StatExcludeUserCountsOnlyTheKernel)
{
    make();
    sw_workload w = make_loop(10);
    loop.instructions = 100; // at EL0
    sw_stat_config c{};
    c.events[0] = PMT_EV_INST_RETIRED;
    c.num_events = 1;
    c.exclude_user = true;
    sw_stat_result r;
    sw_env e = env();
    ASSERT_EQ(sw_stat_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.counters[0].count, 0u);
}

// ---- record -------------------------------------------------------------------------------

// N overflow interrupts at exact counts: period 10,000 over 105,000 instructions in pieces of
// 7,000: ten samples, the k-th at count 10,000 k.
TEST_F(Apps, RecordSamplesAtExactCounts)
{
    make();
    sw_workload w = make_loop(105);
    loop.instructions = 1000;
    loop.per_piece = 7;
    std::vector<sw_record_sample> samples(16);
    sw_record_config c{};
    c.event = PMT_EV_INST_RETIRED;
    c.period = 10000;
    c.samples = samples.data();
    c.max_samples = samples.size();
    sw_record_result r;
    sw_env e = env();
    ASSERT_EQ(sw_record_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.samples, 10u);
    EXPECT_EQ(r.stored, 10u);
    EXPECT_EQ(r.pmu_irqs, 10u);
    EXPECT_EQ(r.count, 105000u);
    for (unsigned k = 0; k < 10; k++) {
        EXPECT_EQ(samples[k].count, 10000u * (k + 1));
        EXPECT_EQ(samples[k].period, 10000u);
    }
    char buf[1024];
    sw_record_format(&c, &r, buf, sizeof buf);
    text = buf;
    EXPECT_TRUE(has("10 samples of event 'INST_RETIRED'")) << text;
}

// A period above 32 bits without PMUv3p5: a chained pair interrupts at the 64-bit overflow.
TEST_F(Apps, RecordChainedPairWithoutPmuv3p5)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    make();
    sw_workload w = make_loop(1);
    loop.instructions = 20000000000;
    sw_record_config c{};
    c.event = PMT_EV_INST_RETIRED;
    c.period = 0x100000003;
    c.long_counter = true;
    sw_record_result r;
    sw_env e = env();
    ASSERT_EQ(sw_record_run(&e, &c, &w, &r), SW_OK);
    EXPECT_TRUE(r.chained);
    EXPECT_EQ(r.idx, 1);
    EXPECT_EQ(r.samples, 20000000000u / 0x100000003u);
    EXPECT_EQ(r.count, 20000000000u);
}

// ---- trace --------------------------------------------------------------------------------

// Fill mode, Linux's flow: each buffer-full interrupt collects the 16 KiB and restarts; nothing
// is lost.
TEST_F(Apps, TraceFillCollectsEveryByte)
{
    make();
    sw_workload w = trace_loop(50, 1000);
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_FILL);
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.irqs, 3u);
    EXPECT_EQ(r.wraps, 3u);
    EXPECT_EQ(r.bytes, 50000u);
    EXPECT_EQ(r.out_len, 50000u);
    EXPECT_TRUE(stream(captured(r), 0));
    EXPECT_EQ(r.trbptr, BUF + 50000 - 3 * BUF_SIZE);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.last_cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_EQ(r.last_act, SW_TRBE_ACT_WRAP);
    EXPECT_EQ(hal_core_get_stats(hc).irq_storms, 0u);
    char buf[1024];
    sw_trace_format(&c, &r, buf, sizeof buf);
    text = buf;
    EXPECT_TRUE(has("50,000      trace bytes captured")) << text;
}

// A loop whose trace comes from a generator (an encoder): each piece's trace is what the
// generator gives for its iterations, in order.
TEST_F(Apps, TraceFillTakesTheLoopsGeneratedTrace)
{
    make();
    sw_workload w = trace_loop(10, 3); // at most 3 bytes per iteration
    loop.per_piece = 4;                // pieces of 4, 4 and 2 iterations
    struct gen {
        uint64_t calls = 0, iterations = 0;
    } g;
    loop.trace_arg = &g;
    loop.trace_fill = [](void *arg, uint64_t iterations, uint8_t *buf, size_t size) -> size_t {
        auto *x = static_cast<gen *>(arg);
        x->calls++;
        size_t n = 0;
        for (uint64_t i = 0; i < iterations && n + 2 <= size; i++) { // two bytes per iteration
            buf[n++] = static_cast<uint8_t>(x->iterations);
            buf[n++] = 0xEE;
            x->iterations++;
        }
        return n;
    };
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_FILL);
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(g.calls, 3u);
    EXPECT_EQ(g.iterations, 10u);
    ASSERT_EQ(r.out_len, 20u);
    for (unsigned i = 0; i < 10; i++) {
        EXPECT_EQ(out[2 * i], i);
        EXPECT_EQ(out[2 * i + 1], 0xEE);
    }
}

// Wrap mode: an interrupt at each wrap; the buffer keeps the newest 16 KiB, oldest first from
// TRBPTR_EL1.
TEST_F(Apps, TraceWrapKeepsTheNewestTrace)
{
    make();
    sw_workload w = trace_loop(40, 1000);
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_WRAP);
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.irqs, 2u);
    EXPECT_EQ(r.wraps, 2u);
    EXPECT_TRUE(r.wrapped);
    EXPECT_EQ(r.last_cause, SW_TRBE_CAUSE_WRAP);
    EXPECT_EQ(r.last_act, SW_TRBE_ACT_SPURIOUS);
    EXPECT_EQ(r.bytes, BUF_SIZE);
    EXPECT_TRUE(stream(captured(r), 40000 - BUF_SIZE));
    EXPECT_EQ(r.trbptr, BUF + 40000 - 2 * BUF_SIZE);
}

// Circular Buffer mode: no interrupt; TRBSR_EL1.WRAP says the buffer was overwritten.
TEST_F(Apps, TraceCircularKeepsTheNewestTraceWithoutInterrupts)
{
    make();
    sw_workload w = trace_loop(40, 1000);
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_CIRCULAR);
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.irqs, 0u);
    EXPECT_EQ(r.wraps, 1u);
    EXPECT_TRUE(r.wrapped);
    EXPECT_EQ(r.trbsr, PMT_MASK(TRBSR, WRAP));
    EXPECT_EQ(r.bytes, BUF_SIZE);
    EXPECT_TRUE(stream(captured(r), 40000 - BUF_SIZE));
}

TEST_F(Apps, TraceCircularBeforeTheFirstWrapHoldsTheStart)
{
    make();
    sw_workload w = trace_loop(10, 1000);
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_CIRCULAR);
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_FALSE(r.wrapped);
    EXPECT_EQ(r.bytes, 10000u);
    EXPECT_TRUE(stream(captured(r), 0));
}

// Stop on trigger in Circular Buffer mode: the classic capture around an event. Detected Trigger
// after 20,480 bytes, Trigger Event 4,096 bytes later: the buffer holds the 16 KiB before it.
TEST_F(Apps, TraceStopOnTriggerCapturesAroundTheTrigger)
{
    make();
    sw_workload w = trace_loop(40, 1024);
    loop.trigger_after = 20480;
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_CIRCULAR);
    c.trigger = SW_TRACE_STOP_ON_TRIGGER;
    c.trigger_count = 4096;
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.irqs, 1u);
    EXPECT_TRUE(r.triggered);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.last_cause, SW_TRBE_CAUSE_TRIGGER);
    EXPECT_EQ(r.last_act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(r.trigger_ptr, BUF + (20480 + 4096) % BUF_SIZE);
    EXPECT_EQ(r.bytes, BUF_SIZE);
    EXPECT_TRUE(stream(captured(r), 20480 + 4096 - BUF_SIZE));
}

// Stop on trigger in Fill mode: the capture ends at the Trigger Event.
TEST_F(Apps, TraceFillStopOnTrigger)
{
    make();
    sw_workload w = trace_loop(40, 1024);
    loop.trigger_after = 1024;
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_FILL);
    c.trigger = SW_TRACE_STOP_ON_TRIGGER;
    c.trigger_count = 2048;
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.bytes, 3072u);
    EXPECT_EQ(r.trigger_ptr, BUF + 3072);
    EXPECT_TRUE(stream(captured(r), 0));
}

// IRQ on trigger in Fill mode: the handler notes where and carries on; the buffer-full interrupt
// after it is handled as usual.
TEST_F(Apps, TraceIrqOnTriggerCarriesOn)
{
    make();
    sw_workload w = trace_loop(20, 1024);
    loop.trigger_after = 10240;
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_FILL);
    c.trigger = SW_TRACE_IRQ_ON_TRIGGER;
    c.trigger_count = 1024;
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.irqs, 2u); // the trigger, then the buffer full
    EXPECT_EQ(r.wraps, 1u);
    EXPECT_TRUE(r.triggered);
    EXPECT_EQ(r.trigger_ptr, BUF + 11264);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.bytes, 20480u);
    EXPECT_TRUE(stream(captured(r), 0));
}

// Trigger ignored (TM 0b11) in Wrap mode: recorded in TRBSR_EL1.TRG, nothing else happens.
TEST_F(Apps, TraceIgnoredTriggerIsOnlyRecorded)
{
    make();
    sw_workload w = trace_loop(20, 1024);
    loop.trigger_after = 4096;
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_WRAP);
    c.trigger = SW_TRACE_IGNORE_TRIGGER;
    c.trigger_count = 64;
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_TRUE(r.triggered);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.wraps, 1u);
    EXPECT_TRUE(stream(captured(r), 20480 - BUF_SIZE));
}

// TRFCR_EL1 prohibits trace at EL0 and EL1: the trace unit generates nothing.
TEST_F(Apps, TraceExcludedEverywhereCapturesNothing)
{
    make();
    sw_workload w = trace_loop(4, 1024);
    sw_trace_config c = trace_config(PMT_TRBLIMITR_FM_FILL);
    c.exclude_user = true;
    c.exclude_kernel = true;
    sw_trace_result r;
    sw_env e = env();
    ASSERT_EQ(sw_trace_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.bytes, 0u);
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 4096u);
}

// ---- fault --------------------------------------------------------------------------------

class Fault : public Apps
{
  protected:
    sw_fault_config fault_config()
    {
        sw_fault_config c{};
        c.base = BUF;
        c.size = BUF_SIZE;
        return c;
    }
    void inject(uint64_t lo, uint64_t hi, pmt_trbe_fault_kind kind, uint8_t stage, int8_t level)
    {
        pmt_trbe_fault f{};
        f.kind = kind;
        f.stage = stage;
        f.level = level;
        ASSERT_EQ(hal_core_add_fault(hc, lo, hi, &f), PMT_OK);
    }
};

// A stage 1 Permission fault (level 3) on the third page: EC 0x24, FSC 0x0F, TRBPTR_EL1 at the
// page. The capture skips the page and carries on from the next one.
TEST_F(Fault, Stage1PermissionFaultIsReportedAndSkipped)
{
    make();
    inject(BUF + 0x2000, BUF + 0x3000, PMT_TRBE_FAULT_PERMISSION, 1, 3);
    sw_workload w = trace_loop(12, 1024);
    sw_fault_config c = fault_config();
    sw_fault_result r;
    sw_env e = env();
    ASSERT_EQ(sw_fault_run(&e, &c, &w, &r), SW_OK);
    ASSERT_EQ(r.num_reports, 1u);
    EXPECT_EQ(r.reports[0].ec, 0x24u);
    EXPECT_EQ(r.reports[0].fsc, 0x0Fu);
    EXPECT_EQ(r.reports[0].trbptr, BUF + 0x2000);
    EXPECT_FALSE(r.reports[0].ea);
    EXPECT_EQ(r.reports[0].cause, SW_TRBE_CAUSE_FAULT);
    EXPECT_EQ(r.reports[0].act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(r.faults, 1u);
    EXPECT_EQ(r.recoveries, 1u);
    EXPECT_FALSE(r.stopped);
    // The 1 KiB that met the fault is lost; the next 3 KiB land on the fourth page.
    EXPECT_TRUE(holds(BUF, 0, 0x2000));
    EXPECT_TRUE(holds(BUF + 0x3000, 0x2400, 0xC00));
    EXPECT_EQ(r.bytes, 0x2000u + 0xC00u);
    char buf[1024];
    sw_fault_format(&r, buf, sizeof buf);
    text = buf;
    EXPECT_TRUE(has("fault: EC 0x24 FSC 0x0f TRBPTR_EL1 0x40012000")) << text;
}

// The fix callback maps the page (removes the fault): the capture resumes at TRBPTR_EL1.
TEST_F(Fault, FixedFaultResumesAtTheFaultingAddress)
{
    make();
    inject(BUF + 0x2000, BUF + 0x3000, PMT_TRBE_FAULT_TRANSLATION, 1, 3);
    sw_workload w = trace_loop(12, 1024);
    sw_fault_config c = fault_config();
    struct Fix {
        hal_core *hc;
        std::vector<sw_fault_report> seen;
    } fix{hc, {}};
    c.fix = [](void *arg, const sw_fault_report *rep) {
        auto *f = static_cast<Fix *>(arg);
        f->seen.push_back(*rep);
        hal_core_clear_faults(f->hc);
        return true;
    };
    c.fix_arg = &fix;
    sw_fault_result r;
    sw_env e = env();
    ASSERT_EQ(sw_fault_run(&e, &c, &w, &r), SW_OK);
    ASSERT_EQ(fix.seen.size(), 1u);
    EXPECT_EQ(fix.seen[0].fsc, 0x07u);
    EXPECT_EQ(r.recoveries, 1u);
    EXPECT_TRUE(holds(BUF + 0x2000, 0x2400, 0xC00));
    EXPECT_EQ(r.bytes, 0x2C00u);
}

// An External abort on a trace write reported to the unit synchronously (RGQWBF): EA, and
// TRBPTR_EL1 is the faulting address.
TEST_F(Fault, ExternalAbortIsReported)
{
    cfg.pe.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    make();
    ASSERT_EQ(hal_core_add_abort(hc, BUF + 0x1000, BUF + 0x1040, PMT_TRBE_WRITE_ABORT_SYNC),
              PMT_OK);
    sw_workload w = trace_loop(8, 1024);
    sw_fault_config c = fault_config();
    sw_fault_result r;
    sw_env e = env();
    ASSERT_EQ(sw_fault_run(&e, &c, &w, &r), SW_OK);
    ASSERT_GE(r.num_reports, 1u);
    EXPECT_TRUE(r.reports[0].ea);
    EXPECT_EQ(r.reports[0].cause, SW_TRBE_CAUSE_EXTERNAL_ABORT);
    EXPECT_EQ(r.reports[0].trbptr, BUF + 0x1000);
    EXPECT_EQ(r.recoveries, 1u);
}

// Every page faults: the app gives up after max_recoveries and truncates, as Linux does at once.
TEST_F(Fault, GivesUpAfterMaxRecoveries)
{
    make();
    inject(BUF, BUF + BUF_SIZE, PMT_TRBE_FAULT_ACCESS_FLAG, 1, 3);
    sw_workload w = trace_loop(8, 1024);
    sw_fault_config c = fault_config();
    c.max_recoveries = 3;
    sw_fault_result r;
    sw_env e = env();
    ASSERT_EQ(sw_fault_run(&e, &c, &w, &r), SW_OK);
    EXPECT_EQ(r.faults, 4u);
    EXPECT_EQ(r.recoveries, 3u);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.bytes, 0u);
    EXPECT_EQ(r.reports[0].fsc, 0x0Bu); // Access flag fault, level 3
    EXPECT_EQ(r.reports[1].trbptr, BUF + 0x1000);
    EXPECT_EQ(r.reports[2].trbptr, BUF + 0x2000);
}

} // namespace

namespace
{

// Bad input is answered, never fatal.
TEST_F(Apps, BadArgumentsAreRefused)
{
    make();
    sw_env e = env();
    sw_workload w = make_loop(1);
    sw_stat_result sr;
    sw_stat_config sc{};
    sc.num_events = SW_STAT_MAX_EVENTS + 1;
    EXPECT_EQ(sw_stat_run(&e, &sc, &w, &sr), SW_EINVAL);
    EXPECT_EQ(sw_stat_run(nullptr, &sc, &w, &sr), SW_EINVAL);
    EXPECT_EQ(sw_stat_run(&e, &sc, &w, nullptr), SW_EINVAL);
    sw_record_config rc{};
    rc.event = PMT_EV_INST_RETIRED; // period 0
    sw_record_result rr;
    EXPECT_EQ(sw_record_run(&e, &rc, &w, &rr), SW_EINVAL);
    sw_trace_config tc = trace_config(2); // a reserved buffer mode
    sw_trace_result tr;
    EXPECT_EQ(sw_trace_run(&e, &tc, &w, &tr), SW_EINVAL);
    tc = trace_config(PMT_TRBLIMITR_FM_FILL);
    tc.base = BUF + 0x10; // not page aligned: the driver refuses the buffer
    EXPECT_EQ(sw_trace_run(&e, &tc, &w, &tr), SW_EINVAL);
    sw_fault_config fc{};
    sw_fault_result fr;
    EXPECT_EQ(sw_fault_run(&e, &fc, &w, &fr), SW_EINVAL); // size 0
    char small[8];
    EXPECT_GT(sw_stat_format(&sr, small, sizeof small), sizeof small); // truncated, terminated
    EXPECT_EQ(std::strlen(small), sizeof small - 1);
    EXPECT_GT(sw_stat_format(&sr, nullptr, 0), 0u);
}

// The trace app on a PE without FEAT_TRBE: ENODEV, nothing else happens.
TEST_F(Apps, TraceWithoutTrbeIsNoDevice)
{
    cfg.pe.trbe.feat_trbe = false;
    make();
    sw_env e = env();
    sw_workload w = trace_loop(2, 64);
    sw_trace_config tc = trace_config(PMT_TRBLIMITR_FM_FILL);
    sw_trace_result tr;
    EXPECT_EQ(sw_trace_run(&e, &tc, &w, &tr), SW_ENODEV);
    EXPECT_EQ(tr.status, SW_ENODEV);
}

TEST(HalCore, BadConfigurationsAreRefused)
{
    hal_core_config c = hal_core_config_default();
    c.pe.num_counters = 40;
    std::string why;
    c.user = &why;
    c.log = [](void *u, const char *m) { *static_cast<std::string *>(u) = m; };
    EXPECT_EQ(hal_core_create(&c), nullptr);
    EXPECT_FALSE(why.empty());
    c = hal_core_config_default();
    c.kernel_el = 3;
    EXPECT_EQ(hal_core_create(&c), nullptr);
    c = hal_core_config_default();
    c.ram_size = 0;
    EXPECT_EQ(hal_core_create(&c), nullptr);
    EXPECT_EQ(hal_core_create(nullptr), nullptr);
    hal_core_destroy(nullptr);
}

} // namespace
