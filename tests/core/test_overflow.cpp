// Behaviour on overflow: Arm ARM D13.3 up to the end of D13.3.1 (seed 000), the CTI overflow
// trigger (H5.4.4), the CHAIN event, PMCR.D, SW_INCR, bulk counts and pmt_pmu_headroom.
// Pseudocode: AArch64.IncrementEventCounter, AArch64.IncrementCycleCounter,
// IncrementInstructionCounter, CheckForPMUOverflow, CheckPMUOverflowCondition (J1.1, J1.3).
#include "pe_fixture.h"

namespace
{

constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kD = PMT_MASK(PMCR, D);
constexpr uint64_t kLC = PMT_MASK(PMCR, LC);
constexpr uint64_t kLP = PMT_MASK(PMCR, LP);
constexpr uint64_t kHPME = PMT_MASK(MDCR_EL2, HPME);
constexpr uint64_t kHLP = PMT_MASK(MDCR_EL2, HLP);
constexpr uint64_t kNSH = PMT_MASK(PMEVTYPER, NSH);
constexpr uint64_t kLow32Max = 0xFFFFFFFFu;
constexpr uint64_t kTwo32 = uint64_t{1} << 32;

// Shared set-up helpers; every test does its one action itself.
class OverflowBase : public PeTest
{
  protected:
    void clear_records()
    {
        irq_changes.clear();
        cti_changes.clear();
    }
};

class Overflow : public OverflowBase
{
};
class Chain : public OverflowBase
{
};
class Pmuirq : public OverflowBase
{
};

// ---------------------------------------------------------------------------------------------
// RQZJKS: event counter width and where it overflows.

TEST_F(Overflow, RQZJKS_WithoutPmuv3p5CountersAre32BitAndWrapToZero)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, RQZJKS_WithoutPmuv3p5TheCounterHoldsOnlyBits31To0)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 0x0000000512345678u, 0);
    EXPECT_EQ(cnt(0), 0x12345678u);
}

TEST_F(Overflow, RQZJKS_WithoutPmuv3p5LpHasNoEffectAndOverflowIsAt32Bits)
{
    cfg.pmu_version = PMT_PMUV3P4; // PMCR.LP is RES0
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, RQZJKS_IFYVTD_Lp0OverflowsAtBit31AndStillIncrementsBits63To32)
{
    make(); // PMUv3p7: 64-bit event counters
    program(0, PMT_EV_INST_RETIRED, 0x00000005FFFFFFFFu);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0x0000000600000000u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, RQZJKS_Lp0AlsoOverflowsWhenAll64BitsWrap)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, RQZJKS_Lp0NoOverflowBeforeBits31To0Wrap)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFDu);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 2);
    EXPECT_EQ(cnt(0), kLow32Max);
    EXPECT_EQ(ovs(), 0u);
}

TEST_F(Overflow, RQZJKS_Lp1DoesNotOverflowAtBit31)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), kTwo32);
    EXPECT_EQ(ovs(), 0u);
}

TEST_F(Overflow, RQZJKS_Lp1OverflowsAtBit63)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, RQZJKS_HlpSetsTheSecondRangeAndLpTheFirst)
{
    make();
    program(1, PMT_EV_INST_RETIRED, kLow32Max); // first range: LP = 0, overflows
    program(4, PMT_EV_INST_RETIRED, kLow32Max); // second range: HLP = 1, does not
    mdcr(3, kHPME | kHLP);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(cnt(4), kTwo32);
    EXPECT_EQ(ovs(), bit(1));
}

TEST_F(Overflow, RQZJKS_LpDoesNotAffectTheSecondRange)
{
    make();
    program(1, PMT_EV_INST_RETIRED, kLow32Max); // first range: LP = 1, does not overflow
    program(4, PMT_EV_INST_RETIRED, kLow32Max); // second range: HLP = 0, overflows
    mdcr(3, kHPME);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(cnt(4), kTwo32);
    EXPECT_EQ(ovs(), bit(4));
}

TEST_F(Overflow, RQZJKS_Hlp1SecondRangeOverflowsAtBit63)
{
    make();
    program(4, PMT_EV_INST_RETIRED, UINT64_MAX);
    mdcr(3, kHPME | kHLP);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(4), 0u);
    EXPECT_EQ(ovs(), bit(4));
}

