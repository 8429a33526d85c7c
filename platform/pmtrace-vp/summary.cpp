// summary.cpp - the summary as text and JSON (summary.h).
#include "summary.h"

#include <cinttypes>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace pmtrace::vp_cli
{

const char *run_end_name(run_end end)
{
    switch (end) {
    case run_end::finished: return "finished";
    case run_end::system_off: return "system_off";
    case run_end::system_reset: return "system_reset";
    case run_end::exit: return "exit";
    case run_end::error: return "error";
    case run_end::time_limit: return "time_limit";
    case run_end::interrupted: return "interrupted";
    case run_end::waiting: return "waiting";
    }
    return "unknown";
}

namespace
{

std::vector<pmtrace::pe_model::counter_view> counters_of(platform::vp &vp)
{
    const auto view = vp.pe.counters();
    return std::vector<pmtrace::pe_model::counter_view>(view.begin(), view.end());
}

} // namespace

summary summarize_a64(const options &o, platform::vp &vp, double host_seconds)
{
    summary s;
    s.o = &o;
    const platform::a64_cpu_stats &cs = vp.a64->stats();
    s.instructions = cs.instructions;
    s.exceptions = cs.exceptions;
    s.irqs_taken = cs.irqs;
    s.serrors = cs.serrors;
    s.device_accesses = cs.device_accesses;
    s.trbe_intid = vp.gic.config().trbe_intid;
    s.pmu_acks = vp.gic.cpu(0).acknowledged(platform::virt::pmu_intid);
    s.trbe_acks = vp.gic.cpu(0).acknowledged(s.trbe_intid);
    pmt_ete_stats ete{};
    if (pmt_ete_get_stats(vp.pe.core(), &ete) == PMT_OK)
        s.trace_generated = ete.bytes;
    const pmtrace::trace_bus_stats &ts = vp.pe.trace_stats();
    s.trace_written = ts.transport_bytes + ts.dmi_bytes;
    s.trace_bus_errors = ts.errors;
    s.cti_trbe_stopped = vp.pe.cti_trbe_stopped.count();
    s.cti_trbe_management = vp.pe.cti_trbe_management.count();
    s.cti_trbe_wrap = vp.pe.cti_trbe_wrap.count();
    s.simulated_seconds = sc_core::sc_time_stamp().to_seconds();
    s.host_seconds = host_seconds;
    s.counters = counters_of(vp);
    s.software_status = vp.a64->exit_status();
    return s;
}

summary summarize(const options &o, platform::vp &vp, const run_result &, double host_seconds)
{
    summary s;
    s.o = &o;
    const platform::cpu_stats &cs = vp.cpu0.stats();
    s.irqs_taken = cs.irqs_taken;
    s.trbe_intid = vp.gic.config().trbe_intid;
    s.pmu_acks = vp.gic.cpu(0).acknowledged(platform::virt::pmu_intid);
    s.trbe_acks = vp.gic.cpu(0).acknowledged(s.trbe_intid);
    s.serrors = cs.serrors;
    s.instructions = cs.instructions;
    s.cycles = cs.cycles;
    s.trace_generated = cs.trace_bytes;
    s.trace_prohibited = cs.trace_dropped;
    const pmtrace::trace_bus_stats &ts = vp.pe.trace_stats();
    s.trace_written = ts.transport_bytes + ts.dmi_bytes;
    s.trace_bus_errors = ts.errors;
    s.cti_trbe_stopped = vp.pe.cti_trbe_stopped.count();
    s.cti_trbe_management = vp.pe.cti_trbe_management.count();
    s.cti_trbe_wrap = vp.pe.cti_trbe_wrap.count();
    s.simulated_seconds = sc_core::sc_time_stamp().to_seconds();
    s.host_seconds = host_seconds;
    s.counters = counters_of(vp);
    return s;
}

namespace
{

std::string grouped(uint64_t v)
{
    char buf[40];
    sw_app_grouped(v, buf, sizeof buf);
    return buf;
}

void line(std::string &out, uint64_t v, const char *what, const std::string &note)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "%20s      %-24s %s\n", grouped(v).c_str(), what, note.c_str());
    out += buf;
}

