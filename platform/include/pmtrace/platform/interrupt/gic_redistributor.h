// gic_redistributor.h - one PE's GICv3 Redistributor: the RD_base and SGI_base frames (128 KiB)
// and the state of its SGIs (INTIDs 0-15) and PPIs (16-31).
//
// An interrupt is pending when its pending latch is set (an edge on an edge-triggered PPI, an
// SGI, a write to GICR_ISPENDR0) or, level-sensitive, while its input line is high. Reads have no
// side effects.
#ifndef PMTRACE_PLATFORM_GIC_REDISTRIBUTOR_H
#define PMTRACE_PLATFORM_GIC_REDISTRIBUTOR_H

#include <pmtrace/platform/bus/register_frame.h>

#include <cstdint>
#include <functional>
#include <string>

namespace pmtrace::platform
{

class gic_distributor;

constexpr unsigned gic_no_interrupt = 1023; // INTID_SPURIOUS
constexpr uint32_t gicr_waker_processor_sleep = 1u << 1;
constexpr uint32_t gicr_waker_children_asleep = 1u << 2;
constexpr uint64_t gicr_frame_size = 0x20000; // RD_base + SGI_base
constexpr uint32_t gicr_sgi_base = 0x10000;

class gic_redistributor : public register_frame
{
  public:
    gic_redistributor(const std::string &log_name, unsigned cpu, bool last, uint32_t iidr,
                      const gic_distributor &distributor, std::function<void()> changed);

    // The input line of a PPI (16-31): level-sensitive PPIs follow it, edge-triggered ones
    // become pending on a rising edge.
    void set_line(unsigned intid, bool level);
    bool line(unsigned intid) const { return lines_ >> intid & 1; }
    // An SGI (0-15) arrives.
    void raise_sgi(unsigned intid);

    bool pending(unsigned intid) const { return pending_bits() >> intid & 1; }
    bool active(unsigned intid) const { return active_ >> intid & 1; }
    bool enabled(unsigned intid) const { return enabled_ >> intid & 1; }
    unsigned group(unsigned intid) const { return group_ >> intid & 1; }
    uint8_t priority(unsigned intid) const { return priority_[intid]; }
    bool edge_triggered(unsigned intid) const;
    bool asleep() const { return waker_ & gicr_waker_processor_sleep; }

    // The highest-priority interrupt that is pending, enabled, not active and in a group the
    // Distributor enables (lowest INTID first among equals), or gic_no_interrupt.
    unsigned highest_pending() const;
    // The CPU interface acknowledges intid: active, and no longer pending unless its line holds it.
    void acknowledge(unsigned intid);
    void deactivate(unsigned intid);

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    uint32_t pending_bits() const;

    unsigned cpu_;
    bool last_;
    uint32_t iidr_;
    const gic_distributor &distributor_;
    std::function<void()> changed_;

    uint32_t waker_ = gicr_waker_processor_sleep;
    uint32_t group_ = 0;   // GICR_IGROUPR0
    uint32_t enabled_ = 0; // GICR_ISENABLER0
    uint32_t latch_ = 0;   // pending latch
    uint32_t active_ = 0;  // GICR_ISACTIVER0
    uint32_t lines_ = 0;   // PPI input levels
    uint32_t icfgr1_ = 0;  // PPI configuration: 0b10 in a field is edge-triggered
    uint8_t priority_[32] = {};
};

} // namespace pmtrace::platform

#endif
