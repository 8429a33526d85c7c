/*
 * hal_core.c - the HAL on a pmt_pe (hal_core.h): the PE, a small GICv3 for one CPU, RAM and the
 * TRBE's memory port with fault injection.
 */
#include "hal_core.h"
#include "hal_impl.h"

#include "../drivers/gic/gicv3_regs.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FAULTS       16
#define MAX_ACTIVE       32
#define STORM_LIMIT      64
#define PRIORITY_MASK    0xF8u /* the GIC implements 5 bits of priority */
#define GIC_FRAME_64K    0x10000u
#define NUM_PRIVATE_IRQS 32u

typedef struct fault_range {
    uint64_t lo, hi;
    pmt_trbe_fault fault;
} fault_range;

typedef struct abort_range {
    uint64_t lo, hi;
    pmt_trbe_write_result result;
} abort_range;

struct hal_core {
    hal h;
    hal_core_config cfg;
    pmt_pe *pe;
    uint8_t *ram;
    pmt_pe_state kernel; /* the software's state */
    bool masked;         /* PSTATE.I */
    hal_irq_entry entry;
    void *entry_arg;
    bool line[NUM_PRIVATE_IRQS];
    /* The GIC. */
    uint32_t gicd_ctlr;
    bool processor_sleep;
    uint32_t igroupr0, enabled, active, latched, icfgr1, igrpmodr0;
    uint8_t priority[NUM_PRIVATE_IRQS];
    uint8_t pmr, bpr1;
    bool eoimode, igrpen1;
    uint8_t running[MAX_ACTIVE]; /* active priorities, innermost last */
    unsigned nrunning;
    /* The memory port. */
    fault_range faults[MAX_FAULTS];
    unsigned nfaults;
    abort_range aborts[MAX_FAULTS];
    unsigned naborts;
    hal_core_stats stats;
};

/* ---- helpers ---------------------------------------------------------------------------- */

static void report(hal_core *hc, hal_core_op op, hal_sysreg reg, uint64_t addr, uint64_t value,
                   hal_status status)
{
    if (!hc->cfg.access)
        return;
    hal_core_access a;
    a.op = op;
    a.reg = reg;
    a.addr = addr;
    a.value = value;
    a.status = status;
    hc->cfg.access(hc->cfg.user, &a);
}

static uint8_t current_el(const hal_core *hc)
{
    return pmt_pe_get_state(hc->pe).el;
}

static void set_el(hal_core *hc, uint8_t el)
{
    pmt_pe_state s = hc->kernel;
    s.el = el;
    (void)pmt_pe_set_state(hc->pe, &s);
}

/* ---- the GIC ------------------------------------------------------------------------------ */

static uint32_t gic_pending(const hal_core *hc)
{
    uint32_t p = hc->latched;
    for (unsigned i = 0; i < NUM_PRIVATE_IRQS; i++)
        if (hc->line[i])
            p |= 1u << i;
    return p;
}

static uint8_t running_priority(const hal_core *hc)
{
    return hc->nrunning ? hc->running[hc->nrunning - 1] : SW_GIC_IDLE_PRIORITY;
}

/* The highest priority pending interrupt the CPU interface may signal, or -1. */
static int gic_highest(const hal_core *hc, bool check_masks)
{
    if (hc->processor_sleep)
        return -1;
    if (!(hc->gicd_ctlr & (SW_GICD_CTLR_ENABLE_G1 | SW_GICD_CTLR_ENABLE_G1A)))
        return -1;
    uint32_t cand = gic_pending(hc) & hc->enabled & hc->igroupr0 & ~hc->active;
    int best = -1;
    for (unsigned i = 0; i < NUM_PRIVATE_IRQS; i++)
        if ((cand >> i & 1) && (best < 0 || hc->priority[i] < hc->priority[best]))
            best = (int)i;
    if (best < 0 || !check_masks)
        return best;
    if (!hc->igrpen1 || hc->priority[best] >= hc->pmr || hc->priority[best] >= running_priority(hc))
        return -1;
    return best;
}

static void gic_eoi(hal_core *hc, uint64_t intid)
{
    if (intid >= SW_GIC_INTID_SPURIOUS - 3 || !hc->nrunning)
        return;
    hc->nrunning--; /* priority drop */
    if (!hc->eoimode && intid < NUM_PRIVATE_IRQS)
        hc->active &= ~(1u << intid);
}

