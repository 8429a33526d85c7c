// pe_model::save and restore (docs/systemc.md "Save and restore"): a twin restored mid-capture
// continues bit-identically; a blob that does not fit is refused and changes nothing.
#include "pe_trbe_fixture.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace
{

using namespace pmtrace_test;
using P = trbe_platform;

// One trbe_platform with a PMUIRQ probe, inside a module of its own (so several share one
// simulation); the test starts the simulation. Each trace buffer write takes 30 ns per
// alignment unit: the writes of a step take longer than the step, so the trace bus initiator's
// local time runs ahead of simulated time (trace_write_time).
struct twin : sc_core::sc_module {
    level_probe pmuirq;
    P p;
    explicit twin(const sc_core::sc_module_name &name,
                  const pmtrace::pe_model_config &cfg = trbe_config(),
                  const std::function<void(P &)> &before_start = {})
        : sc_module(name), p(cfg, ram_config(true, ns(30)), true, before_start, P::start::by_test)
    {
        p.pe.pmuirq.bind(pmuirq);
    }
};

// The stimulus: a kernel at Non-secure EL1 capturing trace in Wrap mode into a 4 KiB buffer
// while the PMU counts, and handling both interrupts. Step k happens at k * step.
constexpr uint64_t BUF_LIMIT = P::BASE + 0x1000;
const sc_time step = ns(100);
constexpr uint64_t INST_PERIOD = 97; // PMEVCNTR0_EL0 overflows every 97 INST_RETIRED
// PMCCNTR_EL0 overflows at cycle 5077 (5077 ns): after the save, before the next step, so
// only the overflow event raises PMUIRQ there.
constexpr uint64_t CYCLES_LEFT = 5077;
constexpr unsigned BEFORE = 50, END = 200; // steps 0..50 before the save, the rest after
const sc_time T = ns(5050);                // between steps 50 and 51

// Firmware and driver set-up at time 0: the buffer to EL1, Wrap mode (each wrap sets
// TRBSR_EL1.IRQ, RVBDJZ); PMEVCNTR0 counts INST_RETIRED and PMEVCNTR1 TRB_WRAP (D6.1.2), the
// cycle counter counts; overflow interrupts on PMEVCNTR0 and PMCCNTR (D13.3.1).
void set_up(P &p)
{
    give_buffer_to_el1(p.pe);
    p.program(P::BASE, BUF_LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    wr(p.pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED);
    wr(p.pe, PMT_REG_PMEVCNTR_EL0, 0, (uint64_t(1) << 32) - INST_PERIOD);
    wr(p.pe, PMT_REG_PMEVTYPER_EL0, 1, PMT_EV_TRB_WRAP);
    wr(p.pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(p.pe, PMT_REG_PMCNTENSET_EL0, 0, 3);
    arm_cycle_counter(p.pe, 0 - CYCLES_LEFT);
}

// The interrupt handlers, run before a step's work when a line is high. PMUIRQ: clear the
// overflow flags (PMOVSCLR_EL0), re-arm PMEVCNTR0. TRBIRQ: as coresight-trbe, TSB CSYNC, then
// disable, clear TRBSR_EL1 and re-enable where the pointer is.
void handle_interrupts(P &p)
{
    if (p.pe.pmuirq.read()) {
        const uint64_t ovs = rd(p.pe, PMT_REG_PMOVSCLR_EL0);
        wr(p.pe, PMT_REG_PMOVSCLR_EL0, 0, ovs);
        if (ovs & 1)
            wr(p.pe, PMT_REG_PMEVCNTR_EL0, 0, (uint64_t(1) << 32) - INST_PERIOD);
    }
    if (p.pe.trbirq.read()) {
        EXPECT_EQ(p.pe.trbe->tsb_csync(sc_core::SC_ZERO_TIME), PMT_OK);
        const uint64_t ptr = p.trbptr();
        p.program(P::BASE, BUF_LIMIT, ptr, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    }
}

// Steps [first, last) of the stimulus, from a process: trace bytes (not whole alignment units,
// so a partly filled unit is often held) and retired instructions.
void drive(P &p, unsigned first, unsigned last)
{
    for (unsigned k = first; k < last; k++) {
        sc_core::wait(step * k - sc_core::sc_time_stamp());
        handle_interrupts(p);
        p.trace(150 + (k * 37) % 200);
        EXPECT_EQ(p.pe.events->count_event(PMT_EV_INST_RETIRED, 1 + k % 9, sc_core::SC_ZERO_TIME),
                  PMT_OK);
    }
}

// The level changes a probe recorded after time t.
std::vector<std::pair<sc_time, bool>> changes_after(const level_probe &probe, const sc_time &t)
{
    std::vector<std::pair<sc_time, bool>> out;
    for (const level_probe::change &c : probe.changes)
        if (c.at > t)
            out.emplace_back(c.at, c.level);
    return out;
}

size_t rises(const std::vector<std::pair<sc_time, bool>> &changes)
{
    return static_cast<size_t>(
        std::count_if(changes.begin(), changes.end(), [](const auto &c) { return c.second; }));
}

// Platform A captures from time 0; at T its model is saved and restored into B (idle until
// then, same configuration), and only its core's blob into C; the platform around each model
// (memory, the trace unit's stream position) is copied as a platform checkpoint would. From T
// the same stimulus drives all three. B's counters, overflow flags, TRBPTR_EL1, TRBSR_EL1,
// memory and interrupt times are A's; C, whose clock was not restored, counts again the
// cycles A's clock had handed out before T.
TEST(PeSaveRestore, TwinRestoredMidCaptureContinuesBitIdentically)
{
    twin a("a"), b("b"), c("c");
    caller drive_a("drive_a", sc_core::SC_ZERO_TIME), save("save", T);
    caller drive_b("drive_b", T), drive_c("drive_c", T);
    drive_a.f = [&] { drive(a.p, 1, END); };
    drive_b.f = [&] { drive(b.p, BEFORE + 1, END); };
    drive_c.f = [&] { drive(c.p, BEFORE + 1, END); };
    uint64_t a_cycles_at_t = 0, wraps_at_t = 0;
    std::vector<uint8_t> buffer_at_t;
    save.f = [&] {
        a_cycles_at_t = a.p.pe.cycles();
        const std::vector<unsigned char> blob = a.p.pe.save();
        ASSERT_FALSE(blob.empty());
        std::vector<unsigned char> core(pmt_pe_state_size(a.p.pe.core()));
        ASSERT_EQ(pmt_pe_save(a.p.pe.core(), core.data(), core.size()), PMT_OK);
        EXPECT_EQ(b.p.pe.restore(blob), PMT_OK);
        EXPECT_EQ(pmt_pe_restore(c.p.pe.core(), core.data(), core.size()), PMT_OK);
        // The restored outputs are at A's levels.
        EXPECT_EQ(b.p.pe.pmuirq.read(), a.p.pe.pmuirq.read());
        EXPECT_EQ(b.p.pe.trbirq.read(), a.p.pe.trbirq.read());
        for (twin *t : {&b, &c}) {
            t->p.stream = a.p.stream;
            std::memcpy(t->p.ram.data(), a.p.ram.data(), a.p.ram.size());
        }
        buffer_at_t.assign(a.p.ram.data() + (P::BASE - P::RAM),
                           a.p.ram.data() + (BUF_LIMIT - P::RAM));
        wraps_at_t = a.p.pe.counters()[1].value;
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    set_up(a.p);
    sc_core::sc_start(step * END);

    const auto av = a.p.pe.counters(), bv = b.p.pe.counters(), cv = c.p.pe.counters();
    for (unsigned n : {0u, 1u, unsigned(PMT_CYCLE_COUNTER_ID)})
        EXPECT_EQ(bv[n].value, av[n].value) << "counter " << n;
    EXPECT_EQ(rd(b.p.pe, PMT_REG_PMOVSSET_EL0), rd(a.p.pe, PMT_REG_PMOVSSET_EL0));
    EXPECT_EQ(b.p.trbptr(), a.p.trbptr());
    EXPECT_EQ(b.p.trbsr(), a.p.trbsr());
    EXPECT_TRUE(std::equal(a.p.ram.data(), a.p.ram.data() + a.p.ram.size(), b.p.ram.data()));
    EXPECT_EQ(b.p.pe.trace_write_time(), a.p.pe.trace_write_time());
    const auto a_pmuirq = changes_after(a.pmuirq, T), a_trbirq = changes_after(a.p.irq, T);
    EXPECT_EQ(changes_after(b.pmuirq, T), a_pmuirq);
    EXPECT_EQ(changes_after(b.p.irq, T), a_trbirq);

    // Not a quiet continuation: after T the buffer wrapped and was rewritten, TRBIRQ rose on
    // the wraps, PMUIRQ on PMEVCNTR0's overflows and on the cycle counter's.
    EXPECT_GE(av[1].value - wraps_at_t, 5u);
    EXPECT_GE(rises(a_trbirq), 5u);
    EXPECT_GE(rises(a_pmuirq), 5u);
    EXPECT_TRUE(std::any_of(a_pmuirq.begin(), a_pmuirq.end(),
                            [](const auto &ch) { return ch.first == ns(CYCLES_LEFT); }));
    EXPECT_FALSE(
        std::equal(buffer_at_t.begin(), buffer_at_t.end(), a.p.ram.data() + (P::BASE - P::RAM)));

    // Without the module's state the clock hands out the cycles from time 0 again.
    EXPECT_GT(a_cycles_at_t, 0u);
    EXPECT_EQ(cv[PMT_CYCLE_COUNTER_ID].value - av[PMT_CYCLE_COUNTER_ID].value, a_cycles_at_t);
}

// At the time of a restore the outputs go to the saved levels: PMUIRQ was high in A (the cycle
// counter overflowed at cycle 100), so B's rises at the restore.
TEST(PeSaveRestore, RestoreDrivesTheOutputsToTheSavedLevels)
{
    twin a("a"), b("b");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    give_buffer_to_el1(a.p.pe);
    arm_cycle_counter(a.p.pe, 0 - uint64_t(100));
    sc_core::sc_start(ns(150));
    ASSERT_TRUE(a.p.pe.pmuirq.read());
    EXPECT_EQ(b.p.pe.restore(a.p.pe.save()), PMT_OK);
    ASSERT_EQ(b.pmuirq.changes.size(), 1u);
    EXPECT_EQ(b.pmuirq.changes[0].at, ns(150));
    EXPECT_TRUE(b.pmuirq.changes[0].level);
}

// Saved in the delta where the trace unit's calls wait: B performs them one delta after the
// restore. The Trigger Event (TM = Stop, TRBTRG_EL1 = 0) asks for a flush; the unit's 32 bytes
// follow the 64 already written, then the flush completes and collection stops (RRWJNN).
TEST(PeSaveRestore, TraceSinkCallsWaitingForTheNextDeltaAreSaved)
{
    eager_unit unit;
    twin a("a", trbe_config(), [&](P &p) {
        unit.sink = &p.pe;
        p.pe.trace_flush.bind(unit);
    });
    twin b("b");
    caller trace_unit("trace_unit");
    bool waiting_at_save = false;
    trace_unit.f = [&] {
        a.p.trace(64);
        a.p.pe.trace_sink->detected_trigger();
        waiting_at_save = a.p.pe.trbe_status().flush_pending;
        EXPECT_EQ(b.p.pe.restore(a.p.pe.save()), PMT_OK);
        std::memcpy(b.p.ram.data(), a.p.ram.data(), a.p.ram.size());
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    give_buffer_to_el1(a.p.pe);
    wr(a.p.pe, PMT_REG_TRBTRG_EL1, 0, 0);
    a.p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_STOP);
    sc_core::sc_start(ns(2));
    EXPECT_TRUE(waiting_at_save);
    for (twin *t : {&a, &b}) {
        EXPECT_FALSE(t->p.pe.trbe_status().flush_pending) << t->name();
        EXPECT_EQ(PMT_GET(TRBSR, MSS, t->p.trbsr()), PMT_TRBSR_BSC_TRIGGER) << t->name();
        EXPECT_EQ(t->p.trbptr(), P::BASE + 96) << t->name();
        EXPECT_EQ(t->p.ram.data()[P::BASE - P::RAM + 95], 0xAB) << t->name();
    }
}

// The overflow event is re-armed from the restored counters: A's cycle counter overflows at
// cycle 300; restored into B at 150 ns, B's PMUIRQ rises at 300 ns with no call in between.
TEST(PeSaveRestore, RestoreRearmsTheOverflowEvent)
{
    twin a("a"), b("b");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    give_buffer_to_el1(a.p.pe);
    arm_cycle_counter(a.p.pe, 0 - uint64_t(300));
    sc_core::sc_start(ns(150));
    EXPECT_EQ(b.p.pe.restore(a.p.pe.save()), PMT_OK);
    sc_core::sc_start(ns(250));
    ASSERT_EQ(b.pmuirq.changes.size(), 1u);
    EXPECT_EQ(b.pmuirq.changes[0].at, ns(300));
    EXPECT_TRUE(b.pmuirq.changes[0].level);
}

// --- Refusals: a status, one line saying why, and nothing changes ---

// A capturing (a partly filled alignment unit held, the cycle counter counting) and B idle, at
// 1000 ns.
struct refusal : ::testing::Test {
    twin a{"a"}, b{"b"};
    std::vector<unsigned char> blob;
    void SetUp() override
    {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        set_up(a.p);
        a.p.trace(100);
        sc_core::sc_start(ns(1000));
        blob = a.p.pe.save();
        ASSERT_FALSE(blob.empty());
    }
    // restore(bad) is refused with `status`, saying `why`, and B is as it was.
    void expect_refused(const std::vector<unsigned char> &bad, const char *why,
                        pmt_status status = PMT_ERR_STATE_BLOB)
    {
        const std::vector<unsigned char> before = b.p.pe.save();
        pmt_status got = PMT_OK;
        EXPECT_NONFATAL_FAILURE(got = b.p.pe.restore(bad), why);
        EXPECT_EQ(got, status);
        EXPECT_EQ(b.p.pe.save(), before);
        EXPECT_TRUE(b.pmuirq.changes.empty());
        EXPECT_TRUE(b.p.irq.changes.empty());
        EXPECT_EQ(b.p.pe.cycles(), 0u);
    }
};

// The blob's checksum: 64-bit FNV-1a of the bytes before it (docs/systemc.md).
void reseal(std::vector<unsigned char> &blob)
{
    uint64_t h = 0xCBF29CE484222325u;
    const size_t body = blob.size() - 8;
    for (size_t i = 0; i < body; i++)
        h = (h ^ blob[i]) * 0x100000001B3u;
    std::memcpy(blob.data() + body, &h, 8);
}

TEST_F(refusal, ACorruptByteIsRefused)
{
    std::vector<unsigned char> bad = blob;
    bad[bad.size() / 2] ^= 0x10;
    expect_refused(bad, "checksum");
}

TEST_F(refusal, ATruncatedBlobIsRefused)
{
    expect_refused(std::vector<unsigned char>(blob.begin(), blob.end() - 9), "checksum");
    expect_refused(std::vector<unsigned char>(blob.begin(), blob.begin() + 4), "too short");
}

// A well-sealed blob whose core part the core refuses (its magic number): the module's clock,
// which restore sets before the core's state, goes back to what it was.
TEST_F(refusal, ACoreStateTheCoreRefusesChangesNothing)
{
    std::vector<unsigned char> bad = blob;
    const size_t core_at = bad.size() - 8 - pmt_pe_state_size(a.p.pe.core());
    bad[core_at] ^= 0xFF;
    reseal(bad);
    expect_refused(bad, "pmt_pe_restore: not a saved pmtrace state");
}

TEST_F(refusal, ABlobOfAnotherTimeIsRefused)
{
    sc_core::sc_start(ns(1));
    expect_refused(blob, "saved at 1 us, now is 1001 ns");
}

// The first bytes: magic, version (docs/systemc.md).
TEST_F(refusal, ABlobOfAnotherVersionIsRefused)
{
    std::vector<unsigned char> bad = blob;
    bad[4] ^= 0x01;
    reseal(bad);
    expect_refused(bad, "another version");
}

// The translation port, called from inside the model's write of the trace buffer, tries to
// save and restore the model there: both are refused (the core is in the middle of the write),
// and the write goes on as if nothing was asked.
struct reentrant_mmu : pmtrace::trbe_translation_if {
    pmtrace::pe_model *pe = nullptr;
    std::vector<unsigned char> blob;
    int calls = 0;
    pmt_trbe_translation translate(uint64_t va, const pmt_trbe_regime &) override
    {
        calls++;
        bool empty = false;
        pmt_status status = PMT_OK;
        EXPECT_NONFATAL_FAILURE(empty = pe->save().empty(), "pe_model::save: called from inside");
        EXPECT_NONFATAL_FAILURE(status = pe->restore(blob),
                                "pe_model::restore: called from inside");
        EXPECT_TRUE(empty);
        EXPECT_EQ(status, PMT_ERR_ARG);
        pmt_trbe_translation identity{}; // no fault
        identity.pa = va;
        identity.pas = PMT_SS_NONSECURE;
        return identity;
    }
};

TEST(PeSaveRestore, SaveAndRestoreFromInsideACallbackAreRefused)
{
    reentrant_mmu mmu;
    P p(trbe_config(), ram_config(true), false, [&](P &platform) {
        mmu.pe = &platform.pe;
        platform.pe.translation.bind(mmu);
    });
    p.program_fill();
    mmu.blob = p.pe.save();
    p.trace(64);
    EXPECT_GE(mmu.calls, 1);
    EXPECT_EQ(p.trbptr(), P::BASE + 64);
    EXPECT_TRUE(p.holds(P::BASE, 0, 64));
}

TEST(PeSaveRestore, ABlobOfAnotherConfigurationIsRefused)
{
    pmtrace::pe_model_config four = trbe_config();
    four.core.num_counters = 4;
    twin a("a", four), b("b");
    sc_core::sc_start(ns(10));
    const std::vector<unsigned char> before = b.p.pe.save();
    pmt_status got = PMT_OK;
    EXPECT_NONFATAL_FAILURE(got = b.p.pe.restore(a.p.pe.save()), "another configuration");
    EXPECT_EQ(got, PMT_ERR_STATE_BLOB);
    EXPECT_EQ(b.p.pe.save(), before);
}

} // namespace
