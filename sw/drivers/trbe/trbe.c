/*
 * trbe.c - the coresight-trbe driver (trbe.h). Function names in comments are Linux's.
 */
#include "trbe.h"

#include "../gic/gicv3.h"

#include <string.h>

#define PAGE_SIZE                      UINT64_C(4096)
/* TRBE_WORKAROUND_OVERWRITE_FILL_MODE_SKIP_BYTES: what an affected unit may overwrite. */
#define OVERWRITE_FILL_MODE_SKIP_BYTES UINT64_C(256)
#define SZ_2K                          UINT64_C(2048)
#define BSC_MASK                       UINT64_C(0x3F) /* TRBSR_EL1_BSC_MASK: MSS[5:0] */
#define TRFCR_ExTRE                    PMT_MASK(TRFCR_EL1, E1TRE)
#define TRFCR_E0TRE                    PMT_MASK(TRFCR_EL1, E0TRE)

static void note(sw_trbe *t, hal_sysreg reg, hal_status s)
{
    if (s != HAL_OK && t->err == HAL_OK) {
        t->err = s;
        t->err_reg = reg;
    }
}

static uint64_t rd(sw_trbe *t, hal_sysreg reg)
{
    uint64_t v = 0;
    note(t, reg, hal_sysreg_read(t->h, reg, &v));
    return v;
}

static void wr(sw_trbe *t, hal_sysreg reg, uint64_t v)
{
    note(t, reg, hal_sysreg_write(t->h, reg, v));
}

const char *sw_trbe_act_name(sw_trbe_act act)
{
    switch (act) {
    case SW_TRBE_ACT_WRAP: return "WRAP";
    case SW_TRBE_ACT_SPURIOUS: return "SPURIOUS";
    case SW_TRBE_ACT_FATAL: return "FATAL";
    }
    return "?";
}

const char *sw_trbe_cause_name(sw_trbe_cause cause)
{
    switch (cause) {
    case SW_TRBE_CAUSE_NONE: return "none";
    case SW_TRBE_CAUSE_BUFFER_FULL: return "buffer full";
    case SW_TRBE_CAUSE_WRAP: return "wrap";
    case SW_TRBE_CAUSE_TRIGGER: return "trigger";
    case SW_TRBE_CAUSE_FAULT: return "fault";
    case SW_TRBE_CAUSE_EXTERNAL_ABORT: return "external abort";
    case SW_TRBE_CAUSE_GPC: return "granule protection check";
    case SW_TRBE_CAUSE_IMPDEF: return "implementation defined";
    case SW_TRBE_CAUSE_OTHER: return "other";
    }
    return "?";
}

uint64_t sw_trbe_write_pointer(sw_trbe *t)
{
    return rd(t, HAL_TRBPTR_EL1);
}

uint64_t sw_trbe_base_pointer(sw_trbe *t)
{
    return rd(t, HAL_TRBBASER_EL1) & PMT_MASK(TRBBASER, BASE);
}

uint64_t sw_trbe_limit_pointer(sw_trbe *t)
{
    return rd(t, HAL_TRBLIMITR_EL1) & PMT_MASK(TRBLIMITR, LIMIT);
}

bool sw_trbe_is_enabled(sw_trbe *t)
{
    return PMT_GET(TRBLIMITR, E, rd(t, HAL_TRBLIMITR_EL1)) != 0;
}

/* trbe_drain_buffer */
void sw_trbe_drain(sw_trbe *t)
{
    hal_tsb_csync(t->h);
    hal_dsb(t->h);
}

/* set_trbe_disabled: disable the TRBE before changing TRBLIMITR. With the drain-after-disable
 * erratum, TSB CSYNC and DSB follow, or later TRBE register writes may be ignored. */
void sw_trbe_disable(sw_trbe *t)
{
    uint64_t trblimitr = rd(t, HAL_TRBLIMITR_EL1);
    trblimitr &= ~PMT_MASK(TRBLIMITR, E);
    wr(t, HAL_TRBLIMITR_EL1, trblimitr);
    if (t->erratum_drain_after_disable)
        sw_trbe_drain(t);
    hal_isb(t->h);
}

void sw_trbe_drain_and_disable(sw_trbe *t)
{
    sw_trbe_drain(t);
    sw_trbe_disable(t);
}

