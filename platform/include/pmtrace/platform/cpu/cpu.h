// cpu.h - a host-driven CPU: an SC_THREAD that runs sw/ software (drivers, apps) through the HAL
// of sw/hal/hal.h, backed by the SystemC platform.
//
// The HAL's calls become transactions and calls into the platform:
// - system registers: the CPU's own (CurrentEL, MPIDR_EL1, ID_AA64DFR0/1_EL1), the GIC CPU
//   interface for the ICC_* encodings, and the PE model's sysreg export for the rest, with the
//   CPU's local time offset;
// - MMIO: b_transport through the initiator socket (into the router) with the local offset as the
//   delay; mem_read: transport_dbg (virtual = physical: no MMU in this CPU);
// - run: retired instructions and other events go to the PE model's event export at the local
//   offset; cycles advance the local time by cycles x clock period. A tlm_quantumkeeper decouples
//   the CPU and syncs (wait) at quantum boundaries;
// - trace: the CPU stands in for the PE's trace unit. The work's trace bytes go to `trace_out`
//   (the Trace Buffer Unit's trace sink) at the local offset, dropped where the trace unit's
//   prohibited regions say so (TRFCR_ELx.ExTRE as the kernel reads them), in steps that end at
//   the unit's headroom so TRBIRQ is taken at the exact byte (sw/hal/hal_impl.h); the work's
//   Detected Trigger likewise. The CPU buffers no trace, so it needs no flush handshake (leave
//   the unit's trace_flush port unbound). TSB CSYNC goes to `trbe`;
// - an SError (serror: the unit's External abort on a trace write, when so configured) is
//   counted; the software has no SError handler;
// - interrupts: the GIC's IRQ output for this CPU drives `irq`. While it is high and PSTATE.I is
//   clear, the CPU runs the registered entry at a HAL call boundary, with PSTATE.I set and at the
//   software's Exception level.
//
// An optional `peek` function (the platform sets it from the PE model) tells how many events of a
// kind may pass before the PMU does something visible, after counting the cycles up to the CPU's
// local time. With it, work is reported in steps that end at each overflow, so interrupts are
// taken at the exact count (as the core HAL does); without it, a piece of work is reported whole.
//
// The interface is kept narrow on purpose: the next CPU, an instruction-set simulator, binds the
// same ports and export and replaces this module alone.
#ifndef PMTRACE_PLATFORM_CPU_H
#define PMTRACE_PLATFORM_CPU_H

#include <pmtrace/platform/cpu/cpu_pe_config.h>
#include <pmtrace/platform/interrupt/gic_cpu_interface.h>
#include <pmtrace/platform/bus/signal_if.h>
#include <pmtrace/systemc/cpu_if.h>
#include <pmtrace/systemc/trbe_if.h>

#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "hal/hal.h"

namespace pmtrace::platform
{

// The PE's part (clock, counters, features) is cpu_pe_config's.
struct cpu_config : cpu_pe_config {
    // The global quantum (tlm_global_quantum) the CPU sets at construction.
    sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_US);
    // MPIDR_EL1 (Aff0 = CPU number) and the ID registers the drivers probe (the platform copies
    // them from the PE model).
    uint64_t mpidr = 0;
    uint64_t id_aa64dfr0 = 0;
    uint64_t id_aa64dfr1 = 0;
    // The software's state: Non-secure EL1, EL2 enabled when EL2 exists (have_el2).
    // Before the software runs, do what EL3 and EL2 firmware do: MDCR_EL3 (EnPM2 with PMUv3p9),
    // MDCR_EL2.HPMN = num_counters (the kernel gets every counter); with a Trace Buffer Unit,
    // MDCR_EL3.NSTB and MDCR_EL2.E2TB give the kernel the trace buffer.
    bool firmware = true;
    // PL011 data register for console_write; 0: console output dropped.
    uint64_t uart_base = 0;
    // Processor cycles an IRQ exception takes before the handler runs (exception entry, vector,
    // prologue), spent at the kernel's Exception level (the PMU counts them there). 0: taking an
    // interrupt takes no time, and a level the handler clears is a pulse of zero width.
    uint64_t irq_entry_cycles = 0;
    // Interrupts taken back to back at one boundary before the CPU gives up (a handler that does
    // not clear its source).
    unsigned irq_storm_limit = 64;
    // Stop the simulation (sc_stop) when the program returns.
    bool stop_at_end = true;
    // false: the CPU does nothing at all (a platform whose software runs on the AArch64 CPU,
    // a64_cpu.h, keeps this one bound but idle).
    bool enabled = true;
};

