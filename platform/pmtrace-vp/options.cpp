// options.cpp - pmtrace-vp's command line (options.h).
#include "options.h"
#include "rtc_base.h"

#include <pmtrace/platform/cpu/a64_cpu.h>

#include <boost/program_options.hpp>

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/vp.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <ostream>
#include <sstream>

namespace po = boost::program_options;

namespace pmtrace::vp_cli
{

sc_core::sc_time default_quantum(cpu_kind cpu)
{
    return cpu == cpu_kind::a64 ? platform::a64_cpu_config().quantum
                                : platform::cpu_config().quantum;
}

uint64_t ram_size_of(cpu_kind cpu, uint64_t ram_option)
{
    return cpu == cpu_kind::a64 ? ram_option : platform::vp_config().ram_size;
}

std::string size_text(uint64_t bytes)
{
    static const char units[] = {'T', 'G', 'M', 'K'};
    for (unsigned i = 0; i < sizeof units; i++) {
        const unsigned shift = 10 * (4 - i);
        if (bytes && bytes % (uint64_t{1} << shift) == 0)
            return std::to_string(bytes >> shift) + units[i];
    }
    return std::to_string(bytes);
}

std::string hex_text(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

std::string time_text(const sc_core::sc_time &t)
{
    static const struct {
        const char *unit;
        sc_core::sc_time per;
    } units[] = {{"s", sc_core::sc_time(1, sc_core::SC_SEC)},
                 {"ms", sc_core::sc_time(1, sc_core::SC_MS)},
                 {"us", sc_core::sc_time(1, sc_core::SC_US)},
                 {"ns", sc_core::sc_time(1, sc_core::SC_NS)}};
    if (t == sc_core::SC_ZERO_TIME)
        return "0";
    for (const auto &u : units)
        if (t >= u.per && t.value() % u.per.value() == 0)
            return std::to_string(t.value() / u.per.value()) + u.unit;
    return std::to_string(t.value() / sc_core::sc_time(1, sc_core::SC_PS).value()) + "ps";
}

namespace
{

// A usage error: the message, then the status.
struct bad_argument {
    std::string what;
};

using limits::max_irq_cycles;

// The units of a size: K, M, G and T (binary, as QEMU's -m), either case.
constexpr struct {
    char unit;
    unsigned shift;
} size_units[] = {{'K', 10}, {'M', 20}, {'G', 30}, {'T', 40}};

// 4096, 0x1000, 64K, 1M, 2G, 1T
uint64_t parse_size(const std::string &name, const std::string &text)
{
    char *end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    uint64_t scale = 1;
    for (const auto &u : size_units)
        if (end && std::toupper(static_cast<unsigned char>(*end)) == u.unit) {
            scale = uint64_t{1} << u.shift;
            end++;
            break;
        }
    if (text.empty() || text[0] == '-' || !end || *end || errno || v > UINT64_MAX / scale)
        throw bad_argument{"--" + name + ": '" + text +
                           "' is not a size (bytes: 4096, 0x1000; or with K, M, G or T: 64K, 2G)"};
    return v * scale;
}

// 2ms, 500us, 100ns, 1s, 1.5ms
sc_core::sc_time parse_time(const std::string &name, const std::string &text,
                            bool zero_allowed = false)
{
    if (zero_allowed && text == "0")
        return sc_core::SC_ZERO_TIME;
    static const struct {
        const char *unit;
        sc_core::sc_time_unit tu;
    } units[] = {{"ps", sc_core::SC_PS},
                 {"ns", sc_core::SC_NS},
                 {"us", sc_core::SC_US},
                 {"ms", sc_core::SC_MS},
                 {"s", sc_core::SC_SEC}};
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    for (const auto &u : units)
        if (end && end != text.c_str() && std::string(end) == u.unit && std::isfinite(v) && v > 0)
            return sc_core::sc_time(v, u.tu);
    throw bad_argument{"--" + name + ": '" + text + "' is not a positive time (100ns, 2ms, 1s)"};
}

// INST_RETIRED, inst_retired (perf's names are case-insensitive), 0x08
uint16_t parse_event(const std::string &text)
{
    std::string upper = text;
    for (char &c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (unsigned n = 0; n < 0x10000; n++) {
        const char *name = sw_event_name(static_cast<uint16_t>(n));
        if (name && upper == name)
            return static_cast<uint16_t>(n);
    }
    char *end = nullptr;
    unsigned long v = std::strtoul(text.c_str(), &end, 0);
    if (text.empty() || *end || v > 0xFFFF)
        throw bad_argument{"unknown event '" + text + "' (a name such as INST_RETIRED, or 0x08)"};
    return static_cast<uint16_t>(v);
}

template <class T>
T lookup(const std::string &option, const std::string &value,
         std::initializer_list<std::pair<const char *, T>> table)
{
    std::string names;
    for (const auto &[name, v] : table) {
        if (value == name)
            return v;
        names += std::string(names.empty() ? "" : ", ") + name;
    }
    throw bad_argument{"--" + option + ": unknown value '" + value + "' (" + names + ")"};
}

struct raw {
    std::string cpu = "a64", exclude = "none";
    std::string scenario = "stat", pmu_version = "3.7", events, event = "INST_RETIRED";
    std::string duration, buffer_base = hex_text(limits::buffer_base_default),
                          buffer_size = size_text(limits::buffer_size_default), trace_mode = "fill";
    std::string trigger = "none", fault = "permission", fault_address, external_abort = "serror";
    std::string trace_data = "ete";
    std::string midr, trbe_errata;
    std::string rtc_base = "utc";
    std::string clock = "1ns", quantum, vcd_counters; // quantum: the CPU's default
    std::string ram = size_text(limits::ram_default), time_limit,
                trace_unit_buffer = size_text(PMT_ETE_UNIT_BUFFER_MIN);
    uint64_t trigger_after = 0;
    unsigned fault_stage = 1;
    int fault_level = 3;
    bool no_trace = false, no_fix = false;
};

// stat's events by default: on the AArch64 CPU what executed code gives (a64_cpu.h), on the
// host CPU the synthetic workload's.
const char *const default_events = "CPU_CYCLES,INST_RETIRED,BR_RETIRED,MEM_ACCESS,EXC_TAKEN,"
                                   "EXC_RETURN";
const char *const default_host_events = "CPU_CYCLES,INST_RETIRED,BR_RETIRED,BR_MIS_PRED_RETIRED,"
                                        "L1D_CACHE,L1D_CACHE_REFILL";

bool given(const po::variables_map &vm, const char *name)
{
    return vm.count(name) && !vm[name].defaulted();
}

// Boost converts "-5" for an unsigned option into 2^64 - 5: the unsigned options refuse
// anything but digits.
void check_unsigned(const po::parsed_options &parsed)
{
    static const char *const names[] = {"iterations",    "instructions", "el",
                                        "per-piece",     "counters",     "irq-cycles",
                                        "period",        "trace-bytes",  "trigger-after",
                                        "trigger-count", "fault-stage",  "trace-batch"};
    for (const po::option &opt : parsed.options)
        for (const char *name : names)
            if (opt.string_key == name)
                for (const std::string &v : opt.value)
                    if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])))
                        throw bad_argument{"--" + opt.string_key + ": '" + v +
                                           "' is not a number (0, 1, 2 ...)"};
}

