// test_trbe_errata.cpp - the silicon errata options of the Trace Buffer Unit (pmt_trbe_config
// erratum_*, docs/choices.md "Errata"): each behaviour with its option on, and the architectural
// behaviour with it off.
#include "trbe_fixture.h"

namespace
{

class TrbeErrata : public TrbeTest
{
  protected:
    static constexpr uint64_t SIZE = LIMIT - BASE;
};

// Overwrite in Fill mode (ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE). Architecturally (RMBSHC)
// the wrap in Fill mode stops collection with TRBPTR_EL1 at the Base pointer and nothing more
// is written; with the erratum, up to erratum_fill_overwrite_bytes more bytes of the same trace
// overwrite the start of the buffer and TRBPTR_EL1 is left after them.
TEST_F(TrbeErrata, FillOverwrite_OffIsArchitectural)
{
    make_trbe();
    program_fill();
    trace(SIZE + 0x200);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(ptr(), BASE); // what coresight-trbe checks for a clean Fill event
    EXPECT_TRUE(holds(BASE, 0, SIZE));
}

TEST_F(TrbeErrata, FillOverwrite_OnOverwritesTheBufferStart)
{
    cfg.trbe.erratum_fill_overwrite = true;
    cfg.trbe.erratum_fill_overwrite_bytes = 256;
    make_trbe();
    program_fill();
    trace(SIZE + 0x200);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(ptr(), BASE + 256);                    // not the Base pointer
    EXPECT_TRUE(holds(BASE, SIZE, 256));             // the next 256 bytes overwrote the start
    EXPECT_TRUE(holds(BASE + 256, 256, SIZE - 256)); // the rest is the first pass
    EXPECT_TRUE(logged("erratum_fill_overwrite"));
    // Wrap mode is not affected.
    remake_trbe();
    std::fill(ram.begin(), ram.end(), 0xEE);
    stream_pos = 0;
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    trace(SIZE + 0x200);
    EXPECT_EQ(ptr(), BASE + 0x200);
    // A value outside 1..256 is refused at create.
    pmt_pe_config c = cfg;
    c.trbe.erratum_fill_overwrite_bytes = 0;
    EXPECT_EQ(pmt_pe_create(&c, nullptr), nullptr);
    c.trbe.erratum_fill_overwrite_bytes = 257;
    EXPECT_EQ(pmt_pe_create(&c, nullptr), nullptr);
}

// Write out of range (ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE). Architecturally nothing is
// written at or above the Limit pointer (RVHNTF: the pointer wraps to the Base pointer); with
// the erratum, up to 64 bytes of the trace that follows the wrap are also written from the
// Limit pointer on.
TEST_F(TrbeErrata, WriteOutOfRange_OffWritesNothingAtTheLimit)
{
    make_trbe();
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    trace(SIZE + 0x100);
    EXPECT_TRUE(untouched(LIMIT, 0x1000));
    EXPECT_TRUE(holds(BASE, SIZE, 0x100));
}

TEST_F(TrbeErrata, WriteOutOfRange_OnWrites64BytesAtTheLimit)
{
    cfg.trbe.erratum_write_out_of_range = true;
    make_trbe();
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    trace(SIZE + 0x100);
    EXPECT_TRUE(holds(LIMIT, SIZE, 64));
    EXPECT_TRUE(untouched(LIMIT + 64, 0x1000 - 64));
    EXPECT_TRUE(holds(BASE, SIZE, 0x100)); // the architectural write still happens
    EXPECT_EQ(ptr(), BASE + 0x100);
    EXPECT_TRUE(logged("erratum_write_out_of_range"));
    // In Fill mode too: the bytes after the stop reach the page above the Limit pointer.
    remake_trbe();
    std::fill(ram.begin(), ram.end(), 0xEE);
    stream_pos = 0;
    program_fill();
    trace(SIZE + 0x100);
    EXPECT_TRUE(holds(LIMIT, SIZE, 64));
    EXPECT_EQ(ptr(), BASE);
}

// Drain after disable (ARM64_WORKAROUND_2064142). Architecturally a write to TRBPTR_EL1 after
// the unit is disabled takes effect; with the erratum, System register writes are ignored after
// a write that clears TRBLIMITR_EL1.E until a TSB CSYNC: the driver's workaround (TSB CSYNC
// after disabling) makes them take effect again.
TEST_F(TrbeErrata, DrainAfterDisable_OffWritesTakeEffect)
{
    make_trbe();
    program_fill();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT); // E = 0
    wr(PMT_REG_TRBPTR_EL1, BASE + 0x1000);
    EXPECT_EQ(ptr(), BASE + 0x1000);
}

TEST_F(TrbeErrata, DrainAfterDisable_OnWritesIgnoredUntilTsbCsync)
{
    cfg.trbe.erratum_drain_after_disable = true;
    make_trbe();
    program_fill();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT); // E = 0
    log_lines.clear();
    wr(PMT_REG_TRBPTR_EL1, BASE + 0x1000);
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, IRQ));
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E));
    EXPECT_EQ(ptr(), BASE);
    EXPECT_EQ(sr(), 0u);
    EXPECT_FALSE(status().enabled);
    EXPECT_TRUE(logged("ARM64_WORKAROUND_2064142"));
    // The workaround: TSB CSYNC after the disable.
    ASSERT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
    wr(PMT_REG_TRBPTR_EL1, BASE + 0x1000);
    EXPECT_EQ(ptr(), BASE + 0x1000);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E));
    EXPECT_TRUE(status().enabled);
    // A disable followed at once by TSB CSYNC leaves nothing ignored.
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT);
    ASSERT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
    wr(PMT_REG_TRBPTR_EL1, BASE);
    EXPECT_EQ(ptr(), BASE);
}

// The erratum's "disabled, not drained" flag is in the saved state (a model restored between
// the disable and the TSB CSYNC ignores the writes as the saved one does) and, like every bool
// of a blob, must be 0 or 1 on restore (found by fuzz_restore: a 255 there was read as a bool).
TEST_F(TrbeErrata, DrainAfterDisable_RestoreRefusesAFlagOtherThanFalseOrTrue)
{
    cfg.trbe.erratum_drain_after_disable = true;
    make_trbe();
    program_fill();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT); // E = 0: writes ignored until a TSB CSYNC
    std::vector<uint8_t> undrained(pmt_pe_state_size(pe)), drained(undrained.size());
    ASSERT_EQ(pmt_pe_save(pe, undrained.data(), undrained.size()), PMT_OK);
    ASSERT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
    ASSERT_EQ(pmt_pe_save(pe, drained.data(), drained.size()), PMT_OK);
    std::vector<size_t> differ;
    for (size_t i = 0; i < undrained.size(); i++)
        if (undrained[i] != drained[i])
            differ.push_back(i);
    ASSERT_EQ(differ.size(), 1u); // the flag: 1 before the TSB CSYNC, 0 after
    ASSERT_EQ(undrained[differ[0]], 1u);
    ASSERT_EQ(pmt_pe_restore(pe, undrained.data(), undrained.size()), PMT_OK);
    wr(PMT_REG_TRBPTR_EL1, BASE + 0x1000);
    EXPECT_EQ(ptr(), BASE); // ignored, as before the save
    undrained[differ[0]] = 0xFF;
    EXPECT_EQ(pmt_pe_restore(pe, undrained.data(), undrained.size()), PMT_ERR_STATE_BLOB);
}

} // namespace
