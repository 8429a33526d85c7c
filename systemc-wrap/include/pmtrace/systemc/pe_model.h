// pe_model.h - one PE's Performance Monitors and Trace Buffer Unit as a SystemC/TLM-2.0 module.
//
// The module owns one pmt_pe (the C core, which holds all architectural state) and adds time
// and transport: TLM-2.0 target sockets for the external PMU frame, the debug frame's PC
// sample registers and the external Trace Buffer frame, a TLM-2.0 initiator socket for trace
// buffer writes, sc_exports a CPU model and a trace unit call, and output ports.
// docs/systemc.md shows how to wire it into a platform.
#ifndef PMTRACE_SYSTEMC_PE_MODEL_H
#define PMTRACE_SYSTEMC_PE_MODEL_H

#include <pmtrace/pmtrace.h>
#include <pmtrace/systemc/access_extension.h>
#include <pmtrace/systemc/cpu_if.h>
#include <pmtrace/systemc/cycle_clock.h>
#include <pmtrace/systemc/ete_if.h>
#include <pmtrace/systemc/log.h>
#include <pmtrace/systemc/outputs.h>
#include <pmtrace/systemc/trbe_if.h>

#include <array>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace pmtrace
{

// What a TLM error response to a trace buffer write is for the core: a synchronous or an
// asynchronous External abort (pmt_trbe_write_result). The core then handles it by
// core.trbe.ext_abort (ignore, SError, or reported to the Trace Buffer Unit).
enum class trace_write_abort { synchronous, asynchronous };

// What the trace bus initiator did (for tests, benchmarks and statistics).
struct trace_bus_stats {
    uint64_t transactions = 0;    // b_transport calls
    uint64_t transport_bytes = 0; // bytes written by b_transport
    uint64_t dmi_bytes = 0;       // bytes written through DMI pointers
    uint64_t dmi_requests = 0;    // get_direct_mem_ptr calls
    uint64_t dmi_grants = 0;      // ... that granted write access
    uint64_t invalidations = 0;   // invalidate_direct_mem_ptr calls received
    uint64_t errors = 0;          // responses other than TLM_OK_RESPONSE
};

struct pe_model_config {
    // The core's configuration: features, counters, IMPLEMENTATION DEFINED choices, the frame
    // layout (core.ext_layout: EXT32 or EXT64) and where the PC sample registers are.
    pmt_pe_config core = pmt_pe_config_default();
    // One processor cycle: PMCCNTR_EL0 and CPU_CYCLES advance once per period of simulated time.
    sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
    // Added to the delay of every b_transport through a register frame socket.
    sc_core::sc_time frame_latency = sc_core::sc_time(10, sc_core::SC_NS);
    // Register accesses are logged as SC_INFO reports at this verbosity (docs/systemc.md).
    int access_verbosity = sc_core::SC_HIGH;
    // The severity of the core's lines about UNPREDICTABLE programming and bad input: SC_WARNING
    // (they name the rule), or SC_INFO for a platform that expects such programming.
    sc_core::sc_severity core_log_severity = sc_core::SC_WARNING;
    // The Trace Buffer Unit (core.trbe.feat_trbe): what a TLM error response to a trace buffer
    // write is (docs/systemc.md, "Trace buffer writes").
    trace_write_abort trace_write_error = trace_write_abort::synchronous;
    // Trace buffer writes use DMI where the target grants it (else always b_transport).
    bool trace_dmi = true;
};

class pe_model : public sc_core::sc_module,
                 public sysreg_if,
                 public pmu_event_if,
                 public pe_state_if,
                 public sync_profiling_if,
                 public pc_sample_if,
                 public snapshot_request_if,
                 public spe_state_if,
                 public reset_if,
                 public trace_sink_if,
                 public trbe_cpu_if,
                 public ete_report_if
{
  public:
    using frame_socket = tlm_utils::simple_target_socket_tagged_optional<pe_model>;

    // This instance's log: its verbosity (register accesses at config.access_verbosity) and its
    // warnings, each kind reported once with a count (log.h, docs/systemc.md "Logging").
    module_log &log() { return log_; }
    using bus_socket = tlm_utils::simple_initiator_socket_optional<pe_model>;

    // Frame sockets may stay unbound (a platform without a debugger, say).
    // The external PMU frame (I5.2), 4 KB: the address of a transaction is the offset in the
    // frame. 4-byte accesses, and 8-byte accesses to 64-bit registers in the EXT64 layout.
    frame_socket pmu_frame;
    // The external debug frame (H9.2), 4 KB: only the PC sample registers when
    // core.pcsr == PMT_PCSR_DEBUG_FRAME; every other offset answers an address error (the
    // platform's debug unit owns the rest of the frame).
    frame_socket debug_frame;
    // The external Trace Buffer frame (H9.4) with FEAT_TRBE_EXT, 4 KB; without it every access
    // answers an address error.
    frame_socket trbe_frame;

    // The Trace Buffer Unit's memory port (FEAT_TRBE). trace_bus writes the trace buffer:
    // physical addresses, in TRBIDR_EL1.Align units, through DMI where granted, else
    // b_transport; an access_extension carries the physical address space. Unbound: the bytes
    // are dropped. translation: the MMU model (identity when unbound).
    bus_socket trace_bus;
    optional_port<trbe_translation_if> translation;

    // What a CPU model calls. All are bound to this module.
    sc_core::sc_export<sysreg_if> sysreg;
    sc_core::sc_export<pmu_event_if> events;
    sc_core::sc_export<pe_state_if> state;
    sc_core::sc_export<sync_profiling_if> profiling;
    sc_core::sc_export<pc_sample_if> pc_samples;
    sc_core::sc_export<snapshot_request_if> snapshot;
    sc_core::sc_export<spe_state_if> spe;
    sc_core::sc_export<reset_if> reset_in;
    // What a trace unit calls (trace bytes, Detected Trigger, flush completion), and what the
    // CPU calls for the Trace Buffer Unit (TSB CSYNC, ...).
    sc_core::sc_export<trace_sink_if> trace_sink;
    sc_core::sc_export<trbe_cpu_if> trbe;
    // The trace unit (core.ete.feat_ete): what the CPU reports of the code it executes; the
    // unit's trace goes to the Trace Buffer Unit inside the model. timestamps: the Generic
    // Timer's count (unbound: no Timestamp packets, ete_if.h).
    sc_core::sc_export<ete_report_if> ete;
    optional_port<ete_timestamp_if> timestamps;

    // Outputs; each may stay unbound.
    level_output pmuirq;                       // PMUIRQ (D13.3.1), level-sensitive
    exception_request_output pmu_exception;    // the PMU Profiling exception (FEAT_EBEP)
    cti_trigger_output cti_pmu_overflow;       // CTI input trigger 1 (H5.4.4)
    event_output brbe_freeze;                  // BRBE freeze on overflow (ShouldBRBEFreeze)
    event_output brbe_capture_freeze;          // BRBE freeze on a PMU snapshot (RLBQZR)
    level_output halt_request;                 // PMU overflow external debug request
    generated_event_output generated;          // PMU_OVFS, PMU_HOVFS, TRB_WRAP, TRB_TRIG
    level_output trbirq;                       // TRBIRQ (RLRTBP), level-sensitive
    exception_request_output trbe_exception;   // the TRBE Profiling exception (FEAT_TRBE_EXC)
    event_output serror;                       // an SError from a trace write's External abort
    cti_event_output cti_trbe_stopped;         // CTI input trigger 8 (H5.4.9), FEAT_TRBE_EXT
    cti_event_output cti_trbe_management;      // CTI input trigger 9 (H5.4.10)
    cti_event_output cti_trbe_wrap;            // CTI input trigger 10 (H5.4.11)
    optional_port<trace_flush_if> trace_flush; // the trace unit flush request (RXRRWP)

    pe_model(const sc_core::sc_module_name &name, const pe_model_config &config = {});
    ~pe_model() override;
    pe_model(const pe_model &) = delete;
    pe_model &operator=(const pe_model &) = delete;

    // sysreg_if
    pmt_access read_sysreg(pmt_sysreg encoding, uint64_t &value,
                           const sc_core::sc_time &offset) override;
    pmt_access write_sysreg(pmt_sysreg encoding, uint64_t value,
                            const sc_core::sc_time &offset) override;
    // pmu_event_if
    pmt_status count_event(uint16_t event, uint64_t n, const sc_core::sc_time &offset) override;
    // pe_state_if
    pmt_status set_pe_state(const pmt_pe_state &state, const sc_core::sc_time &offset) override;
    pmt_pe_state pe_state() const override;
    pmt_status context_sync(const sc_core::sc_time &offset) override;
    // sync_profiling_if
    bool sync_exception_due() const override;
    pmt_pmu_exception_state pmu_exception_state() const override;
    pmt_status retire(uint64_t address, bool generates_exception, bool &sync_due,
                      const sc_core::sc_time &offset) override;
    pmt_status exception_entry(const pmt_pe_state &after, bool &spsr_ppend,
                               const sc_core::sc_time &offset) override;
    pmt_status exception_return(bool spsr_ppend, const pmt_pe_state &after, uint64_t address,
                                bool &sync_due, const sc_core::sc_time &offset) override;
    pmt_status debug_entry(bool aarch32, const pmt_pe_state &after, bool &dspsr_ppend,
                           const sc_core::sc_time &offset) override;
    pmt_status debug_exit(bool aarch32, bool dspsr_ppend, const pmt_pe_state &after,
                          const sc_core::sc_time &offset) override;
    // pc_sample_if
    pmt_status pc_sample(const pmt_pc_sample &sample) override;
    pmt_status set_pc_sample_source(source_function source) override;
    // snapshot_request_if
    pmt_status snapshot_request(const sc_core::sc_time &offset) override;
    // spe_state_if
    pmt_status set_spe_state(bool pmblimitr_e, bool pmblimitr_pmfz, bool pmbsr_s,
                             const sc_core::sc_time &offset) override;
    // reset_if: the core's cold reset at the current simulated time.
    void reset() override;
    // trace_sink_if, at sc_time_stamp() + offset. Called from inside the model's own call (a
    // trace unit answering flush_request at once), the call is performed one delta cycle later.
    void trace_bytes(const uint8_t *data, size_t n,
                     const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) override;
    void detected_trigger(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) override;
    void flush_complete(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) override;
    // trbe_cpu_if
    pmt_status tsb_csync(const sc_core::sc_time &offset) override;
    pmt_status external_abort(unsigned stage, const sc_core::sc_time &offset) override;
    pmt_status impdef_event(uint16_t mss, uint32_t mss2, const sc_core::sc_time &offset) override;
    pmt_trbe_status trbe_status() const override;
    // ete_report_if
    pmt_status report_range(const pmt_ete_range &range, const sc_core::sc_time &offset) override;
    size_t report_ranges_held(const pmt_ete_range *ranges, size_t n) override;
    bool wants_reports() override;
    pmt_status report_exception(const pmt_ete_exception_taken &exception,
                                const sc_core::sc_time &offset) override;
    pmt_status report_context_ids(uint32_t contextidr_el1, uint32_t contextidr_el2,
                                  const sc_core::sc_time &offset) override;
    pmt_status flush_trace(const sc_core::sc_time &offset) override;

    // Traces the output lines (their views) and the PMU exception's target EL into a VCD.
    void trace(sc_core::sc_trace_file *file) const override;
    // On request, also the counters (PMEVCNTR<n>_EL0, PMCCNTR_EL0, PMICNTR_EL0 with
    // FEAT_PMUv3_ICNTR), sampled every `interval` of simulated time and at every overflow.
    // Before simulation starts (sc_trace's rule); one sampling process, only when asked for.
    void trace_counters(sc_core::sc_trace_file *file, const sc_core::sc_time &interval);

    // The PMU's counters as a tool sees them through the PMU frame (pmt_pmu_ext_peek: a Most
    // secure debugger's read that the OS Lock and the other locks do not refuse; no side
    // effects; synchronised first): index n < 31 the event counter PMEVCNTR<n>_EL0 with
    // PMEVTYPER<n>_EL0's event and PMCNTENSET's bit, 31 the cycle counter (PMCCNTR_EL0), 32 the
    // instruction counter (PMICNTR_EL0, with FEAT_PMUv3_ICNTR).
    struct counter_view {
        bool implemented = false;
        bool enabled = false; // PMCNTENSET_EL0 (PMCR_EL0.E and filtering not applied)
        uint16_t event = 0;   // PMEVTYPER<n>_EL0.evtCount; CPU_CYCLES / INST_RETIRED for 31 / 32
        uint64_t value = 0;
    };
    std::array<counter_view, 33> counters();

    // Counts the cycles up to sc_time_stamp() + offset and re-arms the overflow event (a tool
    // that reads the core directly calls this first).
    void sync(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        advance(offset);
        rearm();
    }
    // The core, for tools: pmt_pe_save, pmt_pmu_snapshot_get, pmt_pmu_exception_get ...
    // Changing its state directly bypasses the overflow timing; use the exports for that.
    pmt_pe *core() { return pe_; }
    const pmt_pe *core() const { return pe_; }
    const pe_model_config &config() const { return config_; }
    // Cycles of the PE's clock up to the last synchronisation.
    uint64_t cycles() const { return clock_.cycles(); }
    // When the trace bus initiator's last write completes: its local time (the time of the call
    // that wrote, or the end of the previous write if later, plus the targets' latencies) as an
    // absolute simulated time.
    sc_core::sc_time trace_write_time() const { return write_time_; }
    const trace_bus_stats &trace_stats() const { return trace_stats_; }

    // Save and restore (docs/systemc.md "Save and restore"). save(): the state at the current
    // simulated time - the core's architectural state and the module's own (the clock, the trace
    // bus initiator's local time, trace sink calls waiting for the next delta) - as a versioned,
    // checksummed blob for this build; empty when refused (called from inside a call out of the
    // model). restore(blob), called at the simulated time the blob was saved at, in a model of
    // the same configuration (this one or a twin, in this simulation or another): the model
    // continues from the saved state, its outputs go to the saved levels at once (their targets
    // see the changes) and the overflow event is re-armed. PMT_ERR_STATE_BLOB for a blob that is
    // malformed, of another configuration or saved at another time, PMT_ERR_ARG when called
    // from inside a call out of the model: then nothing changes, and a line says why (at
    // config.core_log_severity). Neither call counts cycles or changes the state it saves.
    std::vector<unsigned char> save();
    pmt_status restore(const std::vector<unsigned char> &blob);

  private:
    module_log log_;
    enum frame_id { PMU_FRAME = 0, DEBUG_FRAME = 1, TRBE_FRAME = 2 };

    void start_of_simulation() override;
    void end_of_simulation() override;
    // Counts the cycles up to sc_time_stamp() + offset: every call starts with this. The outputs
    // the call changes change at that time, the caller's (output_offset). A call past the
    // overflow event's time counts the cycles up to it first (count_to_overflow).
    void advance(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        const sc_core::sc_time at = simcontext_->time_stamp() + offset;
        if (at > overflow_time_)
            count_to_overflow();
        call_offset_ = offset;
        uint64_t n = clock_.advance_to(at);
        if (n)
            pmt_pmu_count(pe_, PMT_EV_CPU_CYCLES, n);
    }
    void count_to_overflow();
    // After any call that may change what overflows when: re-arms the overflow event.
    void rearm()
    {
        uint64_t room = pmt_pmu_headroom(pe_, PMT_EV_CPU_CYCLES);
        uint64_t due = room == UINT64_MAX || room > UINT64_MAX - clock_.cycles()
                           ? cycle_clock::never
                           : clock_.cycles() + room;
        if (due != overflow_due_)
            rearm_at(due);
    }
    void rearm_at(uint64_t due);
    // Save and restore (pe_model_save.cpp).
    uint64_t config_fingerprint() const;
    pmt_status refuse_restore(const char *why, pmt_status status);
    void on_overflow_due();
    void sample_counters();

    // Frames (pe_model_frames.cpp).
    void frame_b_transport(int id, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    unsigned frame_transport_dbg(int id, tlm::tlm_generic_payload &trans);
    bool frame_get_dmi(int id, tlm::tlm_generic_payload &trans, tlm::tlm_dmi &dmi);
    pmt_ext_status frame_access(int id, bool write, uint32_t offset, unsigned size,
                                const access_extension &access, uint64_t &value);

    // Core callbacks (pe_model_callbacks.cpp).
    static pmt_pe_callbacks make_callbacks(pe_model *self);
    static pmt_trbe_callbacks make_trbe_callbacks(pe_model *self);
    static pmt_ete_callbacks make_ete_callbacks(pe_model *self);
    // A report to the trace unit: at sc_time_stamp() + offset, like the trace sink's calls.
    template <typename Call> pmt_status ete_call(const sc_core::sc_time &offset, Call call);
    void core_log(const char *message);
    void log_sysreg(pmt_sysreg encoding, uint64_t value, bool write) const;

    // The Trace Buffer Unit's memory port and trace inputs (pe_model_trbe.cpp).
    struct dmi_region {
        uint64_t start, end; // bus addresses, inclusive
        unsigned char *ptr;  // of start; nullptr: DMI refused over the range
        sc_core::sc_time write_latency;
        pmt_security pas;
    };
    pmt_trbe_write_result trace_write(uint64_t pa, pmt_security pas, const uint8_t *bytes, size_t n,
                                      size_t *done);
    bool transport_unit(uint64_t address, pmt_security pas, const uint8_t *bytes, size_t n,
                        sc_core::sc_time &delay);
    const dmi_region *find_dmi(uint64_t address, pmt_security pas);
    void request_dmi(uint64_t address, pmt_security pas);
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
    pmt_status trace_input(pmt_status status);
    void defer(int what, const uint8_t *data, size_t n, const sc_core::sc_time &offset);
    void run_deferred();
    void perform(int what, const uint8_t *data, size_t n, const sc_core::sc_time &offset);

    // The offset of the call in progress (advance): the time, from sc_time_stamp(), at which the
    // outputs it changes change. The caller's time even when the model's clock is later (a
    // call behind another initiator's: docs/systemc.md, "Time").
    const sc_core::sc_time &output_offset() const { return call_offset_; }

    pe_model_config config_;
    sc_core::sc_simcontext *simcontext_; // sc_time_stamp() without a call into the library
    sc_core::sc_time call_offset_;
    pmt_pe *pe_ = nullptr;
    cycle_clock clock_;
    sc_core::sc_event overflow_event_;
    uint64_t overflow_due_ = cycle_clock::never;              // the cycle the event is armed for
    sc_core::sc_time overflow_time_ = sc_core::sc_max_time(); // when it ends (max: never)
    std::vector<unsigned char> saved_;                        // transport_dbg's save area
    source_function pc_source_;
    // trace_counters: the values traced, by counter id (31: PMCCNTR, 32: PMICNTR).
    std::array<uint64_t, 33> traced_counters_{};
    sc_core::sc_event sample_event_;
    sc_core::sc_time sample_interval_;
    std::string create_error_; // the core's reason for refusing a config
    bool creating_ = false;
    bool cycles_event_warned_ = false;

    // The trace bus initiator.
    tlm::tlm_generic_payload trace_tx_, dmi_tx_; // own an access_extension each
    access_extension *trace_ext_, *dmi_ext_;
    std::vector<unsigned char> unit_; // one alignment unit, the data of a b_transport
    std::vector<dmi_region> dmi_;     // granted and refused ranges, newest last
    size_t dmi_hit_ = 0;              // the region the last write used
    sc_core::sc_time write_time_;     // trace_write_time()
    trace_bus_stats trace_stats_;
    int in_callback_ = 0; // a TRBE callback is calling out of the core
    bool trace_warned_ = false, wait_warned_ = false;
    // Trace sink calls made from inside a callback, performed one delta later.
    enum deferred_kind { DEFER_BYTES, DEFER_TRIGGER, DEFER_FLUSH_COMPLETE, DEFER_KINDS };
    struct deferred_call {
        int what;
        std::vector<uint8_t> bytes;
        sc_core::sc_time offset;
    };
    std::vector<deferred_call> deferred_;
    sc_core::sc_event deferred_event_;
};

} // namespace pmtrace

#endif
