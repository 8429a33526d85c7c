// a64_cpu.h - an AArch64 CPU that executes A64 code: the platform's instruction-set CPU.
//
// Two parts with one job each: the engine (a64_engine.h: executes instructions; Unicorn) and this
// model, which does what the engine does not (docs/cpu.md):
// - it binds what the host-driven CPU (cpu.h) binds: the bus (TLM initiator, b_transport with
//   the local time offset), the PE model's sysreg/events/state exports, the TRBE CPU interface,
//   the IRQ and SError inputs, and the GIC CPU interface;
// - RAM is the engine's memory (the memory model's storage, as DMI would give it); every other
//   address is a device: the CPU decodes the load or store and performs it on the bus;
// - system registers: the PE model's (PMU, TRBE, trace filter, MDCR_ELx ...), with the UNDEFINED
//   or trap it answers; ICC_* to the GIC CPU interface; CNT* to the Generic Timer (firmware
//   gives EL1 the physical counter and timer: CNTHCTL_EL2.EL1PCTEN, EL1PCEN); the PMU and trace
//   fields of
//   ID_AA64DFR0/1_EL1 from the PE model; everything else the engine's;
// - exceptions: entry and return as the architecture says (target EL, vector, ESR, ELR, SPSR,
//   FAR, PSTATE) for SVC, HVC, SMC, BRK, UNDEFINED, system register traps (to EL1, EL2 or EL3),
//   External aborts on device accesses, IRQ, SError and the Profiling exceptions: the PMU's
//   (FEAT_EBEP, asynchronous; FEAT_SEBEP, synchronous through PSTATE.PPEND) and the TRBE's
//   (FEAT_TRBE_EXC), with PSTATE.PM and SPSR_ELx.{PM, PPEND} (a64_cpu_profiling.cpp);
// - TSB CSYNC to the Trace Buffer Unit (trbe_cpu_if::tsb_csync) at the instruction boundary
//   after it;
// - PSCI 1.0 as firmware answers it on the boot conduit (HVC when entered at EL1, SMC at EL2;
//   none when entered at EL3, where the software is the firmware and SMC is taken to EL3);
// - time and events: an instruction takes cycles_per_instruction cycles of the PE clock; the
//   quantum keeper decouples the CPU, which syncs at the end of the quantum, or earlier where
//   the rest of the platform has something scheduled, and at the Generic Timer's next event
//   (its interrupt is taken on time); the events of the executed code (INST_RETIRED,
//   CPU_CYCLES, MEM_ACCESS, LD_RETIRED, ST_RETIRED, BR_RETIRED, BR_IMMED_RETIRED,
//   BR_RETURN_RETIRED, BR_IND_RETIRED) are exact at instruction granularity: the CPU runs up to
//   the PMU's headroom of each, so an overflow interrupt is taken right after the instruction
//   that overflowed; exception events (EXC_*) at the exception; the PE state (Exception level)
//   pushed on every change.
#ifndef PMTRACE_PLATFORM_A64_CPU_H
#define PMTRACE_PLATFORM_A64_CPU_H

#include <pmtrace/platform/cpu/a64_engine.h>
#include <pmtrace/platform/cpu/a64_exec_log.h>
#include <pmtrace/platform/cpu/a64_poll_loop.h>
#include <pmtrace/platform/cpu/a64_self_hosted_debug.h>
#include <pmtrace/platform/cpu/a64_stage1.h>
#include <pmtrace/platform/cpu/a64_trace_listener.h>
#include <pmtrace/platform/cpu/cpu_pe_config.h>
#include <pmtrace/platform/timer/generic_timer.h>
#include <pmtrace/platform/interrupt/gic_cpu_interface.h>
#include <pmtrace/platform/bus/signal_if.h>
#include <pmtrace/systemc/cpu_if.h>
#include <pmtrace/systemc/outputs.h>
#include <pmtrace/systemc/trbe_if.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <vector>

