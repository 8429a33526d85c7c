// FEAT_TRBE_EXT: the external Trace Buffer frame (H9.4, Table D6-4), External mode (D6.4) with
// TRBCR.ManStop, and the CTI trace buffer triggers (H5.4.9 to H5.4.11).
#include "trbe_fixture.h"

namespace
{

class TrbeExternal : public TrbeTest
{
  protected:
    void SetUp() override { cfg.trbe.feat_trbe_ext = true; }
    pmt_ext_status ext_rd(uint32_t off, uint64_t *v, unsigned size = 8,
                          pmt_security from = PMT_SS_SECURE)
    {
        return pmt_trbe_ext_read(pe, off, size, from, v);
    }
    pmt_ext_status ext_wr(uint32_t off, uint64_t v, unsigned size = 8,
                          pmt_security from = PMT_SS_SECURE)
    {
        return pmt_trbe_ext_write(pe, off, size, from, v);
    }
    uint64_t ext(uint32_t off, unsigned size = 8)
    {
        uint64_t v = 0xDEAD;
        EXPECT_EQ(ext_rd(off, &v, size), PMT_EXT_OK) << std::hex << off;
        return v;
    }
    // An external debugger takes the unit: self-hosted trace disabled (External mode).
    void external_mode()
    {
        state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    }
    // IKMQKF-style programming through the frame, Non-secure PAS.
    void program_ext(unsigned fm = PMT_TRBLIMITR_FM_FILL)
    {
        ASSERT_EQ(ext_wr(0x010, 0), PMT_EXT_OK);
        ASSERT_EQ(ext_wr(0x018, 0), PMT_EXT_OK);
        ASSERT_EQ(ext_wr(0x000, BASE), PMT_EXT_OK);
        ASSERT_EQ(ext_wr(0x008, BASE), PMT_EXT_OK);
        ASSERT_EQ(ext_wr(0x028, PMT_PUT(TRBMAR, PAS, 1)), PMT_EXT_OK);
        ASSERT_EQ(ext_wr(0x010, LIMIT | PMT_PUT(TRBLIMITR, FM, fm) | PMT_PUT(TRBLIMITR, TM, 3) |
                                    PMT_MASK(TRBLIMITR, XE)),
                  PMT_EXT_OK);
    }
};

TEST_F(TrbeExternal, WithoutFeatTrbeExtThereIsNoFrame)
{
    cfg.trbe.feat_trbe_ext = false;
    make_trbe();
    uint64_t v;
    EXPECT_EQ(ext_rd(0x000, &v), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(ext_rd(0xFBC, &v, 4), PMT_EXT_NO_REGISTER);
}

// RRGHMG, Table D6-4: the external views map to the System registers.
TEST_F(TrbeExternal, RRGHMG_RegistersAreTheSystemRegisters)
{
    make_trbe();
    ASSERT_EQ(ext_wr(0x000, 0x123456789000), PMT_EXT_OK);
    EXPECT_EQ(rd(PMT_REG_TRBBASER_EL1), 0x123456789000u);
    wr(PMT_REG_TRBPTR_EL1, 0xABC0);
    EXPECT_EQ(ext(0x008), 0xABC0u);
    EXPECT_EQ(ext(0x00C, 4), 0u);
    EXPECT_EQ(ext(0x008, 4), 0xABC0u);
    ASSERT_EQ(ext_wr(0x024, 0x1, 4), PMT_EXT_OK); // TRBTRG_EL1[63:32]: RES0
    ASSERT_EQ(ext_wr(0x020, 0x40, 4), PMT_EXT_OK);
    EXPECT_EQ(rd(PMT_REG_TRBTRG_EL1), 0x40u);
    ASSERT_EQ(ext_wr(0x028, 0xC44), PMT_EXT_OK);
    EXPECT_EQ(rd(PMT_REG_TRBMAR_EL1), 0xC44u);
    EXPECT_EQ(PMT_GET(TRBIDR, Align, ext(0x030)), 6u);
    EXPECT_EQ(PMT_GET(TRBIDR, P, ext(0x030)), 0u); // UNKNOWN externally: reads 0
    ASSERT_EQ(ext_wr(0x030, 0), PMT_EXT_OK);       // RO: ignored
    EXPECT_EQ(ext(0x038), 0u);                     // TRBCR: ManStop is WO/RAZ
}

TEST_F(TrbeExternal, IdentificationRegisters)
{
    cfg.mpidr = 0x81000203;
    cfg.trbe.part_number = 0xD4F;
    cfg.trbe.revision = 2;
    make_trbe();
    EXPECT_EQ(ext(0xFBC, 4), 0x47700A18u);            // TRBDEVARCH: Arm, PRESENT, ARCHPART 0xA18
    EXPECT_EQ(ext(0xFCC, 4), 0x21u);                  // TRBDEVTYPE: trace sink, trace buffer
    EXPECT_EQ(ext(0xFC8, 4), 0u);                     // TRBDEVID
    EXPECT_EQ(ext(0xFC4, 4), 0u);                     // TRBDEVID1 (no FEAT_TRBE_MPAM)
    EXPECT_EQ(ext(0xFC0, 4), 0u);                     // TRBDEVID2
    EXPECT_EQ(ext(0xFB4, 4), 0u);                     // TRBLSR: no software lock
    EXPECT_EQ(ext(0xFA8), 0x81000203u | 0x80000000u); // TRBDEVAFF, bit 31 RAO
    EXPECT_EQ(ext(0xFE0, 4), 0x4Fu);
    EXPECT_EQ(ext(0xFE4, 4), 0xBDu);
    EXPECT_EQ(ext(0xFE8, 4), 0x2Bu);
    EXPECT_EQ(ext(0xFD0, 4), 0x04u);
    EXPECT_EQ(ext(0xFF0, 4), 0x0Du);
    EXPECT_EQ(ext(0xFF4, 4), 0x90u);
    EXPECT_EQ(ext(0xFF8, 4), 0x05u);
    EXPECT_EQ(ext(0xFFC, 4), 0xB1u);
    EXPECT_EQ(ext(0xFB8, 4), 0xFFu); // TRBAUTHSTATUS: NS and S invasive and non-invasive enabled
    cfg.trbe.feat_trbe_exc = true;
    remake_trbe();
    EXPECT_EQ(ext(0xFBC, 4), 0x47710A18u); // REVISION 1: FEAT_TRBEv1p1
}

TEST_F(TrbeExternal, SizesAndAlignment)
{
    make_trbe();
    uint64_t v;
    EXPECT_EQ(ext_rd(0xFBC, &v, 8), PMT_EXT_BAD_SIZE); // a 32-bit register
    EXPECT_EQ(ext_rd(0x004, &v, 8), PMT_EXT_BAD_SIZE); // misaligned
    EXPECT_EQ(ext_rd(0x002, &v, 4), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(ext_rd(0x000, &v, 2), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(ext_rd(0x1000, &v, 4), PMT_EXT_NO_REGISTER);
}

// IDCWTT and the access conditions of H9.4: the Core power domain off or the OS Double Lock
// locked: an error everywhere; the OS Lock or MDCR_EL3.ETBAD: an error for the Trace Buffer
// registers, the identification registers stay readable.
TEST_F(TrbeExternal, IDCWTT_ErrorResponses)
{
    make_trbe();
    uint64_t v;
    state([](pmt_pe_state &s) { s.os_lock = true; });
    EXPECT_EQ(ext_rd(0x000, &v), PMT_EXT_ERROR);
    EXPECT_EQ(ext_wr(0x038, 1), PMT_EXT_ERROR);
    EXPECT_EQ(ext_rd(0xFBC, &v, 4), PMT_EXT_OK);
    state([](pmt_pe_state &s) {
        s.os_lock = false;
        s.double_lock = true;
    });
    EXPECT_EQ(ext_rd(0xFBC, &v, 4), PMT_EXT_ERROR);
    state([](pmt_pe_state &s) {
        s.double_lock = false;
        s.powered_down = true;
    });
    EXPECT_EQ(ext_rd(0xFF0, &v, 4), PMT_EXT_ERROR);
    EXPECT_EQ(ext_rd(0xF04, &v, 4), PMT_EXT_ERROR); // reserved, powered down
}

// MDCR_EL3.ETBAD (AllowExternalTraceBufferAccess): 0b00 allows only Secure accesses without
// FEAT_RME (Root with it), 0b11 allows all.
TEST_F(TrbeExternal, EtbadDisablesNonSecureAccess)
{
    make_trbe(); // MDCR_EL3.ETBAD = 0b00 (its reset value)
    uint64_t v;
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_NONSECURE), PMT_EXT_ERROR);
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_SECURE), PMT_EXT_OK);
    EXPECT_EQ(ext_rd(0xFBC, &v, 4, PMT_SS_NONSECURE), PMT_EXT_OK); // not a Trace Buffer register
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, ETBAD, 3));
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_NONSECURE), PMT_EXT_OK);
}