static bool is_icc(hal_sysreg reg)
{
    switch (reg) {
    case HAL_ICC_PMR_EL1:
    case HAL_ICC_DIR_EL1:
    case HAL_ICC_RPR_EL1:
    case HAL_ICC_IAR1_EL1:
    case HAL_ICC_EOIR1_EL1:
    case HAL_ICC_HPPIR1_EL1:
    case HAL_ICC_BPR1_EL1:
    case HAL_ICC_CTLR_EL1:
    case HAL_ICC_SRE_EL1:
    case HAL_ICC_IGRPEN1_EL1: return true;
    default: return false;
    }
}

static hal_status icc_read(hal_core *hc, hal_sysreg reg, uint64_t *v)
{
    switch (reg) {
    case HAL_ICC_PMR_EL1: *v = hc->pmr; return HAL_OK;
    case HAL_ICC_RPR_EL1: *v = running_priority(hc); return HAL_OK;
    case HAL_ICC_BPR1_EL1: *v = hc->bpr1; return HAL_OK;
    case HAL_ICC_CTLR_EL1:
        *v = (hc->eoimode ? SW_ICC_CTLR_EOIMODE : 0) | (uint64_t)4 << 8; /* PRIbits: 5 bits */
        return HAL_OK;
    case HAL_ICC_SRE_EL1: *v = 0x7; return HAL_OK; /* SRE, DFB, DIB: RAO/WI */
    case HAL_ICC_IGRPEN1_EL1: *v = hc->igrpen1; return HAL_OK;
    case HAL_ICC_HPPIR1_EL1: {
        int i = gic_highest(hc, false);
        *v = i < 0 ? SW_GIC_INTID_SPURIOUS : (uint64_t)i;
        return HAL_OK;
    }
    case HAL_ICC_IAR1_EL1: {
        int i = gic_highest(hc, true);
        if (i < 0 || hc->nrunning == MAX_ACTIVE) {
            *v = SW_GIC_INTID_SPURIOUS;
            return HAL_OK;
        }
        hc->active |= 1u << i;
        hc->latched &= ~(1u << i);
        hc->running[hc->nrunning++] = hc->priority[i];
        *v = (uint64_t)i;
        return HAL_OK;
    }
    default: return HAL_UNDEFINED; /* write-only */
    }
}

static hal_status icc_write(hal_core *hc, hal_sysreg reg, uint64_t v)
{
    switch (reg) {
    case HAL_ICC_PMR_EL1: hc->pmr = (uint8_t)(v & PRIORITY_MASK); return HAL_OK;
    case HAL_ICC_BPR1_EL1: hc->bpr1 = (uint8_t)(v & 7); return HAL_OK;
    case HAL_ICC_CTLR_EL1: hc->eoimode = (v & SW_ICC_CTLR_EOIMODE) != 0; return HAL_OK;
    case HAL_ICC_SRE_EL1: return HAL_OK;
    case HAL_ICC_IGRPEN1_EL1: hc->igrpen1 = (v & SW_ICC_IGRPEN1_EN) != 0; return HAL_OK;
    case HAL_ICC_EOIR1_EL1: gic_eoi(hc, v & 0xFFFFFF); return HAL_OK;
    case HAL_ICC_DIR_EL1:
        if ((v & 0xFFFFFF) < NUM_PRIVATE_IRQS)
            hc->active &= ~(1u << (v & 0x1F));
        return HAL_OK;
    default: return HAL_UNDEFINED; /* read-only */
    }
}

