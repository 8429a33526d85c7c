// trace_sink_if.h - between a trace unit and the Trace Buffer Unit: trace bytes, a Detected
// Trigger and the flush handshake. The interfaces belong to the PE model
// (pmtrace/systemc/trbe_if.h, which a pe_model's trace_sink export and trace_flush port use);
// the platform's components name them in their own namespace.
#ifndef PMTRACE_PLATFORM_TRACE_SINK_IF_H
#define PMTRACE_PLATFORM_TRACE_SINK_IF_H

#include <pmtrace/systemc/trbe_if.h>

namespace pmtrace::platform
{

using pmtrace::trace_flush_if;
using pmtrace::trace_sink_if;

} // namespace pmtrace::platform

#endif
