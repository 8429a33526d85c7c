// The arm_pmuv3 driver on the core HAL: Linux's register sequences and the architectural results
// they must produce (D13: counters, overflow, CHAIN; D24.5: PMCR_EL0, PMEVTYPER<n>_EL0).
#include "sw_fixture.h"

namespace
{

class PmuDriver : public SwTest
{
  protected:
    sw_gic gic{};
    sw_pmu pmu{};

    void bring_up()
    {
        make();
        ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
        ASSERT_EQ(sw_pmu_probe(&pmu, h), SW_OK);
        ASSERT_EQ(sw_pmu_reset(&pmu), SW_OK);
        ASSERT_EQ(sw_gic_request_ppi(&gic, SW_PMU_INTID, sw_pmu_handle_irq, &pmu), SW_OK);
    }
    static sw_pmu_attr attr(uint16_t event, uint64_t period = 0, bool long_counter = false)
    {
        sw_pmu_attr a{};
        a.event = event;
        a.sample_period = period;
        a.long_counter = long_counter;
        return a;
    }
    void add(sw_pmu_event *ev, const sw_pmu_attr &a)
    {
        ASSERT_EQ(sw_pmu_event_init(&pmu, ev, &a), SW_OK);
        ASSERT_EQ(sw_pmu_add(&pmu, ev, true), SW_OK);
    }
    // n events at EL0 with IRQs unmasked, in pieces of `piece`.
    void work(uint16_t event, uint64_t n, uint64_t piece = 0, uint8_t el = 0)
    {
        hal_irq_enable(h);
        while (n) {
            uint64_t k = piece && piece < n ? piece : n;
            hal_event_count e{event, k};
            hal_work w{};
            w.el = el;
            w.events = &e;
            w.num_events = 1;
            w.trigger_at = HAL_NO_TRIGGER;
            ASSERT_EQ(hal_run(h, &w), HAL_OK);
            n -= k;
        }
        hal_irq_disable(h);
    }
};

TEST_F(PmuDriver, ProbeReadsVersionCountersAndCommonEvents)
{
    cfg.pe.num_counters = 6;
    cfg.pe.pmu_version = PMT_PMUV3P5;
    cfg.pe.common_events[0] = 0x3F;
    cfg.pe.common_events[1] = 0x1;
    make();
    ASSERT_EQ(sw_pmu_probe(&pmu, h), SW_OK);
    EXPECT_EQ(pmu.pmuver, SW_PMUVER_V3P5);
    EXPECT_EQ(pmu.num_counters, 6u);
    EXPECT_EQ(pmu.cntr_mask, 0x8000003Full);
    EXPECT_TRUE(sw_pmu_has_long_event(&pmu));
    EXPECT_FALSE(pmu.in_hyp);
    for (uint16_t e = 0; e < 6; e++)
        EXPECT_TRUE(sw_pmu_event_supported(&pmu, e)) << e;
    EXPECT_TRUE(sw_pmu_event_supported(&pmu, PMT_EV_CPU_CYCLES));
    EXPECT_TRUE(sw_pmu_event_supported(&pmu, 0x4000));
    EXPECT_FALSE(sw_pmu_event_supported(&pmu, 0x4001));
    EXPECT_FALSE(sw_pmu_event_supported(&pmu, PMT_EV_BR_RETIRED));
    // The probe's accesses, in Linux's order.
    std::vector<std::string> want = {"R ID_AA64DFR0_EL1", "R CurrentEL",   "R PMCR_EL0",
                                     "R ID_AA64DFR1_EL1", "R PMCEID0_EL0", "R PMCEID1_EL0",
                                     "R PMMIR_EL1"};
    EXPECT_EQ(seq(), want);
}

TEST_F(PmuDriver, InstructionCounterIsFoundWithIcntr)
{
    cfg.pe.pmu_version = PMT_PMUV3P9;
    cfg.pe.feat_icntr = true;
    make();
    ASSERT_EQ(sw_pmu_probe(&pmu, h), SW_OK);
    EXPECT_EQ(pmu.cntr_mask, 0x18000003Full);
}

// armv8pmu_reset: PMCNTENCLR, PMINTENCLR, PMOVSCLR with the counter mask, then PMCR = P|C|LC|LP.
TEST_F(PmuDriver, ResetSequence)
{
    cfg.pe.pmu_version = PMT_PMUV3P5;
    make();
    ASSERT_EQ(sw_pmu_probe(&pmu, h), SW_OK);
    size_t m = mark();
    ASSERT_EQ(sw_pmu_reset(&pmu), SW_OK);
    std::vector<std::string> want = {"W PMCNTENCLR_EL0 0x8000003f",
                                     "ISB",
                                     "W PMINTENCLR_EL1 0x8000003f",
                                     "ISB",
                                     "W PMOVSCLR_EL0 0x8000003f",
                                     "ISB",
                                     "ISB",
                                     "W PMCR_EL0 0xc6"};
    EXPECT_EQ(seq(m), want);
    EXPECT_EQ(peek(HAL_PMCNTENSET_EL0), 0u);
    EXPECT_EQ(PMT_GET(PMCR, LP, peek(HAL_PMCR_EL0)), 1u);
}

TEST_F(PmuDriver, ResetWithoutPmuv3p5LeavesLpClear)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    make();
    ASSERT_EQ(sw_pmu_probe(&pmu, h), SW_OK);
    size_t m = mark();
    ASSERT_EQ(sw_pmu_reset(&pmu), SW_OK);
    EXPECT_EQ(seq(m).back(), "W PMCR_EL0 0x46");
}

