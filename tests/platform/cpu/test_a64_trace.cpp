// What the AArch64 CPU reports to a trace listener (a64_trace_listener.h), through the execution
// log (a64_exec_log.h): A64 programs (tests/platform/cpu/a64/trace_*.S) whose every P0 element is
// at a label; the expected records are written from the program text with the labels' addresses
// (the programs' symbols, from nm), never from a run. The reports must account for every
// instruction the PMU counted (INST_RETIRED), each once.
#include "a64_program.h"

#include <pmtrace/platform/cpu/a64_exec_log.h>

#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

// The lines of the log's text form (docs/platform.md, "Execution log"), written by hand below.
std::string line(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string line(const char *format, ...)
{
    char buf[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
}
std::string range(uint64_t start, uint64_t last, const char *kind, bool taken, uint64_t next,
                  uint64_t count = 1)
{
    return line("range 0x%" PRIx64 " 0x%" PRIx64 " %s %s 0x%" PRIx64 " %" PRIu64, start, last, kind,
                taken ? "E" : "N", next, count);
}
std::string context(uint64_t next, unsigned el, uint64_t contextidr_el1 = 0)
{
    return line("context 0x%" PRIx64 " el=%u ns=1 contextidr_el1=0x%" PRIx64
                " contextidr_el2=0x0 vmid=0",
                next, el, contextidr_el1);
}
std::string exception(const char *type, unsigned ec, uint64_t start, uint64_t preferred_return,
                      uint64_t vector, unsigned from, unsigned to)
{
    return line("exception %s ec=0x%02x 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " el=%u->%u", type,
                ec, start, preferred_return, vector, from, to);
}
std::string end(uint64_t start, uint64_t end_address)
{
    return line("end system_off 0x%" PRIx64 " 0x%" PRIx64, start, end_address);
}

std::vector<std::string> lines(const a64_exec_log &log)
{
    std::ostringstream out;
    EXPECT_TRUE(log.write(out));
    std::vector<std::string> v;
    std::istringstream in(out.str());
    std::string l;
    std::getline(in, l);
    EXPECT_EQ(l, "# pmtrace a64 execution log 1");
    while (std::getline(in, l))
        v.push_back(l);
    return v;
}

void expect_lines(const a64_exec_log &log, const std::vector<std::string> &expected)
{
    const std::vector<std::string> got = lines(log);
    for (size_t i = 0; i < std::max(got.size(), expected.size()); i++)
        EXPECT_EQ(i < got.size() ? got[i] : "(none)", i < expected.size() ? expected[i] : "(none)")
            << "record " << i;
}

// The instructions the records account for: every range, the ranges before exceptions and at
// the end.
uint64_t instructions(const a64_exec_log &log)
{
    uint64_t n = 0;
    for (const a64_trace_range &r : log.ranges())
        n += ((r.last - r.start) / 4 + 1) * r.count;
    for (const a64_trace_exception_taken &e : log.exceptions())
        n += (e.preferred_return - e.range_start) / 4;
    for (const a64_trace_end &e : log.ends())
        n += (e.end - e.start) / 4;
    return n;
}

vp_config logging()
{
    vp_config c;
    c.a64.exec_log = true;
    return c;
}

// A listener that counts its calls.
struct counting_listener final : a64_trace_listener {
    uint64_t contexts = 0, ranges = 0, exceptions = 0, ends = 0;
    void on_context(const a64_trace_context &, uint64_t) override { contexts++; }
    void on_range(const a64_trace_range &) override { ranges++; }
    void on_exception(const a64_trace_exception_taken &) override { exceptions++; }
    void on_end(const a64_trace_end &) override { ends++; }
};

// A listener that wants no reports until it has been asked `asked_before_wanting` times more
// (the CPU asks when it is attached, then after each System register write to the PE model), or
// until `on`. `instructions`: those its reports account for.
struct reluctant_listener final : a64_trace_listener {
    unsigned asked = 0, asked_before_wanting = ~0u;
    bool on = false;
    uint64_t instructions = 0;
    std::vector<std::string> records; // "context AT", "range|exception START NEXT", "end"
    void on_context(const a64_trace_context &, uint64_t next) override
    {
        char line[64];
        std::snprintf(line, sizeof line, "context %" PRIx64, next);
        records.push_back(line);
    }
    void on_range(const a64_trace_range &r) override
    {
        char line[64];
        std::snprintf(line, sizeof line, "range %" PRIx64 " %" PRIx64, r.start, r.next);
        records.push_back(line);
        instructions += ((r.last - r.start) / 4 + 1) * r.count;
    }
    void on_exception(const a64_trace_exception_taken &e) override
    {
        char line[64];
        std::snprintf(line, sizeof line, "exception %" PRIx64 " %" PRIx64, e.range_start, e.vector);
        records.push_back(line);
        instructions += (e.preferred_return - e.range_start) / 4;
    }
    void on_end(const a64_trace_end &e) override
    {
        char line[64];
        std::snprintf(line, sizeof line, "end %" PRIx64 " %" PRIx64, e.start, e.end);
        records.push_back(line);
        instructions += (e.end - e.start) / 4;
    }
    bool wants_reports() override { return asked++ >= asked_before_wanting || on; }
};

// A platform with the AArch64 CPU (and the execution log if `exec_log`) that boots `program`,
// not yet started (a program that does not load fails the test).
std::unique_ptr<vp> booting(const std::string &program, bool exec_log = false)
{
    vp_config config;
    config.cpu_kind = vp_cpu::a64;
    config.a64.exec_log = exec_log;
    auto p = std::make_unique<vp>("vp", config);
    std::vector<uint8_t> image =
        pmtrace::test::read_image(std::string(PMTRACE_A64_DIR) + "/" + program + ".bin");
    EXPECT_TRUE(!image.empty() && p->load(pmtrace::test::a64_load_address, image)) << program;
    p->a64->set_boot(pmtrace::test::a64_load_address, 0);
    return p;
}

// Runs `program` with `listener` attached before simulation (and removed again if `remove`),
// after the execution log if `exec_log`.
std::unique_ptr<vp> run_with(const std::string &program, a64_trace_listener *listener, bool remove,
                             bool exec_log = false)
{
    std::unique_ptr<vp> p = booting(program, exec_log);
    p->a64->add_trace_listener(listener);
    if (remove)
        p->a64->remove_trace_listener(listener);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    EXPECT_EQ(p->a64->end(), a64_cpu_end::system_off);
    return p;
}

// trace_flow.S's records, from its text (ProgramFlowAtEl1 says why each is there).
std::vector<std::string> flow_expected(const labels &a)
{
    const uint64_t vec = a("vec");
    return {
        context(a("_start"), 1),
        range(a("_start"), a("isb_a"), "isb", true, a("isb_a") + 4),
        range(a("isb_a") + 4, a("loop3_br"), "direct", true, a("loop3")),
        range(a("loop3"), a("loop3_br"), "direct", true, a("loop3")),
        range(a("loop3"), a("loop3_br"), "direct", false, a("loop3_br") + 4),
        range(a("loop3_br") + 4, a("long_br"), "direct", true, a("long")),
        range(a("long"), a("long_br"), "direct", true, a("long"), 100000 - 2),
        range(a("long"), a("long_br"), "direct", false, a("long_br") + 4),
        range(a("long_br") + 4, a("call_bl"), "direct_link", true, a("func")),
        range(a("func"), a("func_ret"), "ret", true, a("after_bl")),
        range(a("after_bl"), a("call_blr"), "indirect_link", true, a("func")),
        range(a("func"), a("func_ret"), "ret", true, a("after_blr")),
        range(a("after_blr"), a("switch_br"), "indirect", true, a("case1")),
        range(a("case1"), a("case1_b"), "direct", true, a("join")),
        range(a("join"), a("cbz_t"), "direct", true, a("cbz_target")),
        range(a("cbz_target"), a("cbz_n"), "direct", false, a("cbz_n") + 4),
        range(a("cbz_n") + 4, a("tbz_n"), "direct", false, a("tbnz_t")),
        range(a("tbnz_t"), a("tbnz_t"), "direct", true, a("tbnz_target")),
        range(a("tbnz_target"), a("beq_self_t"), "direct", true, a("beq_self_n_start")),
        range(a("beq_self_n_start"), a("beq_self_n"), "direct", false, a("after_beq")),
        exception("svc", 0x15, a("after_beq"), a("after_svc"), vec + 0x200, 1, 1),
        range(vec + 0x200, vec + 0x204, "direct", true, a("handler")),
        range(a("handler"), a("handler_eret"), "eret", true, a("after_svc")),
        end(a("after_svc"), a("hvc_off") + 4),
    };
}

// The instructions a list of records accounts for (their text form).
uint64_t instructions(const std::vector<std::string> &records)
{
    uint64_t n = 0;
    for (const std::string &l : records) {
        uint64_t a = 0, b = 0, next = 0, count = 0;
        char kind[32], atom[4];
        if (std::sscanf(l.c_str(), "range %" SCNx64 " %" SCNx64 " %31s %3s %" SCNx64 " %" SCNu64,
                        &a, &b, kind, atom, &next, &count) == 6)
            n += ((b - a) / 4 + 1) * count;
        else if (unsigned ec = 0;
                 std::sscanf(l.c_str(), "exception %31s ec=0x%x %" SCNx64 " %" SCNx64, kind, &ec,
                             &a, &b) == 4)
            n += (b - a) / 4;
        else if (std::sscanf(l.c_str(), "end %31s %" SCNx64 " %" SCNx64, kind, &a, &b) == 3)
            n += (b - a) / 4;
    }
    return n;
}

} // namespace

// Every P0 element at EL1 (trace_flow.S): ISB (E, the next instruction); B.NE of a counted loop
// of 3 taken twice then not (N: the fall-through); a loop of one block repeated 100000 times
// (the engine's repeats: one record, E to its start, count 100000 - 2 after the first and before
// the last); BL (direct, link) and RET; BLR (indirect, link) through x3 and RET; BR through the
// jump table to case1, then B; CBZ taken, CBZ not taken, TBZ not taken, TBNZ taken; B.EQ whose
// target is its own fall-through, taken (Z set) and not taken (Z clear): the condition decides,
// not the address; SVC: an exception (EC 0x15) whose range ends with the SVC (preferred return
// the next instruction), taken to VBAR_EL1 + 0x200 (current EL with SPx), the vector's B, the
// handler's ERET back (EL1 to EL1: no context record); the range that ends with the HVC of PSCI
// SYSTEM_OFF.
TEST(A64Trace, ProgramFlowAtEl1)
{
    run_result r = run("trace_flow", logging());
    ASSERT_EQ(r.x[19], 0u);
    const a64_exec_log *log = r.platform->a64->exec_log();
    ASSERT_NE(log, nullptr);
    const labels a("trace_flow");
    expect_lines(*log, flow_expected(a));
    EXPECT_EQ(instructions(*log), r.platform->a64->stats().instructions);
    EXPECT_EQ(instructions(flow_expected(a)), r.platform->a64->stats().instructions);
    EXPECT_EQ(r.platform->a64->stats().trace_discontinuities, 0u);
    // The ranges' conditions: B.NE, CBZ, TBZ, TBNZ, B.EQ are conditional; B, BL, BLR, BR not.
    for (const a64_trace_range &g : log->ranges()) {
        const bool conditional = g.last == a("loop3_br") || g.last == a("long_br") ||
                                 g.last == a("cbz_t") || g.last == a("cbz_n") ||
                                 g.last == a("tbz_n") || g.last == a("tbnz_t") ||
                                 g.last == a("beq_self_t") || g.last == a("beq_self_n");
        EXPECT_EQ(g.conditional, conditional) << std::hex << g.last;
    }
}

// An interrupt inside a block (trace_irq.S): PMUIRQ from an INST_RETIRED overflow is taken after
// the tenth instruction counted from the enabling MSR, inside the block of NOPs: the
// exception's range runs from the ISB's next instruction (the last P0 element) to the
// instruction after the overflow, its preferred return; the vector VBAR_EL1 + 0x280 (IRQ,
// current EL with SPx); the vector's B, the handler's ERET back.
TEST(A64Trace, InterruptInsideABlock)
{
    run_result r = run("trace_irq", logging());
    const a64_exec_log *log = r.platform->a64->exec_log();
    ASSERT_NE(log, nullptr);
    const labels a("trace_irq");
    const uint64_t irq_vector = a("vec") + 0x280;
    expect_lines(*log,
                 {
                     context(a("_start"), 1),
                     range(a("_start"), a("isb_a"), "isb", true, a("isb_a") + 4),
                     exception("irq", 0, a("isb_a") + 4, a("after_overflow"), irq_vector, 1, 1),
                     range(irq_vector, irq_vector + 4, "direct", true, a("handler")),
                     range(a("handler"), a("handler_eret"), "eret", true, a("after_overflow")),
                     end(a("after_overflow"), a("hvc_off") + 4),
                 });
    EXPECT_EQ(r.x[25], 1u);
    EXPECT_EQ(instructions(*log), r.platform->a64->stats().instructions);
    EXPECT_EQ(r.platform->a64->stats().trace_discontinuities, 0u);
}

// The Generic Timer's interrupt in a loop and after a WFI (trace_timer.S). It is taken between
// two blocks of the loop of one block (100000 iterations): an exception with no range
// (preferred return the loop's start, where the last B.NE went), the handler's ERET back to the
// loop; the iterations before and after it add up to 100000. The WFI is a wfx range (E, to the
// next instruction); the timer's next interrupt is taken after it, with no range.
TEST(A64Trace, TimerInterruptInALoopAndAfterWfi)
{
    run_result r = run("trace_timer", logging());
    const a64_exec_log *log = r.platform->a64->exec_log();
    ASSERT_NE(log, nullptr);
    const labels a("trace_timer");
    const uint64_t irq_vector = a("vec") + 0x280;
    const std::vector<std::string> got = lines(*log);
    size_t i = 0;
    auto expect_next = [&](const std::string &e) {
        EXPECT_EQ(i < got.size() ? got[i] : "(none)", e) << "record " << i;
        i++;
    };
    expect_next(context(a("_start"), 1));
    expect_next(range(a("_start"), a("isb_a"), "isb", true, a("isb_a") + 4));
    expect_next(range(a("isb_a") + 4, a("long_br"), "direct", true, a("long")));
    // The loop, the interrupt between two of its blocks, the loop again.
    const std::string loop = line("range 0x%" PRIx64 " 0x%" PRIx64 " direct E 0x%" PRIx64 " ",
                                  a("long"), a("long_br"), a("long"));
    uint64_t before = 0, after = 0;
    if (i < got.size() && got[i].rfind(loop, 0) == 0)
        before = log->ranges()[log->records()[i++].index].count;
    expect_next(exception("irq", 0, a("long"), a("long"), irq_vector, 1, 1));
    expect_next(range(irq_vector, irq_vector + 4, "direct", true, a("handler")));
    expect_next(range(a("handler"), a("handler_eret"), "eret", true, a("long")));
    if (i < got.size() && got[i].rfind(loop, 0) == 0)
        after = log->ranges()[log->records()[i++].index].count;
    EXPECT_EQ(1 + before + after + 1, 100000u); // with the first iteration and the last
    expect_next(range(a("long"), a("long_br"), "direct", false, a("long_br") + 4));
    expect_next(range(a("long_br") + 4, a("wfi_a"), "wfx", true, a("after_wfi")));
    expect_next(exception("irq", 0, a("after_wfi"), a("after_wfi"), irq_vector, 1, 1));
    expect_next(range(irq_vector, irq_vector + 4, "direct", true, a("handler")));
    expect_next(range(a("handler"), a("handler_eret"), "eret", true, a("after_wfi")));
    expect_next(end(a("after_wfi"), a("hvc_off") + 4));
    EXPECT_EQ(i, got.size());
    EXPECT_EQ(r.x[25], 2u); // two interrupts handled
    EXPECT_EQ(instructions(*log), r.platform->a64->stats().instructions);
    EXPECT_EQ(r.platform->a64->stats().trace_discontinuities, 0u);
}

// EL1 -> EL0 -> EL1 and CONTEXTIDR_EL1 (trace_el0.S): the MSR CONTEXTIDR_EL1 of 0x55 is a
// context record at the instruction after it (no range ends there); the ISB; the ERET's range
// (eret, E to el0_code), then the context at EL0; the SVC from EL0 taken to VBAR_EL1 + 0x400
// (lower EL using AArch64, synchronous) with its range from el0_code, EL0 to EL1; the vector's
// B; the handler's range to the HVC of SYSTEM_OFF.
TEST(A64Trace, ExceptionLevelsAndContextId)
{
    run_result r = run("trace_el0", logging());
    const a64_exec_log *log = r.platform->a64->exec_log();
    ASSERT_NE(log, nullptr);
    const labels a("trace_el0");
    const uint64_t vec = a("vec");
    expect_lines(*log, {
                           context(a("_start"), 1),
                           context(a("write_ctx") + 4, 1, 0x55),
                           range(a("_start"), a("write_ctx") + 4, "isb", true, a("to_el0")),
                           range(a("to_el0"), a("to_el0"), "eret", true, a("el0_code")),
                           context(a("el0_code"), 0, 0x55),
                           exception("svc", 0x15, a("el0_code"), a("svc0") + 4, vec + 0x400, 0, 1),
                           range(vec + 0x400, vec + 0x404, "direct", true, a("handler")),
                           end(a("handler"), a("hvc_off") + 4),
                       });
    EXPECT_EQ(instructions(*log), r.platform->a64->stats().instructions);
    EXPECT_EQ(r.platform->a64->stats().trace_discontinuities, 0u);
}

// The reports cost their calls, not instructions: trace_flow's loop of 100000 iterations is a
// few on_range calls (the engine repeats its block without calling the CPU: one report for the
// repeats between two calls).
TEST(A64Trace, ListenerCallsAreFewForARepeatedLoop)
{
    counting_listener on;
    std::unique_ptr<vp> p = run_with("trace_flow", &on, false);
    EXPECT_EQ(on.ends, 1u);
    EXPECT_EQ(on.exceptions, 1u);
    EXPECT_EQ(on.contexts, 1u);
    EXPECT_GE(on.ranges, 22u); // ProgramFlowAtEl1's 22 range records, the loops' in parts
    EXPECT_LT(on.ranges, 60u);
}

// A listener removed before the run is never called, and without one the program runs as the
// records say: the registers it leaves, and the instructions the records of ProgramFlowAtEl1
// account for retired.
TEST(A64Trace, NoListenerNothingCalledSameExecution)
{
    counting_listener off;
    std::unique_ptr<vp> p = run_with("trace_flow", &off, true);
    EXPECT_EQ(off.contexts + off.ranges + off.exceptions + off.ends, 0u);
    EXPECT_EQ(p->a64->exec_log(), nullptr);
    const labels a("trace_flow");
    EXPECT_EQ(p->a64->stats().instructions, instructions(flow_expected(a)));
    a64_engine &e = p->a64->engine();
    EXPECT_EQ(e.x(19), 0u);
    EXPECT_EQ(e.x(2), 2u);  // func ran twice
    EXPECT_EQ(e.x(7), 11u); // case1
    EXPECT_EQ(e.x(9), 4u);
    EXPECT_EQ(e.x(20), esr(0x15, 1)); // the SVC's syndrome, read by the handler
    EXPECT_EQ(p->a64->stats().trace_discontinuities, 0u);
}

// A listener that wants no reports (a trace unit that is disabled) gets none, as a detached one.
TEST(A64Trace, AListenerThatWantsNoReportsGetsNone)
{
    reluctant_listener never;
    std::unique_ptr<vp> p = run_with("exc_events", &never, false);
    EXPECT_TRUE(never.records.empty());
    EXPECT_GT(never.asked, 1u); // asked when attached and after exc_events.S's PMU writes
}

// A listener that starts wanting reports (a trace unit enabled by an MSR) joins after the System
// register write the CPU asks it after: its reports start with the context, and each range (or
// exception) starts where the one before it said execution went on (an exception: its vector).
TEST(A64Trace, AListenerThatStartsWantingReportsJoinsWithTheContext)
{
    reluctant_listener later;
    later.asked_before_wanting = 2; // attached, then the first write: no; the second: yes
    std::unique_ptr<vp> p = run_with("exc_events", &later, false);
    ASSERT_GE(later.records.size(), 3u);
    uint64_t from = 0;
    ASSERT_EQ(std::sscanf(later.records.front().c_str(), "context %" SCNx64, &from), 1);
    EXPECT_GT(from, pmtrace::test::a64_load_address); // it joined late, not at the start
    EXPECT_EQ(later.records.back().rfind("end ", 0), 0u);
    uint64_t next = 0;
    for (const std::string &r : later.records) {
        uint64_t start = 0, n = 0;
        char what[16];
        if (std::sscanf(r.c_str(), "%15s %" SCNx64 " %" SCNx64, what, &start, &n) != 3)
            continue;
        if (next) {
            EXPECT_EQ(start, next) << r;
        }
        next = n;
    }
    EXPECT_EQ(p->a64->stats().trace_discontinuities, 0u);
}

// A listener that starts wanting reports at a System register write (trace_join.S) gets the
// instructions after the write: neither those before it nor the write itself (the trace unit's
// enable is read by each instruction, I_DDLVC and R_SXXQJ; docs/choices.md has the choice). Alone,
// the CPU starts the trace there; beside the execution log, which gets the open range whole, the
// listener's first range starts there.
std::vector<std::string> join_expected(const labels &a)
{
    auto record = [](const char *what, uint64_t x, uint64_t y) {
        char line[64];
        std::snprintf(line, sizeof line, "%s %" PRIx64 " %" PRIx64, what, x, y);
        return std::string(line);
    };
    char context[32];
    std::snprintf(context, sizeof context, "context %" PRIx64, a("after_write"));
    return {context, record("range", a("after_write"), a("second")),
            record("end", a("second"), a("hvc_off") + 4)};
}

TEST(A64Trace, AListenerJoiningAloneStartsAfterTheWrite)
{
    reluctant_listener later;
    later.asked_before_wanting = 1; // attached: no; after the write to PMSELR_EL0: yes
    std::unique_ptr<vp> p = run_with("trace_join", &later, false);
    EXPECT_EQ(later.records, join_expected(labels("trace_join")));
    EXPECT_EQ(p->a64->stats().trace_discontinuities, 0u);
}

TEST(A64Trace, AListenerJoiningARunningTraceStartsAfterTheWrite)
{
    reluctant_listener later;
    later.asked_before_wanting = 1;
    std::unique_ptr<vp> p = run_with("trace_join", &later, false, true);
    const labels a("trace_join");
    EXPECT_EQ(later.records, join_expected(a));
    // The execution log, there from the start, gets the range the write is in whole.
    ASSERT_NE(p->a64->exec_log(), nullptr);
    expect_lines(*p->a64->exec_log(),
                 {context(a("_start"), 1),
                  range(a("_start"), a("start_br"), "direct", true, a("first")),
                  range(a("first"), a("join_br"), "direct", true, a("second")),
                  end(a("second"), a("hvc_off") + 4)});
}

// Two listeners that start wanting reports at the same write, beside the execution log: each
// joins there on its own (the CPU keeps a late start per listener) and gets the same reports.
TEST(A64Trace, TwoListenersJoiningAtOnceEachStartAfterTheWrite)
{
    reluctant_listener one, two;
    // Asked at each attach (one twice), then after the write to PMSELR_EL0: yes.
    one.asked_before_wanting = 2;
    two.asked_before_wanting = 1;
    std::unique_ptr<vp> p = booting("trace_join", true);
    p->a64->add_trace_listener(&one);
    p->a64->add_trace_listener(&two);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    ASSERT_EQ(p->a64->end(), a64_cpu_end::system_off);
    const std::vector<std::string> want = join_expected(labels("trace_join"));
    EXPECT_EQ(one.records, want);
    EXPECT_EQ(two.records, want);
    EXPECT_EQ(p->a64->stats().trace_discontinuities, 0u);
}

// A listener that starts wanting reports between two runs of the CPU (a tool's
// update_trace_listeners(), beside the execution log): it joins at the engine's pc, after the
// last instruction retired. Its reports account for exactly the instructions retired after the
// join, each once.
TEST(A64Trace, AListenerJoiningBetweenRunsGetsExactlyWhatRunsAfter)
{
    reluctant_listener later;
    std::unique_ptr<vp> p = booting("trace_flow", true);
    p->a64->add_trace_listener(&later);
    uint64_t pc = 0, retired_at_join = 0;
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
        pc = p->a64->engine().reg(a64_reg::pc);
        retired_at_join = p->a64->stats().instructions;
        later.on = true;
        p->a64->update_trace_listeners();
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    ASSERT_EQ(p->a64->end(), a64_cpu_end::system_off);
    ASSERT_GE(later.records.size(), 3u);
    char context[32];
    std::snprintf(context, sizeof context, "context %" PRIx64, pc);
    EXPECT_EQ(later.records.front(), context);
    ASSERT_GT(retired_at_join, 0u);
    EXPECT_EQ(later.instructions, p->a64->stats().instructions - retired_at_join);
    uint64_t next = pc;
    for (const std::string &r : later.records) {
        uint64_t start = 0, n = 0;
        char what[16];
        if (std::sscanf(r.c_str(), "%15s %" SCNx64 " %" SCNx64, what, &start, &n) != 3 ||
            std::string(what) == "context")
            continue;
        EXPECT_EQ(start, next) << r;
        next = n;
    }
}

// System register reads the model performs in the middle of a block (trace_sysreg.S): the
// instructions after each (which the engine may run without calling the block hook) are
// retired and reported: INST_RETIRED and the log each count every instruction from _start to the
// HVC once, and the log is one range from _start to the end.
TEST(A64Trace, StraightLineWithSystemRegisterReads)
{
    run_result r = run("trace_sysreg", logging());
    const a64_exec_log *log = r.platform->a64->exec_log();
    ASSERT_NE(log, nullptr);
    const labels a("trace_sysreg");
    expect_lines(*log, {context(a("_start"), 1), end(a("_start"), a("hvc_off") + 4)});
    EXPECT_EQ(r.platform->a64->stats().instructions, (a("hvc_off") + 4 - a("_start")) / 4);
    EXPECT_EQ(r.platform->a64->stats().trace_discontinuities, 0u);
    EXPECT_EQ(r.x[2], 4u); // each ADD ran once (the engine wrote the pc: twice, x2 = 5)
}

namespace
{

// A listener that notes, for each range, the instructions the reports account for up to its end
// and the absolute time it ended: sc_time_stamp() + the CPU's offset now (on_range) or the one
// the batch gives (on_ranges).
struct timing_listener final : a64_trace_listener {
    const a64_cpu *cpu = nullptr;
    uint64_t instructions = 0;
    size_t batches = 0, batched = 0;
    std::vector<std::pair<uint64_t, sc_core::sc_time>> ends;
    void note(const a64_trace_range &r, const sc_core::sc_time &offset)
    {
        instructions += ((r.last - r.start) / 4 + 1) * r.count;
        ends.emplace_back(instructions, sc_core::sc_time_stamp() + offset);
    }
    void on_context(const a64_trace_context &, uint64_t) override {}
    void on_range(const a64_trace_range &r) override { note(r, cpu->retired_offset()); }
    void on_ranges(const a64_trace_range *r, size_t n, const a64_trace_times &times) override
    {
        batches++;
        batched += n;
        for (size_t i = 0; i < n; i++)
            note(r[i], times.offset(i));
    }
    void on_exception(const a64_trace_exception_taken &e) override
    {
        instructions += (e.preferred_return - e.range_start) / 4;
    }
    void on_end(const a64_trace_end &) override {}
};

} // namespace

// trace_batch.S: most of its ranges reach the listener in batches, later than they ran; each
// carries the time it ended. Nothing in the program takes time but its instructions (one cycle
// each), so every range ends as many clock periods after the first as instructions retired in
// between, whether it came alone or in a batch.
TEST(A64Trace, RangesInBatchesEachCarryTheTimeTheyEnded)
{
    timing_listener listener;
    std::unique_ptr<vp> p = booting("trace_batch");
    listener.cpu = p->a64.get();
    p->a64->add_trace_listener(&listener);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    ASSERT_EQ(p->a64->end(), a64_cpu_end::system_off);
    // Four ranges an iteration, 2000 iterations; batches of up to 64.
    ASSERT_GE(listener.ends.size(), 8000u);
    EXPECT_GT(listener.batched, 7900u);
    EXPECT_GE(listener.batches, listener.batched / a64_trace_batch_default);
    EXPECT_LT(listener.batches, listener.batched / 8);
    const sc_core::sc_time period = p->a64->config().clock_period;
    const auto &first = listener.ends.front();
    size_t wrong = 0, first_wrong = 0;
    for (size_t i = 0; i < listener.ends.size(); i++) {
        const auto &e = listener.ends[i];
        if (e.second - first.second != period * static_cast<double>(e.first - first.first) &&
            !wrong++)
            first_wrong = i;
    }
    EXPECT_EQ(wrong, 0u) << "first at range " << first_wrong << " of " << listener.ends.size();
}
