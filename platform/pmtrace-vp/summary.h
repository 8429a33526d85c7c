// summary.h - what pmtrace-vp prints at the end: the apps' summaries (perf stat's shape), then
// the platform's view (interrupts acknowledged per INTID, trace bytes written to memory, SErrors,
// simulated and host time); the same as JSON for every run, for batch runs (--stats-json).
#ifndef PMTRACE_VP_SUMMARY_H
#define PMTRACE_VP_SUMMARY_H

#include "options.h"
#include "scenario.h"

#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

const char *run_end_name(run_end end);

struct summary {
    const options *o = nullptr;
    uint64_t irqs_taken = 0; // IRQ exceptions the CPU took
    uint64_t pmu_acks = 0;   // ICC_IAR1_EL1 returned INTID 23 (PMUIRQ)
    uint64_t trbe_acks = 0;  // ... the TRBIRQ INTID
    unsigned trbe_intid = 0;
    uint64_t serrors = 0;          // SErrors (host CPU: from External aborts on trace writes)
    uint64_t instructions = 0;     // retired, as the CPU reported them
    uint64_t cycles = 0;           // host CPU: the workload's cycles
    uint64_t exceptions = 0;       // AArch64 CPU: exceptions taken
    uint64_t device_accesses = 0;  // AArch64 CPU: loads and stores outside RAM
    uint64_t trace_generated = 0;  // bytes the trace unit gave the Trace Buffer Unit
    uint64_t trace_prohibited = 0; // ... dropped where trace is prohibited (host CPU)
    uint64_t trace_written = 0;    // bytes the unit wrote to memory (b_transport and DMI)
    uint64_t trace_bus_errors = 0;
    uint64_t cti_pmu = 0, cti_trbe_stopped = 0, cti_trbe_management = 0, cti_trbe_wrap = 0;
    double simulated_seconds = 0;
    double host_seconds = 0;
    // The PMU's counters as the software left them (pe_model::counters: a tool's peek).
    std::vector<pmtrace::pe_model::counter_view> counters; // index: the counter's number
    // How the run ended and pmtrace-vp's exit status; after a semihosting SYS_EXIT its status.
    run_end end = run_end::finished;
    int exit_status = 0;
    int software_status = 0;
};

// The host CPU's run: its scenario's platform view.
summary summarize(const options &o, platform::vp &vp, const run_result &r, double host_seconds);
// The AArch64 CPU's run (--kernel's image or the scenario image).
summary summarize_a64(const options &o, platform::vp &vp, double host_seconds);
std::string format_text(const summary &s, const run_result &r);

// --stats-json: the run's figures as JSON, for every run (docs/platform.md, "The summary as
// JSON"). `r` holds the apps' results (the host CPU's scenario, or the scenario image's results
// area); null when there are none (--kernel, or a scenario image that did not end). Counts are
// numbers, register values and addresses hex strings, times name their unit.
constexpr int json_schema_version = 2;
std::string format_json(const summary &s, const run_result *r);

// The AArch64 CPU's runs: with --kernel the PMU's counters as the software left them (those
// PMCNTENSET_EL0 enables; the scenario image prints its own tables), then what the CPU executed
// and took, the trace written, and the times.
std::string format_kernel_text(const options &o, platform::vp &vp, double host_seconds);

} // namespace pmtrace::vp_cli

#endif
