// The Trace Buffer Unit registers (D24.4): configuration, reset, read-back, and who may access
// them (the accessibility pseudocode of each register, MDCR_EL2.E2TB, MDCR_EL3.NSTB/NSTBE,
// MDCR_ELx.TTRF, the E2H redirections).
#include "trbe_fixture.h"

namespace
{

class TrbeRegs : public TrbeTest
{
  protected:
    pmt_access rd_at(pmt_reg_id id)
    {
        uint64_t v;
        return read(id, &v);
    }
};

TEST_F(TrbeRegs, WithoutFeatTrbeTheRegistersAreNotTheModels)
{
    make(); // feat_trbe false: the default
    at(1);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRBLIMITR_EL1, &v), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(write(PMT_REG_TRBPTR_EL1, 0), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(read(PMT_REG_TRBIDR_EL1, &v), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(read(PMT_REG_TRFCR_EL1, &v), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(pmt_trbe_trace(pe, nullptr, 0, nullptr), PMT_ERR_NOT_IMPLEMENTED);
    uint64_t dfr0, dfr1;
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, TraceBuffer, dfr0), 0u);
}

TEST_F(TrbeRegs, IdAa64Dfr0ReportsTraceBufferTraceFiltAndExtTrcBuff)
{
    make_trbe();
    uint64_t dfr0, dfr1;
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, TraceBuffer, dfr0), 1u); // FEAT_TRBE
    EXPECT_EQ(PMT_GET(DFR0, TraceFilt, dfr0), 1u);   // FEAT_TRF
    EXPECT_EQ(PMT_GET(DFR0, ExtTrcBuff, dfr0), 0u);
    cfg.trbe.feat_trbe_exc = true;
    cfg.trbe.feat_trbe_ext = true;
    remake();
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, TraceBuffer, dfr0), 2u); // FEAT_TRBEv1p1
    EXPECT_EQ(PMT_GET(DFR0, ExtTrcBuff, dfr0), 1u);
}

TEST_F(TrbeRegs, BadConfigurationsAreRefusedWithAReason)
{
    trbe_config();
    struct {
        std::function<void(pmt_pe_config &)> set;
        const char *why;
    } cases[] = {
        {[](pmt_pe_config &c) { c.trbe.align = 12; }, "0..11"},
        {[](pmt_pe_config &c) {
             c.trbe.feat_trbe = false;
             c.trbe.feat_trbe_exc = true;
         },
         "need FEAT_TRBE"},
        {[](pmt_pe_config &c) {
             c.trbe.armv9p3 = true;
             c.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
         },
         "IFRNZK"},
        {[](pmt_pe_config &c) {
             c.trbe.feat_trbe_exc = true;
             c.trbe.ext_abort = PMT_TRBE_EA_REPORT_ASYNC;
         },
         "FEAT_TRBE_EXC"},
        {[](pmt_pe_config &c) {
             c.trbe.armv9p3 = true;
             c.trbe.flag_updates = false;
         },
         "RFBKCC"},
        {[](pmt_pe_config &c) {
             c.trbe.armv9p3 = true;
             c.trbe.walk_abort_sets_ea = true;
         },
         "RES0"},
        {[](pmt_pe_config &c) { c.trbe.pa_bits = 60; }, "pa_bits"},
        {[](pmt_pe_config &c) { c.trbe.ext_abort = static_cast<pmt_trbe_ext_abort>(9); },
         "trbe.ext_abort must be 0..3"},
    };
    for (auto &k : cases) {
        pmt_pe_config c = cfg;
        k.set(c);
        log_lines.clear();
        pmt_pe_callbacks cb = callbacks();
        EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr) << k.why;
        ASSERT_FALSE(log_lines.empty());
        EXPECT_NE(log_lines.back().find(k.why), std::string::npos) << log_lines.back();
    }
}

TEST_F(TrbeRegs, ResetValues)
{
    make_trbe();
    // E resets to 0; the UNKNOWN fields reset to 0 (docs/choices.md).
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBPTR_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBBASER_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBTRG_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBMAR_EL1), 0u);
    EXPECT_FALSE(status().enabled);
}

