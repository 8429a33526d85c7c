// generic_timer.h - the PE's Generic Timer (Arm ARM D12, "The Generic Timer in AArch64 state"):
// the system counter as the PE sees it (CNTFRQ_EL0, CNTPCT_EL0, CNTVCT_EL0 with CNTVOFF_EL2),
// the EL0 and EL1 access controls (CNTKCTL_EL1, CNTHCTL_EL2) and three timers with their
// interrupt lines: the EL1 physical timer (CNTP_*_EL0), the virtual timer (CNTV_*_EL0) and the EL2
// physical timer (CNTHP_*_EL2).
//
// A CPU model routes MRS and MSR of the timer's encodings (generic_timer_regs.h) here with the
// Exception level and the controls of HCR_EL2 they depend on; the answer is the value, or
// UNDEFINED, or a trap to EL1 or EL2, or NOT_MINE for any other encoding. A call acts at
// sc_time_stamp() + offset (the caller's local time offset, as in pmtrace/systemc/cpu_if.h).
//
// The counter is exact: the physical count at simulated time t is floor(t x frequency_hz), in
// integer arithmetic on t's value in the time resolution. Each timer's interrupt line is
// ENABLE && ISTATUS && !IMASK, a level that changes at the exact time its condition changes (one
// scheduled sc_event per timer, re-armed after every write that affects it). On QEMU's virt board
// the lines are GIC PPIs (memory_map.h): CNTP INTID 30, CNTV INTID 27, CNTHP INTID 26.
//
// Not modelled (docs/platform.md, "Generic timer"): FEAT_ECV (CNTPOFF_EL2, CNTPCTSS/CNTVCTSS,
// EL1TVT/EL1TVCT/EL1NVPCT/EL1NVVCT), FEAT_NV traps, the Secure timers (CNTPS_*_EL1, CNTHPS_*,
// CNTHVS_*), FEAT_VHE's EL2 virtual timer (CNTHV_*_EL2) and its redirection of CNTP_*/CNTV_*
// and CNTKCTL_EL1 at EL2 and in the EL2&0 host regime, the *_EL02/_EL12 aliases, the event
// streams, and AArch32.
#ifndef PMTRACE_PLATFORM_GENERIC_TIMER_H
#define PMTRACE_PLATFORM_GENERIC_TIMER_H

#include <pmtrace/systemc/ete_if.h>
#include <pmtrace/systemc/log.h>
#include <pmtrace/platform/timer/generic_timer_regs.h>
#include <pmtrace/platform/bus/signal_if.h>
#include <pmtrace/pmt_types.h>

#include <array>
#include <cstdint>
#include <systemc>

namespace pmtrace::platform
{

struct generic_timer_config {
    // CNTFRQ_EL0's reset value as QEMU's virt board gives it (firmware would write it); the
    // counter ticks at this rate of simulated time. 1 to 0xFFFF'FFFF (CNTFRQ_EL0 holds 32 bits);
    // anything else is refused with one warning and the default used.
    uint64_t frequency_hz = 62'500'000;
    bool have_el2 = true;
    bool have_el3 = true;
};

// The PE state an access depends on, besides its Exception level.
struct timer_pe_state {
    bool el2_enabled = false; // EL2Enabled(): EL2 implemented and enabled in the Security state
    bool hcr_e2h = false;     // HCR_EL2.E2H
    bool hcr_tge = false;     // HCR_EL2.TGE
};

// The same fields of the state a CPU model pushes to the PE model.
inline timer_pe_state timer_pe_state_of(const pmt_pe_state &s)
{
    return timer_pe_state{s.el2_enabled, s.hcr_e2h, s.hcr_tge};
}

class generic_timer : public sc_core::sc_module, public pmtrace::ete_timestamp_if
{
  public:
    level_out cntp_irq;  // EL1 physical timer (CNTP): GIC PPI INTID 30
    level_out cntv_irq;  // virtual timer (CNTV): INTID 27
    level_out cnthp_irq; // EL2 physical timer (CNTHP): INTID 26

    generic_timer(const sc_core::sc_module_name &name,
                  const generic_timer_config &config = generic_timer_config());

