// Freezing PMU counters: Arm ARM D13.5.2 (arm-D13.5.md). D13.5.2.1 freeze on overflow
// (RFGSDP: PMCR.FZO and the first range; RBHFSF: MDCR_EL2.HPMFZO and the second range;
// RMZPBW: other counters are not affected) and D13.5.2.2 freeze on an SPE buffer management
// event (RHSGZX). Pseudocode: CountPMUEvents, ShouldPMUFreeze, CheckPMUOverflowCondition
// (reason Freeze: no PMCR.E or PMINTEN check, the cycle counter's flag excluded),
// SPEFreezeOnEvent (J1.1, J1.3). Both need FEAT_PMUv3p7 (the default config).
#include "pe_fixture.h"

namespace
{

constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kDP = PMT_MASK(PMCR, DP);
constexpr uint64_t kFZO = PMT_MASK(PMCR, FZO);
constexpr uint64_t kFZS = PMT_MASK(PMCR, FZS);
constexpr uint64_t kHPME = PMT_MASK(MDCR_EL2, HPME);
constexpr uint64_t kHPMFZO = PMT_MASK(MDCR_EL2, HPMFZO);
constexpr uint64_t kHPMFZS = PMT_MASK(MDCR_EL2, HPMFZS);
constexpr uint64_t kNSH = PMT_MASK(PMEVTYPER, NSH);
constexpr uint64_t kTwo32 = uint64_t{1} << 32;

class Freeze : public PeTest
{
  protected:
    void spe(bool e, bool pmfz, bool s)
    {
        ASSERT_EQ(pmt_pmu_set_spe_state(pe, e, pmfz, s), PMT_OK);
    }
};

// ---------------------------------------------------------------------------------------------
// D13.5.2.1 freeze on overflow, first range: PMCR.FZO (RFGSDP).

TEST_F(Freeze, RFGSDP_BulkCountStopsTheFirstRangeAtTheOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);           // witness, counted before counter 1
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u); // overflows on the 16th event
    pmcr(kE | kFZO);                              // LP = 0
    count(PMT_EV_INST_RETIRED, 100);
    // Bits [31:0] wrap on the 16th event and bits [63:32] take the carry (IFYVTD); then the
    // whole first range is frozen and the other 84 events are not counted.
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(cnt(0), 16u);
    EXPECT_EQ(ovs(), bit(1));
}

TEST_F(Freeze, RFGSDP_HigherNumberedCounterStopsAtTheOverflowingEvent)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(1, PMT_EV_INST_RETIRED, 0);
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(0), kTwo32);
    // Whether counter 1 counts the very event that overflowed counter 0 is CONSTRAINED
    // UNPREDICTABLE (D13.5.2.1); none of the later 84 events may be counted.
    EXPECT_GE(cnt(1), 15u);
    EXPECT_LE(cnt(1), 16u);
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(Freeze, RFGSDP_TheFirstOverflowStopsACounterThatWouldOverflowLater)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFE0u); // would overflow on the 32nd event
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u); // overflows on the 16th
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(0), 0xFFFFFFF0u);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(ovs(), bit(1));
}

TEST_F(Freeze, RFGSDP_FrozenCountersIgnoreFurtherEvents)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 16);
    ASSERT_EQ(ovs(), bit(1));
    count(PMT_EV_INST_RETIRED, 1000);
    EXPECT_EQ(cnt(0), 16u);
    EXPECT_EQ(cnt(1), kTwo32);
}

TEST_F(Freeze, RFGSDP_SwIncrIsNotCountedWhileFrozen)
{
    make();
    program(0, PMT_EV_SW_INCR, 3);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(1));
    wr(PMT_REG_PMSWINC_EL0, bit(0));
    EXPECT_EQ(cnt(0), 3u);
}

TEST_F(Freeze, RFGSDP_ASetFlagFreezesEveryFirstRangeCounter)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    program(2, PMT_EV_INST_RETIRED, 20);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(5)); // counter 5 is in the first range (HPMN = N)
    count(PMT_EV_INST_RETIRED, 50);
    EXPECT_EQ(cnt(0), 10u);
    EXPECT_EQ(cnt(2), 20u);
}

TEST_F(Freeze, RFGSDP_ClearingTheFlagResumesCounting)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    ASSERT_EQ(cnt(0), 16u);
    wr(PMT_REG_PMOVSCLR_EL0, bit(1));
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 21u);
    EXPECT_EQ(cnt(1), kTwo32 + 5);
}

