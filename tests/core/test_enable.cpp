// Enabling the PMU counters, D13.5.1 (RKYBQW): a counter counts only when the global enable of
// its range and its PMCNTENSET bit are both 1. Table D13-4 row by row (ISTZYQ, IHQHYY), the use
// of the range's global enable for the overflow outputs (IQKDTZ), HDCR.{HPME, HPMN} at every
// Exception level and Security state, FEAT_HPMN0, the cycle counter (IBTGDJ), the instruction
// counter (IWMNXT) and Debug state (D13.10). CountPMUEvents() (J1.3.1.93) is the authority.
#include "pe_fixture.h"

namespace
{

constexpr uint64_t kEvents = 7;
constexpr unsigned kHpmn = 3; // N = 6: counters 0..2 are the first range, 3..5 the second
constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kHpme = PMT_MASK(MDCR_EL2, HPME);
constexpr uint64_t kNsh = PMT_MASK(PMEVTYPER, NSH);
constexpr uint64_t kSpme = PMT_MASK(MDCR_EL3, SPME);
constexpr uint64_t kEnPM2 = PMT_MASK(MDCR_EL3, EnPM2);

constexpr uint64_t hpmn(unsigned n)
{
    return PMT_PUT(MDCR_EL2, HPMN, n);
}

class Enable : public PeTest
{
  protected:
    // Counts kEvents INST_RETIRED at (el, ss), then returns to Non-secure EL2.
    void count_at(unsigned el, pmt_security ss = PMT_SS_NONSECURE, bool el2_enabled = true)
    {
        at(el, ss, el2_enabled);
        count(PMT_EV_INST_RETIRED, kEvents);
        at(2);
    }

    // Counter n counts INST_RETIRED everywhere (NSH = 1) from 0, PMCNTENSET.P[n] = 0.
    void program_disabled(unsigned n)
    {
        wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_INST_RETIRED | kNsh, n);
        wr(PMT_REG_PMEVCNTR_EL0, 0, n);
        wr(PMT_REG_PMCNTENCLR_EL0, bit(n));
    }

    struct RowCounts {
        uint64_t first_on, first_off, second_on, second_off;
    };

    // One row of Table D13-4 with PMCCR.EPME = 0 (its reset value). Counters 0 and 1 are in the
    // first range, 4 and 5 in the second (5 is the highest counter, N - 1); PMCNTENSET.P[n] is
    // 1 for 0 and 5 and 0 for 1 and 4. The one action: kEvents INST_RETIRED at Non-secure EL2.
    RowCounts table_row(bool hpme, bool e)
    {
        make();
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | (hpme ? kHpme : 0));
        program(0, PMT_EV_INST_RETIRED);
        program(5, PMT_EV_INST_RETIRED);
        program_disabled(1);
        program_disabled(4);
        wr(PMT_REG_PMCR_EL0, e ? kE : 0);
        count(PMT_EV_INST_RETIRED, kEvents);
        return {rd(PMT_REG_PMEVCNTR_EL0, 0), rd(PMT_REG_PMEVCNTR_EL0, 1),
                rd(PMT_REG_PMEVCNTR_EL0, 5), rd(PMT_REG_PMEVCNTR_EL0, 4)};
    }
};

// ---- Table D13-4, event counter enables (RKYBQW) -------------------------------------------

TEST_F(Enable, RKYBQW_Row1_Epme0Hpme0E0_NothingCounts)
{
    // RKYBQW, Table D13-4 row {EPME, HPME, E} = {0, 0, 0}: every column Disabled.
    RowCounts r = table_row(false, false);
    EXPECT_EQ(r.first_on, 0u);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, 0u);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row2_Epme0Hpme0E1_OnlyTheFirstRangeCounts)
{
    // RKYBQW, Table D13-4 row {0, 0, 1}: first range Enabled, second range Disabled.
    RowCounts r = table_row(false, true);
    EXPECT_EQ(r.first_on, kEvents);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, 0u);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row3_Epme0Hpme1E0_OnlyTheSecondRangeCounts)
{
    // RKYBQW, Table D13-4 row {0, 1, 0}: first range Disabled, second range Enabled.
    RowCounts r = table_row(true, false);
    EXPECT_EQ(r.first_on, 0u);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, kEvents);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row4_Epme0Hpme1E1_BothRangesCount)
{
    // RKYBQW, Table D13-4 row {0, 1, 1}: first and second ranges Enabled; P[n] == 0 Disabled.
    RowCounts r = table_row(true, true);
    EXPECT_EQ(r.first_on, kEvents);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, kEvents);
    EXPECT_EQ(r.second_off, 0u);
}

