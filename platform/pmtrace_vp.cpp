// pmtrace-vp - the executable a user runs first: the reference platform (platform/vp.h) with the
// sw/ apps running on its host-driven CPU. The PMU driver programs the PE model through system
// registers, overflow interrupts arrive through the GIC (INTID 23), and the app's summary is
// printed in the shape of `perf stat`. docs/platform.md shows the command lines.
#include <pmtrace/platform/vp.h>

#include "apps/apps.h"

#include <boost/program_options.hpp>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace po = boost::program_options;
using namespace pmtrace::platform;

namespace
{

constexpr int exit_ok = 0, exit_failed = 1, exit_usage = 2;

struct options {
    std::string scenario = "stat";
    uint64_t iterations = 100000;
    uint64_t per_piece = 100;
    unsigned counters = 6;
    std::string pmu_version = "3.7";
    std::string events = "CPU_CYCLES,INST_RETIRED,BR_RETIRED,BR_MIS_PRED_RETIRED,L1D_CACHE,"
                         "L1D_CACHE_REFILL";
    std::string event = "INST_RETIRED";
    uint64_t period = 1000000;
    bool long_counters = false;
    double quantum_ns = 1000;
    double clock_ns = 1;
    std::string vcd;
    std::string stats_json;
    std::string log_level = "warning";
};

// The synthetic loop: one iteration's events.
void loop_setup(sw_loop &loop, const options &o)
{
    sw_loop_init(&loop);
    loop.iterations = o.iterations;
    loop.el = 0;
    loop.instructions = 1000;
    loop.cycles = 1300;
    const hal_event_count mix[] = {{PMT_EV_BR_RETIRED, 200},
                                   {PMT_EV_BR_MIS_PRED_RETIRED, 7},
                                   {PMT_EV_L1D_CACHE, 300},
                                   {PMT_EV_L1D_CACHE_REFILL, 12}};
    for (const hal_event_count &m : mix)
        loop.events[loop.num_events++] = m;
    loop.per_piece = o.per_piece;
}

bool parse_event(const std::string &text, uint16_t &event)
{
    for (unsigned n = 0; n < 0x10000; n++) {
        const char *name = sw_event_name(static_cast<uint16_t>(n));
        if (name && text == name) {
            event = static_cast<uint16_t>(n);
            return true;
        }
    }
    char *end = nullptr;
    unsigned long v = std::strtoul(text.c_str(), &end, 0);
    if (text.empty() || *end || v > 0xFFFF)
        return false;
    event = static_cast<uint16_t>(v);
    return true;
}

bool parse_pmu_version(const std::string &v, pmt_pmu_version &out)
{
    static const struct {
        const char *name;
        pmt_pmu_version version;
    } table[] = {{"3.0", PMT_PMUV3},   {"3.1", PMT_PMUV3P1}, {"3.4", PMT_PMUV3P4},
                 {"3.5", PMT_PMUV3P5}, {"3.7", PMT_PMUV3P7}, {"3.8", PMT_PMUV3P8},
                 {"3.9", PMT_PMUV3P9}};
    for (const auto &t : table)
        if (v == t.name) {
            out = t.version;
            return true;
        }
    return false;
}

std::string json_escape(const char *s)
{
    std::string out;
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            out += '\\';
        if (static_cast<unsigned char>(*s) >= 0x20)
            out += *s;
    }
    return out;
}

[[noreturn]] void usage_error(const std::string &what)
{
    std::cerr << "pmtrace-vp: " << what << "\nTry 'pmtrace-vp --help'.\n";
    std::exit(exit_usage);
}

} // namespace

