// test_ebep.cpp - the PMU Profiling exception (FEAT_EBEP, D13.3.2): enable and target (RGWLVY),
// masking (RSCBDZ), Table D13-1 row by row, PMUIRQ and the Effective LP/LC/HLP (IPFDLQ), the
// asynchronous exception (RKBPMJ, RHFTPJ, RDKCTL), PMECR_EL1 and the reserved PMEE encodings.
#include "pe_fixture.h"

namespace
{

class Ebep : public PeTest
{
  protected:
    void SetUp() override
    {
        cfg.feat_ebep = true;
        cfg.pmu_version = PMT_PMUV3P9;
        cfg.num_counters = 4;
        make();
    }

    // MDCR_EL3.PMEE, MDCR_EL2.PMEE (HPMN = N) and PMECR_EL1.{PMEE, KPME}, written from EL3.
    void controls(unsigned el3, unsigned el2, unsigned pmecr, unsigned kpme)
    {
        wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMEE, el3) | PMT_MASK(MDCR_EL3, EnPM2));
        wr_high(PMT_REG_MDCR_EL2,
                PMT_PUT(MDCR_EL2, PMEE, el2) | PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters));
        wr_high(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, PMEE, pmecr) | PMT_PUT(PMECR, KPME, kpme));
    }

    // The PE at `el` (Non-secure below EL3, EL2 enabled) with HCR_EL2.TGE and PSTATE.PM.
    void at_el(unsigned el, bool tge, bool pm)
    {
        pmt_pe_state s{};
        s.el = static_cast<uint8_t>(el);
        s.ss = el == 3 ? PMT_SS_SECURE : PMT_SS_NONSECURE;
        s.el2_enabled = true; // EL2Enabled(): SCR_EL3.NS is 1, also at EL3
        s.scr_ns = true;
        s.hcr_tge = tge;
        s.pm = pm;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    pmt_pmu_exception_state state()
    {
        pmt_pmu_exception_state st{};
        EXPECT_EQ(pmt_pmu_exception_get(pe, &st), PMT_OK);
        return st;
    }

    // One cell of Table D13-1: "IRQ", "Dis", "Msk", "EL1", "EL2", "EL3".
    static std::string cell(const pmt_pmu_exception_state &st)
    {
        if (!st.enabled)
            return st.irq_enabled ? "IRQ" : "Dis";
        if (st.masked)
            return "Msk";
        return "EL" + std::to_string(st.target_el);
    }

    // An overflow of counter 0 (at 2^64: the Effective PMCR.LP may be 1) with its interrupt
    // enabled, PMCR.E = 1.
    void overflow_counter0()
    {
        program(0, PMT_EV_INST_RETIRED, ~uint64_t{0});
        wr(PMT_REG_PMINTENSET_EL1, bit(0));
        pmcr(PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP));
        count(PMT_EV_INST_RETIRED, 1);
    }
};

// Table D13-1. -1 is "X"/"XX" (every value is tried); a column of "n/a" is "".
struct D13_1_Row {
    int el3, el2, tge, pmecr, kpme, pm;
    const char *cells[4]; // EL3, EL2, EL1, EL0
};

