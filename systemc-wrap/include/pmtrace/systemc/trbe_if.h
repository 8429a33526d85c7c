// trbe_if.h - the interfaces around the Trace Buffer Unit of a pe_model (FEAT_TRBE): what a
// trace unit calls (trace_sink_if) and gets called with (trace_flush_if), what an MMU model
// answers (trbe_translation_if), and what the CPU and the memory system tell the unit
// (trbe_cpu_if). The platform's components implement the first three (the trace source, the
// translator); docs/systemc.md shows the wiring.
#ifndef PMTRACE_SYSTEMC_TRBE_IF_H
#define PMTRACE_SYSTEMC_TRBE_IF_H

#include <pmtrace/pmt_trbe.h>

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace pmtrace
{

// The TRBE's address translation: what the core's translate callback (pmt_trbe.h) asks and
// answers, one to one. translate(va, regime) gets the address the Trace Buffer Unit writes (a
// VA, or an IPA or PA when regime.nvm or regime.external says so) and its owning translation
// regime, and returns the physical address and its physical address space, or a fault {kind,
// stage, level, and the Permission fault details}. The answer holds for the whole 4 KiB page
// containing va. It must not call the pe_model.
class trbe_translation_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_trbe_translation translate(uint64_t va, const pmt_trbe_regime &regime) = 0;
};

// What a trace unit calls: the Trace Buffer Unit side (pmt_trbe_trace, pmt_trbe_detected_trigger,
// pmt_trbe_flush_complete). The calls happen at sc_time_stamp() + offset (a temporally decoupled
// caller passes its local time offset).
class trace_sink_if : public virtual sc_core::sc_interface
{
  public:
    virtual void trace_bytes(const uint8_t *data, size_t n,
                             const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    virtual void detected_trigger(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // The flush this sink requested is complete: every byte generated before the request has
    // been delivered.
    virtual void flush_complete(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// What the Trace Buffer Unit calls: the trace unit side (the core's flush_request callback).
class trace_flush_if : public virtual sc_core::sc_interface
{
  public:
    // Deliver the trace generated so far, then call flush_complete(). Should not complete within
    // the call (a pe_model defers trace delivered from inside it to the end of its own call).
    virtual void flush_request() = 0;
};

// What the PE and the memory system tell the Trace Buffer Unit, at sc_time_stamp() + offset.
class trbe_cpu_if : public virtual sc_core::sc_interface
{
  public:
    // TSB CSYNC (D6.6.1): every byte the unit accepted is written to memory. The trace unit
    // delivers its own pending trace before. While a flush the unit requested is pending
    // (trbe_status().flush_pending) the TSB CSYNC is not complete (RJQDJD).
    virtual pmt_status tsb_csync(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // An External abort reported to the unit asynchronously (D6.5.5.4, only with
    // PMT_TRBE_EA_REPORT_ASYNC): stage 1 or 2 of the write it belongs to.
    virtual pmt_status external_abort(unsigned stage,
                                      const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // An IMPLEMENTATION DEFINED trace buffer management event (RCHNSL, EC 0x1F).
    virtual pmt_status impdef_event(uint16_t mss, uint32_t mss2,
                                    const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // Enabled, running, owning regime, bytes buffered, flush pending, headroom (pmt_trbe.h).
    virtual pmt_trbe_status trbe_status() const = 0;
};

} // namespace pmtrace

#endif
