// signal_adapters.h - the model's outputs as SystemC signals, for platforms wired with
// sc_signal<bool> (a GIC of the user's own with sc_in<bool> PPI inputs, a CTI with sc_in<bool>
// trigger inputs, the signal sockets of VCML and qbox behind a signal: docs/systemc.md).
//
// The outputs (outputs.h) call their target in the call of the model that changed them, so the
// caller is whichever process made the change: the CPU's thread for a register write, the
// model's own method for an overflow in the future. An sc_signal accepts one writer process
// (SystemC's E115 otherwise), so an output cannot write a signal itself. An adapter is the one
// writer: it implements the output's interface, remembers what it was told, and its own method
// writes the signal in the next delta cycle of the same time step.
//
// Time: the signal changes at the SystemC time of the call; the call's offset (the time of the
// change, outputs.h) is not waited for, so a temporally decoupled caller (a CPU ahead of SystemC
// time by its local offset) makes the change at its last synchronisation point. Where that
// matters, let the CPU synchronise before calls that change an output, or connect the output's
// interface directly, which the adapters are not needed for (the offset is then the target's to
// use). The outputs' own views (outputs.h) show each change at its time.
#ifndef PMTRACE_SYSTEMC_SIGNAL_ADAPTERS_H
#define PMTRACE_SYSTEMC_SIGNAL_ADAPTERS_H

#include <pmtrace/systemc/outputs.h>

#include <cstdint>
#include <systemc>

namespace pmtrace
{

// A level output (PMUIRQ, TRBIRQ, a halt request) onto a signal: `out` follows every level the
// output delivers, one delta cycle later. Bind the output to the adapter (`pe.pmuirq.bind(a)`)
// and `out` to an sc_signal<bool> (or a parent's sc_out<bool>).
class level_signal_adapter : public sc_core::sc_module, public level_if
{
  public:
    sc_core::sc_out<bool> out;

    explicit level_signal_adapter(const sc_core::sc_module_name &name);
    void set_level(bool level, const sc_core::sc_time &offset) override;
    bool level() const { return level_; }

  private:
    void drive();
    bool level_ = false;
    sc_core::sc_event changed_;
};

// An event output (an SError request, a BRBE freeze) or a CTI trigger output onto a signal, as a
// pulse: each event drives `out` high, and it falls `width` after the last event (events closer
// than `width` make one longer pulse; count() counts every one). A pulse of nonzero width is
// seen by any method sensitive to the signal, unlike a one-delta pulse.
class event_pulse_adapter : public sc_core::sc_module, public event_if, public cti_trigger_if
{
  public:
    sc_core::sc_out<bool> out;

    // `width` must be more than zero (a zero width is taken as 1 ps).
    event_pulse_adapter(const sc_core::sc_module_name &name, const sc_core::sc_time &width);
    void notify_event(const sc_core::sc_time &offset) override;
    void trigger_event(unsigned trigger, const sc_core::sc_time &offset) override;
    uint64_t count() const { return count_; }
    unsigned last_trigger() const { return last_trigger_; }

  private:
    void drive();
    sc_core::sc_time width_;
    sc_core::sc_time until_; // the end of the current pulse
    uint64_t count_ = 0;
    unsigned last_trigger_ = 0;
    sc_core::sc_event rise_, fall_;
};

} // namespace pmtrace

#endif
