// ete_reporter.h - the AArch64 CPU's program-flow reports (a64_trace_listener.h) to a trace
// unit's inputs (ete_if.h: a pe_model's `ete` export): ranges with their P0 element, exceptions
// with the ETE exception type they have, the context identifiers, and a flush at the end of
// execution. Attach it to the CPU with a64_cpu::add_trace_listener.
#ifndef PMTRACE_PLATFORM_ETE_REPORTER_H
#define PMTRACE_PLATFORM_ETE_REPORTER_H

#include <pmtrace/platform/cpu/a64_trace_listener.h>
#include <pmtrace/platform/trace/trace_types.h>
#include <pmtrace/systemc/ete_if.h>

#include <cstdint>
#include <functional>

namespace pmtrace::platform
{

// The ETE exception type of an exception the CPU took (docs/trace.md, "Exception types").
pmt_ete_exception ete_exception_type(const a64_trace_exception_taken &e);

// The trace unit's registers a decoder needs (TRCIDR0/1/2/8, TRCCONFIGR, TRCTRACEIDR,
// TRCDEVARCH), as the PE model's trace unit holds them now.
ete_registers ete_registers_of(pmt_pe *pe);

class ete_reporter : public a64_trace_listener
{
  public:
    // `unit` gets the reports at sc_time_stamp() + offset(), the CPU's local time offset.
    ete_reporter(pmtrace::ete_report_if &unit, std::function<sc_core::sc_time()> offset);

    void on_context(const a64_trace_context &context, uint64_t next) override;
    void on_range(const a64_trace_range &range) override;
    void on_ranges(const a64_trace_range *ranges, size_t n, const a64_trace_times &times) override;
    void on_exception(const a64_trace_exception_taken &exception) override;
    void on_end(const a64_trace_end &end) override;
    bool wants_reports() override { return unit_.wants_reports(); }

    // Reports the trace unit refused (none expected: a CPU report the unit cannot mean).
    uint64_t refused() const { return refused_; }

  private:
    void check(pmt_status status);
    pmtrace::ete_report_if &unit_;
    std::function<sc_core::sc_time()> offset_;
    bool ids_valid_ = false;
    uint32_t contextidr_el1_ = 0, contextidr_el2_ = 0;
    uint64_t refused_ = 0;
};

} // namespace pmtrace::platform

#endif
