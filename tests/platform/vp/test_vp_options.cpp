// pmtrace-vp's command line (platform/pmtrace-vp/options.h): what --help states of the defaults
// and ranges is what the parsing does. Each test reads a value out of the help text and checks it
// against the value the run uses (the platform's own defaults: a64_cpu_config, cpu_config,
// vp_config) or against what parse() accepts and refuses at that value and past it; none
// compares the help with a copied string.
#include <gtest/gtest.h>

#include "options.h"
#include "rtc_base.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/cpu.h>
#include <pmtrace/platform/vp.h>

#include <cctype>
#include <cstdlib>
#include <ctime>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using namespace pmtrace;
using namespace pmtrace::vp_cli;

struct parsed {
    int status; // parse's: -1 to run, else the exit status
    options o;
    std::string out, err;
};

parsed run_parse(std::vector<std::string> args)
{
    args.insert(args.begin(), "pmtrace-vp");
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    parsed p;
    std::ostringstream out, err;
    p.status = parse(static_cast<int>(argv.size()), argv.data(), p.o, out, err);
    p.out = out.str();
    p.err = err.str();
    return p;
}

// The help's paragraph of an option (from its line, "  --name" or "  -n [ --name ]", to the next
// option's), its lines joined.
std::string help_of(const std::string &option)
{
    const std::string help = run_parse({"--help"}).out;
    const std::regex line("\n  (-[a-zA-Z] \\[ )?--" + option + "[ \\]]");
    std::smatch m;
    EXPECT_TRUE(std::regex_search(help, m, line)) << "--" << option << " is not in the help";
    if (m.empty())
        return "";
    const size_t at = static_cast<size_t>(m.position(0)) + 1;
    const size_t end = help.find("\n  -", at);
    const std::string text =
        help.substr(at, end == std::string::npos ? std::string::npos : end - at);
    std::string joined;
    for (char c : text) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (!(space && !joined.empty() && joined.back() == ' '))
            joined += space ? ' ' : c;
    }
    return joined;
}

// A time as the help writes it (100us, 1ns, 2ms, 1s).
sc_core::sc_time time_of(const std::string &number, const std::string &unit)
{
    const double v = std::stod(number);
    return unit == "s"    ? sc_core::sc_time(v, sc_core::SC_SEC)
           : unit == "ms" ? sc_core::sc_time(v, sc_core::SC_MS)
           : unit == "us" ? sc_core::sc_time(v, sc_core::SC_US)
           : unit == "ns" ? sc_core::sc_time(v, sc_core::SC_NS)
                          : sc_core::sc_time(v, sc_core::SC_PS);
}

// A size as the help writes it (4K, 128M, 255G).
uint64_t size_of(const std::string &text)
{
    char *end = nullptr;
    uint64_t v = std::strtoull(text.c_str(), &end, 0);
    switch (*end) {
    case 'K': return v << 10;
    case 'M': return v << 20;
    case 'G': return v << 30;
    case 'T': return v << 40;
    default: return v;
    }
}

std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

TEST(VpOptions, HelpStatesTheQuantumEachCpuRunsWith)
{
    const std::string help = help_of("quantum");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        help, m,
        std::regex("default ([0-9]+)(ps|ns|us|ms|s) on the AArch64 CPU .*, ([0-9]+)(ps|ns|us|ms|s) "
                   "with --cpu host; 0: none \\(the default with --vcd")))
        << help;
    // What the help says is what the CPUs are configured with by default ...
    EXPECT_EQ(time_of(m[1], m[2]), platform::a64_cpu_config().quantum);
    EXPECT_EQ(time_of(m[3], m[4]), platform::cpu_config().quantum);
    // ... and what the options give them.
    EXPECT_EQ(run_parse({}).o.quantum, time_of(m[1], m[2]));
    EXPECT_EQ(run_parse({"--kernel", "x.elf"}).o.quantum, time_of(m[1], m[2]));
    EXPECT_EQ(run_parse({"--cpu", "host"}).o.quantum, time_of(m[3], m[4]));
    EXPECT_EQ(run_parse({"--vcd", "/dev/null"}).o.quantum, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(run_parse({"--quantum", "3us"}).o.quantum, sc_core::sc_time(3, sc_core::SC_US));
}

