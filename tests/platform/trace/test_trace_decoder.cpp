// The decoder (OpenCSD through its C API): the synthetic program's trace decodes into exactly the
// walker's ranges; decoding can start at any A-Sync; a cut buffer decodes up to the cut; bad
// input is counted, never fatal.
#include <gtest/gtest.h>
#include <pmtrace/platform/trace/synthetic_program.h>
#include <pmtrace/platform/trace/trace_decoder.h>

#include <random>
#include <string>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;

const ete_registers regs; // the encoder's trace unit: trace ID 0x10

// The start sequence for EL1 Non-secure AArch64 at 0x4008_0000, written out from the packet
// layouts: A-Sync, Trace Info, Trace On, Context, Address (long, 64-bit, IS0).
const bytes start_sequence = {0,    0,    0,    0,    0,    0,    0,    0,    0,
                              0,    0,    0x80, 0x01, 0x00, 0x04, 0x81, 0x31, 0x9D,
                              0x00, 0x00, 0x08, 0x40, 0x00, 0x00, 0x00, 0x00};

// A stream encoded waypoint by waypoint, remembering how many waypoints preceded each A-Sync.
struct traced {
    bytes stream;
    std::vector<uint64_t> sync_offsets;
    std::vector<size_t> waypoints_before_sync;
};

traced encode(const synthetic_program &p, uint64_t iterations, uint32_t period)
{
    ete_encoder_config c;
    c.resync_period = period;
    ete_encoder e(c, p.waypoint_map());
    traced t;
    EXPECT_EQ(e.start(ete_context{}, p.base()), ete_status::ok);
    t.waypoints_before_sync.push_back(0);
    size_t waypoints = 0;
    for (uint64_t i = 0; i < iterations; i++)
        for (const waypoint &w : p.walk(1)) {
            EXPECT_EQ(e.atom(w.taken), ete_status::ok);
            waypoints++;
            if (e.sync_offsets().size() > t.waypoints_before_sync.size())
                t.waypoints_before_sync.push_back(waypoints);
        }
    e.take(t.stream);
    t.sync_offsets = e.sync_offsets();
    return t;
}

std::vector<instruction_range> tail(const std::vector<instruction_range> &all, size_t from)
{
    return std::vector<instruction_range>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                          all.end());
}

struct log_probe {
    std::vector<std::string> lines;
    trace_log fn()
    {
        return [this](const std::string &l) { lines.push_back(l); };
    }
};

TEST(TraceDecoder, HandWrittenPacketsDecodeIntoTheLoopRanges)
{
    const synthetic_program p;
    bytes stream = start_sequence;
    for (int i = 0; i < 3; i++) {
        stream.push_back(0xF6); // N: b.eq not taken
        stream.push_back(0xF7); // E: cbnz taken
    }
    const decode_result r = decode_ete_trace(stream, regs, {p.image()});
    EXPECT_EQ(r.errors, 0u) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.ranges, p.ranges(3));
    EXPECT_EQ(r.sync_offset, std::optional<uint64_t>(0));
    EXPECT_EQ(r.async_packets, 1u);
    EXPECT_EQ(r.trace_on, 1u);
    EXPECT_EQ(r.no_sync, 1u); // the decoder's initial state
    EXPECT_EQ(r.pe_context, 1u);
    EXPECT_EQ(r.unsynced_bytes, 0u);
    EXPECT_EQ(r.bad_packets, 0u);
}

