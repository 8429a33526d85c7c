// cycle_clock: simulated time to cycles, without ticking (no simulation needed).
#include <gtest/gtest.h>
#include <pmtrace/systemc/cycle_clock.h>

namespace
{

using sc_core::SC_NS;
using sc_core::sc_time;

TEST(CycleClock, CycleKEndsAtKPeriods)
{
    pmtrace::cycle_clock clock(sc_time(2, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(1.999, SC_NS)), 0u);
    EXPECT_EQ(clock.advance_to(sc_time(2, SC_NS)), 1u);
    EXPECT_EQ(clock.advance_to(sc_time(3, SC_NS)), 0u);
    EXPECT_EQ(clock.advance_to(sc_time(4, SC_NS)), 1u);
    EXPECT_EQ(clock.cycles(), 2u);
}

TEST(CycleClock, ALongStepHandsOutEveryCycleOnce)
{
    pmtrace::cycle_clock clock(sc_time(1, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(0.5, SC_NS)), 0u);
    EXPECT_EQ(clock.advance_to(sc_time(1000.5, SC_NS)), 1000u);
    EXPECT_EQ(clock.advance_to(sc_time(1001, SC_NS)), 1u);
    EXPECT_EQ(clock.cycles(), 1001u);
}

TEST(CycleClock, TimeNeverRunsBackwards)
{
    pmtrace::cycle_clock clock(sc_time(1, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(500, SC_NS)), 500u);
    EXPECT_EQ(clock.advance_to(sc_time(300, SC_NS)), 0u);
    EXPECT_EQ(clock.now(), sc_time(500, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(501, SC_NS)), 1u);
}

TEST(CycleClock, EndOfCycle)
{
    pmtrace::cycle_clock clock(sc_time(2, SC_NS));
    sc_time when;
    ASSERT_TRUE(clock.end_of_cycle(1000, when));
    EXPECT_EQ(when, sc_time(2000, SC_NS));
    // Beyond what sc_time can hold (2^64 units of the 1 ps resolution).
    EXPECT_FALSE(clock.end_of_cycle(UINT64_MAX / 1000, when));
}

// A restored clock is where the saved one was: it hands out the cycles after the saved
// synchronisation point, not those before it (pe_model::restore).
TEST(CycleClock, RestoreMovesTheClockToTheSavedPoint)
{
    pmtrace::cycle_clock saved(sc_time(2, SC_NS)), restored(sc_time(2, SC_NS));
    EXPECT_EQ(saved.advance_to(sc_time(101, SC_NS)), 50u);
    ASSERT_TRUE(restored.restore(saved.saved()));
    EXPECT_EQ(restored.cycles(), 50u);
    EXPECT_EQ(restored.now(), sc_time(101, SC_NS));
    EXPECT_EQ(restored.advance_to(sc_time(101.5, SC_NS)), 0u);
    EXPECT_EQ(restored.advance_to(sc_time(102, SC_NS)), 1u);
}

// cycles = floor(synced / period) for every state a clock can be in; any other is refused and
// changes nothing.
TEST(CycleClock, RestoreRefusesCyclesThatDoNotMatchTheTime)
{
    pmtrace::cycle_clock clock(sc_time(2, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(10, SC_NS)), 5u);
    pmtrace::cycle_clock::state bad = clock.saved();
    bad.cycles = 6;
    EXPECT_FALSE(clock.valid(bad));
    EXPECT_FALSE(clock.restore(bad));
    EXPECT_EQ(clock.cycles(), 5u);
    EXPECT_EQ(clock.now(), sc_time(10, SC_NS));
    EXPECT_EQ(clock.advance_to(sc_time(12, SC_NS)), 1u);
}

} // namespace
