// Where trace buffer management events are recorded (RBNQRP, Tables D6-5, D6-6, D6-7 row by row)
// and the TRBE Profiling exception and TRBIRQ (RMFMXQ, IMTLSX, RVSCDV, Tables D6-8, D6-9, D6-10
// row by row). FEAT_TRBE_EXC, EL2, EL3 and FEAT_RME (for GPFs); self-hosted trace enabled.
#include "trbe_fixture.h"

namespace
{

constexpr unsigned X = 0; // a "don't care" column of a table: any value gives the same result
constexpr unsigned N = 9; // "n/a": the PE cannot be at this EL with this HCR_EL2.TGE

class TrbeRouting : public TrbeTest
{
  protected:
    void SetUp() override
    {
        cfg.have_rme = true;
        cfg.trbe.feat_trbe_exc = true;
    }

    // MDCR_EL3.TRBEE, SCR_EL3.GPF / EA, TRFCR_EL2.EE, MDCR_EL2.E2TB, HCR_EL2.GPF / TEA.
    void controls(unsigned trbee, bool scr_bit, unsigned ee2, unsigned e2tb, bool hcr_bit, bool ea)
    {
        wr_el3(PMT_REG_TRBLIMITR_EL1, 0);
        wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, trbee));
        wr_el3(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, e2tb) | PMT_PUT(MDCR_EL2, HPMN, 6));
        wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, ee2));
        for (pmt_reg_id id : {PMT_REG_TRBSR_EL1, PMT_REG_TRBSR_EL2, PMT_REG_TRBSR_EL3})
            wr_el3(id, 0);
        state([&](pmt_pe_state &s) {
            s.scr_gpf = !ea && scr_bit;
            s.hcr_gpf = !ea && hcr_bit;
            s.scr_ea = ea && scr_bit;
            s.hcr_tea = ea && hcr_bit;
        });
    }

    // Raises one event: a fault on the first write (kind, stage, level), or a buffer full event
    // (kind NONE). Returns the EL whose TRBSR recorded it (S = 1, IRQ = 1), 0 if none or several.
    unsigned raise(pmt_trbe_fault_kind kind, unsigned stage, int level)
    {
        faults.clear();
        if (kind != PMT_TRBE_FAULT_NONE)
            faults.push_back({BASE,
                              LIMIT,
                              {kind, static_cast<uint8_t>(stage), static_cast<int8_t>(level), false,
                               false, false, false}});
        at_el(3, [&] {
            wr(PMT_REG_TRBBASER_EL1, BASE);
            wr(PMT_REG_TRBPTR_EL1, kind == PMT_TRBE_FAULT_NONE ? LIMIT - 64 : BASE);
            wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, 3));
        });
        trace(64);
        unsigned where = 0, count = 0;
        for (unsigned el = 1; el <= (cfg.trbe.feat_trbe_exc ? 3u : 1u); el++) {
            uint64_t s = sr(el);
            if (TRBSR_F(s, S) && TRBSR_F(s, IRQ)) {
                where = el;
                count++;
            } else {
                EXPECT_EQ(s, 0u) << "TRBSR_EL" << el << " changed";
            }
        }
        return count == 1 ? where : 0;
    }
};