TEST_F(TrbeRegs, TrblimitrReadsBackEFmTmNvmLimitAndNotRes0)
{
    make_trbe();
    uint64_t v = 0xFFFFF12345678000 | PMT_MASK(TRBLIMITR, nVM) | PMT_PUT(TRBLIMITR, TM, 1) |
                 PMT_PUT(TRBLIMITR, FM, 3);
    wr(PMT_REG_TRBLIMITR_EL1, v | 0xF80 /* bits 11:7 RES0 */ | PMT_MASK(TRBLIMITR, XE));
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), v); // XE is RES0 without FEAT_TRBE_EXT
    wr(PMT_REG_TRBLIMITR_EL1, v | PMT_MASK(TRBLIMITR, E));
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), v | PMT_MASK(TRBLIMITR, E));
}

TEST_F(TrbeRegs, TrblimitrXeIsWritableBySoftwareOnlyWithTheOsLockLocked)
{
    cfg.trbe.feat_trbe_ext = true;
    make_trbe();
    wr(PMT_REG_TRBLIMITR_EL1, PMT_MASK(TRBLIMITR, XE));
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), 0u); // RO while the OS Lock is unlocked
    state([](pmt_pe_state &s) { s.os_lock = true; });
    wr(PMT_REG_TRBLIMITR_EL1, PMT_MASK(TRBLIMITR, XE));
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), PMT_MASK(TRBLIMITR, XE));
}

TEST_F(TrbeRegs, TrblimitrNvmReadsAsOneInExternalMode)
{
    cfg.trbe.feat_trbe_ext = true;
    make_trbe();
    state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), PMT_MASK(TRBLIMITR, nVM)); // RES1
}

TEST_F(TrbeRegs, TrbbaserBits11To0AreRes0AndTrbptrKeepsEveryBit)
{
    make_trbe();
    wr(PMT_REG_TRBBASER_EL1, 0xFFFFFFFFFFFFFFFF);
    EXPECT_EQ(rd(PMT_REG_TRBBASER_EL1), 0xFFFFFFFFFFFFF000);
    wr(PMT_REG_TRBPTR_EL1, 0x123456789ABCDEC0);
    EXPECT_EQ(rd(PMT_REG_TRBPTR_EL1), 0x123456789ABCDEC0u);
}

TEST_F(TrbeRegs, TrbtrgBits63To32AreRes0)
{
    make_trbe();
    wr(PMT_REG_TRBTRG_EL1, 0xFFFFFFFF00001000);
    EXPECT_EQ(rd(PMT_REG_TRBTRG_EL1), 0x1000u);
}

TEST_F(TrbeRegs, TrbsrFieldsReadBackAndEaIsRes0WhenThePeNeverSetsIt)
{
    make_trbe(); // External aborts as SError: EA is never set by the PE
    uint64_t all = 0xFFFFFFFFFFFFFFFF;
    wr(PMT_REG_TRBSR_EL1, all);
    uint64_t expect = PMT_MASK(TRBSR, MSS) | PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, WRAP) |
                      PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, IRQ) | PMT_MASK(TRBSR, EC) |
                      PMT_MASK(TRBSR, MSS2);
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), expect);
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    remake_trbe();
    wr(PMT_REG_TRBSR_EL1, all);
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), expect | PMT_MASK(TRBSR, EA));
}

TEST_F(TrbeRegs, TrbmarPasExistsOnlyWithFeatTrbeExt)
{
    make_trbe();
    wr(PMT_REG_TRBMAR_EL1, 0xFFF);
    EXPECT_EQ(rd(PMT_REG_TRBMAR_EL1), 0x3FFu);
    cfg.trbe.feat_trbe_ext = true;
    remake_trbe();
    wr(PMT_REG_TRBMAR_EL1, 0xFFFF);
    EXPECT_EQ(rd(PMT_REG_TRBMAR_EL1), 0xFFFu);
}