TEST_F(Freeze, RFGSDP_FzoZeroDoesNotFreeze)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(0), 100u);
    EXPECT_EQ(cnt(1), 0x100000054u);
    EXPECT_EQ(ovs(), bit(1));
}

TEST_F(Freeze, RFGSDP_WithoutPmuv3p7FzoIsRes0AndNothingFreezes)
{
    cfg.pmu_version = PMT_PMUV3P5;
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(0), 100u);
    EXPECT_EQ(cnt(1), 0x100000054u);
    EXPECT_EQ(PMT_GET(PMCR, FZO, rd(PMT_REG_PMCR_EL0)), 0u);
}

TEST_F(Freeze, RFGSDP_FrozenEvenWhenTheOverflowFlagsCounterIsDisabled)
{
    // ShouldPMUFreeze checks PMOVSSET only: no PMCR.E, PMCNTEN or PMINTEN condition.
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(3));
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(3));
    count(PMT_EV_INST_RETIRED, 50);
    EXPECT_EQ(cnt(0), 10u);
}

TEST_F(Freeze, RFGSDP_RMZPBW_FirstRangeOverflowDoesNotFreezeTheSecondRange)
{
    make();
    program(1, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(4, PMT_EV_INST_RETIRED, 0);
    mdcr(3, kHPME | kHPMFZO); // HPMFZO looks at the second range's flags only
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(cnt(4), 100u);
}

// ---------------------------------------------------------------------------------------------
// D13.5.2.1 freeze on overflow, second range: MDCR_EL2.HPMFZO (RBHFSF).

TEST_F(Freeze, RBHFSF_BulkCountStopsTheSecondRangeAtTheOverflow)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);           // first range
    program(3, PMT_EV_INST_RETIRED, 0);           // second range witness
    program(4, PMT_EV_INST_RETIRED, 0xFFFFFFF0u); // second range, HLP = 0
    mdcr(3, kHPME | kHPMFZO);
    pmcr(kE | kFZO); // a second range overflow does not freeze the first range
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(4), kTwo32);
    EXPECT_EQ(cnt(3), 16u);
    EXPECT_EQ(cnt(0), 100u);
    EXPECT_EQ(ovs(), bit(4));
}

TEST_F(Freeze, RBHFSF_HpmfzoZeroDoesNotFreezeTheSecondRange)
{
    make();
    program(3, PMT_EV_INST_RETIRED, 0);
    program(4, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    mdcr(3, kHPME);
    pmcr(kE | kFZO); // FZO does not control the second range
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(cnt(3), 100u);
    EXPECT_EQ(cnt(4), 0x100000054u);
}

TEST_F(Freeze, RBHFSF_ClearingTheFlagResumesCounting)
{
    make();
    program(3, PMT_EV_INST_RETIRED, 7);
    mdcr(3, kHPME | kHPMFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(5));
    wr(PMT_REG_PMOVSCLR_EL0, bit(5));
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(3), 12u);
}

TEST_F(Freeze, RBHFSF_ASetFlagFreezesTheSecondRange)
{
    make();
    program(3, PMT_EV_INST_RETIRED, 7);
    mdcr(3, kHPME | kHPMFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(5));
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(3), 7u);
}

TEST_F(Freeze, RBHFSF_AppliesWhenEl2IsDisabledInTheCurrentSecurityState)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0); // first range: counts
    program(3, PMT_EV_INST_RETIRED, 7); // second range: frozen
    mdcr(3, kHPME | kHPMFZO);
    pmcr(kE);
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, SPME)); // counting allowed in Secure state
    at(1, PMT_SS_SECURE, false);                         // Secure EL1, EL2 disabled
    count(PMT_EV_INST_RETIRED, 5);
    at(2);
    EXPECT_EQ(cnt(0), 5u);
    EXPECT_EQ(cnt(3), 7u);
}

// ---------------------------------------------------------------------------------------------
// The cycle counter: frozen with the first range only when PMCR.DP is 1; its own overflow
// never freezes anything (CheckPMUOverflowCondition, reason Freeze: exclude_cyc).