// Table D6-5, GPC faults. Columns: MDCR_EL3.TRBEE, SCR_EL3.GPF, TRFCR_EL2.EE, MDCR_EL2.E2TB,
// HCR_EL2.GPF | GPF stage 1, GPF stage 2, GPC fault.
TEST_F(TrbeRouting, RBNQRP_TableD6_5GranuleProtectionChecksRowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, scr_gpf, ee2, e2tb, hcr_gpf, gpf1, gpf2, gpc;
    } rows[] = {
        {0, X, 3, 0, 1, 1, 1, 1}, {1, X, 1, 0, 1, 1, 1, 1}, {1, X, 2, 0, X, 2, 2, 2},
        {1, X, 2, 2, 0, 1, 2, 2}, {1, X, 2, 3, 1, 2, 2, 2}, {1, X, 3, 3, X, 2, 2, 2},
        {2, 0, 0, 3, X, 1, 1, 3}, {2, 0, 2, 0, X, 2, 2, 3}, {2, 0, 2, 3, 0, 1, 2, 3},
        {2, 0, 2, 2, 1, 2, 2, 3}, {2, 0, 3, 3, X, 2, 2, 3}, {2, 1, 1, 3, X, 3, 3, 3},
        {3, X, 0, 3, X, 3, 3, 3},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        controls(r.trbee, r.scr_gpf, r.ee2, r.e2tb, r.hcr_gpf, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_GPF, 1, 0), r.gpf1);
        controls(r.trbee, r.scr_gpf, r.ee2, r.e2tb, r.hcr_gpf, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_GPF_WALK, 2, 3), r.gpf2);
        controls(r.trbee, r.scr_gpf, r.ee2, r.e2tb, r.hcr_gpf, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_GPC, 1, 0), r.gpc);
    }
}

// Table D6-6, External aborts reported as MMU faults (on a translation table walk). Columns:
// MDCR_EL3.TRBEE, SCR_EL3.EA, TRFCR_EL2.EE, MDCR_EL2.E2TB, HCR_EL2.TEA | stage 1, stage 2.
TEST_F(TrbeRouting, RBNQRP_TableD6_6ExternalAbortsRowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, scr_ea, ee2, e2tb, tea, s1, s2;
    } rows[] = {
        {0, X, 2, 0, 1, 1, 1}, {1, X, 0, 0, 1, 1, 1}, {1, X, 2, 0, X, 2, 2}, {1, X, 2, 3, 0, 1, 2},
        {1, X, 2, 2, 1, 2, 2}, {1, X, 3, 2, X, 2, 2}, {2, 0, 1, 0, X, 1, 1}, {2, 0, 2, 0, X, 2, 2},
        {2, 0, 2, 2, 0, 1, 2}, {2, 0, 2, 3, 1, 2, 2}, {2, 0, 3, 3, X, 2, 2}, {2, 1, 0, 0, X, 3, 3},
        {3, X, 1, 3, X, 3, 3},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        controls(r.trbee, r.scr_ea, r.ee2, r.e2tb, r.tea, true);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_EXTERNAL_WALK, 1, 1), r.s1);
        controls(r.trbee, r.scr_ea, r.ee2, r.e2tb, r.tea, true);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_EXTERNAL_WALK, 2, 2), r.s2);
    }
}

// Table D6-7, all other management events. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE,
// MDCR_EL2.E2TB | Other abort stage 1, Other abort stage 2, Other event (a buffer full event).
TEST_F(TrbeRouting, RBNQRP_TableD6_7OtherEventsRowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, ee2, e2tb, s1, s2, other;
    } rows[] = {
        {0, 3, 0, 1, 1, 1}, {1, 1, 0, 1, 1, 1}, {1, 0, 3, 1, 1, 1}, {1, 2, 0, 2, 2, 1},
        {1, 2, 3, 1, 2, 1}, {1, 3, 2, 2, 2, 2}, {2, 0, 0, 1, 1, 1}, {2, 2, 0, 2, 2, 1},
        {2, 2, 2, 1, 2, 1}, {2, 3, 3, 2, 2, 2}, {3, 0, 3, 3, 3, 3},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        controls(r.trbee, false, r.ee2, r.e2tb, false, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_TRANSLATION, 1, 3), r.s1);
        controls(r.trbee, false, r.ee2, r.e2tb, false, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_PERMISSION, 2, 3), r.s2);
        controls(r.trbee, false, r.ee2, r.e2tb, false, false);
        EXPECT_EQ(raise(PMT_TRBE_FAULT_NONE, 0, 0), r.other);
    }
}