// ---------------------------------------------------------------------------------------------
// RFBGFH: the instruction counter overflows at bit 63 only.

TEST_F(Overflow, RFBGFH_InstructionCounterOverflowAtBit63SetsF0)
{
    use_icntr();
    make();
    instruction_counter(UINT64_MAX);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), 0u);
    EXPECT_EQ(ovs(), F0);
}

TEST_F(Overflow, RFBGFH_InstructionCounterDoesNotOverflowAtBit31EvenWithLp0)
{
    use_icntr();
    make();
    instruction_counter(kLow32Max);
    pmcr(kE); // LP = 0 does not apply to PMICNTR_EL0
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), kTwo32);
    EXPECT_EQ(ovs(), 0u);
}

// ---------------------------------------------------------------------------------------------
// RNTZHW: the cycle counter and PMCR.LC.

TEST_F(Overflow, RNTZHW_Lc0CycleCounterOverflowsAtBit31AndKeepsCounting64Bits)
{
    make(); // have_aarch32: LC is writable
    cycle_counter(kLow32Max);
    pmcr(kE);
    cycles(1);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32);
    EXPECT_EQ(ovs(), C);
}

TEST_F(Overflow, RNTZHW_Lc1CycleCounterDoesNotOverflowAtBit31)
{
    make();
    cycle_counter(kLow32Max);
    pmcr(kE | kLC);
    cycles(1);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32);
    EXPECT_EQ(ovs(), 0u);
}

TEST_F(Overflow, RNTZHW_Lc1CycleCounterOverflowsAtBit63)
{
    make();
    cycle_counter(UINT64_MAX);
    pmcr(kE | kLC);
    cycles(1);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
    EXPECT_EQ(ovs(), C);
}

TEST_F(Overflow, RNTZHW_WithoutAArch32LcIsRes1SoNoOverflowAtBit31)
{
    cfg.have_aarch32 = false;
    make();
    cycle_counter(kLow32Max);
    pmcr(kE); // writes LC = 0, which is RES1
    cycles(1);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32);
    EXPECT_EQ(ovs(), 0u);
    EXPECT_EQ(PMT_GET(PMCR, LC, rd(PMT_REG_PMCR_EL0)), 1u);
}

TEST_F(Overflow, RNTZHW_WithoutAArch32CycleCounterOverflowsAtBit63)
{
    cfg.have_aarch32 = false;
    make();
    cycle_counter(UINT64_MAX);
    pmcr(kE);
    cycles(1);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
    EXPECT_EQ(ovs(), C);
}

TEST_F(Overflow, RNTZHW_LcDoesNotAffectEventCounters)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE | kLC); // LP = 0
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(0));
}

// ---------------------------------------------------------------------------------------------
// PMCR.D: divide-by-64 (AArch64.IncrementCycleCounter: ignored when the Effective LC is 1).

TEST_F(Overflow, PmcrDCountsOnceEvery64Cycles)
{
    make();
    cycle_counter(0);
    pmcr(kE | kD);    // LC = 0
    cycles(64 * 100); // any window of 6400 cycles holds exactly 100 divider ticks
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 100u);
}

TEST_F(Overflow, PmcrDDoesNotDivideAnEventCounterCountingCpuCycles)
{
    make();
    cycle_counter(0);
    program(0, PMT_EV_CPU_CYCLES);
    pmcr(kE | kD);
    cycles(64 * 100);
    EXPECT_EQ(cnt(0), 6400u);
}

TEST_F(Overflow, PmcrDIsIgnoredWhenLcIsOne)
{
    make();
    cycle_counter(0);
    pmcr(kE | kD | kLC);
    cycles(6400);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 6400u);
}

TEST_F(Overflow, PmcrDIsRes0WithoutAArch32)
{
    cfg.have_aarch32 = false;
    make();
    cycle_counter(0);
    pmcr(kE | kD);
    cycles(6400);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 6400u);
    EXPECT_EQ(PMT_GET(PMCR, D, rd(PMT_REG_PMCR_EL0)), 0u);
}