/* A 32-bit register of the GIC frames; byte and halfword accesses go through it. */
static bool gic_reg_read(hal_core *hc, uint64_t pa, uint32_t *v)
{
    const uint64_t d = hc->cfg.gicd_base, r = hc->cfg.gicr_base;
    *v = 0;
    if (pa >= d && pa < d + GIC_FRAME_64K) {
        switch (pa - d) {
        case SW_GICD_CTLR: *v = hc->gicd_ctlr; break;
        case SW_GICD_IIDR: *v = 0x0000043B; break;
        case SW_GICD_PIDR2: *v = 0x30; break; /* GICv3 */
        default: break;                       /* RAZ */
        }
        return true;
    }
    if (pa >= r && pa < r + GIC_FRAME_64K) {
        switch (pa - r) {
        case SW_GICR_IIDR: *v = 0x0000043B; break;
        case SW_GICR_TYPER: *v = SW_GICR_TYPER_LAST; break;
        case SW_GICR_TYPER + 4: *v = (uint32_t)(hc->cfg.pe.mpidr & 0xFFFFFF); break;
        case SW_GICR_WAKER:
            *v = hc->processor_sleep ? SW_GICR_WAKER_PROCESSOR_SLEEP | SW_GICR_WAKER_CHILDREN_ASLEEP
                                     : 0;
            break;
        case SW_GICR_PIDR2: *v = 0x30; break;
        default: break;
        }
        return true;
    }
    if (pa >= r + SW_GICR_SGI_BASE && pa < r + SW_GICR_FRAME_SIZE) {
        uint64_t off = pa - r - SW_GICR_SGI_BASE;
        if (off >= SW_GICR_IPRIORITYR && off < SW_GICR_IPRIORITYR + NUM_PRIVATE_IRQS) {
            unsigned i = (unsigned)(off - SW_GICR_IPRIORITYR);
            *v = (uint32_t)hc->priority[i] | (uint32_t)hc->priority[i + 1] << 8 |
                 (uint32_t)hc->priority[i + 2] << 16 | (uint32_t)hc->priority[i + 3] << 24;
            return true;
        }
        switch (off) {
        case SW_GICR_IGROUPR0: *v = hc->igroupr0; break;
        case SW_GICR_ISENABLER0:
        case SW_GICR_ICENABLER0: *v = hc->enabled; break;
        case SW_GICR_ISPENDR0:
        case SW_GICR_ICPENDR0: *v = gic_pending(hc); break;
        case SW_GICR_ISACTIVER0:
        case SW_GICR_ICACTIVER0: *v = hc->active; break;
        case SW_GICR_ICFGR0: *v = 0xAAAAAAAA; break; /* SGIs are edge-triggered */
        case SW_GICR_ICFGR1: *v = hc->icfgr1; break;
        case SW_GICR_IGRPMODR0: *v = hc->igrpmodr0; break;
        default: break;
        }
        return true;
    }
    return false;
}

static bool gic_reg_write(hal_core *hc, uint64_t pa, uint32_t v)
{
    const uint64_t d = hc->cfg.gicd_base, r = hc->cfg.gicr_base;
    if (pa >= d && pa < d + GIC_FRAME_64K) {
        if (pa - d == SW_GICD_CTLR)
            hc->gicd_ctlr =
                v & (SW_GICD_CTLR_ENABLE_G1 | SW_GICD_CTLR_ENABLE_G1A | SW_GICD_CTLR_ARE_NS);
        return true;
    }
    if (pa >= r && pa < r + GIC_FRAME_64K) {
        if (pa - r == SW_GICR_WAKER)
            hc->processor_sleep = (v & SW_GICR_WAKER_PROCESSOR_SLEEP) != 0;
        return true;
    }
    if (pa >= r + SW_GICR_SGI_BASE && pa < r + SW_GICR_FRAME_SIZE) {
        uint64_t off = pa - r - SW_GICR_SGI_BASE;
        if (off >= SW_GICR_IPRIORITYR && off < SW_GICR_IPRIORITYR + NUM_PRIVATE_IRQS) {
            unsigned i = (unsigned)(off - SW_GICR_IPRIORITYR);
            for (unsigned b = 0; b < 4; b++)
                hc->priority[i + b] = (uint8_t)((v >> (8 * b)) & PRIORITY_MASK);
            return true;
        }
        switch (off) {
        case SW_GICR_IGROUPR0: hc->igroupr0 = v; break;
        case SW_GICR_ISENABLER0: hc->enabled |= v; break;
        case SW_GICR_ICENABLER0: hc->enabled &= ~v; break;
        case SW_GICR_ISPENDR0: hc->latched |= v; break;
        case SW_GICR_ICPENDR0: hc->latched &= ~v; break;
        case SW_GICR_ISACTIVER0: hc->active |= v; break;
        case SW_GICR_ICACTIVER0: hc->active &= ~v; break;
        case SW_GICR_ICFGR1: hc->icfgr1 = v & 0xAAAAAAAA; break;
        case SW_GICR_IGRPMODR0: hc->igrpmodr0 = v; break;
        default: break; /* WI */
        }
        return true;
    }
    return false;
}

