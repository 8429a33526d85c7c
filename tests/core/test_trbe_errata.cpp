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

// Context synchronization after enable (ARM64_WORKAROUND_2038923, Cortex-A510 erratum 2038923).
// Architecturally the trace after a Context synchronization event observes the System register
// writes before it (D6.6 RBFJKD, SYPWVJ: an ERET into a region where trace is allowed), and the
// model, which applies writes at once, lets TraceAllowed follow every change of the PE state.
// With the erratum, the PE's view of the prohibited regions is the one at the write that set
// TRBLIMITR_EL1.E until the second Context synchronization event after it
// (pmt_pe_context_sync); exception entry and return are not counted (docs/choices.md).
class TrbeCtxtSyncErratum : public TrbeErrata
{
  protected:
    // TRFCR_EL1 allows trace at EL0 only (trace at EL1 prohibited), or at EL1 only.
    static constexpr uint64_t EL0_ONLY = PMT_MASK(TRFCR_EL1, E0TRE);
    static constexpr uint64_t EL1_ONLY = PMT_MASK(TRFCR_EL1, E1TRE);
    // At EL1, with TRFCR_EL1 = trfcr, the unit enabled by a System register write.
    void enable_at_el1(uint64_t trfcr)
    {
        make_trbe();
        wr(PMT_REG_TRFCR_EL1, trfcr);
        program_fill();
    }
    void context_sync() { ASSERT_EQ(pmt_pe_context_sync(pe), PMT_OK); }
    size_t times_logged()
    {
        size_t n = 0;
        for (const auto &l : log_lines)
            n += l.find("ARM64_WORKAROUND_2038923") != std::string::npos;
        return n;
    }
};

TEST_F(TrbeCtxtSyncErratum, OffIsArchitectural)
{
    enable_at_el1(EL0_ONLY);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe)); // EL1: E1TRE = 0
    go(0);                                    // the exception return, no ISB before it
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));  // EL0: E0TRE = 1
    EXPECT_EQ(times_logged(), 0u);
}

// From a prohibited context (EL1) to an allowed one (EL0) after a single ISB: the PE still sees
// trace as prohibited, so the trace of EL0 would be lost, until a second ISB.
TEST_F(TrbeCtxtSyncErratum, OnASingleContextSyncLeavesTheProhibitedView)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL0_ONLY);
    context_sync(); // the ISB after the enabling write (set_trbe_enabled)
    go(0);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    EXPECT_EQ(times_logged(), 1u);
    context_sync(); // the second one
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));
}

// The other way: from an allowed context (EL1) to a prohibited one (EL0): the PE still sees
// trace as allowed, so trace the architecture prohibits would reach the buffer.
TEST_F(TrbeCtxtSyncErratum, OnAllowedViewOutlivesTheMoveToAProhibitedContext)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL1_ONLY);
    go(0);
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));
    EXPECT_TRUE(logged("trace is allowed here although the architecture prohibits it"));
    context_sync();
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe)); // one is not enough
    context_sync();
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
}

// The workaround (TRBE_NEEDS_CTXT_SYNC_AFTER_ENABLE): two ISBs after the enabling write, before
// the change of context: the architectural result, and nothing logged.
TEST_F(TrbeCtxtSyncErratum, TwoContextSyncsAfterTheEnableAreTheWorkaround)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL0_ONLY);
    context_sync();
    context_sync();
    go(0);
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));
    go(1);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    EXPECT_EQ(times_logged(), 0u);
}

// One log line per enabling write, however often the stale view is used; a write that leaves E
// set, or clears it, keeps nothing; the next enabling write keeps the view again.
TEST_F(TrbeCtxtSyncErratum, LoggedOncePerEnablingWrite)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL0_ONLY);
    context_sync();
    context_sync();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E)); // E was already 1
    go(0);
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));
    EXPECT_EQ(times_logged(), 0u);
    go(1);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT); // disables
    go(0);
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe));
    go(1);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E));
    go(0);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    EXPECT_EQ(times_logged(), 1u);
    go(1);
    context_sync();
    context_sync();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E));
    go(0);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    EXPECT_EQ(times_logged(), 2u);
}

