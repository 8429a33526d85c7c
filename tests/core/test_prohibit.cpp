// Prohibiting counting, D13.5.4 (arm-D13.5.md): Security state and EL3 (RWVDWZ, RJRYNM, RJDWFF,
// RGNGCW), EL2 (RMMZLZ), register accessibility (RTDGMF), the instruction counter (RCSRMB), the
// cycle counter (RGKPZH, RKQDQS) and the IMPLEMENTATION DEFINED policy for Unattributable
// events. CountPMUEvents() (J1.3.1.93) is the authority where the prose differs.
#include "pe_fixture.h"

namespace
{

constexpr uint64_t kEvents = 7;
constexpr unsigned kHpmn = 3; // N = 6: counters 0..2 are the first range, 3..5 the second
constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kDP = PMT_MASK(PMCR, DP);
constexpr uint64_t kFZO = PMT_MASK(PMCR, FZO);
constexpr uint64_t kHpme = PMT_MASK(MDCR_EL2, HPME);
constexpr uint64_t kHpmd = PMT_MASK(MDCR_EL2, HPMD);
constexpr uint64_t kHccd = PMT_MASK(MDCR_EL2, HCCD);
constexpr uint64_t kSpme = PMT_MASK(MDCR_EL3, SPME);
constexpr uint64_t kMpmx = PMT_MASK(MDCR_EL3, MPMX);
constexpr uint64_t kSccd = PMT_MASK(MDCR_EL3, SCCD);
constexpr uint64_t kMccd = PMT_MASK(MDCR_EL3, MCCD);
constexpr uint64_t kEnPM2 = PMT_MASK(MDCR_EL3, EnPM2);
constexpr uint64_t kNsh = PMT_MASK(PMEVTYPER, NSH);

constexpr pmt_security NS = PMT_SS_NONSECURE;
constexpr pmt_security S = PMT_SS_SECURE;

constexpr uint64_t hpmn(unsigned n)
{
    return PMT_PUT(MDCR_EL2, HPMN, n);
}

// One state and the MDCR_EL3 / MDCR_EL2 controls for it; r1 and r2 are the expected counts of
// an event counter in the first range (0) and in the second range (3).
struct RangeRow {
    const char *name;
    unsigned el;
    pmt_security ss;
    bool el2_enabled;
    uint64_t mdcr_el3;
    uint64_t mdcr_el2; // added to HPMN = 3, HPME = 1
    uint64_t r1, r2;
};

// One state and its controls for a counter that is not an event counter.
struct OneRow {
    const char *name;
    unsigned el;
    pmt_security ss;
    bool el2_enabled;
    uint64_t mdcr_el3;
    uint64_t mdcr_el2; // added to HPMN = 3
    uint64_t pmcr;     // added to PMCR.E = 1
    uint64_t ovsset;   // written to PMOVSSET_EL0 before counting
    uint64_t expected;
};

class Prohibit : public PeTest
{
  protected:
    pmt_security el3_ss() const { return cfg.have_rme ? PMT_SS_ROOT : PMT_SS_SECURE; }

    // Both ranges enabled (HPMN = 3, HPME = 1, PMCR.E = 1); counters 0 and 3 count `event` from 0
    // with the filter NSH = 1 and every other filter bit 0, which filters no state.
    void both_ranges(uint64_t mdcr_el3, uint64_t mdcr_el2, uint16_t event)
    {
        wr_high(PMT_REG_MDCR_EL3, mdcr_el3);
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | kHpme | mdcr_el2);
        program(0, event);
        program(3, event);
        wr(PMT_REG_PMCR_EL0, kE);
    }

    // Counts kEvents of `event` at (el, ss), then returns to Non-secure EL2.
    void count_at(unsigned el, pmt_security ss, bool el2_enabled, uint16_t event)
    {
        at(el, ss, el2_enabled);
        count(event, kEvents);
        at(2);
    }

