// Cycle counting in the trace unit's instruction trace (TRCCONFIGR.CCI, TRCCCCTLR): the CPU's
// reports, each at a cycle of the PE's clock (pmt_ete_callbacks.cycles), through the trace unit
// and the Trace Buffer Unit into (fake) memory; OpenCSD's ETE decoder gives back the ranges, the
// Cycle Count elements and the Timestamps' cycle counts, in their order. The rules are the ETE
// architecture's (Arm ARM K.a, D4.5.10: RGWQGS, RBMVKB, RPFZXK, RYVWJW, RYFMWB, RZMQLT, RSZRZR).
#include "ete_trace_fixture.h"

#include <numeric>
#include <sstream>
#include <string>

namespace
{

class EteCycles : public EteTrace
{
  protected:
    // Cycle counting (TRCCONFIGR.CCI, and `more` TRCCONFIGR bits) with TRCCCCTLR.THRESHOLD
    // `threshold`, the unit enabled at cycle `at` (`before_enable` programs more first).
    void start_cc(
        uint64_t threshold, uint64_t at = 0, uint64_t more = 0, uint64_t victlr = 0x201,
        const std::function<void()> &before_enable = [] {})
    {
        clock = at;
        start(PMT_MASK(TRCCONFIGR, CCI) | more, victlr, false);
        wr(PMT_REG_TRCCCCTLR, threshold);
        before_enable();
        wr(PMT_REG_TRCPRGCTLR, 1);
    }
    // A range reported at cycle `cycle`: its P0 element (the last run's) ended then.
    void range_at(uint64_t cycle, uint64_t start, uint64_t last, pmt_ete_p0 kind, bool taken,
                  uint64_t next, uint64_t count = 1)
    {
        clock = cycle;
        range(start, last, kind, taken, next, count);
    }
    // The loop's branch taken (back to LOOP) or not (on to CALL), at `cycle`.
    void loop_at(uint64_t cycle, bool taken = true, uint64_t count = 1)
    {
        range_at(cycle, LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, taken, taken ? LOOP : CALL, count);
    }
    // Drops the model: the next start() makes a new one (from cfg).
    void drop()
    {
        pmt_pe_destroy(pe);
        pe = nullptr;
    }
    decoded decode_cc(bool ts = false)
    {
        pmt_ete_pkt_config c{};
        c.cci = true;
        c.ts = ts;
        return decode_capture(c);
    }
};

// The decoded elements in order, as text: "r<n>" a range of n instructions, "c<n>" a Cycle Count
// element (0: UNKNOWN), "x" an Exception element, "t<n>" a Timestamp with cycle count n ("t-"
// without one), "on" a Trace On element.
std::string flow(const decoded &d)
{
    std::ostringstream os;
    for (const element &e : d.elements) {
        switch (e.k) {
        case kind::range: os << " r" << e.n; break;
        case kind::cycle_count: os << " c" << e.n; break;
        case kind::exception: os << " x"; break;
        case kind::trace_on: os << " on"; break;
        case kind::timestamp:
            if (e.has_cc)
                os << " t" << e.n;
            else
                os << " t-";
            break;
        default: break;
        }
    }
    return os.str().empty() ? "" : os.str().substr(1);
}

} // namespace

// RGWQGS: with the cycle counter at or above TRCCCCTLR.THRESHOLD a Commit element (each traced
// P0 element commits at once: TRCIDR8.MAXSPEC is 0) requests a Cycle Count element, generated
// at once; it holds the counter, which restarts at that commit (RBMVKB); below the threshold the
// counter goes on. The first after the enable is UNKNOWN (RYFMWB), a count of 0 (RPFZXK).
TEST_F(EteCycles, RGWQGS_ACycleCountFollowsEachCommitAtTheThreshold)
{
    start_cc(4, 100);
    go(0);
    loop_at(110);                                                   // 10 since the enable
    loop_at(113);                                                   // 3: below the threshold
    loop_at(116, false);                                            // 6
    range_at(120, CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);       // 4: at the threshold
    range_at(121, FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, BACK); // 1
    const decoded d = decode_cc();
    expect_ranges(d, {range_of(LOOP, 3, true), range_of(LOOP, 3, true), range_of(LOOP, 3, false),
                      range_of(CALL, 1, true), range_of(FUNC, 2, true)});
    EXPECT_EQ(flow(d), "on r3 c0 r3 r3 c6 r1 c4 r2");
}

// A loop reported once for its runs (pmt_ete_range.count): each run committed its P0 element,
// the runs taking the cycles since the last report in equal parts; a Cycle Count element follows
// each run that brings the counter to the threshold.
TEST_F(EteCycles, ALoopReportedOnceCountsEachRun)
{
    start_cc(4);
    go(0);
    loop_at(6);
    loop_at(36, true, 10); // runs at 9, 12, ..., 36: the counter reaches 4 every other run
    loop_at(40, false);
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r3 r3 c6 r3 r3 c6 r3 r3 c6 r3 r3 c6 r3 r3 c6 r3 c4");
}