// pmtrace-vp takes options only: a word that is no option's value (an image given without
// --kernel, a typo) is refused, not dropped.
void check_positional(const po::parsed_options &parsed)
{
    bool kernel = false;
    for (const po::option &opt : parsed.options)
        kernel = kernel || opt.string_key == "kernel";
    for (const po::option &opt : parsed.options)
        if (opt.position_key >= 0 || opt.string_key.empty()) {
            const std::string word = opt.original_tokens.empty() ? "" : opt.original_tokens[0];
            throw bad_argument{
                "unexpected argument '" + word + "': pmtrace-vp takes options only (" +
                (kernel ? std::string("--kernel takes one image; its command line is --append "
                                      "'WORDS'")
                        : "to boot an image: --kernel " + (word.empty() ? "IMAGE" : word)) +
                ")"};
        }
}

// A file the run will write: refused now if it cannot be, not after the run.
void check_writable(const char *name, const std::string &path)
{
    if (path.empty())
        return;
    std::ofstream f(path, std::ios::app);
    if (!f)
        throw bad_argument{std::string("--") + name + ": cannot write '" + path +
                           "': " + std::strerror(errno)};
}

void convert_kernel_options(const raw &r, const po::variables_map &vm, options &o);
void check_buffer(const options &o, uint64_t ram_size);

// The trace options --kernel IMAGE --trace takes (pmtrace-vp's own session, kernel_trace.h).
bool kernel_trace_option(const std::string &name)
{
    for (const char *t : {"trace-mode", "buffer-base", "buffer-size", "exclude", "trace-out",
                          "snapshot", "decode", "timestamps"})
        if (name == t)
            return true;
    return false;
}

// --kernel: the image is the workload, so the scenario's options do not apply; with --trace,
// the trace session's do.
void convert_kernel(const raw &r, const po::variables_map &vm, options &o)
{
    for (const char *name : {"scenario",
                             "iterations",
                             "duration",
                             "per-piece",
                             "irq-cycles",
                             "events",
                             "event",
                             "period",
                             "long-counters",
                             "no-trace",
                             "trace-mode",
                             "trace-data",
                             "trace-bytes",
                             "buffer-base",
                             "buffer-size",
                             "trigger",
                             "trigger-after",
                             "trigger-count",
                             "trace-out",
                             "snapshot",
                             "decode",
                             "timestamps",
                             "fault",
                             "fault-address",
                             "fault-stage",
                             "fault-level",
                             "no-fix",
                             "instructions",
                             "el",
                             "exclude",
                             "cpu"})
        if (given(vm, name) && !(o.kernel_trace && kernel_trace_option(name)))
            throw bad_argument{std::string("--") + name +
                               (kernel_trace_option(name)
                                    ? " with --kernel needs --trace (pmtrace-vp's own trace "
                                      "session around the image)"
                                    : " belongs to the scenarios; with --kernel the image is the "
                                      "workload")};
    convert_kernel_options(r, vm, o);
    if (o.kernel_trace)
        check_buffer(o, o.ram_size);
}

// --ram's range, as the help states it.
std::string ram_range_text()
{
    return "a multiple of 4 KiB from " + size_text(limits::ram_granule) + " to " +
           size_text(limits::ram_max);
}

// What the AArch64 CPU's runs share: RAM, the time limit, the trace unit.
void convert_kernel_options(const raw &r, const po::variables_map &, options &o)
{
    o.ram_size = parse_size("ram", r.ram);
    if (o.ram_size > limits::ram_max)
        throw bad_argument{"--ram: '" + r.ram + "' is more than " + size_text(limits::ram_max) +
                           " (virt's RAM ends at the 256 GiB boundary); " + ram_range_text()};
    if (o.ram_size == 0 || o.ram_size % limits::ram_granule)
        throw bad_argument{"--ram: '" + r.ram + "' is not " + ram_range_text()};
    if (!r.time_limit.empty())
        o.time_limit = parse_time("time-limit", r.time_limit);
    o.trace_unit_buffer = parse_size("trace-unit-buffer", r.trace_unit_buffer);
    if (o.trace_unit_buffer && (o.trace_unit_buffer < PMT_ETE_UNIT_BUFFER_MIN ||
                                o.trace_unit_buffer > PMT_ETE_UNIT_BUFFER_MAX))
        throw bad_argument{"--trace-unit-buffer: '" + r.trace_unit_buffer +
                           "' is neither 0 (none) nor 1K to 4K bytes"};
    if (o.trace_batch < 1 || o.trace_batch > pmtrace::platform::a64_trace_batch_max)
        throw bad_argument{"--trace-batch: from 1 to " +
                           std::to_string(pmtrace::platform::a64_trace_batch_max) + " ranges"};
}