// others: ", N INTID k ..." for the other INTIDs acknowledged (the AArch64 CPU's runs).
std::string interrupts_note(uint64_t pmu_acks, uint64_t trbe_acks, unsigned trbe_intid,
                            const std::string &others = "")
{
    return "(GIC -> CPU IRQ: " + std::to_string(pmu_acks) + " INTID 23 PMUIRQ, " +
           std::to_string(trbe_acks) + " INTID " + std::to_string(trbe_intid) + " TRBIRQ" + others +
           ")";
}

// The INTIDs other than PMUIRQ's and TRBIRQ's that the CPU interface returned, with how many
// times: ", 3 INTID 33 UART, 1 INTID 30 CNTP".
std::string other_interrupts(const platform::gic_cpu_interface &icc, unsigned trbe_intid)
{
    std::string out;
    for (unsigned intid = 0; intid < platform::gic_no_interrupt; intid++) {
        const uint64_t n = icc.acknowledged(intid);
        if (!n || intid == platform::virt::pmu_intid || intid == trbe_intid)
            continue;
        out += ", " + std::to_string(n) + " INTID " + std::to_string(intid);
        if (intid == platform::virt::uart_intid)
            out += " UART";
        else if (intid == platform::virt::timer_el1_physical_intid)
            out += " CNTP";
        else if (intid == platform::virt::timer_virtual_intid)
            out += " CNTV";
        else if (intid == platform::virt::timer_el2_physical_intid)
            out += " CNTHP";
    }
    return out;
}

std::string times(double simulated, double host, uint64_t instructions)
{
    char buf[160];
    const double mips = host > 0 ? instructions / host / 1e6 : 0;
    std::snprintf(buf, sizeof buf, "\n%20.6f seconds simulated, %.3f seconds host (%.0f MIPS)\n\n",
                  simulated, host, mips);
    return buf;
}

std::string json_string(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out + "\"";
}

// The register a counter is read from: PMEVCNTR<n>_EL0, PMCCNTR_EL0, PMICNTR_EL0.
std::string counter_register(unsigned n)
{
    return n == PMT_CYCLE_COUNTER_ID         ? "PMCCNTR_EL0"
           : n == PMT_INSTRUCTION_COUNTER_ID ? "PMICNTR_EL0"
                                             : "PMEVCNTR" + std::to_string(n) + "_EL0";
}

} // namespace

std::string format_text(const summary &s, const run_result &r)
{
    // The apps' summaries, one blank line apart.
    std::string out;
    for (char c : r.text)
        if (c != '\n' || out.size() < 2 || out.compare(out.size() - 2, 2, "\n\n") != 0)
            out += c;
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    out += "\n";
    if (!r.decode_text.empty())
        out += r.decode_text;
    out += "\n";
    line(out, s.irqs_taken, "interrupts taken",
         interrupts_note(s.pmu_acks, s.trbe_acks, s.trbe_intid));
    if (s.trace_generated || s.trace_prohibited || r.traced || r.fault.faults) {
        line(out, s.trace_generated, "trace bytes generated", "(trace unit -> Trace Buffer Unit)");
        line(out, s.trace_written, "trace bytes written", "(Trace Buffer Unit -> RAM)");
    }
    if (s.trace_bus_errors)
        line(out, s.trace_bus_errors, "trace write errors", "(TLM error responses)");
    if (s.serrors)
        line(out, s.serrors, "SErrors", "(External aborts on trace writes)");
    if (s.cti_trbe_stopped + s.cti_trbe_management + s.cti_trbe_wrap)
        line(out, s.cti_trbe_management, "CTI trigger 9 events",
             "(management; 8 stopped: " + std::to_string(s.cti_trbe_stopped) +
                 ", 10 wrap: " + std::to_string(s.cti_trbe_wrap) + ")");
    out += times(s.simulated_seconds, s.host_seconds, s.instructions);
    return out;
}

namespace
{

// --kernel: the counters the software left enabled (the scenario image printed its own).
std::string kernel_counters(const options &o, platform::vp &vp)
{
    std::string out = "\n Performance counter stats for '" + o.kernel +
                      "' (the PMU's counters as the software left them):\n\n";
    bool any = false;
    const auto counters = vp.pe.counters();
    for (unsigned n = 0; n < counters.size(); n++) {
        const pmtrace::pe_model::counter_view &c = counters[n];
        if (!c.enabled)
            continue;
        any = true;
        const char *name = sw_event_name(c.event);
        char event[32];
        std::snprintf(event, sizeof event, "0x%04x", c.event);
        line(out, c.value, name ? name : event, "(" + counter_register(n) + ")");
    }
    if (!any)
        out += "  (no counter enabled in PMCNTENSET_EL0)\n";
    return out;
}

} // namespace

