// timed_view.cpp - waveform signals that change at the time of each change (timed_view.h).
#define SC_INCLUDE_DYNAMIC_PROCESSES // sc_spawn
#include "pmtrace/systemc/timed_view.h"

#include <string>

namespace pmtrace
{

template <class T> timed_view<T>::timed_view(const char *name) : signal_(name)
{
    sc_core::sc_spawn_options options;
    options.spawn_method();
    options.set_sensitivity(&wake_);
    options.dont_initialize();
    sc_core::sc_spawn([this] { make_due(); }, (std::string(name) + "_writer").c_str(), &options);
}

template <class T> void timed_view<T>::write(const T &value, const sc_core::sc_time &offset)
{
    latest_ = value;
    if (offset == sc_core::SC_ZERO_TIME && due_.empty()) {
        signal_.write(value);
        return;
    }
    // Behind a change still due, this one waits for it (make_due takes them in order).
    due_.emplace_back(sc_core::sc_time_stamp() + offset, value);
    if (due_.size() == 1)
        wake_.notify(offset);
}

// The method: writes the changes whose time has come, in order (the last of them is what the
// signal holds at the end of this delta cycle), and wakes again for the next.
template <class T> void timed_view<T>::make_due()
{
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!due_.empty() && due_.front().first <= now) {
        signal_.write(due_.front().second);
        due_.pop_front();
    }
    if (!due_.empty())
        wake_.notify(due_.front().first - now);
}

template class timed_view<bool>;
template class timed_view<unsigned>;

} // namespace pmtrace