// RBNQRP: without FEAT_TRBE_EXC, or with self-hosted trace disabled, every event is recorded in
// TRBSR_EL1.
TEST_F(TrbeRouting, RBNQRP_WithoutFeatTrbeExcEverythingGoesToTrbsrEl1)
{
    cfg.trbe.feat_trbe_exc = false;
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 3));
    EXPECT_EQ(raise(PMT_TRBE_FAULT_TRANSLATION, 2, 3), 1u);
}

// RHLKSG: the event sets IRQ and the syndrome; the other fields of that TRBSR_ELx (WRAP, TRG)
// and the other TRBSR_ELx are unchanged.
TEST_F(TrbeRouting, RHLKSG_AnEventChangesOnlyItsOwnFields)
{
    make_trbe();
    controls(3, false, 0, 3, false, false);
    wr_el3(PMT_REG_TRBSR_EL3, PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, TRG));
    wr_el3(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, TRG));
    faults = {{BASE, LIMIT, {PMT_TRBE_FAULT_TRANSLATION, 1, 2, false, false, false, false}}};
    at_el(3, [&] {
        wr(PMT_REG_TRBBASER_EL1, BASE);
        wr(PMT_REG_TRBPTR_EL1, BASE);
        wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, 3));
    });
    trace(64);
    EXPECT_EQ(sr(3), PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, S) |
                         PMT_MASK(TRBSR, IRQ) | PMT_PUT(TRBSR, EC, 0x24) | 0x06);
    EXPECT_EQ(sr(1), PMT_MASK(TRBSR, TRG));
    EXPECT_EQ(sr(2), 0u);
}

// --- The TRBE Profiling exception and TRBIRQ ------------------------------------------------

class TrbeException : public TrbeRouting
{
  protected:
    // Sets TRBSR_EL<source>.IRQ = 1 (the others 0) and the controls of a table row.
    void row(unsigned source, unsigned trbee, unsigned ee2, unsigned ke2, unsigned ee1,
             unsigned ke1)
    {
        wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, trbee));
        wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, ee2) | PMT_PUT(TRFCR_EL2, KE, ke2));
        wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, ee1) | PMT_PUT(TRFCR_EL1, KE, ke1));
        static const pmt_reg_id ids[4] = {PMT_REG_NONE, PMT_REG_TRBSR_EL1, PMT_REG_TRBSR_EL2,
                                          PMT_REG_TRBSR_EL3};
        for (unsigned el = 1; el <= 3; el++)
            wr_el3(ids[el], el == source ? PMT_MASK(TRBSR, IRQ) : 0);
    }
    // The cell for "taken from" EL `from` with HCR_EL2.TGE and PSTATE.PM: 0 None, 'B', 'C', or
    // the target EL.
    unsigned cell(unsigned source, unsigned from, unsigned tge, unsigned pm)
    {
        state([&](pmt_pe_state &s) {
            s.el = static_cast<uint8_t>(from);
            s.ss = from == 3 ? PMT_SS_ROOT : PMT_SS_NONSECURE;
            s.scr_ns = true;
            s.el2_enabled = true;
            s.hcr_tge = tge;
            s.pm = pm;
        });
        unsigned target = 0;
        switch (pmt_trbe_exception_state(pe, source, &target)) {
        case PMT_TRBE_EXC_NONE: return 0;
        case PMT_TRBE_EXC_MASKED_PM: return 'B';
        case PMT_TRBE_EXC_MASKED: return 'C';
        default: return target;
        }
    }
    void check_row(unsigned source, unsigned tge, unsigned pm, const unsigned (&cells)[4])
    {
        for (unsigned from = 0; from <= 3; from++) {
            if (cells[from] == N)
                continue;
            EXPECT_EQ(cell(source, from, tge, pm), cells[from]) << "taken from EL" << from;
        }
    }
};

constexpr unsigned MB = 'B', MC = 'C'; // masked by PSTATE.PM ("B"), masked ("C")