    template <size_t N>
    void run_range_rows(const RangeRow (&rows)[N], uint16_t event = PMT_EV_INST_RETIRED)
    {
        for (const RangeRow &row : rows) {
            SCOPED_TRACE(row.name);
            remake();
            both_ranges(row.mdcr_el3, row.mdcr_el2, event);
            count_at(row.el, row.ss, row.el2_enabled, event);
            EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), row.r1) << "first range";
            EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), row.r2) << "second range";
        }
    }

    // PMCCNTR counts from 0 (PMCCFILTR.NSH = 1, PMCNTENSET.C = 1); kEvents cycles at the row's
    // state.
    template <size_t N> void run_cycle_rows(const OneRow (&rows)[N])
    {
        for (const OneRow &row : rows) {
            SCOPED_TRACE(row.name);
            remake();
            wr_high(PMT_REG_MDCR_EL3, row.mdcr_el3);
            wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | row.mdcr_el2);
            wr(PMT_REG_PMCCFILTR_EL0, kNsh);
            wr(PMT_REG_PMCCNTR_EL0, 0);
            wr(PMT_REG_PMCNTENSET_EL0, C);
            wr(PMT_REG_PMCR_EL0, kE | row.pmcr);
            if (row.ovsset)
                wr(PMT_REG_PMOVSSET_EL0, row.ovsset);
            at(row.el, row.ss, row.el2_enabled);
            ASSERT_EQ(pmt_pmu_cycles(pe, kEvents), PMT_OK);
            at(2);
            EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), row.expected);
        }
    }

    // PMICNTR_EL0 counts from 0 (PMICFILTR.NSH = 1, PMCNTENSET.F0 = 1, MDCR_EL3.EnPM2 = 1);
    // kEvents INST_RETIRED at the row's state.
    template <size_t N> void run_instruction_rows(const OneRow (&rows)[N])
    {
        for (const OneRow &row : rows) {
            SCOPED_TRACE(row.name);
            remake();
            wr_high(PMT_REG_MDCR_EL3, kEnPM2 | row.mdcr_el3);
            wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | row.mdcr_el2);
            wr(PMT_REG_PMICFILTR_EL0, kNsh);
            wr(PMT_REG_PMICNTR_EL0, 0);
            wr(PMT_REG_PMCNTENSET_EL0, F0);
            wr(PMT_REG_PMCR_EL0, kE | row.pmcr);
            count_at(row.el, row.ss, row.el2_enabled, PMT_EV_INST_RETIRED);
            EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), row.expected);
        }
    }
};

// ---- RWVDWZ: no EL3 ------------------------------------------------------------------------

TEST_F(Prohibit, RWVDWZ_WithoutEl3TheSecurityStateDoesNotMatter)
{
    // RWVDWZ: "If EL3 is not implemented, the current Security state does not affect the
    // counting of events" (CountPMUEvents: the Secure check needs HaveEL(EL3)).
    cfg.have_el3 = false;
    const RangeRow rows[] = {
        {"Non-secure EL0", 0, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL1", 1, NS, true, 0, 0, kEvents, kEvents},
        {"Secure EL0", 0, S, false, 0, 0, kEvents, kEvents},
        {"Secure EL1", 1, S, false, 0, 0, kEvents, kEvents},
    };
    for (const RangeRow &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        wr(PMT_REG_MDCR_EL2, hpmn(kHpmn) | kHpme);
        program(0, PMT_EV_INST_RETIRED);
        program(3, PMT_EV_INST_RETIRED);
        wr(PMT_REG_PMCR_EL0, kE);
        count_at(row.el, row.ss, row.el2_enabled, PMT_EV_INST_RETIRED);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), row.r1);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), row.r2);
    }
}

// ---- RJRYNM, RJDWFF: EL3 before FEAT_PMUv3p7 -----------------------------------------------

