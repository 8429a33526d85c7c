// The write path (D6.1, D6.2, D6.5.2): accepting and discarding trace, alignment units, TSB CSYNC,
// the three trace buffer modes at the Limit pointer, TRB_WRAP, batching, and what the unit does
// with bad programming.
#include "trbe_fixture.h"

namespace
{

class TrbeWrite : public TrbeTest
{
  protected:
    // PMU counter 0 counts `event` at Non-secure EL1.
    void count_in_pmu(uint16_t event)
    {
        wr_el(2, PMT_REG_PMEVTYPER_EL0, event | PMT_MASK(PMEVTYPER, NSH));
        wr_el(2, PMT_REG_PMCNTENSET_EL0, 1);
        wr_el(2, PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E));
    }
    uint64_t counter0() { return rd_el(2, PMT_REG_PMEVCNTR_EL0); }
};

// RHNTLG: a disabled unit discards trace.
TEST_F(TrbeWrite, RHNTLG_DisabledUnitDiscardsTrace)
{
    make_trbe();
    wr(PMT_REG_TRBBASER_EL1, BASE);
    wr(PMT_REG_TRBPTR_EL1, BASE);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT); // E = 0
    trace(256);
    EXPECT_TRUE(writes.empty());
    EXPECT_EQ(ptr(), BASE);
}

// RYMYQX: enabled and running, the unit accepts trace and writes it at the current write pointer,
// which advances (RVHNTF).
TEST_F(TrbeWrite, RYMYQX_RunningUnitWritesAtTheWritePointer)
{
    make_trbe();
    program_fill(BASE + 0x100);
    trace(0x200);
    EXPECT_TRUE(holds(BASE + 0x100, 0, 0x200));
    EXPECT_EQ(ptr(), BASE + 0x300);
    EXPECT_TRUE(untouched(BASE, 0x100));
    EXPECT_EQ(sr(), 0u);
}

// RYMVZL: enabled with collection stopped (TRBSR_EL1.S = 1): trace is discarded.
TEST_F(TrbeWrite, RYMVZL_StoppedUnitDiscardsTrace)
{
    make_trbe();
    program_fill();
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, S));
    trace(128);
    EXPECT_TRUE(writes.empty());
    EXPECT_TRUE(status().enabled);
    EXPECT_FALSE(status().running);
}

// RBGBCJ: the current write pointer is not incremented when collection is stopped.
TEST_F(TrbeWrite, RBGBCJ_PointerDoesNotMoveWhileStopped)
{
    make_trbe();
    program_fill();
    trace(64);
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, S));
    trace(64);
    EXPECT_EQ(ptr(), BASE + 64);
}

// IBTSCF, IQQKZF: bytes are collected into TRBIDR_EL1.Align units; a partial unit is not yet in
// memory and TRBPTR_EL1 has not moved.
TEST_F(TrbeWrite, IBTSCF_BytesAreWrittenInAlignmentUnits)
{
    make_trbe(); // Align = 6: 64-byte units
    program_fill();
    trace(16);
    EXPECT_TRUE(writes.empty());
    EXPECT_EQ(ptr(), BASE);
    EXPECT_EQ(status().buffered, 16u);
    trace(48);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].n, 64u);
    EXPECT_TRUE(holds(BASE, 0, 64));
    EXPECT_EQ(ptr(), BASE + 64);
    EXPECT_EQ(status().buffered, 0u);
}

// RJQDJD, RNSFRQ: TSB CSYNC completes every accepted trace operation, so TRBPTR_EL1 and memory
// agree. Without padding the pointer is then misaligned: a valid restart value (RHXZZM).
TEST_F(TrbeWrite, RJQDJD_TsbCsyncWritesAcceptedBytesAndTheRestartValueWorks)
{
    make_trbe();
    program_fill();
    trace(100);
    csync();
    EXPECT_TRUE(holds(BASE, 0, 100));
    EXPECT_EQ(ptr(), BASE + 100);
    // Disable, read the pointer, write it back, enable again (a context switch, ISFTPM).
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT);
    uint64_t p = rd(PMT_REG_TRBPTR_EL1);
    wr(PMT_REG_TRBPTR_EL1, p);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, 3));
    trace(200);
    csync();
    EXPECT_TRUE(holds(BASE, 0, 300));
    EXPECT_EQ(ptr(), BASE + 300);
    EXPECT_EQ(sr(), 0u); // no Alignment fault for a restart value
    EXPECT_FALSE(logged("RJWWWM"));
}

