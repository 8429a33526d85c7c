// log.cpp - register-access log lines, built from the core's field tables.
#include "pmtrace/systemc/log.h"

#include <systemc>

namespace pmtrace
{

std::string format_access(pmt_reg_ref reg, uint64_t value, bool write)
{
    char buf[512];
    pmt_reg_format(reg, value, buf, sizeof buf);
    std::string line(buf);
    // pmt_reg_format writes "NAME = 0x..."; turn " = " into the direction of the access.
    auto pos = line.find(" = ");
    if (pos != std::string::npos)
        line.replace(pos, 3, write ? " <= " : " => ");
    return line;
}

static_assert(sc_core::SC_HIGH == 300, "log.h's default verbosity is SC_HIGH");

void log_access(const char *msg_type, pmt_reg_ref reg, uint64_t value, bool write, int verbosity)
{
    if (sc_core::sc_report_handler::get_verbosity_level() < verbosity)
        return;
    SC_REPORT_INFO_VERB(msg_type, format_access(reg, value, write).c_str(), verbosity);
}

void log_line(const char *msg_type, const std::string &line, int verbosity)
{
    if (sc_core::sc_report_handler::get_verbosity_level() < verbosity)
        return;
    SC_REPORT_INFO_VERB(msg_type, line.c_str(), verbosity);
}

} // namespace pmtrace
