// signal_if.cpp - output ports that call their target at once and keep a view for waveforms,
// whose edges are at the time of each change.
#include "pmtrace/platform/bus/signal_if.h"

#include <string>

namespace pmtrace::platform
{

level_out::level_out(const char *name)
    : optional_port<level_if>(name), view_((std::string(name) + "_view").c_str())
{
}

void level_out::write(bool level, const sc_core::sc_time &offset)
{
    if (level == level_)
        return;
    level_ = level;
    view_.write(level, offset);
    if (level_if *target = get_interface(0))
        target->set_level(level, offset);
}

void level_out::start_of_simulation()
{
    if (level_if *target = get_interface(0); target && level_)
        target->set_level(true, sc_core::SC_ZERO_TIME);
}

trigger_out::trigger_out(const char *name, unsigned trigger)
    : optional_port<cti_trigger_if>(name), trigger_(trigger),
      view_((std::string(name) + "_view").c_str())
{
}

void trigger_out::notify(const sc_core::sc_time &offset)
{
    count_++;
    view_.write(!view_.latest(), offset);
    if (cti_trigger_if *target = get_interface(0))
        target->trigger_event(trigger_, offset);
}

} // namespace pmtrace::platform
