// trace_log.cpp - one line to the caller's log, or to standard error.
#include "pmtrace/platform/trace/trace_log.h"

#include <iostream>

namespace pmtrace::platform
{

void log_line(const trace_log &log, const std::string &line)
{
    if (log)
        log(line);
    else
        std::cerr << "pmtrace: " << line << '\n';
}

} // namespace pmtrace::platform
