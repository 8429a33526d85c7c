// gic_interrupt_state.cpp - group, enable, pending, active, priority and configuration of a range
// of INTIDs (gic_interrupt_state.h).
#include "pmtrace/platform/interrupt/gic_interrupt_state.h"

#include <cstddef>

namespace pmtrace::platform
{

gic_interrupt_state::gic_interrupt_state(unsigned words)
    : impl_(words), configurable_(words), group_(words), enable_(words), latch_(words),
      active_(words), lines_(words), edge_(words), priority_(std::size_t{words} * 32)
{
}

void gic_interrupt_state::implement(unsigned first, unsigned last, bool configurable, bool edge)
{
    for (unsigned intid = first; intid <= last && intid / 32 < words(); intid++) {
        const uint32_t b = 1u << (intid % 32);
        impl_[intid / 32] |= b;
        configurable_[intid / 32] =
            configurable ? configurable_[intid / 32] | b : configurable_[intid / 32] & ~b;
        edge_[intid / 32] = edge ? edge_[intid / 32] | b : edge_[intid / 32] & ~b;
    }
}

uint32_t gic_interrupt_state::pending_word(unsigned n) const
{
    if (n >= words())
        return 0;
    return (latch_[n] | (lines_[n] & ~edge_[n])) & impl_[n];
}

bool gic_interrupt_state::pending(unsigned intid) const
{
    return intid / 32 < words() && (pending_word(intid / 32) >> (intid % 32) & 1);
}

void gic_interrupt_state::write_group(unsigned n, uint32_t value, uint32_t mask)
{
    if (n < words())
        group_[n] = (group_[n] & ~(mask & impl_[n])) | (value & mask & impl_[n]);
}

uint32_t gic_interrupt_state::priority_word(unsigned n) const
{
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; b++)
        v |= uint32_t{priority(4 * n + b)} << (8 * b);
    return v;
}

void gic_interrupt_state::write_priority(unsigned n, uint32_t value, uint32_t mask)
{
    for (unsigned b = 0; b < 4; b++) {
        const unsigned intid = 4 * n + b;
        if ((mask >> (8 * b) & 0xFF) && implemented(intid))
            priority_[intid] = static_cast<uint8_t>(value >> (8 * b)) & gic_priority_mask;
    }
}

uint32_t gic_interrupt_state::config_word(unsigned n) const
{
    uint32_t v = 0;
    for (unsigned k = 0; k < 16; k++)
        if (implemented(16 * n + k) && edge_triggered(16 * n + k))
            v |= 2u << (2 * k);
    return v;
}

void gic_interrupt_state::write_config(unsigned n, uint32_t value, uint32_t mask)
{
    for (unsigned k = 0; k < 16; k++) {
        const unsigned intid = 16 * n + k;
        const uint32_t config_bit = 2u << (2 * k); // Int_config[1]
        if (!(mask & config_bit) || !implemented(intid) || !bit(configurable_, intid))
            continue;
        const uint32_t b = 1u << (intid % 32);
        edge_[intid / 32] = value & config_bit ? edge_[intid / 32] | b : edge_[intid / 32] & ~b;
    }
}

void gic_interrupt_state::set_line(unsigned intid, bool level)
{
    if (!implemented(intid))
        return;
    const uint32_t b = 1u << (intid % 32);
    uint32_t &lines = lines_[intid / 32];
    const bool rising = level && !(lines & b);
    lines = level ? lines | b : lines & ~b;
    if (rising && edge_triggered(intid))
        latch_[intid / 32] |= b;
}

void gic_interrupt_state::acknowledge(unsigned intid)
{
    if (!implemented(intid))
        return;
    active_[intid / 32] |= 1u << (intid % 32);
    latch_[intid / 32] &= ~(1u << (intid % 32));
}

void gic_interrupt_state::deactivate(unsigned intid)
{
    if (implemented(intid))
        active_[intid / 32] &= ~(1u << (intid % 32));
}

} // namespace pmtrace::platform
