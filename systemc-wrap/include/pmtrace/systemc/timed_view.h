// timed_view.h - a signal for waveforms whose changes carry the simulated time the model made
// them at.
//
// An output changes inside the call of whoever changed it, and that caller may be ahead of
// SystemC time: a temporally decoupled CPU calls at sc_time_stamp() plus its local offset. An
// sc_signal written in that call would change at sc_time_stamp(), the CPU's last
// synchronisation. A timed_view is told the offset and changes its signal when simulated time
// reaches sc_time_stamp() + offset: in this delta cycle's update for a change now, else from its
// own method at the change's time.
//
// Changes keep their order: a change earlier than one still due (a caller behind one that is
// ahead) is made with it, at its time, after it. A VCD records a signal's value at the end
// of each time step (SystemC writes no delta cycles), so changes at one time show as the last of
// them: a pulse that starts and ends at one time is not seen. Changes still due when simulation
// ends are not made.
#ifndef PMTRACE_SYSTEMC_TIMED_VIEW_H
#define PMTRACE_SYSTEMC_TIMED_VIEW_H

#include <deque>
#include <systemc>
#include <utility>

namespace pmtrace
{

// T: bool (a line) or unsigned (an Exception level); other types are not instantiated.
template <class T> class timed_view
{
  public:
    // Written from whichever process calls the model: no writer checks.
    using signal_type = sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>;

    // name: the signal's; its method is name_writer. Created during elaboration (the method is
    // a process of the module being constructed), or later as a dynamic process.
    explicit timed_view(const char *name);
    timed_view(const timed_view &) = delete;
    timed_view &operator=(const timed_view &) = delete;

    // The value from sc_time_stamp() + offset on.
    void write(const T &value, const sc_core::sc_time &offset);
    // The value of the latest write, whether or not the signal has it yet.
    const T &latest() const { return latest_; }
    // The signal, for sc_trace.
    const signal_type &signal() const { return signal_; }

  private:
    void make_due();

    signal_type signal_;
    T latest_{};
    std::deque<std::pair<sc_core::sc_time, T>> due_; // changes not made yet, in the order made
    sc_core::sc_event wake_;                         // the first of them is due
};

extern template class timed_view<bool>;
extern template class timed_view<unsigned>;

} // namespace pmtrace

#endif
