// The trace unit's Counters in its trace: Linux's etm4x programs a counter for perf's
// cs_etm/timestamp/ option (etm4_config_timestamp_event) so that a Timestamp element comes out
// each time the counter is at zero. The CPU's reports go through the trace unit into (fake)
// memory, OpenCSD's ETE decoder gives back the ranges and Timestamp elements in their order, and
// the Timestamps must be where the counter rules put them (docs/choices.md, "Counters"): the
// counters count at each traced P0 element (and each External Input event the unit takes), and
// TRCTSCTLR's event, evaluated there with the counter as it was before, asks for a Timestamp.
#include "ete_trace_fixture.h"

#include <sstream>
#include <string>

namespace
{

class EteCounterTrace : public EteTrace
{
  protected:
    // Linux 6.1's etm4_config_timestamp_event with the first counter and resource selector
    // free, as etm4_enable_hw writes it, and the unit enabled with TRCCONFIGR.TS (`configr`):
    //   TRCCNTRLDVR0 = 1, TRCCNTCTLR0 = RLDSELF (bit 16) | CNTEVENT resource 1 (TRUE),
    //   TRCCNTVR0 = 1, TRCRSCTLR2 = GROUP 0b0010 (bits [19:16]) | COUNTERS[0],
    //   TRCTSCTLR = resource selector 2.
    void start_linux_timestamps(uint64_t configr = uint64_t{1} << 11, uint64_t victlr = 0x201)
    {
        start(configr, victlr, false);
        wr(PMT_REG_TRCCNTRLDVR, 1, 0);
        wr(PMT_REG_TRCCNTCTLR, 0x1u << 16 | 0x0u << 7 | 0x1u, 0);
        wr(PMT_REG_TRCCNTVR, 1, 0);
        wr(PMT_REG_TRCRSCTLR, 0x2u << 16 | 1u << 0, 2);
        if (configr & (uint64_t{1} << 11))
            wr(PMT_REG_TRCTSCTLR, 0x0u << 7 | 2u);
        wr(PMT_REG_TRCPRGCTLR, 1);
        EXPECT_TRUE(log_lines.empty()) << log_lines.front();
    }
    // The loop's branch, taken, reported at time `t` (the timestamp callback's answer).
    void loop_at(uint64_t t, uint64_t count = 1)
    {
        ts_value = t;
        range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, count);
    }
    decoded decode_ts()
    {
        pmt_ete_pkt_config c{};
        c.ts = true;
        return decode_capture(c);
    }
    // The counter's value once the unit is disabled (etm4_disable_hw reads it back).
    uint64_t counter0_after_disable()
    {
        wr_el(1, PMT_REG_TRCPRGCTLR, 0);
        return rd_el(1, PMT_REG_TRCCNTVR);
    }
};

// The decoded elements in order, as text: "r<n>" a range of n instructions, "t<v>" a Timestamp
// of value v, "on" a Trace On element, "x" an Exception element.
std::string flow(const decoded &d)
{
    std::ostringstream os;
    for (const element &e : d.elements) {
        switch (e.k) {
        case kind::range: os << " r" << e.n; break;
        case kind::timestamp: os << " t" << e.a; break;
        case kind::trace_on: os << " on"; break;
        case kind::exception: os << " x"; break;
        default: break;
        }
    }
    return os.str().empty() ? "" : os.str().substr(1);
}

// Linux's set-up, end to end: the counter starts at 1 and counts resource 1 (TRUE) at each
// traced P0 element; it is at zero at every second one, where TRCTSCTLR's event asks for a
// Timestamp, and reloads (Self-reload mode) at the next. So one Timestamp element after every
// second atom (RLDVR + 1 = 2), each the Generic Timer's count when that branch was reported; the
// first Timestamp is the one every Trace Info has.
TEST_F(EteCounterTrace, LinuxTimestampEventGivesATimestampAtEverySecondP0Element)
{
    start_linux_timestamps();
    go(0);
    for (uint64_t i = 0; i < 8; i++)
        loop_at(100 + i);
    const decoded d = decode_ts();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t100 r3 r3 t101 r3 r3 t103 r3 r3 t105 r3 r3 t107");
    EXPECT_EQ(counter0_after_disable(), 1u); // reloaded at the eighth
}

