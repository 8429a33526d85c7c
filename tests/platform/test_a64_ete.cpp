// The trace unit driven by real execution (issue 14): A64 programs (tests/platform/a64/
// ete_capture*.S) program the trace unit and the Trace Buffer Unit through their System registers
// as Linux does, run, and stop the capture; OpenCSD decodes the buffer they leave in RAM, over the
// program's image, into instruction ranges. Those must be exactly what the CPU executed in the
// traced window, range by range: the execution log (a64_exec_log.h) says what it executed, the
// programs' symbols where the window starts and ends, and the filters which ranges are traced.
#include "a64_program.h"

#include <pmtrace/platform/a64_exec_log.h>
#include <pmtrace/platform/opencsd_snapshot.h>
#include <pmtrace/platform/trace_decoder.h>

#include <gtest/gtest.h>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

constexpr uint64_t buf = 0x40100000; // ete_capture.inc's buffer

struct capture {
    run_result r;
    labels at; // the program's labels
    std::vector<uint8_t> bytes;
    decode_result decoded;
};

// The trace unit's registers as the decoder needs them, read from the model.
ete_registers registers_of(pmt_pe *pe)
{
    auto rd = [pe](pmt_reg_id id) {
        uint64_t v = 0;
        EXPECT_EQ(pmt_pe_sysreg_read(pe, pmt_sysreg_encode({id, 0}), &v), PMT_ACCESS_OK)
            << pmt_reg_name(id);
        return static_cast<uint32_t>(v);
    };
    ete_registers r;
    r.trcidr0 = rd(PMT_REG_TRCIDR0);
    r.trcidr1 = rd(PMT_REG_TRCIDR1);
    r.trcidr2 = rd(PMT_REG_TRCIDR2);
    r.trcidr8 = rd(PMT_REG_TRCIDR8);
    r.trcconfigr = rd(PMT_REG_TRCCONFIGR);
    r.trctraceidr = rd(PMT_REG_TRCTRACEIDR);
    r.trcdevarch = rd(PMT_REG_TRCDEVARCH);
    return r;
}

constexpr uint64_t trbsr_s = uint64_t{1} << 17, trbsr_wrap = uint64_t{1} << 20;

// Runs `program` and decodes its capture: [buf, TRBPTR_EL1) or, once the buffer wrapped (a
// buffer of `size` bytes, TRBSR_EL1.WRAP), all of it in time order from TRBPTR_EL1 on.
capture run_capture(const std::string &program, uint64_t size = 0)
{
    capture c;
    vp_config config;
    config.pe.core.ete.feat_ete = true;
    config.a64.exec_log = true;
    c.r = run(program, config);
    c.at = labels(program);
    const uint64_t end = c.r.x[25]; // TRBPTR_EL1 at the end (ete.inc)
    EXPECT_GE(end, buf);
    const uint8_t *ram = c.r.platform->ram.data() + (buf - pmtrace::platform::virt::ram_base);
    if (c.r.x[24] & trbsr_wrap) {
        const std::vector<uint8_t> whole(ram, ram + size);
        EXPECT_EQ(trace_buffer_in_time_order(whole, end - buf, true, c.bytes), snapshot_status::ok);
    } else {
        c.bytes.assign(ram, ram + (end - buf));
    }
    std::vector<memory_image> image{
        {pmtrace::test::a64_load_address,
         pmtrace::test::read_image(std::string(PMTRACE_A64_DIR) + "/" + program + ".bin")}};
    c.decoded = decode_ete_trace(c.bytes, registers_of(c.r.platform->pe.core()), image);
    return c;
}

// What the CPU executed, in order, as the decoder states instructions: one range per P0 element
// (a range the CPU ran `count` times is `count` ranges), and the instructions before an
// exception as one range ending without a P0 element. Each with the Exception level it ran at.
struct executed {
    uint64_t start, end; // [start, end)
    bool taken;
    unsigned el;
};

std::vector<executed> expand(const a64_exec_log &log)
{
    std::vector<executed> out;
    unsigned el = 0;
    for (const a64_exec_log::record &rec : log.records()) {
        switch (rec.what) {
        case a64_exec_log::kind::context: el = log.contexts()[rec.index].context.el; break;
        case a64_exec_log::kind::range: {
            const a64_trace_range &r = log.ranges()[rec.index];
            for (uint64_t n = 0; n < r.count; n++)
                out.push_back({r.start, r.last + 4, r.taken, el});
            break;
        }
        case a64_exec_log::kind::exception: {
            const a64_trace_exception_taken &e = log.exceptions()[rec.index];
            if (e.preferred_return > e.range_start)
                out.push_back({e.range_start, e.preferred_return, true, el});
            el = e.to.el;
            break;
        }
        default: break;
        }
    }
    return out;
}

// The executed ranges the trace must show: from the range ending at the ISB after the enable to
// the last one before the range holding the disabling MSR, those `traced` keeps.
template <typename Keep>
std::vector<executed> window(const capture &c, const std::vector<executed> &all, Keep traced)
{
    const uint64_t first_end = c.at("enable_isb") + 4, off = c.at("ete_off");
    std::vector<executed> out;
    bool in = false;
    for (const executed &x : all) {
        if (!in && x.end == first_end)
            in = true;
        if (in && x.start <= off && off < x.end)
            break;
        if (in && traced(x))
            out.push_back(x);
    }
    return out;
}