/* ---- interrupts --------------------------------------------------------------------------- */

/* Takes every interrupt the GIC signals while PSTATE.I is clear. */
static void take_irqs(hal_core *hc)
{
    unsigned taken = 0;
    while (!hc->masked && hc->entry && gic_highest(hc, true) >= 0) {
        if (++taken > STORM_LIMIT) {
            hc->stats.irq_storms++;
            break;
        }
        pmt_pe_state saved = pmt_pe_get_state(hc->pe);
        bool switched = saved.el != hc->kernel.el;
        if (switched)
            (void)pmt_pe_set_state(hc->pe, &hc->kernel);
        hc->masked = true;
        hc->stats.irqs_taken++;
        report(hc, HAL_CORE_IRQ_ENTRY, 0, 0, 0, HAL_OK);
        hc->entry(hc->entry_arg);
        report(hc, HAL_CORE_IRQ_EXIT, 0, 0, 0, HAL_OK);
        hc->masked = false;
        if (switched)
            (void)pmt_pe_set_state(hc->pe, &saved);
    }
}

/* ---- the HAL ops -------------------------------------------------------------------------- */

static hal_status core_sysreg_read(void *ctx, hal_sysreg reg, uint64_t *value)
{
    hal_core *hc = ctx;
    uint64_t v = 0, dfr0 = 0, dfr1 = 0;
    hal_status st;
    uint8_t el = current_el(hc);
    if (reg == HAL_CURRENTEL || reg == HAL_MPIDR_EL1 || reg == HAL_ID_AA64DFR0_EL1 ||
        reg == HAL_ID_AA64DFR1_EL1 || is_icc(reg)) {
        if (el == 0) {
            st = HAL_UNDEFINED;
        } else if (is_icc(reg)) {
            st = icc_read(hc, reg, &v);
        } else {
            st = HAL_OK;
            (void)pmt_pe_id_aa64dfr(hc->pe, &dfr0, &dfr1);
            v = reg == HAL_CURRENTEL         ? (uint64_t)el << 2
                : reg == HAL_MPIDR_EL1       ? hc->cfg.pe.mpidr | UINT64_C(0x80000000)
                : reg == HAL_ID_AA64DFR0_EL1 ? dfr0 | 0x6 /* DebugVer: Armv8.0 */
                                             : dfr1;
        }
    } else {
        st = hal_status_of_access(pmt_pe_sysreg_read(hc->pe, hal_sysreg_to_pmt(reg), &v));
    }
    if (st != HAL_OK)
        v = 0;
    *value = v;
    report(hc, HAL_CORE_SYSREG_READ, reg, 0, v, st);
    take_irqs(hc);
    return st;
}

static hal_status core_sysreg_write(void *ctx, hal_sysreg reg, uint64_t value)
{
    hal_core *hc = ctx;
    hal_status st;
    if (reg == HAL_CURRENTEL || reg == HAL_MPIDR_EL1 || reg == HAL_ID_AA64DFR0_EL1 ||
        reg == HAL_ID_AA64DFR1_EL1)
        st = HAL_UNDEFINED; /* read-only */
    else if (is_icc(reg))
        st = current_el(hc) == 0 ? HAL_UNDEFINED : icc_write(hc, reg, value);
    else
        st = hal_status_of_access(pmt_pe_sysreg_write(hc->pe, hal_sysreg_to_pmt(reg), value));
    report(hc, HAL_CORE_SYSREG_WRITE, reg, 0, value, st);
    take_irqs(hc);
    return st;
}

/* ISB is a Context synchronization event (pmt_pe_context_sync). */
static void core_isb(void *ctx)
{
    hal_core *hc = ctx;
    hc->stats.isb++;
    (void)pmt_pe_context_sync(hc->pe);
    report(hc, HAL_CORE_ISB, 0, 0, 0, HAL_OK);
    take_irqs(hc);
}

static void core_dsb(void *ctx)
{
    hal_core *hc = ctx;
    hc->stats.dsb++;
    report(hc, HAL_CORE_DSB, 0, 0, 0, HAL_OK);
}