TEST_F(TrbeExternal, EtbadWithRme)
{
    cfg.have_rme = true;
    make_trbe();
    uint64_t v;
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_SECURE), PMT_EXT_ERROR);
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_ROOT), PMT_EXT_OK);
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, ETBAD, 1));
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_REALM), PMT_EXT_OK);
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_SECURE), PMT_EXT_ERROR);
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, ETBAD, 2));
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_SECURE), PMT_EXT_OK);
    EXPECT_EQ(ext_rd(0x000, &v, 8, PMT_SS_REALM), PMT_EXT_ERROR);
}

// RMXBCY: reserved offsets read as zero, except an error outside 0xF00-0xFFC under the OS Lock,
// OS Double Lock or ETBAD (the choice the rule allows).
TEST_F(TrbeExternal, RMXBCY_ReservedOffsets)
{
    make_trbe();
    uint64_t v = 1;
    EXPECT_EQ(ext_rd(0x048, &v, 8), PMT_EXT_OK);
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(ext_wr(0x048, 5, 8), PMT_EXT_OK);
    EXPECT_EQ(ext_rd(0x040, &v, 8), PMT_EXT_OK); // TRBMPAM_EL1: not implemented
    state([](pmt_pe_state &s) { s.os_lock = true; });
    EXPECT_EQ(ext_rd(0x048, &v, 8), PMT_EXT_ERROR);
    EXPECT_EQ(ext_rd(0xF04, &v, 4), PMT_EXT_OK);
}