// Debug state has no trace (J1.3.4.42), stale view or not.
TEST_F(TrbeCtxtSyncErratum, NoTraceInDebugStateWhateverTheView)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL1_ONLY);
    state([](pmt_pe_state &s) { s.debug = true; });
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
}

TEST_F(TrbeCtxtSyncErratum, ContextSyncRefusesNull)
{
    EXPECT_EQ(pmt_pe_context_sync(nullptr), PMT_ERR_NULL);
    EXPECT_FALSE(pmt_trbe_trace_allowed(nullptr));
}

// The kept view and the count of Context synchronization events still needed are in the saved
// state: a model restored between the two ISBs keeps the stale view until one more. On restore
// the view must be 0 or 1 and the count at most 2.
TEST_F(TrbeCtxtSyncErratum, SaveAndRestoreMidErratum)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL1_ONLY); // the kept view: allowed
    std::vector<uint8_t> fresh(pmt_pe_state_size(pe)), mid(fresh.size()), after(fresh.size());
    ASSERT_EQ(pmt_pe_save(pe, fresh.data(), fresh.size()), PMT_OK);
    context_sync();
    ASSERT_EQ(pmt_pe_save(pe, mid.data(), mid.size()), PMT_OK);
    context_sync();
    ASSERT_EQ(pmt_pe_save(pe, after.data(), after.size()), PMT_OK);
    go(0);
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe)); // architectural again
    ASSERT_EQ(pmt_pe_restore(pe, mid.data(), mid.size()), PMT_OK);
    go(0);
    EXPECT_TRUE(pmt_trbe_trace_allowed(pe)); // the kept view is back
    context_sync();
    EXPECT_FALSE(pmt_trbe_trace_allowed(pe));
    std::vector<size_t> differ;
    for (size_t i = 0; i < mid.size(); i++)
        if (mid[i] != after[i])
            differ.push_back(i);
    ASSERT_EQ(differ.size(), 2u); // the view (1, then 0 once not in use) and the count (1, 0)
    for (size_t i : differ) {
        std::vector<uint8_t> bad = mid;
        bad[i] = 0xFF;
        EXPECT_EQ(pmt_pe_restore(pe, bad.data(), bad.size()), PMT_ERR_STATE_BLOB) << i;
        bad[i] = 3;
        EXPECT_EQ(pmt_pe_restore(pe, bad.data(), bad.size()), PMT_ERR_STATE_BLOB) << i;
    }
    // Right after the write the count is 2 and the view 1: a view kept with no count is not a
    // state of the unit; a count with the view "prohibited" is.
    const size_t view = fresh[differ[0]] == 1 ? differ[0] : differ[1];
    const size_t count = view == differ[0] ? differ[1] : differ[0];
    ASSERT_EQ(fresh[count], 2u);
    std::vector<uint8_t> bad = after;
    bad[view] = 1;
    EXPECT_EQ(pmt_pe_restore(pe, bad.data(), bad.size()), PMT_ERR_STATE_BLOB);
    bad = after;
    bad[count] = 1;
    EXPECT_EQ(pmt_pe_restore(pe, bad.data(), bad.size()), PMT_OK);
}

// A state in the middle of the erratum is not one a model without the option can be in.
TEST_F(TrbeCtxtSyncErratum, RestoreWithoutTheOptionRefusesAStateMidErratum)
{
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    enable_at_el1(EL1_ONLY);
    std::vector<uint8_t> mid(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, mid.data(), mid.size()), PMT_OK);
    cfg.trbe.erratum_ctxt_sync_after_enable = false;
    remake_trbe();
    log_lines.clear();
    EXPECT_EQ(pmt_pe_restore(pe, mid.data(), mid.size()), PMT_ERR_STATE_BLOB);
    EXPECT_TRUE(logged("not a state of this model: the erratum state"));
}

} // namespace