const D13_1_Row kTableD13_1[] = {
    {0, -1, 0, -1, -1, -1, {"IRQ", "IRQ", "IRQ", "IRQ"}},
    {0, -1, 1, -1, -1, -1, {"IRQ", "IRQ", "", "IRQ"}},
    {1, 0, 0, -1, -1, -1, {"IRQ", "IRQ", "IRQ", "IRQ"}},
    {1, 0, 1, -1, -1, -1, {"IRQ", "IRQ", "", "IRQ"}},
    {1, 1, 0, 0, -1, -1, {"IRQ", "IRQ", "IRQ", "IRQ"}},
    {1, 1, 0, 2, -1, -1, {"Dis", "Dis", "Dis", "Dis"}},
    {1, 1, 0, 3, 0, -1, {"Msk", "Msk", "Msk", "EL1"}},
    {1, 1, 0, 3, 1, 0, {"Msk", "Msk", "EL1", "EL1"}},
    {1, 1, 0, 3, 1, 1, {"Msk", "Msk", "Msk", "EL1"}},
    {1, 1, 1, 0, -1, -1, {"IRQ", "IRQ", "", "IRQ"}},
    {1, 1, 1, 2, -1, -1, {"Dis", "Dis", "", "Dis"}},
    {1, 1, 1, 3, -1, -1, {"Msk", "Msk", "", "EL2"}},
    {1, 2, 0, -1, -1, -1, {"Dis", "Dis", "Dis", "Dis"}},
    {1, 2, 1, -1, -1, -1, {"Dis", "Dis", "", "Dis"}},
    {1, 3, 0, -1, 0, -1, {"Msk", "Msk", "EL2", "EL2"}},
    {1, 3, 0, -1, 1, 0, {"Msk", "EL2", "EL2", "EL2"}},
    {1, 3, 0, -1, 1, 1, {"Msk", "Msk", "EL2", "EL2"}},
    {1, 3, 1, -1, 0, -1, {"Msk", "Msk", "", "EL2"}},
    {1, 3, 1, -1, 1, 0, {"Msk", "EL2", "", "EL2"}},
    {1, 3, 1, -1, 1, 1, {"Msk", "Msk", "", "EL2"}},
    {2, -1, 0, -1, -1, -1, {"Dis", "Dis", "Dis", "Dis"}},
    {2, -1, 1, -1, -1, -1, {"Dis", "Dis", "", "Dis"}},
    {3, -1, 0, -1, 0, -1, {"Msk", "EL3", "EL3", "EL3"}},
    {3, -1, 0, -1, 1, 0, {"EL3", "EL3", "EL3", "EL3"}},
    {3, -1, 0, -1, 1, 1, {"Msk", "EL3", "EL3", "EL3"}},
    {3, -1, 1, -1, 0, -1, {"Msk", "EL3", "", "EL3"}},
    {3, -1, 1, -1, 1, 0, {"EL3", "EL3", "", "EL3"}},
    {3, -1, 1, -1, 1, 1, {"Msk", "EL3", "", "EL3"}},
};

std::vector<int> values(int v, int n)
{
    if (v >= 0)
        return {v};
    std::vector<int> all;
    for (int i = 0; i < n; i++)
        all.push_back(i);
    return all;
}

// RGWLVY, RSCBDZ, Table D13-1: every row, every Exception level, every value of the X columns.
TEST_F(Ebep, TableD13_1_EnableAndMaskAtEachExceptionLevel)
{
    for (size_t r = 0; r < std::size(kTableD13_1); r++) {
        const D13_1_Row &row = kTableD13_1[r];
        for (int el2 : values(row.el2, 4))
            for (int pmecr : values(row.pmecr, 4))
                for (int kpme : values(row.kpme, 2))
                    for (int pm : values(row.pm, 2)) {
                        controls(unsigned(row.el3), unsigned(el2), unsigned(pmecr), unsigned(kpme));
                        for (unsigned el = 0; el <= 3; el++) {
                            std::string want = row.cells[3 - el];
                            if (want.empty())
                                continue; // n/a: EL1 with HCR_EL2.TGE = 1
                            at_el(el, row.tge, pm);
                            EXPECT_EQ(cell(state()), want)
                                << "row " << r + 1 << " MDCR_EL2.PMEE=" << el2
                                << " PMECR.PMEE=" << pmecr << " KPME=" << kpme << " PM=" << pm
                                << " at EL" << el;
                        }
                    }
    }
}

// RGWLVY: without EL2 enabled in the current Security state, PMECR_EL1.PMEE decides after
// MDCR_EL3.PMEE = 0b01 whatever MDCR_EL2.PMEE says, and the target is EL1.
TEST_F(Ebep, RGWLVY_El2DisabledLeavesPmecrInControl)
{
    controls(1, 2, 3, 1);
    pmt_pe_state s{};
    s.el = 0;
    s.ss = PMT_SS_SECURE;
    s.el2_enabled = false;
    ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    pmt_pmu_exception_state st = state();
    EXPECT_TRUE(st.enabled);
    EXPECT_EQ(st.target_el, 1);
    EXPECT_FALSE(st.masked);
}

