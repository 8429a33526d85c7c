// outputs.h - the model's output lines: the interfaces a platform implements to receive them,
// and the ports that call them.
//
// An output port calls its bound target at once, in the call of the model that changed it (a
// register write, a count, the overflow time), and may stay unbound. Each also drives an
// sc_signal<bool> view, only for waveforms (sc_trace); a platform connects to the port, never
// to the view. A trigger or freeze is an event, delivered as one call per event: never a pulse
// on a signal that one delta cycle can lose.
//
// Time: a line's change (a level, an event, a trigger event) happens at sc_time_stamp() + offset,
// where offset is the local time offset of the caller that made it (a temporally decoupled CPU's;
// SC_ZERO_TIME for a change now). The target is called at once and told the offset; the view
// changes when simulated time reaches the change (timed_view.h), so a waveform shows each edge
// at its time whatever the CPU's quantum.
#ifndef PMTRACE_SYSTEMC_OUTPUTS_H
#define PMTRACE_SYSTEMC_OUTPUTS_H

#include <pmtrace/systemc/timed_view.h>

#include <cstdint>
#include <systemc>

namespace pmtrace
{

// A level-sensitive line (PMUIRQ, TRBIRQ, the halt request): called whenever the level changes.
// offset: when, from sc_time_stamp() (the local time offset of the caller that changed it).
class level_if : public virtual sc_core::sc_interface
{
  public:
    virtual void set_level(bool level, const sc_core::sc_time &offset) = 0;
};

// An event (a BRBE freeze event, an SError request): called once per event, at
// sc_time_stamp() + offset.
class event_if : public virtual sc_core::sc_interface
{
  public:
    virtual void notify_event(const sc_core::sc_time &offset) = 0;
};

// The PE's output trigger events to its CTI, numbered as the CTI's input triggers of H5.4
// (1: Performance Monitors overflow; 8, 9, 10: trace buffer stopped, management, wrap). Called
// once per trigger event, at sc_time_stamp() + offset.
class cti_trigger_if : public virtual sc_core::sc_interface
{
  public:
    virtual void trigger_event(unsigned trigger, const sc_core::sc_time &offset) = 0;
};

// A Profiling exception request (the PMU Profiling exception of FEAT_EBEP, the TRBE Profiling
// exception of FEAT_TRBE_EXC): pending, and its target Exception level (meaningful while
// pending). Called when either changes.
class exception_request_if : public virtual sc_core::sc_interface
{
  public:
    virtual void set_exception_request(bool pending, unsigned target_el) = 0;
};

// Events the model generates for a trace unit: PMU_OVFS and PMU_HOVFS (which the PMU cannot
// count itself), TRB_WRAP and TRB_TRIG (D6.1.2; the PMU counts them too).
class generated_event_if : public virtual sc_core::sc_interface
{
  public:
    virtual void generated_event(uint16_t event, uint64_t count) = 0;
};

template <class IF> using optional_port = sc_core::sc_port<IF, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

// A view for waveforms: its edges are at the times of the output's changes (timed_view.h).
using signal_view = timed_view<bool>::signal_type;

// A level output: the port, its current level, and the view that follows it.
class level_output : public optional_port<level_if>
{
  public:
    explicit level_output(const char *name);
    // Sets the level from sc_time_stamp() + offset on; calls the target only when it changes.
    void write(bool level, const sc_core::sc_time &offset);
    bool read() const { return level_; }
    const signal_view &view() const { return view_.signal(); }
    // Calls the target with the current level when it is high and the target has not seen it
    // (once simulation starts, for a level that rose before a hierarchical binding resolved).
    void deliver_if_high();

  private:
    bool level_ = false;
    bool delivered_ = false; // the level the target last got
    timed_view<bool> view_;
};

// An event output. The view toggles on each event.
class event_output : public optional_port<event_if>
{
  public:
    explicit event_output(const char *name);
    // An event at sc_time_stamp() + offset.
    void notify(const sc_core::sc_time &offset);
    uint64_t count() const { return count_; }
    const signal_view &view() const { return view_.signal(); }

  private:
    uint64_t count_ = 0;
    timed_view<bool> view_;
};

// A CTI trigger output for one input trigger number. The view shows the trigger's multicycle
// level (H5.4.4: asserted while the condition holds); the target gets one trigger_event call
// each time the trigger is asserted: when the level rises, and again for each new event while
// it stays high (retrigger).
class cti_trigger_output : public optional_port<cti_trigger_if>
{
  public:
    cti_trigger_output(const char *name, unsigned trigger);
    // The level from sc_time_stamp() + offset on.
    void write(bool level, const sc_core::sc_time &offset);
    // Another trigger event while the level is already high (e.g. a second counter overflow).
    void retrigger(const sc_core::sc_time &offset);
    bool read() const { return level_; }
    unsigned trigger() const { return trigger_; }
    const signal_view &view() const { return view_.signal(); }
    void deliver_if_high();

  private:
    unsigned trigger_;
    bool level_ = false;
    bool delivered_ = false; // the target got the event of the current assertion
    timed_view<bool> view_;
};

// A CTI trigger output whose triggers are single events (the Trace Buffer Unit's triggers 8, 9
// and 10, H5.4.9 to H5.4.11): one trigger_event call per event. The view toggles on each event.
class cti_event_output : public optional_port<cti_trigger_if>
{
  public:
    cti_event_output(const char *name, unsigned trigger);
    // A trigger event at sc_time_stamp() + offset.
    void notify(const sc_core::sc_time &offset);
    unsigned trigger() const { return trigger_; }
    uint64_t count() const { return count_; }
    const signal_view &view() const { return view_.signal(); }

  private:
    unsigned trigger_;
    uint64_t count_ = 0;
    timed_view<bool> view_;
};

// A Profiling exception request output. The view shows `pending`, target_el_view() the target
// Exception level. The target (a CPU, which acts on it at its own time) is called without an
// offset; the views change at sc_time_stamp() + offset.
class exception_request_output : public optional_port<exception_request_if>
{
  public:
    explicit exception_request_output(const char *name);
    void write(bool pending, unsigned target_el, const sc_core::sc_time &offset);
    bool pending() const { return pending_; }
    unsigned target_el() const { return target_el_; }
    const signal_view &view() const { return view_.signal(); }
    const timed_view<unsigned>::signal_type &target_el_view() const { return el_view_.signal(); }
    void deliver_if_high();

  private:
    bool pending_ = false;
    unsigned target_el_ = 0;
    bool delivered_ = false; // the target got the current request
    timed_view<bool> view_;
    timed_view<unsigned> el_view_;
};

// Generated events to an observer (PMU_OVFS, PMU_HOVFS from the PMU; TRB_WRAP, TRB_TRIG from the
// Trace Buffer Unit, count 1). No view (the events are counts, not lines).
class generated_event_output : public optional_port<generated_event_if>
{
  public:
    explicit generated_event_output(const char *name);
    void write(uint16_t event, uint64_t count);
};

} // namespace pmtrace

#endif