TEST_F(TrbeRegs, TrbidrDescribesTheConfiguration)
{
    cfg.trbe.align = 6;
    cfg.trbe.flag_updates = true;
    cfg.trbe.ext_abort = PMT_TRBE_EA_SERROR;
    make_trbe();
    uint64_t v = rd(PMT_REG_TRBIDR_EL1);
    EXPECT_EQ(PMT_GET(TRBIDR, Align, v), 6u);
    EXPECT_EQ(PMT_GET(TRBIDR, F, v), 1u);
    EXPECT_EQ(PMT_GET(TRBIDR, EA, v), 2u); // SError
    EXPECT_EQ(PMT_GET(TRBIDR, P, v), 0u);  // owner: Non-secure EL1
    EXPECT_EQ(PMT_GET(TRBIDR, MaxBuffSize, v), 0u);
    EXPECT_EQ(write(PMT_REG_TRBIDR_EL1, 0), PMT_ACCESS_UNDEFINED);
    cfg.trbe.ext_abort = PMT_TRBE_EA_IGNORE;
    cfg.trbe.align = 0;
    cfg.trbe.flag_updates = false;
    remake_trbe();
    v = rd(PMT_REG_TRBIDR_EL1);
    EXPECT_EQ(PMT_GET(TRBIDR, EA, v), 1u);
    EXPECT_EQ(PMT_GET(TRBIDR, Align, v), 0u);
    EXPECT_EQ(PMT_GET(TRBIDR, F, v), 0u);
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    remake_trbe();
    EXPECT_EQ(PMT_GET(TRBIDR, EA, rd(PMT_REG_TRBIDR_EL1)), 0u); // not described
}

TEST_F(TrbeRegs, TrbidrPReadsOneWhenTheOwnerIsAHigherElOrAnotherSecurityState)
{
    make_trbe();
    // MDCR_EL2.E2TB = 0b00: owner EL2. TRBIDR_EL1 is not trapped by E2TB.
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6));
    EXPECT_EQ(PMT_GET(TRBIDR, P, rd(PMT_REG_TRBIDR_EL1)), 1u);
    go(2);
    EXPECT_EQ(PMT_GET(TRBIDR, P, rd(PMT_REG_TRBIDR_EL1)), 0u);
    // Owner Secure (NSTB = 0b01): P = 1 from Non-secure EL2, 0 at EL3.
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1));
    EXPECT_EQ(PMT_GET(TRBIDR, P, rd(PMT_REG_TRBIDR_EL1)), 1u);
    EXPECT_EQ(PMT_GET(TRBIDR, P, rd_el(3, PMT_REG_TRBIDR_EL1)), 0u);
}

TEST_F(TrbeRegs, TrbidrAddrModeIsVirtualOnlyWithTrfcrEl2DnVm)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    EXPECT_EQ(PMT_GET(TRBIDR, AddrMode, rd(PMT_REG_TRBIDR_EL1)), 0u);
    wr_el(2, PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, DnVM));
    EXPECT_EQ(PMT_GET(TRBIDR, AddrMode, rd(PMT_REG_TRBIDR_EL1)), 1u);
}

TEST_F(TrbeRegs, TrbmpamIsUndefinedWithoutFeatTrbeMpam)
{
    make_trbe();
    EXPECT_EQ(rd_at(PMT_REG_TRBMPAM_EL1), PMT_ACCESS_UNDEFINED);
}

// --- Access: the accessibility pseudocode of D24.4 -----------------------------------------

TEST_F(TrbeRegs, El0AccessIsUndefined)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    go(0);
    for (pmt_reg_id id :
         {PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBPTR_EL1, PMT_REG_TRBBASER_EL1, PMT_REG_TRBSR_EL1,
          PMT_REG_TRBMAR_EL1, PMT_REG_TRBTRG_EL1, PMT_REG_TRBIDR_EL1, PMT_REG_TRBSR_EL2,
          PMT_REG_TRBSR_EL3, PMT_REG_TRFCR_EL1, PMT_REG_TRFCR_EL2})
        EXPECT_EQ(rd_at(id), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id);
}

