// a64_exec_log.h - the execution log: a trace listener (a64_trace_listener.h) that keeps what the
// AArch64 CPU executed, in order, in memory, and writes it as text (docs/platform.md,
// "Execution log"). What a trace decode gives back (OpenCSD's instruction ranges) is compared
// with it range by range.
//
// Memory grows with the ranges executed: one record per P0 element (a loop of one range that
// repeats is one record with its count), so a long run with many branches makes a large log.
#ifndef PMTRACE_PLATFORM_A64_EXEC_LOG_H
#define PMTRACE_PLATFORM_A64_EXEC_LOG_H

#include <pmtrace/platform/cpu/a64_trace_listener.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace pmtrace::platform
{

class a64_exec_log final : public a64_trace_listener
{
  public:
    enum class kind : uint8_t { context, range, exception, end };
    // One report; `index` is its place in the list of its kind.
    struct record {
        kind what;
        size_t index;
    };
    struct context_record {
        a64_trace_context context;
        uint64_t next;
    };

    void on_context(const a64_trace_context &context, uint64_t next) override;
    void on_range(const a64_trace_range &range) override;
    void on_exception(const a64_trace_exception_taken &exception) override;
    void on_end(const a64_trace_end &end) override;

    const std::vector<record> &records() const { return records_; }
    // Consecutive identical ranges are one, with the sum of their counts.
    const std::vector<a64_trace_range> &ranges() const { return ranges_; }
    const std::vector<a64_trace_exception_taken> &exceptions() const { return exceptions_; }
    const std::vector<context_record> &contexts() const { return contexts_; }
    const std::vector<a64_trace_end> &ends() const { return ends_; }
    void clear();

    // The text form, one line a record (docs/platform.md). False when the stream failed.
    bool write(std::ostream &out) const;
    bool write(const std::string &path) const;

    static const char *name(a64_p0_kind k);
    static const char *name(a64_trace_exception e);
    static const char *name(a64_cpu_end e);

  private:
    std::vector<record> records_;
    std::vector<a64_trace_range> ranges_;
    std::vector<a64_trace_exception_taken> exceptions_;
    std::vector<context_record> contexts_;
    std::vector<a64_trace_end> ends_;
};

} // namespace pmtrace::platform

#endif