// The scenarios on the AArch64 CPU: real code gives its own cycles, events and trace, so what
// shapes the host CPU's synthetic workload does not apply; nor does the fault scenario (its
// faults are injected into the host CPU's translation of the trace buffer) until the AArch64
// CPU's trace buffer writes are translated by its own tables.
void check_a64_scenario(const po::variables_map &vm, const options &o)
{
    if (o.scenario == scenario::fault)
        throw bad_argument{"--scenario fault needs --cpu host"};
    for (const char *name : {"duration", "irq-cycles", "trace-data", "trace-bytes"})
        if (given(vm, name))
            throw bad_argument{std::string("--") + name +
                               " needs --cpu host (it shapes the host CPU's synthetic workload)"};
    for (const char *name : {"trigger", "trigger-after", "trigger-count"})
        if (given(vm, name))
            throw bad_argument{std::string("--") + name +
                               " needs --cpu host (the scenario image's trace session has no "
                               "trigger source yet)"};
    if (o.scenario != scenario::trace && !o.trace_alongside &&
        (!o.trace_out.empty() || !o.snapshot.empty() || o.decode || o.timestamps))
        throw bad_argument{"--trace-out, --snapshot, --decode and --timestamps need a trace "
                           "session (no --no-trace)"};
    if (o.el > 1)
        throw bad_argument{"--el: 0 or 1"};
}

// The trace buffer is RAM the software does not otherwise use: inside RAM, above its first MiB
// (the image at + 0x80000 and its stacks: sw/arch/aarch64/a64.ld asserts it; the host CPU's
// synthetic program there too).
void check_buffer(const options &o, uint64_t ram_size)
{
    const uint64_t ram_base = pmtrace::platform::virt::ram_base;
    const uint64_t free_base = limits::buffer_base_default, ram_end = ram_base + ram_size;
    if (o.buffer_size > ram_end - free_base || o.buffer_base < free_base ||
        o.buffer_base > ram_end - o.buffer_size) {
        std::ostringstream m;
        m << std::hex << "--buffer-base 0x" << o.buffer_base << " --buffer-size 0x" << o.buffer_size
          << ": the trace buffer must lie in RAM from 0x" << free_base << " to 0x" << ram_end
          << " (RAM's first MiB holds the program)";
        throw bad_argument{m.str()};
    }
}

// The Arm parts a MIDR_EL1 can name (D24.2.137: Implementer 0x41, Architecture 0xF), those
// whose TRBE errata Linux works around, and the engine's own.
constexpr struct {
    const char *name;
    uint32_t part_num;
} midr_parts[] = {{"cortex-a72", 0xD08},
                  {"cortex-a510", 0xD46},
                  {"cortex-a710", 0xD47},
                  {"cortex-x2", 0xD48},
                  {"neoverse-n2", 0xD49}};

// 0..15 from one or two decimal digits at text[at...]: where it ends, or npos.
size_t parse_nibble(const std::string &text, size_t at, unsigned &v)
{
    size_t end = at;
    v = 0;
    while (end < text.size() && end - at < 2 && std::isdigit(static_cast<unsigned char>(text[end])))
        v = v * 10 + static_cast<unsigned>(text[end++] - '0');
    return end > at && v <= 0xF ? end : std::string::npos;
}

// 0x412FD470, or a part with its revision: cortex-a710r2p0 (rVARIANTpREVISION).
uint32_t parse_midr(const std::string &text)
{
    std::string names;
    for (const auto &p : midr_parts) {
        names += std::string(names.empty() ? "" : ", ") + p.name + "rNpN";
        const size_t n = std::strlen(p.name);
        unsigned variant = 0, revision = 0;
        if (text.compare(0, n, p.name) != 0 || text.size() <= n || text[n] != 'r')
            continue;
        const size_t p_at = parse_nibble(text, n + 1, variant);
        if (p_at == std::string::npos || p_at >= text.size() || text[p_at] != 'p')
            continue;
        if (parse_nibble(text, p_at + 1, revision) == text.size())
            return 0x410F0000u | (variant << 20) | (p.part_num << 4) | revision;
    }
    // A value: hexadecimal, as MIDRs are written.
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
                     text.size() <= 10 &&
                     text.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
    const unsigned long long v = hex ? std::strtoull(text.c_str() + 2, nullptr, 16) : 0;
    if (v == 0)
        throw bad_argument{"--midr: '" + text + "' is neither a MIDR_EL1 value (0x412FD470) nor " +
                           names + " (e.g. cortex-a710r2p0)"};
    return static_cast<uint32_t>(v);
}

// fill-overwrite,write-out-of-range,drain-after-disable,ctxt-sync-after-enable
void parse_trbe_errata(const std::string &text, options &o)
{
    if (text.empty() || text.back() == ',')
        throw bad_argument{"--trbe-erratum: give at least one erratum, and no empty one"};
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        o.*lookup<bool options::*>(
               "trbe-erratum", item,
               {{"fill-overwrite", &options::erratum_fill_overwrite},
                {"write-out-of-range", &options::erratum_write_out_of_range},
                {"drain-after-disable", &options::erratum_drain_after_disable},
                {"ctxt-sync-after-enable", &options::erratum_ctxt_sync_after_enable}}) = true;
}