std::string format_kernel_text(const options &o, platform::vp &vp, double host_seconds)
{
    std::string out = o.kernel.empty() ? "" : kernel_counters(o, vp);
    out += "\n";
    const platform::a64_cpu_stats &cs = vp.a64->stats();
    line(out, cs.instructions, "instructions retired", "(the CPU)");
    line(out, cs.exceptions, "exceptions taken",
         "(" + std::to_string(cs.irqs) + " IRQ, " + std::to_string(cs.serrors) + " SError)");
    const unsigned trbe_intid = vp.gic.config().trbe_intid;
    line(out, cs.irqs, "interrupts taken",
         interrupts_note(vp.gic.cpu(0).acknowledged(platform::virt::pmu_intid),
                         vp.gic.cpu(0).acknowledged(trbe_intid), trbe_intid,
                         other_interrupts(vp.gic.cpu(0), trbe_intid)));
    line(out, cs.device_accesses, "device accesses", "(loads and stores outside RAM)");
    const pmtrace::trace_bus_stats &ts = vp.pe.trace_stats();
    pmt_ete_stats ete{};
    if (pmt_ete_get_stats(vp.pe.core(), &ete) == PMT_OK && ete.bytes) {
        line(out, ete.bytes, "trace bytes generated", "(ETE trace unit -> Trace Buffer Unit)");
        line(out, ts.transport_bytes + ts.dmi_bytes, "trace bytes written",
             "(Trace Buffer Unit -> RAM)");
    }
    if (ts.errors)
        line(out, ts.errors, "trace write errors", "(TLM error responses)");
    out += times(sc_core::sc_time_stamp().to_seconds(), host_seconds, cs.instructions);
    return out;
}

// Register values and addresses as hex strings ("0x40100000": JSON numbers lose bits above
// 2^53 in most readers), event numbers as perf writes raw events ("0x0008").
std::string json_hex(uint64_t v, int digits = 0)
{
    std::ostringstream h;
    h << "\"0x" << std::hex << std::setfill('0') << std::setw(digits) << v << "\"";
    return h.str();
}

const char *json_mode_name(unsigned fm)
{
    switch (fm) {
    case PMT_TRBLIMITR_FM_FILL: return "fill";
    case PMT_TRBLIMITR_FM_WRAP: return "wrap";
    case PMT_TRBLIMITR_FM_CIRCULAR: return "circular";
    default: return "reserved";
    }
}

