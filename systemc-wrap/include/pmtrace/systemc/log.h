// log.h - SC_REPORT logging of register accesses with register and field names.
#ifndef PMTRACE_SYSTEMC_LOG_H
#define PMTRACE_SYSTEMC_LOG_H

#include <pmtrace/pmt_regs.h>

#include <string>

namespace pmtrace
{

// "PMCR_EL0 <= 0x41 {E=1, LC=1}" for a write, "PMCR_EL0 => 0x..." for a read.
std::string format_access(pmt_reg_ref reg, uint64_t value, bool write);

// Reports an access as SC_INFO with verbosity `verbosity` (SC_HIGH unless given) under message
// type `msg_type` (conventionally the module's name).
void log_access(const char *msg_type, pmt_reg_ref reg, uint64_t value, bool write,
                int verbosity = 300 /* sc_core::SC_HIGH */);

// Reports a line as SC_INFO with verbosity `verbosity` under message type `msg_type`.
void log_line(const char *msg_type, const std::string &line, int verbosity);

} // namespace pmtrace

#endif