// The cycles of a loop's runs that do not divide equally: the remainder is in the first run.
TEST_F(EteCycles, ALoopsRemainderCyclesAreInItsFirstRun)
{
    start_cc(4);
    go(0);
    loop_at(6);
    loop_at(37, true, 10); // 31 cycles: runs at 10 (4 cycles), 13, 16, ..., 37 (3 each)
    loop_at(41, false);    // 7 since the run at 34
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r3 c4 r3 r3 c6 r3 r3 c6 r3 r3 c6 r3 r3 c6 r3 r3 c7");
}

// The Exception element is a P0 element: it commits when the exception is taken (the report's
// time), and its Cycle Count element follows it; the vector's code counts from there.
TEST_F(EteCycles, AnExceptionCommitsWhenItIsTaken)
{
    start_cc(4);
    go(0);
    loop_at(10, false);
    range_at(11, CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    range_at(13, FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, BACK);
    clock = 20;
    exception(PMT_ETE_EXC_CALL, BACK, BACK + 8); // the SVC: 10 cycles since the loop's commit
    go(1);
    range_at(22, VEC, VEC + 4, PMT_ETE_P0_INDIRECT, true, AFTER); // ERET: 2
    go(0);
    range_at(26, AFTER, AFTER + 4, PMT_ETE_P0_DIRECT, true, AFTER); // 6
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r1 r2 r2 x c10 r2 r2 c6");
}

// RZMQLT, RMWJHD, ITYVDN: with TRCCONFIGR.CCI each Timestamp element has a cycle count, the
// cycles from the most recent Cycle Count element to the commit it goes with (0 when that commit
// had one); it does not restart the counter. Here TRCTSCTLR selects resource 1 (TRUE): a
// Timestamp at every P0 element; the first, at the Trace Info, before any Cycle Count element
// (RJNSWW: UNKNOWN), is the counter since the enable: 0.
TEST_F(EteCycles, RZMQLT_TimestampsCarryTheCyclesSinceTheLastCycleCount)
{
    start_cc(4, 100, PMT_MASK(TRCCONFIGR, TS), 0x201, [&] { wr(PMT_REG_TRCTSCTLR, 1); });
    go(0);
    loop_at(110);        // a Cycle Count element: the Timestamp's count is 0
    loop_at(113);        // 3 since it
    loop_at(115);        // 5: a Cycle Count element
    loop_at(116, false); // 1 since it
    const decoded d = decode_cc(true);
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t0 r3 c0 t0 r3 t3 r3 c5 t0 r3 t1");
}

// TRCIDR2.CCSIZE 0: a 12-bit counter. A count of 4095 fits; one of 4096 exceeds the counter, and
// its Cycle Count element is UNKNOWN (RYVWJW); the counter restarts from there all the same.
TEST_F(EteCycles, RYVWJW_ACountBeyondTheCounterIsUnknown)
{
    start_cc(4);
    go(0);
    loop_at(10);
    loop_at(10 + 4095);
    loop_at(10 + 4095 + 4096);
    loop_at(10 + 4095 + 4096 + 5, false);
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r3 c4095 r3 c0 r3 c5");
}

// RYFMWB: each time the unit becomes enabled, its first Cycle Count element is UNKNOWN.
TEST_F(EteCycles, RYFMWB_TheFirstCountAfterEachEnableIsUnknown)
{
    start_cc(4);
    go(0);
    loop_at(10);
    loop_at(20);
    clock = 30;
    wr_el(1, PMT_REG_TRCPRGCTLR, 0);
    clock = 40;
    wr_el(1, PMT_REG_TRCPRGCTLR, 1);
    loop_at(50);
    loop_at(60, false);
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r3 c10 on r3 c0 r3 c10");
}

// RSZRZR, IMCCBH: the cycle counter counts on where trace is prohibited (TRFCR_EL1.E0TRE 0: EL0
// is a Trace Prohibited region) and where ViewInst filters the code out (TRCVICTLR.EXLEVEL_NS_EL0);
// the first count after trace resumes includes those cycles.
TEST_F(EteCycles, RSZRZR_CyclesWhereNothingIsTracedAreCounted)
{
    for (bool prohibited : {true, false}) {
        SCOPED_TRACE(prohibited ? "TRFCR_EL1.E0TRE 0" : "TRCVICTLR.EXLEVEL_NS_EL0 1");
        drop();
        start_cc(4, 0, 0, prohibited ? 0x201 : 0x201 | (uint64_t{1} << 20));
        if (prohibited)
            wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE));
        go(1);
        loop_at(10);
        go(0);
        loop_at(30); // not traced
        go(1);
        loop_at(40, false);
        const decoded d = decode_cc();
        EXPECT_EQ(d.errors, 0u);
        EXPECT_EQ(flow(d), "on r3 c0 on r3 c30");
    }
}