void expect_same(const capture &c, const std::vector<executed> &want)
{
    EXPECT_TRUE(c.decoded.ok()) << (c.decoded.messages.empty() ? "" : c.decoded.messages[0]);
    const std::vector<instruction_range> &got = c.decoded.ranges;
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_EQ(got[i].start, want[i].start) << "range " << i;
        EXPECT_EQ(got[i].end, want[i].end) << "range " << i;
        EXPECT_EQ(got[i].taken, want[i].taken) << "range " << i;
    }
}

} // namespace

// Everything the CPU executed between the enable and the disable is in the capture: loops (a
// loop of one block the CPU repeats 20000 times without calling its model among them), calls and
// returns, BLR, a jump table, CBZ not taken, TBNZ taken, an SVC at EL1 and its ERET, an ERET to
// EL0 and the SVC back.
TEST(A64Ete, CaptureDecodesIntoWhatTheCpuExecuted)
{
    const capture c = run_capture("ete_capture");
    const std::vector<executed> want =
        window(c, expand(*c.r.platform->a64->exec_log()), [](const executed &) { return true; });
    ASSERT_GT(want.size(), 20000u);
    expect_same(c, want);
    EXPECT_GT(c.decoded.async_packets, 2u); // TRCSYNCPR: every 256 bytes (about 900 here)
}

// TRCVICTLR.EXLEVEL_NS_EL0: the EL0 loop and its SVC are not in the capture; everything at EL1 is.
TEST(A64Ete, El0ExcludedByTheExceptionLevelFilter)
{
    const capture c = run_capture("ete_capture_el0x");
    const std::vector<executed> want = window(c, expand(*c.r.platform->a64->exec_log()),
                                              [](const executed &x) { return x.el == 1; });
    expect_same(c, want);
    for (const instruction_range &r : c.decoded.ranges)
        EXPECT_FALSE(r.start >= c.at("el0_code") && r.start < c.at("back_at_el1")) << r;
}

// A ViewInst include range [func, func + 4]: only the two calls of func, each a range of two
// instructions ending with its RET.
TEST(A64Ete, ViewInstIncludeRange)
{
    const capture c = run_capture("ete_capture_range");
    const uint64_t func = c.at("func");
    const std::vector<executed> want =
        window(c, expand(*c.r.platform->a64->exec_log()),
               [func](const executed &x) { return x.start >= func && x.end <= func + 8; });
    ASSERT_EQ(want.size(), 2u);
    expect_same(c, want);
}

// TRCCONFIGR.TS: a Timestamp after every Trace Info (the first and each periodic one), each the
// physical count (TRFCR_EL1.TS 0) when the CPU reported the instruction it goes with: between
// CNTPCT_EL0 read before the enable and after the disable, and never going back.
TEST(A64Ete, TimestampsAreTheGenericCounter)
{
    const capture c = run_capture("ete_capture_ts");
    const uint64_t before = c.r.x[26], after = c.r.x[27];
    const std::vector<uint64_t> &ts = c.decoded.timestamps;
    ASSERT_GE(ts.size(), c.decoded.async_packets);
    EXPECT_GT(c.decoded.async_packets, 2u);
    for (size_t i = 0; i < ts.size(); i++) {
        EXPECT_GE(ts[i], before) << i;
        EXPECT_LE(ts[i], after) << i;
        if (i) {
            EXPECT_GE(ts[i], ts[i - 1]) << i;
        }
    }
    EXPECT_GT(ts.back(), ts.front()); // the 20000 iterations take counter ticks
    // The instructions are the same as without timestamps.
    const std::vector<executed> want =
        window(c, expand(*c.r.platform->a64->exec_log()), [](const executed &) { return true; });
    expect_same(c, want);
}

// Fill mode, a 4 KiB buffer and about 17 KiB of trace: the buffer full management event stops
// collection (TRBSR_EL1.S, WRAP; TRBPTR_EL1 back at the base): the capture is the beginning of
// the window, exactly.
TEST(A64Ete, FillModeKeepsTheOldestTrace)
{
    const capture c = run_capture("ete_capture_full", 0x1000);
    EXPECT_EQ(c.r.x[24] & (trbsr_s | trbsr_wrap), trbsr_s | trbsr_wrap);
    const std::vector<executed> all =
        window(c, expand(*c.r.platform->a64->exec_log()), [](const executed &) { return true; });
    const size_t n = c.decoded.ranges.size();
    ASSERT_GT(n, 1000u);
    ASSERT_LT(n, all.size());
    expect_same(c, std::vector<executed>(all.begin(), all.begin() + static_cast<long>(n)));
}

// Wrap mode: the buffer wraps and collection goes on (TRBSR_EL1.WRAP, S clear); in time order
// from TRBPTR_EL1, decoded from its first A-Sync, it is the end of the window, exactly.
TEST(A64Ete, WrapModeKeepsTheNewestTrace)
{
    const capture c = run_capture("ete_capture_wrap", 0x1000);
    EXPECT_EQ(c.r.x[24] & (trbsr_s | trbsr_wrap), trbsr_wrap);
    const std::vector<executed> all =
        window(c, expand(*c.r.platform->a64->exec_log()), [](const executed &) { return true; });
    const size_t n = c.decoded.ranges.size();
    ASSERT_GT(n, 1000u);
    ASSERT_LT(n, all.size());
    expect_same(c, std::vector<executed>(all.end() - static_cast<long>(n), all.end()));
}