void convert(const raw &r, const po::variables_map &vm, options &o)
{
    o.cpu = lookup<cpu_kind>("cpu", r.cpu, {{"a64", cpu_kind::a64}, {"host", cpu_kind::host}});
    o.exclude_user =
        lookup<bool>("exclude", r.exclude, {{"none", false}, {"user", true}, {"kernel", false}});
    o.exclude_kernel = r.exclude == "kernel";
    o.scenario_name = r.scenario;
    o.scenario = lookup<scenario>("scenario", r.scenario,
                                  {{"stat", scenario::stat},
                                   {"record", scenario::record},
                                   {"trace", scenario::trace},
                                   {"fault", scenario::fault}});
    o.pmu_version_name = r.pmu_version;
    o.pmu_version = lookup<pmt_pmu_version>("pmu-version", r.pmu_version,
                                            {{"3.0", PMT_PMUV3},
                                             {"3.1", PMT_PMUV3P1},
                                             {"3.4", PMT_PMUV3P4},
                                             {"3.5", PMT_PMUV3P5},
                                             {"3.7", PMT_PMUV3P7},
                                             {"3.8", PMT_PMUV3P8},
                                             {"3.9", PMT_PMUV3P9}});
    if (vm.count("midr")) {
        if (o.cpu != cpu_kind::a64)
            throw bad_argument{"--midr needs the AArch64 CPU (--cpu a64)"};
        o.midr = parse_midr(r.midr);
    }
    if (vm.count("trbe-erratum"))
        parse_trbe_errata(r.trbe_errata, o);
    if (std::string error; !parse_rtc_base(r.rtc_base, std::time(nullptr), o.rtc_base, error))
        throw bad_argument{error};
    if (o.counters < 1 || o.counters > limits::max_counters)
        throw bad_argument{"--counters must be 1.." + std::to_string(limits::max_counters)};
    if (o.period == 0 || o.per_piece == 0)
        throw bad_argument{"--period and --per-piece must be at least 1"};
    o.clock = parse_time("clock", r.clock);
    // The CPU's own quantum (the AArch64 CPU syncs earlier where the platform has something
    // scheduled: docs/cpu.md, "Time"). With --vcd, none unless one is asked for, as before the
    // VCD's edges carried their own times (they do whatever the quantum: docs/platform.md).
    if (vm.count("quantum"))
        o.quantum = parse_time("quantum", r.quantum, true);
    else
        o.quantum = o.vcd.empty() ? default_quantum(o.cpu) : sc_core::SC_ZERO_TIME;

    // Events.
    if (vm.count("events") && r.events.empty())
        throw bad_argument{"--events: give at least one event"};
    std::stringstream ss(!r.events.empty()        ? r.events
                         : o.cpu == cpu_kind::a64 ? default_events
                                                  : default_host_events);
    std::string item;
    while (std::getline(ss, item, ','))
        o.events.push_back(parse_event(item));
    if (o.events.empty() || o.events.size() > limits::max_events)
        throw bad_argument{"--events: 1 to " + std::to_string(limits::max_events) + " events"};
    o.record_event = parse_event(r.event);

    // The workload's length.
    if (vm.count("duration")) {
        if (!vm["iterations"].defaulted())
            throw bad_argument{"--duration and --iterations: give one of them"};
        const sc_core::sc_time t = parse_time("duration", r.duration);
        const double per_iteration = (o.clock * 1300.0).to_seconds();
        o.iterations = static_cast<uint64_t>(std::ceil(t.to_seconds() / per_iteration - 1e-9));
    }
    if (o.instructions == 0)
        throw bad_argument{"--instructions must be at least 1"};
    if (o.iterations == 0)
        throw bad_argument{"--iterations (or --duration) must give at least one iteration"};
    if (o.iterations > UINT64_MAX / o.instructions)
        throw bad_argument{"--iterations x --instructions: more than 2^64 instructions"};
    if (o.irq_cycles > max_irq_cycles)
        throw bad_argument{"--irq-cycles: at most " + std::to_string(max_irq_cycles) +
                           " (a second at 1 GHz)"};

    // Trace.
    o.trace_alongside = !r.no_trace;
    o.buffer_base = parse_size("buffer-base", r.buffer_base);
    o.buffer_size = parse_size("buffer-size", r.buffer_size);
    if ((o.buffer_base | o.buffer_size) & 0xFFF || o.buffer_size == 0)
        throw bad_argument{"--buffer-base and --buffer-size must be multiples of 4 KiB"};
    o.ete = lookup<bool>("trace-data", r.trace_data, {{"ete", true}, {"pattern", false}});
    if ((!o.snapshot.empty() || o.decode) && !o.ete)
        throw bad_argument{"--snapshot and --decode need --trace-data ete"};
    o.fill_mode = lookup<unsigned>("trace-mode", r.trace_mode,
                                   {{"fill", PMT_TRBLIMITR_FM_FILL},
                                    {"wrap", PMT_TRBLIMITR_FM_WRAP},
                                    {"circular", PMT_TRBLIMITR_FM_CIRCULAR}});
    o.trigger = lookup<sw_trace_trigger>("trigger", r.trigger,
                                         {{"none", SW_TRACE_NO_TRIGGER},
                                          {"stop", SW_TRACE_STOP_ON_TRIGGER},
                                          {"irq", SW_TRACE_IRQ_ON_TRIGGER},
                                          {"ignore", SW_TRACE_IGNORE_TRIGGER}});
    if (vm.count("trigger-after"))
        o.trigger_after = r.trigger_after;
    if (o.trigger != SW_TRACE_NO_TRIGGER && o.trigger_after == SW_LOOP_NO_TRIGGER)
        throw bad_argument{"--trigger " + r.trigger +
                           " needs --trigger-after BYTES (when the "
                           "trace unit signals the Detected Trigger)"};
    if (o.trigger_count > 0xFFFFFFFF)
        throw bad_argument{"--trigger-count: TRBTRG_EL1.TRG is 32 bits"};

    // Fault.
    o.ext_abort = lookup<pmt_trbe_ext_abort>("external-abort", r.external_abort,
                                             {{"ignore", PMT_TRBE_EA_IGNORE},
                                              {"serror", PMT_TRBE_EA_SERROR},
                                              {"report", PMT_TRBE_EA_REPORT_SYNC}});
    o.fault.memory_error = r.fault == "memory-error";
    if (!o.fault.memory_error)
        o.fault.fault.kind =
            lookup<pmt_trbe_fault_kind>("fault", r.fault,
                                        {{"translation", PMT_TRBE_FAULT_TRANSLATION},
                                         {"permission", PMT_TRBE_FAULT_PERMISSION},
                                         {"access-flag", PMT_TRBE_FAULT_ACCESS_FLAG},
                                         {"address-size", PMT_TRBE_FAULT_ADDRESS_SIZE},
                                         {"walk-abort", PMT_TRBE_FAULT_EXTERNAL_WALK},
                                         {"gpf", PMT_TRBE_FAULT_GPF},
                                         {"gpc", PMT_TRBE_FAULT_GPC},
                                         {"memory-error", PMT_TRBE_FAULT_NONE}});
    if (r.fault_stage != 1 && r.fault_stage != 2)
        throw bad_argument{"--fault-stage must be 1 or 2"};
    if (r.fault_level < -2 || r.fault_level > 3)
        throw bad_argument{"--fault-level must be -2..3"};
    o.fault.fault.stage = static_cast<uint8_t>(r.fault_stage);
    o.fault.fault.level = static_cast<int8_t>(r.fault_level);
    // What each fault kind needs (pmt_trbe.h; the model refuses anything else): GPF and GPC
    // faults have no level, a GPF not on a walk is stage 1, Access flag and Permission faults
    // have levels 0..3.
    const pmt_trbe_fault_kind kind = o.fault.fault.kind;
    if (kind == PMT_TRBE_FAULT_GPF || kind == PMT_TRBE_FAULT_GPC)
        o.fault.fault.level = 0;
    if (kind == PMT_TRBE_FAULT_GPF && r.fault_stage != 1)
        throw bad_argument{"--fault gpf is a stage 1 fault (a GPF not on a walk, RFSPBK)"};
    if ((kind == PMT_TRBE_FAULT_ACCESS_FLAG || kind == PMT_TRBE_FAULT_PERMISSION) &&
        r.fault_level < 0)
        throw bad_argument{"--fault-level must be 0..3 for this fault"};
    o.fault.address = r.fault_address.empty() ? o.buffer_base + 0x1000
                                              : parse_size("fault-address", r.fault_address);
    if (o.fault.address & 0xFFF)
        throw bad_argument{"--fault-address must be a page's address (4 KiB aligned)"};
    o.fault.fix = !r.no_fix;
    if (o.fault.address < o.buffer_base || o.fault.address >= o.buffer_base + o.buffer_size)
        throw bad_argument{"--fault-address must be inside the trace buffer"};

    if (!r.vcd_counters.empty()) {
        if (o.vcd.empty())
            throw bad_argument{"--vcd-counters needs --vcd FILE"};
        o.vcd_counters = parse_time("vcd-counters", r.vcd_counters);
    }
    if (o.kernel_trace && o.kernel.empty())
        throw bad_argument{"--trace needs --kernel IMAGE (the scenarios trace without it)"};
    if (given(vm, "append") && o.kernel.empty())
        throw bad_argument{"--append needs --kernel IMAGE (a scenario's command line comes from "
                           "its options: --dump-dtb shows it)"};
    if (given(vm, "initrd") && o.kernel.empty())
        throw bad_argument{"--initrd needs --kernel IMAGE (the initial RAM disk is the booted "
                           "image's)"};
    if (!o.kernel.empty()) {
        convert_kernel(r, vm, o);
    } else if (o.cpu == cpu_kind::a64) {
        check_a64_scenario(vm, o);
        if (given(vm, "dtb"))
            throw bad_argument{"--dtb needs --kernel IMAGE"};
        convert_kernel_options(r, vm, o);
        check_buffer(o, o.ram_size);
    } else {
        check_buffer(o, ram_size_of(cpu_kind::host, 0));
        for (const char *name : {"dtb", "dump-dtb", "ram", "virtualization", "secure", "time-limit",
                                 "instructions", "el", "semihosting", "perf-data", "exec-log",
                                 "timestamps", "trace-batch", "no-skip-polls"})
            if (given(vm, name))
                throw bad_argument{std::string("--") + name +
                                   " needs the AArch64 CPU (--kernel IMAGE, or --cpu a64)"};
    }
    lookup<int>("log-level", o.log_level,
                {{"error", 0}, {"warning", 1}, {"info", 2}, {"debug", 3}});
    check_writable("vcd", o.vcd);
    check_writable("stats-json", o.stats_json);
    check_writable("trace-out", o.trace_out);
    check_writable("dump-dtb", o.dump_dtb);
    check_writable("perf-data", o.perf_data);
}

} // namespace

