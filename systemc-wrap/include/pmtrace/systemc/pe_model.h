// pe_model.h - one PE's Performance Monitors as a SystemC/TLM-2.0 module.
//
// The module owns one pmt_pe (the C core, which holds all architectural state) and adds time
// and transport: TLM-2.0 target sockets for the external PMU frame and the debug frame's PC
// sample registers, sc_exports a CPU model calls, and output ports. docs/systemc.md shows how
// to wire it into a platform.
#ifndef PMTRACE_SYSTEMC_PE_MODEL_H
#define PMTRACE_SYSTEMC_PE_MODEL_H

#include <pmtrace/pmtrace.h>
#include <pmtrace/systemc/access_extension.h>
#include <pmtrace/systemc/cpu_if.h>
#include <pmtrace/systemc/cycle_clock.h>
#include <pmtrace/systemc/outputs.h>

#include <array>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace pmtrace
{

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
};

class pe_model : public sc_core::sc_module,
                 public sysreg_if,
                 public pmu_event_if,
                 public pe_state_if,
                 public sync_profiling_if,
                 public pc_sample_if,
                 public snapshot_request_if,
                 public spe_state_if,
                 public reset_if
{
  public:
    using frame_socket = tlm_utils::simple_target_socket_tagged_optional<pe_model>;

    // Frame sockets may stay unbound (a platform without a debugger, say).
    // The external PMU frame (I5.2), 4 KB: the address of a transaction is the offset in the
    // frame. 4-byte accesses, and 8-byte accesses to 64-bit registers in the EXT64 layout.
    frame_socket pmu_frame;
    // The external debug frame (H9.2), 4 KB: only the PC sample registers when
    // core.pcsr == PMT_PCSR_DEBUG_FRAME; every other offset answers an address error (the
    // platform's debug unit owns the rest of the frame).
    frame_socket debug_frame;
    // The Trace Buffer's frame, initiator socket and trace sink follow here with FEAT_TRBE.

    // What a CPU model calls. All are bound to this module.
    sc_core::sc_export<sysreg_if> sysreg;
    sc_core::sc_export<pmu_event_if> events;
    sc_core::sc_export<pe_state_if> state;
    sc_core::sc_export<sync_profiling_if> profiling;
    sc_core::sc_export<pc_sample_if> pc_samples;
    sc_core::sc_export<snapshot_request_if> snapshot;
    sc_core::sc_export<spe_state_if> spe;
    sc_core::sc_export<reset_if> reset_in;

    // Outputs; each may stay unbound.
    level_output pmuirq;                    // PMUIRQ (D13.3.1), level-sensitive
    exception_request_output pmu_exception; // the PMU Profiling exception (FEAT_EBEP)
    cti_trigger_output cti_pmu_overflow;    // CTI input trigger 1 (H5.4.4)
    event_output brbe_freeze;               // BRBE freeze on overflow (ShouldBRBEFreeze)
    event_output brbe_capture_freeze;       // BRBE freeze on a PMU snapshot (RLBQZR)
    level_output halt_request;              // PMU overflow external debug request
    generated_event_output generated;       // PMU_OVFS, PMU_HOVFS for a trace unit

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
    // sync_profiling_if
    bool sync_exception_due() const override;
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

    // Traces the output lines (their views) and the PMU exception's target EL into a VCD.
    void trace(sc_core::sc_trace_file *file) const override;
    // On request, also the counters (PMEVCNTR<n>_EL0, PMCCNTR_EL0, PMICNTR_EL0 with
    // FEAT_PMUv3_ICNTR), sampled every `interval` of simulated time and at every overflow.
    // Before simulation starts (sc_trace's rule); one sampling process, only when asked for.
    void trace_counters(sc_core::sc_trace_file *file, const sc_core::sc_time &interval);

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

  private:
    enum frame_id { PMU_FRAME = 0, DEBUG_FRAME = 1 };

    void start_of_simulation() override;
    // Counts the cycles up to sc_time_stamp() + offset: every call starts with this.
    void advance(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        uint64_t n = clock_.advance_to(simcontext_->time_stamp() + offset);
        if (n)
            pmt_pmu_count(pe_, PMT_EV_CPU_CYCLES, n);
    }
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
    void core_log(const char *message);
    void log_sysreg(pmt_sysreg encoding, uint64_t value, bool write) const;

    pe_model_config config_;
    sc_core::sc_simcontext *simcontext_; // sc_time_stamp() without a call into the library
    pmt_pe *pe_ = nullptr;
    cycle_clock clock_;
    sc_core::sc_event overflow_event_;
    uint64_t overflow_due_ = cycle_clock::never; // the cycle the event is armed for
    std::vector<unsigned char> saved_;           // transport_dbg's save area
    source_function pc_source_;
    // trace_counters: the values traced, by counter id (31: PMCCNTR, 32: PMICNTR).
    std::array<uint64_t, 33> traced_counters_{};
    sc_core::sc_event sample_event_;
    sc_core::sc_time sample_interval_;
    std::string create_error_; // the core's reason for refusing a config
    bool creating_ = false;
    bool cycles_event_warned_ = false;
};

} // namespace pmtrace

#endif