TEST_F(TrbeRegs, El1AccessTrapsToEl2WhenMdcrEl2E2tbIsX0)
{
    make_trbe();
    for (unsigned e2tb : {0u, 2u}) {
        wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, e2tb) | PMT_PUT(MDCR_EL2, HPMN, 6));
        for (pmt_reg_id id : {PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBPTR_EL1, PMT_REG_TRBBASER_EL1,
                              PMT_REG_TRBSR_EL1, PMT_REG_TRBMAR_EL1, PMT_REG_TRBTRG_EL1}) {
            EXPECT_EQ(rd_at(id), PMT_ACCESS_TRAP_EL2) << pmt_reg_name(id) << " E2TB " << e2tb;
            EXPECT_EQ(write(id, 0), PMT_ACCESS_TRAP_EL2) << pmt_reg_name(id);
        }
        EXPECT_EQ(rd_at(PMT_REG_TRBIDR_EL1), PMT_ACCESS_OK); // not trapped by E2TB
    }
    // E2TB = 0b11 (and the reserved 0b01) do not trap.
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 1) | PMT_PUT(MDCR_EL2, HPMN, 6));
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_OK);
    EXPECT_TRUE(logged("E2TB = 0b01 is reserved"));
    // With EL2 disabled in the current Security state (Secure, without Secure EL2), E2TB does
    // not trap; the buffer is given to Secure state so that MDCR_EL3.NSTB does not trap either.
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6));
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1));
    go(1, PMT_SS_SECURE, false);
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_OK);
}

// MDCR_EL2.E2TB = 0b01 is reserved: it behaves as the non-reserved value trbe.reserved_e2tb
// names (docs/choices.md): the EL1 trap and the owning Exception level follow it; the write is
// logged.
TEST_F(TrbeRegs, ReservedE2tb01_EachOption)
{
    struct Case {
        pmt_reserved_e2tb option;
        pmt_access el1_access;
        unsigned owner_el;
    } cases[] = {
        {PMT_RESE2TB_AS_11, PMT_ACCESS_OK, 1},
        {PMT_RESE2TB_AS_10, PMT_ACCESS_TRAP_EL2, 1},
        {PMT_RESE2TB_AS_00, PMT_ACCESS_TRAP_EL2, 2},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(testing::Message() << "option " << c.option);
        cfg.trbe.reserved_e2tb = c.option;
        remake_trbe();
        log_lines.clear();
        wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 1) | PMT_PUT(MDCR_EL2, HPMN, 6));
        EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), c.el1_access);
        pmt_trbe_status st{};
        ASSERT_EQ(pmt_trbe_get_status(pe, &st), PMT_OK);
        EXPECT_EQ(st.owner.el, c.owner_el);
        EXPECT_TRUE(logged("E2TB = 0b01 is reserved"));
        EXPECT_TRUE(logged("trbe.reserved_e2tb"));
    }
    cfg.trbe.reserved_e2tb = static_cast<pmt_reserved_e2tb>(3);
    trbe_config();
    EXPECT_EQ(pmt_pe_create(&cfg, nullptr), nullptr);
}

TEST_F(TrbeRegs, El1AndEl2AccessTrapsToEl3ByMdcrEl3Nstb)
{
    make_trbe();
    // NSTB = 0b10: owner Non-secure, accesses at EL2 and EL1 trapped to EL3.
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 2));
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_TRAP_EL3);
    go(2);
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(rd_el(3, PMT_REG_TRBPTR_EL1), 0u); // EL3 is never trapped
    // NSTB = 0b11: only accesses from the other Security state trap (Secure EL1 here).
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_OK);
    go(1, PMT_SS_SECURE, false);
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_TRAP_EL3);
    // NSTB = 0b01: owner Secure; Non-secure accesses trap, Secure ones do not.
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1));
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_OK);
    go(1);
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_TRAP_EL3);
    // E2TB has priority over NSTB at EL1.
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6));
    EXPECT_EQ(rd_at(PMT_REG_TRBLIMITR_EL1), PMT_ACCESS_TRAP_EL2);
}