    // MRS and MSR by encoding at sc_time_stamp() + offset, from a PE at Exception level `el`
    // (0-3, one the configuration implements; another is UNDEFINED with a warning).
    pmt_access read(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe, uint64_t &value,
                    const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME);
    pmt_access write(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe, uint64_t value,
                     const sc_core::sc_time &offset = sc_core::SC_ZERO_TIME);
    // For a CPU that retires the iterations of a loop polling the counter without running them
    // (docs/cpu.md, "Busy-waiting on the counter"): what an MRS of CNTPCT_EL0 or CNTVCT_EL0
    // (`encoding`) at `el` reads at sc_time_stamp() + offset, with no access logged, and the
    // offset from which it reads `more` (at least 1) more (`next`). false where the MRS would
    // not read the count (a trap, UNDEFINED, another register); `next` saturates at the largest
    // time.
    bool peek_count(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe,
                    const sc_core::sc_time &offset, uint64_t more, uint64_t &value,
                    sc_core::sc_time &next);

    // The physical count at an absolute simulated time (for tools and the trace unit's
    // timestamps).
    uint64_t physical_count(const sc_core::sc_time &t) const;
    // The trace unit's timestamps (ete_if.h): the physical count, or the virtual count
    // (physical - CNTVOFF_EL2); the CoreSight time is the physical count.
    uint64_t timestamp(pmt_ete_timebase timebase, const sc_core::sc_time &at) override;

    // The absolute simulated time of the next scheduled change of an interrupt line (or of a
    // write's effect); sc_max_time() when none is scheduled. A decoupled CPU runs no further
    // before it syncs, so it takes the timer's interrupt on time whatever its quantum.
    sc_core::sc_time next_event() const;

    // Cold reset: CNTFRQ_EL0 = frequency_hz, every timer disabled (CTL.ENABLE = 0); the
    // registers whose reset value is UNKNOWN read 0 (CNTKCTL_EL1, CNTHCTL_EL2, CNTVOFF_EL2, the
    // CVALs, CTL.IMASK). The lines drop at once.
    void reset();

    const generic_timer_config &config() const { return config_; }

    // This component's log: its verbosity, its warnings and their repeats (log.h).
    module_log &log() { return log_; }

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    module_log log_;
    enum timer_index : unsigned { el1_physical, el1_virtual, el2_physical, timer_count };
    struct timer {
        uint64_t ctl = 0; // ENABLE and IMASK; ISTATUS is computed
        uint64_t cval = 0;
        sc_core::sc_event due;                            // the next change of the interrupt line
        sc_core::sc_time due_at = sc_core::sc_max_time(); // when `due` is notified for
        level_out *irq = nullptr;
    };

    static unsigned timer_of(cnt_reg reg);
    uint64_t count_at(const sc_core::sc_time &t) const;
    bool time_of_count(uint64_t count, sc_core::sc_time &t) const;
    uint64_t timer_offset(unsigned i) const;
    bool condition_met(unsigned i, uint64_t physical) const;
    bool next_change(unsigned i, uint64_t physical, uint64_t &at_physical) const;
    void update(unsigned i, const sc_core::sc_time &at);
    void evaluate(unsigned i);
    void on_cntp_due() { evaluate(el1_physical); }
    void on_cntv_due() { evaluate(el1_virtual); }
    void on_cnthp_due() { evaluate(el2_physical); }
    pmt_access check(cnt_reg reg, bool write, unsigned el, const timer_pe_state &pe, bool &in_host);
    uint64_t read_register(cnt_reg reg, bool in_host, const sc_core::sc_time &at) const;
    void write_register(cnt_reg reg, uint64_t value, const sc_core::sc_time &at);
    void log_access(cnt_reg reg, bool write, pmt_access access, uint64_t value) const;

    generic_timer_config config_;
    uint64_t units_per_second_; // sc_time values in one second
    uint64_t cntfrq_ = 0;
    uint64_t cntkctl_ = 0;
    uint64_t cnthctl_ = 0;
    uint64_t cntvoff_ = 0;
    std::array<timer, timer_count> timers_;
    bool vhe_warned_ = false;
};

} // namespace pmtrace::platform

#endif
