// gic_distributor.cpp - GICD_* registers.
#include "pmtrace/platform/interrupt/gic_distributor.h"

#include <utility>

namespace pmtrace::platform
{

namespace
{

enum row { CTLR, TYPER, IIDR, TYPER2, PIDR2 };

const register_info table[] = {
    {0x0000, 1, 4, size32, "GICD_CTLR"},  {0x0004, 1, 4, size32, "GICD_TYPER"},
    {0x0008, 1, 4, size32, "GICD_IIDR"},  {0x000C, 1, 4, size32, "GICD_TYPER2"},
    {0xFFE8, 1, 4, size32, "GICD_PIDR2"},
};

// GICD_TYPER: ITLinesNumber 0 (no SPIs), IDbits 15 (16-bit INTIDs, as ICC_CTLR_EL1.IDbits),
// SecurityExtn 0 (one Security state), no LPIs, no message-based SPIs.
constexpr uint32_t typer = 15u << 19;

} // namespace

gic_distributor::gic_distributor(const std::string &log_name, uint32_t iidr,
                                 std::function<void()> changed)
    : register_frame(log_name.c_str(), table, sizeof table / sizeof table[0]), name_(log_name),
      iidr_(iidr), changed_(std::move(changed))
{
}

uint64_t gic_distributor::read_register(size_t row, unsigned, bool)
{
    switch (row) {
    case CTLR: return ctlr(); // RWP reads 0: writes take effect at once
    case TYPER: return typer;
    case IIDR: return iidr_;
    case PIDR2: return gic_pidr2_gicv3;
    default: return 0;
    }
}

void gic_distributor::write_register(size_t row, unsigned, uint64_t value, uint64_t mask)
{
    if (row != CTLR)
        return; // the others are read-only
    const uint32_t rw = gicd_ctlr_enable_grp0 | gicd_ctlr_enable_grp1;
    ctlr_ = static_cast<uint32_t>((ctlr_ & ~(mask & rw)) | (value & mask & rw));
    changed_();
}

} // namespace pmtrace::platform