// D6.4.2, IKMQKF: an external debugger's session in External mode: program through the frame,
// collect, TRBCR.ManStop, poll {DAT, S} = {0, 1}, disable.
TEST_F(TrbeExternal, IKMQKF_ExternalModeSession)
{
    make_trbe();
    external_mode();
    program_ext(PMT_TRBLIMITR_FM_CIRCULAR);
    EXPECT_TRUE(status().enabled);
    EXPECT_FALSE(status().self_hosted);
    trace(0x100 + 20);
    EXPECT_TRUE(holds(BASE, 0, 0x100));
    ASSERT_FALSE(regimes.empty());
    EXPECT_TRUE(regimes.back().external);           // RNHTSY: physical addresses
    EXPECT_EQ(regimes.back().ss, PMT_SS_NONSECURE); // RXXFVW: TRBMAR_EL1.PAS
    EXPECT_EQ(writes.back().pas, PMT_SS_NONSECURE);
    EXPECT_EQ(TRBSR_F(ext(0x018), DAT), 1u); // accepted, not yet written
    ASSERT_EQ(ext_wr(0x038, PMT_MASK(TRBCR, ManStop)), PMT_EXT_OK);
    uint64_t s = ext(0x018);
    EXPECT_EQ(TRBSR_F(s, DAT), 0u);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_MANUAL_STOP);
    EXPECT_TRUE(holds(BASE, 0, 0x114)); // RWMPMV: all accepted data written
    EXPECT_EQ(ext(0x008), BASE + 0x114);
    ASSERT_EQ(ext_wr(0x010, LIMIT), PMT_EXT_OK); // XE = 0
    EXPECT_FALSE(status().enabled);
}

// RWMPMV, IYBKZD: ManStop goes through a trace unit flush; it raises the event even when
// collection is already stopped (then only IRQ), and even with the unit disabled.
TEST_F(TrbeExternal, RWMPMV_IYBKZD_ManStopAfterAStop)
{
    use_flush_callback = true;
    make_trbe();
    external_mode();
    program_ext();
    trace(0x4000); // buffer full
    ASSERT_EQ(ext_wr(0x018, ext(0x018) & ~PMT_MASK(TRBSR, IRQ)), PMT_EXT_OK);
    ASSERT_EQ(ext_wr(0x038, 1), PMT_EXT_OK);
    EXPECT_EQ(flush_requests, 1);
    EXPECT_EQ(TRBSR_F(ext(0x018), IRQ), 0u); // not before the flush completes
    ASSERT_EQ(pmt_trbe_flush_complete(pe), PMT_OK);
    uint64_t s = ext(0x018);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL); // S was 1: the syndrome stays
}

// RCMYYF: in External mode, TRBMAR_EL1.PAS reserved or prohibited by the authentication
// interface: nothing is written, a management event with BSC 0 (access not allowed).
TEST_F(TrbeExternal, RCMYYF_ProhibitedPhysicalAddressSpace)
{
    make_trbe();
    external_mode();
    program_ext();
    ASSERT_EQ(ext_wr(0x010, 0), PMT_EXT_OK);
    ASSERT_EQ(ext_wr(0x028, PMT_PUT(TRBMAR, PAS, 2)), PMT_EXT_OK); // Root: no FEAT_RME
    ASSERT_EQ(ext_wr(0x010, LIMIT | PMT_MASK(TRBLIMITR, XE)), PMT_EXT_OK);
    trace(64);
    EXPECT_TRUE(writes.empty());
    uint64_t s = ext(0x018);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0u);
    // Non-secure, but external invasive debug of Non-secure state is prohibited.
    ASSERT_EQ(ext_wr(0x010, 0), PMT_EXT_OK);
    ASSERT_EQ(ext_wr(0x018, 0), PMT_EXT_OK);
    ASSERT_EQ(ext_wr(0x028, PMT_PUT(TRBMAR, PAS, 1)), PMT_EXT_OK);
    ASSERT_EQ(ext_wr(0x010, LIMIT | PMT_MASK(TRBLIMITR, XE)), PMT_EXT_OK);
    state([](pmt_pe_state &st) { st.ext_invasive_prohibited = 1u << PMT_SS_NONSECURE; });
    trace(64);
    EXPECT_TRUE(writes.empty());
    EXPECT_EQ(TRBSR_F(ext(0x018), S), 1u);
}

