// gic_interrupt_state.h - what a GICv3 keeps for each interrupt of a range of INTIDs (Arm IHI
// 0069, "Interrupt handling state machine" and the registers that show it: IGROUPR,
// ISENABLER/ICENABLER, ISPENDR/ICPENDR, ISACTIVER/ICACTIVER, IPRIORITYR, ICFGR): group, enable,
// pending, active, priority, configuration, and the input line of those that have one. A
// Redistributor keeps one for its SGIs and PPIs (INTIDs 0-31), the Distributor one for the SPIs.
//
// Words are the registers' layout: bit k of word n is INTID 32n + k. The bits of INTIDs that are
// not implemented read as zero and ignore writes ("Bits corresponding to unimplemented interrupts
// are RAZ/WI", in each register's description).
//
// Pending: a level-sensitive interrupt is pending while its line is high or its pending latch is
// set (a write to ISPENDR); an edge-triggered one latches a rising edge of its line (and a write
// to ISPENDR). Acknowledging it clears the latch: a level-sensitive interrupt whose line is still
// high is then active and pending. Reads have no side effects.
#ifndef PMTRACE_PLATFORM_GIC_INTERRUPT_STATE_H
#define PMTRACE_PLATFORM_GIC_INTERRUPT_STATE_H

#include <cstdint>
#include <vector>

namespace pmtrace::platform
{

constexpr unsigned gic_no_interrupt = 1023; // INTID_SPURIOUS
// 5 priority bits (ICC_CTLR_EL1.PRIbits = 4): a priority field keeps bits [7:3].
constexpr uint8_t gic_priority_mask = 0xF8;

class gic_interrupt_state
{
  public:
    // Room for INTIDs 0 .. 32 * words - 1, none of them implemented yet.
    explicit gic_interrupt_state(unsigned words);

    // INTIDs first..last exist. configurable: software chooses level or edge (ICFGR
    // Int_config[1] is writable); edge: their configuration out of reset.
    void implement(unsigned first, unsigned last, bool configurable, bool edge);
    bool implemented(unsigned intid) const { return bit(impl_, intid); }
    unsigned words() const { return static_cast<unsigned>(impl_.size()); }

    // Register words (n: the register's instance).
    uint32_t group_word(unsigned n) const { return word(group_, n); }
    uint32_t enable_word(unsigned n) const { return word(enable_, n); }
    uint32_t pending_word(unsigned n) const;
    uint32_t active_word(unsigned n) const { return word(active_, n); }
    void write_group(unsigned n, uint32_t value, uint32_t mask);
    void set_enable(unsigned n, uint32_t bits) { set(enable_, n, bits); }
    void clear_enable(unsigned n, uint32_t bits) { clear(enable_, n, bits); }
    void set_pending(unsigned n, uint32_t bits) { set(latch_, n, bits); }
    // A level-sensitive interrupt stays pending while its line is high.
    void clear_pending(unsigned n, uint32_t bits) { clear(latch_, n, bits); }
    void set_active(unsigned n, uint32_t bits) { set(active_, n, bits); }
    void clear_active(unsigned n, uint32_t bits) { clear(active_, n, bits); }
    // IPRIORITYR<n>: INTIDs 4n..4n+3, a byte each; mask says which bytes a write reaches.
    uint32_t priority_word(unsigned n) const;
    void write_priority(unsigned n, uint32_t value, uint32_t mask);
    // ICFGR<n>: INTIDs 16n..16n+15, two bits each; Int_config[1] (the odd bit) 1 is
    // edge-triggered, Int_config[0] is RES0.
    uint32_t config_word(unsigned n) const;
    void write_config(unsigned n, uint32_t value, uint32_t mask);

    // One interrupt.
    void set_line(unsigned intid, bool level);
    bool line(unsigned intid) const { return bit(lines_, intid); }
    bool pending(unsigned intid) const;
    bool enabled(unsigned intid) const { return bit(enable_, intid); }
    bool active(unsigned intid) const { return bit(active_, intid); }
    unsigned group(unsigned intid) const { return bit(group_, intid); }
    uint8_t priority(unsigned intid) const
    {
        return implemented(intid) ? priority_[intid] : uint8_t{0};
    }
    bool edge_triggered(unsigned intid) const { return bit(edge_, intid); }
    // Acknowledged: active, and the pending latch cleared. Deactivated: no longer active.
    void acknowledge(unsigned intid);
    void deactivate(unsigned intid);

    // The highest-priority interrupt that is pending, enabled and not active and that
    // `eligible(intid)` accepts (its group enabled, routed to the PE); the lowest INTID among
    // equal priorities; gic_no_interrupt when there is none.
    template <class Eligible> unsigned highest_pending(Eligible eligible) const
    {
        unsigned best = gic_no_interrupt;
        for (unsigned n = 0; n < words(); n++) {
            uint32_t candidates = pending_word(n) & enable_[n] & ~active_[n];
            while (candidates) {
                const unsigned intid = 32 * n + static_cast<unsigned>(__builtin_ctz(candidates));
                candidates &= candidates - 1;
                if ((best == gic_no_interrupt || priority_[intid] < priority_[best]) &&
                    eligible(intid))
                    best = intid;
            }
        }
        return best;
    }

  private:
    bool bit(const std::vector<uint32_t> &v, unsigned intid) const
    {
        return intid / 32 < v.size() && (v[intid / 32] >> (intid % 32) & 1);
    }
    uint32_t word(const std::vector<uint32_t> &v, unsigned n) const
    {
        return n < v.size() ? v[n] & impl_[n] : 0;
    }
    void set(std::vector<uint32_t> &v, unsigned n, uint32_t bits)
    {
        if (n < v.size())
            v[n] |= bits & impl_[n];
    }
    void clear(std::vector<uint32_t> &v, unsigned n, uint32_t bits)
    {
        if (n < v.size())
            v[n] &= ~(bits & impl_[n]);
    }

    std::vector<uint32_t> impl_, configurable_;
    std::vector<uint32_t> group_, enable_, latch_, active_, lines_, edge_;
    std::vector<uint8_t> priority_;
};

} // namespace pmtrace::platform

#endif
