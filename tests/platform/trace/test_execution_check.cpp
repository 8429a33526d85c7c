// execution_check.h: a decoded capture against what the CPU executed. Each test sets up what the
// CPU executed (as runs, or through an execution log) and a decode, checks once, and looks at the
// verdict and where the cursor ends.
#include <pmtrace/platform/trace/execution_check.h>

#include <gtest/gtest.h>

using namespace pmtrace::platform;

namespace
{

range_run run(uint64_t start, uint64_t end, uint64_t count = 1, bool after_break = false,
              bool taken = true)
{
    return {{start, end, static_cast<uint32_t>((end - start) / 4), instr_kind::branch, taken},
            count,
            after_break};
}

constexpr unsigned el0_el1 = 0b11, el1_only = 0b10;

// A loop: 0x100..0x110 (4 instructions) 1000 times, then 0x110..0x118.
const std::vector<executed_run> loop{{0x100, 0x110, true, 1, 1000}, {0x110, 0x118, false, 1, 1}};

} // namespace

TEST(ExecutionCheck, TheWholeRunMatches)
{
    execution_cursor cursor;
    const execution_check c = check_execution(
        {run(0x100, 0x110, 1000), run(0x110, 0x118, 1, false, false)}, loop, el0_el1, cursor);
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_EQ(c.ranges, 1001u);
    EXPECT_EQ(c.instructions, 4000u + 2u);
    EXPECT_EQ(cursor.run, 2u);
}

// A decode may split a run (a part ends inside the loop) and the next part carries on.
TEST(ExecutionCheck, PartsCarryOnWhereTheLastEnded)
{
    execution_cursor cursor;
    EXPECT_TRUE(check_execution({run(0x100, 0x110, 300)}, loop, el0_el1, cursor).ok);
    EXPECT_EQ(cursor.run, 0u);
    EXPECT_EQ(cursor.done, 300u);
    // Trace lost between the parts: the second starts 200 iterations later.
    const execution_check c = check_execution(
        {run(0x100, 0x110, 500), run(0x110, 0x118, 1, false, false)}, loop, el0_el1, cursor);
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_EQ(cursor.run, 2u);
}

// One atom too many: the loop ran 1000 times, the trace says 1001.
TEST(ExecutionCheck, OneIterationTooManyIsFound)
{
    execution_cursor cursor;
    const execution_check c = check_execution({run(0x100, 0x110, 1001)}, loop, el0_el1, cursor);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("0x100..0x110"), std::string::npos) << c.message;
    EXPECT_EQ(c.ranges, 1000u);
}

// An N atom where the CPU's branch was taken.
TEST(ExecutionCheck, AWrongAtomIsFound)
{
    execution_cursor cursor;
    const execution_check c = check_execution(
        {run(0x100, 0x110, 1000), run(0x110, 0x118, 1, false, true)}, loop, el0_el1, cursor);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("the CPU's next range, 0x110..0x118 N"), std::string::npos)
        << c.message;
}

// Ranges at an Exception level the trace leaves out may be missing; at a traced one they may not.
TEST(ExecutionCheck, OnlyUntracedExceptionLevelsMayBeMissing)
{
    const std::vector<executed_run> x{
        {0x100, 0x108, true, 1, 1}, {0x800, 0x810, true, 0, 5}, {0x108, 0x110, true, 1, 1}};
    execution_cursor cursor;
    EXPECT_TRUE(check_execution({run(0x100, 0x108), run(0x108, 0x110)}, x, el1_only, cursor).ok);
    cursor = {};
    EXPECT_FALSE(check_execution({run(0x100, 0x108), run(0x108, 0x110)}, x, el0_el1, cursor).ok);
}

// After a break (Trace On) anything may be missing, and trace may start inside a range.
TEST(ExecutionCheck, ABreakMaySkipAndStartInsideARange)
{
    const std::vector<executed_run> x{
        {0x100, 0x108, true, 1, 1}, {0x200, 0x220, true, 1, 1}, {0x300, 0x310, true, 1, 1}};
    execution_cursor cursor;
    const execution_check c = check_execution(
        {run(0x100, 0x108), run(0x210, 0x220, 1, true), run(0x300, 0x310)}, x, el0_el1, cursor);
    EXPECT_TRUE(c.ok) << c.message;
    EXPECT_EQ(cursor.run, 3u);
}

// What the execution log holds becomes runs: ranges with their counts and Exception level, the
// instructions before an exception as a range of their own, the level changing with it.
TEST(ExecutionCheck, ExecutedRunsFromTheLog)
{
    a64_exec_log log;
    a64_trace_context el1;
    el1.el = 1;
    log.on_context(el1, 0x100);
    a64_trace_range loop_range;
    loop_range.start = 0x100;
    loop_range.last = 0x10C;
    loop_range.next = 0x100;
    loop_range.count = 7;
    log.on_range(loop_range);
    a64_trace_exception_taken svc;
    svc.type = a64_trace_exception::svc;
    svc.range_start = 0x110;
    svc.preferred_return = 0x118; // two instructions, the SVC the last
    svc.vector = 0x400;
    svc.from = el1;
    svc.to.el = 2;
    log.on_exception(svc);
    a64_trace_range at_el2;
    at_el2.start = 0x400;
    at_el2.last = 0x404;
    at_el2.taken = false;
    at_el2.next = 0x408;
    log.on_range(at_el2);
    const std::vector<executed_run> r = executed_runs(log);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].start, 0x100u);
    EXPECT_EQ(r[0].end, 0x110u);
    EXPECT_EQ(r[0].count, 7u);
    EXPECT_EQ(r[0].el, 1u);
    EXPECT_EQ(r[1].start, 0x110u);
    EXPECT_EQ(r[1].end, 0x118u);
    EXPECT_EQ(r[1].el, 1u);
    EXPECT_EQ(r[2].start, 0x400u);
    EXPECT_EQ(r[2].end, 0x408u);
    EXPECT_FALSE(r[2].taken);
    EXPECT_EQ(r[2].el, 2u);
}
