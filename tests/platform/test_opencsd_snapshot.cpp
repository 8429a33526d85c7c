// The OpenCSD snapshot: the files the snapshot reader of OpenCSD 1.3.3 expects, and
// trc_pkt_lister (OpenCSD's own tool, as a user runs it) decoding them into exactly the ranges the
// synthetic program executes - a straight capture and a wrapped one.
#include <gtest/gtest.h>
#include <pmtrace/platform/opencsd_snapshot.h>
#include <pmtrace/platform/synthetic_program.h>
#include <pmtrace/platform/trace_decoder.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef PMTRACE_TRC_PKT_LISTER
#define PMTRACE_TRC_PKT_LISTER ""
#endif

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

// A directory of its own for each test, removed afterwards.
struct temp_dir {
    fs::path path;
    temp_dir()
    {
        const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
        path = fs::temp_directory_path() /
               ("pmtrace_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
    }
    ~temp_dir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string read_text(const fs::path &p)
{
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

bytes read_bytes(const fs::path &p)
{
    const std::string s = read_text(p);
    return bytes(s.begin(), s.end());
}

// The path CMake found, or a failure that says how to get it (CI installs libopencsd-bin).
std::string lister()
{
    const std::string path = PMTRACE_TRC_PKT_LISTER;
    if (path.empty() || path.find("NOTFOUND") != std::string::npos || !fs::exists(fs::path(path))) {
        ADD_FAILURE() << "trc_pkt_lister (OpenCSD) was not found when configuring ('" << path
                      << "'): install libopencsd-bin (scripts/install-deps.sh) and reconfigure";
        return "";
    }
    return path;
}

// Runs trc_pkt_lister on a snapshot directory, its output to stdout. It writes the start of
// its log to trc_pkt_lister.ppl in the current directory before it reads -logstdout, so it runs
// in the snapshot directory (removed with it).
std::string run_lister(const fs::path &dir)
{
    const std::string tool = lister();
    if (tool.empty())
        return "";
    const std::string cmd =
        "cd '" + dir.string() + "' && '" + tool + "' -ss_dir . -decode -logstdout 2>&1";
    std::string out;
    FILE *pipe = ::popen(cmd.c_str(), "r");
    if (pipe == nullptr) {
        ADD_FAILURE() << "cannot run " << cmd;
        return "";
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
        out.append(buf, n);
    const int status = ::pclose(pipe);
    EXPECT_EQ(status, 0) << cmd << "\n" << out;
    return out;
}

// The OCSD_GEN_TRC_ELEM_INSTR_RANGE lines of trc_pkt_lister's output, e.g.
//   OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x40080000:[0x4008000c] num_i(3) last_sz(4)
//   (ISA=A64) N BR   <cond>)
std::vector<instruction_range> lister_ranges(const std::string &out)
{
    static const std::regex line(
        R"(OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] )"
        R"(num_i\((\d+)\) last_sz\(\d+\) \(ISA=A64\) ([EN]) (\w+))");
    std::vector<instruction_range> r;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator();
         ++it) {
        const std::smatch &m = *it;
        instruction_range x;
        x.start = std::stoull(m[1].str(), nullptr, 16);
        x.end = std::stoull(m[2].str(), nullptr, 16);
        x.instructions = static_cast<uint32_t>(std::stoul(m[3].str()));
        x.taken = m[4].str() == "E";
        const std::string kind = m[5].str();
        x.last_kind = kind == "BR"    ? instr_kind::branch
                      : kind == "iBR" ? instr_kind::indirect_branch
                                      : instr_kind::other;
        r.push_back(x);
    }
    return r;
}

// trc_pkt_lister prints library errors as "... (OCSD_ERR_...)" and a decoder that lost sync on a
// bad packet as NO_SYNC( [bad-packet]).
void expect_no_decode_error(const std::string &out)
{
    EXPECT_EQ(out.find("OCSD_ERR"), std::string::npos) << out;
    EXPECT_EQ(out.find("bad-packet"), std::string::npos) << out;
    EXPECT_NE(out.find("Trace Packet Lister : Trace buffer done"), std::string::npos) << out;
}

std::vector<instruction_range> tail(const std::vector<instruction_range> &all, size_t from)
{
    return std::vector<instruction_range>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                          all.end());
}

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
    // TRCIDR0 RES1, TRCBB, TSSIZE 64-bit, COMMOPT; TRCIDR1 Arm, "see TRCDEVARCH";
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
                                                 "TRCIDR0=0x28000021\n"
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
