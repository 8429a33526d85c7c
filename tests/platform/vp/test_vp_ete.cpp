// Trace that real tools can read: the Trace Buffer Extension end to end on the reference platform
// (platform/vp.h) with an ETE trace. Each iteration of the sw/ loop runs one iteration of the
// synthetic A64 loop (synthetic_program.h), placed in RAM; its trace is the loop's ETE trace
// (ete_loop.h). The sw/ apps do the driver work (trace: Fill, Wrap, Circular Buffer, stop on
// trigger; fault: a stage 1 Permission fault on a page of the buffer), and the captures are
// decoded by OpenCSD twice: through its library (decode_ete_trace) and by its own tool, as a user
// runs it (trc_pkt_lister -ss_dir DIR -decode on the snapshot write_opencsd_snapshot writes). Each
// test runs one simulation (one process per test).
//
// The expected ranges come from the program (synthetic_program::ranges: two per iteration, in
// execution order) and the layout of the ETE stream, modelled here from the packet sizes of
// docs/trace.md and the re-synchronization rule (ete_encoder.h): where each atom is, where each
// A-Sync is. The TRBE side comes from the Arm ARM (DDI0487 M.a) D6.5: RMBSHC (Fill mode: a
// buffer-full event on the byte at Limit - 1), RVBDJZ (Wrap mode: a wrap event, trace goes on at
// the base), RGDSTS (Circular Buffer mode: WRAP only), RXRRWP (stop on trigger: the pointer after
// the Trigger Event's byte), RQKLXR/RFSPBK (a fault stops collection at the faulting address,
// before any byte of the page is written).
#include <gtest/gtest.h>
#include <pmtrace/platform/trace/ete_loop.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>
#include <pmtrace/platform/trace/synthetic_program.h>
#include <pmtrace/platform/trace/trace_decoder.h>
#include <pmtrace/platform/vp.h>

#include "apps/apps.h"
#include "platform/opencsd_tools.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using namespace opencsd_tools;
using bytes = std::vector<uint8_t>;
using ranges = std::vector<instruction_range>;

// ---- the platform -----------------------------------------------------------------------------

constexpr uint64_t RAM = virt::ram_base;
constexpr uint64_t BUF = RAM + 0x1'0000; // a 16 KiB trace buffer, identity-translated
constexpr uint64_t BUF_SIZE = 0x4000;
constexpr uint64_t PAGE = 0x1000;

vp_config ete_vp_config()
{
    vp_config c;
    c.ram_size = 0x10'0000; // 1 MiB: the buffer at +64 KiB, the program at +512 KiB
    return c;
}

// ---- the ETE stream of the loop, from the packet sizes (docs/trace.md) ------------------------

// start(): A-Sync (11 x 0x00, 0x80), Trace Info (2), Trace On (1), Address with Context (long,
// 32-bit IS0, as the program is below 4 GiB and Trace Info cleared the address history: 6). Each
// waypoint: one Atom format 1 byte (the platform's encoder flushes after every waypoint). A
// re-synchronization: A-Sync, Trace Info, Address with Context, emitted after the waypoint that
// brings the bytes since the last A-Sync to `period` or more.
constexpr uint64_t START_BYTES = 12 + 2 + 1 + 6;
constexpr uint64_t RESYNC_BYTES = 12 + 2 + 6;
constexpr uint64_t ASYNC_BYTES = 12;

struct stream_layout {
    uint64_t bytes = 0;
    std::vector<uint64_t> syncs; // stream offset of each A-Sync
    std::vector<uint64_t> atoms; // stream offset of each waypoint's atom, in execution order

    // The atoms wholly before stream offset `offset` (each is one byte).
    size_t atoms_before(uint64_t offset) const
    {
        return static_cast<size_t>(std::lower_bound(atoms.begin(), atoms.end(), offset) -
                                   atoms.begin());
    }
};

stream_layout layout(uint64_t iterations, uint64_t period)
{
    stream_layout l;
    l.syncs.push_back(0);
    uint64_t emitted = START_BYTES, last_sync = 0;
    for (uint64_t i = 0; i < 2 * iterations; i++) { // two waypoints per iteration
        l.atoms.push_back(emitted);
        emitted++;
        if (period != 0 && emitted - last_sync >= period) {
            l.syncs.push_back(emitted);
            last_sync = emitted;
            emitted += RESYNC_BYTES;
        }
    }
    l.bytes = emitted;
    return l;
}