TEST_F(TrbeWrite, FlushPadCompletesThePartialUnitWithPadBytes)
{
    cfg.trbe.flush_pad = true;
    make_trbe();
    program_fill();
    trace(10);
    csync();
    EXPECT_EQ(ptr(), BASE + 64);
    EXPECT_TRUE(holds(BASE, 0, 10));
    for (uint64_t a = BASE + 10; a < BASE + 64; a++)
        EXPECT_EQ(mem(a), 0x70); // the ETE Ignore packet
}

TEST_F(TrbeWrite, ByteAlignmentWritesEveryByteAtOnce)
{
    cfg.trbe.align = 0;
    make_trbe();
    program_fill();
    trace(3);
    EXPECT_EQ(ptr(), BASE + 3);
    EXPECT_TRUE(holds(BASE, 0, 3));
}

// ITRWFM: disabling the unit with accepted bytes not yet written discards them (the CONSTRAINED
// UNPREDICTABLE choice of docs/choices.md) and says so.
TEST_F(TrbeWrite, ITRWFM_DisablingWithoutTsbCsyncDiscardsBufferedBytes)
{
    make_trbe();
    program_fill();
    trace(10);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT);
    EXPECT_TRUE(logged("ITRWFM"));
    EXPECT_TRUE(writes.empty());
    EXPECT_EQ(ptr(), BASE);
}

// RMBSHC: Fill mode at the Limit pointer: IRQ = 1, WRAP = 1, TRB_WRAP, and S = 1, EC = 0,
// BSC = buffer full; the pointer is the Base pointer; the rest is discarded (RYMVZL).
TEST_F(TrbeWrite, RMBSHC_FillModeStopsAtTheLimitWithBufferFull)
{
    make_trbe();
    count_in_pmu(PMT_EV_TRB_WRAP);
    program_fill();
    trace(0x4000 + 64);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, WRAP), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), PMT_TRBSR_EC_OTHER);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(ptr(), BASE);
    EXPECT_TRUE(holds(BASE, 0, 0x4000));
    EXPECT_EQ(counter0(), 1u);
    EXPECT_EQ(events, std::vector<uint16_t>{PMT_EV_TRB_WRAP});
    EXPECT_EQ(trbirq, std::vector<bool>{true});
}

// RVBDJZ: Wrap mode: IRQ = 1, WRAP = 1, TRB_WRAP; S unchanged, trace continues at the Base
// pointer.
TEST_F(TrbeWrite, RVBDJZ_WrapModeRaisesIrqAndCarriesOn)
{
    make_trbe();
    count_in_pmu(PMT_EV_TRB_WRAP);
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    trace(0x4000 + 128);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 0u);
    EXPECT_EQ(TRBSR_F(s, WRAP), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0u);
    EXPECT_EQ(ptr(), BASE + 128);
    EXPECT_TRUE(holds(BASE, 0x4000, 128));
    EXPECT_EQ(counter0(), 1u);
    EXPECT_TRUE(status().running);
}

// RGDSTS: Circular Buffer mode: WRAP = 1 and TRB_WRAP only; no management event.
TEST_F(TrbeWrite, RGDSTS_CircularBufferModeOnlySetsWrap)
{
    make_trbe();
    count_in_pmu(PMT_EV_TRB_WRAP);
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    trace(3 * 0x4000 + 64);
    EXPECT_EQ(sr(), PMT_MASK(TRBSR, WRAP));
    EXPECT_EQ(ptr(), BASE + 64);
    EXPECT_EQ(counter0(), 3u);
    EXPECT_TRUE(trbirq.empty());
}

// RVHNTF: the wrap happens on the byte at Limit - 1, and RFVPBS: the Limit pointer is not in the
// buffer.
TEST_F(TrbeWrite, RVHNTF_TheByteAtLimitMinusOneWrapsThePointer)
{
    cfg.trbe.align = 0;
    make_trbe();
    program(BASE, LIMIT, LIMIT - 2, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    trace(1);
    EXPECT_EQ(ptr(), LIMIT - 1);
    EXPECT_EQ(sr(), 0u);
    trace(1);
    EXPECT_EQ(ptr(), BASE);
    EXPECT_EQ(sr(), PMT_MASK(TRBSR, WRAP));
    EXPECT_TRUE(untouched(LIMIT, 1));
}

// RVSCDV, RLRTBP: without FEAT_TRBE_EXC TRBIRQ follows TRBSR_EL1.IRQ, a level that falls when
// software clears the bit.
TEST_F(TrbeWrite, RVSCDV_TrbirqFollowsTrbsrEl1IrqAndFallsWhenCleared)
{
    make_trbe();
    program_fill();
    trace(0x4000);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    uint64_t s = rd(PMT_REG_TRBSR_EL1);
    wr(PMT_REG_TRBSR_EL1, s & ~PMT_MASK(TRBSR, IRQ));
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
    EXPECT_EQ(trbirq, (std::vector<bool>{true, false}));
    // Software writing IRQ = 1 raises it too.
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, IRQ));
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
}