TEST_F(Overflow, PmcrDDividedCycleCounterOverflowsAtBit31WithLc0)
{
    make();
    cycle_counter(kLow32Max);
    pmcr(kE | kD);
    cycles(64); // exactly one divider tick
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32);
    EXPECT_EQ(ovs(), C);
}

// ---------------------------------------------------------------------------------------------
// RHTPDY: PMOVSCLR is updated with the counter.

TEST_F(Overflow, RHTPDY_FlagAndInterruptAreVisibleWhenTheCountReturns)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(rd(PMT_REG_PMOVSSET_EL0), bit(0));
    EXPECT_EQ(cnt(0), kTwo32);
}

TEST_F(Overflow, RHTPDY_FlagsOfCountersThatDidNotOverflowStayClear)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    program(2, PMT_EV_INST_RETIRED, 0xFFFFFFFEu);
    program(3, PMT_EV_CPU_CYCLES, kLow32Max);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(0));
}

// ---------------------------------------------------------------------------------------------
// SW_INCR (event 0x00) through PMSWINC_EL0, and events the PMU makes itself.

TEST_F(Overflow, SwIncrWriteIncrementsOnlyCountersCountingSwIncr)
{
    make();
    program(0, PMT_EV_SW_INCR, 5);
    program(1, PMT_EV_INST_RETIRED, 7);
    pmcr(kE);
    wr(PMT_REG_PMSWINC_EL0, bit(0) | bit(1));
    EXPECT_EQ(cnt(0), 6u);
    EXPECT_EQ(cnt(1), 7u);
}

TEST_F(Overflow, SwIncrOnlyIncrementsTheCountersWhoseBitIsWritten)
{
    make();
    program(0, PMT_EV_SW_INCR, 5);
    program(2, PMT_EV_SW_INCR, 9);
    pmcr(kE);
    wr(PMT_REG_PMSWINC_EL0, bit(2));
    EXPECT_EQ(cnt(0), 5u);
    EXPECT_EQ(cnt(2), 10u);
}

TEST_F(Overflow, SwIncrOverflowSetsTheFlag)
{
    make();
    program(0, PMT_EV_SW_INCR, kLow32Max);
    pmcr(kE);
    wr(PMT_REG_PMSWINC_EL0, bit(0));
    EXPECT_EQ(cnt(0), kTwo32);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, SwIncrDoesNotCountWhenTheCounterIsDisabled)
{
    make();
    program(0, PMT_EV_SW_INCR, 5);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(0));
    pmcr(kE);
    wr(PMT_REG_PMSWINC_EL0, bit(0));
    EXPECT_EQ(cnt(0), 5u);
}

TEST_F(Overflow, SwIncrBitsOfSecondRangeCountersAreIgnoredAtEl1)
{
    // PMSWINC_EL0.P<m> is RAZ/WI for m >= GetNumEventCountersAccessible() (HPMN at EL1).
    make();
    program(0, PMT_EV_SW_INCR, 5);
    program(4, PMT_EV_SW_INCR, 9);
    mdcr(3, kHPME);
    pmcr(kE);
    at(1);
    wr(PMT_REG_PMSWINC_EL0, bit(0) | bit(4));
    at(2);
    EXPECT_EQ(cnt(0), 6u);
    EXPECT_EQ(cnt(4), 9u);
}

TEST_F(Overflow, SwIncrOfASecondRangeCounterAtEl2)
{
    make();
    program(4, PMT_EV_SW_INCR, 9);
    mdcr(3, kHPME);
    wr(PMT_REG_PMSWINC_EL0, bit(4));
    EXPECT_EQ(cnt(4), 10u);
}

TEST_F(Overflow, CountRefusesSwIncr)
{
    make();
    program(0, PMT_EV_SW_INCR, 5);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_SW_INCR, 1), PMT_ERR_ARG);
    EXPECT_EQ(cnt(0), 5u);
}

TEST_F(Overflow, CountRefusesChain)
{
    make();
    program(1, PMT_EV_CHAIN, 5);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_CHAIN, 1), PMT_ERR_ARG);
    EXPECT_EQ(cnt(1), 5u);
}

// ---------------------------------------------------------------------------------------------
// Bulk counts: one call of n is n events one after the other.

