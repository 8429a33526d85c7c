// outputs.cpp - output ports that call their target at once and keep a view for waveforms, whose
// edges are at the time of each change (sc_time_stamp() + the caller's offset).
#include "pmtrace/systemc/outputs.h"

#include <string>

namespace pmtrace
{

namespace
{

std::string view_name(const char *name)
{
    return std::string(name) + "_view";
}

} // namespace

level_output::level_output(const char *name)
    : optional_port<level_if>(name), view_(view_name(name).c_str())
{
}

void level_output::write(bool level, const sc_core::sc_time &offset)
{
    if (level == level_)
        return;
    level_ = level;
    view_.write(level, offset);
    if (level_if *target = get_interface(0)) {
        delivered_ = level;
        target->set_level(level, offset);
    }
}

void level_output::deliver_if_high()
{
    if (level_if *target = get_interface(0); target && level_ && !delivered_) {
        delivered_ = true;
        target->set_level(true, sc_core::SC_ZERO_TIME);
    }
}

event_output::event_output(const char *name)
    : optional_port<event_if>(name), view_(view_name(name).c_str())
{
}

void event_output::notify(const sc_core::sc_time &offset)
{
    count_++;
    view_.write(!view_.latest(), offset);
    if (event_if *target = get_interface(0))
        target->notify_event(offset);
}

cti_trigger_output::cti_trigger_output(const char *name, unsigned trigger)
    : optional_port<cti_trigger_if>(name), trigger_(trigger), view_(view_name(name).c_str())
{
}

void cti_trigger_output::write(bool level, const sc_core::sc_time &offset)
{
    if (level == level_)
        return;
    level_ = level;
    view_.write(level, offset);
    // A CTI without multicycle trigger events sees an event each time the trigger is asserted.
    delivered_ = false;
    if (cti_trigger_if *target = get_interface(0); target && level) {
        delivered_ = true;
        target->trigger_event(trigger_, offset);
    }
}

void cti_trigger_output::retrigger(const sc_core::sc_time &offset)
{
    if (cti_trigger_if *target = get_interface(0); target && level_)
        target->trigger_event(trigger_, offset);
}

void cti_trigger_output::deliver_if_high()
{
    if (cti_trigger_if *target = get_interface(0); target && level_ && !delivered_) {
        delivered_ = true;
        target->trigger_event(trigger_, sc_core::SC_ZERO_TIME);
    }
}

cti_event_output::cti_event_output(const char *name, unsigned trigger)
    : optional_port<cti_trigger_if>(name), trigger_(trigger), view_(view_name(name).c_str())
{
}

void cti_event_output::notify(const sc_core::sc_time &offset)
{
    count_++;
    view_.write(!view_.latest(), offset);
    if (cti_trigger_if *target = get_interface(0))
        target->trigger_event(trigger_, offset);
}

exception_request_output::exception_request_output(const char *name)
    : optional_port<exception_request_if>(name), view_(view_name(name).c_str()),
      el_view_((std::string(name) + "_target_el_view").c_str())
{
}

void exception_request_output::write(bool pending, unsigned target_el,
                                     const sc_core::sc_time &offset)
{
    if (pending == pending_ && target_el == target_el_)
        return;
    pending_ = pending;
    target_el_ = target_el;
    view_.write(pending, offset);
    el_view_.write(target_el, offset);
    delivered_ = false;
    if (exception_request_if *target = get_interface(0)) {
        delivered_ = true;
        target->set_exception_request(pending, target_el);
    }
}

void exception_request_output::deliver_if_high()
{
    if (exception_request_if *target = get_interface(0); target && pending_ && !delivered_) {
        delivered_ = true;
        target->set_exception_request(true, target_el_);
    }
}

generated_event_output::generated_event_output(const char *name)
    : optional_port<generated_event_if>(name)
{
}

void generated_event_output::write(uint16_t event, uint64_t count)
{
    if (generated_event_if *target = get_interface(0))
        target->generated_event(event, count);
}

} // namespace pmtrace
