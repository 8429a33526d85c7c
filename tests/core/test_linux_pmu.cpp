// Replays of what the Linux arm_pmuv3 driver does and expects.
#include "pe_fixture.h"

namespace
{

class LinuxPmu : public PeTest
{
  protected:
    // armv8pmu_reset: disable and clear everything, then PMCR = P | C | LC (| LP with PMUv3p5).
    void driver_reset()
    {
        wr(PMT_REG_PMCNTENCLR_EL0, ~uint64_t{0});
        wr(PMT_REG_PMINTENCLR_EL1, ~uint64_t{0});
        wr(PMT_REG_PMOVSCLR_EL0, ~uint64_t{0});
        uint64_t pmcr = PMT_MASK(PMCR, P) | PMT_MASK(PMCR, C) | PMT_MASK(PMCR, LC);
        if (cfg.pmu_version >= PMT_PMUV3P5)
            pmcr |= PMT_MASK(PMCR, LP);
        wr(PMT_REG_PMCR_EL0, pmcr);
    }
    // armv8pmu_enable_event: disable the counter, set its type, enable its interrupt, enable it.
    void driver_program(unsigned n, uint64_t type, uint64_t value)
    {
        wr(PMT_REG_PMCNTENCLR_EL0, bit(n));
        wr(PMT_REG_PMEVTYPER_EL0, type, n);
        wr(PMT_REG_PMEVCNTR_EL0, value, n);
        wr(PMT_REG_PMINTENSET_EL1, bit(n));
        wr(PMT_REG_PMCNTENSET_EL0, bit(n));
    }
    void driver_start() { wr(PMT_REG_PMCR_EL0, rd(PMT_REG_PMCR_EL0) | PMT_MASK(PMCR, E)); }
    void driver_stop() { wr(PMT_REG_PMCR_EL0, rd(PMT_REG_PMCR_EL0) & ~PMT_MASK(PMCR, E)); }
};

TEST_F(LinuxPmu, ProbeReadsNumberOfCountersAndCommonEvents)
{
    cfg.num_counters = 6;
    cfg.common_events[0] = 0x3F; // SW_INCR .. L1D_CACHE_REFILL
    cfg.common_events[1] = 0x1;  // 0x4000 L1D_CACHE_LMISS_RD
    make();
    at(1);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 6u);
    uint64_t ceid0 = rd(PMT_REG_PMCEID0_EL0);
    EXPECT_EQ(ceid0 & 0x3F, 0x3Fu);
    EXPECT_TRUE(ceid0 >> PMT_EV_CPU_CYCLES & 1); // the PMU implements CPU_CYCLES itself
    EXPECT_TRUE(ceid0 >> PMT_EV_INST_RETIRED & 1);
    EXPECT_EQ(ceid0 >> 32 & 1, 1u); // 0x4000 in the upper half
    EXPECT_EQ(rd(PMT_REG_PMCEID1_EL0) >> 32, 0u);
}

TEST_F(LinuxPmu, ResetSequenceLeavesEverythingDisabledAndZero)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 1234);
    wr(PMT_REG_PMCCNTR_EL0, 99);
    at(1);
    driver_reset();
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMINTENSET_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_PMOVSSET_EL0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
    uint64_t pmcr = rd(PMT_REG_PMCR_EL0);
    EXPECT_EQ(PMT_GET(PMCR, E, pmcr), 0u);
    EXPECT_EQ(PMT_GET(PMCR, LC, pmcr), 1u);
    EXPECT_EQ(PMT_GET(PMCR, LP, pmcr), 1u);
    EXPECT_EQ(PMT_GET(PMCR, P, pmcr), 0u); // write-only bits read as zero
    EXPECT_EQ(PMT_GET(PMCR, C, pmcr), 0u);
}

// A 32-bit event on a 64-bit counter: the driver biases the counter with the top half set, so
// with LP=1 the overflow is at bit 63 after exactly 2^32 - low events.
TEST_F(LinuxPmu, BiasedThirtyTwoBitEventOverflowsAtBit63WithLp)
{
    make();
    at(1);
    driver_reset();
    driver_program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF00000000ull | (0x100000000ull - 1000));
    driver_start();
    count(PMT_EV_INST_RETIRED, 999);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), 0u);
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), 1u);
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
}

