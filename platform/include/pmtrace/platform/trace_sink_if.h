// trace_sink_if.h - between a trace unit and the Trace Buffer Unit, as the inputs of pmt_trbe.h
// suggest: trace bytes (pmt_trbe_trace), a Detected Trigger (pmt_trbe_detected_trigger), and the
// flush handshake (the core's flush_request callback, answered by pmt_trbe_flush_complete).
#ifndef PMTRACE_PLATFORM_TRACE_SINK_IF_H
#define PMTRACE_PLATFORM_TRACE_SINK_IF_H

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace pmtrace::platform
{

// What a trace unit calls: the Trace Buffer Unit side.
class trace_sink_if : public virtual sc_core::sc_interface
{
  public:
    virtual void trace_bytes(const uint8_t *data, size_t n) = 0;
    virtual void detected_trigger() = 0;
    // The flush this sink requested is complete: every byte generated before the request has
    // been delivered.
    virtual void flush_complete() = 0;
};

// What the Trace Buffer Unit calls: the trace unit side.
class trace_flush_if : public virtual sc_core::sc_interface
{
  public:
    // Deliver the trace generated so far, then call flush_complete(). Never completes within
    // the call (the core's callbacks must not call back into it).
    virtual void flush_request() = 0;
};

} // namespace pmtrace::platform

#endif
