// signal_if.h - the lines between platform components: a level (an interrupt line), an event
// (one call per event, never a one-delta pulse) and a CTI trigger event, and the output ports
// that call them.
//
// The interfaces are those of the SystemC wrapper's outputs (pmtrace/systemc/outputs.h), so a
// pe_model output port binds straight to a GIC PPI input or a CTI input.
#ifndef PMTRACE_PLATFORM_SIGNAL_IF_H
#define PMTRACE_PLATFORM_SIGNAL_IF_H

#include <cstdint>
#include <systemc>

#include <pmtrace/systemc/outputs.h>

namespace pmtrace::platform
{
using pmtrace::cti_trigger_if;
using pmtrace::event_if;
using pmtrace::level_if;
} // namespace pmtrace::platform

namespace pmtrace::platform
{

template <class IF> using optional_port = sc_core::sc_port<IF, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
using view_signal = pmtrace::signal_view;

// A level output: calls the bound target (if any) when the level changes, and keeps an
// sc_signal view for waveforms (connect to the port, never to the view). A change is at
// sc_time_stamp() + offset (the time of the call that made it, outputs.h): the target is told
// the offset, the view changes at that time.
class level_out : public optional_port<level_if>
{
  public:
    explicit level_out(const char *name);
    void write(bool level, const sc_core::sc_time &offset);
    bool read() const { return level_; }
    const view_signal &view() const { return view_.signal(); }

  protected:
    // A level that rose during elaboration reaches the target when simulation starts.
    void start_of_simulation() override;

  private:
    bool level_ = false;
    pmtrace::timed_view<bool> view_;
};

// A trigger event output for trigger number `trigger`: one call per event. The view toggles
// on each event; count() is the number of events so far.
class trigger_out : public optional_port<cti_trigger_if>
{
  public:
    explicit trigger_out(const char *name, unsigned trigger = 0);
    void set_trigger(unsigned trigger) { trigger_ = trigger; }
    // An event at sc_time_stamp() + offset.
    void notify(const sc_core::sc_time &offset);
    uint64_t count() const { return count_; }
    const view_signal &view() const { return view_.signal(); }

  private:
    unsigned trigger_;
    uint64_t count_ = 0;
    pmtrace::timed_view<bool> view_;
};

} // namespace pmtrace::platform

#endif