TEST_F(TrbeRegs, RealmAccessChecksNstbe)
{
    cfg.have_rme = true;
    make_trbe();
    go(1, PMT_SS_REALM);
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_TRAP_EL3); // NSTBE 0: Non-secure owner
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_MASK(MDCR_EL3, NSTBE));
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_OK);
    go(1);
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_TRAP_EL3);
    // {NSTBE, NSTB} = {1, 0b01} is reserved: CONSTRAINED UNPREDICTABLE, traps (docs/choices.md).
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1) | PMT_MASK(MDCR_EL3, NSTBE));
    EXPECT_TRUE(logged("NSTBE, NSTB} = {1, 0b0x} is reserved"));
    go(1, PMT_SS_REALM);
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_TRAP_EL3);
}

TEST_F(TrbeRegs, WithoutEl3NothingTrapsToEl3)
{
    cfg.have_el3 = false;
    make_trbe();
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_OK);
    go(2);
    EXPECT_EQ(rd_at(PMT_REG_TRBPTR_EL1), PMT_ACCESS_OK);
}

TEST_F(TrbeRegs, TrbsrEl2AndEl3ExistWithFeatTrbeExc)
{
    make_trbe();
    go(2);
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL2), PMT_ACCESS_UNDEFINED);
    cfg.trbe.feat_trbe_exc = true;
    remake_trbe(); // MDCR_EL3.TRBEE = 0b01
    go(1);
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL2), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL3), PMT_ACCESS_UNDEFINED);
    go(2);
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL2), PMT_ACCESS_OK);
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL3), PMT_ACCESS_UNDEFINED);
    // MDCR_EL3.TRBEE = 0b00 traps TRBSR_EL2 at EL2 to EL3.
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL2), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(rd_el(3, PMT_REG_TRBSR_EL3), 0u);
}

TEST_F(TrbeRegs, TrbsrEl1AtEl2WithE2hIsTrbsrEl2WhenTrfcrEl2EeIsNotZero)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    go(2);
    state([](pmt_pe_state &s) { s.hcr_e2h = true; });
    wr(PMT_REG_TRBSR_EL2, PMT_MASK(TRBSR, WRAP));
    // TRFCR_EL2.EE = 0b00: TRBSR_EL1 is TRBSR_EL1.
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), 0u);
    wr(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, 1));
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), PMT_MASK(TRBSR, WRAP));
    // TRBSR_EL12 reaches TRBSR_EL1 from the host.
    wr(PMT_REG_TRBSR_EL12, PMT_MASK(TRBSR, TRG));
    EXPECT_EQ(sr(1), PMT_MASK(TRBSR, TRG));
    state([](pmt_pe_state &s) { s.hcr_e2h = false; });
    EXPECT_EQ(rd_at(PMT_REG_TRBSR_EL12), PMT_ACCESS_UNDEFINED);
}

TEST_F(TrbeRegs, TrfcrTrapsAndE2hRedirection)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL1), 3u);
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL2), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL12), PMT_ACCESS_UNDEFINED);
    // MDCR_EL2.TTRF traps EL1 to EL2; MDCR_EL3.TTRF traps EL1 and EL2 to EL3.
    wr_el(2, PMT_REG_MDCR_EL2,
          PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_MASK(MDCR_EL2, TTRF) | PMT_PUT(MDCR_EL2, HPMN, 6));
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL1), PMT_ACCESS_TRAP_EL2);
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_MASK(MDCR_EL3, TTRF));
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL1), PMT_ACCESS_TRAP_EL2); // EL2 first
    go(2);
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL1), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(rd_at(PMT_REG_TRFCR_EL2), PMT_ACCESS_TRAP_EL3);
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    // E2H: TRFCR_EL1 at EL2 is TRFCR_EL2, TRFCR_EL12 is TRFCR_EL1.
    state([](pmt_pe_state &s) { s.hcr_e2h = true; });
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL2, E2TRE));
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL2), PMT_MASK(TRFCR_EL2, E2TRE));
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL12), 3u);
}

