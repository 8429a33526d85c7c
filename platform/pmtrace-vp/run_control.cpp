// run_control.cpp - the run in slices, and Ctrl-C (run_control.h).
#include "run_control.h"

#include "console.h"

#include <algorithm>
#include <csignal>

namespace pmtrace::vp_cli
{

namespace
{

volatile std::sig_atomic_t interrupted = 0;

// The first SIGINT sets the flag; a second ends pmtrace-vp at once, as SIGINT does, after giving
// the terminal its modes back (console.h).
extern "C" void on_interrupt(int)
{
    if (interrupted) {
        restore_console();
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
        return;
    }
    interrupted = 1;
}

// How much simulated time runs between two looks at the flag: at most a few host milliseconds
// of a busy CPU (about a million instructions at 1 ns).
const sc_core::sc_time &slice()
{
    static const sc_core::sc_time t(1, sc_core::SC_MS);
    return t;
}

} // namespace

void catch_interrupt()
{
    struct sigaction old {
    };
    if (sigaction(SIGINT, nullptr, &old) != 0 || old.sa_handler == SIG_IGN)
        return;
    struct sigaction sa {
    };
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
}

bool simulate(const sc_core::sc_time &limit)
{
    using namespace sc_core;
    bool started = false;
    for (;;) {
        if (interrupted)
            return true;
        sc_time step = slice();
        if (started) {
            if (sc_get_status() == SC_STOPPED || !sc_pending_activity())
                return false; // the software ended the run, or nothing is left to happen
            // Nothing scheduled before a far event: up to it at once.
            if (!sc_pending_activity_at_current_time())
                step = std::max(step, sc_time_to_pending_activity());
        }
        // A slice ends at its last event (so a run that starves ends at the time of its last
        // event), except the one that reaches --time-limit, which ends at the limit.
        sc_starvation_policy policy = SC_EXIT_ON_STARVATION;
        if (limit != SC_ZERO_TIME) {
            if (sc_time_stamp() >= limit)
                return false;
            if (step >= limit - sc_time_stamp()) {
                step = limit - sc_time_stamp();
                policy = SC_RUN_TO_TIME;
            }
        }
        sc_start(step, policy);
        started = true;
    }
}

} // namespace pmtrace::vp_cli
