// The counting engine: lazy counts equal eager ones, state changes take effect at once, and
// the headroom query tells how far a caller may run without calling in.
#include "pe_fixture.h"

namespace
{

class Counting : public PeTest
{
};

TEST_F(Counting, EventsNoCounterCountsAreIgnored)
{
    make();
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_BR_RETIRED, 1000), PMT_OK);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_BR_RETIRED), UINT64_MAX);
}

TEST_F(Counting, InternalEventsAreRefused)
{
    make();
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_SW_INCR, 1), PMT_ERR_ARG);
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_CHAIN, 1), PMT_ERR_ARG);
}

TEST_F(Counting, ManySmallCountsEqualOneLargeCount)
{
    make();
    program(0, PMT_EV_INST_RETIRED);
    program(1, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP));
    for (int i = 0; i < 1000; i++)
        count(PMT_EV_INST_RETIRED, 7);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 7000u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 7000u);
}

TEST_F(Counting, ADisabledCounterStopsAtOnce)
{
    make();
    program(0, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, 1);
    count(PMT_EV_INST_RETIRED, 10);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(0));
    count(PMT_EV_INST_RETIRED, 10);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 10u);
}

TEST_F(Counting, AStateChangeTakesEffectBetweenCounts)
{
    make();
    wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, U), 0); // not at EL0
    wr(PMT_REG_PMCNTENSET_EL0, bit(0));
    wr(PMT_REG_PMCR_EL0, 1);
    at(1);
    count(PMT_EV_INST_RETIRED, 5);
    at(0);
    count(PMT_EV_INST_RETIRED, 100);
    at(1);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 10u);
}

TEST_F(Counting, CyclesDriveThePmccntrAndCpuCyclesCounters)
{
    make();
    program(2, PMT_EV_CPU_CYCLES);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCCFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
    wr(PMT_REG_PMCR_EL0, 1);
    ASSERT_EQ(pmt_pmu_cycles(pe, 123), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 123u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 2), 123u);
}

TEST_F(Counting, HeadroomIsTheEventsUntilTheNearestOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0);
    wr(PMT_REG_PMCR_EL0, 1);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0x10u);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0xBu);
}

TEST_F(Counting, HeadroomFollowsTheCycleCounterDivider)
{
    make();
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCCFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
    wr(PMT_REG_PMCCNTR_EL0, 0xFFFFFFFE);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, D)); // LC=0: divide by 64
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_CPU_CYCLES), 128u);
    ASSERT_EQ(pmt_pmu_cycles(pe, 127), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0xFFFFFFFFu);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), 0u);
    ASSERT_EQ(pmt_pmu_cycles(pe, 1), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), C);
}

TEST_F(Counting, AHugeCountNeverOverflowsASixtyFourBitCounterTwice)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 2);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP));
    count(PMT_EV_INST_RETIRED, UINT64_MAX); // 2 + (2^64 - 1) wraps once
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 1u);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), bit(0));
}

} // namespace
