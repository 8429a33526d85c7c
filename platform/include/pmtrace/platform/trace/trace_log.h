// trace_log.h - where the trace tools (encoder, snapshot writer, decoder) say what went wrong.
//
// These files do not use SystemC, so they cannot report with SC_REPORT_WARNING: each takes a
// trace_log, a function that receives one line for a person (bad input, a decode problem).
// Left empty, the line goes to standard error, so nothing is lost silently.
#ifndef PMTRACE_PLATFORM_TRACE_LOG_H
#define PMTRACE_PLATFORM_TRACE_LOG_H

#include <functional>
#include <string>

namespace pmtrace::platform
{

using trace_log = std::function<void(const std::string &line)>;

// Gives `line` to `log`, or writes "pmtrace: <line>" to standard error when `log` is empty.
void log_line(const trace_log &log, const std::string &line);

} // namespace pmtrace::platform

#endif