TEST_F(LinuxPmu, CycleCounterBiasedWithLcOverflowsAtBit63)
{
    make();
    at(1);
    driver_reset();
    wr(PMT_REG_PMCCFILTR_EL0, 0);
    wr(PMT_REG_PMCCNTR_EL0, 0xFFFFFFFFFFFFFF00ull);
    wr(PMT_REG_PMINTENSET_EL1, C);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    driver_start();
    ASSERT_EQ(pmt_pmu_cycles(pe, 0xFF), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), 0u);
    ASSERT_EQ(pmt_pmu_cycles(pe, 1), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), C);
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
}

// Without FEAT_PMUv3p5 a 64-bit event uses a chained pair: the even counter holds the low half,
// the odd counter counts CHAIN, and only the odd counter's interrupt is enabled.
TEST_F(LinuxPmu, ChainedPairInterruptsOnlyWhenTheSixtyFourBitPairOverflows)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    at(1);
    driver_reset();
    wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_CHAIN, 1);
    wr(PMT_REG_PMEVCNTR_EL0, 0xFFFFFFFF, 1);
    wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMEVCNTR_EL0, 0xFFFFFF00, 0);
    wr(PMT_REG_PMINTENSET_EL1, bit(1));
    wr(PMT_REG_PMCNTENSET_EL0, bit(0) | bit(1));
    driver_start();
    count(PMT_EV_INST_RETIRED, 0xFF);
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    count(PMT_EV_INST_RETIRED, 1); // low half wraps: CHAIN increments the odd counter, which wraps
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 0u);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), bit(0) | bit(1));
    EXPECT_TRUE(pmt_pmu_irq_level(pe)); // through the odd counter's enabled interrupt
}

TEST_F(LinuxPmu, ChainedPairLowOverflowAloneRaisesNoInterrupt)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    at(1);
    driver_reset();
    wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_CHAIN, 1);
    wr(PMT_REG_PMEVCNTR_EL0, 5, 1);
    wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMEVCNTR_EL0, 0xFFFFFFFF, 0);
    wr(PMT_REG_PMINTENSET_EL1, bit(1));
    wr(PMT_REG_PMCNTENSET_EL0, bit(0) | bit(1));
    driver_start();
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 6u);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), bit(0));
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

// armv8pmu_handle_irq: read and clear the overflow flags, then (perf's period handling) stop,
// reprogram the counter with the next period, start.
TEST_F(LinuxPmu, OverflowHandlerClearsReprogramsAndTheNextPeriodInterruptsAgain)
{
    make();
    at(1);
    driver_reset();
    const uint64_t period = 5000;
    driver_program(2, PMT_EV_BR_RETIRED, uint64_t{0} - period);
    driver_start();
    count(PMT_EV_BR_RETIRED, period);
    ASSERT_TRUE(pmt_pmu_irq_level(pe));

    uint64_t ovs = rd(PMT_REG_PMOVSCLR_EL0);
    wr(PMT_REG_PMOVSCLR_EL0, ovs);
    EXPECT_EQ(ovs, bit(2));
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    driver_stop();
    wr(PMT_REG_PMEVCNTR_EL0, uint64_t{0} - period, 2);
    driver_start();

    count(PMT_EV_BR_RETIRED, period - 1);
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    count(PMT_EV_BR_RETIRED, 1);
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
    EXPECT_EQ(irq_changes, (std::vector<bool>{true, false, true}));
}

TEST_F(LinuxPmu, CountsMatchAcrossManyPeriodsOfBulkCounting)
{
    make();
    at(1);
    driver_reset();
    const uint64_t period = 1000;
    driver_program(0, PMT_EV_INST_RETIRED, uint64_t{0} - period);
    driver_start();
    int interrupts = 0;
    for (int i = 0; i < 1000; i++) {
        count(PMT_EV_INST_RETIRED, 37);
        if (pmt_pmu_irq_level(pe)) {
            wr(PMT_REG_PMOVSCLR_EL0, rd(PMT_REG_PMOVSCLR_EL0));
            wr(PMT_REG_PMEVCNTR_EL0, rd(PMT_REG_PMEVCNTR_EL0, 0) - period, 0);
            interrupts++;
        }
    }
    EXPECT_EQ(interrupts, 37); // 37000 events, one interrupt per 1000
}

} // namespace
