// signal_if.cpp - output ports that call their target at once and keep a view for waveforms.
#include "pmtrace/platform/bus/signal_if.h"

#include <string>

namespace pmtrace::platform
{

level_out::level_out(const char *name)
    : optional_port<level_if>(name), view_((std::string(name) + "_view").c_str())
{
}

void level_out::write(bool level)
{
    if (level == level_)
        return;
    level_ = level;
    view_.write(level);
    if (level_if *target = get_interface(0))
        target->set_level(level);
}

void level_out::start_of_simulation()
{
    if (level_if *target = get_interface(0); target && level_)
        target->set_level(true);
}

trigger_out::trigger_out(const char *name, unsigned trigger)
    : optional_port<cti_trigger_if>(name), trigger_(trigger),
      view_((std::string(name) + "_view").c_str())
{
}

void trigger_out::notify()
{
    count_++;
    view_.write(!view_.read());
    if (cti_trigger_if *target = get_interface(0))
        target->trigger_event(trigger_);
}

} // namespace pmtrace::platform