TEST_F(Overflow, BulkCountMatchesSingleStepsAcrossSeveralOverflows32Bit)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    program(1, PMT_EV_CHAIN, 0xFFFFFFFEu);
    program(2, PMT_EV_INST_RETIRED, 0x10u);
    program(3, PMT_EV_CHAIN, 0);
    pmcr(kE);
    // 0xFFFFFF00 + n = 0x3_0000_0100: three wraps of counter 0; 0x10 + n: two of counter 2.
    count(PMT_EV_INST_RETIRED, 0x200000200u);
    EXPECT_EQ(cnt(0), 0x100u);
    EXPECT_EQ(cnt(1), 1u); // 0xFFFFFFFE + 3 CHAIN, wrapped
    EXPECT_EQ(cnt(2), 0x210u);
    EXPECT_EQ(cnt(3), 2u);
    EXPECT_EQ(ovs(), bit(0) | bit(1) | bit(2));
}

TEST_F(Overflow, BulkCountMatchesSingleStepsAcrossSeveralOverflows64BitLp0)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    program(1, PMT_EV_CHAIN, 0xFFFFFFFEu);
    program(2, PMT_EV_INST_RETIRED, 0x10u);
    program(3, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 0x200000200u);
    EXPECT_EQ(cnt(0), 0x300000100u);
    EXPECT_EQ(cnt(1), 0x100000001u);
    EXPECT_EQ(cnt(2), 0x200000210u);
    EXPECT_EQ(cnt(3), 2u);
    EXPECT_EQ(ovs(), bit(0) | bit(1) | bit(2));
}

TEST_F(Overflow, BulkCountAcrossA64BitWrapWithLp1)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX - 5);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, uint64_t{1} << 33);
    EXPECT_EQ(cnt(0), (uint64_t{1} << 33) - 6);
    EXPECT_EQ(cnt(1), 0u); // no CHAIN with LP = 1
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, BulkCountAcrossA64BitWrapWithLp0ChainsEvery32BitWrap)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX - 5);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE); // LP = 0
    // Bits [31:0] wrap on the 6th event (with bits [63:0]) and again at 2^32 + 6.
    count(PMT_EV_INST_RETIRED, uint64_t{1} << 33);
    EXPECT_EQ(cnt(0), (uint64_t{1} << 33) - 6);
    EXPECT_EQ(cnt(1), 2u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, CountingZeroEventsChangesNothing)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 0);
    EXPECT_EQ(cnt(0), kLow32Max);
    EXPECT_EQ(ovs(), 0u);
}

TEST_F(Overflow, BulkCyclesAcrossSeveral32BitOverflowsOfPmccntr)
{
    make();
    cycle_counter(0xFFFFFFF0u);
    pmcr(kE); // LC = 0
    cycles(uint64_t{1} << 33);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0x2FFFFFFF0u);
    EXPECT_EQ(ovs(), C);
}

TEST_F(Overflow, SingleStepsAcrossAnOverflowGiveTheArchitecturalResult)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    for (int i = 0; i < 0x20; ++i)
        count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0x10u);
    EXPECT_EQ(cnt(1), 1u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, OneBulkCountAcrossAnOverflowGivesTheSameResultAsSingleSteps)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 0x20);
    EXPECT_EQ(cnt(0), 0x10u);
    EXPECT_EQ(cnt(1), 1u);
    EXPECT_EQ(ovs(), bit(0));
}

// ---------------------------------------------------------------------------------------------
// pmt_pmu_headroom: the number of events whose last one overflows a counter.

TEST_F(Overflow, HeadroomIsTheNumberOfEventsUpToAndIncludingTheOverflowingOne)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    pmcr(kE); // LP = 0
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0x100u);
}

TEST_F(Overflow, HeadroomMinusOneEventsLeaveTheFlagClear)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    uint64_t h = pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED);
    ASSERT_EQ(h, 0x100u);
    clear_records();
    count(PMT_EV_INST_RETIRED, h - 1);
    EXPECT_EQ(ovs(), 0u);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_EQ(cnt(0), kLow32Max);
}

