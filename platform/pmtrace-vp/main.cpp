// pmtrace-vp - the executable a user runs first: the reference platform (platform/vp.h) with the
// sw/ apps running on its AArch64 CPU as AArch64 code (a64_scenario.h). The PMU driver programs
// the PE model through system registers, overflow interrupts arrive through the GIC (INTID 23),
// the TRBE driver captures trace into RAM (TRBIRQ on INTID 22), and the apps print tables in the
// shape of `perf stat`, the platform its view after them. With --kernel IMAGE the AArch64 CPU
// boots the user's image instead (kernel.h); with --cpu host the host-driven CPU runs the apps
// over a synthetic workload (scenario.h), with faults injected on the trace buffer's writes and
// ETE trace to decode. docs/platform.md shows the command lines.
#include "a64_capture.h"
#include "a64_scenario.h"
#include "console.h"
#include "kernel.h"
#include "kernel_trace.h"
#include "options.h"
#include "profile.h"
#include "run_control.h"
#include "scenario.h"
#include "summary.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/bus/memory_map.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

using namespace pmtrace;
using namespace pmtrace::vp_cli;

namespace
{

// SystemC's reports go to stderr: stdout is the console and the summary, which scripts read.
void report_to_stderr(const sc_core::sc_report &report, const sc_core::sc_actions &actions)
{
    if (actions & sc_core::SC_DISPLAY)
        std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
    sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

void set_log_level(const std::string &level)
{
    using namespace sc_core;
    sc_report_handler::set_handler(report_to_stderr);
    sc_report_handler::set_actions(SC_ID_NO_SC_START_ACTIVITY_, SC_DO_NOTHING);
    if (level == "error") {
        sc_report_handler::set_actions(SC_WARNING, SC_DO_NOTHING);
        sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    } else if (level == "warning") {
        sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    } else if (level == "info") {
        sc_report_handler::set_verbosity_level(SC_MEDIUM);
    } else {
        sc_report_handler::set_verbosity_level(SC_DEBUG);
    }
}

// --vcd: the waveforms of the platform's lines (and, with --vcd-counters, the counters).
sc_core::sc_trace_file *open_vcd(const options &o, platform::vp &vp)
{
    if (o.vcd.empty())
        return nullptr;
    std::string base = o.vcd;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
        base.resize(base.size() - 4);
    sc_core::sc_trace_file *vcd = sc_core::sc_create_vcd_trace_file(base.c_str());
    vp.trace(vcd);
    if (o.vcd_counters != sc_core::SC_ZERO_TIME)
        vp.pe.trace_counters(vcd, o.vcd_counters);
    return vcd;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The AArch64 CPU's trace after the run: the scenario image's capture area, or pmtrace-vp's own
// session around a --kernel image; then the outputs (a64_capture.h). The program the decoder
// follows is the image as it is in RAM at the end.
int finish_trace(const options &o, platform::vp &vp, kernel_trace *session,
                 const platform::boot_image &loaded, std::string &out)
{
    std::vector<capture_part> parts;
    std::vector<uint8_t> buffer;
    if (session) {
        std::string error;
        if (!session->finish(buffer, error)) {
            std::cerr << "pmtrace-vp: --trace: " << error << "\n";
            return exit_failed;
        }
        out += session->text();
        parts.push_back({buffer.data(), buffer.size()});
    } else if (!o.kernel.empty()) {
        return exit_ok;
    } else if (const int rc = read_capture_area(o, vp, parts, out, std::cerr); rc != exit_ok) {
        return rc;
    }
    if (o.trace_out.empty() && o.snapshot.empty() && !o.decode)
        return exit_ok;
    const uint8_t *ram = vp.ram.data() + (loaded.load_base - platform::virt::ram_base);
    const platform::memory_image program{
        loaded.load_base, std::vector<uint8_t>(ram, ram + (loaded.load_end - loaded.load_base))};
    return write_capture(o, vp, parts, program, out, std::cerr);
}

// The platform, or null after a line on stderr when it cannot be built: the RAM --ram asks for
// cannot be allocated on this host (the memory reports it, vp.ram's SC_REPORT_ERROR).
std::unique_ptr<platform::vp> build_platform(const options &o, const platform::vp_config &c)
{
    try {
        return std::make_unique<platform::vp>("vp", c);
    } catch (const sc_core::sc_report &report) {
        if (std::string(report.get_msg_type()) != "vp.ram")
            throw;
        std::cerr << "pmtrace-vp: --ram " << size_text(o.ram_size) << ": this host cannot give the "
                  << "platform " << c.ram_size << " bytes of RAM (" << report.get_msg()
                  << "): give less\n";
        return nullptr;
    }
}

// --stats-json: the run's figures (a line on stderr and exit_failed when the file cannot be
// written).
int write_json(const options &o, const summary &s, const run_result *r)
{
    if (o.stats_json.empty())
        return exit_ok;
    std::ofstream js(o.stats_json);
    js << format_json(s, r);
    if (!js) {
        std::fprintf(stderr, "pmtrace-vp: cannot write %s\n", o.stats_json.c_str());
        return exit_failed;
    }
    return exit_ok;
}

void say_interrupted(double simulated)
{
    std::fprintf(stderr, "pmtrace-vp: interrupted (SIGINT) after %.6f seconds simulated\n",
                 simulated);
}

// The AArch64 CPU: --kernel's image, or the scenario image, until it ends (or --time-limit, or
// Ctrl-C), then the platform's summary.
int run_a64(const options &o)
{
    const bool scenario = o.kernel.empty();
    const std::unique_ptr<platform::vp> built =
        build_platform(o, scenario ? scenario_platform_config(o) : kernel_platform_config(o));
    if (!built)
        return exit_usage;
    platform::vp &vp = *built;
    int rc = -1;
    const std::vector<uint8_t> image = scenario ? scenario_image() : std::vector<uint8_t>();
    platform::boot_image loaded{};
    if (!scenario) {
        rc = boot_kernel(o, vp, std::cerr, &loaded);
    } else if (image.empty()) {
        std::cerr << "pmtrace-vp: this pmtrace-vp was built without its AArch64 scenario image "
                     "(no aarch64-linux-gnu-gcc: install gcc-aarch64-linux-gnu and rebuild); "
                     "--cpu host and --kernel IMAGE work without it\n";
        rc = exit_failed;
    } else {
        rc = boot_kernel(o, vp, image, "the scenario image", scenario_bootargs(o), std::cerr,
                         &loaded);
    }
    if (rc >= 0)
        return rc;
    std::unique_ptr<kernel_trace> session;
    if (o.kernel_trace)
        session = std::make_unique<kernel_trace>(o, vp);
    sc_core::sc_trace_file *vcd = open_vcd(o, vp);
    const pmu_profile profile(o, vp);
    // Where the CPU cannot go on, kernel_exit_status says why in the software's terms (and the
    // summary follows); SystemC's report of it would add the model's source file and throw.
    sc_core::sc_report_handler::set_actions(vp.a64->name(), sc_core::SC_ERROR,
                                            sc_core::SC_DO_NOTHING);
    catch_interrupt();
    if (!o.kernel.empty())
        take_console(); // stdin, a terminal's modes set for the run (console.h)
    const auto t0 = std::chrono::steady_clock::now();
    const bool interrupted = simulate(o.time_limit);
    restore_console();
    const double host = seconds_since(t0);
    if (vcd)
        sc_core::sc_close_vcd_trace_file(vcd);
    run_end end = run_end::interrupted;
    if (interrupted) {
        say_interrupted(sc_core::sc_time_stamp().to_seconds());
        rc = exit_interrupted;
    } else {
        rc = kernel_exit_status(o, vp, std::cerr, end);
    }
    // The trace: the scenario image's capture holds what its session collected when it ended (an
    // interrupted one has not); pmtrace-vp's own session stops where the run stopped.
    std::string capture;
    if (!interrupted || session)
        if (const int crc = finish_trace(o, vp, session.get(), loaded, capture);
            crc != exit_ok && rc == exit_ok)
            rc = crc;
    if (!o.quiet)
        std::fputs((format_kernel_text(o, vp, host) + capture).c_str(), stdout);
    std::fflush(stdout);
    if (!o.exec_log.empty() && (!vp.a64->exec_log() || !vp.a64->exec_log()->write(o.exec_log))) {
        std::fprintf(stderr, "pmtrace-vp: cannot write the execution log %s\n", o.exec_log.c_str());
        if (rc == exit_ok)
            rc = exit_failed;
    }
    if (profile.write(std::cerr) != exit_ok && rc == exit_ok)
        rc = exit_failed;
    // The JSON last: it holds the exit status.
    summary s = summarize_a64(o, vp, host);
    s.end = end;
    run_result results;
    const bool have_results = scenario && read_results_area(o, vp, results, std::cerr);
    s.exit_status = rc;
    if (write_json(o, s, have_results ? &results : nullptr) != exit_ok && rc == exit_ok)
        rc = s.exit_status = exit_failed;
    return rc;
}

// The host-driven CPU: the scenario over its synthetic workload.
int run_host(const options &o)
{
    const std::unique_ptr<platform::vp> built = build_platform(o, platform_config(o));
    if (!built)
        return exit_usage;
    platform::vp &vp = *built;
    scenario_runner runner(o, vp);
    sc_core::sc_trace_file *vcd = open_vcd(o, vp);
    vp.cpu0.set_program([&](const hal *h) { runner.run(h); });
    catch_interrupt();
    const auto t0 = std::chrono::steady_clock::now();
    const bool interrupted = simulate(sc_core::SC_ZERO_TIME);
    const double host = seconds_since(t0);
    if (vcd)
        sc_core::sc_close_vcd_trace_file(vcd);

    int rc = exit_ok;
    const bool snapshot_ok = interrupted || runner.finish();
    const run_result &r = runner.result();
    int status = r.status;
    if (interrupted) {
        say_interrupted(sc_core::sc_time_stamp().to_seconds());
    } else if (!vp.cpu0.finished()) {
        std::fprintf(stderr, "pmtrace-vp: the CPU did not finish the scenario\n");
        status = SW_EINVAL;
    }
    summary s = summarize(o, vp, r, host);
    if (!o.quiet)
        std::fputs(format_text(s, r).c_str(), stdout);
    std::fflush(stdout);
    if (!snapshot_ok) {
        std::fprintf(stderr, "pmtrace-vp: cannot write the snapshot %s\n", o.snapshot.c_str());
        rc = exit_failed;
    }
    if (!r.decode_ok)
        rc = exit_failed;
    if (!interrupted && !o.trace_out.empty() && !platform::write_file(o.trace_out, r.captured)) {
        std::fprintf(stderr, "pmtrace-vp: cannot write %s\n", o.trace_out.c_str());
        rc = exit_failed;
    }
    if (status != SW_OK && !interrupted) {
        std::fprintf(stderr, "pmtrace-vp: scenario %s failed: %s\n", o.scenario_name.c_str(),
                     sw_strerror(status));
        rc = exit_failed;
    }
    if (interrupted)
        rc = exit_interrupted;
    s.end = interrupted ? run_end::interrupted : run_end::finished;
    s.exit_status = rc;
    // An interrupted scenario has no results of its apps.
    if (write_json(o, s, interrupted ? nullptr : &r) != exit_ok && rc == exit_ok)
        rc = exit_failed;
    return rc;
}

} // namespace

int sc_main(int argc, char **argv)
{
    options o;
    if (int rc = parse(argc, argv, o, std::cout, std::cerr); rc >= 0)
        return rc;
    set_log_level(o.log_level);
    if (!o.kernel.empty() || o.cpu == cpu_kind::a64)
        return run_a64(o);
    return run_host(o);
}

// A user's first screen is ours (or their image's console), not SystemC's banner: SystemC prints
// it when its kernel starts, before sc_main, unless this is set.
int main(int argc, char **argv)
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
