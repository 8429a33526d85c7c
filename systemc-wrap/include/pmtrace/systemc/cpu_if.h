// cpu_if.h - the interfaces a CPU model (or another unit of the platform) calls on a pe_model,
// each offered as an sc_export of the module.
//
// Every call that can change what the PMU counts takes the caller's local time offset (the
// offset of a temporally decoupled initiator, SC_ZERO_TIME otherwise). The model first counts
// the clock cycles up to sc_time_stamp() + offset, then performs the call: the call happens at
// that simulated time (docs/systemc.md, "Time").
#ifndef PMTRACE_SYSTEMC_CPU_IF_H
#define PMTRACE_SYSTEMC_CPU_IF_H

#include <pmtrace/pmtrace.h>

#include <functional>
#include <systemc>

namespace pmtrace
{

// MRS and MSR of the registers the model owns, by encoding, at the current PE state. Returns
// PMT_ACCESS_OK (a read's value is valid), UNDEFINED, TRAP_EL1/2/3 (the CPU takes the trap), or
// NOT_MINE (an encoding of the CPU's own).
class sysreg_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_access read_sysreg(pmt_sysreg encoding, uint64_t &value,
                                   const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    virtual pmt_access write_sysreg(pmt_sysreg encoding, uint64_t value,
                                    const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// n occurrences of an event at the current PE state, at sc_time_stamp() + offset. The cost does
// not depend on n. CPU_CYCLES is not reported here: the model's clock drives it (PMT_ERR_ARG).
// Events the PMU generates itself (SW_INCR, CHAIN, ...) are refused with PMT_ERR_ARG too.
class pmu_event_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_status count_event(uint16_t event, uint64_t n,
                                   const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// The PE state the PMU depends on (Exception level, Security state, Debug state, PSTATE.PM, the
// OS Lock, ...), pushed whenever it changes.
class pe_state_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_status set_pe_state(const pmt_pe_state &state,
                                    const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    virtual pmt_pe_state pe_state() const = 0;
    // A Context synchronization event (ISB; pmt_pe_context_sync). An implementation that has
    // no use for them need not override it.
    virtual pmt_status context_sync(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        (void)offset;
        return PMT_OK;
    }
};

// Synchronous profiling (FEAT_SEBEP) and the PPEND bookkeeping of FEAT_EBEP: the calls of
// pmt_pmu_exception.h with the caller's time. `after` is the PE state that follows the event.
class sync_profiling_if : public virtual sc_core::sc_interface
{
  public:
    // RHLYTW: take the PMU exception before the next instruction.
    virtual bool sync_exception_due() const = 0;
    // The PMU Profiling exception at the current PE state (enabled, its target Exception level,
    // masked, PSTATE.PPEND ...): where a synchronous one is taken.
    virtual pmt_pmu_exception_state pmu_exception_state() const = 0;
    // The instruction at `address` retires after its events were counted (RNZLVW).
    virtual pmt_status retire(uint64_t address, bool generates_exception, bool &sync_due,
                              const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // Exception entry (RBVBYS): spsr_ppend is the value for SPSR_ELx[33].
    virtual pmt_status exception_entry(const pmt_pe_state &after, bool &spsr_ppend,
                                       const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    // Exception return (Table D13-2), also an illegal one.
    virtual pmt_status exception_return(bool spsr_ppend, const pmt_pe_state &after,
                                        uint64_t address, bool &sync_due,
                                        const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    virtual pmt_status debug_entry(bool aarch32, const pmt_pe_state &after, bool &dspsr_ppend,
                                   const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
    virtual pmt_status debug_exit(bool aarch32, bool dspsr_ppend, const pmt_pe_state &after,
                                  const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// PC sample-based profiling: the CPU reports samples (CreatePCSample), or lets the model ask
// for one when a sample register is read. The source must not call the model.
class pc_sample_if : public virtual sc_core::sc_interface
{
  public:
    using source_function = std::function<bool(pmt_pc_sample &sample)>;
    virtual pmt_status pc_sample(const pmt_pc_sample &sample) = 0;
    // An empty function removes the source.
    virtual pmt_status set_pc_sample_source(source_function source) = 0;
};

// The platform's external PMU snapshot request (RSCLCQ), at sc_time_stamp() + offset.
class snapshot_request_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_status snapshot_request(const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// The Statistical Profiling Extension's buffer state, for freezing on an SPE event:
// PMBLIMITR_EL1.E, PMBLIMITR_EL1.PMFZ, PMBSR_EL1.S.
class spe_state_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_status set_spe_state(bool pmblimitr_e, bool pmblimitr_pmfz, bool pmbsr_s,
                                     const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME) = 0;
};

// Cold reset: every register of the model to its architectural reset value.
class reset_if : public virtual sc_core::sc_interface
{
  public:
    virtual void reset() = 0;
};

} // namespace pmtrace

#endif