TEST(VpOptions, HelpStatesTheRamAndItsRange)
{
    const std::string help = help_of("ram");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        help, m,
        std::regex(
            "\\(=([0-9]+[KMGT]?)\\) RAM at (0x[0-9a-f]+) for the AArch64 CPU's runs, "
            "--kernel's and the scenarios': a multiple of 4 KiB from ([0-9]+[KMGT]?) to "
            "([0-9]+[KMGT]?), in bytes or with K, M, G or T .*--cpu host has ([0-9]+[KMGT]?)")))
        << help;
    EXPECT_EQ(size_of(m[1]), run_parse({}).o.ram_size);
    EXPECT_EQ(std::stoull(m[2], nullptr, 16), platform::virt::ram_base);
    EXPECT_EQ(size_of(m[5]), platform::vp_config().ram_size);
    // The range, at its ends and past them, with the units the help names (--kernel: a scenario's
    // trace buffer needs RAM above its first MiB).
    const uint64_t low = size_of(m[3]), high = size_of(m[4]);
    EXPECT_EQ(run_parse({"--kernel", "x.elf", "--ram", m[3]}).o.ram_size, low);
    EXPECT_EQ(run_parse({"--kernel", "x.elf", "--ram", m[3]}).status, -1);
    EXPECT_EQ(run_parse({"--ram", m[4], "--dump-dtb", "/dev/null"}).status, -1);
    EXPECT_EQ(run_parse({"--ram", m[4]}).o.ram_size, high);
    const parsed above = run_parse({"--ram", std::to_string(high + 0x1000)});
    EXPECT_EQ(above.status, exit_usage);
    EXPECT_NE(above.err.find("is more than " + m[4].str()), std::string::npos) << above.err;
    const parsed terabyte = run_parse({"--ram", "1T"});
    EXPECT_EQ(terabyte.status, exit_usage);
    EXPECT_NE(terabyte.err.find("--ram: '1T' is more than " + m[4].str()), std::string::npos)
        << terabyte.err;
    EXPECT_EQ(run_parse({"--kernel", "x.elf", "--ram", std::to_string(low - 1)}).status,
              exit_usage);
    EXPECT_EQ(run_parse({"--kernel", "x.elf", "--ram", std::to_string(low + 1)}).status,
              exit_usage);
    EXPECT_EQ(run_parse({"--ram", "2g"}).o.ram_size, uint64_t{2} << 30);
    EXPECT_EQ(run_parse({"--ram", "65536k"}).o.ram_size, uint64_t{64} << 20);
}