// armpmu_add + armpmu_start for a counting 32-bit event with PMUv3p5: period 2^31 - 1, the
// counter biased to 0xFFFFFFFF_80000001 (overflow at bit 63 when the 32 bits would); then the
// type, the interrupt, the counter.
TEST_F(PmuDriver, CountingEventIsBiasedOnA64BitCounter)
{
    cfg.pe.pmu_version = PMT_PMUV3P5;
    bring_up();
    sw_pmu_event ev;
    size_t m = mark();
    add(&ev, attr(PMT_EV_BR_RETIRED));
    EXPECT_EQ(ev.idx, 0);
    std::vector<std::string> want = {"W PMEVCNTR0_EL0 0xffffffff80000001",
                                     "W PMEVTYPER0_EL0 0x8000021", "W PMINTENSET_EL1 0x1", "ISB",
                                     "W PMCNTENSET_EL0 0x1"};
    EXPECT_EQ(seq(m), want);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_BR_RETIRED, 0x7FFFFFFE);
    EXPECT_EQ(pmu.irqs_handled, 0u);
    work(PMT_EV_BR_RETIRED, 1); // bit 63 overflows: folded into the count, period reloaded
    EXPECT_EQ(pmu.irqs_handled, 1u);
    EXPECT_EQ(peek(hal_pmevcntr(0)), 0xFFFFFFFF80000001ull);
    work(PMT_EV_BR_RETIRED, 12345);
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 0x7FFFFFFFull + 12345);
    EXPECT_FALSE(hal_core_line(hc, SW_PMU_INTID));
}