/* set_trbe_enabled: enable without clearing LIMITPTR; ISB synchronizes the enable. With the
 * context-synchronization-after-enable erratum a second ISB follows, or the PE may keep a stale
 * view of whether trace is prohibited across the next change of context. */
static void set_trbe_enabled(sw_trbe *t, uint64_t trblimitr)
{
    trblimitr |= PMT_MASK(TRBLIMITR, E);
    wr(t, HAL_TRBLIMITR_EL1, trblimitr);
    hal_isb(t->h);
    if (t->erratum_ctxt_sync_after_enable)
        hal_isb(t->h);
}

void sw_trbe_reenable(sw_trbe *t)
{
    set_trbe_enabled(t, rd(t, HAL_TRBLIMITR_EL1));
}

void sw_trbe_clear_status(sw_trbe *t)
{
    uint64_t trbsr = rd(t, HAL_TRBSR_EL1);
    trbsr &= ~(PMT_MASK(TRBSR, IRQ) | PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, WRAP) |
               PMT_MASK(TRBSR, EC) | BSC_MASK | PMT_MASK(TRBSR, S));
    wr(t, HAL_TRBSR_EL1, trbsr);
}

/* clr_trbe_irq */
static void clr_trbe_irq(sw_trbe *t)
{
    wr(t, HAL_TRBSR_EL1, rd(t, HAL_TRBSR_EL1) & ~PMT_MASK(TRBSR, IRQ));
}

int sw_trbe_reset_local(sw_trbe *t)
{
    if (!t || !t->h)
        return SW_EINVAL;
    sw_trbe_drain_and_disable(t);
    wr(t, HAL_TRBLIMITR_EL1, 0);
    wr(t, HAL_TRBPTR_EL1, 0);
    wr(t, HAL_TRBBASER_EL1, 0);
    wr(t, HAL_TRBSR_EL1, 0);
    return sw_trbe_status(t);
}

int sw_trbe_probe(sw_trbe *t, const hal *h)
{
    if (!t || !h)
        return SW_EINVAL;
    memset(t, 0, sizeof *t);
    t->h = h;
    /* is_trbe_available */
    uint64_t dfr0 = rd(t, HAL_ID_AA64DFR0_EL1);
    if (t->err != HAL_OK)
        return SW_EIO;
    if (PMT_GET(DFR0, TraceBuffer, dfr0) < 1)
        return SW_ENODEV; /* "TRBE is not implemented" */
    t->trbidr = rd(t, HAL_TRBIDR_EL1);
    if (t->err != HAL_OK)
        return SW_EIO;
    /* is_trbe_programmable */
    if (PMT_GET(TRBIDR, P, t->trbidr))
        return SW_EBUSY; /* "TRBE is owned in higher exception level" */
    t->hw_align = UINT64_C(1) << PMT_GET(TRBIDR, Align, t->trbidr);
    if (t->hw_align > SZ_2K)
        return SW_EOPNOTSUPP; /* "Unsupported alignment" */
    t->align = t->hw_align;
    t->flag_update = PMT_GET(TRBIDR, F, t->trbidr) != 0;
    /* arm_trbe_enable_cpu */
    return sw_trbe_reset_local(t);
}

/* trbe_apply_work_around_before_enable: the buffer the unit gets on an affected core. */
static int apply_workarounds(const sw_trbe *t, sw_trbe_buf *b)
{
    if (t->erratum_overwrite_fill_mode && b->fill_mode == PMT_TRBLIMITR_FM_FILL) {
        if (b->write & (PAGE_SIZE - 1))
            return SW_EINVAL;
        b->base = b->write;
        b->write += OVERWRITE_FILL_MODE_SKIP_BYTES;
    }
    if (t->erratum_write_out_of_range) {
        if (b->limit <= b->write || b->limit - b->write <= PAGE_SIZE)
            return SW_EINVAL;
        b->limit -= PAGE_SIZE;
    }
    return SW_OK;
}

