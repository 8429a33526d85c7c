// signal_adapters.cpp - outputs onto signals (signal_adapters.h).
#include <pmtrace/systemc/signal_adapters.h>

namespace pmtrace
{

level_signal_adapter::level_signal_adapter(const sc_core::sc_module_name &name)
    : sc_module(name), out("out")
{
    SC_HAS_PROCESS(level_signal_adapter);
    SC_METHOD(drive);
    sensitive << changed_; // and once at initialisation: the level before simulation started
}

void level_signal_adapter::set_level(bool level, const sc_core::sc_time &)
{
    level_ = level;
    changed_.notify(sc_core::SC_ZERO_TIME);
}

void level_signal_adapter::drive()
{
    out.write(level_);
}

event_pulse_adapter::event_pulse_adapter(const sc_core::sc_module_name &name,
                                         const sc_core::sc_time &width)
    : sc_module(name), out("out"),
      width_(width > sc_core::SC_ZERO_TIME ? width : sc_core::sc_time(1, sc_core::SC_PS))
{
    SC_HAS_PROCESS(event_pulse_adapter);
    SC_METHOD(drive); // one process for both edges: the signal's one writer
    sensitive << rise_ << fall_;
    dont_initialize();
}

void event_pulse_adapter::notify_event(const sc_core::sc_time &)
{
    count_++;
    until_ = sc_core::sc_time_stamp() + width_;
    rise_.notify(sc_core::SC_ZERO_TIME);
    fall_.cancel();
    fall_.notify(width_);
}

void event_pulse_adapter::trigger_event(unsigned trigger, const sc_core::sc_time &offset)
{
    last_trigger_ = trigger;
    notify_event(offset);
}

void event_pulse_adapter::drive()
{
    out.write(sc_core::sc_time_stamp() < until_);
}

} // namespace pmtrace