TEST_F(Overflow, HeadroomEventsSetTheFlagOnTheLastOne)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    pmcr(kE);
    uint64_t h = pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED);
    count(PMT_EV_INST_RETIRED, h - 1);
    ASSERT_EQ(ovs(), 0u);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Overflow, HeadroomIsTheNearestOverflowOfAllCountersCountingTheEvent)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFF00u);
    program(2, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(3, PMT_EV_CPU_CYCLES, kLow32Max); // another event
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0x10u);
}

TEST_F(Overflow, HeadroomWithLp1IsUpToBit63)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX - 9);
    pmcr(kE | kLP);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 10u);
}

TEST_F(Overflow, HeadroomOfA32BitCounter)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFAu);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 6u);
}

TEST_F(Overflow, HeadroomOfTheCycleCounterWithLc0)
{
    make();
    cycle_counter(0xFFFFFFF0u);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_CPU_CYCLES), 0x10u);
}

TEST_F(Overflow, HeadroomOfTheInstructionCounter)
{
    use_icntr();
    make();
    instruction_counter(UINT64_MAX - 4);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 5u);
}

TEST_F(Overflow, HeadroomIsMaxWhenNoEnabledCounterCountsTheEvent)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(0));
    program(1, PMT_EV_CPU_CYCLES, kLow32Max);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), UINT64_MAX);
}

TEST_F(Overflow, HeadroomOfA64BitCounterWithLp0CountsToTheNextBit31Wrap)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0x00000005FFFFFFF0u);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0x10u);
}

TEST_F(Overflow, HeadroomOfASecondRangeCounterFollowsHlpNotLp)
{
    make();
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);  // first range, LP = 1: far
    program(4, PMT_EV_INST_RETIRED, 0x1FFFFFFF8u); // second range, HLP = 0: 8 events
    mdcr(3, kHPME);
    pmcr(kE | kLP);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 8u);
}

TEST_F(Overflow, HeadroomOfAFirstRangeCounterFollowsLpNotHlp)
{
    make();
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFF00u); // first range, LP = 0: 0x100 events
    program(4, PMT_EV_INST_RETIRED, 0xFFFFFFF8u); // second range, HLP = 1: far
    mdcr(3, kHPME | kHLP);
    pmcr(kE);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 0x100u);
}

TEST_F(Overflow, HeadroomMinusOneCyclesWithTheDividerLeaveTheFlagClear)
{
    make();
    cycle_counter(kLow32Max);
    pmcr(kE | kD); // LC = 0: the next divider tick overflows
    uint64_t h = pmt_pmu_headroom(pe, PMT_EV_CPU_CYCLES);
    ASSERT_GE(h, 1u);
    ASSERT_LE(h, 64u);
    cycles(h - 1);
    EXPECT_EQ(ovs(), 0u);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kLow32Max);
}

TEST_F(Overflow, HeadroomCyclesWithTheDividerOverflowOnTheLast)
{
    make();
    cycle_counter(kLow32Max);
    pmcr(kE | kD);
    uint64_t h = pmt_pmu_headroom(pe, PMT_EV_CPU_CYCLES);
    cycles(h - 1);
    ASSERT_EQ(ovs(), 0u);
    cycles(1);
    EXPECT_EQ(ovs(), C);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32);
}

TEST_F(Overflow, BulkCyclesWithTheDividerAcrossA32BitOverflow)
{
    make();
    cycle_counter(0);
    pmcr(kE | kD); // LC = 0
    cycles(64 * (kTwo32 + 5));
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kTwo32 + 5);
    EXPECT_EQ(ovs(), C);
}

// ---------------------------------------------------------------------------------------------
// CHAIN (0x1E): an odd counter counts the 32-bit overflows of its even neighbour
// (AArch64.IncrementEventCounter: idx<0> == '0', lp == '0', same range or
// Unpredictable_COUNT_CHAIN).

TEST_F(Chain, OddCounterCountsOverflowOfEvenNeighbour)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), 1u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Chain, OddCounterCountsOverflowOfEvenNeighbourWith32BitCounters)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(cnt(1), 1u);
}

TEST_F(Chain, NothingIsChainedWithoutAnOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 0xF);
    EXPECT_EQ(cnt(1), 0u);
}

