// cycle_clock.cpp - simulated time to processor cycles.
#include "pmtrace/systemc/cycle_clock.h"

namespace pmtrace
{

cycle_clock::cycle_clock(const sc_core::sc_time &period)
    : period_(period), period_units_(period.value() ? period.value() : 1), next_edge_(period_units_)
{
}

uint64_t cycle_clock::advance_slow(uint64_t t)
{
    if (t < synced_)
        return 0;
    uint64_t cycles = t / period_units_;
    uint64_t passed = cycles - cycles_;
    cycles_ = cycles;
    synced_ = t;
    // The end of the next cycle; saturates at the end of time.
    next_edge_ =
        cycles + 1 > UINT64_MAX / period_units_ ? UINT64_MAX : (cycles + 1) * period_units_;
    return passed;
}

bool cycle_clock::end_of_cycle(uint64_t cycle, sc_core::sc_time &when) const
{
    if (cycle > UINT64_MAX / period_units_)
        return false;
    when = sc_core::sc_time::from_value(cycle * period_units_);
    return true;
}

} // namespace pmtrace
