// gic_distributor.h - the GICv3 Distributor (GICD_*, Arm IHI 0069), 64 KiB frame: the group
// enables and the Shared Peripheral Interrupts (SPIs).
//
// One Security state (GICD_CTLR.DS reads as 1) with affinity routing always enabled
// (GICD_CTLR.ARE is RAO/WI: no legacy operation), so the SGIs and PPIs of each PE live in its
// Redistributor and the Distributor's registers for INTIDs 0-31 (IGROUPR0, ISENABLER0,
// IPRIORITYR0-7, ICFGR0-1 ...) are RAZ/WI. The SPIs are INTIDs 32 .. 31 + num_spis;
// GICD_TYPER.ITLinesNumber covers them in blocks of 32, and the INTIDs of the last block past
// num_spis are unimplemented: their bits and fields are RAZ/WI.
//
// Each SPI has an input line (set_line), its group, enable, pending and active state, priority
// and configuration (level-sensitive out of reset; edge-triggered when GICD_ICFGR says so), and a
// route, GICD_IROUTER<n>: to the PE whose affinity is Aff3.Aff2.Aff1.Aff0 (PE n is 0.0.0.n), or,
// with Interrupt_Routing_Mode 1, to any awake PE (1 of N: the lowest-numbered awake one).
#ifndef PMTRACE_PLATFORM_GIC_DISTRIBUTOR_H
#define PMTRACE_PLATFORM_GIC_DISTRIBUTOR_H

#include <pmtrace/platform/bus/register_frame.h>
#include <pmtrace/platform/interrupt/gic_interrupt_state.h>

#include <functional>
#include <string>
#include <vector>

namespace pmtrace::platform
{

// GICD_CTLR bits with one Security state.
constexpr uint32_t gicd_ctlr_enable_grp0 = 1u << 0;
constexpr uint32_t gicd_ctlr_enable_grp1 = 1u << 1;
constexpr uint32_t gicd_ctlr_are = 1u << 4;
constexpr uint32_t gicd_ctlr_ds = 1u << 6;
// PIDR2 of the GICv3 frames: ArchRev 3, JEDEC, Arm designer bits.
constexpr uint32_t gic_pidr2_gicv3 = 0x3B;
// SPIs are INTIDs 32..1019: at most 988 (GICD_TYPER.ITLinesNumber 31).
constexpr unsigned gic_first_spi = 32;
constexpr unsigned gic_max_spis = 988;
// GICD_IROUTER<n>: Aff0 [7:0], Aff1 [15:8], Aff2 [23:16], Interrupt_Routing_Mode [31],
// Aff3 [39:32]; the other bits are RES0.
constexpr uint64_t gicd_irouter_irm = uint64_t{1} << 31;
constexpr uint64_t gicd_irouter_fields = 0xFF'80FF'FFFF;

class gic_distributor : public register_frame
{
  public:
    // num_spis: 0..gic_max_spis; num_cpus: the PEs SPIs can be routed to (affinity 0.0.0.n).
    // asleep(n): PE n's Redistributor says it is asleep (GICR_WAKER.ProcessorSleep), for 1 of N
    // routing. changed: called after a change that can change what the PEs see.
    gic_distributor(const std::string &log_name, uint32_t iidr, unsigned num_spis,
                    unsigned num_cpus, std::function<bool(unsigned)> asleep,
                    std::function<void()> changed);

    bool group_enabled(unsigned group) const
    {
        return ctlr_ & (group ? gicd_ctlr_enable_grp1 : gicd_ctlr_enable_grp0);
    }
    uint32_t ctlr() const { return ctlr_ | gicd_ctlr_are | gicd_ctlr_ds; }
    uint32_t typer() const;
    unsigned num_spis() const { return num_spis_; }

    // The SPIs' state (INTIDs 32 .. 31 + num_spis).
    const gic_interrupt_state &state() const { return spis_; }
    // The input line of SPI `intid`: level-sensitive SPIs follow it, edge-triggered ones become
    // pending on a rising edge. Ignored for an INTID that is not an implemented SPI.
    void set_line(unsigned intid, bool level);
    // GICD_IROUTER<intid> as software wrote it (0 out of reset: PE 0).
    uint64_t router(unsigned intid) const;
    // Whether SPI `intid` goes to PE `cpu` now (with Interrupt_Routing_Mode 1: the lowest-numbered
    // awake PE, none when all sleep; with 0: the PE of the affinity, none when no PE has it).
    bool routed_to(unsigned intid, unsigned cpu) const;
    // The highest-priority SPI for PE `cpu` that is pending, enabled, not active and in a group
    // GICD_CTLR enables (lowest INTID first among equals), or gic_no_interrupt.
    unsigned highest_pending(unsigned cpu) const;
    // The CPU interface acknowledges an SPI (active, no longer pending unless its line holds
    // it), or deactivates it.
    void acknowledge(unsigned intid);
    void deactivate(unsigned intid);

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    unsigned one_of_n_target() const;

    std::string name_;
    uint32_t iidr_;
    unsigned num_spis_;
    unsigned num_cpus_;
    std::function<bool(unsigned)> asleep_;
    std::function<void()> changed_;
    uint32_t ctlr_ = 0; // EnableGrp0, EnableGrp1
    gic_interrupt_state spis_;
    std::vector<uint64_t> router_; // GICD_IROUTER<n>, by INTID
};

} // namespace pmtrace::platform

#endif