static void core_tsb_csync(void *ctx)
{
    hal_core *hc = ctx;
    hc->stats.tsb_csync++;
    if (hc->cfg.pe.trbe.feat_trbe)
        (void)pmt_trbe_tsb_csync(hc->pe);
    report(hc, HAL_CORE_TSB_CSYNC, 0, 0, 0, HAL_OK);
    take_irqs(hc);
}

static bool in_ram(const hal_core *hc, uint64_t pa, uint64_t n)
{
    return pa >= hc->cfg.ram_base && n <= hc->cfg.ram_size &&
           pa - hc->cfg.ram_base <= hc->cfg.ram_size - n;
}

static bool good_size(uint64_t pa, unsigned size)
{
    return (size == 1 || size == 2 || size == 4 || size == 8) && (pa & (size - 1)) == 0;
}

static hal_status core_mmio_read(void *ctx, uint64_t pa, unsigned size, uint64_t *value)
{
    hal_core *hc = ctx;
    hal_status st = HAL_OK;
    uint64_t v = 0;
    uint32_t w = 0, w2 = 0;
    if (!good_size(pa, size)) {
        st = HAL_BUS_ERROR;
    } else if (in_ram(hc, pa, size)) {
        for (unsigned i = 0; i < size; i++)
            v |= (uint64_t)hc->ram[pa - hc->cfg.ram_base + i] << (8 * i);
    } else if (gic_reg_read(hc, pa & ~UINT64_C(3), &w)) {
        if (size == 8) {
            (void)gic_reg_read(hc, pa + 4, &w2);
            v = w | (uint64_t)w2 << 32;
        } else {
            v = (w >> (8 * (pa & 3))) & (size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1);
        }
    } else {
        st = HAL_NO_DEVICE;
    }
    *value = v;
    report(hc, HAL_CORE_MMIO_READ, 0, pa, v, st);
    take_irqs(hc);
    return st;
}

static hal_status core_mmio_write(void *ctx, uint64_t pa, unsigned size, uint64_t value)
{
    hal_core *hc = ctx;
    hal_status st = HAL_OK;
    uint32_t w = 0;
    if (!good_size(pa, size)) {
        st = HAL_BUS_ERROR;
    } else if (in_ram(hc, pa, size)) {
        for (unsigned i = 0; i < size; i++)
            hc->ram[pa - hc->cfg.ram_base + i] = (uint8_t)(value >> (8 * i));
    } else if (gic_reg_read(hc, pa & ~UINT64_C(3), &w)) {
        if (size == 8) {
            (void)gic_reg_write(hc, pa, (uint32_t)value);
            (void)gic_reg_write(hc, pa + 4, (uint32_t)(value >> 32));
        } else if (size == 4) {
            (void)gic_reg_write(hc, pa, (uint32_t)value);
        } else { /* byte or halfword: merge into the word (IPRIORITYR is byte-accessible) */
            unsigned sh = 8u * (unsigned)(pa & 3);
            uint32_t m = ((1u << (8 * size)) - 1) << sh;
            (void)gic_reg_write(hc, pa & ~UINT64_C(3), (w & ~m) | (((uint32_t)value << sh) & m));
        }
    } else {
        st = HAL_NO_DEVICE;
    }
    report(hc, HAL_CORE_MMIO_WRITE, 0, pa, value, st);
    take_irqs(hc);
    return st;
}

static hal_status core_mem_read(void *ctx, uint64_t va, void *dst, size_t n)
{
    hal_core *hc = ctx;
    if (!dst && n)
        return HAL_INVALID;
    if (!in_ram(hc, va, n))
        return HAL_NO_DEVICE;
    if (n)
        memcpy(dst, hc->ram + (va - hc->cfg.ram_base), n);
    return HAL_OK;
}

static bool core_irq_mask(void *ctx, bool masked)
{
    hal_core *hc = ctx;
    bool prev = hc->masked;
    hc->masked = masked;
    take_irqs(hc);
    return prev;
}

static bool core_wfi(void *ctx)
{
    hal_core *hc = ctx;
    bool pending = gic_highest(hc, true) >= 0;
    report(hc, HAL_CORE_WFI, 0, 0, pending, HAL_OK);
    take_irqs(hc);
    return pending;
}

