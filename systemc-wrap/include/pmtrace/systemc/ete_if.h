// ete_if.h - the interfaces around the trace unit of a pe_model (FEAT_ETE, pmt_ete.h): what a CPU
// model reports of the code it executes (ete_report_if), and where the trace unit's timestamps
// come from (ete_timestamp_if, the Generic Timer). docs/systemc.md shows the wiring.
#ifndef PMTRACE_SYSTEMC_ETE_IF_H
#define PMTRACE_SYSTEMC_ETE_IF_H

#include <pmtrace/pmt_ete.h>

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace pmtrace
{

// The core's pmt_ete_report_* and pmt_ete_flush, at sc_time_stamp() + offset (a temporally
// decoupled CPU passes its local time offset). The reports come in program order, each while
// the PE state the model holds is that of its instructions (pmt_ete.h says how exceptions and
// exception returns are ordered with the state changes).
class ete_report_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_status report_range(const pmt_ete_range &range, const sc_core::sc_time &offset) = 0;
    // The same reports, in order, while they need no time (pmt_ete_report_ranges_held: the trace
    // unit holds each one's atom, or its bytes in the trace unit buffer, or is disabled), which a
    // CPU tries first to spare itself its local time. Returns how many were made (0..n); make
    // the next one with report_range, at its time.
    virtual size_t report_ranges_held(const pmt_ete_range *ranges, size_t n) = 0;
    // Whether reports can change what the trace unit outputs (pmt_ete_wants_reports): false while
    // it is disabled and holds nothing. A CPU may then make none, and ask again after each System
    // register write it makes to this model.
    virtual bool wants_reports() = 0;
    virtual pmt_status report_exception(const pmt_ete_exception_taken &exception,
                                        const sc_core::sc_time &offset) = 0;
    virtual pmt_status report_context_ids(uint32_t contextidr_el1, uint32_t contextidr_el2,
                                          const sc_core::sc_time &offset) = 0;
    // The trace unit outputs what it holds (the end of execution, or before a tool reads the
    // buffer).
    virtual pmt_status flush_trace(const sc_core::sc_time &offset) = 0;
};

// The count the trace unit's Timestamp elements carry at absolute simulated time `at`.
class ete_timestamp_if : public virtual sc_core::sc_interface
{
  public:
    virtual uint64_t timestamp(pmt_ete_timebase timebase, const sc_core::sc_time &at) = 0;
};

} // namespace pmtrace

#endif