// With FEAT_PMUv3_EXTPMN, PMCCR (EPMN, EPME) is reachable only through the external interface,
// which the API does not offer. Out of reset EPMN = NUM_PMU_COUNTERS and EPME = 0 (I5.3.47), so
// the third range is empty and the rows with EPME = 0 are the ones that can be checked: the
// first and second range columns must be unchanged, and counter N - 1 stays in the second range.

TEST_F(Enable, RKYBQW_Row1WithExtpmn_NothingCounts)
{
    // RKYBQW, Table D13-4 row {0, 0, 0} with FEAT_PMUv3_EXTPMN.
    cfg.feat_extpmn = true;
    RowCounts r = table_row(false, false);
    EXPECT_EQ(r.first_on, 0u);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, 0u);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row2WithExtpmn_OnlyTheFirstRangeCounts)
{
    // RKYBQW, Table D13-4 row {0, 0, 1} with FEAT_PMUv3_EXTPMN.
    cfg.feat_extpmn = true;
    RowCounts r = table_row(false, true);
    EXPECT_EQ(r.first_on, kEvents);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, 0u);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row3WithExtpmn_OnlyTheSecondRangeCounts)
{
    // RKYBQW, Table D13-4 row {0, 1, 0} with FEAT_PMUv3_EXTPMN: counter N - 1 is in the second
    // range (EPMN = N), so PMCCR.EPME = 0 does not disable it.
    cfg.feat_extpmn = true;
    RowCounts r = table_row(true, false);
    EXPECT_EQ(r.first_on, 0u);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, kEvents);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_Row4WithExtpmn_BothRangesCount)
{
    // RKYBQW, Table D13-4 row {0, 1, 1} with FEAT_PMUv3_EXTPMN.
    cfg.feat_extpmn = true;
    RowCounts r = table_row(true, true);
    EXPECT_EQ(r.first_on, kEvents);
    EXPECT_EQ(r.first_off, 0u);
    EXPECT_EQ(r.second_on, kEvents);
    EXPECT_EQ(r.second_off, 0u);
}

TEST_F(Enable, RKYBQW_ExtpmnOutOfResetHasNoThirdRange)
{
    // RKYBQW with I5.3.47: PMCCR.EPMN resets to NUM_PMU_COUNTERS, so every counter is in the
    // first or second range and PMCCR.EPME (reset 0) has no effect: all six count.
    cfg.feat_extpmn = true;
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | kHpme);
    for (unsigned n = 0; n < 6; n++)
        program(n, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, kE);
    count(PMT_EV_INST_RETIRED, kEvents);
    for (unsigned n = 0; n < 6; n++)
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, n), kEvents) << "counter " << n;
}

// ---- The global enable of the range also gates the overflow outputs (IQKDTZ) ----------------

TEST_F(Enable, IQKDTZ_OverflowOutputsUseTheGlobalEnableOfTheCountersRange)
{
    // IQKDTZ (D13.5.1.1): PMUIRQ and the CTI trigger from PMOVSCLR[n] need the global enable of
    // counter n's range; the other range's enable does not matter (CheckPMUOverflowCondition,
    // check_e). HPMN = 3: counter 0 first range, counter 4 second range.
    struct Row {
        const char *name;
        unsigned counter;
        bool hpme, e;
        bool level;
    };
    const Row rows[] = {
        {"first range, E=1 HPME=0", 0, false, true, true},
        {"first range, E=0 HPME=1", 0, true, false, false},
        {"second range, E=1 HPME=0", 4, false, true, false},
        {"second range, E=0 HPME=1", 4, true, false, true},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | (row.hpme ? kHpme : 0));
        wr(PMT_REG_PMCR_EL0, row.e ? kE : 0);
        wr(PMT_REG_PMINTENSET_EL1, bit(row.counter));
        wr(PMT_REG_PMOVSSET_EL0, bit(row.counter));
        EXPECT_EQ(pmt_pmu_irq_level(pe), row.level);
        EXPECT_EQ(pmt_pmu_cti_level(pe), row.level);
    }
}

// ---- HDCR.{HPME, HPMN} apply at all Exception levels and in all Security states -------------

struct StateRow {
    const char *name;
    unsigned el;
    pmt_security ss;
    bool el2_enabled;
};