int sc_main(int argc, char **argv)
{
    options o;
    po::options_description desc(
        "pmtrace-vp: a virtual platform (QEMU virt memory map: GICv3, RAM, PL011 UART) with one "
        "Arm PE whose PMU is the pmtrace model. A host-driven CPU runs the sw/ drivers and a "
        "synthetic workload loop (per iteration: 1000 instructions, 1300 cycles, 200 branches, "
        "7 mispredicts, 300 L1D accesses, 12 refills) and prints what the PMU counted.\n\n"
        "Examples:\n"
        "  pmtrace-vp                                  count the default events (perf stat)\n"
        "  pmtrace-vp --scenario record --period 100000  sample INST_RETIRED every 100000\n"
        "  pmtrace-vp --vcd pmu.vcd --stats-json s.json  waveforms and a JSON summary\n\n"
        "Options");
    desc.add_options()("help,h", "show this help and exit")(
        "scenario,s", po::value(&o.scenario)->default_value(o.scenario),
        "what to run: stat (count events, like perf stat) or record (sample on overflow "
        "interrupts, like perf record). trace and fault need the TRBE ports of the SystemC "
        "wrapper and are not available yet")("iterations,i",
                                             po::value(&o.iterations)->default_value(o.iterations),
                                             "loop iterations of the workload")(
        "per-piece", po::value(&o.per_piece)->default_value(o.per_piece),
        "loop iterations per piece of work the CPU runs between HAL calls")(
        "counters,n", po::value(&o.counters)->default_value(o.counters),
        "event counters the PMU implements (PMCR_EL0.N, 1..31)")(
        "pmu-version", po::value(&o.pmu_version)->default_value(o.pmu_version),
        "FEAT_PMUv3 version: 3.0, 3.1, 3.4, 3.5, 3.7, 3.8 or 3.9")(
        "events,e", po::value(&o.events)->default_value(o.events),
        "stat: comma-separated events, by name or number (0x11)")(
        "event", po::value(&o.event)->default_value(o.event), "record: the sampled event")(
        "period,p", po::value(&o.period)->default_value(o.period),
        "record: sample every PERIOD events (an overflow interrupt each)")(
        "long-counters", po::bool_switch(&o.long_counters),
        "64-bit event counters (chained pairs before FEAT_PMUv3p5)")(
        "quantum", po::value(&o.quantum_ns)->default_value(o.quantum_ns),
        "the CPU's time quantum in ns (temporal decoupling)")(
        "clock", po::value(&o.clock_ns)->default_value(o.clock_ns), "the PE's clock period in ns")(
        "vcd", po::value(&o.vcd), "write a VCD of PMUIRQ, the CPU's IRQ line and the CTI outputs")(
        "stats-json", po::value(&o.stats_json), "write the summary as JSON to this file")(
        "log-level", po::value(&o.log_level)->default_value(o.log_level),
        "SystemC reports shown: error, warning, info or debug (register accesses)");

    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        usage_error(e.what());
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return exit_ok;
    }
    if (o.scenario == "trace" || o.scenario == "fault")
        usage_error("scenario '" + o.scenario +
                    "' is not available yet: it needs the TRBE ports of the SystemC wrapper");
    if (o.scenario != "stat" && o.scenario != "record")
        usage_error("unknown scenario '" + o.scenario + "' (stat or record)");
    if (o.counters < 1 || o.counters > 31)
        usage_error("--counters must be 1..31");
    if (o.period == 0 || o.per_piece == 0)
        usage_error("--period and --per-piece must be at least 1");
    if (!(o.quantum_ns > 0) || !(o.clock_ns > 0))
        usage_error("--quantum and --clock must be positive");
    pmt_pmu_version version{};
    if (!parse_pmu_version(o.pmu_version, version))
        usage_error("unknown --pmu-version '" + o.pmu_version + "'");
    std::vector<uint16_t> stat_events;
    {
        std::stringstream ss(o.events);
        std::string item;
        while (std::getline(ss, item, ',')) {
            uint16_t ev = 0;
            if (!parse_event(item, ev))
                usage_error("unknown event '" + item + "'");
            stat_events.push_back(ev);
        }
        if (stat_events.empty() || stat_events.size() > SW_STAT_MAX_EVENTS)
            usage_error("--events: 1 to 16 events");
    }
    uint16_t record_event = 0;
    if (!parse_event(o.event, record_event))
        usage_error("unknown event '" + o.event + "'");

    // Reports.
    using namespace sc_core;
    sc_report_handler::set_actions(SC_ID_NO_SC_START_ACTIVITY_, SC_DO_NOTHING);
    if (o.log_level == "error") {
        sc_report_handler::set_actions(SC_WARNING, SC_DO_NOTHING);
        sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    } else if (o.log_level == "warning") {
        sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    } else if (o.log_level == "info") {
        sc_report_handler::set_verbosity_level(SC_MEDIUM);
    } else if (o.log_level == "debug") {
        sc_report_handler::set_verbosity_level(SC_DEBUG);
    } else {
        usage_error("unknown --log-level '" + o.log_level + "'");
    }

    vp_config cfg;
    cfg.pe.core.num_counters = o.counters;
    cfg.pe.core.pmu_version = version;
    cfg.pe.core.common_events[0] = ~uint64_t{0};
    cfg.pe.core.common_events[1] = ~uint64_t{0};
    cfg.pe.clock_period = sc_time(o.clock_ns, SC_NS);
    cfg.cpu.quantum = sc_time(o.quantum_ns, SC_NS);
    vp platform("vp", cfg);

    sc_trace_file *vcd = nullptr;
    if (!o.vcd.empty()) {
        std::string base = o.vcd;
        if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
            base.resize(base.size() - 4);
        vcd = sc_create_vcd_trace_file(base.c_str());
        platform.trace(vcd);
    }

    sw_loop loop;
    loop_setup(loop, o);
    sw_workload workload = sw_loop_workload(&loop);
    sw_stat_result stat{};
    sw_record_result record{};
    sw_record_config rcfg{};
    static char text[8192];
    int status = SW_OK;

    auto t0 = std::chrono::steady_clock::now();
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        if (o.scenario == "stat") {
            sw_stat_config scfg{};
            for (uint16_t ev : stat_events)
                scfg.events[scfg.num_events++] = ev;
            scfg.long_counters = o.long_counters;
            status = sw_stat_run(&env, &scfg, &workload, &stat);
            sw_stat_format(&stat, text, sizeof text);
        } else {
            rcfg.event = record_event;
            rcfg.period = o.period;
            rcfg.long_counter = o.long_counters;
            status = sw_record_run(&env, &rcfg, &workload, &record);
            sw_record_format(&rcfg, &record, text, sizeof text);
        }
    });
    double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (vcd)
        sc_close_vcd_trace_file(vcd);

    const cpu_stats &cs = platform.cpu0.stats();
    std::fputs(text, stdout);
    std::printf("%20" PRIu64 "      %-24s (GIC INTID 23 -> CPU IRQ)\n", cs.irqs_taken,
                "interrupts taken");
    std::printf("\n%20.6f seconds simulated, %.3f seconds host\n\n", sc_time_stamp().to_seconds(),
                host);
    if (!platform.cpu0.finished()) {
        std::fprintf(stderr, "pmtrace-vp: the CPU did not finish the scenario\n");
        status = SW_EINVAL;
    }

    if (!o.stats_json.empty()) {
        std::ofstream js(o.stats_json);
        if (!js) {
            std::fprintf(stderr, "pmtrace-vp: cannot write %s\n", o.stats_json.c_str());
            return exit_failed;
        }
        js << "{\n  \"scenario\": \"" << o.scenario << "\",\n  \"status\": \""
           << json_escape(sw_strerror(status)) << "\",\n  \"iterations\": " << o.iterations
           << ",\n  \"counters\": " << o.counters << ",\n  \"pmu_version\": \"" << o.pmu_version
           << "\",\n  \"quantum_ns\": " << o.quantum_ns
           << ",\n  \"simulated_seconds\": " << sc_time_stamp().to_seconds()
           << ",\n  \"host_seconds\": " << host << ",\n  \"irqs_taken\": " << cs.irqs_taken
           << ",\n  \"instructions\": " << cs.instructions << ",\n  \"cycles\": " << cs.cycles;
        if (o.scenario == "stat") {
            js << ",\n  \"pmu_irqs\": " << stat.pmu_irqs << ",\n  \"events\": [";
            for (unsigned i = 0; i < stat.num; i++) {
                const sw_stat_counter &c = stat.counters[i];
                js << (i ? "," : "") << "\n    {\"event\": " << c.event << ", \"name\": \""
                   << json_escape(sw_event_name(c.event))
                   << "\", \"counted\": " << (c.counted ? "true" : "false")
                   << ", \"count\": " << c.count << "}";
            }
            js << "\n  ]";
        } else {
            js << ",\n  \"event\": " << rcfg.event << ",\n  \"period\": " << rcfg.period
               << ",\n  \"samples\": " << record.samples << ",\n  \"count\": " << record.count
               << ",\n  \"pmu_irqs\": " << record.pmu_irqs;
        }
        js << "\n}\n";
    }
    if (status != SW_OK) {
        std::fprintf(stderr, "pmtrace-vp: scenario %s failed: %s\n", o.scenario.c_str(),
                     sw_strerror(status));
        return exit_failed;
    }
    return exit_ok;
}
