// execution_check.h - checks a decoded trace capture against what the AArch64 CPU executed (its
// execution log, a64_exec_log.h), range by range: the proof that a capture of a real program
// says exactly what the program did. Both sides are runs (consecutive identical ranges with their
// count), so a loop of millions of iterations costs one comparison.
#ifndef PMTRACE_PLATFORM_EXECUTION_CHECK_H
#define PMTRACE_PLATFORM_EXECUTION_CHECK_H

#include <pmtrace/platform/cpu/a64_exec_log.h>
#include <pmtrace/platform/trace/trace_decoder.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::platform
{

// An executed range [start, end), run `count` times in succession at Exception level `el`.
struct executed_run {
    uint64_t start = 0, end = 0;
    bool taken = true;
    unsigned el = 0;
    uint64_t count = 1;
};

// What the CPU executed, in order, as a decoder states instructions: a run per range the log
// holds, and the instructions before an exception (when there are any) as a range of its own,
// ending without a P0 element.
std::vector<executed_run> executed_runs(const a64_exec_log &log);

// Where a check has got to in the executed runs: the parts of one capture are checked in order.
struct execution_cursor {
    size_t run = 0;
    uint64_t done = 0; // of that run's count
};

struct execution_check {
    bool ok = true;
    std::string message;                   // the first difference
    uint64_t ranges = 0, instructions = 0; // matched (before the difference)
};

// Checks that `decoded` (a part's runs: decode_options::runs) is what the CPU executed from
// `cursor` on, and moves `cursor` past it. At a break (the part's start, a run after_break) any
// executed ranges may be missing (trace was off or lost there), and the first range traced may
// be the end of an executed one (trace started inside it); elsewhere only executed ranges at the
// Exception levels `traced_els` (bit n: ELn traced) leaves out may be.
execution_check check_execution(const std::vector<range_run> &decoded,
                                const std::vector<executed_run> &executed, unsigned traced_els,
                                execution_cursor &cursor);

} // namespace pmtrace::platform

#endif
