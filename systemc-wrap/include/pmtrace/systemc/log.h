// log.h - SC_REPORT logging of register accesses with register and field names.
#ifndef PMTRACE_SYSTEMC_LOG_H
#define PMTRACE_SYSTEMC_LOG_H

#include <pmtrace/pmt_regs.h>

#include <cstdint>
#include <map>
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

// A component's own log: its verbosity, as VCML's loglvl and SCC's log_level, so one instance
// (a pe_model, a router) can log its register accesses while the others stay quiet; and its
// warnings, each kind reported once with the number of its repeats (a bus error on every trace
// write into a hole is one line and a count, not thousands). Reports are SystemC's, under the
// component's name as message type, so a platform's report handler sees them as any other.
class module_log
{
  public:
    // Follow SystemC's global verbosity (sc_report_handler::get_verbosity_level()).
    static constexpr int global = -1;

    explicit module_log(std::string name = std::string()) : name_(std::move(name)) {}
    ~module_log() { report_repeats(); }
    module_log(const module_log &) = delete;
    module_log &operator=(const module_log &) = delete;

    void set_name(std::string name) { name_ = std::move(name); }
    const std::string &name() const { return name_; }
    // sc_core::SC_NONE (0) ... SC_DEBUG (500), or `global`.
    void set_verbosity(int verbosity) { verbosity_ = verbosity < 0 ? global : verbosity; }
    // The verbosity in effect: this component's, or SystemC's global one.
    int verbosity() const;
    bool enabled(int verbosity) const { return verbosity <= this->verbosity(); }

    // An SC_INFO line, shown when `verbosity` is enabled here (whatever the global level).
    void info(const std::string &line, int verbosity) const;
    // A register access, as log_access formats it, at `verbosity`.
    void access(pmt_reg_ref reg, uint64_t value, bool write, int verbosity) const;
    // An SC_WARNING of `kind`: the first of each kind is reported; the repeats are counted and
    // reported once by report_repeats(), with their number and the last one's text.
    void warning(const std::string &kind, const std::string &line);
    uint64_t repeats(const std::string &kind) const;
    // Reports the repeats counted since the last call (the components call it at the end of
    // simulation; the destructor, for those not reported yet).
    void report_repeats();

  private:
    struct repeated {
        uint64_t count = 0;
        std::string last;
    };
    std::string name_;
    int verbosity_ = global;
    std::map<std::string, repeated> warnings_; // by kind: the repeats after the first
};

} // namespace pmtrace

#endif