int parse(int argc, char **argv, options &o, std::ostream &out, std::ostream &err)
{
    raw r;
    // The help's values: those the parsing and the checks use.
    const std::string a64_quantum = time_text(default_quantum(cpu_kind::a64)),
                      host_quantum = time_text(default_quantum(cpu_kind::host)),
                      host_ram = size_text(ram_size_of(cpu_kind::host, 0));
    const std::string quantum_help =
        "the CPU's time quantum (temporal decoupling): how far it runs ahead of the rest of the "
        "platform; default " +
        a64_quantum +
        " on the AArch64 CPU (which also syncs at the platform's next scheduled event), " +
        host_quantum +
        " with --cpu host; 0: none (the default with --vcd; the VCD's edges are at their times "
        "whatever the quantum)";
    // The default lists as the help shows them: a space after each comma.
    auto spaced = [](std::string list) {
        for (size_t at = list.find(','); at != std::string::npos; at = list.find(',', at + 2))
            list.insert(at + 1, " ");
        return list;
    };
    const std::string events_help =
        "stat: 1 to " + std::to_string(limits::max_events) +
        " comma-separated events, by name (as perf's, any case) or number; default " +
        spaced(default_events) + " (--cpu host: " + spaced(default_host_events) + ")";
    const std::string buffer_base_help =
        "the trace buffer's address, 4 KiB aligned, in RAM above its first MiB (which holds the "
        "program): from " +
        hex_text(limits::buffer_base_default) + " up to the end of RAM (" +
        hex_text(platform::virt::ram_base + limits::ram_default) + " with the default --ram " +
        size_text(limits::ram_default) + "; " +
        hex_text(platform::virt::ram_base + ram_size_of(cpu_kind::host, 0)) +
        " with --cpu host, whose RAM is " + host_ram + ")";
    const std::string ram_help =
        "RAM at " + hex_text(platform::virt::ram_base) +
        " for the AArch64 CPU's runs, --kernel's and the scenarios': " + ram_range_text() +
        ", in bytes or with K, M, G or T (512M, 2G; virt's -m); --cpu host has " + host_ram;
    const std::string unit_buffer_help =
        "AArch64 CPU: the ETE trace unit's buffer, 0 (none: each report's trace goes to the TRBE "
        "at once) or " +
        size_text(PMT_ETE_UNIT_BUFFER_MIN) + " to " + size_text(PMT_ETE_UNIT_BUFFER_MAX) +
        " bytes (held there until the next call into the PE model that is not a held report; "
        "docs/trace.md)";
    const std::string batch_help =
        "AArch64 CPU: the most instruction ranges it gives the trace unit in one call, 1 to " +
        std::to_string(platform::a64_trace_batch_max) +
        ", each at its time (1: each as it ends; docs/cpu.md, \"Reports in batches\")";
    po::options_description general(
        "pmtrace-vp: a virtual platform on QEMU virt's memory map (GICv3, RAM, PL011 UART, PL031 "
        "RTC) with one Arm PE whose PMU, ETE trace unit and Trace Buffer Unit are the pmtrace "
        "model. Its "
        "AArch64 CPU runs the sw/ drivers (arm_pmuv3, coresight-etm4x, coresight-trbe) and apps "
        "built for AArch64 over a loop of real instructions (every count and every trace byte "
        "comes from executed code), printing perf-stat-like tables on the console and the "
        "platform's view after them; or it boots your own image (--kernel, traced with --trace). "
        "--cpu host runs the same apps on a host-driven CPU with a synthetic workload (per "
        "iteration: 1000 instructions, 1300 cycles, 200 branches, 7 mispredicts, 300 L1D "
        "accesses, 12 refills, and trace bytes), for triggers at a chosen byte and injected "
        "faults.\n\n"
        "Examples:\n"
        "  pmtrace-vp                                   count events, capture trace alongside\n"
        "  pmtrace-vp -e INST_RETIRED,BR_RETIRED --exclude kernel   count EL0 only (:u)\n"
        "  pmtrace-vp -s record --period 100000         sample INST_RETIRED every 100000\n"
        "  pmtrace-vp -s trace --trace-mode wrap\n"
        "  pmtrace-vp -s trace --iterations 1000 --snapshot capture --decode\n"
        "  pmtrace-vp --kernel image.bin --append \"console=ttyAMA0\"   boot an image\n"
        "  pmtrace-vp --kernel image.elf --trace --decode   trace it, check the capture\n"
        "  pmtrace-vp --cpu host -s trace --snapshot capture --decode   then: trc_pkt_lister "
        "-ss_dir capture -decode\n"
        "  pmtrace-vp --cpu host -s trace --trigger stop --trigger-after 4096 --trigger-count 256\n"
        "  pmtrace-vp --cpu host -s fault --fault permission --fault-address 0x40101000\n"
        "  pmtrace-vp --cpu host -s fault --fault memory-error --external-abort report\n"
        "  pmtrace-vp --vcd run.vcd --vcd-counters 1us\n\n"
        "General");
    general.add_options()("help,h", "show this help and exit")(
        "cpu", po::value(&r.cpu)->default_value(r.cpu),
        "a64 (the AArch64 CPU runs the apps as AArch64 code) or host (the host-driven CPU and "
        "its synthetic workload)")(
        "scenario,s", po::value(&r.scenario)->default_value(r.scenario),
        "stat (count events, like perf stat), record (sample on overflow interrupts, like perf "
        "record), trace (capture trace in a buffer mode, with a trigger) or fault (recover from "
        "a fault injected on the trace buffer's writes; --cpu host)")(
        "iterations,i", po::value(&o.iterations)->default_value(o.iterations),
        "loop iterations of the workload")(
        "instructions", po::value(&o.instructions)->default_value(o.instructions),
        "AArch64 CPU: instructions an iteration (a SUBS/B.NE loop; the host CPU's are 1000)")(
        "el", po::value(&o.el)->default_value(o.el),
        "AArch64 CPU: the Exception level the loop runs at, 0 or 1")(
        "duration,d", po::value(&r.duration),
        "host CPU: run the workload for this long in simulated time instead (e.g. 2ms): 1300 "
        "cycles per iteration")("per-piece", po::value(&o.per_piece)->default_value(o.per_piece),
                                "loop iterations per piece of work the CPU runs between HAL calls")(
        "log-level", po::value(&o.log_level)->default_value(o.log_level),
        "SystemC reports shown: error, warning, info or debug (register accesses by name)");

    po::options_description pe("The PE");
    pe.add_options()("counters,n", po::value(&o.counters)->default_value(o.counters),
                     ("event counters the PMU implements (PMCR_EL0.N, 1.." +
                      std::to_string(limits::max_counters) + ")")
                         .c_str())("pmu-version",
                                   po::value(&r.pmu_version)->default_value(r.pmu_version),
                                   "FEAT_PMUv3 version: 3.0, 3.1, 3.4, 3.5, 3.7, 3.8 or 3.9")(
        "trbe-ext", po::bool_switch(&o.trbe_ext),
        "FEAT_TRBE_EXT: the external Trace Buffer frame at 0x0C020000 and CTI triggers 8-10")(
        "midr", po::value(&r.midr),
        "AArch64 CPU: MIDR_EL1, a value (0x412FD470) or an Arm part and revision: cortex-a72rNpN "
        "(the default, r0p3), cortex-a510rNpN, cortex-a710rNpN, cortex-x2rNpN, neoverse-n2rNpN. "
        "Software keys its errata workarounds on it (Linux's TRBE ones: docs/trace.md)")(
        "trbe-erratum", po::value(&r.trbe_errata),
        "silicon errata of the Trace Buffer Unit the model reproduces, comma-separated: "
        "fill-overwrite, write-out-of-range, drain-after-disable, ctxt-sync-after-enable "
        "(docs/choices.md, \"Errata\")")("clock", po::value(&r.clock)->default_value(r.clock),
                                         "the PE's clock period")("quantum", po::value(&r.quantum),
                                                                  quantum_help.c_str())(
        "irq-cycles", po::value(&o.irq_cycles)->default_value(o.irq_cycles),
        "processor cycles the CPU takes to enter an interrupt handler");

    po::options_description counting("stat and record");
    counting.add_options()("events,e", po::value(&r.events), events_help.c_str())(
        "event", po::value(&r.event)->default_value(r.event), "record: the sampled event")(
        "period,p", po::value(&o.period)->default_value(o.period),
        "record: sample every PERIOD events (an overflow interrupt each)")(
        "long-counters", po::bool_switch(&o.long_counters),
        "64-bit event counters (chained pairs before FEAT_PMUv3p5)")(
        "exclude", po::value(&r.exclude)->default_value(r.exclude),
        "none, user (count at EL1 only, perf's :k) or kernel (count at EL0 only, perf's :u)")(
        "no-trace", po::bool_switch(&r.no_trace),
        "no trace session alongside (by default the TRBE captures the workload's trace in Fill "
        "mode while it is counted)");

    po::options_description trace("trace (the buffer settings apply to every scenario)");
    trace.add_options()("trace-mode", po::value(&r.trace_mode)->default_value(r.trace_mode),
                        "fill, wrap or circular (TRBLIMITR_EL1.FM)")(
        "trace-data", po::value(&r.trace_data)->default_value(r.trace_data),
        "ete: each iteration runs the synthetic A64 loop placed at 0x40080000 and the trace unit "
        "emits its ETE trace (2 bytes an iteration, a re-synchronization every 1 KiB); pattern: "
        "--trace-bytes bytes an iteration, byte k = (k mod 256) ^ 0x5A")(
        "trace-bytes", po::value(&o.trace_per_iteration)->default_value(o.trace_per_iteration),
        "pattern: trace bytes the trace unit generates per loop iteration")(
        "buffer-base", po::value(&r.buffer_base)->default_value(r.buffer_base),
        buffer_base_help.c_str())("buffer-size",
                                  po::value(&r.buffer_size)->default_value(r.buffer_size),
                                  "the trace buffer's size, a multiple of 4 KiB")(
        "trace-unit-buffer", po::value(&r.trace_unit_buffer)->default_value(r.trace_unit_buffer),
        unit_buffer_help.c_str())(
        "trace-batch", po::value(&o.trace_batch)->default_value(o.trace_batch), batch_help.c_str())(
        "trigger", po::value(&r.trigger)->default_value(r.trigger),
        "none, stop (Stop on trigger), irq (IRQ on trigger) or ignore (TRBLIMITR_EL1.TM)")(
        "trigger-after", po::value(&r.trigger_after),
        "the trace unit signals the Detected Trigger after this many trace bytes")(
        "trigger-count", po::value(&o.trigger_count)->default_value(o.trigger_count),
        "TRBTRG_EL1: bytes written after the Detected Trigger before the Trigger Event")(
        "trace-out", po::value(&o.trace_out),
        "write the captured trace, oldest byte first, to this file")(
        "snapshot", po::value(&o.snapshot),
        "write the capture as an OpenCSD snapshot directory (trc_pkt_lister -ss_dir DIR -decode)")(
        "timestamps", po::bool_switch(&o.timestamps),
        "AArch64 CPU: the trace unit's Timestamps (TRCCONFIGR.TS), the Generic Timer's count")(
        "decode", po::bool_switch(&o.decode),
        "decode the capture with OpenCSD and check it against what was traced (the AArch64 CPU: "
        "its execution log, range by range; --cpu host: the synthetic program)");

    po::options_description fault("fault");
    fault.add_options()("fault", po::value(&r.fault)->default_value(r.fault),
                        "what the page answers: translation, permission, access-flag, "
                        "address-size, walk-abort, gpf, gpc (the translator), or memory-error "
                        "(the RAM answers TLM_GENERIC_ERROR_RESPONSE)")(
        "fault-address", po::value(&r.fault_address),
        "the faulting page (default: the buffer's second page)")(
        "fault-stage", po::value(&r.fault_stage)->default_value(r.fault_stage),
        "translation stage of the fault: 1 or 2")(
        "fault-level", po::value(&r.fault_level)->default_value(r.fault_level),
        "translation table level of the fault: -2..3")(
        "no-fix", po::bool_switch(&r.no_fix),
        "the handler does not remove the fault: the capture skips the page")(
        "external-abort", po::value(&r.external_abort)->default_value(r.external_abort),
        "what an External abort on a trace write does (IMPLEMENTATION DEFINED, RGQWBF): ignore, "
        "serror or report (to the Trace Buffer Unit, TRBSR_EL1.EA)");

    const std::string initrd_help =
        "--kernel's initial RAM disk, loaded as QEMU's -initrd: at RAM + min(RAM / 2, " +
        size_text(platform::initrd_offset(limits::ram_max)) + ") (" +
        size_text(platform::initrd_offset(limits::ram_default)) +
        " with the default --ram), or above the image when it reaches further; "
        "chosen/linux,initrd-start and linux,initrd-end say where, and the device tree follows it";
    const std::string rtc_help =
        "the time the PL031 real-time clock (0x09010000) shows at the start, as QEMU's -rtc "
        "base=: utc (the host's clock), localtime (the host's local time) or a date and time, "
        "UTC, for reproducible runs: 2006-06-17T16:01:21 or 2006-06-17, from " +
        rtc_date_text(rtc_base_first) + " to " + rtc_date_text(rtc_base_last) +
        " (the RTC's 32-bit count of seconds since 1970). It counts on in simulated time";
    po::options_description kernel("Booting an image (as QEMU's virt board: -kernel, -append, "
                                   "-initrd, -dtb, -m, -rtc base=)");
    kernel.add_options()("kernel", po::value(&o.kernel),
                         "run this image on the AArch64 CPU instead of a scenario: an ELF (by its "
                         "segments, at its entry), an arm64 Linux Image (its header's "
                         "text_offset), or a raw binary at RAM + 0x80000; entered at EL1 with "
                         "x0 = the device tree, MMU off, interrupts masked. The PL011 at "
                         "0x09000000 is the console (stdout; input from stdin). PSCI "
                         "SYSTEM_OFF ends the run (exit 0); a summary of what the PMU counted "
                         "follows")("append", po::value(&o.append),
                                    "--kernel's command line (chosen/bootargs)")(
        "initrd", po::value(&o.initrd), initrd_help.c_str())(
        "trace", po::bool_switch(&o.kernel_trace),
        "trace the image: pmtrace-vp programs the ETE and the Trace Buffer Unit before the "
        "image's first instruction (as a debugger would: the image must leave them and TRFCR "
        "alone) and takes the buffer at the end; --trace-mode, --buffer-base, --buffer-size, "
        "--exclude, --trace-out, --snapshot and --decode apply")(
        "dtb", po::value(&o.dtb),
        "give the image this device tree instead of the platform's own (--append still sets "
        "chosen/bootargs)")("dump-dtb", po::value(&o.dump_dtb),
                            "write the device tree the image would get to this file and exit")(
        "ram", po::value(&r.ram)->default_value(r.ram),
        ram_help.c_str())("virtualization", po::bool_switch(&o.virtualization),
                          "enter the image at EL2 (PSCI over SMC), as virt with virtualization=on")(
        "secure", po::bool_switch(&o.secure),
        "enter the image at EL3 as the firmware of virt with secure=on: nobody answers PSCI and "
        "SMC is taken to EL3 (end it with --semihosting's SYS_EXIT)")(
        "time-limit", po::value(&r.time_limit),
        "stop after this much simulated time (e.g. 2s); the exit status is then 124")(
        "quiet,q", po::bool_switch(&o.quiet),
        "no summary (the AArch64 CPU: after the console output; --cpu host: nothing on stdout; "
        "--stats-json still writes its file)")(
        "rtc-base", po::value(&r.rtc_base)->default_value(r.rtc_base), rtc_help.c_str())(
        "semihosting", po::bool_switch(&o.semihosting),
        "serve Arm semihosting calls (HLT #0xF000) as QEMU's -semihosting does: console output "
        "(SYS_WRITEC, SYS_WRITE0) and SYS_EXIT, whose status becomes pmtrace-vp's (0, or 1 "
        "with the status on stderr); the scenario image always uses it")(
        "no-skip-polls", po::bool_switch(&o.no_skip_polls),
        "run every iteration of a loop that polls the counter (CNTVCT_EL0, CNTPCT_EL0), as "
        "udelay does; by default the iterations that go on are retired without running them, "
        "with every count as if they ran (docs/cpu.md, \"Busy-waiting on the counter\")");

    po::options_description outputs("Outputs");
    outputs.add_options()("vcd", po::value(&o.vcd),
                          "write a VCD of PMUIRQ, TRBIRQ, the CPU's IRQ line, the PE's CTI "
                          "triggers and the CTI's outputs, each edge at the simulated time it "
                          "was made (the CPU's local time)")(
        "vcd-counters", po::value(&r.vcd_counters),
        "also the counters in the VCD, sampled at this interval (e.g. 1us) and at overflows")(
        "stats-json", po::value(&o.stats_json),
        "write the run's figures as JSON to this file, for every run (docs/platform.md, \"The "
        "summary as JSON\")")(
        "perf-data", po::value(&o.perf_data),
        "AArch64 CPU: write a sample at each PMU interrupt (its PC, Exception level, time) to "
        "this perf.data file: perf report -i FILE names the functions (of --kernel's ELF, or "
        "the scenario image's)")(
        "exec-log", po::value(&o.exec_log),
        "write what the AArch64 CPU executed to this file: its instruction ranges, each with the "
        "branch (or other P0 element) that ends it, exceptions and context changes, in order "
        "(docs/platform.md, \"Execution log\")");

    po::options_description all;
    all.add(general).add(pe).add(counting).add(trace).add(fault).add(kernel).add(outputs);
    po::variables_map vm;
    try {
        const po::parsed_options parsed = po::parse_command_line(argc, argv, all);
        check_positional(parsed);
        check_unsigned(parsed);
        po::store(parsed, vm);
        po::notify(vm);
        if (vm.count("help")) {
            out << all << "\n";
            return exit_ok;
        }
        convert(r, vm, o);
    } catch (const po::error &e) {
        err << "pmtrace-vp: " << e.what() << "\nTry 'pmtrace-vp --help'.\n";
        return exit_usage;
    } catch (const bad_argument &e) {
        err << "pmtrace-vp: " << e.what << "\nTry 'pmtrace-vp --help'.\n";
        return exit_usage;
    }
    return -1;
}

} // namespace pmtrace::vp_cli