TEST_F(Freeze, RFGSDP_CycleCounterNotFrozenWhenDpIsZero)
{
    make();
    cycle_counter(0);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(Freeze, RFGSDP_CycleCounterFrozenWhenDpIsOne)
{
    make();
    cycle_counter(0);
    pmcr(kE | kFZO | kDP);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    cycles(10);
    EXPECT_EQ(ccnt(), 0u);
}

TEST_F(Freeze, RFGSDP_CycleCounterNotFrozenWhenFzoIsZeroEvenWithDp)
{
    make();
    cycle_counter(0);
    pmcr(kE | kDP);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(Freeze, RFGSDP_BulkCyclesStopTheCycleCounterAtTheOverflowWithDp)
{
    make();
    cycle_counter(0);
    program(0, PMT_EV_CPU_CYCLES, 0xFFFFFFF0u);
    pmcr(kE | kFZO | kDP);
    cycles(100);
    EXPECT_EQ(cnt(0), kTwo32);
    // The cycle of the overflow itself is CONSTRAINED UNPREDICTABLE; later ones are not counted.
    EXPECT_GE(ccnt(), 15u);
    EXPECT_LE(ccnt(), 16u);
}

TEST_F(Freeze, BulkCyclesDoNotStopAtACycleCounterOverflow)
{
    make();
    cycle_counter(0xFFFFFFF0u);
    program(0, PMT_EV_CPU_CYCLES, 0);
    pmcr(kE | kFZO | kDP); // LC = 0: PMCCNTR overflows on the 16th cycle
    cycles(100);
    EXPECT_EQ(ccnt(), 0x100000054u);
    EXPECT_EQ(cnt(0), 100u);
    EXPECT_EQ(ovs(), C);
}

TEST_F(Freeze, RBHFSF_SecondRangeOverflowDoesNotFreezeTheCycleCounter)
{
    make();
    cycle_counter(0);
    mdcr(3, kHPME | kHPMFZO);
    pmcr(kE | kFZO | kDP);
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(Freeze, CycleCounterOverflowFreezesNothing)
{
    make();
    cycle_counter(0);
    program(0, PMT_EV_CPU_CYCLES, 0);
    pmcr(kE | kFZO | kDP);
    wr(PMT_REG_PMOVSSET_EL0, C);
    cycles(10);
    EXPECT_EQ(cnt(0), 10u);
    EXPECT_EQ(ccnt(), 10u);
}

// ---------------------------------------------------------------------------------------------
// The instruction counter is in the first range for freezing.

TEST_F(Freeze, RFGSDP_FirstRangeOverflowFreezesTheInstructionCounter)
{
    use_icntr();
    make();
    instruction_counter(100);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    count(PMT_EV_INST_RETIRED, 10);
    EXPECT_EQ(icnt(), 100u);
}

TEST_F(Freeze, RFGSDP_InstructionCounterOverflowFreezesTheFirstRangeOnly)
{
    use_icntr();
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(4, PMT_EV_INST_RETIRED, 0);
    mdcr(3, kHPME | kHPMFZO);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, F0);
    count(PMT_EV_INST_RETIRED, 10);
    EXPECT_EQ(cnt(0), 0u);
    EXPECT_EQ(cnt(4), 10u);
}

TEST_F(Freeze, RFGSDP_BulkCountStopsTheFirstRangeAtAnInstructionCounterOverflow)
{
    use_icntr();
    make();
    instruction_counter(UINT64_MAX - 15); // overflows on the 16th instruction
    program(0, PMT_EV_INST_RETIRED, 0);
    pmcr(kE | kFZO);
    count(PMT_EV_INST_RETIRED, 100);
    EXPECT_EQ(icnt(), 0u);
    EXPECT_EQ(ovs(), F0);
    // Whether counter 0 counts the instruction that overflowed PMICNTR_EL0 is CONSTRAINED
    // UNPREDICTABLE; later ones are not counted.
    EXPECT_GE(cnt(0), 15u);
    EXPECT_LE(cnt(0), 16u);
}

TEST_F(Freeze, RBHFSF_SecondRangeOverflowDoesNotFreezeTheInstructionCounter)
{
    use_icntr();
    make();
    instruction_counter(100);
    mdcr(3, kHPME | kHPMFZO);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(4));
    count(PMT_EV_INST_RETIRED, 10);
    EXPECT_EQ(icnt(), 110u);
}

TEST_F(Freeze, HeadroomIgnoresFrozenCounters)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    pmcr(kE | kFZO);
    wr(PMT_REG_PMOVSSET_EL0, bit(1)); // the first range is frozen: counter 0 cannot overflow
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), UINT64_MAX);
}

// ---------------------------------------------------------------------------------------------
// D13.5.2.2 freeze on an SPE buffer management event (RHSGZX, SPEFreezeOnEvent).

class FreezeSpe : public Freeze
{
  protected:
    void SetUp() override { cfg.feat_spev1p2 = true; }
};

