// gic_distributor.h - the GICv3 Distributor (GICD_*, Arm IHI 0069), 64 KiB frame.
//
// One Security state (GICD_CTLR.DS reads as 1) with affinity routing always enabled
// (GICD_CTLR.ARE reads as 1): the SGIs and PPIs of each PE live in its Redistributor, and this
// GIC has no SPIs (GICD_TYPER.ITLinesNumber = 0). What the Distributor holds for them is the
// group enables, GICD_CTLR.{EnableGrp0, EnableGrp1}.
#ifndef PMTRACE_PLATFORM_GIC_DISTRIBUTOR_H
#define PMTRACE_PLATFORM_GIC_DISTRIBUTOR_H

#include <pmtrace/platform/bus/register_frame.h>

#include <functional>
#include <string>

namespace pmtrace::platform
{

// GICD_CTLR bits with one Security state.
constexpr uint32_t gicd_ctlr_enable_grp0 = 1u << 0;
constexpr uint32_t gicd_ctlr_enable_grp1 = 1u << 1;
constexpr uint32_t gicd_ctlr_are = 1u << 4;
constexpr uint32_t gicd_ctlr_ds = 1u << 6;
// PIDR2 of the GICv3 frames: ArchRev 3, JEDEC, Arm designer bits.
constexpr uint32_t gic_pidr2_gicv3 = 0x3B;

class gic_distributor : public register_frame
{
  public:
    // changed: called after a write that can change what the PEs see.
    gic_distributor(const std::string &log_name, uint32_t iidr, std::function<void()> changed);

    bool group_enabled(unsigned group) const
    {
        return ctlr_ & (group ? gicd_ctlr_enable_grp1 : gicd_ctlr_enable_grp0);
    }
    uint32_t ctlr() const { return ctlr_ | gicd_ctlr_are | gicd_ctlr_ds; }

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    std::string name_;
    uint32_t iidr_;
    uint32_t ctlr_ = 0; // EnableGrp0, EnableGrp1
    std::function<void()> changed_;
};

} // namespace pmtrace::platform

#endif
