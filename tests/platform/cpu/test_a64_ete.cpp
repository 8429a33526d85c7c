// The trace unit driven by real execution (issue 14): A64 programs (tests/platform/cpu/a64/
// ete_capture*.S) program the trace unit and the Trace Buffer Unit through their System registers
// as Linux does, run, and stop the capture; OpenCSD decodes the buffer they leave in RAM, over the
// program's image, into instruction ranges. Those must be exactly what the CPU executed in the
// traced window, range by range: the execution log (a64_exec_log.h) says what it executed, the
// programs' symbols where the window starts and ends, and the filters which ranges are traced.
#include "a64_program.h"

#include <pmtrace/platform/cpu/a64_exec_log.h>
#include <pmtrace/platform/trace/ete_reporter.h>
#include <pmtrace/platform/trace/execution_check.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>
#include <pmtrace/platform/trace/trace_decoder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

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

// TRBSR_EL1 (D24.4.7): S, WRAP, TRG, IRQ; EC [31:26]; MSS [15:0] (BSC or FSC in [5:0]).
constexpr uint64_t trbsr_s = uint64_t{1} << 17, trbsr_wrap = uint64_t{1} << 20,
                   trbsr_trg = uint64_t{1} << 21, trbsr_irq = uint64_t{1} << 22;
constexpr uint64_t trbsr_ec(uint64_t ec)
{
    return ec << 26;
}

// Runs `program` (after `setup` set up the platform), without decoding.
capture run_program(const std::string &program, const pmtrace::test::platform_setup &setup,
                    const std::function<void(vp_config &)> &configure)
{
    capture c;
    vp_config config;
    config.pe.core.ete.feat_ete = true;
    config.a64.exec_log = true;
    configure(config);
    c.r = run(program, config, 0, setup);
    c.at = labels(program);
    return c;
}

// Decodes c.bytes over the program's image.
void decode(capture &c, const std::string &program)
{
    std::vector<memory_image> image{
        {pmtrace::test::a64_load_address,
         pmtrace::test::read_image(std::string(PMTRACE_A64_DIR) + "/" + program + ".bin")}};
    c.decoded = decode_ete_trace(c.bytes, ete_registers_of(c.r.platform->pe.core()), image);
}

// Runs `program` (after `setup` set up the platform) and decodes its capture: [buf, TRBPTR_EL1)
// or, once the buffer wrapped (a buffer of `size` bytes, TRBSR_EL1.WRAP), all of it in time
// order from TRBPTR_EL1 on.
capture run_capture(
    const std::string &program, uint64_t size = 0,
    const pmtrace::test::platform_setup &setup = pmtrace::test::platform_setup(),
    const std::function<void(vp_config &)> &configure = [](vp_config &) {})
{
    capture c = run_program(program, setup, configure);
    const uint64_t end = c.r.x[25]; // TRBPTR_EL1 at the end (ete.inc)
    EXPECT_GE(end, buf);
    const uint8_t *ram = c.r.platform->ram.data() + (buf - pmtrace::platform::virt::ram_base);
    if (c.r.x[24] & trbsr_wrap) {
        const std::vector<uint8_t> whole(ram, ram + size);
        EXPECT_EQ(trace_buffer_in_time_order(whole, end - buf, true, c.bytes), snapshot_status::ok);
    } else {
        c.bytes.assign(ram, ram + (end - buf));
    }
    decode(c, program);
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
    for (const executed_run &r : executed_runs(log))
        for (uint64_t n = 0; n < r.count; n++)
            out.push_back({r.start, r.end, r.taken, r.el});
    return out;
}