const StateRow kEveryState[] = {
    {"Non-secure EL0", 0, PMT_SS_NONSECURE, true},
    {"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
    {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
    {"Secure EL0", 0, PMT_SS_SECURE, true},
    {"Secure EL1", 1, PMT_SS_SECURE, true},
    {"Secure EL1, EL2 disabled", 1, PMT_SS_SECURE, false},
    {"Secure EL2", 2, PMT_SS_SECURE, true},
    {"Realm EL0", 0, PMT_SS_REALM, true},
    {"Realm EL1", 1, PMT_SS_REALM, true},
    {"Realm EL2", 2, PMT_SS_REALM, true},
    {"EL3", 3, PMT_SS_ROOT, true},
};

TEST_F(Enable, RKYBQW_HpmeEnablesOnlyTheSecondRangeInEveryState)
{
    // RKYBQW, D13.5.1.1: "The effect of HDCR.{HPME, HPMN} on the counter enables applies at all
    // Exception levels and in all Security states". HPME = 1, PMCR.E = 0: counter 3 (second
    // range) counts and counter 0 (first range) does not, at EL2 and EL3 too. MDCR_EL3.SPME = 1
    // and the filter NSH = 1 leave counting allowed and unfiltered everywhere.
    cfg.have_sel2 = true;
    cfg.have_rme = true;
    for (const StateRow &s : kEveryState) {
        SCOPED_TRACE(s.name);
        remake();
        wr_high(PMT_REG_MDCR_EL3, kSpme);
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | kHpme);
        program(0, PMT_EV_INST_RETIRED);
        program(3, PMT_EV_INST_RETIRED);
        wr(PMT_REG_PMCR_EL0, 0);
        count_at(s.el, s.ss, s.el2_enabled);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), kEvents);
    }
}

TEST_F(Enable, RKYBQW_PmcrEEnablesOnlyTheFirstRangeInEveryState)
{
    // RKYBQW, D13.5.1.1: as above with HPME = 0, PMCR.E = 1: only counter 0 counts, at EL2 and
    // EL3 as well as below.
    cfg.have_sel2 = true;
    cfg.have_rme = true;
    for (const StateRow &s : kEveryState) {
        SCOPED_TRACE(s.name);
        remake();
        wr_high(PMT_REG_MDCR_EL3, kSpme);
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn));
        program(0, PMT_EV_INST_RETIRED);
        program(3, PMT_EV_INST_RETIRED);
        wr(PMT_REG_PMCR_EL0, kE);
        count_at(s.el, s.ss, s.el2_enabled);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), kEvents);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 0u);
    }
}

TEST_F(Enable, RKYBQW_HpmnMovesTheBoundaryBetweenTheRanges)
{
    // RKYBQW with GetPMUCounterRange: counter n is in the first range when n < HPMN. HPMN = 5,
    // HPME = 1, PMCR.E = 0: counters 0..4 do not count, counter 5 does.
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(5) | kHpme);
    for (unsigned n = 0; n < 6; n++)
        program(n, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, 0);
    count(PMT_EV_INST_RETIRED, kEvents);
    for (unsigned n = 0; n < 5; n++)
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, n), 0u) << "counter " << n;
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 5), kEvents);
}

// ---- FEAT_HPMN0 ----------------------------------------------------------------------------

TEST_F(Enable, RKYBQW_Hpmn0_PmcrEEnablesNoEventCounter)
{
    // RKYBQW with FEAT_HPMN0 and HPMN = 0: every event counter is in the second range, so
    // PMCR.E = 1 with HPME = 0 enables none of them.
    cfg.feat_hpmn0 = true;
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(0));
    program(0, PMT_EV_INST_RETIRED);
    program(5, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, kE);
    count(PMT_EV_INST_RETIRED, kEvents);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 5), 0u);
}

TEST_F(Enable, RKYBQW_Hpmn0_HpmeEnablesEveryEventCounter)
{
    // RKYBQW with FEAT_HPMN0 and HPMN = 0: HPME = 1 with PMCR.E = 0 enables counter 0 too.
    cfg.feat_hpmn0 = true;
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(0) | kHpme);
    program(0, PMT_EV_INST_RETIRED);
    program(5, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, 0);
    count(PMT_EV_INST_RETIRED, kEvents);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), kEvents);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 5), kEvents);
}

TEST_F(Enable, IBTGDJ_Hpmn0_CycleCounterStillFollowsPmcrE)
{
    // IBTGDJ: the global enable of PMCCNTR is PMCR.E whatever HPMN is (GetPMUCounterRange puts
    // the cycle counter in the first range). HPMN = 0, HPME = 0, PMCR.E = 1, PMCNTENSET.C = 1.
    cfg.feat_hpmn0 = true;
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(0));
    wr(PMT_REG_PMCCFILTR_EL0, kNsh);
    wr(PMT_REG_PMCCNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCR_EL0, kE);
    cycles(kEvents);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), kEvents);
}

// ---- The cycle counter (IBTGDJ) ------------------------------------------------------------