TEST_F(Chain, NotCountedWhenLpIsOne)
{
    make();
    program(0, PMT_EV_INST_RETIRED, UINT64_MAX);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(0));
    EXPECT_EQ(cnt(1), 0u);
}

TEST_F(Chain, OverflowOfAnOddCounterDoesNotChainIntoTheNextEvenOne)
{
    make();
    program(1, PMT_EV_INST_RETIRED, kLow32Max);
    program(2, PMT_EV_CHAIN, 0);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(1));
    EXPECT_EQ(cnt(2), 0u);
}

TEST_F(Chain, TheChainCounterOverflowsAndSetsItsOwnFlag)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    program(1, PMT_EV_CHAIN, kLow32Max);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(ovs(), bit(0) | bit(1));
}

TEST_F(Chain, WritingTheEvenCountersFlagIsNotAnOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_EQ(cnt(1), 0u);
}

TEST_F(Chain, DisabledOddCounterDoesNotCount)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    program(1, PMT_EV_CHAIN, 0);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(1));
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), 0u);
}

TEST_F(Chain, SwIncrOverflowIsChained)
{
    make();
    program(0, PMT_EV_SW_INCR, kLow32Max);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    wr(PMT_REG_PMSWINC_EL0, bit(0));
    EXPECT_EQ(cnt(1), 1u);
}

TEST_F(Chain, SecondRangePairFollowsHlpNotLp)
{
    make();
    program(4, PMT_EV_INST_RETIRED, kLow32Max);
    program(5, PMT_EV_CHAIN, 0);
    mdcr(3, kHPME); // HLP = 0
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(5), 1u);
}

TEST_F(Chain, SecondRangePairNotChainedWhenHlpIsOne)
{
    make();
    program(4, PMT_EV_INST_RETIRED, UINT64_MAX);
    program(5, PMT_EV_CHAIN, 0);
    mdcr(3, kHPME | kHLP);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(4));
    EXPECT_EQ(cnt(5), 0u);
}

TEST_F(Chain, NotAcrossARangeBoundaryByDefault)
{
    make();                                     // chain_across_ranges = false
    program(2, PMT_EV_INST_RETIRED, kLow32Max); // first range
    program(3, PMT_EV_CHAIN, 0);                // second range
    mdcr(3, kHPME);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(2));
    EXPECT_EQ(cnt(3), 0u);
}

TEST_F(Chain, AcrossARangeBoundaryWhenConfigured)
{
    cfg.chain_across_ranges = true;
    make();
    program(2, PMT_EV_INST_RETIRED, kLow32Max);
    program(3, PMT_EV_CHAIN, 0);
    mdcr(3, kHPME);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(3), 1u);
}

TEST_F(Chain, AcrossARangeBoundaryTheEvenCountersLpDecides)
{
    cfg.chain_across_ranges = true;
    make();
    program(2, PMT_EV_INST_RETIRED, UINT64_MAX); // first range, LP = 1
    program(3, PMT_EV_CHAIN, 0);                 // second range, HLP = 0
    mdcr(3, kHPME);
    pmcr(kE | kLP);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(2));
    EXPECT_EQ(cnt(3), 0u);
}

TEST_F(Chain, BulkCountChainsEveryOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 1);
    program(1, PMT_EV_CHAIN, 0);
    pmcr(kE);
    // 1 + 5 * 2^32 - 1 = 5 * 2^32: bits [31:0] wrap five times, the last on the last event.
    count(PMT_EV_INST_RETIRED, 5 * kTwo32 - 1);
    EXPECT_EQ(cnt(0), 5 * kTwo32);
    EXPECT_EQ(cnt(1), 5u);
    EXPECT_EQ(ovs(), bit(0));
}

// ---------------------------------------------------------------------------------------------
// D13.3.1 PMUIRQ, and the CTI overflow trigger (H5.4.4), which follows the same condition
// (CheckForPMUOverflow: without FEAT_EBEP both levels are CheckPMUOverflowCondition(IRQ)).

TEST_F(Pmuirq, EventCounterOverflowRaisesIrqAndCti)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
    EXPECT_TRUE(pmt_pmu_cti_level(pe));
}

