// cycle_clock.h - simulated time to processor cycles, without ticking.
//
// Cycle k (k >= 1) of the PE's clock ends at k * period; at time t, floor(t / period) cycles
// have passed. The clock remembers the latest time it was synchronised to and hands out the
// cycles that passed since then; time never runs backwards (an earlier time hands out none).
#ifndef PMTRACE_SYSTEMC_CYCLE_CLOCK_H
#define PMTRACE_SYSTEMC_CYCLE_CLOCK_H

#include <cstdint>
#include <systemc>

namespace pmtrace
{

class cycle_clock
{
  public:
    static constexpr uint64_t never = UINT64_MAX;

    // period must be nonzero.
    explicit cycle_clock(const sc_core::sc_time &period);

    // Moves to time t and returns the cycles that ended since the previous synchronisation
    // point (0 when t is not later than it).
    uint64_t advance_to(const sc_core::sc_time &t)
    {
        if (t.value() < next_edge_) {
            if (t.value() > synced_)
                synced_ = t.value();
            return 0;
        }
        return advance_slow(t.value());
    }

    // Cycles ended up to the synchronisation point.
    uint64_t cycles() const { return cycles_; }
    // The synchronisation point: the latest time the clock was moved to.
    sc_core::sc_time now() const { return sc_core::sc_time::from_value(synced_); }
    // The time at which cycle `cycle` ends, or false when it is beyond the range of sc_time.
    bool end_of_cycle(uint64_t cycle, sc_core::sc_time &when) const;
    const sc_core::sc_time &period() const { return period_; }

    // What the clock remembers, for pe_model::save and restore: the synchronisation point (in
    // units of the time resolution) and the cycles ended at it.
    struct state {
        uint64_t synced = 0;
        uint64_t cycles = 0;
    };
    state saved() const { return {synced_, cycles_}; }
    // A state this clock could have been in (cycles = floor(synced / period)).
    bool valid(const state &s) const { return s.cycles == s.synced / period_units_; }
    // Moves the clock to s, which must be valid (else nothing changes and false).
    bool restore(const state &s);

  private:
    uint64_t advance_slow(uint64_t t);
    // The end of the cycle after `cycles`; saturates at the end of time.
    uint64_t edge_after(uint64_t cycles) const
    {
        return cycles >= last_cycle_ ? UINT64_MAX : (cycles + 1) * period_units_;
    }

    sc_core::sc_time period_;
    uint64_t period_units_; // period in units of the time resolution
    uint64_t last_cycle_;   // the last cycle whose end sc_time can represent
    uint64_t synced_ = 0;   // synchronisation point, in units of the time resolution
    uint64_t cycles_ = 0;   // cycles ended at synced_
    uint64_t next_edge_;    // when the next cycle ends
};

} // namespace pmtrace

#endif