TEST_F(TrbeRegs, TrfcrWritableFields)
{
    make_trbe(); // no FEAT_TRBE_EXC: EE, KE, DnVM are RES0
    wr(PMT_REG_TRFCR_EL1, 0xFFFFFFFFFFFFFFFF);
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL1),
              PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE) | PMT_MASK(TRFCR_EL1, TS));
    cfg.trbe.feat_trbe_exc = true;
    remake_trbe();
    wr(PMT_REG_TRFCR_EL1, 0xFFFFFFFFFFFFFFFF);
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL1), 0x763u); // + EE, KE; CX and DnVM are for FEAT_NV
    go(2);
    wr(PMT_REG_TRFCR_EL2, 0xFFFFFFFFFFFFFFFF);
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL2), 0xF6Bu); // E0HTRE, E2TRE, CX, TS, EE, KE, DnVM
}

TEST_F(TrbeRegs, PmceidReportsTrbWrapAndTrbTrig)
{
    make_trbe();
    uint64_t v = rd(PMT_REG_PMCEID0_EL0);
    EXPECT_EQ(v >> 44 & 1, 1u); // TRB_WRAP
    EXPECT_EQ(v >> 46 & 1, 1u); // TRB_TRIG, countable (trb_trig_countable)
    cfg.trbe.trb_trig_countable = false;
    remake_trbe();
    EXPECT_EQ(rd(PMT_REG_PMCEID0_EL0) >> 46 & 1, 0u);
}

TEST_F(TrbeRegs, ThePlatformCannotDeliverTrbWrapOrTrbTrig)
{
    make_trbe();
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_TRB_WRAP, 1), PMT_ERR_ARG);
    EXPECT_EQ(pmt_pmu_count(pe, PMT_EV_TRB_TRIG, 1), PMT_ERR_ARG);
}

TEST_F(TrbeRegs, NullPeNeverCrashes)
{
    uint8_t b = 0;
    EXPECT_EQ(pmt_trbe_trace(nullptr, &b, 1, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_detected_trigger(nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_flush_complete(nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_tsb_csync(nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_external_abort(nullptr, 1), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_impdef_event(nullptr, 0, 0), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_set_callbacks(nullptr, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_get_status(nullptr, nullptr), PMT_ERR_NULL);
    EXPECT_FALSE(pmt_trbe_irq_level(nullptr));
    EXPECT_EQ(pmt_trbe_exception_state(nullptr, 1, nullptr), PMT_TRBE_EXC_NONE);
    uint64_t v;
    EXPECT_EQ(pmt_trbe_ext_read(nullptr, 0, 8, PMT_SS_SECURE, &v), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_trbe_ext_write(nullptr, 0, 8, PMT_SS_SECURE, 0), PMT_EXT_ERROR);
    make_trbe();
    EXPECT_EQ(pmt_trbe_trace(pe, nullptr, 1, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_trbe_external_abort(pe, 3), PMT_ERR_ARG);
}

TEST_F(TrbeRegs, RegisterNamesAndFieldFormatting)
{
    EXPECT_STREQ(pmt_reg_name(PMT_REG_TRBLIMITR_EL1), "TRBLIMITR_EL1");
    EXPECT_STREQ(pmt_reg_name(PMT_REG_TRBSR_EL12), "TRBSR_EL12");
    pmt_reg_ref r = pmt_sysreg_decode(PMT_SYSREG(3, 0, 9, 11, 7));
    EXPECT_EQ(r.id, PMT_REG_TRBIDR_EL1);
    char buf[128];
    pmt_reg_format({PMT_REG_TRBSR_EL1, 0}, PMT_MASK(TRBSR, S) | PMT_PUT(TRBSR, EC, 0x24) | 0x7, buf,
                   sizeof buf);
    EXPECT_STREQ(buf, "TRBSR_EL1 = 0x90020007 {MSS=7, S=1, EC=0x24}");
}

} // namespace