TEST_F(Pmuirq, NoRequestWithoutTheInterruptEnable)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_EQ(ovs(), bit(0));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    EXPECT_FALSE(pmt_pmu_cti_level(pe));
}

TEST_F(Pmuirq, NoRequestWithoutAnOverflowFlag)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 0xF);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    EXPECT_FALSE(pmt_pmu_cti_level(pe));
}

TEST_F(Pmuirq, LevelSensitiveSettingTheInterruptEnableLaterRaisesIt)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    clear_records();
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, DirectWriteOfPmovssetRaisesIt)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(2));
    pmcr(kE);
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, bit(2));
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, NoRequestForAFirstRangeCounterWhilePmcrEIsZero)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    mdcr(3, kHPME); // the second range's enable does not apply to counter 0
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, SettingPmcrERaisesAPendingRequest)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    clear_records();
    pmcr(kE);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, ClearingTheFlagThroughPmovsclrDropsIt)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    clear_records();
    wr(PMT_REG_PMOVSCLR_EL0, bit(0));
    EXPECT_EQ(irq_changes, std::vector<bool>{false});
    EXPECT_EQ(cti_changes, std::vector<bool>{false});
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    EXPECT_FALSE(pmt_pmu_cti_level(pe));
}

TEST_F(Pmuirq, PmintenclrDropsIt)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    clear_records();
    wr(PMT_REG_PMINTENCLR_EL1, bit(0));
    EXPECT_EQ(irq_changes, std::vector<bool>{false});
    EXPECT_EQ(cti_changes, std::vector<bool>{false});
    EXPECT_EQ(ovs(), bit(0)); // the flag itself stays set
}

TEST_F(Pmuirq, ClearingPmcrEDropsIt)
{
    make();
    program(0, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 1);
    clear_records();
    pmcr(0);
    EXPECT_EQ(irq_changes, std::vector<bool>{false});
    EXPECT_EQ(cti_changes, std::vector<bool>{false});
}

TEST_F(Pmuirq, ClearingOneOfTwoFlagsKeepsItHighWithoutACallback)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(1));
    pmcr(kE);
    wr(PMT_REG_PMOVSSET_EL0, bit(0) | bit(1));
    ASSERT_TRUE(pmt_pmu_irq_level(pe));
    clear_records();
    wr(PMT_REG_PMOVSCLR_EL0, bit(0));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, CallbacksFireOnlyOnChange)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFEu);
    program(2, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(2));
    pmcr(kE);
    clear_records();
    // Counter 2 overflows on the first event, counter 0 on the second: one rise.
    count(PMT_EV_INST_RETIRED, 2);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
    EXPECT_EQ(ovs(), bit(0) | bit(2));
}

TEST_F(Pmuirq, RewritingASetFlagDoesNotCallBack)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
}

TEST_F(Pmuirq, BulkCountAcrossSeveralOverflowsRisesOnce)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 3 * kTwo32);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, SecondRangeCounterNeedsHpme)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    mdcr(3, 0); // HPME = 0
    pmcr(kE);   // PMCR.E is not the enable of counter 4
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, SecondRangeCounterRequestsWithHpmeEvenWhenPmcrEIsZero)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    mdcr(3, kHPME);
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, SecondRangeCounterOverflowRaisesIt)
{
    make();
    program(4, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    mdcr(3, kHPME);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, ClearingHpmeDropsASecondRangeRequest)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    mdcr(3, kHPME);
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    clear_records();
    mdcr(3, 0);
    EXPECT_EQ(irq_changes, std::vector<bool>{false});
    EXPECT_EQ(cti_changes, std::vector<bool>{false});
}

TEST_F(Pmuirq, MovingACounterIntoTheSecondRangeWithHpmeZeroDropsIt)
{
    make(); // HPMN = N = 6: counter 4 is in the first range
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    pmcr(kE);
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    ASSERT_TRUE(pmt_pmu_irq_level(pe));
    clear_records();
    mdcr(3, 0); // counter 4 is now in the second range, whose enable HPME is 0
    EXPECT_EQ(irq_changes, std::vector<bool>{false});
    EXPECT_EQ(cti_changes, std::vector<bool>{false});
}