// Without PMUv3p5 the event counters have 32 bits and get no bias; the cycle counter (64 bits,
// PMCR.LC = 1) does.
TEST_F(PmuDriver, WithoutPmuv3p5OnlyTheCycleCounterIsBiased)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    bring_up();
    sw_pmu_event ev, cyc;
    add(&ev, attr(PMT_EV_INST_RETIRED));
    add(&cyc, attr(PMT_EV_CPU_CYCLES));
    EXPECT_EQ(ev.idx, 0);
    EXPECT_EQ(cyc.idx, SW_PMU_CYCLE_IDX);
    EXPECT_EQ(peek(hal_pmevcntr(0)), 0x80000001ull);
    EXPECT_EQ(peek(HAL_PMCCNTR_EL0), 0xFFFFFFFF80000001ull);
    // PMCCFILTR_EL0 gets config_base as Linux writes it (event number in RES0 bits, NSH).
    EXPECT_EQ(PMT_GET(PMEVTYPER, NSH, peek(HAL_PMCCFILTR_EL0)), 1u);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    hal_irq_enable(h);
    hal_work w{};
    w.instructions = 0x80000000ull * 3 + 7;
    w.cycles = 0x80000000ull * 2 + 9;
    w.trigger_at = HAL_NO_TRIGGER;
    ASSERT_EQ(hal_run(h, &w), HAL_OK);
    hal_irq_disable(h);
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 0x80000000ull * 3 + 7);
    EXPECT_EQ(sw_pmu_read(&pmu, &cyc), 0x80000000ull * 2 + 9);
    EXPECT_EQ(pmu.irqs_handled, 5u);
}

// A 64-bit event without PMUv3p5: a chained pair, the even counter counting the event, the odd
// one CHAIN with NSH, the interrupt only on the odd counter; the 64-bit value is split.
TEST_F(PmuDriver, LongEventWithoutPmuv3p5IsAChainedPair)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    bring_up();
    sw_pmu_event single, ev;
    add(&single, attr(PMT_EV_BR_RETIRED)); // takes counter 0
    size_t m = mark();
    add(&ev, attr(PMT_EV_INST_RETIRED, 0, true));
    EXPECT_TRUE(sw_pmu_event_is_chained(&pmu, &ev));
    EXPECT_EQ(ev.idx, 3); // counters 2 (low) and 3 (high): 1 is odd but 0 is taken
    // The period is half the 64-bit range: the pair starts at 0x80000000_00000001.
    std::vector<std::string> want = {"W PMEVCNTR3_EL0 0x80000000", "W PMEVCNTR2_EL0 0x1",
                                     "W PMEVTYPER2_EL0 0x8000008", "W PMEVTYPER3_EL0 0x800001e",
                                     "W PMINTENSET_EL1 0x8",       "ISB",
                                     "W PMCNTENSET_EL0 0xc"};
    EXPECT_EQ(seq(m), want);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_INST_RETIRED, 0x300000005ull);
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 0x300000005ull);
    EXPECT_EQ(peek(hal_pmevcntr(3)), 0x80000003ull);
    EXPECT_EQ(peek(hal_pmevcntr(2)), 0x6ull);
    EXPECT_EQ(pmu.irqs_handled, 0u); // the low half overflowed 3 times: no interrupt
    sw_pmu_del(&pmu, &ev);
    EXPECT_EQ(pmu.used_mask, 1u);
}

// Sampling with a chained pair: a 33-bit period interrupts exactly when the 64-bit pair
// overflows.
TEST_F(PmuDriver, ChainedPairSamplesAtTheSixtyFourBitOverflow)
{
    cfg.pe.pmu_version = PMT_PMUV3P4;
    bring_up();
    sw_pmu_event ev;
    const uint64_t period = 0x100000005ull;
    add(&ev, attr(PMT_EV_INST_RETIRED, period, true));
    EXPECT_EQ(ev.idx, 1);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_INST_RETIRED, period - 1);
    EXPECT_EQ(ev.samples, 0u);
    work(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ev.samples, 1u);
    EXPECT_EQ(ev.count, period);
    work(PMT_EV_INST_RETIRED, 2 * period);
    EXPECT_EQ(ev.samples, 3u);
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 3 * period);
}