TEST_F(Enable, IBTGDJ_CycleCounterNeedsPmcrEAndPmcntensetC)
{
    // IBTGDJ, RKYBQW: PMCCNTR's global enable is PMCR.E and its counter enable PMCNTENSET.C;
    // MDCR_EL2.HPME is not one of its enables.
    struct Row {
        const char *name;
        bool e, c, hpme;
        uint64_t expected;
    };
    const Row rows[] = {
        {"E=0 C=0", false, false, false, 0},      {"E=1 C=0", true, false, false, 0},
        {"E=0 C=1", false, true, false, 0},       {"E=1 C=1", true, true, false, kEvents},
        {"E=0 C=1 HPME=1", false, true, true, 0}, {"E=1 C=0 HPME=1", true, false, true, 0},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | (row.hpme ? kHpme : 0));
        wr(PMT_REG_PMCCFILTR_EL0, kNsh);
        wr(PMT_REG_PMCCNTR_EL0, 0);
        wr(PMT_REG_PMCNTENCLR_EL0, C);
        if (row.c)
            wr(PMT_REG_PMCNTENSET_EL0, C);
        wr(PMT_REG_PMCR_EL0, row.e ? kE : 0);
        cycles(kEvents);
        EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), row.expected);
    }
}

// ---- The instruction counter (IWMNXT) ------------------------------------------------------

TEST_F(Enable, IWMNXT_InstructionCounterNeedsPmcrEAndPmcntensetF0)
{
    // IWMNXT: with FEAT_PMUv3_ICNTR, PMICNTR_EL0's global enable is PMCR.E and its counter
    // enable PMCNTENSET_EL0.F0; HPME does not enable it. MDCR_EL3.EnPM2 = 1 so that EL2 may use
    // PMICNTR_EL0, PMICFILTR_EL0 and the F0 bits (GetPMUWriteMask).
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    struct Row {
        const char *name;
        bool e, f0, hpme;
        uint64_t expected;
    };
    const Row rows[] = {
        {"E=0 F0=0", false, false, false, 0},      {"E=1 F0=0", true, false, false, 0},
        {"E=0 F0=1", false, true, false, 0},       {"E=1 F0=1", true, true, false, kEvents},
        {"E=0 F0=1 HPME=1", false, true, true, 0}, {"E=1 F0=0 HPME=1", true, false, true, 0},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        wr_high(PMT_REG_MDCR_EL3, kEnPM2);
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | (row.hpme ? kHpme : 0));
        wr(PMT_REG_PMICFILTR_EL0, kNsh);
        wr(PMT_REG_PMICNTR_EL0, 0);
        wr(PMT_REG_PMCNTENCLR_EL0, F0);
        if (row.f0)
            wr(PMT_REG_PMCNTENSET_EL0, F0);
        wr(PMT_REG_PMCR_EL0, row.e ? kE : 0);
        count(PMT_EV_INST_RETIRED, kEvents);
        EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), row.expected);
    }
}

// ---- Debug state (D13.10; CountPMUEvents: debug = Halted()) -------------------------------

TEST_F(Enable, DebugState_EventCountersInBothRangesStop)
{
    // D13.10 and CountPMUEvents ("Event counting is disabled in Debug state"): enabled counters
    // of the first (0) and second (3) range do not count while Halted().
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | kHpme);
    program(0, PMT_EV_INST_RETIRED);
    program(3, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, kE);
    set_debug(true);
    count(PMT_EV_INST_RETIRED, kEvents);
    set_debug(false);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 0u);
}

TEST_F(Enable, DebugState_CycleCounterStops)
{
    // D13.10: "Events that count cycles are not counted in Debug state"; RKQDQS lists Debug
    // state among the conditions that stop PMCCNTR.
    make();
    wr(PMT_REG_PMCCFILTR_EL0, kNsh);
    wr(PMT_REG_PMCCNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCR_EL0, kE);
    set_debug(true);
    cycles(kEvents);
    set_debug(false);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
}

TEST_F(Enable, DebugState_InstructionCounterStops)
{
    // D13.10 and CountPMUEvents(INSTRUCTION_COUNTER_ID): no counting while Halted().
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr_high(PMT_REG_MDCR_EL3, kEnPM2);
    wr(PMT_REG_PMICFILTR_EL0, kNsh);
    wr(PMT_REG_PMICNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, F0);
    wr(PMT_REG_PMCR_EL0, kE);
    set_debug(true);
    count(PMT_EV_INST_RETIRED, kEvents);
    set_debug(false);
    EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), 0u);
}

TEST_F(Enable, DebugState_CountingResumesOnExit)
{
    // D13.10: only the events while Halted() are lost; after leaving Debug state the counter
    // counts again. Events: kEvents in Debug state, then kEvents + 1 outside.
    make();
    program(0, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, kE);
    set_debug(true);
    count(PMT_EV_INST_RETIRED, kEvents);
    set_debug(false);
    count(PMT_EV_INST_RETIRED, kEvents + 1);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), kEvents + 1);
}

} // namespace