static void core_set_irq_entry(void *ctx, hal_irq_entry entry, void *arg)
{
    hal_core *hc = ctx;
    hc->entry = entry;
    hc->entry_arg = arg;
    take_irqs(hc);
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* n events, in steps that end where an overflow makes something visible. */
static hal_status run_event(hal_core *hc, uint16_t event, uint64_t n)
{
    while (n) {
        uint64_t room = pmt_pmu_headroom(hc->pe, event);
        uint64_t step = min64(n, room ? room : 1);
        if (pmt_pmu_count(hc->pe, event, step) != PMT_OK)
            return HAL_INVALID;
        n -= step;
        take_irqs(hc);
    }
    return HAL_OK;
}

/* The Trace Buffer Unit of the model, as hal_trace_deliver reaches it. */
static uint64_t sink_headroom(void *ctx)
{
    pmt_trbe_status s;
    return pmt_trbe_get_status(((hal_core *)ctx)->pe, &s) == PMT_OK ? s.headroom : UINT64_MAX;
}

static bool sink_bytes(void *ctx, const uint8_t *data, size_t n)
{
    return pmt_trbe_trace(((hal_core *)ctx)->pe, data, n, NULL) == PMT_OK;
}

static void sink_trigger(void *ctx)
{
    (void)pmt_trbe_detected_trigger(((hal_core *)ctx)->pe);
}

static void sink_step_done(void *ctx)
{
    take_irqs(ctx);
}

/* The trace unit generates the work's trace where the PE sees trace allowed at the work's state
 * (pmt_trbe_trace_allowed: TRFCR_ELx, the buffer's owner, and the stale view of the TRBE
 * erratum erratum_ctxt_sync_after_enable). */
static hal_status run_trace(hal_core *hc, const uint8_t *bytes, size_t n, size_t trigger_at)
{
    const hal_trace_sink sink = {hc, sink_headroom, sink_bytes, sink_trigger, sink_step_done};
    return hal_trace_deliver(&sink, pmt_trbe_trace_allowed(hc->pe), bytes, n, trigger_at,
                             &hc->stats.trace_bytes, &hc->stats.trace_dropped);
}

static hal_status core_run(void *ctx, const hal_work *w)
{
    hal_core *hc = ctx;
    if (!w || (w->num_events && !w->events) || (w->trace_len && !w->trace) || w->el > hc->kernel.el)
        return HAL_INVALID;
    set_el(hc, w->el);
    hal_status st = run_event(hc, PMT_EV_INST_RETIRED, w->instructions);
    if (st == HAL_OK)
        st = run_event(hc, PMT_EV_CPU_CYCLES, w->cycles);
    for (size_t i = 0; st == HAL_OK && i < w->num_events; i++)
        st = run_event(hc, w->events[i].event, w->events[i].count);
    if (st == HAL_OK && (w->trace_len || w->trigger_at != HAL_NO_TRIGGER)) {
        if (hc->cfg.pe.trbe.feat_trbe)
            st = run_trace(hc, w->trace, w->trace_len, w->trigger_at);
        else
            hc->stats.trace_dropped += w->trace_len;
    }
    (void)pmt_pe_set_state(hc->pe, &hc->kernel);
    take_irqs(hc);
    return st;
}

static void core_console_write(void *ctx, const char *text, size_t n)
{
    hal_core *hc = ctx;
    if (hc->cfg.console)
        hc->cfg.console(hc->cfg.user, text, n);
}

static const hal_ops core_ops = {
    core_sysreg_read,   core_sysreg_write, core_isb,           core_dsb,      core_tsb_csync,
    core_mmio_read,     core_mmio_write,   core_mem_read,      core_irq_mask, core_wfi,
    core_set_irq_entry, core_run,          core_console_write,
};

/* ---- the model's outputs and memory port --------------------------------------------------- */

static void on_pmuirq(void *user, bool level)
{
    hal_core *hc = user;
    if (hc->cfg.pmu_intid < NUM_PRIVATE_IRQS)
        hc->line[hc->cfg.pmu_intid] = level;
}

static void on_trbirq(void *user, bool level)
{
    hal_core *hc = user;
    if (hc->cfg.trbe_intid < NUM_PRIVATE_IRQS)
        hc->line[hc->cfg.trbe_intid] = level;
}

static void on_serror(void *user)
{
    ((hal_core *)user)->stats.serrors++;
}

static void on_log(void *user, const char *message)
{
    hal_core *hc = user;
    if (hc->cfg.log)
        hc->cfg.log(hc->cfg.user, message);
}

static void on_translate(void *user, uint64_t va, const pmt_trbe_regime *regime,
                         pmt_trbe_translation *out)
{
    hal_core *hc = user;
    (void)regime;
    for (unsigned i = 0; i < hc->nfaults; i++)
        if (va >= hc->faults[i].lo && va < hc->faults[i].hi) {
            out->fault = hc->faults[i].fault;
            return;
        }
}

static pmt_trbe_write_result on_write(void *user, uint64_t pa, pmt_security pas,
                                      const uint8_t *bytes, size_t n, size_t *done)
{
    hal_core *hc = user;
    (void)pas;
    for (unsigned i = 0; i < hc->naborts; i++) {
        const abort_range *a = &hc->aborts[i];
        if (pa + n > a->lo && pa < a->hi) {
            size_t ok = pa < a->lo ? (size_t)(a->lo - pa) : 0;
            if (ok && in_ram(hc, pa, ok))
                memcpy(hc->ram + (pa - hc->cfg.ram_base), bytes, ok);
            *done = ok;
            return a->result;
        }
    }
    if (!in_ram(hc, pa, n)) {
        *done = 0;
        return PMT_TRBE_WRITE_ABORT_SYNC; /* no memory there: a decode error */
    }
    memcpy(hc->ram + (pa - hc->cfg.ram_base), bytes, n);
    *done = n;
    return PMT_TRBE_WRITE_OK;
}

/* ---- creation ----------------------------------------------------------------------------- */

hal_core_config hal_core_config_default(void)
{
    hal_core_config c;
    memset(&c, 0, sizeof c);
    c.pe = pmt_pe_config_default();
    c.pe.trbe.feat_trbe = true;
    c.pe.os_lock_registers = true; /* OSLAR_EL1 ... are the model's (this HAL routes them) */
    c.pe.common_events[0] = ~UINT64_C(0);
    c.kernel_el = 1;
    c.firmware = true;
    c.pmu_intid = SW_PMU_INTID;
    c.trbe_intid = SW_TRBE_INTID;
    c.gicd_base = SW_VIRT_GICD_BASE;
    c.gicr_base = SW_VIRT_GICR_BASE;
    c.ram_base = UINT64_C(0x40000000);
    c.ram_size = (size_t)1 << 20;
    c.ram_fill = 0xEE;
    return c;
}

static void firmware_write(hal_core *hc, hal_sysreg reg, uint64_t value)
{
    if (pmt_pe_sysreg_write(hc->pe, hal_sysreg_to_pmt(reg), value) != PMT_ACCESS_OK && hc->cfg.log)
        hc->cfg.log(hc->cfg.user, "hal_core: firmware set-up write refused");
}

/* What EL3 and EL2 firmware do before the kernel runs (TF-A and a hypervisor or KVM's host
 * set-up): give the trace buffer and the counters to the kernel. */
static void firmware(hal_core *hc)
{
    const pmt_pe_config *p = &hc->cfg.pe;
    pmt_pe_state s;
    memset(&s, 0, sizeof s);
    if (p->have_el3) {
        s.el = 3;
        s.ss = p->have_rme ? PMT_SS_ROOT : PMT_SS_SECURE;
        s.scr_ns = true;
        s.el2_enabled = p->have_el2; /* EL2Enabled(): SCR_EL3.NS = 1 */
        (void)pmt_pe_set_state(hc->pe, &s);
        firmware_write(hc, HAL_MDCR_EL3,
                       hal_firmware_mdcr_el3(p->pmu_version >= PMT_PMUV3P9, p->trbe.feat_trbe,
                                             p->trbe.feat_trbe_exc));
    }
    if (p->have_el2) {
        memset(&s, 0, sizeof s);
        s.el = 2;
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = true;
        (void)pmt_pe_set_state(hc->pe, &s);
        firmware_write(
            hc, HAL_MDCR_EL2,
            hal_firmware_mdcr_el2(p->num_counters, p->trbe.feat_trbe, hc->cfg.kernel_el));
    }
}

hal_core *hal_core_create(const hal_core_config *config)
{
    if (!config || config->ram_size == 0 || (config->kernel_el != 1 && config->kernel_el != 2) ||
        (config->kernel_el == 2 && !config->pe.have_el2))
        return NULL;
    hal_core *hc = calloc(1, sizeof *hc);
    if (!hc)
        return NULL;
    hc->cfg = *config;
    hc->ram = malloc(config->ram_size);
    pmt_pe_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.user = hc;
    cb.pmuirq = on_pmuirq;
    cb.log = on_log;
    hc->pe = hc->ram ? pmt_pe_create(&config->pe, &cb) : NULL;
    if (!hc->pe) {
        hal_core_destroy(hc);
        return NULL;
    }
    memset(hc->ram, config->ram_fill, config->ram_size);
    if (config->pe.trbe.feat_trbe) {
        pmt_trbe_callbacks tcb;
        memset(&tcb, 0, sizeof tcb);
        tcb.user = hc;
        tcb.trbirq = on_trbirq;
        tcb.serror = on_serror;
        tcb.translate = on_translate;
        tcb.write = on_write;
        (void)pmt_trbe_set_callbacks(hc->pe, &tcb);
    }
    if (config->firmware)
        firmware(hc);
    memset(&hc->kernel, 0, sizeof hc->kernel);
    hc->kernel.el = config->kernel_el;
    hc->kernel.ss = PMT_SS_NONSECURE;
    hc->kernel.el2_enabled = config->pe.have_el2;
    hc->kernel.hcr_e2h = config->kernel_el == 2;
    hc->kernel.hcr_tge = config->kernel_el == 2;
    hc->kernel.scr_ns = true;
    (void)pmt_pe_set_state(hc->pe, &hc->kernel);
    hc->masked = true; /* the PE comes out of reset with PSTATE.I set */
    hc->processor_sleep = true;
    hc->pmr = 0;
    hc->h.ops = &core_ops;
    hc->h.ctx = hc;
    return hc;
}

void hal_core_destroy(hal_core *hc)
{
    if (!hc)
        return;
    pmt_pe_destroy(hc->pe);
    free(hc->ram);
    free(hc);
}

const hal *hal_core_hal(hal_core *hc)
{
    return hc ? &hc->h : NULL;
}

pmt_pe *hal_core_pe(hal_core *hc)
{
    return hc ? hc->pe : NULL;
}

uint8_t *hal_core_ram(hal_core *hc)
{
    return hc ? hc->ram : NULL;
}

pmt_status hal_core_add_fault(hal_core *hc, uint64_t va_lo, uint64_t va_hi,
                              const pmt_trbe_fault *fault)
{
    if (!hc || !fault)
        return PMT_ERR_NULL;
    if (hc->nfaults == MAX_FAULTS || va_hi <= va_lo)
        return PMT_ERR_ARG;
    hc->faults[hc->nfaults].lo = va_lo;
    hc->faults[hc->nfaults].hi = va_hi;
    hc->faults[hc->nfaults].fault = *fault;
    hc->nfaults++;
    return PMT_OK;
}

pmt_status hal_core_add_abort(hal_core *hc, uint64_t pa_lo, uint64_t pa_hi,
                              pmt_trbe_write_result result)
{
    if (!hc)
        return PMT_ERR_NULL;
    if (hc->naborts == MAX_FAULTS || pa_hi <= pa_lo)
        return PMT_ERR_ARG;
    hc->aborts[hc->naborts].lo = pa_lo;
    hc->aborts[hc->naborts].hi = pa_hi;
    hc->aborts[hc->naborts].result = result;
    hc->naborts++;
    return PMT_OK;
}

void hal_core_clear_faults(hal_core *hc)
{
    if (hc) {
        hc->nfaults = 0;
        hc->naborts = 0;
    }
}

hal_core_stats hal_core_get_stats(const hal_core *hc)
{
    hal_core_stats s;
    memset(&s, 0, sizeof s);
    return hc ? hc->stats : s;
}

bool hal_core_line(const hal_core *hc, unsigned intid)
{
    return hc && intid < NUM_PRIVATE_IRQS && hc->line[intid];
}

bool hal_core_irq_pending(const hal_core *hc)
{
    return hc && gic_highest(hc, true) >= 0;
}