// Counting cycles, the unit needs each P0 element's cycle: no report is held (each is made at
// its time, and asks the cycles); without TRCCONFIGR.CCI the same report is held, asking nothing.
TEST_F(EteCycles, NoReportIsHeldWhileCountingCycles)
{
    start_cc(4);
    go(0);
    loop_at(10);
    const unsigned asked = cycles_asked;
    EXPECT_FALSE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    EXPECT_EQ(cycles_asked, asked);

    drop();
    start();
    go(0);
    loop_at(10);
    const unsigned asked_without = cycles_asked;
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    EXPECT_EQ(cycles_asked, asked_without);
}

// D24.4.16, RKJXDK: TRCCCCTLR.THRESHOLD below TRCIDR3.CCITMIN (4 here). By default the unit
// counts with CCITMIN as the threshold, which Trace Info states (the decoder adds it back to each
// count); with ete.cc_below_min = PMT_ETE_CC_BELOW_MIN_NO_COUNTS the trace has no cycle counts:
// no Cycle Count element, and Timestamps without a cycle count.
TEST_F(EteCycles, D24_4_16_ThresholdBelowCcitminByChoice)
{
    start_cc(1);
    go(0);
    loop_at(10);
    loop_at(13);
    loop_at(16, false);
    decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 c0 r3 r3 c6");

    cfg.ete.cc_below_min = PMT_ETE_CC_BELOW_MIN_NO_COUNTS;
    drop();
    start_cc(1, 0, PMT_MASK(TRCCONFIGR, TS));
    go(0);
    loop_at(10);
    loop_at(13);
    loop_at(16, false);
    pmt_ete_pkt_config c{};
    c.ts = true;
    d = decode_capture(c);
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t- r3 r3 r3");
}

// Without a cycle source (pmt_ete_callbacks.cycles NULL) there is nothing to count: no Cycle
// Count elements, reports held as without TRCCONFIGR.CCI, and one line in the log.
TEST_F(EteCycles, WithoutACycleSourceThereAreNoCycleCounts)
{
    cycle_source = false;
    start_cc(4);
    go(0);
    loop_at(10);
    log_lines.clear();
    loop_at(20);
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    loop_at(30, false);
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on r3 r3 r3 r3");
    EXPECT_TRUE(log_lines.empty()); // said once, at the first report
}

// The counts are differences of the PE's cycles at the commits they go with: over a long run of
// ranges of varied lengths, with periodic synchronization (TRCSYNCPR 2^8 bytes) between them,
// each count after the first is the cycles between its commit and the one before, and they add
// up to the cycles from the first counted commit to the last.
TEST_F(EteCycles, TheCountsAddUpToTheCyclesBetweenTheirCommits)
{
    start_cc(16, 0, 0, 0x201, [&] { wr(PMT_REG_TRCSYNCPR, 8); });
    go(0);
    std::vector<uint64_t> commit; // the cycle of each range's P0 element
    uint64_t now = 0;
    for (unsigned i = 0; i < 2000; i++) {
        now += 1 + (i * 7919u) % 37;
        commit.push_back(now);
        loop_at(now, i + 1 < 2000);
    }
    const decoded d = decode_cc();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_GT(d.of(kind::cycle_count).size(), 100u);
    size_t ranges = 0;
    std::vector<std::pair<size_t, uint32_t>> counts; // after which range, the count
    for (const element &e : d.elements) {
        if (e.k == kind::range)
            ranges++;
        else if (e.k == kind::cycle_count)
            counts.emplace_back(ranges, e.n);
    }
    ASSERT_EQ(ranges, commit.size());
    ASSERT_GT(counts.size(), 1u);
    EXPECT_EQ(counts[0].second, 0u); // RYFMWB
    uint64_t sum = 0;
    for (size_t k = 1; k < counts.size(); k++) {
        const uint64_t cycles = commit[counts[k].first - 1] - commit[counts[k - 1].first - 1];
        EXPECT_EQ(counts[k].second, cycles) << "count " << k;
        EXPECT_GE(counts[k].second, 16u);
        sum += counts[k].second;
    }
    EXPECT_EQ(sum, commit[counts.back().first - 1] - commit[counts.front().first - 1]);
}

// The cycle counter is saved state: a model restored in the middle of a trace goes on counting
// from where the saved one was, and the trace is the same byte for byte.
TEST_F(EteCycles, SaveAndRestoreKeepTheCycleCounter)
{
    auto run = [&](bool restore) {
        drop();
        start_cc(4);
        go(0);
        loop_at(10);
        loop_at(13);
        std::vector<uint8_t> saved(pmt_pe_state_size(pe));
        EXPECT_EQ(pmt_pe_save(pe, saved.data(), saved.size()), PMT_OK);
        if (restore) {
            loop_at(50); // undone by the restore
            EXPECT_EQ(pmt_pe_restore(pe, saved.data(), saved.size()), PMT_OK);
        }
        loop_at(15);
        loop_at(30, false);
        return captured();
    };
    const std::vector<uint8_t> straight = run(false);
    EXPECT_EQ(run(true), straight);
    pmt_ete_pkt_config c{};
    c.cci = true;
    EXPECT_EQ(flow(decode(straight, img, c)), "on r3 c0 r3 r3 c5 r3 c15");
}
