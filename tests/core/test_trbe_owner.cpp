// Owning translation regime, enabled and running (D6.2, D6.3.5): Table D6-2 and Table D6-1 row by
// row, TraceBufferEnabled, EffectiveTRBLIMITR_EL1_nVM.
#include "trbe_fixture.h"

namespace
{

class TrbeOwner : public TrbeTest
{
  protected:
    // Enables the unit from EL3 (no trap there) with the buffer of the fixture.
    void enable_at_el3(uint64_t extra = 0)
    {
        at_el(3, [&] {
            wr(PMT_REG_TRBBASER_EL1, BASE);
            wr(PMT_REG_TRBPTR_EL1, BASE);
            wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | extra);
        });
    }
};

// Table D6-2, Summary of owning translation regime. Columns: Enabled, NSTBE, NSTB, E2TB, EEL2,
// E2H; result: Security state, EL, EL2&0.
TEST_F(TrbeOwner, TableD6_2RowByRow)
{
    cfg.have_rme = true;
    cfg.have_sel2 = true;
    make_trbe();
    struct Row {
        bool enabled;
        unsigned nstbe, nstb, e2tb;
        bool eel2, e2h;
        pmt_security ss;
        unsigned el;
        bool el20;
    } rows[] = {
        {false, 0, 3, 3, false, false, PMT_SS_NONSECURE, 0, false}, // Disabled
        {true, 0, 1, 0, false, false, PMT_SS_SECURE, 1, false},     // Secure EL1&0
        {true, 0, 0, 3, false, true, PMT_SS_SECURE, 1, false},      // Secure EL1&0
        {true, 0, 1, 0, true, false, PMT_SS_SECURE, 2, false},      // Secure EL2
        {true, 0, 1, 0, true, true, PMT_SS_SECURE, 2, true},        // Secure EL2&0
        {true, 0, 1, 2, true, false, PMT_SS_SECURE, 1, false},      // Secure EL1&0
        {true, 0, 3, 0, false, false, PMT_SS_NONSECURE, 2, false},  // Non-secure EL2
        {true, 0, 2, 0, true, true, PMT_SS_NONSECURE, 2, true},     // Non-secure EL2&0
        {true, 0, 3, 3, true, true, PMT_SS_NONSECURE, 1, false},    // Non-secure EL1&0
        {true, 1, 3, 0, false, false, PMT_SS_REALM, 2, false},      // Realm EL2
        {true, 1, 2, 0, false, true, PMT_SS_REALM, 2, true},        // Realm EL2&0
        {true, 1, 3, 2, true, false, PMT_SS_REALM, 1, false},       // Realm EL1&0
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        wr_el3(PMT_REG_MDCR_EL3,
               PMT_PUT(MDCR_EL3, NSTB, r.nstb) | PMT_PUT(MDCR_EL3, NSTBE, r.nstbe));
        wr_el3(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, r.e2tb) | PMT_PUT(MDCR_EL2, HPMN, 6));
        state([&](pmt_pe_state &s) {
            s.scr_eel2 = r.eel2;
            s.hcr_e2h = r.e2h;
        });
        if (r.enabled)
            enable_at_el3();
        else
            wr_el3(PMT_REG_TRBLIMITR_EL1, 0);
        pmt_trbe_status st = status();
        EXPECT_EQ(st.enabled, r.enabled);
        if (!r.enabled)
            continue;
        EXPECT_EQ(st.owner.ss, r.ss);
        EXPECT_EQ(st.owner.el, r.el);
        EXPECT_EQ(st.owner.e2h, r.el20);
        EXPECT_FALSE(st.owner.external);
    }
}

TEST_F(TrbeOwner, WithoutEl2TheOwnerIsEl1)
{
    cfg.have_el2 = false;
    make_trbe();
    enable_at_el3();
    EXPECT_EQ(status().owner.el, 1u);
}

TEST_F(TrbeOwner, WithoutEl3TheOwnerIsTheSecurityStateOfThePe)
{
    cfg.have_el3 = false;
    make_trbe();
    at_el(2, [&] {
        wr(PMT_REG_TRBBASER_EL1, BASE);
        wr(PMT_REG_TRBPTR_EL1, BASE);
        wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E));
    });
    EXPECT_EQ(status().owner.ss, PMT_SS_NONSECURE);
    EXPECT_EQ(status().owner.el, 1u);
}