int sw_trbe_enable(sw_trbe *t, const sw_trbe_buf *buf)
{
    if (!t || !t->h || !buf)
        return SW_EINVAL;
    sw_trbe_buf w = *buf;
    const sw_trbe_buf *b = &w;
    /* The WARN_ONs of trbe_enable_hw and set_trbe_limit_pointer_enabled. */
    if ((b->base | b->limit) & (PAGE_SIZE - 1) || b->limit <= b->base || b->write < b->base ||
        b->write >= b->limit || b->fill_mode > 3 || b->trig_mode > 3 ||
        apply_workarounds(t, &w) != SW_OK)
        return SW_EINVAL;
    t->session_start = b->write;
    t->session_limit = b->limit;
    sw_trbe_disable(t);
    sw_trbe_clear_status(t);
    wr(t, HAL_TRBBASER_EL1, b->base);
    wr(t, HAL_TRBPTR_EL1, b->write);
    if (b->trig_mode != PMT_TRBLIMITR_TM_IGNORE || b->trigger_count)
        wr(t, HAL_TRBTRG_EL1, b->trigger_count);
    /* Synchronize all the register updates till now before enabling the TRBE. */
    hal_isb(t->h);
    /* set_trbe_limit_pointer_enabled */
    uint64_t trblimitr = rd(t, HAL_TRBLIMITR_EL1);
    trblimitr &= ~(PMT_MASK(TRBLIMITR, nVM) | PMT_MASK(TRBLIMITR, FM) | PMT_MASK(TRBLIMITR, TM) |
                   PMT_MASK(TRBLIMITR, LIMIT));
    trblimitr |= PMT_PUT(TRBLIMITR, FM, b->fill_mode);
    trblimitr |= PMT_PUT(TRBLIMITR, TM, b->trig_mode);
    trblimitr |= b->limit & PMT_MASK(TRBLIMITR, LIMIT);
    set_trbe_enabled(t, trblimitr);
    return sw_trbe_status(t);
}

uint64_t sw_trbe_prohibit_trace(sw_trbe *t)
{
    uint64_t trfcr = rd(t, HAL_TRFCR_EL1);
    /* Prohibit tracing at EL0 & the kernel EL */
    wr(t, HAL_TRFCR_EL1, trfcr & ~(TRFCR_ExTRE | TRFCR_E0TRE));
    /* Return the original value for restoring later */
    return trfcr;
}

void sw_trbe_write_trfcr(sw_trbe *t, uint64_t trfcr)
{
    wr(t, HAL_TRFCR_EL1, trfcr);
    hal_isb(t->h);
}

sw_trbe_act sw_trbe_get_fault_act(sw_trbe *t, uint64_t trbsr)
{
    unsigned ec = (unsigned)PMT_GET(TRBSR, EC, trbsr);
    unsigned bsc = (unsigned)(trbsr & BSC_MASK);
    /* WARN_ON(is_trbe_running(trbsr)): the unit was disabled, S need not be set. */
    if (PMT_GET(TRBSR, TRG, trbsr) || PMT_GET(TRBSR, EA, trbsr))
        return SW_TRBE_ACT_FATAL;
    if (ec == PMT_TRBSR_EC_STAGE1_ABORT || ec == PMT_TRBSR_EC_STAGE2_ABORT)
        return SW_TRBE_ACT_FATAL;
    if (PMT_GET(TRBSR, WRAP, trbsr) && ec == PMT_TRBSR_EC_OTHER && bsc == PMT_TRBSR_BSC_FULL &&
        sw_trbe_write_pointer(t) == sw_trbe_base_pointer(t))
        return SW_TRBE_ACT_WRAP;
    return SW_TRBE_ACT_SPURIOUS;
}

sw_trbe_cause sw_trbe_get_cause(uint64_t trbsr)
{
    unsigned ec = (unsigned)PMT_GET(TRBSR, EC, trbsr);
    unsigned bsc = (unsigned)(trbsr & BSC_MASK);
    bool stopped = PMT_GET(TRBSR, S, trbsr) != 0;
    if (!PMT_GET(TRBSR, IRQ, trbsr))
        return SW_TRBE_CAUSE_NONE;
    if (PMT_GET(TRBSR, EA, trbsr))
        return SW_TRBE_CAUSE_EXTERNAL_ABORT;
    if (ec == PMT_TRBSR_EC_STAGE1_ABORT || ec == PMT_TRBSR_EC_STAGE2_ABORT)
        return SW_TRBE_CAUSE_FAULT;
    if (ec == PMT_TRBSR_EC_GPC)
        return SW_TRBE_CAUSE_GPC;
    if (ec == PMT_TRBSR_EC_IMPDEF)
        return SW_TRBE_CAUSE_IMPDEF;
    if (ec != PMT_TRBSR_EC_OTHER)
        return SW_TRBE_CAUSE_OTHER;
    if (stopped && bsc == PMT_TRBSR_BSC_FULL)
        return SW_TRBE_CAUSE_BUFFER_FULL;
    if (stopped && bsc == PMT_TRBSR_BSC_TRIGGER)
        return SW_TRBE_CAUSE_TRIGGER;
    if (!stopped && PMT_GET(TRBSR, TRG, trbsr))
        return SW_TRBE_CAUSE_TRIGGER;
    if (!stopped && PMT_GET(TRBSR, WRAP, trbsr))
        return SW_TRBE_CAUSE_WRAP;
    return SW_TRBE_CAUSE_OTHER;
}