// Table D6-8: TRBSR_EL1.IRQ = 1. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE, HCR_EL2.TGE,
// TRFCR_EL1.EE, TRFCR_EL1.KE, PSTATE.PM | TRBIRQ, taken from EL0, EL1, EL2, EL3.
TEST_F(TrbeException, RMFMXQ_TableD6_8RowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, ee2, tge, ee1, ke1, pm;
        bool irq;
        unsigned cells[4];
    } rows[] = {
        {0, 3, 0, 3, 1, 0, true, {0, 0, 0, 0}},     {0, 3, 1, 3, 1, 0, true, {0, N, 0, 0}},
        {1, 0, 0, 3, 1, 0, true, {0, 0, 0, 0}},     {3, 0, 1, 3, 1, 0, true, {0, N, 0, 0}},
        {1, 1, 0, 0, 1, 0, true, {0, 0, 0, 0}},     {2, 2, 0, 1, 1, 0, true, {0, 0, 0, 0}},
        {1, 1, 0, 3, 0, 0, false, {1, MC, MC, MC}}, {1, 3, 0, 2, 0, 1, false, {1, MC, MC, MC}},
        {2, 1, 0, 3, 1, 0, false, {1, 1, MC, MC}},  {1, 2, 0, 3, 1, 1, false, {1, MB, MC, MC}},
        {1, 1, 1, 1, X, X, true, {0, N, 0, 0}},     {3, 1, 1, 3, X, X, false, {2, N, MC, MC}},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        row(1, r.trbee, r.ee2, 0, r.ee1, r.ke1);
        check_row(1, r.tge, r.pm, r.cells);
        EXPECT_EQ(pmt_trbe_irq_level(pe), r.irq);
    }
}

// Table D6-9: TRBSR_EL2.IRQ = 1. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE, TRFCR_EL2.KE,
// HCR_EL2.TGE, PSTATE.PM | taken from EL0, EL1, EL2, EL3.
TEST_F(TrbeException, RMFMXQ_TableD6_9RowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, ee2, ke2, tge, pm;
        unsigned cells[4];
    } rows[] = {
        {0, 3, 1, 0, 0, {0, 0, 0, 0}},   {0, 2, 1, 1, 0, {0, N, 0, 0}},
        {1, 0, 1, 0, 0, {0, 0, 0, 0}},   {2, 1, 1, 1, 0, {0, N, 0, 0}},
        {1, 2, X, 0, X, {2, 2, MC, MC}}, {3, 2, X, 1, X, {2, N, MC, MC}},
        {1, 3, 0, 0, X, {2, 2, MC, MC}}, {2, 3, 0, 1, X, {2, N, MC, MC}},
        {1, 3, 1, 0, 0, {2, 2, 2, MC}},  {1, 3, 1, 0, 1, {2, 2, MB, MC}},
        {3, 3, 1, 1, 0, {2, N, 2, MC}},  {2, 3, 1, 1, 1, {2, N, MB, MC}},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        row(2, r.trbee, r.ee2, r.ke2, 0, 0);
        check_row(2, r.tge, r.pm, r.cells);
    }
}

// Table D6-10: TRBSR_EL3.IRQ = 1. Columns: MDCR_EL3.TRBEE, HCR_EL2.TGE | taken from EL0..EL3.
TEST_F(TrbeException, RMFMXQ_TableD6_10RowByRow)
{
    make_trbe();
    struct Row {
        unsigned trbee, tge;
        unsigned cells[4];
    } rows[] = {
        {0, 0, {0, 0, 0, 0}},  {1, 1, {0, N, 0, 0}},  {2, 0, {3, 3, 3, MC}},
        {2, 1, {3, N, 3, MC}}, {3, 0, {3, 3, 3, MC}}, {3, 1, {3, N, 3, MC}},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        row(3, r.trbee, 0, 0, 0, 0);
        check_row(3, r.tge, 0, r.cells);
    }
}

