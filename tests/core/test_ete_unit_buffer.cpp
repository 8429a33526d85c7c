// The trace unit buffer (pmt_ete_config.unit_buffer): a held report's bytes wait in the trace
// unit, and the Trace Buffer Unit takes them, before anything else, at the next call that is not
// a held report (pmt_ete.h). The stream is the one the unit makes without the buffer, byte for
// byte; only when the Trace Buffer Unit gets it changes. Only the public C API is used.
#include "ete_trace_fixture.h"

#include <functional>

namespace
{

constexpr uint64_t IND = 0x40005000; // nop; br x0 -> JMP
constexpr uint64_t JMP = 0x40006000; // nop; b IND

class EteUnitBuffer : public EteTrace
{
  protected:
    void SetUp() override
    {
        EteTrace::SetUp();
        img.word(IND, a64_nop);
        img.word(IND + 4, a64_br_x0);
        img.word(JMP, a64_nop);
        img.word(JMP + 4, a64_b(JMP + 4, IND));
        cfg.ete.unit_buffer = 1024;
    }

    // Bytes the Trace Buffer Unit has taken: written to memory, or held for a whole alignment
    // unit (TRBSR_EL1.DAT). Read without a call that would move the buffer's bytes.
    uint64_t taken()
    {
        uint64_t n = 0;
        for (const Write &w : writes)
            n += w.n;
        pmt_trbe_status s{};
        EXPECT_EQ(pmt_trbe_get_status(pe, &s), PMT_OK);
        return n + s.buffered;
    }
    // The PE goes, and what it wrote with it: start() makes the next one.
    void discard()
    {
        pmt_pe_destroy(pe);
        pe = nullptr;
        writes.clear();
    }
    // A timestamp source whose every answer is a new value.
    static uint64_t rising_timestamp(void *u, pmt_ete_timebase)
    {
        auto *t = static_cast<EteUnitBuffer *>(u);
        t->ts_asked++;
        return t->ts_value += 0x100;
    }
    // Bytes in the trace unit buffer: made by the unit, not yet taken.
    uint64_t waiting() { return stats().bytes - taken(); }

    // One run of the loop JMP -> IND -> JMP (after IND's BR), reported as a CPU does
    // (ete_reporter): held when possible, else at its time. The range at JMP follows the BR: its
    // target is due in an Address packet. Returns how many of the two were held.
    unsigned loop_once()
    {
        const pmt_ete_range rs[2] = {{JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND, 1},
                                     {IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP, 1}};
        unsigned n = 0;
        for (const pmt_ete_range &r : rs) {
            const unsigned asked = ts_asked;
            if (pmt_ete_report_range_held(pe, &r)) {
                n++;
                EXPECT_EQ(ts_asked, asked); // a held report never asks the time
            } else {
                EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_OK);
            }
        }
        return n;
    }
    // The first report of the loop, at its time (Trace On), then the loop: the unit traces EL1.
    void begin_loop()
    {
        start();
        range(IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP);
    }
    // A run of the loop, held: the range after the BR has output (its Address packet waits),
    // the next one's atom joins those pending.
    void held_with_output()
    {
        const uint64_t before = waiting();
        ASSERT_TRUE(held(JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND));
        ASSERT_GT(waiting(), before);
        ASSERT_TRUE(held(IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP));
    }
};

TEST_F(EteUnitBuffer, AReportWithOutputIsHeldInTheBuffer)
{
    begin_loop();
    EXPECT_EQ(waiting(), 0u); // a report made at its time leaves nothing waiting
    const uint64_t taken_before = taken();
    const unsigned asked = ts_asked;
    const uint64_t p = rd(PMT_REG_TRBPTR_EL1);
    // Without the buffer, this report is not held (TheRangeAfterAnIndirectBranchIsNotHeld).
    EXPECT_TRUE(held(JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND));
    EXPECT_GT(waiting(), 0u);
    EXPECT_EQ(taken(), taken_before);
    EXPECT_EQ(ts_asked, asked);
    // A read does not move them (trace is in the registers only after a TSB CSYNC: R_VTNCS).
    EXPECT_EQ(rd(PMT_REG_TRBPTR_EL1), p);
    EXPECT_GT(waiting(), 0u);
    expect_ranges(decode_capture(), {range_of(IND, 2, true), range_of(JMP, 2, true)});
}