TEST(VpOptions, HelpStatesWhereTheTraceBufferMayLie)
{
    const std::string help = help_of("buffer-base");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        help, m,
        std::regex(
            "\\(=(0x[0-9a-f]+)\\).* from (0x[0-9a-f]+) up to the end of RAM \\((0x[0-9a-f]+) "
            "with the default --ram ([0-9]+[KMGT]?); (0x[0-9a-f]+) with --cpu host, whose "
            "RAM is ([0-9]+[KMGT]?)\\)")))
        << help;
    const uint64_t first = std::stoull(m[2], nullptr, 16), a64_end = std::stoull(m[3], nullptr, 16),
                   host_end = std::stoull(m[5], nullptr, 16);
    const options defaults = run_parse({}).o;
    EXPECT_EQ(std::stoull(m[1], nullptr, 16), defaults.buffer_base);
    EXPECT_EQ(size_of(m[4]), defaults.ram_size);
    EXPECT_EQ(a64_end, platform::virt::ram_base + defaults.ram_size);
    EXPECT_EQ(host_end, platform::virt::ram_base + platform::vp_config().ram_size);
    EXPECT_EQ(size_of(m[6]), platform::vp_config().ram_size);
    // A 64 KiB buffer at the first address and at the last that fits, on each CPU; one page
    // lower or higher is refused.
    for (const std::vector<std::string> &cpu :
         {std::vector<std::string>{}, std::vector<std::string>{"--cpu", "host"}}) {
        const uint64_t end = cpu.empty() ? a64_end : host_end;
        auto with = [&](uint64_t base) {
            std::vector<std::string> args = cpu;
            args.insert(args.end(), {"--buffer-base", hex(base), "--buffer-size", "64K"});
            return run_parse(args).status;
        };
        EXPECT_EQ(with(first), -1);
        EXPECT_EQ(with(first - 0x1000), exit_usage);
        EXPECT_EQ(with(end - 0x1'0000), -1);
        EXPECT_EQ(with(end - 0x1'0000 + 0x1000), exit_usage);
    }
}

TEST(VpOptions, HelpStatesHowManyEventsStatCounts)
{
    const std::string help = help_of("events");
    std::smatch m;
    ASSERT_TRUE(
        std::regex_search(help, m, std::regex("stat: 1 to ([0-9]+) comma-separated events")))
        << help;
    const unsigned most = static_cast<unsigned>(std::stoul(m[1]));
    auto events = [](unsigned n) {
        std::string list;
        for (unsigned i = 0; i < n; i++)
            list += std::string(i ? "," : "") + "INST_RETIRED";
        return list;
    };
    EXPECT_EQ(run_parse({"-e", events(most)}).o.events.size(), most);
    const parsed more = run_parse({"-e", events(most + 1)});
    EXPECT_EQ(more.status, exit_usage);
    EXPECT_NE(more.err.find("1 to " + m[1].str() + " events"), std::string::npos) << more.err;
}

TEST(VpOptions, HelpStatesTheTraceUnitBufferAndBatchRanges)
{
    std::smatch m;
    const std::string unit = help_of("trace-unit-buffer");
    ASSERT_TRUE(std::regex_search(unit, m,
                                  std::regex("\\(=([0-9]+[KMGT]?)\\).* or ([0-9]+[KMGT]?) to "
                                             "([0-9]+[KMGT]?) bytes")))
        << unit;
    EXPECT_EQ(size_of(m[1]), run_parse({}).o.trace_unit_buffer);
    EXPECT_EQ(run_parse({"--trace-unit-buffer", m[2]}).status, -1);
    EXPECT_EQ(run_parse({"--trace-unit-buffer", m[3]}).status, -1);
    EXPECT_EQ(run_parse({"--trace-unit-buffer", std::to_string(size_of(m[2]) - 1)}).status,
              exit_usage);
    EXPECT_EQ(run_parse({"--trace-unit-buffer", std::to_string(size_of(m[3]) + 1)}).status,
              exit_usage);
    const std::string batch = help_of("trace-batch");
    ASSERT_TRUE(std::regex_search(batch, m, std::regex("in one call, 1 to ([0-9]+),"))) << batch;
    EXPECT_EQ(run_parse({"--trace-batch", m[1]}).status, -1);
    EXPECT_EQ(run_parse({"--trace-batch", std::to_string(std::stoul(m[1]) + 1)}).status,
              exit_usage);
}

TEST(VpOptions, HelpStatesHowManyCountersThePmuMayHave)
{
    std::smatch m;
    const std::string help = help_of("counters");
    ASSERT_TRUE(std::regex_search(help, m, std::regex("PMCR_EL0.N, 1\\.\\.([0-9]+)\\)"))) << help;
    EXPECT_EQ(run_parse({"--counters", m[1]}).status, -1);
    EXPECT_EQ(run_parse({"--counters", std::to_string(std::stoul(m[1]) + 1)}).status, exit_usage);
}

// --initrd: where the help says the initial RAM disk goes is where the boot code puts it
// (boot_image.h's initrd_offset), and it belongs to --kernel's image.
TEST(VpOptions, HelpStatesWhereTheInitrdGoes)
{
    std::smatch m;
    const std::string help = help_of("initrd");
    ASSERT_TRUE(std::regex_search(
        help, m,
        std::regex("at RAM \\+ min\\(RAM / 2, ([0-9]+[KMGT]?)\\) \\(([0-9]+[KMGT]?) with the "
                   "default --ram\\)")))
        << help;
    EXPECT_EQ(size_of(m[1]), platform::initrd_offset(~uint64_t{0}));
    EXPECT_EQ(size_of(m[2]), platform::initrd_offset(run_parse({}).o.ram_size));
    EXPECT_EQ(platform::initrd_offset(uint64_t{1} << 30), size_of(m[1])); // 1 GiB: the cap
    EXPECT_EQ(platform::initrd_offset(uint64_t{32} << 20), uint64_t{16} << 20);
    const parsed given = run_parse({"--kernel", "Image", "--initrd", "rootfs.cpio.gz"});
    EXPECT_EQ(given.status, -1) << given.err;
    EXPECT_EQ(given.o.initrd, "rootfs.cpio.gz");
    const parsed alone = run_parse({"--initrd", "rootfs.cpio.gz"});
    EXPECT_EQ(alone.status, exit_usage);
    EXPECT_NE(alone.err.find("--initrd needs --kernel IMAGE"), std::string::npos) << alone.err;
}

} // namespace

// --midr: a part and its revision make MIDR_EL1 as D24.2.137 lays it out (Implementer 0x41 [31:24],
// Variant [23:20], Architecture 0xF [19:16], PartNum [15:4], Revision [3:0]); a number is taken
// as it is; none: 0 (the engine's).
TEST(VpOptions, MidrOfAPartAndRevision)
{
    EXPECT_EQ(run_parse({}).o.midr, 0u);
    EXPECT_EQ(run_parse({"--midr", "cortex-a710r2p0"}).o.midr, 0x412FD470u);
    EXPECT_EQ(run_parse({"--midr", "cortex-a510r0p2"}).o.midr, 0x410FD462u);
    EXPECT_EQ(run_parse({"--midr", "neoverse-n2r0p3"}).o.midr, 0x410FD493u);
    EXPECT_EQ(run_parse({"--midr", "cortex-x2r1p0"}).o.midr, 0x411FD480u);
    EXPECT_EQ(run_parse({"--midr", "cortex-a72r0p3"}).o.midr, 0x410FD083u);
    EXPECT_EQ(run_parse({"--midr", "0x413FD0C1"}).o.midr, 0x413FD0C1u);
    EXPECT_EQ(run_parse({"--midr", "cortex-a710r15p15"}).o.midr, 0x41FFD47Fu);
    for (const char *bad :
         {"cortex-a710", "cortex-a710r2", "cortex-a710r2p", "cortex-a710r16p0", "cortex-a710r+2p0",
          "cortex-a710r-1p0", "cortex-a710r 2p0", "cortex-a710r4294967298p0", "cortex-a710r2p0x",
          "0", "0x0", "0100", "0x1FFFFFFFF", "-0x1", "0x", ""})
        EXPECT_EQ(run_parse({"--midr", bad}).status, 2) << bad;
}

// --trbe-erratum: each name turns its pmt_trbe_config option on, and only that one.
TEST(VpOptions, TrbeErrataByName)
{
    const options none = run_parse({}).o;
    EXPECT_FALSE(none.erratum_fill_overwrite || none.erratum_write_out_of_range ||
                 none.erratum_drain_after_disable || none.erratum_ctxt_sync_after_enable);
    const options a710 = run_parse({"--trbe-erratum", "fill-overwrite,write-out-of-range"}).o;
    EXPECT_TRUE(a710.erratum_fill_overwrite && a710.erratum_write_out_of_range);
    EXPECT_FALSE(a710.erratum_drain_after_disable || a710.erratum_ctxt_sync_after_enable);
    const options a510 =
        run_parse({"--trbe-erratum", "drain-after-disable,ctxt-sync-after-enable"}).o;
    EXPECT_TRUE(a510.erratum_drain_after_disable && a510.erratum_ctxt_sync_after_enable);
    EXPECT_FALSE(a510.erratum_fill_overwrite || a510.erratum_write_out_of_range);
    for (const char *bad :
         {"", "fill-overwrite,", ",fill-overwrite", "fill-overwrite,,ctxt-sync-after-enable"})
        EXPECT_EQ(run_parse({"--trbe-erratum", bad}).status, 2) << bad;
}

// --rtc-base: QEMU's -rtc base= forms. utc (the default) leaves the base to the RTC (the host's
// clock when it is built); a date is UTC, seconds since 1970 by the Gregorian calendar; the range
// the help states (the PL031's 32-bit count) is what the parsing accepts, one second past either
// end is refused.
TEST(VpOptions, RtcBaseTakesQemusFormsWithinTheHelpsRange)
{
    EXPECT_FALSE(run_parse({}).o.rtc_base.has_value());
    EXPECT_FALSE(run_parse({"--rtc-base", "utc"}).o.rtc_base.has_value());
    const std::pair<const char *, int64_t> dates[] = {
        {"2006-06-17T16:01:21", 1150560081},
        {"2006-06-17", 1150502400},
        {"2000-02-29T12:00:00", 951825600},
        {"2024-12-31T23:59:59", 1735689599},
        {"1970-01-01", 0},
    };
    for (const auto &[text, seconds] : dates) {
        const parsed p = run_parse({"--rtc-base", text});
        EXPECT_EQ(p.status, -1) << text << ": " << p.err;
        EXPECT_EQ(p.o.rtc_base, std::optional<int64_t>(seconds)) << text;
        EXPECT_EQ(rtc_date_text(seconds).substr(0, std::string(text).size()), text);
    }
    // localtime: the host's clock in its zone (UTC-12 to UTC+14 from it).
    const int64_t now = static_cast<int64_t>(std::time(nullptr));
    const std::optional<int64_t> local = run_parse({"--rtc-base", "localtime"}).o.rtc_base;
    ASSERT_TRUE(local.has_value());
    EXPECT_GE(*local, now - 12 * 3600 - 60);
    EXPECT_LE(*local, now + 14 * 3600 + 60);

    std::smatch m;
    const std::string help = help_of("rtc-base");
    ASSERT_TRUE(std::regex_search(help, m,
                                  std::regex("from ([0-9T:-]+) to ([0-9T:-]+) \\(the RTC's "
                                             "32-bit count of seconds since 1970\\)")))
        << help;
    const std::optional<int64_t> first = run_parse({"--rtc-base", m[1]}).o.rtc_base;
    const std::optional<int64_t> last = run_parse({"--rtc-base", m[2]}).o.rtc_base;
    EXPECT_EQ(first, std::optional<int64_t>(0));
    EXPECT_EQ(last, std::optional<int64_t>(0xFFFF'FFFF));
    for (const std::string &past : {rtc_date_text(-1), rtc_date_text(int64_t{1} << 32)}) {
        const parsed p = run_parse({"--rtc-base", past});
        EXPECT_EQ(p.status, exit_usage) << past;
        EXPECT_NE(p.err.find("is outside what the PL031 counts"), std::string::npos) << p.err;
    }
    for (const char *bad : {"",
                            "UTC",
                            "now",
                            "base=utc",
                            "2006-06-17T16:01",
                            "2006-6-17",
                            "06-06-17",
                            "2006-13-01",
                            "2006-00-10",
                            "2006-06-00",
                            "2006-06-31",
                            "2023-02-29",
                            "1900-02-29",
                            "2006-06-17T24:00:00",
                            "2006-06-17T12:60:00",
                            "2006-06-17T12:00:60",
                            "2006-06-17 16:01:21",
                            "2006-06-17T16:01:21Z",
                            "+2006-06-17",
                            "2006-06-17T"}) {
        const parsed p = run_parse({"--rtc-base", bad});
        EXPECT_EQ(p.status, exit_usage) << bad;
        EXPECT_NE(p.err.find("--rtc-base: '" + std::string(bad) + "' is neither utc, localtime"),
                  std::string::npos)
            << p.err;
    }
}