// RGWLVY: without EL3 and EL2, PMECR_EL1.PMEE alone enables the exception, to EL1.
TEST_F(Ebep, RGWLVY_El1OnlyPe)
{
    cfg.have_el3 = false;
    cfg.have_el2 = false;
    remake();
    at(1);
    wr(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, PMEE, 3) | PMT_MASK(PMECR, KPME));
    pmt_pmu_exception_state st = state();
    EXPECT_TRUE(st.enabled);
    EXPECT_EQ(st.target_el, 1);
    EXPECT_FALSE(st.masked);
    EXPECT_FALSE(st.irq_enabled);
}

// RSCBDZ: in Debug state an enabled exception is masked, whatever the Exception level.
TEST_F(Ebep, RSCBDZ_MaskedInDebugState)
{
    controls(3, 0, 0, 1);
    at_el(0, false, false);
    EXPECT_FALSE(state().masked);
    set_debug(true);
    EXPECT_TRUE(state().masked);
}

// RCXBNL: without FEAT_EBEP there is no exception: PMEE fields are RES0 and PMUIRQ is enabled.
TEST_F(Ebep, RCXBNL_NoExceptionWithoutFeatEbep)
{
    cfg.feat_ebep = false;
    remake();
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMEE, 3) | PMT_MASK(MDCR_EL3, EnPM2));
    at(3, PMT_SS_SECURE);
    EXPECT_EQ(PMT_GET(MDCR_EL3, PMEE, rd(PMT_REG_MDCR_EL3)), 0u);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_UNDEFINED);
    pmt_pmu_exception_state st = state();
    EXPECT_FALSE(st.enabled);
    EXPECT_TRUE(st.irq_enabled);
}

// IPFDLQ: enabling the exception disables the overflow interrupt request; the CTI overflow
// trigger is unchanged.
TEST_F(Ebep, IPFDLQ_ExceptionEnabledSilencesPmuirqNotCti)
{
    controls(1, 1, 3, 1);
    at_el(1, false, false);
    overflow_counter0();
    EXPECT_EQ(ovs() & bit(0), bit(0));
    EXPECT_TRUE(irq_changes.empty());
    EXPECT_EQ(cti_changes, std::vector<bool>{true});
}

// IPFDLQ with PMEE = 0b00 everywhere: PMUIRQ is asserted as without FEAT_EBEP.
TEST_F(Ebep, IPFDLQ_ExceptionDisabledLeavesPmuirq)
{
    controls(1, 1, 0, 1);
    at_el(1, false, false);
    overflow_counter0();
    EXPECT_EQ(irq_changes, std::vector<bool>{true});
    EXPECT_TRUE(exception_changes.empty());
}

// IPFDLQ (AArch64.IncrementEventCounter): while the exception is enabled the Effective PMCR.LP
// is 1: an event counter with LP = 0 counts past 2^32 without overflowing.
TEST_F(Ebep, IPFDLQ_EffectiveLpIsOne)
{
    controls(1, 1, 3, 1);
    at_el(1, false, false);
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    pmcr(PMT_MASK(PMCR, E)); // LP = 0
    count(PMT_EV_INST_RETIRED, uint64_t{1} << 32);
    EXPECT_EQ(cnt(0), 0x1FFFFFFFFull);
    EXPECT_EQ(ovs() & bit(0), 0u);
}

// IPFDLQ: the Effective MDCR_EL2.HLP is 1 for the second range too.
TEST_F(Ebep, IPFDLQ_EffectiveHlpIsOne)
{
    controls(1, 1, 3, 1);
    wr_high(PMT_REG_MDCR_EL2,
            PMT_PUT(MDCR_EL2, PMEE, 1) | PMT_PUT(MDCR_EL2, HPMN, 2) | PMT_MASK(MDCR_EL2, HPME));
    at(2);
    program(3, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(3), 0x100000000ull);
    EXPECT_EQ(ovs() & bit(3), 0u);
}