TEST_F(TrbeWrite, AFourKibChunkIntoAPageCostsOneTranslationAndOneWrite)
{
    make_trbe();
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    trace(4096);
    EXPECT_EQ(translated.size(), 1u);
    EXPECT_EQ(writes.size(), 1u);
    trace(4096 + 64); // a page and a unit: two pages
    EXPECT_EQ(translated.size(), 3u);
    EXPECT_EQ(writes.size(), 3u);
}

// RXRNCQ, RCMDTG: the pointers are virtual addresses translated page by page.
TEST_F(TrbeWrite, RXRNCQ_VirtualPagesMapToScatteredPhysicalPages)
{
    make_trbe();
    const uint64_t va = 0xFFFF800000100000;
    va_page_to_pa[va >> 12] = RAM + 0x3000;
    va_page_to_pa[(va >> 12) + 1] = RAM + 0x1000;
    program(va, va + 0x2000, va, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    trace(0x2000);
    EXPECT_TRUE(holds(RAM + 0x3000, 0, 0x1000));
    EXPECT_TRUE(holds(RAM + 0x1000, 0x1000, 0x1000));
    EXPECT_EQ(ptr(), va);
    EXPECT_EQ(TRBSR_F(sr(), MSS), PMT_TRBSR_BSC_FULL);
}

// RPBZRZ, RMXRFD: with nVM = 1 the pointer is a physical address; a bit at or above PAMax gives
// a stage 1 Address Size fault, level 0.
TEST_F(TrbeWrite, RMXRFD_PhysicalPointerAbovePamaxTakesAnAddressSizeFault)
{
    make_trbe(); // pa_bits = 48
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE,
            PMT_MASK(TRBLIMITR, nVM));
    trace(64);
    ASSERT_FALSE(regimes.empty());
    EXPECT_TRUE(regimes.back().nvm);
    EXPECT_TRUE(holds(BASE, 0, 64));
    const uint64_t high = uint64_t{1} << 48;
    program(high, high + 0x1000, high, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE,
            PMT_MASK(TRBLIMITR, nVM));
    size_t before = writes.size();
    trace(64);
    EXPECT_EQ(writes.size(), before);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EC), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(TRBSR_F(s, MSS), 0x00u); // Address size fault, level 0
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(ptr(), high);
}