static void classify(sw_trbe *t, sw_trbe_irq_info *info, uint64_t status)
{
    info->trbsr = status;
    info->ec = (unsigned)PMT_GET(TRBSR, EC, status);
    info->mss = (unsigned)PMT_GET(TRBSR, MSS, status);
    info->fsc = (unsigned)(status & BSC_MASK);
    info->trbptr = sw_trbe_write_pointer(t);
    info->trbbaser = rd(t, HAL_TRBBASER_EL1);
    info->trblimitr = rd(t, HAL_TRBLIMITR_EL1);
    info->act = sw_trbe_get_fault_act(t, status);
    info->cause = sw_trbe_get_cause(status);
}

int sw_trbe_irq(sw_trbe *t, sw_trbe_irq_info *info)
{
    memset(info, 0, sizeof *info);
    /* Reads to TRBSR_EL1 is fine when TRBE is active */
    uint64_t status = rd(t, HAL_TRBSR_EL1);
    /* If the pending IRQ was handled by update_buffer callback we have nothing to do here. */
    if (!PMT_GET(TRBSR, IRQ, status)) {
        t->irqs_none++;
        return SW_IRQ_NONE;
    }
    info->irq = true;
    info->was_enabled = true;
    /* Prohibit the CPU from tracing before we disable the TRBE */
    info->trfcr = sw_trbe_prohibit_trace(t);
    /* Ensure the trace is visible to the CPUs and any external aborts have been resolved. */
    sw_trbe_drain_and_disable(t);
    clr_trbe_irq(t);
    hal_isb(t->h);
    classify(t, info, status);
    t->irqs++;
    return SW_IRQ_HANDLED;
}

int sw_trbe_update_buffer(sw_trbe *t, sw_trbe_irq_info *info)
{
    if (!t || !t->h || !info)
        return SW_EINVAL;
    memset(info, 0, sizeof *info);
    /* We are about to disable the TRBE, which could fill up the buffer and trigger an IRQ:
     * make sure it cannot be taken while we are collecting the buffer. */
    bool flags = hal_irq_save(t->h);
    /* Disabled after a lack of space or a fault: the buffer was truncated (the registers are
     * still reported). */
    if (!sw_trbe_is_enabled(t)) {
        info->trbsr = rd(t, HAL_TRBSR_EL1);
        info->trbptr = sw_trbe_write_pointer(t);
        info->trbbaser = rd(t, HAL_TRBBASER_EL1);
        info->trblimitr = rd(t, HAL_TRBLIMITR_EL1);
        hal_irq_restore(t->h, flags);
        return sw_trbe_status(t);
    }
    info->was_enabled = true;
    sw_trbe_drain_and_disable(t);
    /* Check if there is a pending interrupt and handle it here */
    uint64_t status = rd(t, HAL_TRBSR_EL1);
    if (PMT_GET(TRBSR, IRQ, status)) {
        /* Clear the IRQ to let the irq handler know that it is taken care of. */
        clr_trbe_irq(t);
        hal_isb(t->h);
        info->irq = true;
        classify(t, info, status);
    } else {
        info->trbsr = status;
        info->trbptr = sw_trbe_write_pointer(t);
        info->trbbaser = rd(t, HAL_TRBBASER_EL1);
        info->trblimitr = rd(t, HAL_TRBLIMITR_EL1);
    }
    hal_irq_restore(t->h, flags);
    return sw_trbe_status(t);
}