// AArch64.IncrementCycleCounter: the Effective PMCR.LC is 1, so PMCCNTR overflows at 2^64 and
// the Effective PMCR.D is 0.
TEST_F(Ebep, IPFDLQ_EffectiveLcIsOneAndDividerOff)
{
    controls(1, 1, 3, 1);
    at(2);
    cycle_counter(0xFFFFFFFF);
    pmcr(PMT_MASK(PMCR, E) | PMT_MASK(PMCR, D));
    cycles(1);
    EXPECT_EQ(ccnt(), 0x100000000ull);
    EXPECT_EQ(ovs() & C, 0u);
}

// RKBPMJ: an enabled, unmasked exception with PMINTENSET.P<n>, PMOVSSET.P<n> and the global
// enable of counter n is pending; the output says so with the target Exception level.
TEST_F(Ebep, RKBPMJ_EventCounterOverflowMakesItPending)
{
    controls(1, 1, 3, 1);
    at_el(0, false, false);
    wr_high(PMT_REG_PMOVSSET_EL0, bit(0)); // found set; PMINTEN not yet
    at_el(0, false, false);
    EXPECT_TRUE(exception_changes.empty());
    wr_high(PMT_REG_PMINTENSET_EL1, bit(0));
    at_el(0, false, false);
    EXPECT_TRUE(exception_changes.empty()); // PMCR.E = 0
    wr_high(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    at_el(0, false, false);
    ASSERT_EQ(exception_changes.size(), 1u);
    EXPECT_EQ(exception_changes[0], std::make_pair(true, 1u));
    EXPECT_TRUE(state().pending);
}

// RKBPMJ: the second range's global enable is MDCR_EL2.HPME.
TEST_F(Ebep, RKBPMJ_SecondRangeNeedsHpme)
{
    controls(1, 3, 0, 1);
    wr_high(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, PMEE, 3) | PMT_PUT(MDCR_EL2, HPMN, 2));
    wr_high(PMT_REG_PMINTENSET_EL1, bit(3));
    wr_high(PMT_REG_PMOVSSET_EL0, bit(3));
    wr_high(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    at_el(1, false, false);
    EXPECT_FALSE(state().pending);
    wr_high(PMT_REG_MDCR_EL2,
            PMT_PUT(MDCR_EL2, PMEE, 3) | PMT_PUT(MDCR_EL2, HPMN, 2) | PMT_MASK(MDCR_EL2, HPME));
    at_el(1, false, false);
    EXPECT_TRUE(state().pending);
    EXPECT_EQ(state().target_el, 2);
}

// RKBPMJ: the cycle counter: PMCR.E, PMINTENSET.C and PMOVSSET.C.
TEST_F(Ebep, RKBPMJ_CycleCounter)
{
    controls(3, 0, 0, 1);
    wr_high(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    wr_high(PMT_REG_PMINTENSET_EL1, C);
    at_el(1, false, false);
    EXPECT_FALSE(state().pending);
    wr_high(PMT_REG_PMOVSSET_EL0, C);
    at_el(1, false, false);
    EXPECT_TRUE(state().pending);
    EXPECT_EQ(state().target_el, 3);
}

// RKBPMJ: the instruction counter with FEAT_PMUv3_ICNTR: PMCR.E, PMINTENSET.F0, PMOVSSET.F0.
TEST_F(Ebep, RKBPMJ_InstructionCounter)
{
    cfg.feat_icntr = true;
    remake();
    controls(3, 0, 0, 1);
    wr_high(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    wr_high(PMT_REG_PMOVSSET_EL0, F0);
    at_el(1, false, false);
    EXPECT_FALSE(state().pending);
    wr_high(PMT_REG_PMINTENSET_EL1, F0);
    at_el(1, false, false);
    EXPECT_TRUE(state().pending);
}

// RKBPMJ: a masked exception is not pending; unmasking it (PSTATE.PM cleared, as reported by
// the CPU) makes it pending at once (RDKCTL: taken in finite time).
TEST_F(Ebep, RDKCTL_UnmaskingByStateChangeRaisesTheOutput)
{
    controls(1, 1, 3, 1);
    at_el(1, false, true); // at the target EL with PSTATE.PM = 1: masked
    overflow_counter0();
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_TRUE(state().masked);
    EXPECT_FALSE(state().pending);
    EXPECT_TRUE(exception_changes.empty());
    at_el(1, false, false);
    EXPECT_EQ(exception_changes, (std::vector<std::pair<bool, unsigned>>{{true, 1}}));
}

// RHFTPJ: a direct write of PMOVSSET_EL0 that sets bit n makes the exception pending before the
// next instruction: the output rises during the write.
TEST_F(Ebep, RHFTPJ_PmovssetWriteRaisesTheOutputAtOnce)
{
    controls(1, 1, 3, 1);
    wr_high(PMT_REG_PMINTENSET_EL1, bit(2));
    wr_high(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    at_el(1, false, false);
    ASSERT_TRUE(exception_changes.empty());
    wr(PMT_REG_PMOVSSET_EL0, bit(2));
    EXPECT_EQ(exception_changes, (std::vector<std::pair<bool, unsigned>>{{true, 1}}));
    wr(PMT_REG_PMOVSCLR_EL0, bit(2));
    EXPECT_EQ(exception_changes.back(), std::make_pair(false, 1u));
}

// EffectivePMEE: the reserved PMECR_EL1.PMEE values 0b01 and 0b10 behave as Constraint_DISABLED
// (docs/choices.md): neither the exception nor PMUIRQ; a write logs the choice.
TEST_F(Ebep, EffectivePmee_ReservedPmecrValuesDisableBoth)
{
    for (unsigned v : {1u, 2u}) {
        log_lines.clear();
        controls(1, 1, v, 1);
        at_el(0, false, false);
        pmt_pmu_exception_state st = state();
        EXPECT_FALSE(st.enabled) << v;
        EXPECT_FALSE(st.irq_enabled) << v;
        EXPECT_FALSE(log_lines.empty()) << v;
    }
}

// EffectivePMEE: MDCR_EL2.PMEE = 0b10 is reserved too; the write is logged.
TEST_F(Ebep, EffectivePmee_ReservedMdcrValueIsLogged)
{
    controls(1, 2, 0, 1);
    bool named = false;
    for (const std::string &l : log_lines)
        named = named || l.find("MDCR_EL2.PMEE") != std::string::npos;
    EXPECT_TRUE(named);
}

// Unpredictable_RESPMEE (EffectivePMEE), each permitted behaviour as a config option
// (docs/choices.md): a reserved PMEE value behaves as Constraint_DISABLED or as the non-reserved
// value the option names; the write is logged naming the option.
TEST_F(Ebep, EffectivePmee_ReservedPmecrValueOptions)
{
    struct Case {
        pmt_reserved_pmee option;
        bool exception, irq;
    } cases[] = {
        {PMT_RESPMEE_DISABLED, false, false},
        {PMT_RESPMEE_AS_00, false, true},
        {PMT_RESPMEE_AS_11, true, false},
    };
    for (const Case &c : cases)
        for (unsigned v : {1u, 2u}) {
            SCOPED_TRACE(testing::Message() << "option " << c.option << " PMECR_EL1.PMEE " << v);
            cfg.reserved_pmecr_pmee = c.option;
            remake();
            log_lines.clear();
            controls(1, 1, v, 1);
            at_el(0, false, false);
            pmt_pmu_exception_state st = state();
            EXPECT_EQ(st.enabled, c.exception);
            EXPECT_EQ(st.irq_enabled, c.irq);
            bool named = false;
            for (const std::string &l : log_lines)
                named = named || (l.find("Unpredictable_RESPMEE") != std::string::npos &&
                                  l.find("reserved_pmecr_pmee") != std::string::npos);
            EXPECT_TRUE(named);
        }
}

// PMECR_EL1.PMEE has no 0b01 meaning to fall back on: the option is refused at create.
TEST_F(Ebep, EffectivePmee_PmecrCannotBehaveAsDefer)
{
    pmt_pe_config c = cfg;
    c.reserved_pmecr_pmee = PMT_RESPMEE_AS_01;
    EXPECT_EQ(pmt_pe_create(&c, nullptr), nullptr);
    c.reserved_pmecr_pmee = static_cast<pmt_reserved_pmee>(7);
    EXPECT_EQ(pmt_pe_create(&c, nullptr), nullptr);
}

// MDCR_EL2.PMEE = 0b10 and MDCR_EL3.PMEE = 0b10 with each option: as 0b01 the next control
// decides (PMECR_EL1.PMEE = 0b11: the exception, to EL1); as 0b00 PMUIRQ; as 0b11 the exception
// to that EL; Constraint_DISABLED neither.
TEST_F(Ebep, EffectivePmee_ReservedMdcrValueOptions)
{
    struct Case {
        pmt_reserved_pmee option;
        bool exception, irq;
        unsigned target; // when exception
    };
    for (unsigned el : {2u, 3u}) {
        Case cases[] = {
            {PMT_RESPMEE_DISABLED, false, false, 0},
            {PMT_RESPMEE_AS_00, false, true, 0},
            {PMT_RESPMEE_AS_01, true, false, 1},
            {PMT_RESPMEE_AS_11, true, false, el},
        };
        for (const Case &c : cases) {
            SCOPED_TRACE(testing::Message() << "MDCR_EL" << el << " option " << c.option);
            (el == 2 ? cfg.reserved_mdcr_el2_pmee : cfg.reserved_mdcr_el3_pmee) = c.option;
            remake();
            log_lines.clear();
            if (el == 2)
                controls(1, 2, 3, 1);
            else
                controls(2, 1, 3, 1);
            at_el(0, false, false);
            pmt_pmu_exception_state st = state();
            EXPECT_EQ(st.enabled, c.exception);
            EXPECT_EQ(st.irq_enabled, c.irq);
            if (c.exception) {
                EXPECT_EQ(st.target_el, c.target);
            }
            bool named = false;
            std::string field = "MDCR_EL" + std::to_string(el) + ".PMEE";
            for (const std::string &l : log_lines)
                named = named || (l.find(field) != std::string::npos &&
                                  l.find("Unpredictable_RESPMEE") != std::string::npos);
            EXPECT_TRUE(named);
            cfg.reserved_mdcr_el2_pmee = PMT_RESPMEE_DISABLED;
            cfg.reserved_mdcr_el3_pmee = PMT_RESPMEE_DISABLED;
        }
    }
}

// PMECR_EL1 (D24.5.9): UNDEFINED at EL0; MDCR_EL2.TPM traps EL1 to EL2; MDCR_EL3.EnPM2 = 0 and
// MDCR_EL3.TPM trap EL1 and EL2 to EL3.
TEST_F(Ebep, PmecrAccessibility)
{
    uint64_t v;
    at(0);
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_UNDEFINED);
    wr_high(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, TPM) | PMT_PUT(MDCR_EL2, HPMN, 4));
    at(1);
    EXPECT_EQ(write(PMT_REG_PMECR_EL1, 0), PMT_ACCESS_TRAP_EL2);
    wr_high(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 4));
    wr_high(PMT_REG_MDCR_EL3, 0); // EnPM2 = 0
    at(1);
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_TRAP_EL3);
    at(2);
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_TRAP_EL3);
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EnPM2) | PMT_MASK(MDCR_EL3, TPM));
    at(2);
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_TRAP_EL3);
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EnPM2));
    at(1);
    wr(PMT_REG_PMECR_EL1, ~uint64_t{0});
    // SSE is RES0 without FEAT_PMUv3_SS; bits [63:5] are RES0.
    EXPECT_EQ(rd(PMT_REG_PMECR_EL1), PMT_MASK(PMECR, PMEE) | PMT_MASK(PMECR, KPME));
}

// PMIAR_EL1 is FEAT_SEBEP's: UNDEFINED with FEAT_EBEP alone.
TEST_F(Ebep, PmiarNeedsSebep)
{
    uint64_t v;
    at(1);
    EXPECT_EQ(read(PMT_REG_PMIAR_EL1, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMIAR_EL1, 0), PMT_ACCESS_UNDEFINED);
}

// The output changes only when it changes: more overflows while pending call nothing.
TEST_F(Ebep, OutputCalledOnlyOnChange)
{
    controls(1, 1, 3, 1);
    at_el(1, false, false);
    overflow_counter0();
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    count(PMT_EV_INST_RETIRED, 5);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_EQ(exception_changes.size(), 1u);
}

} // namespace