// RSDCKT: enabled in Self-hosted mode by TRBLIMITR_EL1.E, and TraceBufferEnabled requires the
// owning Exception level to use AArch64.
TEST_F(TrbeOwner, RSDCKT_EnabledByEOnlyWhenTheOwningElUsesAArch64)
{
    make_trbe();
    EXPECT_FALSE(status().enabled);
    enable_at_el3();
    EXPECT_TRUE(status().enabled);
    EXPECT_TRUE(status().self_hosted);
    state([](pmt_pe_state &s) { s.aarch32_els = 1u << 1; }); // EL1 (the owner) in AArch32
    EXPECT_FALSE(status().enabled);
    state([](pmt_pe_state &s) { s.aarch32_els = 1u << 0; }); // only EL0
    EXPECT_TRUE(status().enabled);
}

// RSDCKT: without FEAT_TRBE_EXT the unit is disabled when self-hosted trace is disabled; with it,
// External mode is enabled by TRBLIMITR_EL1.XE.
TEST_F(TrbeOwner, RSDCKT_ExternalModeIsEnabledByXe)
{
    make_trbe();
    enable_at_el3();
    state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    EXPECT_FALSE(status().enabled);

    cfg.trbe.feat_trbe_ext = true;
    remake_trbe();
    enable_at_el3();
    state([](pmt_pe_state &s) {
        s.self_hosted_trace_disabled = true;
        s.os_lock = true; // XE is writable by software with the OS Lock locked
    });
    EXPECT_FALSE(status().enabled); // E is ignored in External mode
    wr_el3(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, XE));
    EXPECT_TRUE(status().enabled);
    EXPECT_FALSE(status().self_hosted);
    EXPECT_TRUE(status().owner.external);
    EXPECT_TRUE(status().owner.nvm); // physical addresses (RNHTSY)
}

// Table D6-1, Trace Buffer running when self-hosted trace is enabled. Columns: E, TRBSR_EL1.S,
// MDCR_EL3.TRBEE, TRBSR_EL3.S, TRFCR_EL2.EE, TRBSR_EL2.S.
TEST_F(TrbeOwner, RYCHKJ_TableD6_1RowByRow)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    struct Row {
        unsigned e, s1, trbee, s3, ee2, s2;
        bool running;
    } rows[] = {
        {0, 0, 0, 0, 0, 0, false}, {1, 0, 0, 1, 3, 1, true},  {1, 0, 1, 1, 0, 1, true},
        {1, 0, 1, 1, 1, 1, true},  {1, 0, 1, 0, 2, 0, true},  {1, 0, 1, 0, 3, 1, false},
        {1, 0, 2, 0, 1, 1, true},  {1, 0, 3, 0, 0, 1, true},  {1, 0, 2, 0, 2, 0, true},
        {1, 0, 3, 0, 3, 1, false}, {1, 0, 2, 1, 0, 0, false}, {1, 0, 3, 1, 2, 0, false},
        {1, 1, 0, 0, 0, 0, false}, {1, 1, 3, 0, 3, 0, false},
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE(i++);
        wr_el3(PMT_REG_TRBLIMITR_EL1, 0); // registers are written while disabled
        wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, r.trbee));
        wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, r.ee2));
        wr_el3(PMT_REG_TRBSR_EL1, PMT_PUT(TRBSR, S, r.s1));
        wr_el3(PMT_REG_TRBSR_EL2, PMT_PUT(TRBSR, S, r.s2));
        wr_el3(PMT_REG_TRBSR_EL3, PMT_PUT(TRBSR, S, r.s3));
        if (r.e)
            enable_at_el3();
        EXPECT_EQ(status().running, r.running);
        EXPECT_EQ(status().enabled, r.e == 1);
    }
}

// RFTWWP: with FEAT_TRBEv1p1, an EL1 owner and TRFCR_EL2.DnVM = 1, the Effective nVM is 0.
TEST_F(TrbeOwner, RFTWWP_TrfcrEl2DnVmForcesVirtualAddresses)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    enable_at_el3(PMT_MASK(TRBLIMITR, nVM));
    EXPECT_TRUE(status().owner.nvm);
    wr_el3(PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, DnVM));
    EXPECT_FALSE(status().owner.nvm);
    // Not when the owner is EL2.
    wr_el3(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6));
    EXPECT_TRUE(status().owner.nvm);
}

// RXWDZV / RSHXTV: the translate callback is told the owning regime of each write.
TEST_F(TrbeOwner, RXWDZV_WritesUseTheOwningRegime)
{
    make_trbe();
    program_fill();
    trace(64);
    ASSERT_FALSE(regimes.empty());
    EXPECT_EQ(regimes.back().ss, PMT_SS_NONSECURE);
    EXPECT_EQ(regimes.back().el, 1u);
    EXPECT_FALSE(regimes.back().e2h);
    EXPECT_FALSE(regimes.back().nvm);
    EXPECT_TRUE(regimes.back().flag_updates); // TRBIDR_EL1.F
}

} // namespace