// Overflow interrupts at exact counts: period 1000, 10,500 events in pieces of 37: ten samples,
// each taken when the count is a multiple of 1000.
TEST_F(PmuDriver, SamplesAtExactCounts)
{
    bring_up();
    struct S {
        std::vector<uint64_t> counts;
    } s;
    sw_pmu_attr a = attr(PMT_EV_BR_RETIRED, 1000);
    a.overflow = [](void *arg, sw_pmu_event *ev) {
        static_cast<S *>(arg)->counts.push_back(ev->count);
    };
    a.overflow_arg = &s;
    sw_pmu_event ev;
    add(&ev, a);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_BR_RETIRED, 10500, 37);
    std::vector<uint64_t> want;
    for (uint64_t i = 1; i <= 10; i++)
        want.push_back(i * 1000);
    EXPECT_EQ(s.counts, want);
    EXPECT_EQ(pmu.irqs_handled, 10u);
    EXPECT_EQ(gic.irqs, 10u);
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 10500u);
    EXPECT_EQ(hal_core_get_stats(hc).irq_storms, 0u);
}

// The handler: PMOVSCLR read and written back, PMU stopped, counter updated and reprogrammed,
// PMU started, in armv8pmu_handle_irq's order, between ICC_IAR1 and ICC_EOIR1.
TEST_F(PmuDriver, OverflowHandlerSequence)
{
    cfg.pe.pmu_version = PMT_PMUV3P5;
    bring_up();
    sw_pmu_event ev;
    add(&ev, attr(PMT_EV_BR_RETIRED, 100));
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    size_t m = mark();
    work(PMT_EV_BR_RETIRED, 100);
    std::vector<std::string> want = {"R ICC_IAR1_EL1",
                                     "R PMOVSCLR_EL0",
                                     "W PMOVSCLR_EL0 0x1",
                                     "R PMCR_EL0",
                                     "ISB",
                                     "W PMCR_EL0 0xc0",
                                     "R PMEVCNTR0_EL0",
                                     "W PMEVCNTR0_EL0 0xffffffffffffff9c",
                                     "W PMUSERENR_EL0 0x0",
                                     "R PMCR_EL0",
                                     "ISB",
                                     "W PMCR_EL0 0xc1",
                                     "W ICC_EOIR1_EL1 0x17",
                                     "ISB"};
    EXPECT_EQ(seq(m), want);
}

// PMUIRQ is a level: held while the overflow flag is set (IRQs masked), dropped when the handler
// clears it.
TEST_F(PmuDriver, PmuirqIsHeldUntilTheHandlerClearsTheFlag)
{
    bring_up();
    sw_pmu_event ev;
    add(&ev, attr(PMT_EV_BR_RETIRED, 50));
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    hal_event_count e{PMT_EV_BR_RETIRED, 60};
    hal_work w{};
    w.events = &e;
    w.num_events = 1;
    w.trigger_at = HAL_NO_TRIGGER;
    ASSERT_EQ(hal_run(h, &w), HAL_OK); // masked
    EXPECT_TRUE(hal_core_line(hc, SW_PMU_INTID));
    EXPECT_EQ(peek(HAL_PMOVSSET_EL0), 1u);
    EXPECT_EQ(pmu.irqs_handled, 0u);
    EXPECT_TRUE(hal_wait_for_interrupt(h)); // WFI wakes; the interrupt stays pending
    hal_irq_enable(h);
    EXPECT_EQ(pmu.irqs_handled, 1u);
    EXPECT_FALSE(hal_core_line(hc, SW_PMU_INTID));
    EXPECT_EQ(peek(HAL_PMOVSSET_EL0), 0u);
    // Interrupt latency: the handler folded the 10 events past the overflow into the count.
    EXPECT_EQ(sw_pmu_read(&pmu, &ev), 60u);
}

