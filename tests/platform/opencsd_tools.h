// opencsd_tools.h - test helpers around OpenCSD's own tool: a temporary snapshot directory,
// trc_pkt_lister run on it (-decode), and the instruction ranges and errors of its output. Shared
// by the snapshot tests (test_opencsd_snapshot.cpp) and the platform's end-to-end ETE tests
// (test_vp_ete.cpp). A test executable that uses it defines PMTRACE_TRC_PKT_LISTER (CMake's
// find_program) and links opencsd_lsan.cpp.
#ifndef PMTRACE_TESTS_PLATFORM_OPENCSD_TOOLS_H
#define PMTRACE_TESTS_PLATFORM_OPENCSD_TOOLS_H

#include <gtest/gtest.h>
#include <pmtrace/platform/trace/trace_types.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef PMTRACE_TRC_PKT_LISTER
#define PMTRACE_TRC_PKT_LISTER ""
#endif

namespace opencsd_tools
{

namespace fs = std::filesystem;
using pmtrace::platform::instr_kind;
using pmtrace::platform::instruction_range;

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
    temp_dir(const temp_dir &) = delete;
    temp_dir &operator=(const temp_dir &) = delete;
};

inline std::string read_text(const fs::path &p)
{
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

inline std::vector<uint8_t> read_bytes(const fs::path &p)
{
    const std::string s = read_text(p);
    return std::vector<uint8_t>(s.begin(), s.end());
}

// The path CMake found, or a failure that says how to get it (CI installs libopencsd-bin).
inline std::string lister()
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
inline std::string run_lister(const fs::path &dir)
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
inline std::vector<instruction_range> lister_ranges(const std::string &out)
{
    // Parsed with sscanf: GCC 12 warns inside <regex> at -O2 with the sanitizers
    // (-Wmaybe-uninitialized), which -Werror turns into a failed CI build.
    static const char tag[] = "OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x";
    std::vector<instruction_range> r;
    for (size_t pos = out.find(tag); pos != std::string::npos; pos = out.find(tag, pos + 1)) {
        const size_t eol = out.find('\n', pos);
        const std::string text = out.substr(pos, eol == std::string::npos ? eol : eol - pos);
        unsigned long long start = 0, end = 0;
        unsigned num = 0;
        char atom[2] = {}, kind[16] = {};
        if (std::sscanf(text.c_str(),
                        "OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x%llx:[0x%llx] num_i(%u) "
                        "last_sz(%*u) (ISA=A64) %1[EN] %15s",
                        &start, &end, &num, atom, kind) != 5)
            continue;
        instruction_range x;
        x.start = start;
        x.end = end;
        x.instructions = num;
        x.taken = atom[0] == 'E';
        const std::string k = kind;
        x.last_kind = k == "BR"    ? instr_kind::branch
                      : k == "iBR" ? instr_kind::indirect_branch
                                   : instr_kind::other;
        r.push_back(x);
    }
    return r;
}

// trc_pkt_lister prints library errors as "... (OCSD_ERR_...)" and a decoder that lost sync on a
// bad packet as NO_SYNC( [bad-packet]).
inline void expect_no_decode_error(const std::string &out)
{
    EXPECT_EQ(out.find("OCSD_ERR"), std::string::npos) << out;
    EXPECT_EQ(out.find("bad-packet"), std::string::npos) << out;
    EXPECT_NE(out.find("Trace Packet Lister : Trace buffer done"), std::string::npos) << out;
}

// The ranges of `all` from index `from` on.
inline std::vector<instruction_range> tail(const std::vector<instruction_range> &all, size_t from)
{
    return std::vector<instruction_range>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                          all.end());
}

} // namespace opencsd_tools

#endif