TEST_F(TrbeWrite, WithoutAMemoryPortTheIdentityTranslationAndADroppingWriteAreUsed)
{
    no_memory_port = true;
    make_trbe();
    program_fill();
    trace(0x4000);
    EXPECT_EQ(TRBSR_F(sr(), MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_TRUE(untouched(BASE, 0x4000));
}

TEST_F(TrbeWrite, StatusHeadroomCountsBytesBeforeTheWrap)
{
    make_trbe();
    program_fill(LIMIT - 0x100);
    EXPECT_EQ(status().headroom, 0xFFu);
    trace(0xFF);
    EXPECT_EQ(sr(), 0u);
    trace(1);
    EXPECT_EQ(TRBSR_F(sr(), S), 1u);
    EXPECT_EQ(status().headroom, UINT64_MAX); // stopped: everything is discarded
}

TEST_F(TrbeWrite, SaveAndRestoreKeepTheBufferedBytes)
{
    make_trbe();
    program_fill();
    trace(40);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    trace(24);
    csync();
    std::fill(ram.begin(), ram.end(), 0xEE);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_EQ(status().buffered, 40u);
    csync();
    EXPECT_TRUE(holds(BASE, 0, 40));
    EXPECT_EQ(ptr(), BASE + 40);
}

TEST_F(TrbeWrite, RestoreRefusesABufferThatDoesNotFitTheUnit)
{
    make_trbe();
    program_fill(BASE + 60);
    trace(2);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    // Corrupt: a different configuration (Align 0) cannot hold 2 buffered bytes at BASE + 60.
    cfg.trbe.align = 0;
    remake_trbe();
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
}

// --- Bad programming: documented behaviour and a log line naming the rule -------------------

// RMSPSD, RMGZWR: Limit not above Base: every pointer is out-of-range; enabling logs it and the
// first trace raises a management event (EC 0x00, BSC 0) without writing.
TEST_F(TrbeWrite, RMSPSD_LimitBelowBaseIsLoggedAndRaisesAnEvent)
{
    make_trbe();
    program(LIMIT, BASE, LIMIT, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    EXPECT_TRUE(logged("RMSPSD"));
    trace(64);
    EXPECT_TRUE(writes.empty());
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0u);
    EXPECT_TRUE(logged("RMGZWR"));
}

// RMSPSD: a pointer outside [Base, Limit), or with bits [63:56] unlike the Base pointer's.
TEST_F(TrbeWrite, RMSPSD_OutOfRangePointersWriteNothing)
{
    for (uint64_t p : {BASE - 64, LIMIT, BASE | (uint64_t{0x12} << 56)}) {
        log_lines.clear();
        writes.clear();
        remake_trbe();
        program_fill(p);
        EXPECT_TRUE(logged("RMSPSD")) << std::hex << p;
        trace(64);
        EXPECT_TRUE(writes.empty()) << std::hex << p;
        EXPECT_EQ(TRBSR_F(sr(), S), 1u);
    }
}

// RHXZZM, ISFTPM: a misaligned restart value read after TSB CSYNC and written back after a
// context switch (another buffer used in between) restarts without an Alignment fault.
TEST_F(TrbeWrite, RHXZZM_ContextSwitchedRestartValueRestarts)
{
    make_trbe();
    program_fill();
    trace(10);
    csync();
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    uint64_t saved = rd(PMT_REG_TRBPTR_EL1);
    ASSERT_EQ(saved, BASE + 10);
    program(BASE + 0x2000, LIMIT, BASE + 0x2000, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    trace(64); // another context
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    wr(PMT_REG_TRBSR_EL1, 0);
    wr(PMT_REG_TRBBASER_EL1, BASE);
    wr(PMT_REG_TRBPTR_EL1, saved);
    wr(PMT_REG_TRBLIMITR_EL1,
       LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE));
    trace(64);
    csync();
    EXPECT_EQ(sr(), 0u);
    EXPECT_EQ(ptr(), BASE + 10 + 64);
    EXPECT_FALSE(logged("RJWWWM"));
}

// RJWWWM, RMGZWR with misaligned_ptr_fault: a misaligned pointer that is not the value the unit
// left: the write takes an Alignment fault (EC 0x24, FSC 0x21), TRBPTR_EL1 the faulting address.
TEST_F(TrbeWrite, RJWWWM_MisalignedPointerTakesAnAlignmentFault)
{
    cfg.trbe.misaligned_ptr_fault = true;
    make_trbe();
    program_fill(BASE + 8);
    EXPECT_TRUE(logged("RJWWWM"));
    EXPECT_EQ(rd(PMT_REG_TRBPTR_EL1), BASE + 8); // reads return the value (UNKNOWN allowed)
    trace(64);
    EXPECT_TRUE(writes.empty());
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EC), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(TRBSR_F(s, MSS), 0x21u);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(ptr(), BASE + 8);
}

// RDJMDD: writes while enabled take effect by default, with a log line; the option ignores them.
TEST_F(TrbeWrite, RDJMDD_WritesWhileEnabledAreLoggedAndOptionallyIgnored)
{
    make_trbe();
    program_fill();
    wr(PMT_REG_TRBBASER_EL1, BASE + 0x1000);
    EXPECT_TRUE(logged("RDJMDD"));
    EXPECT_EQ(rd(PMT_REG_TRBBASER_EL1), BASE + 0x1000);
    cfg.trbe.ignore_writes_while_enabled = true;
    remake_trbe();
    program_fill();
    wr(PMT_REG_TRBBASER_EL1, BASE + 0x1000);
    wr(PMT_REG_TRBTRG_EL1, 0x40);
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, S));
    EXPECT_EQ(rd(PMT_REG_TRBBASER_EL1), BASE);
    EXPECT_EQ(rd(PMT_REG_TRBTRG_EL1), 0u);
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), 0u);
    // A write that clears E always takes effect.
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT);
    EXPECT_FALSE(status().enabled);
}

TEST_F(TrbeWrite, ReservedFillModeBehavesAsFillAndIsLogged)
{
    make_trbe();
    program(BASE, LIMIT, BASE, 2, PMT_TRBLIMITR_TM_IGNORE);
    EXPECT_TRUE(logged("FM = 0b10 is reserved"));
    trace(0x4000);
    EXPECT_EQ(TRBSR_F(sr(), MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(PMT_GET(TRBLIMITR, FM, rd(PMT_REG_TRBLIMITR_EL1)), 2u);
}

TEST_F(TrbeWrite, WritingTrbptrWithBufferedBytesDiscardsThem)
{
    make_trbe();
    program_fill();
    trace(16);
    wr(PMT_REG_TRBPTR_EL1, BASE + 0x1000);
    EXPECT_TRUE(logged("ITRWFM"));
    EXPECT_EQ(status().buffered, 0u);
}

} // namespace