// IMTLSX, RYXTTY: an enabled and unmasked exception is reported as soon as the event that sets
// the IRQ bit is recorded, to the target EL; it goes away when the IRQ bit is cleared.
TEST_F(TrbeException, IMTLSX_TheExceptionOutputFollowsTheEvent)
{
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 1));
    wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, 1));
    wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, 3));
    exceptions.clear();
    go(0);
    program_fill_at_el3();
    trace(0x4000); // buffer full, recorded in TRBSR_EL1
    ASSERT_EQ(exceptions.size(), 1u);
    EXPECT_EQ(exceptions[0], std::make_pair(true, 1u));
    EXPECT_FALSE(pmt_trbe_irq_level(pe)); // the interrupt request is disabled
    wr_el3(PMT_REG_TRBSR_EL1, 0);
    EXPECT_EQ(exceptions.back(), std::make_pair(false, 0u));
}

// IMTLSX: masked exceptions stay pending and are taken when the PE moves where they are not.
TEST_F(TrbeException, IMTLSX_AMaskedExceptionIsTakenWhenUnmasked)
{
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 1));
    wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, 1));
    wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, 3)); // KE = 0: masked at EL1
    wr_el3(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, IRQ));
    go(1);
    exceptions.clear();
    go(0);
    EXPECT_EQ(exceptions, (std::vector<std::pair<bool, unsigned>>{{true, 1u}}));
}

// IWKGWP, CheckForTRBEException: never with self-hosted trace disabled, nor in Debug state.
TEST_F(TrbeException, IWKGWP_NoExceptionWithSelfHostedTraceDisabledOrInDebugState)
{
    make_trbe();
    row(1, 1, 1, 0, 3, 1);
    EXPECT_EQ(cell(1, 0, 0, 0), 1u);
    state([](pmt_pe_state &s) { s.debug = true; });
    EXPECT_EQ(pmt_trbe_exception_state(pe, 1, nullptr), PMT_TRBE_EXC_NONE);
    state([](pmt_pe_state &s) {
        s.debug = false;
        s.self_hosted_trace_disabled = true;
    });
    EXPECT_EQ(pmt_trbe_exception_state(pe, 1, nullptr), PMT_TRBE_EXC_NONE);
    EXPECT_TRUE(pmt_trbe_irq_level(pe)); // RVSCDV: TRBIRQ is used instead
}

// RVSCDV: TRBIRQ is enabled when MDCR_EL3.TRBEE is 0b00, or TRFCR_EL2.EE is 0b00 in a state
// where EL2 applies (even at EL3), or TRFCR_EL1.EE is 0b00.
TEST_F(TrbeException, RVSCDV_TrbirqEnableConditions)
{
    make_trbe();
    row(1, 0, 3, 0, 3, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    row(1, 1, 0, 0, 3, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    at_el(3, [&] { EXPECT_TRUE(pmt_trbe_irq_level(pe)); }); // SCR_EL3.NS = 1 at EL3
    row(1, 1, 1, 0, 0, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    row(1, 1, 1, 0, 3, 0);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
    // Secure state without Secure EL2: TRFCR_EL2.EE does not apply (Effective value 0b01).
    wr_el3(PMT_REG_TRFCR_EL2, 0);
    go(1, PMT_SS_SECURE, false);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
}

// RTPPCF: TRBIRQ is signalled by the PE that implements the Trace Buffer Unit: each pmt_pe has
// its own.
TEST_F(TrbeException, RTPPCF_EachPeHasItsOwnTrbirq)
{
    cfg.trbe.feat_trbe_exc = false;
    make_trbe();
    pmt_pe_config c2 = cfg;
    pmt_pe *other = pmt_pe_create(&c2, nullptr);
    ASSERT_NE(other, nullptr);
    program_fill();
    trace(0x4000);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    EXPECT_FALSE(pmt_trbe_irq_level(other));
    pmt_pe_destroy(other);
}

} // namespace