// The executed ranges the trace must show: from the instruction after the enabling write (the
// ISB, a range of its own) to the last range before the one holding the disabling MSR, those
// `traced` keeps.
template <typename Keep>
std::vector<executed> window(const capture &c, const std::vector<executed> &all, Keep traced)
{
    const uint64_t first = c.at("enable_isb"), off = c.at("ete_off");
    std::vector<executed> out;
    bool in = false;
    for (executed x : all) {
        if (!in && x.end == first + 4) {
            in = true;
            x.start = first; // the instructions before it ran with the unit disabled
        }
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

// The capture is the first ranges of the window, exactly, and not all of them: collection
// stopped inside it.
void expect_beginning_of_window(const capture &c, const std::vector<executed> &all)
{
    const size_t n = c.decoded.ranges.size();
    ASSERT_GT(n, 0u);
    ASSERT_LT(n, all.size());
    expect_same(c, std::vector<executed>(all.begin(), all.begin() + static_cast<long>(n)));
}

// The capture, decoded from its first A-Sync, is the last ranges of the window, exactly.
void expect_end_of_window(const capture &c, const std::vector<executed> &all)
{
    const size_t n = c.decoded.ranges.size();
    ASSERT_GT(n, 1000u);
    ASSERT_LT(n, all.size());
    expect_same(c, std::vector<executed>(all.end() - static_cast<long>(n), all.end()));
}

std::vector<executed> whole_window(const capture &c)
{
    return window(c, expand(*c.r.platform->a64->exec_log()), [](const executed &) { return true; });
}

// The timing model of the cycle counting tests: 2 cycles an instruction, 5 an exception entry.
constexpr uint64_t cpi = 2, entry_cycles = 5;

void cycle_timing(vp_config &config)
{
    config.a64.cycles_per_instruction = cpi;
    config.a64.exception_entry_cycles = entry_cycles;
}

// The Commit elements of the window the trace must hold, in order (with TRCIDR8.MAXSPEC 0 each
// traced P0 element commits at once): from the execution log, each P0 element (each run of a
// range) and each exception taken, at an Exception level `traced` keeps, with the PE's cycle
// when it committed: the end of its instruction, the end of the entry for an exception (the
// timing model: cpi cycles an instruction, entry_cycles an entry; nothing else stalls in the
// capture programs).
std::vector<uint64_t> commit_cycles(const capture &c, const std::function<bool(unsigned)> &traced)
{
    const a64_exec_log &log = *c.r.platform->a64->exec_log();
    const uint64_t first = c.at("enable_isb"), off = c.at("ete_off");
    std::vector<uint64_t> out;
    uint64_t cycle = 0;
    unsigned el = 0;
    bool in = false;
    for (const a64_exec_log::record &rec : log.records()) {
        if (rec.what == a64_exec_log::kind::context) {
            el = log.contexts()[rec.index].context.el;
        } else if (rec.what == a64_exec_log::kind::range) {
            const a64_trace_range &r = log.ranges()[rec.index];
            if (r.start <= off && off <= r.last)
                break;
            for (uint64_t n = 0; n < r.count; n++) {
                cycle += ((r.last - r.start) / 4 + 1) * cpi;
                in = in || r.last == first;
                if (in && traced(el))
                    out.push_back(cycle);
            }
        } else if (rec.what == a64_exec_log::kind::exception) {
            const a64_trace_exception_taken &e = log.exceptions()[rec.index];
            cycle += (e.preferred_return - e.range_start) / 4 * cpi + entry_cycles;
            if (in && traced(el))
                out.push_back(cycle);
            el = e.to.el;
        }
    }
    return out;
}

// The decoded Commit elements before each Cycle Count element: the ranges that end with a P0
// element (a branch, an ISB) before it, and the Exception elements.
std::vector<size_t> commits_before(const decode_result &d)
{
    std::vector<size_t> p0(d.ranges.size() + 1, 0); // p0[n]: of the first n ranges
    for (size_t i = 0; i < d.ranges.size(); i++) {
        const instr_kind k = d.ranges[i].last_kind;
        p0[i + 1] = p0[i] + (k == instr_kind::branch || k == instr_kind::indirect_branch ||
                             k == instr_kind::isb);
    }
    std::vector<size_t> out;
    for (const trace_cycle_count &cc : d.cycle_counts)
        out.push_back(p0[cc.after_ranges] + cc.after_exceptions);
    return out;
}

// Each Cycle Count element after the first (which is UNKNOWN, RYFMWB: 0) is the cycles the CPU
// spent from the commit the one before it followed to the commit it follows, and so they add up
// to the cycles from the first of those commits to the last. Returns their sum.
uint64_t expect_counts_are_the_cycles(const capture &c, const std::vector<uint64_t> &commits)
{
    const std::vector<trace_cycle_count> &cc = c.decoded.cycle_counts;
    const std::vector<size_t> at = commits_before(c.decoded);
    EXPECT_GT(cc.size(), 1u);
    if (cc.size() < 2)
        return 0;
    EXPECT_EQ(cc[0].cycles, 0u) << "the first count after the enable is UNKNOWN";
    uint64_t sum = 0;
    for (size_t k = 1; k < cc.size(); k++) {
        EXPECT_GE(at[k - 1], 1u);
        EXPECT_LE(at[k], commits.size());
        if (at[k - 1] < 1 || at[k] > commits.size() || at[k] <= at[k - 1])
            return 0;
        EXPECT_EQ(cc[k].cycles, commits[at[k] - 1] - commits[at[k - 1] - 1]) << "count " << k;
        sum += cc[k].cycles;
    }
    EXPECT_EQ(sum, commits[at.back() - 1] - commits[at.front() - 1]);
    return sum;
}

} // namespace

// Everything the CPU executed between the enable and the disable is in the capture: loops (a
// loop of one block the CPU repeats 20000 times without calling its model among them), calls and
// returns, BLR, a jump table, CBZ not taken, TBNZ taken, an SVC at EL1 and its ERET, an ERET to
// EL0 and the SVC back, and a PMU overflow IRQ inside the long loop, whose handler returns with
// ERET to the exception's preferred return address.
TEST(A64Ete, CaptureDecodesIntoWhatTheCpuExecuted)
{
    const capture c = run_capture("ete_capture");
    const std::vector<executed> want = whole_window(c);
    ASSERT_GT(want.size(), 20000u);
    expect_same(c, want);
    EXPECT_GT(c.decoded.async_packets, 2u); // TRCSYNCPR: every 256 bytes (about 900 here)

    // The IRQ (the vector at VBAR_EL1 + 0x280, current EL with SP_ELx) was taken once, in the
    // long loop; the handler's ERET goes back there, to where the loop was left.
    const std::vector<instruction_range> &got = c.decoded.ranges;
    const uint64_t irq_vector = c.at("vec") + 0x280, long_loop = c.at("long");
    size_t at = 0, taken = 0;
    for (size_t i = 1; i < got.size(); i++)
        if (got[i].start == irq_vector) {
            at = i;
            taken++;
        }
    ASSERT_EQ(taken, 1u);
    auto in_long_loop = [long_loop](uint64_t a) { return a == long_loop || a == long_loop + 4; };
    EXPECT_TRUE(in_long_loop(got[at - 1].start)) << got[at - 1];
    size_t eret = at;
    while (eret < got.size() && got[eret].end != c.at("irq_eret") + 4)
        eret++;
    ASSERT_LT(eret + 1, got.size());
    EXPECT_TRUE(in_long_loop(got[eret + 1].start)) << got[eret + 1];
}

// Cycle counting (TRCCONFIGR.CCI) with TRCCCCTLR.THRESHOLD 1, the platform's TRCIDR3.CCITMIN
// being 1: a Cycle Count element at every commit, counting the PE's cycles (the clock PMCCNTR_EL0
// counts: 2 cycles an instruction and 5 an exception entry here). The capture decodes into
// exactly what the CPU executed, and each count is the cycles the CPU spent between its commit
// and the one before: the loops (the 20000 runs of one block the CPU reports at once among
// them), the calls, the SVCs and the PMU overflow IRQ with their entries.
TEST(A64Ete, CycleCountsAreTheCyclesTheCpuSpent)
{
    const capture c =
        run_capture("ete_capture_cc", 0, pmtrace::test::platform_setup(), [](vp_config &config) {
            config.pe.core.ete.ccitmin = 1;
            cycle_timing(config);
        });
    expect_same(c, whole_window(c));
    const std::vector<uint64_t> commits = commit_cycles(c, [](unsigned) { return true; });
    ASSERT_GT(commits.size(), 20000u);
    // Threshold 1: every commit has its Cycle Count element.
    EXPECT_EQ(c.decoded.cycle_counts.size(), commits.size());
    EXPECT_EQ(c.decoded.exceptions.size(), 3u); // the IRQ, the SVC at EL1, the SVC from EL0
    const uint64_t sum = expect_counts_are_the_cycles(c, commits);
    EXPECT_EQ(sum, commits.back() - commits.front());
}

// Linux's perf cycacc: TRCCCCTLR 0x100, with timestamps and EL0 excluded from the trace. The
// counts above the threshold are the cycles between their commits, EL0's included where trace
// skipped it (IMCCBH); every Timestamp carries a cycle count (RZMQLT), at most the counter's.
TEST(A64Ete, CycleCountsWithTimestampsAndAFilter)
{
    const capture c =
        run_capture("ete_capture_cc_el0x", 0, pmtrace::test::platform_setup(), cycle_timing);
    expect_same(c, window(c, expand(*c.r.platform->a64->exec_log()),
                          [](const executed &x) { return x.el == 1; }));
    const std::vector<uint64_t> commits = commit_cycles(c, [](unsigned el) { return el == 1; });
    ASSERT_GT(c.decoded.cycle_counts.size(), 100u);
    for (size_t k = 1; k < c.decoded.cycle_counts.size(); k++)
        EXPECT_GE(c.decoded.cycle_counts[k].cycles, 0x100u) << "count " << k;
    expect_counts_are_the_cycles(c, commits);
    EXPECT_GT(c.decoded.timestamps.size(), 2u);
    EXPECT_EQ(c.decoded.timestamp_cycles.size(), c.decoded.timestamps.size());
    for (uint32_t n : c.decoded.timestamp_cycles)
        EXPECT_LT(n, 1u << 12); // TRCIDR2.CCSIZE 0: a 12-bit counter
}

// The PE's OS Lock controls the trace unit (TRCOSLSR.OSLM = 0b100, D24.4.51; OSLAR_EL1 and
// OSLSR_EL1, D24.3.27 and D24.3.28), and the platform's PE model holds it: locked out of reset.
// A unit enabled while the program holds the lock is Idle and traces nothing (no byte reaches
// the buffer); once the lock is released the unit traces, and the capture decodes into exactly
// what the CPU executed after the enable.
TEST(A64Ete, TheOsLockHeldWhileEnablingTracesNothingUntilReleased)
{
    const capture c = run_capture("ete_oslock");
    EXPECT_EQ(c.r.x[19], 0xAu);  // OSLSR_EL1 out of reset: OSLM 0b10, OSLK 1
    EXPECT_EQ(c.r.x[20], 0xAu);  // ... taken again by OSLAR_EL1 = 1
    EXPECT_EQ(c.r.x[21], 0x12u); // TRCOSLSR: OSLM 0b100 (the PE OS Lock), OSLK 1
    EXPECT_EQ(c.r.x[22], 0x3u);  // TRCSTATR after the enable: IDLE, PMSTABLE
    EXPECT_EQ(c.r.x[13], buf);   // TRBPTR_EL1 after the locked window: nothing written
    EXPECT_EQ(c.r.x[10], 0x8u);  // released: OSLSR_EL1.OSLK 0
    EXPECT_EQ(c.r.x[11], 0x10u); // TRCOSLSR.OSLK 0
    EXPECT_EQ(c.r.x[12], 0x0u);  // TRCSTATR after the enable: not Idle
    EXPECT_GT(c.r.x[25], buf);
    expect_same(c, whole_window(c));
    for (const instruction_range &r : c.decoded.ranges)
        EXPECT_GE(r.start, c.at("enable_isb")) << r; // nothing of the locked window
}

// An ISB is a Context synchronization event, which the CPU reports to the PE model. The TRBE is
// enabled at EL1, where trace is prohibited (TRFCR_EL1.E0TRE only), then ISBs, then an ERET to a
// loop at EL0 (ete_ctxt_sync.inc). Architecturally the EL0 loop is traced after one ISB; with
// the erratum option erratum_ctxt_sync_after_enable (Cortex-A510 erratum 2038923) the PE keeps
// the view of the enabling write (prohibited) until the second Context synchronization event
// after it: one ISB captures nothing, two (Linux's workaround) capture the loop.
struct ctxt_sync_case {
    const char *program;
    bool erratum;
    bool traced;
};

void PrintTo(const ctxt_sync_case &c, std::ostream *os)
{
    *os << c.program << (c.erratum ? " erratum_ctxt_sync_after_enable" : "");
}

class A64EteCtxtSync : public ::testing::TestWithParam<ctxt_sync_case>
{
};

TEST_P(A64EteCtxtSync, TheEl0LoopIsTracedOnceThePeSeesTheEnable)
{
    const ctxt_sync_case &p = GetParam();
    const capture c =
        run_capture(p.program, 0, pmtrace::test::platform_setup(), [&](vp_config &config) {
            config.pe.core.trbe.erratum_ctxt_sync_after_enable = p.erratum;
            // The model's note where the erratum loses trace.
            config.pe.core_log_severity = sc_core::SC_INFO;
        });
    if (!p.traced) {
        EXPECT_EQ(c.r.x[25], buf); // TRBPTR_EL1: nothing written
        return;
    }
    ASSERT_GT(c.r.x[25], buf);
    const uint64_t el0 = c.at("el0_code"), back = c.at("back_at_el1"), loop = c.at("el0_loop");
    unsigned loops = 0;
    for (const instruction_range &r : c.decoded.ranges) {
        EXPECT_TRUE(r.start >= el0 && r.end <= back) << r; // EL0's code only
        loops += r.start == loop;
    }
    EXPECT_EQ(loops, 99u); // the first iteration's range starts at el0_code
}

INSTANTIATE_TEST_SUITE_P(AfterEnablingTheTrbe, A64EteCtxtSync,
                         ::testing::Values(ctxt_sync_case{"ete_ctxt_sync_1", false, true},
                                           ctxt_sync_case{"ete_ctxt_sync_1", true, false},
                                           ctxt_sync_case{"ete_ctxt_sync_2", true, true}),
                         [](const ::testing::TestParamInfo<ctxt_sync_case> &i) {
                             return std::string(i.param.erratum ? "Erratum" : "Architecture") +
                                    (i.param.program[sizeof "ete_ctxt_sync_" - 1] == '1'
                                         ? "OneIsb"
                                         : "TwoIsbs");
                         });

// A trace unit that software leaves disabled gets no reports from the CPU (trace off costs no
// report per branch): its statistics count none, and the program runs as without it.
TEST(A64Ete, ATraceUnitLeftDisabledGetsNoReports)
{
    vp_config config;
    config.pe.core.ete.feat_ete = true;
    run_result r = run("trace_flow", config);
    EXPECT_EQ(r.x[19], 0u);
    pmt_ete_stats s{};
    ASSERT_EQ(pmt_ete_get_stats(r.platform->pe.core(), &s), PMT_OK);
    EXPECT_EQ(s.ranges, 0u);
    EXPECT_EQ(s.bytes, 0u);
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
    expect_same(c, whole_window(c));
}

// perf's default timestamps (cs_etm/timestamp/), programmed as Linux 6.1's
// etm4_config_timestamp_event does: Counter 0 from 1, reloading 1 in Self-reload mode on resource
// 1 (TRUE), and TRCTSCTLR on "Counter 0 is zero". The counter counts at each traced P0 element
// and is at zero at every second one, where a Timestamp follows (docs/choices.md, "Counters"):
// with the one every Trace Info has, the capture holds one Timestamp per A-Sync and one per two
// P0 elements, each between the counter values read before the enable and after the disable.
// The instructions are the same as without timestamps; the counter read back after the disable
// is 1 after an even number of P0 elements, 0 after an odd one.
TEST(A64Ete, LinuxTimestampCounterGivesATimestampAtEverySecondP0Element)
{
    const capture c = run_capture("ete_capture_ts_cntr");
    expect_same(c, whole_window(c));
    // Every decoded range ends with a P0 element but the two before the SVCs' Exception
    // elements (an SVC alone after a branch: a range ending at its preferred return address).
    ASSERT_EQ(c.decoded.exceptions.size(), 2u);
    for (const trace_exception_element &e : c.decoded.exceptions) {
        ASSERT_GT(e.after_ranges, 0u);
        const instruction_range &before = c.decoded.ranges[e.after_ranges - 1];
        EXPECT_EQ(before.end - before.start, 4u) << before;
    }
    const size_t p0 = c.decoded.ranges.size() - c.decoded.exceptions.size();
    ASSERT_GT(p0, 20000u);
    EXPECT_GT(c.decoded.async_packets, 2u);
    const std::vector<uint64_t> &ts = c.decoded.timestamps;
    EXPECT_EQ(ts.size(), c.decoded.async_packets + p0 / 2);
    for (size_t i = 0; i < ts.size(); i++) {
        EXPECT_GE(ts[i], c.r.x[26]) << i;
        EXPECT_LE(ts[i], c.r.x[27]) << i;
        if (i) {
            EXPECT_GE(ts[i], ts[i - 1]) << i;
        }
    }
    EXPECT_EQ(c.r.x[19], p0 % 2 ? 0u : 1u); // TRCCNTVR0
}

// Fill mode, a 4 KiB buffer and about 17 KiB of trace: the buffer full management event stops
// collection (TRBSR_EL1.S, WRAP; TRBPTR_EL1 back at the base): the capture is the beginning of
// the window, exactly.
TEST(A64Ete, FillModeKeepsTheOldestTrace)
{
    const capture c = run_capture("ete_capture_full", 0x1000);
    EXPECT_EQ(c.r.x[24] & (trbsr_s | trbsr_wrap), trbsr_s | trbsr_wrap);
    ASSERT_GT(c.decoded.ranges.size(), 1000u);
    expect_beginning_of_window(c, whole_window(c));
}

// Wrap mode: the buffer wraps and collection goes on (TRBSR_EL1.WRAP, S clear), each wrap a
// buffer wrap event that sets IRQ (D6.5.2); in time order from TRBPTR_EL1, decoded from its first
// A-Sync, it is the end of the window, exactly.
TEST(A64Ete, WrapModeKeepsTheNewestTrace)
{
    const capture c = run_capture("ete_capture_wrap", 0x1000);
    EXPECT_EQ(c.r.x[24] & (trbsr_s | trbsr_wrap | trbsr_irq), trbsr_wrap | trbsr_irq);
    expect_end_of_window(c, whole_window(c));
}

// Circular Buffer mode: the wrap is not a management event (D6.5.2: only TRBSR_EL1.WRAP is set,
// and TRB_WRAP generated; no IRQ, collection not stopped); the buffer keeps the newest trace,
// which decoded from its first A-Sync in time order is the end of the window, exactly.
TEST(A64Ete, CircularBufferModeWrapsWithoutAManagementEvent)
{
    const capture c = run_capture("ete_capture_circular", 0x1000);
    EXPECT_EQ(c.r.x[24], trbsr_wrap); // EC 0, MSS 0: nothing else recorded
    expect_end_of_window(c, whole_window(c));
}

// Stop on trigger with the Trigger Counter at 128 bytes: ETEEvent 0, the trigger condition
// (IYRQCN), is a Single Address Comparator at the first BL after the long loop. The Detected
// Trigger sets TRBSR_EL1.TRG (RKSQJW); the counter counts the bytes written after it down to zero
// (RBQTGW), which is the Trigger Event (RDHLQG); after the trace unit flush, the management
// event: IRQ, S, EC 0x00, BSC 0b000010 (RXRRWP). The capture is the beginning of the window up
// to where it stopped, with the Event element of ETEEvent 0 after the BL.
TEST(A64Ete, StopOnTriggerStopsTheTriggerCounterAfterTheTrigger)
{
    constexpr uint64_t trg = 128; // ete_capture_trigger.S
    const capture c = run_capture("ete_capture_trigger");
    EXPECT_EQ(c.r.x[24], trbsr_irq | trbsr_trg | trbsr_s | trbsr_ec(0) | 0b000010);
    EXPECT_EQ(c.r.x[23], 0u); // TRBTRG_EL1 counted down to zero
    expect_beginning_of_window(c, whole_window(c));

    ASSERT_EQ(c.decoded.events.size(), 1u);
    const trace_event &trigger = c.decoded.events[0];
    EXPECT_EQ(trigger.events, 1u); // ETEEvent 0
    ASSERT_GT(trigger.after_ranges, 0u);
    EXPECT_EQ(c.decoded.ranges[trigger.after_ranges - 1].end, c.at("call_func") + 4);
    // The bytes written after the Detected Trigger (the Event packet, one byte, is the last
    // before it): at least the 128 the counter counted, less what a partly filled unit of
    // TRBIDR_EL1.Align bytes held when it was detected (RQFGNQ: counted when it is written);
    // then only what the trace unit held, which its flush outputs (IMCGFL): less than a unit,
    // each call after the trigger being a few bytes of trace.
    uint64_t trbidr = 0;
    ASSERT_EQ(pmt_pe_sysreg_read(c.r.platform->pe.core(),
                                 pmt_sysreg_encode({PMT_REG_TRBIDR_EL1, 0}), &trbidr),
              PMT_ACCESS_OK);
    const uint64_t align = uint64_t{1} << (trbidr & 0xF), written = c.r.x[25] - buf;
    const uint64_t detected = trigger.byte + 1;
    EXPECT_GE(written, detected + trg - align);
    EXPECT_LT(written, detected + trg + align);
}

// A Translation fault on the second page of the buffer: DebugWriteFault records it (TRBSR_EL1
// IRQ, S, EC 0x24 stage 1 Data Abort, MSS.FSC 0b000111 level 3) and stops collection, TRBPTR_EL1
// the faulting address, the page's first byte (IGVGPB); the trace written before it, [base,
// TRBPTR_EL1), is the beginning of the window, exactly.
TEST(A64Ete, AFaultOnTheBufferStopsTheCapture)
{
    const uint64_t page = buf + page_size;
    const pmt_trbe_fault translation_l3{
        PMT_TRBE_FAULT_TRANSLATION, 1, 3, false, false, false, false};
    const capture c = run_capture("ete_capture_fault", 0, [page, translation_l3](vp &p) {
        p.mmu.inject(page, page_size, translation_l3);
    });
    EXPECT_EQ(c.r.x[24], trbsr_irq | trbsr_s | trbsr_ec(0x24) | 0b000111);
    EXPECT_EQ(c.r.x[25], page);
    ASSERT_GT(c.decoded.ranges.size(), 100u);
    expect_beginning_of_window(c, whole_window(c));
}

// ete_capture_va.S: the buffer at a virtual address, its pages at these physical addresses.
constexpr uint64_t va_buf = 0xFFFF'FF80'4000'0000;
constexpr uint64_t va_pages[] = {0x4010'1000, 0x4010'0000, 0x4010'2000};

// The capture of ete_capture_va(_fault).S: [va_buf, TRBPTR_EL1) read page by page where the
// translation tables put them.
capture run_capture_va(const std::string &program)
{
    capture c = run_program(program, pmtrace::test::platform_setup(), [](vp_config &) {});
    const uint64_t end = c.r.x[25];
    EXPECT_GE(end, va_buf);
    EXPECT_LE(end, va_buf + 3 * page_size);
    const uint8_t *ram = c.r.platform->ram.data();
    for (uint64_t va = va_buf; va < end && va < va_buf + 3 * page_size; va++)
        c.bytes.push_back(ram[va_pages[(va - va_buf) / page_size] + va % page_size -
                              pmtrace::platform::virt::ram_base]);
    decode(c, program);
    return c;
}

// The Trace Buffer Unit's pointer is a virtual address of the owning translation regime, EL1&0
// here, translated by its stage 1 as a privileged write (D6.3.4 RJTVDD): with the buffer's pages
// mapped out of physical order (as Linux's perf AUX buffer is), the bytes at the pages' physical
// addresses, in virtual order, decode into exactly what the CPU executed. The capture crosses
// into the second page; the third page's physical address is untouched.
TEST(A64Ete, RJTVDD_TheBufferIsTranslatedByTheOwningRegimesStage1)
{
    const capture c = run_capture_va("ete_capture_va");
    EXPECT_EQ(c.r.x[24], 0u); // TRBSR_EL1: no event, no fault
    EXPECT_GT(c.r.x[25], va_buf + page_size);
    EXPECT_LT(c.r.x[25], va_buf + 2 * page_size);
    expect_same(c, whole_window(c));
    const uint8_t *ram =
        c.r.platform->ram.data() + (va_pages[2] - pmtrace::platform::virt::ram_base);
    EXPECT_EQ(std::count(ram, ram + page_size, 0), static_cast<long>(page_size));
}

// A page of the buffer whose stage 1 descriptor refuses the unit's write: the write takes the
// stage 1 fault at level 3 (D6.5.4 RQKLXR: a Translation fault for an invalid descriptor, a
// Permission fault for a read-only page, the unit's write being a privileged write, an Access flag
// fault with the flag 0 and TCR_EL1.HA 0), which DebugWriteFault records (TRBSR_EL1 IRQ, S, EC
// 0x24, MSS.FSC) and which stops collection with TRBPTR_EL1 at the page; the two pages before it
// hold the beginning of the window, exactly.
struct stage1_fault_case {
    const char *program;
    uint64_t fsc;
};

void PrintTo(const stage1_fault_case &c, std::ostream *os)
{
    *os << c.program;
}

class A64EteStage1Fault : public ::testing::TestWithParam<stage1_fault_case>
{
};

TEST_P(A64EteStage1Fault, RQKLXR_StopsTheCaptureAtThePage)
{
    const capture c = run_capture_va(GetParam().program);
    EXPECT_EQ(c.r.x[24], trbsr_irq | trbsr_s | trbsr_ec(0x24) | GetParam().fsc);
    EXPECT_EQ(c.r.x[25], va_buf + 2 * page_size);
    ASSERT_GT(c.decoded.ranges.size(), 100u);
    expect_beginning_of_window(c, whole_window(c));
}

INSTANTIATE_TEST_SUITE_P(OnTheBuffersThirdPage, A64EteStage1Fault,
                         ::testing::Values(stage1_fault_case{"ete_capture_va_fault", 0b000111},
                                           stage1_fault_case{"ete_capture_va_ro", 0b001111},
                                           stage1_fault_case{"ete_capture_va_af", 0b001011}),
                         [](const ::testing::TestParamInfo<stage1_fault_case> &i) {
                             const std::string p = i.param.program;
                             return p == "ete_capture_va_fault" ? std::string("Translation")
                                    : p == "ete_capture_va_ro"  ? std::string("Permission")
                                                                : std::string("AccessFlag");
                         });

namespace
{

// A trace unit that holds the ranges that start at a multiple of 8 and notes when the others
// are reported.
struct recording_unit final : pmtrace::ete_report_if {
    std::vector<uint64_t> held;
    std::vector<std::pair<uint64_t, sc_core::sc_time>> reported; // start, offset
    size_t report_ranges_held(const pmt_ete_range *ranges, size_t n) override
    {
        size_t i = 0;
        for (; i < n && ranges[i].start % 8 == 0; i++)
            held.push_back(ranges[i].start);
        return i;
    }
    pmt_status report_range(const pmt_ete_range &range, const sc_core::sc_time &offset) override
    {
        reported.emplace_back(range.start, offset);
        return PMT_OK;
    }
    bool wants_reports() override { return true; }
    pmt_status report_exception(const pmt_ete_exception_taken &, const sc_core::sc_time &) override
    {
        return PMT_OK;
    }
    pmt_status report_context_ids(uint32_t, uint32_t, const sc_core::sc_time &) override
    {
        return PMT_OK;
    }
    pmt_status flush_trace(const sc_core::sc_time &) override { return PMT_OK; }
};

// The i-th range of a batch ended at i + 1 ns.
struct nanosecond_times final : a64_trace_times {
    sc_core::sc_time offset(size_t i) const override
    {
        return sc_core::sc_time(static_cast<double>(i + 1), sc_core::SC_NS);
    }
};

} // namespace

// ete_reporter gives a batch's ranges to the trace unit in order, held while it holds them, and
// each it does not hold at the time that range ended, not at the CPU's time now (one second
// here). 150 ranges: more than the reporter converts at once.
TEST(A64Ete, TheReporterReportsEachRangeOfABatchNotHeldAtItsTime)
{
    recording_unit unit;
    ete_reporter reporter(unit, [] { return sc_core::sc_time(1, sc_core::SC_SEC); });
    std::vector<a64_trace_range> ranges(150);
    for (size_t i = 0; i < ranges.size(); i++) {
        const uint64_t at = 0x1000 + 4 * i;
        ranges[i] = {at, at, a64_p0_kind::direct, false, true, at + 4, 1};
    }
    reporter.on_ranges(ranges.data(), ranges.size(), nanosecond_times());
    ASSERT_EQ(unit.held.size(), 75u);
    ASSERT_EQ(unit.reported.size(), 75u);
    for (size_t k = 0; k < 75; k++) {
        EXPECT_EQ(unit.held[k], 0x1000 + 8 * k);
        EXPECT_EQ(unit.reported[k].first, 0x1000 + 8 * k + 4);
        EXPECT_EQ(unit.reported[k].second,
                  sc_core::sc_time(static_cast<double>(2 * k + 2), sc_core::SC_NS));
    }
    EXPECT_EQ(reporter.refused(), 0u);
}