// Each call that may need the bytes in the Trace Buffer Unit gives them to it first.
TEST_F(EteUnitBuffer, TheBytesGoOutAtTheNextCallThatIsNotAHeldReport)
{
    begin_loop();
    const std::vector<std::pair<const char *, std::function<void()>>> calls = {
        {"pmt_pe_context_sync", [&] { EXPECT_EQ(pmt_pe_context_sync(pe), PMT_OK); }},
        {"pmt_pe_set_state", [&] { go(1); }},
        {"pmt_pe_sysreg_write", [&] { wr(PMT_REG_PMSELR_EL0, 1); }},
        {"pmt_trbe_tsb_csync", [&] { EXPECT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK); }},
        {"pmt_trbe_trace", [&] { EXPECT_EQ(pmt_trbe_trace(pe, nullptr, 0, nullptr), PMT_OK); }},
        {"pmt_trbe_ext_write", [&] { (void)pmt_trbe_ext_write(pe, 0, 8, PMT_SS_NONSECURE, 0); }},
        {"pmt_debug_ext_write",
         [&] { (void)pmt_debug_ext_write(pe, 0xFFC, 4, PMT_SS_NONSECURE, true, 0); }},
        {"pmt_pmu_ext_write",
         [&] { (void)pmt_pmu_ext_write(pe, 0xFFC, 4, PMT_SS_NONSECURE, true, 0); }},
        {"pmt_ete_flush", [&] { EXPECT_EQ(pmt_ete_flush(pe), PMT_OK); }},
        {"pmt_ete_report_context_ids",
         [&] { EXPECT_EQ(pmt_ete_report_context_ids(pe, 0, 0), PMT_OK); }},
        {"pmt_trbe_set_callbacks",
         [&] {
             const pmt_trbe_callbacks cb = trbe_callbacks();
             EXPECT_EQ(pmt_trbe_set_callbacks(pe, &cb), PMT_OK);
         }},
        {"pmt_ete_report_range",
         [&] {
             // The loop's next run made at its time: the buffer's bytes go before its own.
             range(JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND);
             range(IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP);
         }},
    };
    for (const auto &c : calls) {
        held_with_output();
        ASSERT_GT(waiting(), 0u) << c.first;
        c.second();
        EXPECT_EQ(waiting(), 0u) << c.first;
    }
    const decoded d = decode_capture();
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(d.of(kind::range).size(), 2 * calls.size() + 3);
}

// When the buffer has no room for the longest report it could take, the report is made at its
// time, and everything waiting goes out first.
TEST_F(EteUnitBuffer, AReportTheBufferHasNoRoomForIsMadeAtItsTime)
{
    begin_loop();
    std::vector<element> want{range_of(IND, 2, true)};
    unsigned runs = 0;
    while (runs < 1000 && loop_once() == 2) {
        runs++;
        want.push_back(range_of(JMP, 2, true));
        want.push_back(range_of(IND, 2, true));
        EXPECT_LE(waiting(), cfg.ete.unit_buffer);
    }
    ASSERT_LT(runs, 1000u);
    EXPECT_GT(runs, 100u);
    EXPECT_EQ(waiting(), 0u); // the run that was not held took it all out
    want.push_back(range_of(JMP, 2, true));
    want.push_back(range_of(IND, 2, true));
    expect_ranges(decode_capture(), want);
}

// The same reports, made held first as a CPU makes them, with and without the buffer, and with
// Timestamps (each a new value) after the periodic synchronizations (TRCSYNCPR 2^8 bytes): the
// same stream, byte for byte, and no held report asks the time.
TEST_F(EteUnitBuffer, TheStreamIsTheSameWithAndWithoutTheBuffer)
{
    for (const uint64_t configr : {uint64_t{0}, uint64_t{PMT_MASK(TRCCONFIGR, TS)}}) {
        std::vector<uint8_t> capture[2];
        unsigned held_count[2] = {0, 0};
        for (unsigned buffered = 0; buffered < 2; buffered++) {
            cfg.ete.unit_buffer = buffered ? 2048 : 0;
            discard();
            start(configr, 0x201, false);
            wr(PMT_REG_TRCSYNCPR, 8);
            wr(PMT_REG_TRCPRGCTLR, 1);
            go(0);
            ts_value = 0x1000;
            pmt_ete_callbacks cb{};
            cb.user = this;
            cb.timestamp = rising_timestamp;
            ASSERT_EQ(pmt_ete_set_callbacks(pe, &cb), PMT_OK);
            range(IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP);
            for (unsigned n = 0; n < 3000; n++)
                held_count[buffered] += loop_once();
            capture[buffered] = captured();
        }
        EXPECT_GT(capture[0].size(), 3000u) << configr;
        EXPECT_TRUE(capture[1] == capture[0]) << configr;
        EXPECT_GT(held_count[1], held_count[0] + 2000) << configr; // most reports after a BR
        pmt_ete_pkt_config c{};
        c.ts = configr != 0;
        const decoded d = decode(capture[1], img, c);
        EXPECT_EQ(d.errors, 0u);
        if (configr) { // a Timestamp after each synchronization: many inside the run
            EXPECT_GT(d.of(kind::timestamp).size(), 10u);
        }
    }
}

