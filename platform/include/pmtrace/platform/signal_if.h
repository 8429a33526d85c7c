// signal_if.h - the lines between platform components: a level (an interrupt line), an event
// (one call per event, never a one-delta pulse) and a CTI trigger event, and the output ports
// that call them.
//
// The SystemC wrapper (pmtrace/systemc/outputs.h) defines the same interfaces for the PE's
// outputs (PMUIRQ, the CTI trigger events). When that header is on the include path, the
// platform uses its interfaces, so a pe_model output port binds straight to a GIC PPI input or a
// CTI input; otherwise the platform defines them here with the same shape.
#ifndef PMTRACE_PLATFORM_SIGNAL_IF_H
#define PMTRACE_PLATFORM_SIGNAL_IF_H

#include <cstdint>
#include <systemc>

#if __has_include(<pmtrace/systemc/outputs.h>)
#include <pmtrace/systemc/outputs.h>
namespace pmtrace::platform
{
using pmtrace::cti_trigger_if;
using pmtrace::event_if;
using pmtrace::level_if;
} // namespace pmtrace::platform
#else
namespace pmtrace::platform
{

// A level-sensitive line: called whenever the level changes.
class level_if : public virtual sc_core::sc_interface
{
  public:
    virtual void set_level(bool level) = 0;
};

// An event: called once per event.
class event_if : public virtual sc_core::sc_interface
{
  public:
    virtual void notify_event() = 0;
};

// A trigger event numbered as the CTI triggers of H5.4: called once per trigger event.
class cti_trigger_if : public virtual sc_core::sc_interface
{
  public:
    virtual void trigger_event(unsigned trigger) = 0;
};

} // namespace pmtrace::platform
#endif

namespace pmtrace::platform
{

template <class IF> using optional_port = sc_core::sc_port<IF, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
using view_signal = sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS>;

// A level output: calls the bound target (if any) when the level changes, and keeps an
// sc_signal view for waveforms (connect to the port, never to the view).
class level_out : public optional_port<level_if>
{
  public:
    explicit level_out(const char *name);
    void write(bool level);
    bool read() const { return level_; }
    const view_signal &view() const { return view_; }

  protected:
    // A level that rose during elaboration reaches the target when simulation starts.
    void start_of_simulation() override;

  private:
    bool level_ = false;
    view_signal view_;
};

// A trigger event output for trigger number `trigger`: one call per event. The view toggles
// on each event; count() is the number of events so far.
class trigger_out : public optional_port<cti_trigger_if>
{
  public:
    explicit trigger_out(const char *name, unsigned trigger = 0);
    void set_trigger(unsigned trigger) { trigger_ = trigger; }
    void notify();
    uint64_t count() const { return count_; }
    const view_signal &view() const { return view_; }

  private:
    unsigned trigger_;
    uint64_t count_ = 0;
    view_signal view_;
};

} // namespace pmtrace::platform

#endif