struct cpu_stats {
    uint64_t irqs_taken = 0;
    uint64_t irq_storms = 0;
    uint64_t instructions = 0;
    uint64_t cycles = 0;
    uint64_t sysreg_accesses = 0;
    uint64_t mmio_accesses = 0;
    uint64_t bus_errors = 0;
    uint64_t trace_bytes = 0;   // trace bytes given to the Trace Buffer Unit
    uint64_t trace_dropped = 0; // trace bytes of work where trace is prohibited, or no unit
    uint64_t tsb_csyncs = 0;
    uint64_t serrors = 0; // SError interrupts signalled (not taken: no handler)
    uint64_t syncs = 0;   // quantum keeper synchronisations
};

class cpu : public sc_core::sc_module, public level_if, public event_if
{
  public:
    // Everything the CPU reaches: the bus, and the PE model's exports.
    tlm_utils::simple_initiator_socket<cpu> bus;
    sc_core::sc_port<pmtrace::sysreg_if> sysreg;
    sc_core::sc_port<pmtrace::pmu_event_if> events;
    sc_core::sc_port<pmtrace::pe_state_if> state;
    // The IRQ input (bind the GIC's irq output for this CPU here).
    sc_core::sc_export<level_if> irq;
    // The trace path (both may stay unbound: trace bytes are then dropped, TSB CSYNC is a NOP).
    optional_port<pmtrace::trace_sink_if> trace_out;
    optional_port<pmtrace::trbe_cpu_if> trbe;
    // The SError input (bind the PE model's serror output here).
    sc_core::sc_export<event_if> serror;

    using program = std::function<void(const hal *h)>;
    using peek_function = std::function<uint64_t(uint16_t event, const sc_core::sc_time &offset)>;

    cpu(const sc_core::sc_module_name &name, const cpu_config &config = cpu_config());

    // The GIC CPU interface the ICC_* system registers go to (none: they are UNDEFINED).
    void set_cpu_interface(gic_cpu_interface *icc) { icc_ = icc; }
    void set_peek(peek_function peek) { peek_ = std::move(peek); }
    void set_id_registers(uint64_t dfr0, uint64_t dfr1)
    {
        config_.id_aa64dfr0 = dfr0;
        config_.id_aa64dfr1 = dfr1;
    }
    // What the CPU runs once simulation starts (before, or the CPU idles).
    void set_program(program p) { program_ = std::move(p); }

    const hal *hal_handle() const { return &hal_; }
    bool finished() const { return finished_; }
    const cpu_stats &stats() const { return stats_; }
    const cpu_config &config() const { return config_; }
    // The CPU's time: sc_time_stamp() plus its local offset.
    sc_core::sc_time local_time() const { return qk_.get_current_time(); }
    bool irq_level() const { return irq_level_; }

    // level_if: the GIC's IRQ output, taken at the CPU's next step whatever the offset (the time
    // the GIC's output changed, which its view shows).
    void set_level(bool level, const sc_core::sc_time &offset) override;
    // event_if: an SError, taken likewise.
    void notify_event(const sc_core::sc_time &offset) override;

    // The HAL calls (sw/hal/hal.h).
    hal_status sysreg_read(hal_sysreg reg, uint64_t &value);
    hal_status sysreg_write(hal_sysreg reg, uint64_t value);
    void barrier();
    void tsb_csync();
    hal_status mmio(bool write, uint64_t pa, unsigned size, uint64_t &value);
    hal_status mem_read(uint64_t va, void *dst, size_t n);
    bool irq_mask(bool masked);
    bool wait_for_interrupt();
    void set_irq_entry(hal_irq_entry entry, void *arg);
    hal_status run(const hal_work &work);
    void console_write(const char *text, size_t n);

  private:
    void main();
    void boot_firmware();
    void take_irqs();
    void set_el(uint8_t el);
    hal_status run_event(uint16_t event, uint64_t n);
    hal_status run_cycles(uint64_t n);
    hal_status run_trace(const hal_work &work);
    void refresh_trfcr();
    void maybe_sync();

    cpu_config config_;
    hal hal_{};
    tlm_utils::tlm_quantumkeeper qk_;
    gic_cpu_interface *icc_ = nullptr;
    peek_function peek_;
    program program_;
    pmt_pe_state kernel_{};
    bool masked_ = true; // PSTATE.I: set out of reset
    bool irq_level_ = false;
    bool in_handler_ = false;
    hal_irq_entry entry_ = nullptr;
    void *entry_arg_ = nullptr;
    bool finished_ = false;
    sc_core::sc_event irq_event_;
    uint64_t trfcr_el1_ = 0, trfcr_el2_ = 0; // as the kernel last read them
    cpu_stats stats_;
};

} // namespace pmtrace::platform

#endif
