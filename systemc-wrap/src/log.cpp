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

int module_log::verbosity() const
{
    return verbosity_ == global ? sc_core::sc_report_handler::get_verbosity_level() : verbosity_;
}

void module_log::info(const std::string &line, int verbosity) const
{
    if (!enabled(verbosity))
        return;
    // Enabled here: reported at SC_NONE, so SystemC's global level does not filter it again.
    sc_core::sc_report_handler::report(sc_core::SC_INFO, name_.c_str(), line.c_str(),
                                       sc_core::SC_NONE, __FILE__, __LINE__);
}

void module_log::access(pmt_reg_ref reg, uint64_t value, bool write, int verbosity) const
{
    if (enabled(verbosity))
        info(format_access(reg, value, write), verbosity);
}

void module_log::warning(const std::string &kind, const std::string &line)
{
    auto [it, first] = warnings_.try_emplace(kind);
    if (first) {
        sc_core::sc_report_handler::report(sc_core::SC_WARNING, name_.c_str(), line.c_str(),
                                           __FILE__, __LINE__);
        return;
    }
    it->second.count++;
    it->second.last = line;
}

uint64_t module_log::repeats(const std::string &kind) const
{
    auto it = warnings_.find(kind);
    return it == warnings_.end() ? 0 : it->second.count;
}

void module_log::report_repeats()
{
    for (auto &[kind, r] : warnings_) {
        if (r.count == 0)
            continue;
        const std::string line = kind + ": " + std::to_string(r.count) +
                                 " more since the first (the last: " + r.last + ")";
        sc_core::sc_report_handler::report(sc_core::SC_WARNING, name_.c_str(), line.c_str(),
                                           __FILE__, __LINE__);
        r.count = 0;
    }
}

} // namespace pmtrace
