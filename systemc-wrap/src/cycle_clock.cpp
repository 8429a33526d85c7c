// cycle_clock.cpp - simulated time to processor cycles.
#include "pmtrace/systemc/cycle_clock.h"

namespace pmtrace
{

cycle_clock::cycle_clock(const sc_core::sc_time &period)
    : period_(period), period_units_(period.value() ? period.value() : 1),
      last_cycle_(UINT64_MAX / period_units_), next_edge_(period_units_)
{
}

// Called when t reaches the end of the next cycle. The common cases under temporal decoupling -
// a few cycles ended since the last call (a call per block of instructions) - need no division.
uint64_t cycle_clock::advance_slow(uint64_t t)
{
    if (cycles_ >= last_cycle_)
        return 0; // the end of time
    uint64_t beyond = t - next_edge_;
    uint64_t passed = 1; // the cycle ending at next_edge_, and one per whole period beyond it
    for (int n = 0; n < 8 && beyond >= period_units_; n++) {
        beyond -= period_units_;
        passed++;
    }
    if (beyond >= period_units_)
        passed += beyond / period_units_;
    cycles_ += passed;
    synced_ = t;
    next_edge_ = edge_after(cycles_);
    return passed;
}

bool cycle_clock::restore(const state &s)
{
    if (!valid(s))
        return false;
    synced_ = s.synced;
    cycles_ = s.cycles;
    next_edge_ = edge_after(cycles_);
    return true;
}

bool cycle_clock::end_of_cycle(uint64_t cycle, sc_core::sc_time &when) const
{
    if (cycle > last_cycle_)
        return false;
    when = sc_core::sc_time::from_value(cycle * period_units_);
    return true;
}

} // namespace pmtrace