// A loop the CPU reports as one range run n times is n P0 elements: the counter goes on counting
// at each run, and the Timestamps fall where they would with n single reports.
TEST_F(EteCounterTrace, ARepeatedRangeCountsEachRun)
{
    start_linux_timestamps();
    go(0);
    loop_at(100);
    loop_at(200, 6); // runs 2..7 of the branch: Timestamps after runs 2, 4, 6
    loop_at(300);    // the eighth P0 element
    const decoded d = decode_ts();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t100 r3 r3 t200 r3 r3 t200 r3 r3 t200 r3 r3 t300");
}

// The counter counts at the P0 elements the unit traces (the points it evaluates its resource
// events at), not where trace is off: here EL1 is excluded by TRCVICTLR.EXLEVEL_NS_EL1 (bit 21).
// The first branch at EL0 brings the counter to zero; three branches at EL1 leave it there; the
// next at EL0 finds it at zero and has its Timestamp.
TEST_F(EteCounterTrace, TheCounterDoesNotCountWhereTraceIsOff)
{
    start_linux_timestamps(uint64_t{1} << 11, 0x201 | uint64_t{1} << 21);
    go(0);
    loop_at(100);
    go(1);
    for (uint64_t i = 0; i < 3; i++) {
        ts_value = 110 + i;
        range(FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, FUNC);
    }
    go(0);
    loop_at(120);
    const decoded d = decode_ts();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t100 r3 on r3 t120");
}

// Counters count whether or not a Timestamp (or anything) consumes them: with TRCCONFIGR.TS 0 the
// same counter, in Self-reload mode from 1 with reload value 1, is back at 1 after an even number
// of P0 elements and at 0 after an odd one; no Timestamp is traced.
TEST_F(EteCounterTrace, CountersCountWithoutTimestamps)
{
    start_linux_timestamps(0);
    go(0);
    for (uint64_t i = 0; i < 5; i++)
        loop_at(100 + i);
    EXPECT_EQ(counter0_after_disable(), 0u);
    const decoded d = decode_capture();
    expect_ranges(d, std::vector<element>(5, range_of(LOOP, 3, true)));
    EXPECT_TRUE(d.of(kind::timestamp).empty());
}

// An External Input event the unit takes (TRCEXTINSELR0 selects PMU_OVFS, a PMU overflow) is an
// evaluation point too: counter 0 counts the overflows (CNTEVENT resource 2, External Input
// Selector 0; Normal mode from 2) and TRCTSCTLR's event is "counter 0 is zero" (resource 3).
// Two overflows bring it to zero; at the P0 elements after them it is at zero (and stays there in
// Normal mode): a Timestamp at each.
TEST_F(EteCounterTrace, ExternalInputEventsAreEvaluationPoints)
{
    start(uint64_t{1} << 11, 0x201, false);
    wr(PMT_REG_TRCEXTINSELR, PMT_EV_PMU_OVFS, 0);
    wr(PMT_REG_TRCRSCTLR, 1, 2);               // group 0b0000, EXTIN[0]
    wr(PMT_REG_TRCRSCTLR, 0x2u << 16 | 1u, 3); // group 0b0010, COUNTERS[0]
    wr(PMT_REG_TRCCNTCTLR, 2, 0);              // CNTEVENT resource 2
    wr(PMT_REG_TRCCNTVR, 2, 0);
    wr(PMT_REG_TRCTSCTLR, 3);
    wr(PMT_REG_TRCPRGCTLR, 1);
    // PMU event counter 0 counts INST_RETIRED from 0xFFFFFFFF: each event then overflows it,
    // a PMU_OVFS with its interrupt enabled (D14.3).
    wr(PMT_REG_PMEVTYPER_EL0, 0x08, 0);
    wr(PMT_REG_PMCNTENSET_EL0, 1);
    wr(PMT_REG_PMINTENSET_EL1, 1);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    go(0);
    loop_at(100);
    for (int i = 0; i < 2; i++) {
        wr_el(2, PMT_REG_PMEVCNTR_EL0, 0xFFFFFFFF);
        ASSERT_EQ(pmt_pmu_count(pe, 0x08, 1), PMT_OK);
    }
    EXPECT_EQ(rd_el(2, PMT_REG_TRCCNTVR), 0u);
    loop_at(200);
    loop_at(300);
    const decoded d = decode_ts();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(flow(d), "on t100 r3 r3 t200 r3 t300");
}

} // namespace