TEST(TraceDecoder, LongTraceDecodesIntoExactlyTheWalkersRanges)
{
    const synthetic_program p;
    const traced t = encode(p, 1000, 1024);
    // 2000 atoms after a 21-byte start: the start's A-Sync and a restart point at 1 KiB.
    ASSERT_EQ(t.sync_offsets.size(), 2u);
    const decode_result r = decode_ete_trace(t.stream, regs, {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.ranges, p.ranges(1000));
    EXPECT_EQ(r.async_packets, t.sync_offsets.size());
    EXPECT_EQ(r.trace_on, 1u);
    EXPECT_EQ(r.no_sync, 1u);
}

TEST(TraceDecoder, DecodingStartsAtAnAsyncInTheMiddle)
{
    const synthetic_program p;
    const traced t = encode(p, 200, 64);
    ASSERT_GE(t.sync_offsets.size(), 3u);
    const uint64_t from = t.sync_offsets[2];
    const bytes rest(t.stream.begin() + static_cast<std::ptrdiff_t>(from), t.stream.end());
    const decode_result r = decode_ete_trace(rest, regs, {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.ranges, tail(p.ranges(200), t.waypoints_before_sync[2]));
    EXPECT_EQ(r.sync_offset, std::optional<uint64_t>(0));
    EXPECT_EQ(r.trace_on, 0u); // a restart point is not a Trace On
}

TEST(TraceDecoder, EveryRestartPointIsAPlaceToStart)
{
    const synthetic_program p;
    const traced t = encode(p, 100, 48);
    const std::vector<instruction_range> all = p.ranges(100);
    for (size_t k = 0; k < t.sync_offsets.size(); k++) {
        // Start a few bytes early, inside the packet before the A-Sync: those are skipped.
        const uint64_t from = t.sync_offsets[k] >= 3 ? t.sync_offsets[k] - 3 : 0;
        const bytes rest(t.stream.begin() + static_cast<std::ptrdiff_t>(from), t.stream.end());
        const decode_result r = decode_ete_trace(rest, regs, {p.image()});
        EXPECT_TRUE(r.ok()) << "restart point " << k;
        EXPECT_EQ(r.ranges, tail(all, t.waypoints_before_sync[k])) << "restart point " << k;
        EXPECT_EQ(r.sync_offset, std::optional<uint64_t>(t.sync_offsets[k] - from));
        EXPECT_EQ(r.unsynced_bytes, t.sync_offsets[k] - from);
    }
}

TEST(TraceDecoder, IgnorePacketsArePadding)
{
    const synthetic_program p;
    bytes stream = start_sequence;
    for (int i = 0; i < 3; i++) {
        stream.push_back(0x70);
        stream.push_back(0xF6);
        stream.push_back(0x70);
        stream.push_back(0xF7);
    }
    const decode_result r = decode_ete_trace(stream, regs, {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.ranges, p.ranges(3));
}

// Event packets (header 0b0111 EVENT, EVENT nonzero: the ETEEvents that occurred) between atoms:
// each an Event element with its EVENT field, after the ranges of the atoms before it, at its
// byte.
TEST(TraceDecoder, EventPacketsAreEventElementsInTraceOrder)
{
    const synthetic_program p;
    bytes stream = start_sequence;
    const uint64_t first = stream.size() + 1, second = stream.size() + 3;
    stream.insert(stream.end(), {0xF6, 0x71, 0xF7, 0x7A}); // N, ETEEvent 0, E, ETEEvents 1 and 3
    const decode_result r = decode_ete_trace(stream, regs, {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.ranges, p.ranges(1));
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(r.events[0].events, 0x1u);
    EXPECT_EQ(r.events[0].after_ranges, 1u);
    EXPECT_EQ(r.events[0].byte, first);
    EXPECT_EQ(r.events[1].events, 0xAu);
    EXPECT_EQ(r.events[1].after_ranges, 2u);
    EXPECT_EQ(r.events[1].byte, second);
}

TEST(TraceDecoder, StreamCutInsideAPacketDecodesUpToTheCut)
{
    const synthetic_program p;
    const traced t = encode(p, 100, 64);
    ASSERT_GE(t.sync_offsets.size(), 2u);
    // Cut inside the Address with Context packet of the second restart point (A-Sync 12, Trace
    // Info 2, then 4 of the packet's 6 bytes).
    const uint64_t cut = t.sync_offsets[1] + 12 + 2 + 4;
    const bytes head(t.stream.begin(), t.stream.begin() + static_cast<std::ptrdiff_t>(cut));
    const decode_result r = decode_ete_trace(head, regs, {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    const std::vector<instruction_range> all = p.ranges(100);
    EXPECT_EQ(r.ranges, std::vector<instruction_range>(
                            all.begin(),
                            all.begin() + static_cast<std::ptrdiff_t>(t.waypoints_before_sync[1])));
}

TEST(TraceDecoder, StreamCutInsideTheFirstAsyncDecodesNothing)
{
    const bytes head(start_sequence.begin(), start_sequence.begin() + 7);
    log_probe log;
    const decode_result r = decode_ete_trace(head, regs, {synthetic_program().image()}, log.fn());
    EXPECT_TRUE(r.ranges.empty());
    EXPECT_EQ(r.errors, 1u); // no A-Sync: nothing could be decoded
    EXPECT_EQ(log.lines.size(), 1u);
}

TEST(TraceDecoder, EmptyBufferIsAnError)
{
    log_probe log;
    const decode_result r =
        decode_ete_trace(bytes(), regs, {synthetic_program().image()}, log.fn());
    EXPECT_EQ(r.errors, 1u);
    EXPECT_TRUE(r.ranges.empty());
    EXPECT_EQ(log.lines.size(), 1u);
    EXPECT_EQ(decode_ete_trace(nullptr, 10, regs, {}, log.fn()).errors, 1u);
}

TEST(TraceDecoder, GarbageWithoutAsyncIsCountedNotFatal)
{
    std::mt19937 rng(1234);
    bytes garbage(4096);
    for (uint8_t &b : garbage)
        b = static_cast<uint8_t>(rng() | 1); // never 0x00: no A-Sync can form
    log_probe log;
    const decode_result r =
        decode_ete_trace(garbage, regs, {synthetic_program().image()}, log.fn());
    EXPECT_GE(r.errors, 1u);
    EXPECT_TRUE(r.ranges.empty());
    EXPECT_EQ(r.async_packets, 0u);
    EXPECT_EQ(r.unsynced_bytes, garbage.size());
    EXPECT_FALSE(log.lines.empty());
}

TEST(TraceDecoder, ReservedHeaderAfterSyncIsABadPacket)
{
    const synthetic_program p;
    bytes stream = start_sequence;
    stream.push_back(0xF6);
    stream.push_back(0xF7);
    stream.push_back(0x08); // unused header encoding in ETE
    stream.push_back(0xF6);
    const decode_result r = decode_ete_trace(stream, regs, {p.image()}, [](const std::string &) {});
    EXPECT_EQ(r.errors, 1u) << "one bad packet, one error";
    EXPECT_EQ(r.bad_packets, 1u);
    EXPECT_EQ(r.ranges, p.ranges(1)); // what came before it; after it the decoder waits for a sync
    EXPECT_EQ(r.no_sync, 2u);
}

TEST(TraceDecoder, RandomBuffersWithSyncsNeverCrash)
{
    // Garbage after real restart points reaches every packet decoder path with nonsense; the
    // decoder must count, not crash (the sanitizer build checks memory and UB here).
    std::mt19937 rng(42);
    const synthetic_program p;
    for (int round = 0; round < 200; round++) {
        bytes stream;
        for (int piece = 0; piece < 4; piece++) {
            stream.insert(stream.end(), start_sequence.begin(), start_sequence.end());
            const size_t n = rng() % 64;
            for (size_t i = 0; i < n; i++)
                stream.push_back(static_cast<uint8_t>(rng()));
        }
        const decode_result r =
            decode_ete_trace(stream, regs, {p.image()}, [](const std::string &) {});
        EXPECT_EQ(r.bytes, stream.size());
        EXPECT_LE(r.messages.size(), decode_result::max_messages);
    }
}

TEST(TraceDecoder, EveryHeaderByteAfterSyncIsAnswered)
{
    const synthetic_program p;
    for (int b = 0; b < 256; b++) {
        bytes stream = start_sequence;
        stream.push_back(static_cast<uint8_t>(b));
        stream.push_back(0xF6);
        const decode_result r =
            decode_ete_trace(stream, regs, {p.image()}, [](const std::string &) {});
        EXPECT_EQ(r.bytes, stream.size()) << "header " << b;
    }
}

TEST(TraceDecoder, TraceWhereNoImageIsIsAMemoryGap)
{
    bytes stream = start_sequence;
    stream.push_back(0xF6);
    log_probe log;
    // The program is at 0x4008_0000; the only image is elsewhere.
    const decode_result r =
        decode_ete_trace(stream, regs, {synthetic_program(0x4010'0000).image()}, log.fn());
    EXPECT_EQ(r.memory_gaps, 1u);
    EXPECT_EQ(r.errors, 1u);
    EXPECT_TRUE(r.ranges.empty());
    EXPECT_EQ(log.lines.size(), 1u);
}

TEST(TraceDecoder, NoMemoryImageIsAnError)
{
    bytes stream = start_sequence;
    stream.push_back(0xF6);
    log_probe log;
    const decode_result r = decode_ete_trace(stream, regs, {}, log.fn());
    EXPECT_EQ(r.errors, 1u);
    EXPECT_EQ(log.lines.size(), 1u);
}

TEST(TraceDecoder, NotAnEteIsRefused)
{
    ete_registers etm = regs;
    etm.trcdevarch = 0x4A13; // ARCHVER 4: an ETMv4
    bytes stream = start_sequence;
    const decode_result r =
        decode_ete_trace(stream, etm, {synthetic_program().image()}, [](const std::string &) {});
    EXPECT_EQ(r.errors, 1u);
}

TEST(TraceDecoder, OverlappingImagesAreReported)
{
    const synthetic_program p;
    memory_image overlap = p.image();
    overlap.address += 4;
    bytes stream = start_sequence;
    stream.push_back(0xF6);
    const decode_result r =
        decode_ete_trace(stream, regs, {p.image(), overlap}, [](const std::string &) {});
    EXPECT_GE(r.errors, 1u);
}

} // namespace
