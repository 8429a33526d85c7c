// gic_redistributor.h - one PE's GICv3 Redistributor: the RD_base and SGI_base frames (128 KiB)
// and the state of its SGIs (INTIDs 0-15) and PPIs (16-31).
//
// Its interrupts' state is a gic_interrupt_state: SGIs edge-triggered, PPIs level-sensitive out of
// reset and configurable (GICR_ICFGR1). An SGI is pending from its arrival (ICC_SGI1R_EL1) or a
// write to GICR_ISPENDR0 until acknowledged. Reads have no side effects.
#ifndef PMTRACE_PLATFORM_GIC_REDISTRIBUTOR_H
#define PMTRACE_PLATFORM_GIC_REDISTRIBUTOR_H

#include <pmtrace/platform/bus/register_frame.h>
#include <pmtrace/platform/interrupt/gic_interrupt_state.h>

#include <cstdint>
#include <functional>
#include <string>

namespace pmtrace::platform
{

class gic_distributor;

constexpr uint32_t gicr_waker_processor_sleep = 1u << 1;
constexpr uint32_t gicr_waker_children_asleep = 1u << 2;
constexpr uint64_t gicr_frame_size = 0x20000; // RD_base + SGI_base
constexpr uint32_t gicr_sgi_base = 0x10000;

class gic_redistributor : public register_frame
{
  public:
    // awake: GICR_WAKER.ProcessorSleep = 0 out of reset (gic_config::redistributors_awake).
    gic_redistributor(const std::string &log_name, unsigned cpu, bool last, bool awake,
                      uint32_t iidr, const gic_distributor &distributor,
                      std::function<void()> changed);

    // The input line of a PPI (16-31): level-sensitive PPIs follow it, edge-triggered ones
    // become pending on a rising edge.
    void set_line(unsigned intid, bool level);
    bool line(unsigned intid) const { return intid >= 16 && state_.line(intid); }
    // An SGI (0-15) arrives.
    void raise_sgi(unsigned intid);

    // The SGIs' and PPIs' state (INTIDs 0-31).
    const gic_interrupt_state &state() const { return state_; }
    bool pending(unsigned intid) const { return state_.pending(intid); }
    bool active(unsigned intid) const { return state_.active(intid); }
    bool enabled(unsigned intid) const { return state_.enabled(intid); }
    unsigned group(unsigned intid) const { return state_.group(intid); }
    uint8_t priority(unsigned intid) const { return state_.priority(intid); }
    bool edge_triggered(unsigned intid) const { return state_.edge_triggered(intid); }
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
    unsigned cpu_;
    bool last_;
    uint32_t iidr_;
    const gic_distributor &distributor_;
    std::function<void()> changed_;

    uint32_t waker_; // ProcessorSleep
    gic_interrupt_state state_{1};
};

} // namespace pmtrace::platform

#endif