TEST_F(PmuDriver, ExclusionFiltersCountOnlyTheIncludedEls)
{
    bring_up();
    sw_pmu_event user, kernel;
    sw_pmu_attr a = attr(PMT_EV_INST_RETIRED);
    a.exclude_kernel = true;
    add(&user, a);
    a = attr(PMT_EV_INST_RETIRED);
    a.exclude_user = true;
    add(&kernel, a);
    EXPECT_EQ(PMT_GET(PMEVTYPER, P, user.config_base), 1u);
    EXPECT_EQ(PMT_GET(PMEVTYPER, U, kernel.config_base), 1u);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_INST_RETIRED, 700, 0, 0);
    work(PMT_EV_INST_RETIRED, 300, 0, 1);
    EXPECT_EQ(sw_pmu_read(&pmu, &user), 700u);
    EXPECT_EQ(sw_pmu_read(&pmu, &kernel), 300u);
}

// A VHE host kernel at EL2: is_kernel_in_hyp_mode, so the kernel's events are counted with NSH.
TEST_F(PmuDriver, VheKernelCountsAtEl2)
{
    cfg.kernel_el = 2;
    bring_up();
    EXPECT_TRUE(pmu.in_hyp);
    sw_pmu_event all, user;
    add(&all, attr(PMT_EV_INST_RETIRED));
    sw_pmu_attr a = attr(PMT_EV_INST_RETIRED);
    a.exclude_kernel = true;
    add(&user, a);
    EXPECT_EQ(PMT_GET(PMEVTYPER, NSH, all.config_base), 1u);
    EXPECT_EQ(PMT_GET(PMEVTYPER, NSH, user.config_base), 0u);
    ASSERT_EQ(sw_pmu_start(&pmu), SW_OK);
    work(PMT_EV_INST_RETIRED, 40, 0, 0);
    work(PMT_EV_INST_RETIRED, 2, 0, 2);
    EXPECT_EQ(sw_pmu_read(&pmu, &all), 42u);
    EXPECT_EQ(sw_pmu_read(&pmu, &user), 40u);
}

TEST_F(PmuDriver, CounterAllocation)
{
    cfg.pe.num_counters = 3;
    cfg.pe.pmu_version = PMT_PMUV3P4;
    bring_up();
    sw_pmu_event a, b, c, d, chain;
    add(&a, attr(PMT_EV_CPU_CYCLES));
    EXPECT_EQ(a.idx, SW_PMU_CYCLE_IDX);
    add(&b, attr(PMT_EV_CPU_CYCLES)); // the cycle counter is taken: an event counter
    EXPECT_EQ(b.idx, 0);
    sw_pmu_attr long_attr = attr(PMT_EV_INST_RETIRED, 0, true);
    ASSERT_EQ(sw_pmu_event_init(&pmu, &chain, &long_attr), SW_OK);
    EXPECT_EQ(sw_pmu_add(&pmu, &chain, true), SW_EAGAIN); // an even/odd pair: 0 is taken, no 3
    add(&c, attr(PMT_EV_L1D_CACHE));
    add(&d, attr(PMT_EV_L1D_CACHE_REFILL));
    sw_pmu_event e;
    sw_pmu_attr br = attr(PMT_EV_BR_RETIRED);
    ASSERT_EQ(sw_pmu_event_init(&pmu, &e, &br), SW_OK);
    EXPECT_EQ(sw_pmu_add(&pmu, &e, true), SW_EAGAIN);
    sw_pmu_event bad;
    sw_pmu_attr chain_attr = attr(PMT_EV_CHAIN);
    EXPECT_EQ(sw_pmu_event_init(&pmu, &bad, &chain_attr), SW_EINVAL);
}

// A PMU the kernel may not use (MDCR_EL2.TPM traps it to EL2): the driver reports the failed
// access instead of reading garbage.
TEST_F(PmuDriver, TrappedAccessIsReported)
{
    make();
    poke(HAL_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6) | PMT_MASK(MDCR_EL2, TPM), 2);
    EXPECT_EQ(sw_pmu_probe(&pmu, h), SW_EIO);
    EXPECT_EQ(pmu.err, HAL_TRAP_EL2);
    EXPECT_EQ(pmu.err_reg, HAL_PMCR_EL0);
}

} // namespace