// The TRBE wrote the trace unit's bytes unchanged: `capture` is stream bytes [from, from + size)
// of the loop's whole trace (the same encoder run in one go).
::testing::AssertionResult is_stream(const bytes &capture, const bytes &stream, uint64_t from)
{
    if (from + capture.size() > stream.size())
        return ::testing::AssertionFailure() << "the capture is longer than the stream";
    for (size_t i = 0; i < capture.size(); i++)
        if (capture[i] != stream[from + i])
            return ::testing::AssertionFailure()
                   << "capture byte " << i << " is not stream byte " << from + i;
    return ::testing::AssertionSuccess();
}

ranges head(const ranges &all, size_t n)
{
    return ranges(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
}

std::string first_message(const decode_result &d)
{
    return d.messages.empty() ? std::string() : d.messages[0];
}

// trc_pkt_lister on the capture's snapshot: no decode error, exactly `expected`.
void expect_lister_decodes(const ete_loop &ete, const bytes &trace, const ranges &expected)
{
    temp_dir dir;
    ASSERT_EQ(write_opencsd_snapshot(dir.path.string(), ete.capture(trace)), snapshot_status::ok);
    const std::string out = run_lister(dir.path);
    expect_no_decode_error(out);
    EXPECT_NE(out.find("processed " + std::to_string(trace.size()) + " bytes"), std::string::npos)
        << out;
    const ranges got = lister_ranges(out);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected) << "trc_pkt_lister's ranges differ from the program's";
}

// A loop of `iterations` iterations at EL0 whose trace is `ete`'s, the program placed in RAM.
void ete_workload(vp &platform, ete_loop &ete, sw_loop &loop, uint64_t iterations)
{
    sw_loop_init(&loop);
    loop.iterations = iterations;
    loop.instructions = 5; // the program's loop: 5 instructions an iteration
    loop.cycles = 5;
    ete.attach(loop);
    ASSERT_TRUE(ete.place(platform.ram, RAM));
}

sw_trace_config trace_config(unsigned fill_mode, bytes &out)
{
    sw_trace_config tc{};
    tc.base = BUF;
    tc.size = BUF_SIZE;
    tc.fill_mode = fill_mode;
    tc.out = out.data();
    tc.out_size = out.size();
    return tc;
}

// Runs the trace app over the loop on the platform, to completion.
sw_trace_result run_trace_app(vp &platform, sw_loop &loop, const sw_trace_config &tc)
{
    sw_workload w = sw_loop_workload(&loop);
    sw_trace_result r{};
    int status = SW_EINVAL;
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        status = sw_trace_run(&env, &tc, &w, &r);
    });
    EXPECT_EQ(status, SW_OK);
    EXPECT_TRUE(platform.cpu0.finished());
    return r;
}

// ---- 1. Fill mode ----------------------------------------------------------------------------