TEST_F(Prohibit, RJRYNM_SpmePermitsSecureAndEl3CountingWithoutDebugv8p2)
{
    // RJRYNM (EL3, no FEAT_Debugv8p2; PMUv3 of Armv8.0): Secure counting is permitted when
    // MDCR_EL3.SPME is 1. (With SPME = 0 the outcome depends on the IMPLEMENTATION DEFINED
    // authentication interface, which the API does not offer.)
    cfg.pmu_version = PMT_PMUV3;
    const RangeRow rows[] = {
        {"Secure EL0, SPME=1", 0, S, false, kSpme, 0, kEvents, kEvents},
        {"Secure EL1, SPME=1", 1, S, false, kSpme, 0, kEvents, kEvents},
        {"EL3, SPME=1", 3, S, false, kSpme, 0, kEvents, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RJDWFF_SecureAndEl3CountOnlyWithSpme)
{
    // RJDWFF (EL3, FEAT_Debugv8p2, no FEAT_PMUv3p7; PMUv3p5 is Armv8.4+): counting Attributable
    // events in Secure state is prohibited unless MDCR_EL3.SPME is 1. CountPMUEvents applies the
    // same test at EL3 (ss == SS_Secure || PSTATE.EL == EL3). Non-secure state is unaffected.
    // Without FEAT_PMUv3p7, MDCR_EL3.MPMX is RES0 and permits nothing.
    cfg.pmu_version = PMT_PMUV3P5;
    const RangeRow rows[] = {
        {"Secure EL0, SPME=0", 0, S, false, 0, 0, 0, 0},
        {"Secure EL1, SPME=0", 1, S, false, 0, 0, 0, 0},
        {"EL3, SPME=0", 3, S, false, 0, 0, 0, 0},
        {"Secure EL0, SPME=1", 0, S, false, kSpme, 0, kEvents, kEvents},
        {"Secure EL1, SPME=1", 1, S, false, kSpme, 0, kEvents, kEvents},
        {"EL3, SPME=1", 3, S, false, kSpme, 0, kEvents, kEvents},
        {"Secure EL1, SPME=0 MPMX=1 (RES0)", 1, S, false, kMpmx, 0, 0, 0},
        {"EL3, SPME=1 MPMX=1 (RES0)", 3, S, false, kSpme | kMpmx, 0, kEvents, kEvents},
        {"Non-secure EL1, SPME=0", 1, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL2, SPME=0", 2, NS, true, 0, 0, kEvents, kEvents},
    };
    run_range_rows(rows);
}

// ---- RGNGCW: EL3 with FEAT_PMUv3p7 ---------------------------------------------------------

TEST_F(Prohibit, RGNGCW_El3CountsPerSpmeMpmxAndRange)
{
    // RGNGCW, at EL3: allowed when {SPME, MPMX} = {1, 0}; with {1, 1} only for counters in the
    // second range. CountPMUEvents: {0, 0} is prohibited by the Secure/EL3 check; {0, 1} and
    // {1, 1} in the first range by "MDCR_EL3.MPMX == '1' && (SPME == '0' || R1)".
    const RangeRow rows[] = {
        {"SPME=0 MPMX=0", 3, S, false, 0, 0, 0, 0},
        {"SPME=0 MPMX=1", 3, S, false, kMpmx, 0, 0, 0},
        {"SPME=1 MPMX=0", 3, S, false, kSpme, 0, kEvents, kEvents},
        {"SPME=1 MPMX=1", 3, S, false, kSpme | kMpmx, 0, 0, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RGNGCW_SecureEl1AndEl0CountUnlessSpmeMpmxAreBothZero)
{
    // RGNGCW: counting at EL2, EL1 and EL0 in Secure state is prohibited unless MDCR_EL3.{SPME,
    // MPMX} is not {0, 0}; the counter range does not matter below EL3.
    const RangeRow rows[] = {
        {"Secure EL1, SPME=0 MPMX=0", 1, S, false, 0, 0, 0, 0},
        {"Secure EL1, SPME=0 MPMX=1", 1, S, false, kMpmx, 0, kEvents, kEvents},
        {"Secure EL1, SPME=1 MPMX=0", 1, S, false, kSpme, 0, kEvents, kEvents},
        {"Secure EL1, SPME=1 MPMX=1", 1, S, false, kSpme | kMpmx, 0, kEvents, kEvents},
        {"Secure EL0, SPME=0 MPMX=0", 0, S, false, 0, 0, 0, 0},
        {"Secure EL0, SPME=0 MPMX=1", 0, S, false, kMpmx, 0, kEvents, kEvents},
        {"Secure EL0, SPME=1 MPMX=0", 0, S, false, kSpme, 0, kEvents, kEvents},
        {"Secure EL0, SPME=1 MPMX=1", 0, S, false, kSpme | kMpmx, 0, kEvents, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RGNGCW_NonSecureStateIgnoresSpmeAndMpmx)
{
    // RGNGCW only restricts EL3 and Secure state: Non-secure EL0..EL2 count with MDCR_EL3.
    // {SPME, MPMX} = {0, 0} and with {0, 1}.
    const RangeRow rows[] = {
        {"Non-secure EL0, SPME=0 MPMX=0", 0, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL1, SPME=0 MPMX=0", 1, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL2, SPME=0 MPMX=0", 2, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL1, SPME=0 MPMX=1", 1, NS, true, kMpmx, 0, kEvents, kEvents},
        {"Non-secure EL2, SPME=0 MPMX=1", 2, NS, true, kMpmx, 0, kEvents, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RGNGCW_RealmStateIgnoresSpmeAndMpmx)
{
    // RGNGCW / CountPMUEvents: the check is on ss == SS_Secure or EL3; Realm EL0..EL2 count
    // with MDCR_EL3.{SPME, MPMX} = {0, 0}.
    cfg.have_rme = true;
    const RangeRow rows[] = {
        {"Realm EL0", 0, PMT_SS_REALM, true, 0, 0, kEvents, kEvents},
        {"Realm EL1", 1, PMT_SS_REALM, true, 0, 0, kEvents, kEvents},
        {"Realm EL2", 2, PMT_SS_REALM, true, 0, 0, kEvents, kEvents},
    };
    run_range_rows(rows);
}

// ---- RMMZLZ: EL2 and MDCR_EL2.HPMD ---------------------------------------------------------

TEST_F(Prohibit, RMMZLZ_HpmdProhibitsTheFirstRangeAtEl2Only)
{
    // RMMZLZ: at EL2, counting is prohibited unless HPMD is 0 or the counter is in the second
    // range. HPMD does not affect EL1 or EL0.
    const RangeRow rows[] = {
        {"Non-secure EL2, HPMD=0", 2, NS, true, 0, 0, kEvents, kEvents},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd, 0, kEvents},
        {"Non-secure EL1, HPMD=1", 1, NS, true, 0, kHpmd, kEvents, kEvents},
        {"Non-secure EL0, HPMD=1", 0, NS, true, 0, kHpmd, kEvents, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RMMZLZ_WithoutPmuv3p1HpmdHasNoEffect)
{
    // RMMZLZ: "unless ... FEAT_PMUv3p1 is not implemented" (HPMD is RES0 in PMUv3).
    cfg.pmu_version = PMT_PMUV3;
    const RangeRow rows[] = {
        {"Non-secure EL2, HPMD written 1", 2, NS, true, 0, kHpmd, kEvents, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RMMZLZ_SecureEl2NeedsSecureAndEl2CountingAllowed)
{
    // RMMZLZ (second paragraph): with FEAT_SEL2, counting at Secure EL2 is allowed if and only
    // if it is allowed in Secure state (RGNGCW: {SPME, MPMX} != {0, 0}) and at EL2 (HPMD = 0,
    // or a second-range counter).
    cfg.have_sel2 = true;
    const RangeRow rows[] = {
        {"SPME=0 MPMX=0 HPMD=0", 2, S, true, 0, 0, 0, 0},
        {"SPME=0 MPMX=0 HPMD=1", 2, S, true, 0, kHpmd, 0, 0},
        {"SPME=1 MPMX=0 HPMD=0", 2, S, true, kSpme, 0, kEvents, kEvents},
        {"SPME=1 MPMX=0 HPMD=1", 2, S, true, kSpme, kHpmd, 0, kEvents},
        {"SPME=0 MPMX=1 HPMD=0", 2, S, true, kMpmx, 0, kEvents, kEvents},
        {"SPME=0 MPMX=1 HPMD=1", 2, S, true, kMpmx, kHpmd, 0, kEvents},
    };
    run_range_rows(rows);
}

TEST_F(Prohibit, RMMZLZ_HpmdAppliesAtRealmEl2)
{
    // RMMZLZ applies at EL2 in every Security state (CountPMUEvents: PSTATE.EL == EL2).
    cfg.have_rme = true;
    const RangeRow rows[] = {
        {"Realm EL2, HPMD=1", 2, PMT_SS_REALM, true, 0, kHpmd, 0, kEvents},
    };
    run_range_rows(rows);
}

// ---- Unattributable events (IMPLEMENTATION DEFINED) ----------------------------------------

TEST_F(Prohibit, UnattributableEventsAreProhibitedByDefault)
{
    // D13.5.4: "For each Unattributable event, it is IMPLEMENTATION DEFINED whether it is
    // counted when counting Attributable events is prohibited"; the default policy is
    // PMT_UNATTRIB_NOT_COUNTED. BUS_ACCESS is Unattributable (pmt_events.h).
    const RangeRow rows[] = {
        {"Secure EL1, SPME=0", 1, S, false, 0, 0, 0, 0},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd, 0, kEvents},
        {"Non-secure EL1 (allowed)", 1, NS, true, 0, 0, kEvents, kEvents},
    };
    run_range_rows(rows, PMT_EV_BUS_ACCESS);
}

TEST_F(Prohibit, UnattributableEventsAreCountedWhereProhibitedWithTheCountedPolicy)
{
    // D13.5.4 IMPLEMENTATION DEFINED choice PMT_UNATTRIB_COUNTED: BUS_ACCESS is counted where
    // Attributable events are prohibited (Secure state with SPME = 0, EL2 with HPMD = 1, EL3
    // with MPMX = 1).
    cfg.unattributable = PMT_UNATTRIB_COUNTED;
    const RangeRow rows[] = {
        {"Secure EL1, SPME=0", 1, S, false, 0, 0, kEvents, kEvents},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd, kEvents, kEvents},
        {"EL3, SPME=1 MPMX=1", 3, S, false, kSpme | kMpmx, 0, kEvents, kEvents},
        {"EL3, SPME=0 MPMX=0", 3, S, false, 0, 0, kEvents, kEvents},
    };
    run_range_rows(rows, PMT_EV_BUS_ACCESS);
}

TEST_F(Prohibit, TheCountedPolicyDoesNotApplyToAttributableEvents)
{
    // The policy is for Unattributable events only: INST_RETIRED stays prohibited (RGNGCW).
    cfg.unattributable = PMT_UNATTRIB_COUNTED;
    const RangeRow rows[] = {
        {"Secure EL1, SPME=0", 1, S, false, 0, 0, 0, 0},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd, 0, kEvents},
    };
    run_range_rows(rows, PMT_EV_INST_RETIRED);
}

TEST_F(Prohibit, TheCountedPolicyDoesNotEnableADisabledCounter)
{
    // Prohibition and enabling are separate conditions of CountPMUEvents: with the counted
    // policy, a prohibited Unattributable event is still not counted by a disabled counter
    // (RKYBQW: PMCR.E = 0 and HPME = 0 here).
    cfg.unattributable = PMT_UNATTRIB_COUNTED;
    make();
    wr_high(PMT_REG_MDCR_EL3, 0);
    wr(PMT_REG_MDCR_EL2, hpmn(kHpmn));
    program(0, PMT_EV_BUS_ACCESS);
    program(3, PMT_EV_BUS_ACCESS);
    wr(PMT_REG_PMCR_EL0, 0);
    count_at(1, S, false, PMT_EV_BUS_ACCESS);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 0u);
}

// ---- RTDGMF: registers stay accessible -----------------------------------------------------

TEST_F(Prohibit, RTDGMF_RegistersStayAccessibleWhereCountingIsProhibited)
{
    // RTDGMF: "The accessibility of Performance Monitors registers is unaffected by whether
    // event counting is enabled or prohibited." In each state counting is prohibited; a write of
    // PMEVCNTR0_EL0 is performed and reads back, and PMCR_EL0 and PMCNTENSET_EL0 read.
    cfg.have_sel2 = true;
    struct Row {
        const char *name;
        unsigned el;
        pmt_security ss;
        bool el2_enabled;
        uint64_t mdcr_el3, mdcr_el2;
    };
    const Row rows[] = {
        {"Secure EL1, SPME=0 MPMX=0", 1, S, false, 0, 0},
        {"Secure EL2, SPME=0 MPMX=0", 2, S, true, 0, 0},
        {"EL3, SPME=0 MPMX=0", 3, S, false, 0, 0},
        {"EL3, SPME=1 MPMX=1", 3, S, false, kSpme | kMpmx, 0},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        both_ranges(row.mdcr_el3, row.mdcr_el2, PMT_EV_INST_RETIRED);
        at(row.el, row.ss, row.el2_enabled);
        EXPECT_EQ(write(PMT_REG_PMEVCNTR_EL0, 0x1234, 0), PMT_ACCESS_OK);
        uint64_t v = 0;
        EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 0), PMT_ACCESS_OK);
        EXPECT_EQ(v, 0x1234u);
        EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK);
        EXPECT_EQ(read(PMT_REG_PMCNTENSET_EL0, &v), PMT_ACCESS_OK);
    }
}

// ---- RCSRMB: the instruction counter -------------------------------------------------------

TEST_F(Prohibit, RCSRMB_InstructionCounterProhibitionBelowEl3)
{
    // RCSRMB: PMICNTR_EL0 is prohibited at EL2 unless MDCR_EL2.HPMD is 0, and at EL2, EL1 and
    // EL0 in Secure state unless MDCR_EL3.{SPME, MPMX} is not {0, 0}.
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    cfg.have_sel2 = true;
    const OneRow rows[] = {
        {"Non-secure EL2, HPMD=0", 2, NS, true, 0, 0, 0, 0, kEvents},
        {"Non-secure EL2, HPMD=1", 2, NS, true, 0, kHpmd, 0, 0, 0},
        {"Non-secure EL1, HPMD=1", 1, NS, true, 0, kHpmd, 0, 0, kEvents},
        {"Secure EL1, SPME=0 MPMX=0", 1, S, true, 0, 0, 0, 0, 0},
        {"Secure EL1, SPME=0 MPMX=1", 1, S, true, kMpmx, 0, 0, 0, kEvents},
        {"Secure EL1, SPME=1 MPMX=0", 1, S, true, kSpme, 0, 0, 0, kEvents},
        {"Secure EL1, SPME=1 MPMX=1", 1, S, true, kSpme | kMpmx, 0, 0, 0, kEvents},
        {"Secure EL0, SPME=0 MPMX=0", 0, S, true, 0, 0, 0, 0, 0},
        {"Secure EL0, SPME=1 MPMX=0", 0, S, true, kSpme, 0, 0, 0, kEvents},
        {"Secure EL2, SPME=0 MPMX=0", 2, S, true, 0, 0, 0, 0, 0},
        {"Secure EL2, SPME=1 HPMD=0", 2, S, true, kSpme, 0, 0, 0, kEvents},
        {"Secure EL2, SPME=1 HPMD=1", 2, S, true, kSpme, kHpmd, 0, 0, 0},
    };
    run_instruction_rows(rows);
}

TEST_F(Prohibit, RCSRMB_InstructionCounterAtEl3)
{
    // RCSRMB: at EL3 PMICNTR_EL0 is prohibited unless MDCR_EL3.{SPME, MPMX} is {1, 0}
    // (the {1, 1} case is the next test).
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    const OneRow rows[] = {
        {"SPME=0 MPMX=0", 3, S, false, 0, 0, 0, 0, 0},
        {"SPME=0 MPMX=1", 3, S, false, kMpmx, 0, 0, 0, 0},
        {"SPME=1 MPMX=0", 3, S, false, kSpme, 0, 0, 0, kEvents},
    };
    run_instruction_rows(rows);
}

TEST_F(Prohibit, RCSRMB_InstructionCounterAtEl3WithSpmeAndMpmxFollowsThePseudocode)
{
    // RCSRMB prose allows PMICNTR_EL0 at EL3 with {SPME, MPMX} = {1, 1} when EL2 is implemented,
    // but CountPMUEvents (J1.3.1.93) decides: GetPMUCounterRange(INSTRUCTION_COUNTER_ID)
    // returns PMUCounterRange_R1 (J1.3.1.99), and at EL3 "prohibited = (MDCR_EL3.MPMX == '1' &&
    // (MDCR_EL3.SPME == '0' || counter_range == PMUCounterRange_R1))". Prohibited.
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    const OneRow rows[] = {
        {"SPME=1 MPMX=1, EL2 implemented", 3, S, false, kSpme | kMpmx, 0, 0, 0, 0},
    };
    run_instruction_rows(rows);
}

// ---- RGKPZH, RKQDQS: the cycle counter -----------------------------------------------------

TEST_F(Prohibit, RKQDQS_DpStopsTheCycleCounterWhereTheFirstRangeIsProhibited)
{
    // RKQDQS: PMCCNTR does not count when PMCR.DP is 1 and event counting by the first range is
    // prohibited (CountPMUEvents: the cycle counter is in PMUCounterRange_R1). With DP = 0,
    // prohibition does not affect the cycle counter.
    const OneRow rows[] = {
        {"Secure EL1 SPME=0, DP=1", 1, S, false, 0, 0, kDP, 0, 0},
        {"Secure EL1 SPME=0, DP=0", 1, S, false, 0, 0, 0, 0, kEvents},
        {"EL3 SPME=0, DP=1", 3, S, false, 0, 0, kDP, 0, 0},
        {"EL3 SPME=0, DP=0", 3, S, false, 0, 0, 0, 0, kEvents},
        {"EL3 SPME=1 MPMX=1 (first range prohibited), DP=1", 3, S, false, kSpme | kMpmx, 0, kDP, 0,
         0},
        {"EL3 SPME=1 MPMX=0, DP=1", 3, S, false, kSpme, 0, kDP, 0, kEvents},
        {"Non-secure EL2 HPMD=1, DP=1", 2, NS, true, 0, kHpmd, kDP, 0, 0},
        {"Non-secure EL2 HPMD=1, DP=0", 2, NS, true, 0, kHpmd, 0, 0, kEvents},
        {"Non-secure EL1, DP=1", 1, NS, true, 0, 0, kDP, 0, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_DpStopsTheCycleCounterWhereTheFirstRangeIsFrozen)
{
    // RKQDQS: PMCR.DP = 1 and the first range frozen by PMCR.FZO (an overflow flag of a
    // first-range counter is set) stops PMCCNTR. The freeze condition excludes the cycle
    // counter's own flag and second-range flags (CheckPMUOverflowCondition, Freeze:
    // exclude_cyc; ShouldPMUFreeze(R1)). HPMN = 3: counter 0 first range, 3 second.
    const OneRow rows[] = {
        {"FZO=1 P0 overflow, DP=1", 1, NS, true, 0, 0, kFZO | kDP, bit(0), 0},
        {"FZO=1 P0 overflow, DP=0", 1, NS, true, 0, 0, kFZO, bit(0), kEvents},
        {"FZO=0 P0 overflow, DP=1", 1, NS, true, 0, 0, kDP, bit(0), kEvents},
        {"FZO=1 P3 overflow (second range), DP=1", 1, NS, true, 0, 0, kFZO | kDP, bit(3), kEvents},
        {"FZO=1 C overflow, DP=1", 1, NS, true, 0, 0, kFZO | kDP, C, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_Hpmn0DpStillFollowsTheFirstRangeConditions)
{
    // RKQDQS note: with FEAT_HPMN0 and HPMN = 0, PMCR.DP disables the cycle counter under the
    // conditions that would prohibit the first range: at EL2 with HPMD = 1.
    cfg.feat_hpmn0 = true;
    make();
    wr(PMT_REG_MDCR_EL2, hpmn(0) | kHpmd);
    wr(PMT_REG_PMCCFILTR_EL0, kNsh);
    wr(PMT_REG_PMCCNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCR_EL0, kE | kDP);
    ASSERT_EQ(pmt_pmu_cycles(pe, kEvents), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
}

TEST_F(Prohibit, RKQDQS_SccdStopsTheCycleCounterInSecureStateAndAtEl3)
{
    // RKQDQS: FEAT_PMUv3p5, EL3, Secure state and SCCD = 1 stop PMCCNTR; CountPMUEvents applies
    // it when ss == SS_Secure or PSTATE.EL == EL3, and PMCR.DP does not override it. SPME = 1
    // so that event counting is not prohibited.
    const OneRow rows[] = {
        {"Secure EL1, SCCD=1", 1, S, false, kSpme | kSccd, 0, 0, 0, 0},
        {"Secure EL0, SCCD=1", 0, S, false, kSpme | kSccd, 0, 0, 0, 0},
        {"EL3, SCCD=1", 3, S, false, kSpme | kSccd, 0, 0, 0, 0},
        {"Secure EL1, SCCD=0", 1, S, false, kSpme, 0, 0, 0, kEvents},
        {"Non-secure EL1, SCCD=1", 1, NS, true, kSccd, 0, 0, 0, kEvents},
        {"Non-secure EL2, SCCD=1", 2, NS, true, kSccd, 0, 0, 0, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_SccdNeedsPmuv3p5)
{
    // RKQDQS: the SCCD condition needs FEAT_PMUv3p5; in PMUv3p4 SCCD is RES0.
    cfg.pmu_version = PMT_PMUV3P4;
    const OneRow rows[] = {
        {"Secure EL1, SCCD written 1", 1, S, false, kSpme | kSccd, 0, 0, 0, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_HccdStopsTheCycleCounterAtEl2)
{
    // RKQDQS: FEAT_PMUv3p5, EL2 implemented, executing at EL2 and HCCD = 1 (any Security
    // state: CountPMUEvents tests PSTATE.EL == EL2 only).
    cfg.have_sel2 = true;
    const OneRow rows[] = {
        {"Non-secure EL2, HCCD=1", 2, NS, true, 0, kHccd, 0, 0, 0},
        {"Secure EL2, HCCD=1", 2, S, true, kSpme, kHccd, 0, 0, 0},
        {"Non-secure EL1, HCCD=1", 1, NS, true, 0, kHccd, 0, 0, kEvents},
        {"Non-secure EL0, HCCD=1", 0, NS, true, 0, kHccd, 0, 0, kEvents},
        {"Non-secure EL2, HCCD=0", 2, NS, true, 0, 0, 0, 0, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_MccdStopsTheCycleCounterAtEl3Only)
{
    // RKQDQS: FEAT_PMUv3p7, at EL3 (AArch64) with MDCR_EL3.{SCCD, MCCD} not {0, 0}.
    const OneRow rows[] = {
        {"EL3, MCCD=1", 3, S, false, kSpme | kMccd, 0, 0, 0, 0},
        {"EL3, MCCD=0", 3, S, false, kSpme, 0, 0, 0, kEvents},
        {"Secure EL1, MCCD=1", 1, S, false, kSpme | kMccd, 0, 0, 0, kEvents},
        {"Non-secure EL1, MCCD=1", 1, NS, true, kMccd, 0, 0, 0, kEvents},
    };
    run_cycle_rows(rows);
}

TEST_F(Prohibit, RKQDQS_DebugStateStopsTheCycleCounter)
{
    // RKQDQS: "The PE is in Debug state" stops PMCCNTR (CountPMUEvents: debug = Halted()).
    make();
    wr(PMT_REG_PMCCFILTR_EL0, kNsh);
    wr(PMT_REG_PMCCNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, C);
    wr(PMT_REG_PMCR_EL0, kE);
    set_debug(true);
    ASSERT_EQ(pmt_pmu_cycles(pe, kEvents), PMT_OK);
    set_debug(false);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
}

TEST_F(Prohibit, RGKPZH_CycleCounterCountsWhenNothingStopsIt)
{
    // RGKPZH / RKQDQS: "The cycle counter, PMCCNTR, counts unless any of the following is
    // true"; with none true (Non-secure EL1, DP = 0, no SCCD/HCCD/MCCD) it counts every cycle.
    const OneRow rows[] = {
        {"Non-secure EL1", 1, NS, true, 0, 0, 0, 0, kEvents},
        {"Non-secure EL2", 2, NS, true, 0, 0, 0, 0, kEvents},
        {"EL3, SPME=1", 3, S, false, kSpme, 0, 0, 0, kEvents},
    };
    run_cycle_rows(rows);
}

} // namespace