TEST_F(FreezeSpe, RHSGZX_FzsFreezesTheFirstRange)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    spe(true, true, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 10u);
}

TEST_F(FreezeSpe, RHSGZX_NoFreezeWithoutFzs)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE);
    spe(true, true, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
}

TEST_F(FreezeSpe, RHSGZX_NoFreezeWhenPmblimitrEIsZero)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    spe(false, true, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
}

TEST_F(FreezeSpe, RHSGZX_NoFreezeWhenPmblimitrPmfzIsZero)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    spe(true, false, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
}

TEST_F(FreezeSpe, RHSGZX_NoFreezeWhileProfilingIsNotStopped)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    spe(true, true, false);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
}

TEST_F(FreezeSpe, RHSGZX_CountingResumesWhenPmbsrSIsCleared)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    spe(true, true, true);
    spe(true, true, false);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
}

TEST_F(FreezeSpe, RHSGZX_HpmfzsFreezesTheSecondRangeAndNotTheFirst)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    program(4, PMT_EV_INST_RETIRED, 20);
    mdcr(3, kHPME | kHPMFZS);
    pmcr(kE); // FZS = 0
    spe(true, true, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
    EXPECT_EQ(cnt(4), 20u);
}

TEST_F(FreezeSpe, RHSGZX_FzsDoesNotFreezeTheSecondRange)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 10);
    program(4, PMT_EV_INST_RETIRED, 20);
    mdcr(3, kHPME); // HPMFZS = 0
    pmcr(kE | kFZS);
    spe(true, true, true);
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 10u);
    EXPECT_EQ(cnt(4), 25u);
}

TEST_F(FreezeSpe, RHSGZX_HpmfzsAppliesWhenEl2IsDisabledInTheCurrentSecurityState)
{
    make();
    program(3, PMT_EV_INST_RETIRED, 20);
    mdcr(3, kHPME | kHPMFZS);
    spe(true, true, true);
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, SPME)); // counting allowed in Secure state
    at(1, PMT_SS_SECURE, false);
    count(PMT_EV_INST_RETIRED, 5);
    at(2);
    EXPECT_EQ(cnt(3), 20u);
}

TEST_F(FreezeSpe, RHSGZX_CycleCounterNotAffectedWithoutDpfzs)
{
    make(); // feat_spe_dpfzs = false
    cycle_counter(0);
    pmcr(kE | kFZS | kDP);
    spe(true, true, true);
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(FreezeSpe, RHSGZX_CycleCounterFrozenWithDpfzsAndDp)
{
    cfg.feat_spe_dpfzs = true;
    make();
    cycle_counter(0);
    pmcr(kE | kFZS | kDP);
    spe(true, true, true);
    cycles(10);
    EXPECT_EQ(ccnt(), 0u);
}

TEST_F(FreezeSpe, RHSGZX_CycleCounterNotFrozenWithDpfzsWhenDpIsZero)
{
    cfg.feat_spe_dpfzs = true;
    make();
    cycle_counter(0);
    pmcr(kE | kFZS);
    spe(true, true, true);
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(FreezeSpe, RHSGZX_CycleCounterNotFrozenByHpmfzs)
{
    cfg.feat_spe_dpfzs = true;
    make();
    cycle_counter(0);
    mdcr(3, kHPME | kHPMFZS);
    pmcr(kE | kDP); // FZS = 0
    spe(true, true, true);
    cycles(10);
    EXPECT_EQ(ccnt(), 10u);
}

TEST_F(FreezeSpe, RHSGZX_FzsFreezesTheInstructionCounter)
{
    use_icntr();
    make();
    instruction_counter(100);
    pmcr(kE | kFZS);
    spe(true, true, true);
    count(PMT_EV_INST_RETIRED, 10);
    EXPECT_EQ(icnt(), 100u);
}

TEST_F(Freeze, RHSGZX_WithoutSpev1p2FzsIsRes0AndNothingFreezes)
{
    make(); // feat_spev1p2 = false
    program(0, PMT_EV_INST_RETIRED, 10);
    pmcr(kE | kFZS);
    (void)pmt_pmu_set_spe_state(pe, true, true, true); // may be refused: no FEAT_SPEv1p2
    count(PMT_EV_INST_RETIRED, 5);
    EXPECT_EQ(cnt(0), 15u);
    EXPECT_EQ(PMT_GET(PMCR, FZS, rd(PMT_REG_PMCR_EL0)), 0u);
}

} // namespace