std::string format_json(const summary &s, const run_result *r)
{
    const options &o = *s.o;
    const bool kernel = !o.kernel.empty();
    std::ostringstream js;
    js.precision(12);
    js << "{\n  \"schema_version\": " << json_schema_version
       << ",\n  \"run\": " << json_string(kernel ? "kernel" : "scenario")
       << ",\n  \"cpu\": " << json_string(o.cpu == cpu_kind::a64 || kernel ? "a64" : "host");
    if (kernel)
        js << ",\n  \"kernel\": " << json_string(o.kernel);
    else
        js << ",\n  \"scenario\": " << json_string(o.scenario_name)
           << ",\n  \"iterations\": " << o.iterations;
    js << ",\n  \"end\": " << json_string(run_end_name(s.end))
       << ",\n  \"exit_status\": " << s.exit_status;
    if (s.end == run_end::exit)
        js << ",\n  \"software_exit_status\": " << s.software_status;
    if (r)
        js << ",\n  \"status\": " << json_string(sw_strerror(r->status));
    js << ",\n  \"counters\": " << o.counters
       << ",\n  \"pmu_version\": " << json_string(o.pmu_version_name)
       << ",\n  \"clock_ps\": " << static_cast<uint64_t>(o.clock.to_seconds() * 1e12 + 0.5)
       << ",\n  \"quantum_ns\": " << o.quantum.to_seconds() * 1e9
       << ",\n  \"simulated_seconds\": " << s.simulated_seconds
       << ",\n  \"host_seconds\": " << s.host_seconds << ",\n  \"irqs_taken\": " << s.irqs_taken
       << ",\n  \"pmuirq_acknowledged\": " << s.pmu_acks
       << ",\n  \"trbirq_acknowledged\": " << s.trbe_acks
       << ",\n  \"instructions\": " << s.instructions;
    if (o.cpu == cpu_kind::host && !kernel)
        js << ",\n  \"cycles\": " << s.cycles
           << ",\n  \"trace_bytes_prohibited\": " << s.trace_prohibited;
    else
        js << ",\n  \"exceptions_taken\": " << s.exceptions
           << ",\n  \"device_accesses\": " << s.device_accesses;
    js << ",\n  \"trace_bytes_generated\": " << s.trace_generated
       << ",\n  \"trace_bytes_written\": " << s.trace_written
       << ",\n  \"trace_write_errors\": " << s.trace_bus_errors
       << ",\n  \"serrors\": " << s.serrors;
    // The PMU's counters as the software left them, every one implemented.
    js << ",\n  \"pmu_counters\": [";
    bool first = true;
    for (unsigned n = 0; n < s.counters.size(); n++) {
        const pmtrace::pe_model::counter_view &c = s.counters[n];
        if (!c.implemented)
            continue;
        const char *name = sw_event_name(c.event);
        js << (first ? "" : ",") << "\n    {\"register\": " << json_string(counter_register(n))
           << ", \"event\": " << json_hex(c.event, 4)
           << ", \"name\": " << json_string(name ? name : "")
           << ", \"enabled\": " << (c.enabled ? "true" : "false")
           << ", \"value\": " << json_hex(c.value) << "}";
        first = false;
    }
    js << "\n  ]";
    if (r && o.scenario == scenario::stat) {
        js << ",\n  \"pmu_irqs\": " << r->stat.pmu_irqs << ",\n  \"events\": [";
        for (unsigned i = 0; i < r->stat.num; i++) {
            const sw_stat_counter &c = r->stat.counters[i];
            const char *name = sw_event_name(c.event);
            js << (i ? "," : "") << "\n    {\"event\": " << json_hex(c.event, 4)
               << ", \"name\": " << json_string(name ? name : "")
               << ", \"counted\": " << (c.counted ? "true" : "false")
               << ", \"supported\": " << (c.supported ? "true" : "false")
               << ", \"count\": " << c.count << "}";
        }
        js << "\n  ]";
    } else if (r && o.scenario == scenario::record) {
        const char *name = sw_event_name(o.record_event);
        js << ",\n  \"event\": " << json_hex(o.record_event, 4)
           << ",\n  \"event_name\": " << json_string(name ? name : "")
           << ",\n  \"period\": " << o.period << ",\n  \"samples\": " << r->record.samples
           << ",\n  \"count\": " << r->record.count << ",\n  \"pmu_irqs\": " << r->record.pmu_irqs;
    }
    if (r && r->traced) {
        const sw_trace_result &t = r->trace;
        js << ",\n  \"trace\": {\"mode\": "
           << json_string(json_mode_name(r->trace_config.fill_mode)) << ", \"bytes\": " << t.bytes
           << ", \"parts\": " << t.parts << ", \"irqs\": " << t.irqs << ", \"wraps\": " << t.wraps
           << ", \"spurious\": " << t.spurious
           << ", \"triggered\": " << (t.triggered ? "true" : "false")
           << ", \"stopped\": " << (t.stopped ? "true" : "false")
           << ", \"trbsr\": " << json_hex(t.trbsr) << ", \"trbptr\": " << json_hex(t.trbptr) << "}";
    }
    if (r && o.scenario == scenario::fault) {
        const sw_fault_result &f = r->fault;
        js << ",\n  \"fault\": {\"faults\": " << f.faults << ", \"recoveries\": " << f.recoveries
           << ", \"bytes\": " << f.bytes << ", \"reports\": [";
        for (unsigned i = 0; i < f.num_reports; i++)
            js << (i ? ", " : "") << "{\"ec\": " << json_hex(f.reports[i].ec, 2)
               << ", \"fsc\": " << json_hex(f.reports[i].fsc, 2)
               << ", \"ea\": " << (f.reports[i].ea ? "true" : "false")
               << ", \"trbptr\": " << json_hex(f.reports[i].trbptr) << "}";
        js << "]}";
    }
    js << "\n}\n";
    return js.str();
}

} // namespace pmtrace::vp_cli