TEST_F(Pmuirq, CycleCounterOverflowRaisesIt)
{
    make();
    cycle_counter(kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, C);
    pmcr(kE); // LC = 0
    clear_records();
    cycles(1);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, CycleCounterNeedsItsInterruptEnable)
{
    make();
    cycle_counter(kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    clear_records();
    cycles(1);
    ASSERT_EQ(ovs(), C);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
}

TEST_F(Pmuirq, CycleCounterNeedsPmcrENotHpme)
{
    make();
    wr(PMT_REG_PMINTENSET_EL1, C);
    mdcr(3, kHPME);
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, C);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, InstructionCounterOverflowRaisesIt)
{
    use_icntr();
    make();
    instruction_counter(UINT64_MAX);
    wr(PMT_REG_PMINTENSET_EL1, F0);
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

TEST_F(Pmuirq, InstructionCounterNeedsItsInterruptEnable)
{
    use_icntr();
    make();
    instruction_counter(UINT64_MAX);
    wr(PMT_REG_PMINTENSET_EL1, C | bit(0));
    pmcr(kE);
    clear_records();
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_EQ(ovs(), F0);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
}

TEST_F(Pmuirq, InstructionCounterNeedsPmcrENotHpme)
{
    use_icntr();
    make();
    wr(PMT_REG_PMINTENSET_EL1, F0);
    mdcr(3, kHPME);
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, F0);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, RequestStaysActiveInEverySecurityStateAndExceptionLevel)
{
    make();
    program(4, PMT_EV_INST_RETIRED, kLow32Max);
    wr(PMT_REG_PMINTENSET_EL1, bit(4));
    mdcr(3, kHPME);
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_TRUE(pmt_pmu_irq_level(pe));
    clear_records();
    at(1, PMT_SS_SECURE, false);
    at(3, PMT_SS_ROOT);
    at(0);
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_TRUE(cti_changes.empty());
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
}

TEST_F(Pmuirq, UnimplementedCounterBitsCannotRaiseIt)
{
    make(); // N = 6, no FEAT_PMUv3_ICNTR
    wr(PMT_REG_PMINTENSET_EL1, UINT64_MAX);
    pmcr(kE);
    mdcr(3, kHPME);
    clear_records();
    wr(PMT_REG_PMOVSSET_EL0, F0 | 0x7FFFFFC0u); // counters 6..30 and F0 do not exist
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
}

} // namespace

namespace
{

// PMU_OVFS and PMU_HOVFS (D14.3, 0x400D and 0x400F): every overflow of a counter whose interrupt
// is enabled, by range; the PMU cannot count them, so they leave through the pmu_event output.
class OverflowEvents : public PeTest
{
};

TEST_F(OverflowEvents, FirstRangeOverflowWithItsInterruptEnabledIsPmuOvfs)
{
    cfg.num_counters = 4;
    make();
    mdcr(2, PMT_MASK(MDCR_EL2, HPME));
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(1));
    pmcr(1);
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_EQ(exported.size(), 1u);
    EXPECT_EQ(exported[0].first, PMT_EV_PMU_OVFS);
    EXPECT_EQ(exported[0].second, 2u);
}

TEST_F(OverflowEvents, SecondRangeOverflowIsPmuHovfs)
{
    cfg.num_counters = 4;
    make();
    mdcr(2, PMT_MASK(MDCR_EL2, HPME));
    program(3, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    wr(PMT_REG_PMINTENSET_EL1, bit(3));
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_EQ(exported.size(), 1u);
    EXPECT_EQ(exported[0].first, PMT_EV_PMU_HOVFS);
    EXPECT_EQ(exported[0].second, 1u);
}

TEST_F(OverflowEvents, NoEventWithoutTheInterruptEnable)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    pmcr(1);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs(), bit(0));
    EXPECT_TRUE(exported.empty());
}

TEST_F(OverflowEvents, CycleCounterOverflowIsPmuOvfs)
{
    make();
    cycle_counter(0xFFFFFFFF);
    wr(PMT_REG_PMINTENSET_EL1, C);
    pmcr(1); // LC = 0: overflow at bit 31
    cycles(1);
    ASSERT_EQ(exported.size(), 1u);
    EXPECT_EQ(exported[0].first, PMT_EV_PMU_OVFS);
}

} // namespace