namespace pmtrace::platform
{

// The PE's part (clock, counters, features) is cpu_pe_config's.
struct a64_cpu_config : cpu_pe_config {
    // How far the CPU may run ahead of SystemC time (temporal decoupling) while nothing else in
    // the platform is scheduled. It syncs at the Generic Timer's next event, and at the next
    // thing the rest of the platform has scheduled after at least busy_quantum (the default
    // quantum before; docs/cpu.md, "Time").
    sc_core::sc_time quantum = sc_core::sc_time(100, sc_core::SC_US);
    sc_core::sc_time busy_quantum = sc_core::sc_time(1, sc_core::SC_US);
    // Where the image is entered (QEMU's virt: EL1, EL2 with virtualization=on, EL3 with
    // secure=on). The PSCI conduit follows: HVC at EL1, SMC at EL2. At EL3 (which needs
    // have_el3) the image is its own firmware: no PSCI and no set-up of ours (`firmware` is not
    // used); SMC is taken to EL3.
    unsigned entry_el = 1;
    // The timing model: cycles of the PE clock per instruction, and per exception entry.
    uint64_t cycles_per_instruction = 1;
    uint64_t exception_entry_cycles = 0;
    // Firmware: MDCR_EL3 and MDCR_EL2 as TF-A and a hypervisor leave them (every counter and
    // the trace buffer to the software entered), as the host-driven CPU does.
    bool firmware = true;
    // MIDR_EL1 (D24.2.137): what the PE says it is. 0: the engine's (Unicorn's Cortex-A72 r0p3,
    // 0x410FD083). Software keys its errata workarounds on it: Linux's coresight-trbe applies
    // its TRBE workarounds on a Cortex-A710, X2, N2 or A510 of the affected revisions
    // (docs/trace.md, "TRBE errata on Linux"). Reads at EL2 and EL3, and at EL1 when EL2 is not
    // enabled, give it; at EL1 with EL2 enabled, VPIDR_EL2, which reset sets to it.
    uint32_t midr = 0;
    // The PMU and trace fields of ID_AA64DFR0/1_EL1 (from the PE model).
    uint64_t id_aa64dfr0 = 0;
    uint64_t id_aa64dfr1 = 0;
    // Stop the simulation when the software ends (PSCI SYSTEM_OFF, or a CPU that cannot go on).
    bool stop_at_end = true;
    // Arm semihosting (QEMU's -semihosting): HLT #0xF000 is a call a debugger serves
    // (a64_cpu_semihosting.cpp: SYS_WRITEC, SYS_WRITE0, SYS_EXIT, SYS_EXIT_EXTENDED); false: an
    // UNDEFINED instruction, as HLT is on a PE that no debugger halts.
    bool semihosting = false;
    // IGMXLL (RBKHSW): the priority of the asynchronous Profiling exceptions over an IRQ is
    // IMPLEMENTATION DEFINED. true: at an instruction boundary where both can be taken, the
    // Profiling exception first (its ELR is the interrupted instruction; the IRQ, masked by the
    // entry's PSTATE.I, is taken after the handler returns). false: the IRQ first.
    bool profiling_before_irq = true;
    // Record what the CPU executes (a64_exec_log.h: ranges, exceptions, context, in order):
    // exec_log() after the run. Costs what a trace listener costs (docs/cpu.md).
    bool exec_log = false;
    // The trace listeners get the ranges of the blocks the CPU runs without calling the platform
    // (on_block's fast path) in batches of up to this many, each with its time
    // (a64_trace_listener::on_ranges), before any other report and any call to the platform;
    // 1..a64_trace_batch_max, 1: each range as it ends (docs/cpu.md, "Reports in batches").
    unsigned trace_batch = a64_trace_batch_default;
    // The progress guard: the CPU ends with an error (a64_cpu_end::error, naming the pc, the
    // Exception level and the last stop) when its engine stopped this many times in a row
    // without an instruction retired: software that can never go on (an exception whose vector
    // cannot be fetched, taken again and again) would otherwise hold the simulation at one
    // instant for ever. 0: no guard.
    unsigned no_progress_limit = 10000;
    // A loop that only polls the counter (a64_poll_loop.h) has the iterations that go on retired
    // without running them, up to where the CPU must sync, with every count as if they ran
    // (docs/cpu.md, "Busy-waiting on the counter"). false: each iteration runs.
    bool skip_counter_polls = true;
};

struct a64_cpu_stats {
    uint64_t instructions = 0;
    uint64_t exceptions = 0;
    uint64_t irqs = 0;
    uint64_t serrors = 0;
    uint64_t sysreg_accesses = 0; // those the model performed (not the engine's own)
    uint64_t device_accesses = 0;
    uint64_t bus_errors = 0;
    uint64_t wfis = 0;
    uint64_t tsb_csyncs = 0;
    uint64_t syncs = 0;
    uint64_t profiling_exceptions = 0; // PMU (both kinds) and TRBE Profiling exceptions taken
    // With a trace listener: execution that went on elsewhere than the last report said (none
    // expected: a report the CPU failed to make; the listener sees a range start there).
    uint64_t trace_discontinuities = 0;
    // Iterations of counter poll loops retired without running them (skip_counter_polls).
    uint64_t polls_skipped = 0;
};

class a64_cpu : public sc_core::sc_module,
                public level_if,
                public event_if,
                private a64_engine_client
{
  public:
    // The events counted from the instructions retired besides INST_RETIRED (MEM_ACCESS,
    // LD_RETIRED, ST_RETIRED, BR_RETIRED, BR_IMMED_RETIRED, BR_RETURN_RETIRED, BR_IND_RETIRED:
    // platform/src/cpu/a64_block_events.h).
    static constexpr unsigned num_block_events = 8;
    // Their counts per block and in all, padded to an even number of lanes: adding a block's
    // counts (on_block's fast path) is then four vector additions.
    static constexpr unsigned event_lanes = (num_block_events + 1) & ~1u;
    using event_counts = std::array<uint64_t, event_lanes>;

    tlm_utils::simple_initiator_socket<a64_cpu> bus;
    sc_core::sc_port<pmtrace::sysreg_if> sysreg;
    sc_core::sc_port<pmtrace::pmu_event_if> events;
    sc_core::sc_port<pmtrace::pe_state_if> state;
    optional_port<pmtrace::trbe_cpu_if> trbe;
    // FEAT_SEBEP: PSTATE.PPEND through exception entry, return and retirement (needed with
    // config.sebep).
    optional_port<pmtrace::sync_profiling_if> profiling;
    sc_core::sc_export<level_if> irq;    // the GIC's IRQ output for this PE
    sc_core::sc_export<event_if> serror; // an SError (the TRBE's External abort)
    // The PE model's Profiling exception requests (pe_model::pmu_exception, trbe_exception):
    // pending and unmasked, with the target Exception level.
    sc_core::sc_export<pmtrace::exception_request_if> pmu_exception;
    sc_core::sc_export<pmtrace::exception_request_if> trbe_exception;
    // The Trace Buffer Unit's address translation (pe_model::translation; a64_cpu_trbe.cpp):
    // stage 1 of the owning translation regime, walked in this CPU's translation tables with its
    // registers of the moment, as a privileged write (D6.3.4 RJTVDD, D6.5.4); then, when bound,
    // `trbe_physical` answers for the physical address stage 1 gave (the platform's translator:
    // its mappings and injected faults).
    sc_core::sc_export<pmtrace::trbe_translation_if> trbe_translation;
    optional_port<pmtrace::trbe_translation_if> trbe_physical;

    using peek_function = std::function<uint64_t(uint16_t event, const sc_core::sc_time &offset)>;

    // `engine`: nullptr makes the Unicorn engine. A CPU whose engine failed reports it in
    // error() and ends at once when simulation starts.
    a64_cpu(const sc_core::sc_module_name &name, const a64_cpu_config &config = a64_cpu_config(),
            std::unique_ptr<a64_engine> engine = nullptr);
    ~a64_cpu() override;

    void set_cpu_interface(gic_cpu_interface *icc) { icc_ = icc; }
    // The Generic Timer the CNT* system registers go to (none: they are the engine's).
    void set_timer(generic_timer *timer) { timer_ = timer; }
    void set_peek(peek_function peek) { peek_ = std::move(peek); }
    // What the CPU executes, reported as a trace unit needs it (a64_trace_listener.h), to each
    // listener attached, in the order attached. Attach and detach on the CPU's thread (before
    // simulation, or from a call the CPU makes); a listener attached while code runs gets its
    // first report (on_context) at the next instruction boundary the CPU sees. With none
    // attached nothing is decoded for it and nothing called.
    void add_trace_listener(a64_trace_listener *listener);
    void remove_trace_listener(a64_trace_listener *listener);
    // Asks each listener again whether it wants reports (a64_trace_listener::wants_reports). The
    // CPU does so after each System register write it makes to the PE model and after
    // debug_access; a tool that enables a trace unit another way (pe_model::restore, a write
    // to the core) calls it then. A listener that joins gets the instructions from the next one
    // the CPU executes: after the write, or from the engine's pc.
    void update_trace_listeners();
    // The execution log (config.exec_log), or nullptr.
    const a64_exec_log *exec_log() const { return exec_log_.get(); }
    void set_id_registers(uint64_t dfr0, uint64_t dfr1)
    {
        config_.id_aa64dfr0 = dfr0;
        config_.id_aa64dfr1 = dfr1;
    }
    // RAM the engine executes from and accesses directly (the memory model's storage).
    bool map_ram(uint64_t base, uint64_t size, uint8_t *host);
    // The boot state: pc and x0..x3 (x0: the device tree), at config.entry_el, MMU off, DAIF set.
    void set_boot(uint64_t pc, uint64_t x0, uint64_t x1 = 0, uint64_t x2 = 0, uint64_t x3 = 0);
    // Called once at boot, after what firmware sets up, before the image's first instruction.
    void set_boot_hook(std::function<void()> hook) { boot_hook_ = std::move(hook); }
    // System register accesses an external agent makes as a debugger does with the PE halted
    // (executing MSR and MRS in Debug state): the PE model sees the PE at the highest
    // Exception level while `access` runs, then the CPU's own state again. From the boot hook,
    // or after simulation.
    using debug_access_function =
        std::function<void(pmtrace::sysreg_if &, pmtrace::trbe_cpu_if *, const sc_core::sc_time &)>;
    void debug_access(const debug_access_function &access);

    // The common events (PMCEID0/1_EL0: bit e of [0] is event e, of [1] event 0x4000 + e) this
    // CPU delivers, with those the PMU generates itself (SW_INCR, CHAIN) and, with a Trace
    // Buffer Unit, its TRB_WRAP and TRB_TRIG.
    static std::array<uint64_t, 2> common_events(bool trbe);

    a64_engine &engine() { return *engine_; }
    const a64_cpu_stats &stats() const { return stats_; }
    const a64_cpu_config &config() const { return config_; }
    a64_cpu_end end() const { return end_; }
    int exit_status() const { return exit_status_; }
    const std::string &error() const { return error_; }
    sc_core::sc_time local_time() const { return qk_.get_current_time(); }
    // The local time offset of the last instruction retired (local_time() counts instructions
    // in batches; this adds those retired since): for a trace unit's timestamps.
    sc_core::sc_time retired_offset() const { return offset_at(retired_); }
    bool irq_level() const { return irq_level_; }
    bool pstate_pm() const { return pm_; } // PSTATE.PM (FEAT_EBEP, FEAT_TRBE_EXC)

    // Called at each IRQ the CPU takes, before the entry: the preferred return address (the
    // instruction the interrupt is taken before) and the Exception level it is taken from. For
    // a profiler (pmtrace-vp --perf-data); the CPU's run is not affected.
    using irq_observer = std::function<void(uint64_t preferred_return, unsigned from_el)>;
    void set_irq_observer(irq_observer observer) { irq_observer_ = std::move(observer); }

    // level_if: the GIC's IRQ output. The CPU takes the level at its next instruction boundary
    // whatever the offset (the time the GIC's output changed, which its view shows).
    void set_level(bool level, const sc_core::sc_time &offset) override;
    // event_if: an SError, taken likewise.
    void notify_event(const sc_core::sc_time &offset) override;

  private:
    // a64_engine_client
    uint64_t on_block(uint64_t address, uint32_t size) override;
    uint64_t on_block_checked(uint64_t address, uint32_t size);
    void on_block_cut(uint64_t pc) override;
    a64_sysreg_action on_sysreg(const a64_sysreg_access &access, uint64_t &value) override;
    bool on_device_access(uint64_t pa, unsigned size, bool write, uint64_t &value) override;
    bool on_fetch(uint64_t va) override;

    void main();
    void boot();
    std::function<void()> boot_hook_;
    void fail(const std::string &why);
    // Accounting: instructions retired and their events, reported to the PE model and turned
    // into time at each synchronisation point.
    void retire_range(uint64_t begin, uint64_t end);
    void finish_block(uint64_t end, uint64_t next);
    bool resumed_rest_ran(uint64_t address);
    struct block_info;
    void retire_counts(const block_info &counts, uint64_t begin, uint64_t end);
    void report();
    void plan();
    uint64_t budget();
    uint64_t quantum_budget();
    sc_core::sc_time sync_point() const;
    void update_fast_until();
    // The repeats the engine made (a64_block_repeat), counted whenever it calls.
    void count_repeats()
    {
        if (repeat_.runs)
            retire_repeats();
    }
    void retire_repeats();
    void allow_repeats(const block_info &b);
    void end_fast()
    {
        fast_ = false;
        repeat_.left = 0;
    }
    uint64_t event_stop(uint64_t address, uint32_t size);
    uint64_t after_first(uint64_t address, uint32_t size, uint32_t classes);
    void tsb_csync();
    uint32_t exclusive_cut(uint64_t address, uint32_t size);
    void uncount_failed_exclusives(const block_info &c, uint64_t begin, uint64_t end);
    // Busy-waiting on the counter (a64_cpu_poll.cpp).
    std::optional<a64_poll_loop> poll_loop_at(uint64_t address);
    bool starts_poll_loop(uint64_t address, const block_info &b);
    void skip_polls(uint64_t address);
    void check_state(bool eret);
    // Exceptions (a64_cpu_exceptions.cpp).
    void take_exception(unsigned target_el, uint32_t ec, uint32_t iss, uint64_t preferred_return,
                        unsigned vector_type, bool il = true, bool far_valid = false,
                        uint64_t far = 0);
    void take_sync(uint32_t ec, uint32_t iss, uint64_t preferred_return, bool il = true,
                   bool far_valid = false, uint64_t far = 0);
    uint64_t scr_el3_value();
    unsigned interrupt_target(uint64_t scr_bit, uint64_t hcr_bit);
    bool interrupt_taken(unsigned target, uint64_t mask);
    bool irq_deliverable();
    void take_irq();
    void take_serror();
    void handle_stop(const a64_stop &stop);
    void handle_exception(const a64_stop &stop);
    bool psci_conduit(a64_exception e) const;
    bool hvc_undefined();
    bool psci_call(uint64_t pc_next);
    // Semihosting (a64_cpu_semihosting.cpp): the HLT #0xF000 at pc.
    bool semihosting_call(uint64_t pc);
    bool read_guest(uint64_t va, void *dst, size_t n);
    // The Profiling exceptions, PSTATE.PM and PPEND (a64_cpu_profiling.cpp).
    struct profiling_request final : pmtrace::exception_request_if {
        a64_cpu *cpu = nullptr;
        bool pending = false;
        unsigned target_el = 0;
        void set_exception_request(bool p, unsigned el) override;
    };
    struct trbe_walker final : pmtrace::trbe_translation_if {
        a64_cpu *cpu = nullptr;
        pmt_trbe_translation translate(uint64_t va, const pmt_trbe_regime &regime) override;
    };
    trbe_walker trbe_walker_;
    pmt_trbe_translation trbe_translate(uint64_t va, const pmt_trbe_regime &regime);
    bool have_pm() const { return config_.ebep || config_.trbe_exc; }
    void profiling_requested(bool pending);
    bool profiling_pending() const { return pmu_request_.pending || trbe_request_.pending; }
    void take_profiling_exceptions();
    void take_profiling(unsigned target_el, uint32_t fsc, bool synchronous);
    void profiling_after_run();
    void profiling_on_entry(unsigned target_el, uint64_t spsr_value);
    void profiling_on_eret(uint64_t eret_pc);
    bool pm_instruction(uint64_t pc);
    void set_pm(bool pm);
    void stop_before_next();
    // Devices (a64_cpu_device.cpp).
    void device_insn_done();
    bool device_error(uint64_t va);
    void take_external_abort(uint64_t pc, uint64_t va, bool write);
    void bus_error_stop();
    void retire_one(uint32_t insn, uint64_t pc);
    bool find_device_insn(const a64_stop &stop, uint64_t &pc, uint32_t &insn);
    bool bus_access(bool write, uint64_t address, unsigned size, uint64_t &value);
    // n stall cycles of `kind` (STALL_FRONTEND or STALL_BACKEND), and of STALL, ending now.
    void count_stall(uint16_t kind, uint64_t n);
    // The MMU's side: regimes, translation for the model's own accesses, aborts
    // (a64_cpu_abort.cpp).
    unsigned sync_target_el();
    a64_stage1_regime regime(unsigned el);
    a64_translation translate(uint64_t va, unsigned size, bool write, bool fetch);
    bool read_code(uint64_t va, uint32_t &insn);
    // Up to n instructions from va on (stopping where a page does not translate): how many.
    size_t read_code(uint64_t va, uint32_t *words, size_t n);
    bool code_pa(uint64_t va, uint64_t &pa);
    uint64_t data_pa(uint64_t va, unsigned size, bool write);
    void take_abort(const a64_stop &stop);
    unsigned regime_number(unsigned el);
    void fetch_stop(const a64_stop &stop);
    bool is_ram(uint64_t pa, uint64_t size) const;
    // Self-hosted debug (a64_cpu_debug.cpp).
    static bool debug_register(const a64_sysreg_access &a);
    void debug_configure();
    void debug_refresh_os_lock();
    void debug_mdcr(const a64_sysreg_access &a, uint64_t &value, bool ok);
    a64_sysreg_action debug_sysreg(const a64_sysreg_access &a, uint64_t &value);
    bool debug_route_to_el2();
    unsigned debug_target_el();
    bool debug_exceptions_enabled();
    bool debug_in_use() const { return (debug_.mdscr & (mdscr_mde | mdscr_ss)) != 0; }
    a64_debug_context debug_context();
    void debug_plan();
    void debug_replan();
    uint64_t debug_stop(uint64_t address, uint32_t size);
    void debug_check(uint64_t pc);
    void take_debug(uint32_t ec_lower, uint32_t iss, uint64_t preferred_return,
                    bool far_valid = false, uint64_t far_value = 0);
    void step_after_run();
    void take_step_if_pending();
    uint64_t step_on_entry();
    void step_on_eret(unsigned from_el);
    // The progress guard (a64_cpu_config::no_progress_limit).
    void check_progress(const a64_stop &stop);
    // System registers (a64_cpu_sysreg.cpp).
    a64_sysreg_action model_sysreg(const a64_sysreg_access &a, uint64_t &value);
    bool id_register(const a64_sysreg_access &a, uint64_t &value);
    bool id_group3_trapped(const a64_sysreg_access &a);
    uint32_t sysreg_iss(const a64_sysreg_access &a) const;
    a64_sysreg_action undefined();
    a64_sysreg_action sysreg_trap(const a64_sysreg_access &a, unsigned target);
    bool dc_zva_faults(uint64_t xt);
    // Encodings (op0:op1:CRn:CRm:op2, 16 bits) the PE model answered PMT_ACCESS_NOT_MINE for.
    static size_t sysreg_index(const a64_sysreg_access &a)
    {
        return size_t{a.op0} << 14 | size_t{a.op1} << 11 | size_t{a.crn} << 7 | size_t{a.crm} << 3 |
               a.op2;
    }
    std::array<uint64_t, 65536 / 64> not_mine_{};

    unsigned current_el();
    pmt_pe_state pe_state_for(unsigned el);
    void trap_controls(pmt_pe_state &s);
    void refresh_trap_controls(const sc_core::sc_time &t);

    // The trace listeners' reports (a64_cpu_trace.cpp). Every call is behind `tracing_`.
    // A listener that joined a running trace at `from`, until its first report.
    struct trace_late {
        a64_trace_listener *listener = nullptr;
        uint64_t from = 0;
    };
    void update_trace_listeners(uint64_t from);
    void join_trace(a64_trace_listener *listener, uint64_t from);
    static uint64_t late_start(const trace_late &l, uint64_t start, uint64_t last);
    void trace_retired(uint64_t begin, uint64_t end, bool counted = false);
    void trace_whole(const block_info &b, uint64_t next);
    void trace_repeats(const block_info &b, uint64_t runs);
    void trace_next(uint64_t next);
    void trace_sync(uint64_t at);
    void trace_emit(const a64_trace_range &r);
    void trace_batch(uint64_t last, const a64_p0 &p, bool taken, uint64_t next);
    void trace_flush()
    {
        if (batch_n_)
            trace_deliver();
    }
    void trace_deliver();
    [[gnu::noinline]] void trace_emit_late(const a64_trace_range &r);
    void trace_context_check(uint64_t next);
    a64_trace_context trace_context_now();
    void trace_exception(unsigned vector_type, uint32_t ec, uint64_t preferred_return,
                         const a64_trace_context &from);
    void trace_end();
    bool trace_context_write(const a64_sysreg_access &a, uint64_t value);

    a64_cpu_config config_;
    std::unique_ptr<a64_engine> engine_;
    tlm_utils::tlm_quantumkeeper qk_;
    gic_cpu_interface *icc_ = nullptr;
    generic_timer *timer_ = nullptr;
    peek_function peek_;
    std::string error_;
    a64_cpu_end end_ = a64_cpu_end::running;
    int exit_status_ = 0;
    a64_cpu_stats stats_;
    bool boot_set_ = false;
    irq_observer irq_observer_;
    uint64_t boot_pc_ = 0;
    std::array<uint64_t, 4> boot_x_{};
    // RAM the engine maps (map_ram): [base, base + size) ranges, physical addresses.
    std::vector<std::pair<uint64_t, uint64_t>> ram_;
    // The progress guard: instructions retired at the last stop, and the stops since.
    uint64_t progress_retired_ = 0, progress_exceptions_ = 0;
    unsigned progress_stops_ = 0;

    // The block running: where it starts and ends; its instructions are counted when the next
    // block starts (or where it was left).
    uint64_t block_begin_ = 0, block_end_ = 0;
    bool block_active_ = false;
    // A system register read the model performed, after which the engine goes on in the block
    // (on_sysreg, on_block_cut).
    bool block_goes_on_ = false, block_resumed_ = false;
    // The block running is current_info_ from its start, and needs nothing at its end
    // (block_info::plain): the next on_block may take the fast path, and while nothing is
    // pending the engine may run it again without calling (repeat_: count_repeats).
    bool fast_ = false;
    a64_block_repeat repeat_;
    // Counts since the CPU started: instructions retired and each block event; what the PE
    // model has been told of them (report). Cumulative, so that retiring a block is additions
    // only and the budget is a comparison with a fixed limit.
    uint64_t retired_ = 0, reported_insns_ = 0;
    // The local time offset when `retired` instructions had retired (retired_offset; those since
    // the last report(), which counts them into the local time, are added).
    sc_core::sc_time offset_at(uint64_t retired) const;
    event_counts events_{};
    std::array<uint64_t, num_block_events> reported_{};
    uint64_t stop_at_ = ~uint64_t{0};         // stop when retired_ reaches this (exactly)
    uint64_t quantum_stop_at_ = ~uint64_t{0}; // stop at the first block boundary from here
    // The block events whose overflow is in reach (bit k: block event k) and, for each, the
    // count at which it overflows (events_[k] at plan() plus the PMU's headroom).
    uint32_t watched_ = 0;
    std::array<uint64_t, num_block_events> limit_{};
    // A block may start on the fast path while retired_ plus its instructions stays below this:
    // no stop (instructions, quantum, a watched event's limit) can come due in it (fast_until).
    uint64_t fast_until_ = 0;
    unsigned el_ = 1; // the Exception level the PE model was last told
    bool pm_ = false; // PSTATE.PM, which the engine does not hold
    profiling_request pmu_request_, trbe_request_;
    bool sync_due_ = false; // RHLYTW: the next instruction takes the PMU exception
    bool bad_profiling_target_ = false;
    uint64_t last_retired_ = 0;    // the address of the last instruction retired
    uint64_t retire_reported_ = 0; // retired_ when the PE model was last told (FEAT_SEBEP)
    bool irq_level_ = false;
    bool serror_pending_ = false;
    bool pending_exception_ = false; // a sysreg access stopped for an exception
    uint32_t pending_ec_ = 0, pending_iss_ = 0;
    unsigned pending_target_ = 1;
    bool pending_far_valid_ = false; // FAR of the pending exception (to EL1 by take_sync)
    uint64_t pending_far_ = 0;
    bool in_engine_ = false;
    // The load or store whose device accesses are in progress (on_device_access): the engine
    // may pass one access in parts, and a pair's elements one by one.
    struct device_insn {
        bool active = false, write = false;
        uint64_t pc = 0, va = 0;
        uint32_t insn = 0;
        unsigned size = 0, count = 0, left = 0; // element size, elements, bytes not yet seen
        uint64_t pa[2] = {0, 0}, value[2] = {0, 0};
        bool whole[2] = {false, false}; // performed whole at its first part (value)
    } device_insn_;
    // A device access that answered an error: the External abort to take (bus_error_stop).
    struct {
        bool pending = false;
        uint64_t pc = 0, va = 0;
        bool write = false;
    } abort_;
    sc_core::sc_event wake_;
    // What each block holds, decoded once (a direct-mapped cache by address). What on_block's
    // fast path reads comes first (the look-up, the counts), so that a block costs the host few
    // cache lines.
    struct block_info {
        uint64_t address = ~uint64_t{0};
        uint64_t generation = 0; // code_generation_ when it was decoded
        uint32_t size = 0;
        uint32_t insns = 0;
        // Nothing to do at its end or inside it (no ERET or PSTATE write last, no TSB CSYNC, no
        // Store-Exclusive): retiring it whole is additions only.
        bool plain = false;
        uint32_t last_class = 0;
        event_counts events{};
        uint32_t classes = 0; // of all its instructions
        // Where the block must end (bytes from its start; 0: nowhere): after a store-exclusive
        // whose status register a later instruction of the block may write.
        uint32_t exclusive_cut = 0;
        // The status registers (Ws) of its store-exclusives, in order; num_stxr counts them all
        // (more than stxr_ws holds: their registers are read from the code when it retires).
        std::array<uint8_t, 4> stxr_ws{};
        uint32_t num_stxr = 0;
        // For the trace listeners (a64_cpu_trace.cpp): the P0 element its last instruction is
        // (kind none: it is none), that instruction, and whether one comes before it.
        a64_p0 last_p0;
        uint32_t last_insn = 0;
        bool inner_p0 = false;
        // It starts a loop that polls the counter (a64_poll_loop.h); not plain then.
        bool poll = false;
    };
    // Direct-mapped by a hash of the address: OS code runs thousands of blocks between two
    // visits to one (a busybox sh loop's iteration: about 3,000, kernel and user), spread over
    // pages whose offsets collide (docs/performance.md, "Linux user space").
    static constexpr unsigned block_cache_bits = 16;
    static constexpr size_t block_cache_size = size_t{1} << block_cache_bits;
    static size_t block_slot(uint64_t address)
    {
        return static_cast<size_t>(((address >> 2) * 0x9E3779B97F4A7C15ull) >>
                                   (64 - block_cache_bits));
    }
    const block_info &info(uint64_t address, uint32_t size);
    void count_range(uint64_t begin, uint64_t end, block_info &counts);
    template <typename F> void for_each_insn(uint64_t begin, uint64_t end, F &&f);
    std::vector<block_info> blocks_;
    const block_info *current_info_ = nullptr;
    // What the CPU decoded by virtual address (blocks_, code_page_) holds until the code or the
    // translation may change: a TLB or instruction cache maintenance instruction, a write to a
    // register of the translation regime (SCTLR, HCR, TTBRx, TCR, MAIR, ...: a process switch
    // writes TTBR0). Each adds one (code_may_change).
    uint64_t code_generation_ = 1;
    void code_may_change(const a64_sysreg_access &a);
    // The last page read_code translated: as a TLB holds a translation until maintenance.
    struct {
        uint64_t va = ~uint64_t{0}, pa = 0, generation = 0;
        unsigned el = 4;
    } code_page_;

    // Trace listeners (a64_cpu_trace.cpp). The open range: instructions [range_start_,
    // range_end_) executed since the last report; a branch that ended it whose outcome is known
    // only from where the next block starts (pending_).
    std::vector<a64_trace_listener *> attached_;  // every listener attached
    std::vector<a64_trace_listener *> listeners_; // those that want reports, which they get
    bool tracing_ = false;                        // !listeners_.empty()
    bool trace_synced_ = false;
    uint64_t range_start_ = 0, range_end_ = 0;
    // Where a listener that joined starts (the instruction after the write that enabled its
    // trace unit; 0: at the next instruction seen): trace_from_ while no listener is synced,
    // late_ for those joining a running trace, until their first report (trace_emit_late).
    uint64_t trace_from_ = 0;
    std::vector<trace_late> late_;
    trace_late *late_of(a64_trace_listener *listener);
    struct trace_pending {
        bool valid = false;
        uint64_t last = 0;
        uint32_t insn = 0;
        a64_p0 p0;
    } pending_;
    a64_trace_context trace_context_{};
    bool trace_context_due_ = false; // an MSR changed the context: report it after the MSR
    // The ranges of on_block's fast path the listeners have not got yet, with their times
    // (trace_batch; trace_flush gives them before anything else reaches a listener or the
    // platform).
    std::vector<a64_trace_range> batch_;
    size_t batch_n_ = 0;
    // The value of retired_ when the range trace_emit reports ended, when that is not now (0:
    // now): a P0 element inside the instructions trace_retired reports, the runs trace_repeats
    // reports. Such a range goes through the batch with its time (a trace unit's cycle counts
    // need each P0 element's).
    uint64_t trace_stamp_ = 0;
    // Their times: retired_ when each ended.
    struct batch_times final : a64_trace_times {
        const a64_cpu *cpu = nullptr;
        std::vector<uint64_t> retired;
        sc_core::sc_time offset(size_t i) const override { return cpu->offset_at(retired[i]); }
    } batch_times_;
    std::unique_ptr<a64_exec_log> exec_log_;

    // Self-hosted debug (a64_cpu_debug.cpp): the registers, what the PE implements, what the
    // run must look at (plan), PSTATE.SS and the software step state machine.
    a64_self_hosted_debug debug_;
    a64_debug_pe debug_pe_;
    uint64_t mdcr_el2_ = 0, mdcr_el3_ = 0; // as written: the debug fields are the CPU's
    bool os_locked_ = true;                // OSLSR_EL1.OSLK or DoubleLockStatus()
    bool debug_bp_armed_ = false, debug_wp_armed_ = false;
    // The instruction checked (debug_check) when retired_ was debug_checked_at_: it runs
    // without a new check.
    uint64_t debug_checked_pc_ = ~uint64_t{0}, debug_checked_at_ = 0;
    bool pstate_ss_ = false;
    bool step_active_ = false; // this run steps one instruction (active-not-pending)
    uint64_t step_retired_ = 0;
    bool step_stepped_ = false, step_ex_ = false; // the syndrome: ISV, EX
    bool eret_mask_ = true; // PSTATE.D where the last ERET ran (with MDSCR_EL1.SS)
};

} // namespace pmtrace::platform

#endif
