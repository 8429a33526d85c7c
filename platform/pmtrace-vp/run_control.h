// run_control.h - the simulation's run, until the software ends it (sc_stop), nothing is left to
// happen, --time-limit is reached, or Ctrl-C. SIGINT only sets a flag: the run goes in slices of
// simulated time and looks at the flag between them (no SystemC call is safe in a signal
// handler), so an interrupted run stops within a slice, with every component in a state its
// summary can be read from. The slices change nothing the simulation does: no event of ours is
// scheduled (the AArch64 CPU's quantum still ends only at its own syncs), and a stretch with
// nothing scheduled before a far event is one slice.
#ifndef PMTRACE_VP_RUN_CONTROL_H
#define PMTRACE_VP_RUN_CONTROL_H

#include <systemc>

namespace pmtrace::vp_cli
{

// Catches SIGINT for the next run (once: a second Ctrl-C ends the process as usual, the terminal's
// modes restored: console.h). A SIGINT
// that is ignored when pmtrace-vp starts (a background job of a shell without job control) stays
// ignored.
void catch_interrupt();

// Runs the simulation until it stops (sc_stop), nothing is left to happen, `limit` of simulated
// time is reached (SC_ZERO_TIME: no limit), or SIGINT. True when SIGINT ended it.
bool simulate(const sc_core::sc_time &limit);

} // namespace pmtrace::vp_cli

#endif
