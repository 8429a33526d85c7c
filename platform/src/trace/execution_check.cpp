// execution_check.cpp - a decoded capture against the execution log (execution_check.h).
#include "pmtrace/platform/trace/execution_check.h"

#include <algorithm>
#include <sstream>

namespace pmtrace::platform
{

std::vector<executed_run> executed_runs(const a64_exec_log &log)
{
    std::vector<executed_run> out;
    unsigned el = 0;
    for (const a64_exec_log::record &rec : log.records()) {
        switch (rec.what) {
        case a64_exec_log::kind::context: el = log.contexts()[rec.index].context.el; break;
        case a64_exec_log::kind::range: {
            const a64_trace_range &r = log.ranges()[rec.index];
            out.push_back({r.start, r.last + 4, r.taken, el, r.count});
            break;
        }
        case a64_exec_log::kind::exception: {
            const a64_trace_exception_taken &e = log.exceptions()[rec.index];
            if (e.preferred_return > e.range_start)
                out.push_back({e.range_start, e.preferred_return, true, el, 1});
            el = e.to.el;
            break;
        }
        default: break;
        }
    }
    return out;
}

namespace
{

std::string describe(const instruction_range &r)
{
    std::ostringstream s;
    s << std::hex << "0x" << r.start << "..0x" << r.end << (r.taken ? " E" : " N");
    return s.str();
}

bool same(const executed_run &x, const instruction_range &r)
{
    return x.start == r.start && x.end == r.end && x.taken == r.taken;
}

// After a break the first range traced may start inside the executed one.
bool ends_the_same(const executed_run &x, const instruction_range &r)
{
    return x.end == r.end && x.taken == r.taken && r.start >= x.start && r.start < x.end;
}

} // namespace

namespace
{

std::string difference(const instruction_range &r, uint64_t matched,
                       const std::vector<executed_run> &executed, const execution_cursor &at)
{
    std::string s = "the trace's range " + describe(r) + " (after " + std::to_string(matched) +
                    " ranges matched) is not ";
    if (at.run == executed.size())
        return s + "anywhere further in what the CPU executed";
    const executed_run &x = executed[at.run];
    return s + "the CPU's next range, " + describe({x.start, x.end, 0, instr_kind::other, x.taken});
}

// Matches decoded[first, last) - trace without a break - from `at`, where the CPU's range can be
// the first one traced (ends_the_same). The difference in `c` when it is not what ran.
bool match_segment(const std::vector<range_run> &decoded, size_t first, size_t last,
                   const std::vector<executed_run> &executed, unsigned traced_els,
                   execution_cursor &at, execution_check &c)
{
    auto next_run = [&at] {
        at.run++;
        at.done = 0;
    };
    for (size_t i = first; i < last; i++) {
        const range_run &d = decoded[i];
        for (uint64_t left = d.count; left > 0;) {
            const bool opening = i == first && left == d.count;
            if (!opening)
                while (at.run < executed.size() && !(traced_els >> executed[at.run].el & 1))
                    next_run();
            if (at.run == executed.size() || !(opening ? ends_the_same(executed[at.run], d.range)
                                                       : same(executed[at.run], d.range))) {
                c.ok = false;
                c.message = difference(d.range, c.ranges, executed, at);
                return false;
            }
            const uint64_t take = std::min(left, executed[at.run].count - at.done);
            left -= take;
            at.done += take;
            if (at.done == executed[at.run].count)
                next_run();
            c.ranges += take;
            c.instructions += take * d.range.instructions;
        }
    }
    return true;
}

} // namespace

execution_check check_execution(const std::vector<range_run> &decoded,
                                const std::vector<executed_run> &executed, unsigned traced_els,
                                execution_cursor &cursor)
{
    execution_check total;
    for (size_t first = 0, last; first < decoded.size(); first = last) {
        last = first + 1;
        while (last < decoded.size() && !decoded[last].after_break)
            last++;
        // After the break the trace can resume at any of the CPU's ranges it ends like: try each
        // in turn until the whole segment matches. (Its first run, when trace goes on after it,
        // is the end of the CPU's run, not its beginning.)
        const range_run &d = decoded[first];
        execution_check best;
        best.ok = false;
        bool found = false;
        for (execution_cursor from = cursor; from.run < executed.size(); from = {from.run + 1, 0}) {
            if (!ends_the_same(executed[from.run], d.range))
                continue;
            const uint64_t remaining = executed[from.run].count - from.done;
            if (last > first + 1 && remaining > d.count)
                from.done = executed[from.run].count - d.count;
            execution_cursor at = from;
            execution_check c;
            if (match_segment(decoded, first, last, executed, traced_els, at, c)) {
                cursor = at;
                total.ranges += c.ranges;
                total.instructions += c.instructions;
                found = true;
                break;
            }
            if (c.ranges >= best.ranges || best.message.empty())
                best = c;
        }
        if (!found) {
            total.ok = false;
            total.ranges += best.ranges;
            total.instructions += best.instructions;
            total.message = best.message.empty()
                                ? difference(d.range, total.ranges, executed, {executed.size(), 0})
                                : best.message;
            return total;
        }
    }
    return total;
}

} // namespace pmtrace::platform
