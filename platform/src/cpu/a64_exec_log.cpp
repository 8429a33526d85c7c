// a64_exec_log.cpp - the execution log (a64_exec_log.h) and its text form.
#include <pmtrace/platform/cpu/a64_exec_log.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>

namespace pmtrace::platform
{

void a64_exec_log::on_context(const a64_trace_context &context, uint64_t next)
{
    records_.push_back({kind::context, contexts_.size()});
    contexts_.push_back({context, next});
}

void a64_exec_log::on_range(const a64_trace_range &r)
{
    if (!records_.empty() && records_.back().what == kind::range) {
        a64_trace_range &l = ranges_.back();
        if (l.start == r.start && l.last == r.last && l.kind == r.kind && l.taken == r.taken &&
            l.next == r.next) {
            l.count += r.count;
            return;
        }
    }
    records_.push_back({kind::range, ranges_.size()});
    ranges_.push_back(r);
}

void a64_exec_log::on_exception(const a64_trace_exception_taken &e)
{
    records_.push_back({kind::exception, exceptions_.size()});
    exceptions_.push_back(e);
}

void a64_exec_log::on_end(const a64_trace_end &e)
{
    records_.push_back({kind::end, ends_.size()});
    ends_.push_back(e);
}

void a64_exec_log::clear()
{
    records_.clear();
    ranges_.clear();
    exceptions_.clear();
    contexts_.clear();
    ends_.clear();
}

const char *a64_exec_log::name(a64_p0_kind k)
{
    switch (k) {
    case a64_p0_kind::none: return "none";
    case a64_p0_kind::direct: return "direct";
    case a64_p0_kind::direct_link: return "direct_link";
    case a64_p0_kind::indirect: return "indirect";
    case a64_p0_kind::indirect_link: return "indirect_link";
    case a64_p0_kind::ret: return "ret";
    case a64_p0_kind::eret: return "eret";
    case a64_p0_kind::isb: return "isb";
    case a64_p0_kind::wfx: return "wfx";
    }
    return "?";
}

const char *a64_exec_log::name(a64_trace_exception e)
{
    switch (e) {
    case a64_trace_exception::svc: return "svc";
    case a64_trace_exception::hvc: return "hvc";
    case a64_trace_exception::smc: return "smc";
    case a64_trace_exception::brk: return "brk";
    case a64_trace_exception::undefined: return "undefined";
    case a64_trace_exception::trap: return "trap";
    case a64_trace_exception::instruction_abort: return "instruction_abort";
    case a64_trace_exception::data_abort: return "data_abort";
    case a64_trace_exception::irq: return "irq";
    case a64_trace_exception::fiq: return "fiq";
    case a64_trace_exception::serror: return "serror";
    case a64_trace_exception::profiling: return "profiling";
    case a64_trace_exception::other: return "other";
    }
    return "?";
}

const char *a64_exec_log::name(a64_cpu_end e)
{
    switch (e) {
    case a64_cpu_end::running: return "running";
    case a64_cpu_end::system_off: return "system_off";
    case a64_cpu_end::system_reset: return "system_reset";
    case a64_cpu_end::exit: return "exit";
    case a64_cpu_end::error: return "error";
    }
    return "?";
}

bool a64_exec_log::write(std::ostream &out) const
{
    char line[256];
    out << "# pmtrace a64 execution log 1\n";
    for (const record &r : records_) {
        switch (r.what) {
        case kind::context: {
            const context_record &c = contexts_[r.index];
            std::snprintf(line, sizeof line,
                          "context 0x%" PRIx64 " el=%u ns=%u contextidr_el1=0x%" PRIx64
                          " contextidr_el2=0x%" PRIx64 " vmid=%u\n",
                          c.next, c.context.el, c.context.nonsecure ? 1u : 0u,
                          c.context.contextidr_el1, c.context.contextidr_el2,
                          unsigned{c.context.vmid});
            break;
        }
        case kind::range: {
            const a64_trace_range &g = ranges_[r.index];
            std::snprintf(line, sizeof line,
                          "range 0x%" PRIx64 " 0x%" PRIx64 " %s %s 0x%" PRIx64 " %" PRIu64 "\n",
                          g.start, g.last, name(g.kind), g.taken ? "E" : "N", g.next, g.count);
            break;
        }
        case kind::exception: {
            const a64_trace_exception_taken &e = exceptions_[r.index];
            std::snprintf(line, sizeof line,
                          "exception %s ec=0x%02x 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
                          " el=%u->%u\n",
                          name(e.type), e.ec, e.range_start, e.preferred_return, e.vector,
                          e.from.el, e.to.el);
            break;
        }
        case kind::end: {
            const a64_trace_end &e = ends_[r.index];
            std::snprintf(line, sizeof line, "end %s 0x%" PRIx64 " 0x%" PRIx64 "\n", name(e.reason),
                          e.start, e.end);
            break;
        }
        }
        out << line;
    }
    out.flush();
    return static_cast<bool>(out);
}

bool a64_exec_log::write(const std::string &path) const
{
    std::ofstream f(path);
    return f && write(f);
}

} // namespace pmtrace::platform