// RMBSHC: the 16 KiB buffer fills on the byte at Limit - 1 of each pass, a buffer-full event
// (TRBIRQ) for each; the `trace` app collects each pass and restarts at the base (perf's AUX
// flow), so the capture, oldest first, is the whole stream: it decodes from its first byte (the
// start's A-Sync) into every range of the program's run, in order.
TEST(VpEte, FillModeCaptureDecodesIntoTheProgramsWholeRun)
{
    vp platform("vp", ete_vp_config());
    ete_loop ete;
    sw_loop loop;
    const uint64_t iterations = 30'000;
    ete_workload(platform, ete, loop, iterations);
    bytes out(0x2'0000, 0);
    sw_trace_config tc = trace_config(PMT_TRBLIMITR_FM_FILL, out);
    const sw_trace_result r = run_trace_app(platform, loop, tc);
    ASSERT_FALSE(HasFailure());
    ASSERT_EQ(ete.iterations(), iterations);

    const stream_layout l = layout(iterations, 1024);
    ASSERT_EQ(ete.bytes(), l.bytes);
    ASSERT_LT(l.bytes, out.size());
    EXPECT_EQ(r.wraps, l.bytes / BUF_SIZE); // one buffer-full event per 16 KiB
    EXPECT_GE(r.wraps, 3u);
    EXPECT_EQ(r.irqs, r.wraps);
    EXPECT_EQ(r.spurious, 0u);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.bytes, l.bytes);
    ASSERT_EQ(r.out_len, l.bytes);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 0u);
    const bytes capture(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(r.out_len));
    EXPECT_TRUE(is_stream(capture, synthetic_trace(ete.program(), iterations), 0));

    const ranges expected = ete.program().ranges(ete.iterations());
    ASSERT_EQ(expected.size(), 2 * iterations);
    const decode_result d = decode_ete_trace(capture, ete.registers(), {ete.program().image()});
    EXPECT_TRUE(d.ok()) << first_message(d);
    EXPECT_EQ(d.sync_offset, std::optional<uint64_t>(0));
    EXPECT_EQ(d.async_packets, l.syncs.size());
    EXPECT_EQ(d.ranges.size(), expected.size());
    EXPECT_TRUE(d.ranges == expected) << "decode_ete_trace's ranges differ from the program's";

    expect_lister_decodes(ete, capture, expected);
}

// ---- 2. Wrap and Circular Buffer modes ---------------------------------------------------------

// A buffer that wrapped several times holds the newest BUF_SIZE bytes of the stream, the oldest at
// TRBPTR_EL1 (the app's copy is in time order already). Decoding starts at the first A-Sync at or
// after the oldest byte, so the ranges are the program's from the atom after that A-Sync to the
// end of the run, the last iteration's two ranges last.
void expect_wrapped_capture_decodes(const ete_loop &ete, const sw_trace_result &r, const bytes &out,
                                    uint64_t iterations)
{
    ASSERT_EQ(ete.iterations(), iterations);
    const stream_layout l = layout(iterations, 1024);
    ASSERT_EQ(ete.bytes(), l.bytes);
    ASSERT_GT(l.bytes, 3 * BUF_SIZE) << "the buffer wraps several times";
    EXPECT_TRUE(r.wrapped);
    EXPECT_EQ(r.trbptr, BUF + l.bytes % BUF_SIZE);
    EXPECT_EQ(r.bytes, BUF_SIZE);
    ASSERT_EQ(r.out_len, BUF_SIZE);
    const bytes capture(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(r.out_len));

    const uint64_t oldest = l.bytes - BUF_SIZE; // stream offset of the capture's first byte
    EXPECT_TRUE(is_stream(capture, synthetic_trace(ete.program(), iterations), oldest));
    auto sync = std::lower_bound(l.syncs.begin(), l.syncs.end(), oldest);
    ASSERT_NE(sync, l.syncs.end());
    ASSERT_LE(*sync + ASYNC_BYTES, l.bytes);
    const size_t first = l.atoms_before(*sync);
    const ranges all = ete.program().ranges(ete.iterations());
    ASSERT_EQ(all.size(), 2 * iterations);
    const ranges expected = tail(all, first);
    ASSERT_GT(expected.size(), 2u);
    // The newest iterations: the run ends with the last iteration's ranges.
    const ranges last_iteration = ete.program().ranges(1);
    ASSERT_TRUE(std::equal(last_iteration.begin(), last_iteration.end(), expected.end() - 2));

    const decode_result d = decode_ete_trace(capture, ete.registers(), {ete.program().image()});
    EXPECT_TRUE(d.ok()) << first_message(d);
    EXPECT_EQ(d.sync_offset, std::optional<uint64_t>(*sync - oldest));
    EXPECT_EQ(d.unsynced_bytes, *sync - oldest);
    EXPECT_EQ(d.async_packets, static_cast<uint32_t>(l.syncs.end() - sync));
    EXPECT_EQ(d.ranges.size(), expected.size());
    EXPECT_TRUE(d.ranges == expected) << "decode_ete_trace's ranges are not the newest ones";

    expect_lister_decodes(ete, capture, expected);
}

