// options.h - pmtrace-vp's command line (Boost.Program_options): what a run does, checked and
// converted into the platform's terms before anything is built.
#ifndef PMTRACE_VP_OPTIONS_H
#define PMTRACE_VP_OPTIONS_H

#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/cpu/a64_trace_listener.h>
#include <pmtrace/pmtrace.h>

#include "apps/apps.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

namespace pmtrace::vp_cli
{

enum class scenario { stat, record, trace, fault };

// What runs the scenario: the AArch64 CPU executing the sw/ apps built for AArch64 (the scenario
// image, a64_scenario.h), or the host-driven CPU calling them through the HAL with a synthetic
// workload (its invented events and trace).
enum class cpu_kind { a64, host };

// The values behind the command line's defaults and ranges: the parsing, the checks and the help
// text all take them from here (and from the platform's own defaults, default_quantum and
// ram_size_of), so what --help says is what a run does.
namespace limits
{
// QEMU's virt: RAM from 0x4000_0000 up to the 256 GiB boundary; 128 MiB by default.
constexpr uint64_t ram_default = 0x800'0000;
constexpr uint64_t ram_granule = 0x1000; // --ram is a multiple of 4 KiB
constexpr uint64_t ram_max = 255ull << 30;
// RAM's first MiB holds the program (images at + 0x80000 and their stacks: sw/arch/aarch64/a64.ld
// asserts it): the trace buffer lies above it.
constexpr uint64_t program_area = 0x10'0000;
constexpr uint64_t buffer_base_default = platform::virt::ram_base + program_area;
constexpr uint64_t buffer_size_default = 0x1'0000; // 64 KiB
constexpr unsigned max_events = SW_STAT_MAX_EVENTS;
constexpr unsigned max_counters = 31; // PMCR_EL0.N
constexpr uint64_t max_irq_cycles = 1'000'000'000;
} // namespace limits

// The quantum a CPU runs with unless --quantum (or --vcd) says otherwise: the AArch64 CPU's and
// the host-driven CPU's own defaults (a64_cpu_config, cpu_config).
sc_core::sc_time default_quantum(cpu_kind cpu);
// The RAM a run has: --ram on the AArch64 CPU; the platform's default (vp_config) on the host CPU.
uint64_t ram_size_of(cpu_kind cpu, uint64_t ram_option);

// How the help writes sizes and times: 4K, 64K, 128M, 255G (the exact unit), 0x4010_0000 as
// 0x40100000; 100us, 1ns.
std::string size_text(uint64_t bytes);
std::string hex_text(uint64_t v);
std::string time_text(const sc_core::sc_time &t);

// A fault the fault scenario injects: a translation fault kind (the translator answers it for
// one page) or a memory error (the RAM answers a TLM error for one page).
struct fault_spec {
    bool memory_error = false; // else `kind` at `stage`/`level`
    pmt_trbe_fault fault{};    // kind, stage, level
    uint64_t address = 0;      // the page (VA; identity translation: also the PA)
    bool fix = true;           // the handler removes the fault: the capture resumes there
};

struct options {
    enum scenario scenario = scenario::stat;
    std::string scenario_name = "stat";
    cpu_kind cpu = cpu_kind::a64;
    // The workload: a loop of `iterations` x `instructions`, at EL`el` (AArch64 CPU); on the host
    // CPU, per iteration 1000 instructions, 1300 cycles, events, trace bytes.
    uint64_t iterations = 100000;
    uint64_t instructions = 1000;
    unsigned el = 0;
    uint64_t per_piece = 100;
    size_t trace_per_iteration = 16; // --trace-data pattern
    // The PE.
    unsigned counters = 6;
    pmt_pmu_version pmu_version = PMT_PMUV3P7;
    std::string pmu_version_name = "3.7";
    bool trbe_ext = false;
    pmt_trbe_ext_abort ext_abort = PMT_TRBE_EA_SERROR;
    uint32_t midr = 0; // MIDR_EL1 (a64_cpu_config::midr); 0: the engine's
    // --trbe-erratum: the silicon errata of the Trace Buffer Unit (pmt_trbe_config.erratum_*).
    bool erratum_fill_overwrite = false, erratum_write_out_of_range = false,
         erratum_drain_after_disable = false, erratum_ctxt_sync_after_enable = false;
    sc_core::sc_time clock = sc_core::sc_time(1, sc_core::SC_NS);
    sc_core::sc_time quantum = default_quantum(cpu_kind::a64);
    uint64_t irq_cycles = 100; // an IRQ exception's entry
    // stat and record.
    std::vector<uint16_t> events;
    uint16_t record_event = PMT_EV_INST_RETIRED;
    uint64_t period = 1000000;
    bool long_counters = false;
    bool exclude_user = false, exclude_kernel = false; // perf's :k and :u
    bool trace_alongside = true; // stat and record: a Fill-mode trace session around the run
    // trace (and the buffer of every scenario).
    uint64_t buffer_base = limits::buffer_base_default;
    uint64_t buffer_size = limits::buffer_size_default;
    unsigned fill_mode = PMT_TRBLIMITR_FM_FILL;
    sw_trace_trigger trigger = SW_TRACE_NO_TRIGGER;
    uint64_t trigger_after = SW_LOOP_NO_TRIGGER; // bytes of the run before the Detected Trigger
    uint64_t trigger_count = 0;                  // TRBTRG_EL1
    std::string trace_out;
    bool ete = true;      // the trace is ETE for the synthetic program (else a byte pattern)
    std::string snapshot; // write the capture as an OpenCSD snapshot directory
    bool decode = false;  // decode the capture (OpenCSD) and summarize it
    // fault.
    fault_spec fault;
    // --kernel: an image booted on the AArch64 CPU as QEMU's virt board boots -kernel (with
    // -append, -initrd, -dtb, -m, -machine virtualization=on, secure=on); the scenario options do
    // not apply.
    // --ram, --virtualization, --secure, --time-limit, --quiet and --dump-dtb apply to the
    // scenario image on the AArch64 CPU too (its command line comes from the scenario options).
    std::string kernel;
    bool kernel_trace = false; // --trace: pmtrace-vp's own trace session around the image
    std::string append;
    std::string initrd;   // an initial RAM disk (QEMU's -initrd)
    std::string dtb;      // a device tree of the user's (else the platform's own)
    std::string dump_dtb; // write the device tree given to the image and exit
    uint64_t ram_size = limits::ram_default;
    uint64_t trace_unit_buffer = 1024; // pmt_ete_config.unit_buffer (the AArch64 CPU's runs)
    unsigned trace_batch = platform::a64_trace_batch_default; // a64_cpu_config::trace_batch
    bool timestamps = false;     // TRCCONFIGR.TS in the trace session (the AArch64 CPU's runs)
    bool virtualization = false; // enter at EL2, PSCI over SMC
    bool secure = false;         // enter at EL3 (the image is the firmware: no PSCI)
    bool quiet = false;          // no summary (after the console output, on the AArch64 CPU)
    bool semihosting = false;    // serve HLT #0xF000 (QEMU's -semihosting)
    bool no_skip_polls = false;  // run every iteration of a counter poll loop
    sc_core::sc_time time_limit = sc_core::SC_ZERO_TIME; // of simulated time; 0: none
    // --rtc-base: the PL031's time when the platform starts, seconds since 1970 (UTC); empty: the
    // host's clock then (utc, the default). rtc_base.h.
    std::optional<int64_t> rtc_base;
    // Outputs.
    std::string vcd;
    sc_core::sc_time vcd_counters = sc_core::SC_ZERO_TIME; // counter sampling; 0: not traced
    std::string stats_json;
    std::string perf_data; // the PMU interrupts' samples as a perf.data file (AArch64 CPU)
    std::string exec_log;  // the AArch64 CPU's execution log (a64_exec_log.h), written at the end
    std::string log_level = "warning";
};

// Parses the command line. Returns -1 to go on, or the exit status (0 after --help, 2 after a
// bad argument, with a message on `err`).
int parse(int argc, char **argv, options &o, std::ostream &out, std::ostream &err);

// 124: --time-limit ended the run (the status `timeout` gives a command it stops); 130: Ctrl-C
// (SIGINT) interrupted it (a shell's status for a command killed by SIGINT, 128 + 2).
constexpr int exit_ok = 0, exit_failed = 1, exit_usage = 2, exit_time_limit = 124,
              exit_interrupted = 130;

// How a run ended: the host CPU's scenario ran to its end (finished); the AArch64 CPU's software
// asked for the end (PSCI SYSTEM_OFF or SYSTEM_RESET, semihosting SYS_EXIT), or the CPU stopped
// on an error, --time-limit ended the run, Ctrl-C interrupted it, or the CPU waits for an
// interrupt nothing will raise.
enum class run_end {
    finished,
    system_off,
    system_reset,
    exit,
    error,
    time_limit,
    interrupted,
    waiting
};

} // namespace pmtrace::vp_cli

#endif
