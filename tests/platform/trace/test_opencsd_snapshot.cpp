// The OpenCSD snapshot: the files the snapshot reader of OpenCSD 1.3.3 expects, and
// trc_pkt_lister (OpenCSD's own tool, as a user runs it) decoding them into exactly the ranges the
// synthetic program executes - a straight capture and a wrapped one.
#include <gtest/gtest.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>
#include <pmtrace/platform/trace/synthetic_program.h>
#include <pmtrace/platform/trace/trace_decoder.h>

#include "platform/opencsd_tools.h"

#include <fstream>
#include <string>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;

using namespace opencsd_tools;

TEST(OpencsdSnapshot, WritesTheFilesOpenCsdReads)
{
    temp_dir dir;
    const synthetic_program p;
    trace_capture c;
    c.trace = {1, 2, 3};
    c.images = {p.image(), memory_image{0x4010'0000, {0xAA, 0xBB}}};
    ASSERT_EQ(write_opencsd_snapshot(dir.path.string(), c), snapshot_status::ok);

    EXPECT_EQ(read_text(dir.path / "snapshot.ini"), "[snapshot]\n"
                                                    "version=1.0\n"
                                                    "description=pmtrace capture\n"
                                                    "\n"
                                                    "[device_list]\n"
                                                    "device0=cpu_0.ini\n"
                                                    "device1=ete_0.ini\n"
                                                    "\n"
                                                    "[trace]\n"
                                                    "metadata=trace.ini\n");
    EXPECT_EQ(read_text(dir.path / "cpu_0.ini"), "[device]\n"
                                                 "name=cpu_0\n"
                                                 "class=core\n"
                                                 "type=ARM-AA64\n"
                                                 "\n"
                                                 "[dump1]\n"
                                                 "file=memory_0.bin\n"
                                                 "address=0x0000000040080000\n"
                                                 "length=0x14\n"
                                                 "\n"
                                                 "[dump2]\n"
                                                 "file=memory_1.bin\n"
                                                 "address=0x0000000040100000\n"
                                                 "length=0x2\n");
    // The encoder's trace unit (trace_types.h): TRCCONFIGR RES1 bit only; TRCDEVARCH an ETE;
    // TRCIDR0 RES1, TRCBB, TRCCCI, TSSIZE 64-bit, COMMOPT; TRCIDR1 Arm, "see TRCDEVARCH";
    // TRCIDR2 IASIZE 64, CIDSIZE 32, VMIDSIZE 32.
    EXPECT_EQ(read_text(dir.path / "ete_0.ini"), "[device]\n"
                                                 "name=ete_0\n"
                                                 "class=trace_source\n"
                                                 "type=ETE\n"
                                                 "\n"
                                                 "[regs]\n"
                                                 "TRCCONFIGR=0x00000001\n"
                                                 "TRCTRACEIDR=0x00000010\n"
                                                 "TRCDEVARCH=0x47705a13\n"
                                                 "TRCIDR0=0x280000a1\n"
                                                 "TRCIDR1=0x4100fff0\n"
                                                 "TRCIDR2=0x00001088\n"
                                                 "TRCIDR8=0x00000000\n");
    EXPECT_EQ(read_text(dir.path / "trace.ini"), "[trace_buffers]\n"
                                                 "buffers=buffer0\n"
                                                 "\n"
                                                 "[buffer0]\n"
                                                 "name=trbe\n"
                                                 "file=trace_buffer.bin\n"
                                                 "format=source_data\n"
                                                 "\n"
                                                 "[source_buffers]\n"
                                                 "ete_0=trbe\n"
                                                 "\n"
                                                 "[core_trace_sources]\n"
                                                 "cpu_0=ete_0\n");
    EXPECT_EQ(read_bytes(dir.path / "trace_buffer.bin"), (bytes{1, 2, 3}));
    EXPECT_EQ(read_bytes(dir.path / "memory_0.bin"), p.image_bytes());
    EXPECT_EQ(read_bytes(dir.path / "memory_1.bin"), (bytes{0xAA, 0xBB}));
}

TEST(OpencsdSnapshot, TrcPktListerDecodesTheWalkersRanges)
{
    temp_dir dir;
    const synthetic_program p;
    ete_encoder_config cfg;
    cfg.resync_period = 256; // restart points inside the capture, decoded straight through
    trace_capture c;
    c.trace = synthetic_trace(p, 300, cfg);
    c.images = {p.image()};
    ASSERT_EQ(write_opencsd_snapshot(dir.path.string(), c), snapshot_status::ok);
    const std::string out = run_lister(dir.path);
    expect_no_decode_error(out);
    EXPECT_NE(out.find("processed " + std::to_string(c.trace.size()) + " bytes"), std::string::npos)
        << out;
    EXPECT_EQ(lister_ranges(out), p.ranges(300));
}

TEST(OpencsdSnapshot, WrappedBufferDecodesFromTheFirstSyncAfterTheWritePointer)
{
    // A 1000-byte buffer in Wrap mode that received a longer stream: byte k of the stream went to
    // offset k mod 1000, so it holds the last 1000 bytes, the oldest at the write pointer.
    const synthetic_program p;
    ete_encoder_config cfg;
    cfg.resync_period = 256;
    ete_encoder e(cfg, p.waypoint_map());
    ASSERT_EQ(e.start(ete_context{}, p.base()), ete_status::ok);
    std::vector<size_t> waypoints_before_sync{0};
    size_t waypoints = 0;
    const uint64_t iterations = 1500;
    for (uint64_t i = 0; i < iterations; i++)
        for (const waypoint &w : p.walk(1)) {
            e.atom(w.taken);
            waypoints++;
            if (e.sync_offsets().size() > waypoints_before_sync.size())
                waypoints_before_sync.push_back(waypoints);
        }
    bytes stream;
    e.take(stream);
    const size_t size = 1000;
    ASSERT_GT(stream.size(), 2 * size);
    bytes buffer(size);
    for (size_t k = 0; k < stream.size(); k++)
        buffer[k % size] = stream[k];
    const uint64_t write_offset = stream.size() % size;

    bytes ordered;
    ASSERT_EQ(trace_buffer_in_time_order(buffer, write_offset, true, ordered), snapshot_status::ok);
    const bytes last(stream.end() - static_cast<std::ptrdiff_t>(size), stream.end());
    ASSERT_EQ(ordered, last);

    // The first restart point at or after the oldest surviving byte.
    const uint64_t oldest = stream.size() - size;
    size_t k = 0;
    while (e.sync_offsets()[k] < oldest)
        k++;
    const std::vector<instruction_range> expected =
        tail(p.ranges(iterations), waypoints_before_sync[k]);
    ASSERT_FALSE(expected.empty());

    const decode_result r = decode_ete_trace(ordered, e.registers(), {p.image()});
    EXPECT_TRUE(r.ok()) << (r.messages.empty() ? "" : r.messages[0]);
    EXPECT_EQ(r.sync_offset, std::optional<uint64_t>(e.sync_offsets()[k] - oldest));
    EXPECT_EQ(r.ranges, expected);

    temp_dir dir;
    trace_capture c;
    c.trace = ordered;
    c.images = {p.image()};
    c.registers = e.registers();
    ASSERT_EQ(write_opencsd_snapshot(dir.path.string(), c), snapshot_status::ok);
    const std::string out = run_lister(dir.path);
    expect_no_decode_error(out);
    EXPECT_EQ(lister_ranges(out), expected);
}

TEST(OpencsdSnapshot, TimeOrderOfAWrappedBuffer)
{
    const bytes buffer = {0, 1, 2, 3, 4, 5};
    bytes out;
    ASSERT_EQ(trace_buffer_in_time_order(buffer, 2, true, out), snapshot_status::ok);
    EXPECT_EQ(out, (bytes{2, 3, 4, 5, 0, 1}));
    out.clear();
    ASSERT_EQ(trace_buffer_in_time_order(buffer, 0, true, out), snapshot_status::ok);
    EXPECT_EQ(out, buffer);
    out.clear();
    // Not wrapped: only what was written, from the base to the write pointer.
    ASSERT_EQ(trace_buffer_in_time_order(buffer, 4, false, out), snapshot_status::ok);
    EXPECT_EQ(out, (bytes{0, 1, 2, 3}));
}

TEST(OpencsdSnapshot, WriteOffsetPastTheBufferIsBadInput)
{
    std::vector<std::string> lines;
    bytes out = {9};
    EXPECT_EQ(trace_buffer_in_time_order(bytes(4), 5, true, out,
                                         [&](const std::string &l) { lines.push_back(l); }),
              snapshot_status::bad_input);
    EXPECT_EQ(out, bytes{9});
    EXPECT_EQ(lines.size(), 1u);
}

TEST(OpencsdSnapshot, BadCapturesAreRefusedWithALogLine)
{
    temp_dir dir;
    std::vector<std::string> lines;
    const trace_log log = [&](const std::string &l) { lines.push_back(l); };
    trace_capture c;
    EXPECT_EQ(write_opencsd_snapshot("", c, log), snapshot_status::bad_input);
    c.images = {memory_image{0x1000, {}}};
    EXPECT_EQ(write_opencsd_snapshot(dir.path.string(), c, log), snapshot_status::bad_input);
    c.images = {memory_image{0x1000, bytes(16)}, memory_image{0x100C, bytes(4)}};
    EXPECT_EQ(write_opencsd_snapshot(dir.path.string(), c, log), snapshot_status::bad_input);
    c.images = {memory_image{0xFFFF'FFFF'FFFF'FFF0, bytes(32)}};
    EXPECT_EQ(write_opencsd_snapshot(dir.path.string(), c, log), snapshot_status::bad_input);
    c.images.clear();
    c.description = "two\nlines";
    EXPECT_EQ(write_opencsd_snapshot(dir.path.string(), c, log), snapshot_status::bad_input);
    c.description = "an ETMv4";
    c.registers.trcdevarch = 0x47704A13; // ARCHVER 4
    EXPECT_EQ(write_opencsd_snapshot(dir.path.string(), c, log), snapshot_status::bad_input);
    EXPECT_EQ(lines.size(), 6u);
    EXPECT_FALSE(fs::exists(dir.path)) << "nothing written for bad input";
}

TEST(OpencsdSnapshot, UnwritableDirectoryIsAnIoError)
{
    temp_dir dir;
    fs::create_directories(dir.path);
    std::ofstream(dir.path / "file") << "x";
    std::vector<std::string> lines;
    EXPECT_EQ(write_opencsd_snapshot((dir.path / "file" / "sub").string(), trace_capture(),
                                     [&](const std::string &l) { lines.push_back(l); }),
              snapshot_status::io_error);
    EXPECT_EQ(lines.size(), 1u);
}

} // namespace