// RVBDJZ: each wrap is a management event (TRBIRQ), trace goes on at the base.
TEST(VpEte, WrapModeCaptureDecodesIntoTheNewestIterationsFromTheFirstSync)
{
    vp platform("vp", ete_vp_config());
    ete_loop ete;
    sw_loop loop;
    const uint64_t iterations = 30'000;
    ete_workload(platform, ete, loop, iterations);
    bytes out(0x1'0000, 0);
    sw_trace_config tc = trace_config(PMT_TRBLIMITR_FM_WRAP, out);
    const sw_trace_result r = run_trace_app(platform, loop, tc);
    ASSERT_FALSE(HasFailure());
    const uint64_t stream_bytes = layout(iterations, 1024).bytes;
    EXPECT_EQ(r.irqs, stream_bytes / BUF_SIZE); // a wrap interrupt per pass
    EXPECT_EQ(r.wraps, stream_bytes / BUF_SIZE);
    expect_wrapped_capture_decodes(ete, r, out, iterations);
}

// RGDSTS: a wrap sets WRAP only; no interrupt.
TEST(VpEte, CircularBufferModeCaptureDecodesIntoTheNewestIterationsFromTheFirstSync)
{
    vp platform("vp", ete_vp_config());
    ete_loop ete;
    sw_loop loop;
    const uint64_t iterations = 30'000;
    ete_workload(platform, ete, loop, iterations);
    bytes out(0x1'0000, 0);
    sw_trace_config tc = trace_config(PMT_TRBLIMITR_FM_CIRCULAR, out);
    const sw_trace_result r = run_trace_app(platform, loop, tc);
    ASSERT_FALSE(HasFailure());
    EXPECT_EQ(r.irqs, 0u);
    EXPECT_EQ(r.wraps, 1u);
    expect_wrapped_capture_decodes(ete, r, out, iterations);
}

// ---- 3. A capture stopped by a fault -----------------------------------------------------------

// RQKLXR, RFSPBK: a stage 1 Permission fault on the buffer's third page. Collection stops at the
// fault's address, the page's first byte, so RAM from the base to that page holds the stream's
// first 8 KiB; the fix callback refuses, so the `fault` app resumes on the next page (the run is
// short enough that the buffer does not fill again and overwrite the first pages). The 8 KiB
// decode from the start into the program's first ranges, up to the last atom before the faulting
// address. Re-synchronizing every 1000 bytes puts the cut between atoms, not at an A-Sync.
bool refuse_fix(void *, const sw_fault_report *)
{
    return false;
}

TEST(VpEte, CaptureStoppedByAFaultDecodesUpToTheFaultingAddress)
{
    vp platform("vp", ete_vp_config());
    pmt_trbe_fault f{};
    f.kind = PMT_TRBE_FAULT_PERMISSION;
    f.stage = 1;
    f.level = 3;
    const uint64_t fault_page = BUF + 2 * PAGE;
    platform.mmu.inject(fault_page, PAGE, f);
    ete_encoder_config cfg;
    cfg.resync_period = 1000;
    ete_loop ete(synthetic_program::default_base, cfg);
    sw_loop loop;
    const uint64_t iterations = 5000;
    ete_workload(platform, ete, loop, iterations);
    sw_workload w = sw_loop_workload(&loop);
    sw_fault_config fc{};
    fc.base = BUF;
    fc.size = BUF_SIZE;
    fc.fix = refuse_fix;
    sw_fault_result r{};
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_fault_run(&env, &fc, &w, &r), SW_OK);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(ete.iterations(), iterations);
    const stream_layout l = layout(iterations, 1000);
    ASSERT_EQ(ete.bytes(), l.bytes);
    // Past the faulting page, but not past the next page and a full buffer.
    ASSERT_GT(l.bytes, fault_page - BUF);
    ASSERT_LT(l.bytes, BUF_SIZE - PAGE);
    ASSERT_EQ(r.num_reports, 1u);
    EXPECT_EQ(r.faults, 1u);
    EXPECT_EQ(r.reports[0].ec, 0x24u);  // stage 1 Data Abort on write to the trace buffer
    EXPECT_EQ(r.reports[0].fsc, 0x0Fu); // Permission fault, level 3
    EXPECT_EQ(r.reports[0].trbptr, fault_page);
    EXPECT_EQ(r.wraps, 0u);

    const size_t prefix_len = fault_page - BUF;
    const uint8_t *ram = platform.ram.data() + (BUF - RAM);
    EXPECT_TRUE(std::all_of(ram + prefix_len, ram + prefix_len + PAGE, [](uint8_t b) {
        return b == 0;
    })) << "nothing is written into the faulting page";
    const bytes capture(ram, ram + prefix_len);
    EXPECT_TRUE(is_stream(capture, synthetic_trace(ete.program(), iterations, cfg), 0));

    const size_t n = l.atoms_before(prefix_len);
    ASSERT_GT(n, 0u);
    ASSERT_LT(n, 2 * iterations);
    EXPECT_LT(l.atoms[n - 1], prefix_len);
    EXPECT_GE(l.atoms[n], prefix_len);
    const ranges all = ete.program().ranges(ete.iterations());
    const ranges expected = head(all, n);

    const decode_result d = decode_ete_trace(capture, ete.registers(), {ete.program().image()});
    EXPECT_TRUE(d.ok()) << first_message(d);
    EXPECT_EQ(d.sync_offset, std::optional<uint64_t>(0));
    EXPECT_EQ(d.ranges.size(), expected.size());
    EXPECT_TRUE(d.ranges == expected) << "decode_ete_trace's ranges are not the program's first";
    ASSERT_FALSE(d.ranges.empty());
    EXPECT_TRUE(d.ranges.back() == all[n - 1]) << "the last whole range before the fault";

    expect_lister_decodes(ete, capture, expected);
}

// ---- 4. Stop on trigger ------------------------------------------------------------------------

// RKSQJW, RBQTGW, RDHLQG, RXRRWP in Fill mode: a Detected Trigger after 4,160 bytes, TRBTRG_EL1 =
// 2,048: the Trigger Event is byte 6,207 and collection stops after it, the pointer at 6,208 past
// the base (inside a run of atoms, after the A-Sync at 6,144). Both are multiples of the 64-byte
// alignment unit (TRBIDR_EL1.Align): RCPDDM makes the Trigger Event UNPREDICTABLE for a
// misaligned TRBTRG_EL1, RQFGNQ lets a Detected Trigger with a partly filled unit decrement the
// counter without writing. The capture, the stream's first 6,208 bytes, decodes into the
// program's first ranges: every atom before the cut.
TEST(VpEte, StopOnTriggerCaptureDecodesIntoAPrefixOfTheRun)
{
    vp platform("vp", ete_vp_config());
    ete_loop ete;
    sw_loop loop;
    const uint64_t iterations = 5000;
    ete_workload(platform, ete, loop, iterations);
    loop.trigger_after = 4160;
    bytes out(0x1'0000, 0);
    sw_trace_config tc = trace_config(PMT_TRBLIMITR_FM_FILL, out);
    tc.trigger = SW_TRACE_STOP_ON_TRIGGER;
    tc.trigger_count = 2048;
    const sw_trace_result r = run_trace_app(platform, loop, tc);
    ASSERT_FALSE(HasFailure());
    const uint64_t captured = 4160 + 2048;
    const stream_layout l = layout(iterations, 1024);
    ASSERT_GT(l.bytes, captured);
    EXPECT_TRUE(r.triggered);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.trigger_ptr, BUF + captured);
    EXPECT_EQ(r.bytes, captured);
    ASSERT_EQ(r.out_len, captured);
    const bytes capture(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(r.out_len));
    EXPECT_TRUE(is_stream(capture, synthetic_trace(ete.program(), iterations), 0));

    const size_t n = l.atoms_before(captured);
    ASSERT_GT(n, 0u);
    ASSERT_LT(n, 2 * iterations);
    const ranges all = ete.program().ranges(ete.iterations());
    ASSERT_GE(all.size(), n);
    const ranges expected = head(all, n);

    const decode_result d = decode_ete_trace(capture, ete.registers(), {ete.program().image()});
    EXPECT_TRUE(d.ok()) << first_message(d);
    EXPECT_EQ(d.sync_offset, std::optional<uint64_t>(0));
    EXPECT_EQ(d.ranges.size(), expected.size());
    EXPECT_TRUE(d.ranges == expected) << "decode_ete_trace's ranges are not the program's first";

    expect_lister_decodes(ete, capture, expected);
}

} // namespace