// IWKGWP: in External mode events are recorded in TRBSR_EL1 and no TRBE Profiling exception is
// generated; TRBIRQ follows TRBSR_EL1.IRQ.
TEST_F(TrbeExternal, IWKGWP_ExternalModeUsesTrbsrEl1AndTrbirq)
{
    cfg.trbe.feat_trbe_exc = true;
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3,
           PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 3) | PMT_PUT(MDCR_EL3, ETBAD, 3));
    external_mode();
    program_ext();
    trace(0x4000);
    EXPECT_EQ(TRBSR_F(sr(1), MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(sr(3), 0u);
    EXPECT_TRUE(exceptions.empty());
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
}

// H5.4.9 to H5.4.11: CTI input triggers 8 (stopped: S 0 -> 1), 9 (management: IRQ 0 -> 1), 10
// (wrap, in every mode, each time).
TEST_F(TrbeExternal, CtiTriggersOnStopManagementAndWrap)
{
    make_trbe();
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    trace(2 * 0x4000);
    EXPECT_EQ(cti, (std::vector<unsigned>{PMT_CTI_TRBE_WRAP, PMT_CTI_TRBE_WRAP}));
    cti.clear();
    program_fill();
    trace(0x4000);
    EXPECT_EQ(cti, (std::vector<unsigned>{PMT_CTI_TRBE_WRAP, PMT_CTI_TRBE_MANAGEMENT,
                                          PMT_CTI_TRBE_STOPPED}));
    // IRQ already 1, S already 1: no management or stopped trigger again.
    cti.clear();
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, IRQ));
    trace(0x4000);
    EXPECT_EQ(cti, (std::vector<unsigned>{PMT_CTI_TRBE_WRAP, PMT_CTI_TRBE_STOPPED}));
}

TEST_F(TrbeExternal, NoCtiTriggersWithoutFeatTrbeExt)
{
    cfg.trbe.feat_trbe_ext = false;
    make_trbe();
    program_fill();
    trace(0x4000);
    EXPECT_TRUE(cti.empty());
}

// RWMPMV: the Manual Stop event comes first, then the accepted bytes are written with padding:
// padding that reaches the Limit in Fill mode leaves the Manual Stop syndrome (BSC 0b000011).
TEST_F(TrbeExternal, RWMPMV_ManStopEventBeforeThePaddedWrite)
{
    cfg.trbe.feat_trbe_ext = true;
    cfg.trbe.flush_pad = true;
    make_trbe();
    state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    ASSERT_EQ(pmt_trbe_ext_write(pe, 0x00, 8, PMT_SS_SECURE, BASE), PMT_EXT_OK);       // TRBBASER
    ASSERT_EQ(pmt_trbe_ext_write(pe, 0x08, 8, PMT_SS_SECURE, LIMIT - 64), PMT_EXT_OK); // TRBPTR
    ASSERT_EQ(pmt_trbe_ext_write(pe, 0x28, 8, PMT_SS_SECURE, 1u << 10), PMT_EXT_OK);   // TRBMAR
    ASSERT_EQ(pmt_trbe_ext_write(pe, 0x10, 8, PMT_SS_SECURE,
                                 LIMIT | PMT_MASK(TRBLIMITR, XE) | PMT_PUT(TRBLIMITR, TM, 3)),
              PMT_EXT_OK);
    ASSERT_TRUE(status().running);
    trace(10);
    ASSERT_EQ(pmt_trbe_ext_write(pe, 0x38, 8, PMT_SS_SECURE, 1), PMT_EXT_OK); // TRBCR.ManStop
    uint64_t v = 0;
    ASSERT_EQ(pmt_trbe_ext_read(pe, 0x18, 8, PMT_SS_SECURE, &v), PMT_EXT_OK); // TRBSR_EL1
    EXPECT_EQ(TRBSR_F(v, EC), 0u);
    EXPECT_EQ(v & 0x3F, PMT_TRBSR_BSC_MANUAL_STOP);
    EXPECT_EQ(TRBSR_F(v, S), 1u);
    EXPECT_TRUE(holds(LIMIT - 64, 0, 10)); // the accepted bytes were written
}

} // namespace
