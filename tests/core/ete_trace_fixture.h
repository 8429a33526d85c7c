// ete_trace_fixture.h - the trace unit's tests through the public C API (test_ete_trace.cpp,
// test_ete_unit_buffer.cpp): a PE with FEAT_ETE and FEAT_TRBE whose trace goes to fake memory,
// a small program image for OpenCSD to decode the capture against, and the reports' helpers.
#ifndef PMTRACE_TESTS_ETE_TRACE_FIXTURE_H
#define PMTRACE_TESTS_ETE_TRACE_FIXTURE_H

#include "ete_decode.h"
#include "trbe_fixture.h"

using namespace ete_test;

namespace
{

constexpr uint64_t LOOP = 0x40001000; // nop; nop; b.ne LOOP  (three instructions)
constexpr uint64_t CALL = 0x4000100C; // b FUNC
constexpr uint64_t FUNC = 0x40002000; // nop; br x0 -> BACK
constexpr uint64_t BACK = 0x40003000; // nop; svc #0
constexpr uint64_t VEC = 0x40004000;  // nop; eret -> BACK + 8
constexpr uint64_t AFTER = BACK + 8;  // nop; b AFTER (itself)

class EteTrace : public TrbeTest
{
  protected:
    image img;
    uint64_t ts_value = 0x1234;
    unsigned ts_asked = 0; // timestamp callbacks: each is a question about the time of a report
    uint64_t clock = 0;    // the PE's cycles now (pmt_ete_callbacks.cycles)
    unsigned cycles_asked = 0;
    bool cycle_source = true; // start() connects the cycles callback

    void SetUp() override
    {
        img.word(LOOP, a64_nop);
        img.word(LOOP + 4, a64_nop);
        img.word(LOOP + 8, a64_b_ne(LOOP + 8, LOOP));
        img.word(CALL, a64_b(CALL, FUNC));
        img.word(FUNC, a64_nop);
        img.word(FUNC + 4, a64_br_x0);
        img.word(BACK, a64_nop);
        img.word(BACK + 4, a64_svc0);
        img.word(AFTER, a64_nop);
        img.word(AFTER + 4, a64_b(AFTER + 4, AFTER));
        img.word(VEC, a64_nop);
        img.word(VEC + 4, a64_eret);
    }

    // FEAT_ETE and FEAT_TRBE; the buffer in Fill mode; trace allowed at EL0..EL2 (TRFCR); the
    // trace unit programmed as Linux's etm4x does for perf (TRCCONFIGR, TRCVICTLR) and enabled.
    void start(uint64_t configr = 0, uint64_t victlr = 0x201, bool enable = true)
    {
        cfg.ete.feat_ete = true;
        make_trbe();
        pmt_ete_callbacks cb{};
        cb.user = this;
        cb.timestamp = [](void *u, pmt_ete_timebase) {
            static_cast<EteTrace *>(u)->ts_asked++;
            return static_cast<EteTrace *>(u)->ts_value;
        };
        if (cycle_source)
            cb.cycles = [](void *u) {
                static_cast<EteTrace *>(u)->cycles_asked++;
                return static_cast<EteTrace *>(u)->clock;
            };
        ASSERT_EQ(pmt_ete_set_callbacks(pe, &cb), PMT_OK);
        wr_el(2, PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E0HTRE) | PMT_MASK(TRFCR_EL2, E2TRE));
        wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
        program_fill();
        wr(PMT_REG_TRCCONFIGR, configr);
        wr(PMT_REG_TRCTRACEIDR, 0x10);
        wr(PMT_REG_TRCVICTLR, victlr);
        if (enable)
            wr(PMT_REG_TRCPRGCTLR, 1);
    }

    // ETEEvent 0 (TRCEVENTCTL0R) is resource 2, Single Address Comparator 0 at `addr`, traced as
    // an Event element when `traced` (TRCEVENTCTL1R.INSTEN[0]). The unit must be disabled.
    void event0_at(uint64_t addr, bool traced = true)
    {
        wr(PMT_REG_TRCACVR, addr, 0);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 4) | PMT_PUT(TRCRSCTLR, SELECT, 1), 2);
        wr(PMT_REG_TRCEVENTCTL0R, 2);
        if (traced)
            wr(PMT_REG_TRCEVENTCTL1R, 1);
    }

    void range(uint64_t start, uint64_t last, pmt_ete_p0 kind, bool taken, uint64_t next,
               uint64_t count = 1)
    {
        const pmt_ete_range r{start, last, kind, taken, next, count};
        ASSERT_EQ(pmt_ete_report_range(pe, &r), PMT_OK);
    }
    bool held(uint64_t start, uint64_t last, pmt_ete_p0 kind, bool taken, uint64_t next)
    {
        const pmt_ete_range r{start, last, kind, taken, next, 1};
        return pmt_ete_report_range_held(pe, &r);
    }
    pmt_ete_stats stats()
    {
        pmt_ete_stats s{};
        EXPECT_EQ(pmt_ete_get_stats(pe, &s), PMT_OK);
        return s;
    }
    void exception(pmt_ete_exception type, uint64_t range_start, uint64_t preferred_return)
    {
        const pmt_ete_exception_taken e{type, range_start, preferred_return};
        ASSERT_EQ(pmt_ete_report_exception(pe, &e), PMT_OK);
    }

    // The program run: the loop three times (taken, taken, not taken), the call, the indirect
    // branch, the SVC to EL1's vector and its ERET back to EL0 (run at EL0 until the SVC).
    void run_program()
    {
        range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 2);
        range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL);
        range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
        range(FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, BACK);
        exception(PMT_ETE_EXC_CALL, BACK, BACK + 8); // the SVC executed
        go(1);
        range(VEC, VEC + 4, PMT_ETE_P0_INDIRECT, true, AFTER); // ERET
        go(0);
        range(AFTER, AFTER + 4, PMT_ETE_P0_DIRECT, true, AFTER);
    }

    // Disables the trace unit (its trace goes out), then TSB CSYNC: the bytes in memory.
    std::vector<uint8_t> captured()
    {
        wr_el(1, PMT_REG_TRCPRGCTLR, 0);
        EXPECT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
        const uint64_t p = ptr();
        return std::vector<uint8_t>(ram.begin() + (BASE - RAM), ram.begin() + (p - RAM));
    }

    decoded decode_capture(const pmt_ete_pkt_config &c = {}) { return decode(captured(), img, c); }
};

// The capture decodes without an error into exactly `want`.
void expect_ranges(const decoded &d, const std::vector<element> &want)
{
    EXPECT_EQ(d.errors, 0u);
    ete_test::expect_ranges(d.of(kind::range), want);
}

} // namespace

#endif
