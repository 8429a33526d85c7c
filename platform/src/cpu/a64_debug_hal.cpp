// a64_debug_hal.cpp - the sw/ drivers run by an external agent (a64_debug_hal.h).
#include <pmtrace/platform/cpu/a64_debug_hal.h>

#include "hal/hal_impl.h"

namespace pmtrace::platform
{

namespace
{

struct debug_ctx {
    pmtrace::sysreg_if &regs;
    pmtrace::trbe_cpu_if *trbe;
    sc_core::sc_time t;
    const a64_cpu_config &config;
};

debug_ctx &ctx_of(void *c)
{
    return *static_cast<debug_ctx *>(c);
}

unsigned highest_el(const a64_cpu_config &c)
{
    return c.have_el3 ? 3 : c.have_el2 ? 2 : 1;
}

// The registers the CPU answers itself (the PE model has none of them).
bool cpu_register(const debug_ctx &c, hal_sysreg reg, uint64_t &v)
{
    switch (reg) {
    case HAL_CURRENTEL: v = uint64_t{highest_el(c.config)} << 2; return true;
    case HAL_MPIDR_EL1: v = uint64_t{0x80000000}; return true;
    case HAL_ID_AA64DFR0_EL1: v = c.config.id_aa64dfr0; return true;
    case HAL_ID_AA64DFR1_EL1: v = c.config.id_aa64dfr1; return true;
    default: return false;
    }
}

const hal_ops debug_ops = {
    [](void *c, hal_sysreg r, uint64_t *v) {
        *v = 0;
        if (cpu_register(ctx_of(c), r, *v))
            return HAL_OK;
        return hal_status_of_access(
            ctx_of(c).regs.read_sysreg(hal_sysreg_to_pmt(r), *v, ctx_of(c).t));
    },
    [](void *c, hal_sysreg r, uint64_t v) {
        uint64_t ignored = 0;
        if (cpu_register(ctx_of(c), r, ignored))
            return HAL_UNDEFINED; // read-only
        return hal_status_of_access(
            ctx_of(c).regs.write_sysreg(hal_sysreg_to_pmt(r), v, ctx_of(c).t));
    },
    [](void *) {},
    [](void *) {},
    [](void *c) {
        if (ctx_of(c).trbe)
            (void)ctx_of(c).trbe->tsb_csync(ctx_of(c).t);
    },
    [](void *, uint64_t, unsigned, uint64_t *v) {
        *v = 0;
        return HAL_INVALID;
    },
    [](void *, uint64_t, unsigned, uint64_t) { return HAL_INVALID; },
    [](void *, uint64_t, void *, size_t) { return HAL_INVALID; },
    [](void *, bool) { return true; },
    [](void *) { return false; },
    [](void *, hal_irq_entry, void *) {},
    [](void *, const hal_work *) { return HAL_INVALID; },
    nullptr,
};

} // namespace

void with_debug_hal(a64_cpu &cpu, const std::function<void(const hal *)> &use)
{
    cpu.debug_access(
        [&](pmtrace::sysreg_if &regs, pmtrace::trbe_cpu_if *trbe, const sc_core::sc_time &t) {
            debug_ctx ctx{regs, trbe, t, cpu.config()};
            const hal h{&debug_ops, &ctx};
            use(&h);
        });
}

} // namespace pmtrace::platform