// A program's ranges made as a CPU makes them in batches (pmt_ete_report_ranges_held over what
// is left of the batch, the first not held at its time, then on from the next) give the unit
// exactly what one held report at a time does: the same stream, the same reports held, the same
// questions about the time. The ranges: the loop taken 0..5 times and left, the call, FUNC's BR,
// the loop JMP -> IND -> JMP, IND's BR back to LOOP; with and without the buffer, timestamps and
// a synchronization every 256 bytes.
TEST_F(EteUnitBuffer, RangesInBatchesAreReportedAsOneAtATime)
{
    std::vector<pmt_ete_range> program;
    for (unsigned n = 0; program.size() < 5000; n++) {
        for (unsigned k = 0; k < n % 6; k++)
            program.push_back({LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1});
        program.push_back({LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL, 1});
        program.push_back({CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC, 1});
        program.push_back({FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, JMP, 1});
        program.push_back({JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND, 1});
        program.push_back({IND, IND + 4, PMT_ETE_P0_INDIRECT, true, LOOP, 1});
    }
    for (const unsigned buffer : {0u, 1024u}) {
        std::vector<uint8_t> capture[2];
        pmt_ete_stats end[2];
        unsigned asked[2], held_count[2] = {0, 0};
        for (unsigned batched = 0; batched < 2; batched++) {
            cfg.ete.unit_buffer = buffer;
            discard();
            start(PMT_MASK(TRCCONFIGR, TS), 0x201, false);
            wr(PMT_REG_TRCSYNCPR, 8);
            wr(PMT_REG_TRCPRGCTLR, 1);
            go(0);
            ts_value = 0x1000;
            ts_asked = 0;
            pmt_ete_callbacks cb{};
            cb.user = this;
            cb.timestamp = rising_timestamp;
            ASSERT_EQ(pmt_ete_set_callbacks(pe, &cb), PMT_OK);
            for (size_t i = 0; i < program.size(); i++) {
                if (batched) {
                    const size_t n =
                        pmt_ete_report_ranges_held(pe, &program[i], program.size() - i);
                    held_count[1] += static_cast<unsigned>(n);
                    i += n;
                    if (i == program.size())
                        break;
                } else if (pmt_ete_report_range_held(pe, &program[i])) {
                    held_count[0]++;
                    continue;
                }
                ASSERT_EQ(pmt_ete_report_range(pe, &program[i]), PMT_OK);
            }
            end[batched] = stats();
            asked[batched] = ts_asked;
            capture[batched] = captured();
        }
        EXPECT_GT(capture[0].size(), 2000u) << buffer;
        EXPECT_TRUE(capture[1] == capture[0]) << buffer;
        EXPECT_EQ(held_count[1], held_count[0]) << buffer;
        EXPECT_GT(held_count[0], program.size() / 2) << buffer;
        EXPECT_EQ(asked[1], asked[0]) << buffer;
        EXPECT_EQ(end[1].ranges, program.size()) << buffer;
        EXPECT_EQ(end[1].traced_p0, end[0].traced_p0) << buffer;
        EXPECT_EQ(end[1].bytes, end[0].bytes) << buffer;
        pmt_ete_pkt_config c{};
        c.ts = true;
        EXPECT_EQ(decode(capture[1], img, c).errors, 0u) << buffer;
    }
}

// The bytes waiting are state: saved, restored, and the run goes on the same. A state whose
// buffer holds more than this PE's buffer is refused.
TEST_F(EteUnitBuffer, SaveAndRestoreKeepTheBytesWaiting)
{
    begin_loop();
    held_with_output();
    ASSERT_TRUE(held(JMP, JMP + 4, PMT_ETE_P0_DIRECT, true, IND));
    const uint64_t waiting_at_save = waiting();
    ASSERT_GT(waiting_at_save, 0u);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    const std::vector<uint8_t> ram_at_save = ram;
    const size_t writes_at_save = writes.size();
    // A restore goes back: the bytes waiting in the state it leaves are discarded, not written.
    held_with_output();
    ASSERT_GT(waiting(), waiting_at_save);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_EQ(writes.size(), writes_at_save);
    auto rest = [&] {
        range(IND, IND + 4, PMT_ETE_P0_INDIRECT, true, JMP);
        return captured();
    };
    const std::vector<uint8_t> first = rest();
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    ram = ram_at_save;
    writes.resize(writes_at_save);
    EXPECT_TRUE(rest() == first); // without the bytes that waited, the capture would lack them

    // From a PE with a 4096-byte buffer holding more than 1024 bytes, into one of 1024: refused.
    cfg.ete.unit_buffer = 4096;
    discard();
    begin_loop();
    while (waiting() <= 1024)
        held_with_output();
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    cfg.ete.unit_buffer = 1024;
    remake_trbe();
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
}

TEST_F(EteUnitBuffer, ASizeOutsideTheRangeIsRefused)
{
    cfg.ete.feat_ete = true;
    cfg.trbe.feat_trbe = true;
    for (const unsigned size : {0u, 1024u, 4096u}) {
        cfg.ete.unit_buffer = size;
        pmt_pe *p = pmt_pe_create(&cfg, nullptr);
        EXPECT_NE(p, nullptr) << size;
        pmt_pe_destroy(p);
    }
    for (const bool ete : {true, false}) {
        cfg.ete.feat_ete = ete; // refused without FEAT_ETE too: a restore could fill it
        for (const unsigned size : {1u, 1023u, 4097u, 65536u}) {
            cfg.ete.unit_buffer = size;
            EXPECT_EQ(pmt_pe_create(&cfg, nullptr), nullptr) << size << " " << ete;
        }
    }
}

} // namespace
