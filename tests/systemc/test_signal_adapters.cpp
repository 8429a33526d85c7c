// signal_adapters.h: the model's outputs onto sc_signal<bool>, written by one process (the
// adapter's) although two processes change the output: the model's own method (an overflow in
// the future) and a CPU thread (a register write). SystemC reports E115 for a signal with two
// writers, and the harness fails a test on any SystemC error.
#include "pe_model_fixture.h"

#include <pmtrace/systemc/signal_adapters.h>

#include <vector>

namespace
{

using namespace pmtrace_test;

// What a signal did: (time, value) at each change.
struct signal_watcher : sc_core::sc_module {
    sc_core::sc_in<bool> in;
    struct change {
        sc_time at;
        bool value;
    };
    std::vector<change> changes;
    explicit signal_watcher(const sc_core::sc_module_name &name) : sc_module(name), in("in")
    {
        SC_HAS_PROCESS(signal_watcher);
        SC_METHOD(seen);
        sensitive << in;
        dont_initialize();
    }
    void seen() { changes.push_back({sc_core::sc_time_stamp(), in.read()}); }
};

// A CPU thread that clears the cycle counter's overflow at `at` (its handler, in effect).
struct overflow_clearer : sc_core::sc_module {
    pmtrace::pe_model &pe;
    sc_time at;
    overflow_clearer(const sc_core::sc_module_name &name, pmtrace::pe_model &p, sc_time t)
        : sc_module(name), pe(p), at(t)
    {
        SC_HAS_PROCESS(overflow_clearer);
        SC_THREAD(run);
    }
    void run()
    {
        sc_core::wait(at);
        wr(pe, PMT_REG_PMOVSCLR_EL0, 0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
    }
};

// PMUIRQ onto a signal: it rises at the overflow (1000 cycles of 1 ns: the model's method) and
// falls when the CPU thread clears PMOVSCLR_EL0 at 1500 ns; the signal follows in the same time
// step, with no second writer.
TEST(SignalAdapters, PmuirqOntoASignalChangedByTwoProcesses)
{
    pmtrace::pe_model pe("pe");
    pmtrace::level_signal_adapter adapter("pmuirq_adapter");
    sc_core::sc_signal<bool> line("pmuirq_line");
    signal_watcher gic("gic");
    overflow_clearer cpu("cpu", pe, ns(1500));
    pe.pmuirq.bind(adapter);
    adapter.out(line);
    gic.in(line);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(gic.changes.size(), 2u);
    EXPECT_EQ(gic.changes[0].at, ns(1000));
    EXPECT_TRUE(gic.changes[0].value);
    EXPECT_EQ(gic.changes[1].at, ns(1500));
    EXPECT_FALSE(gic.changes[1].value);
    EXPECT_FALSE(adapter.level());
}

// The CTI's trigger input 1 (Performance Monitors overflow, H5.4.4) as pulses: each trigger
// event (the cycle counter at 1000 ns, event counter 0 at 1500 ns) is a pulse of 100 ns.
TEST(SignalAdapters, CtiTriggerEventsBecomePulses)
{
    pmtrace::pe_model pe("pe");
    pmtrace::event_pulse_adapter adapter("cti_adapter", ns(100));
    sc_core::sc_signal<bool> line("trigger_line");
    signal_watcher cti("cti");
    pe.cti_pmu_overflow.bind(adapter);
    adapter.out(line);
    cti.in(line);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFFu - 1499);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(cti.changes.size(), 4u);
    const sc_time at[4] = {ns(1000), ns(1100), ns(1500), ns(1600)};
    for (unsigned n = 0; n < 4; n++) {
        EXPECT_EQ(cti.changes[n].at, at[n]) << n;
        EXPECT_EQ(cti.changes[n].value, n % 2 == 0) << n;
    }
    EXPECT_EQ(adapter.count(), 2u);
    EXPECT_EQ(adapter.last_trigger(), 1u);
}

// Events closer than the width make one pulse, high from the first to `width` after the last.
TEST(SignalAdapters, CloseEventsMakeOneLongerPulse)
{
    pmtrace::event_pulse_adapter adapter("adapter", ns(1000));
    sc_core::sc_signal<bool> line("line");
    signal_watcher watcher("watcher");
    adapter.out(line);
    watcher.in(line);
    sc_core::sc_start(ns(100));
    adapter.notify_event(sc_core::SC_ZERO_TIME);
    sc_core::sc_start(ns(400));
    adapter.notify_event(sc_core::SC_ZERO_TIME);
    sc_core::sc_start(ns(3000));
    ASSERT_EQ(watcher.changes.size(), 2u);
    EXPECT_EQ(watcher.changes[0].at, ns(100));
    EXPECT_TRUE(watcher.changes[0].value);
    EXPECT_EQ(watcher.changes[1].at, ns(1500));
    EXPECT_FALSE(watcher.changes[1].value);
    EXPECT_EQ(adapter.count(), 2u);
}

} // namespace
