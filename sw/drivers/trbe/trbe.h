/*
 * trbe.h - a Trace Buffer Unit driver that behaves as Linux's coresight-trbe
 * (drivers/hwtracing/coresight/coresight-trbe.c): probe, reset, the enable sequence, drain,
 * disable, and the interrupt handler's classification of a management event (trbe_get_fault_act).
 *
 * Linux only uses Fill mode with the trigger ignored; the enable call here takes the buffer mode
 * and trigger mode as parameters (their defaults, zero, are Linux's), so the apps can capture in
 * Wrap and Circular Buffer modes and with triggers through the same sequence.
 */
#ifndef PMTRACE_SW_TRBE_H
#define PMTRACE_SW_TRBE_H

#include "../../hal/hal.h"
#include "../../sw_errno.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What Linux does with a management event (enum trbe_fault_action). */
typedef enum sw_trbe_act {
    SW_TRBE_ACT_WRAP = 0,     /* TRBE_FAULT_ACT_WRAP: the buffer filled; restart on the next part */
    SW_TRBE_ACT_SPURIOUS = 1, /* TRBE_FAULT_ACT_SPURIOUS: re-enable with the same parameters */
    SW_TRBE_ACT_FATAL = 2     /* TRBE_FAULT_ACT_FATAL: stop and truncate the session */
} sw_trbe_act;

/* Why the unit interrupted, from TRBSR_EL1 (finer than the action; for reports). */
typedef enum sw_trbe_cause {
    SW_TRBE_CAUSE_NONE = 0,       /* no interrupt pending (IRQ_NONE) */
    SW_TRBE_CAUSE_BUFFER_FULL,    /* stopped: EC 0, BSC buffer full (Fill mode reached the limit) */
    SW_TRBE_CAUSE_WRAP,           /* not stopped, WRAP: Wrap mode wrapped */
    SW_TRBE_CAUSE_TRIGGER,        /* a Trigger Event: stopped with BSC trigger, or IRQ on trigger */
    SW_TRBE_CAUSE_FAULT,          /* EC 0x24 or 0x25: an MMU fault on a trace write (FSC in MSS) */
    SW_TRBE_CAUSE_EXTERNAL_ABORT, /* TRBSR_EL1.EA: an External abort on a trace write */
    SW_TRBE_CAUSE_GPC,            /* EC 0x1E: a Granule Protection Check fault */
    SW_TRBE_CAUSE_IMPDEF,         /* EC 0x1F: an IMPLEMENTATION DEFINED event */
    SW_TRBE_CAUSE_OTHER           /* anything else (e.g. stopped with BSC 0, IRQ set by software) */
} sw_trbe_cause;

const char *sw_trbe_act_name(sw_trbe_act act);
const char *sw_trbe_cause_name(sw_trbe_cause cause);

/* What the handler found. */
typedef struct sw_trbe_irq_info {
    bool irq;         /* TRBSR_EL1.IRQ was set (else IRQ_NONE and nothing else is valid) */
    bool was_enabled; /* sw_trbe_update_buffer: the unit was enabled when the session ended */
    uint64_t trbsr;   /* TRBSR_EL1 as read first */
    uint64_t trbptr;  /* TRBPTR_EL1, TRBBASER_EL1, TRBLIMITR_EL1 after draining */
    uint64_t trbbaser;
    uint64_t trblimitr;
    uint64_t trfcr;  /* TRFCR_EL1 before the handler prohibited trace */
    sw_trbe_act act; /* trbe_get_fault_act */
    sw_trbe_cause cause;
    unsigned ec;  /* TRBSR_EL1.EC */
    unsigned mss; /* TRBSR_EL1.MSS */
    unsigned fsc; /* MSS[5:0]: the FSC for EC 0x24/0x25, the BSC for EC 0 */
} sw_trbe_irq_info;

/* A buffer to enable (trbe_buf, with the modes as parameters). */
typedef struct sw_trbe_buf {
    uint64_t base;          /* TRBBASER_EL1: 4 KiB aligned */
    uint64_t limit;         /* TRBLIMITR_EL1.LIMIT: 4 KiB aligned, above base */
    uint64_t write;         /* TRBPTR_EL1: in [base, limit) */
    unsigned fill_mode;     /* PMT_TRBLIMITR_FM_*; 0 = Fill (Linux) */
    unsigned trig_mode;     /* PMT_TRBLIMITR_TM_*; Linux's is TM_IGNORE (3) */
    uint64_t trigger_count; /* TRBTRG_EL1; written (before enabling) unless trig_mode is TM_IGNORE
                               and the count is 0 */
} sw_trbe_buf;

/* Linux's buffer: Fill mode, trigger ignored. */
static inline sw_trbe_buf sw_trbe_linux_buf(uint64_t base, uint64_t write, uint64_t limit)
{
    sw_trbe_buf b;
    b.base = base;
    b.limit = limit;
    b.write = write;
    b.fill_mode = PMT_TRBLIMITR_FM_FILL;
    b.trig_mode = PMT_TRBLIMITR_TM_IGNORE;
    b.trigger_count = 0;
    return b;
}

typedef struct sw_trbe {
    const hal *h;
    uint64_t trbidr;                     /* TRBIDR_EL1 */
    uint64_t hw_align;                   /* trbe_hw_align: 1 << TRBIDR_EL1.Align */
    uint64_t align;                      /* trbe_align */
    bool flag_update;                    /* TRBIDR_EL1.F */
    uint64_t irqs;                       /* interrupts handled (IRQ set) */
    uint64_t irqs_none;                  /* IRQ_NONE: TRBSR_EL1.IRQ was clear */
    bool erratum_drain_after_disable;    /* TRBE_NEEDS_DRAIN_AFTER_DISABLE (Cortex-A510 erratum
                                            2064142): TSB CSYNC after each disable; the user sets
                                            it after probe for an affected core */
    bool erratum_ctxt_sync_after_enable; /* TRBE_NEEDS_CTXT_SYNC_AFTER_ENABLE (Cortex-A510
                                            erratum 2038923): a second ISB after each enable,
                                            so that the PE sees the prohibited regions again
                                            before execution changes context; the user sets
                                            it after probe for an affected core */
    /* TRBE_WORKAROUND_OVERWRITE_FILL_MODE: a Fill-mode unit may write up to 256 bytes more from
     * TRBBASER_EL1 after the buffer fills. sw_trbe_enable sets TRBBASER_EL1 to the (page
     * aligned) write pointer and starts the trace 256 bytes after it, so that what the unit
     * overwrites is never trace of the session (trbe_apply_work_around_before_enable). */
    bool erratum_overwrite_fill_mode;
    /* TRBE_WORKAROUND_WRITE_OUT_OF_RANGE: at a wrap the unit may write up to 64 bytes at the
     * Limit pointer, outside the buffer. sw_trbe_enable keeps the buffer's last page out of the
     * unit's range (TRBLIMITR_EL1.LIMIT a page lower), so that those bytes land in it. */
    bool erratum_write_out_of_range;
    /* What the last sw_trbe_enable programmed, after the workarounds: the session's trace
     * starts at session_start and the unit wraps at session_limit. */
    uint64_t session_start, session_limit;
    hal_status err; /* the first register access that failed (sticky; probe clears) */
    hal_sysreg err_reg;
} sw_trbe;

/* arm_trbe_probe_cpu + arm_trbe_enable_cpu: ID_AA64DFR0_EL1.TraceBuffer (SW_ENODEV if 0),
 * TRBIDR_EL1.P (SW_EBUSY: "TRBE is owned in higher exception level"), Align (SW_EOPNOTSUPP
 * above 2 KiB), F; then trbe_reset_local. SW_EIO when an access fails (t->err says which). */
int sw_trbe_probe(sw_trbe *t, const hal *h);
/* trbe_reset_local: drain and disable, then TRBLIMITR, TRBPTR, TRBBASER, TRBSR = 0. */
int sw_trbe_reset_local(sw_trbe *t);
/* trbe_enable_hw: disable (E = 0, ISB), clear the status, TRBBASER, TRBPTR (TRBTRG), ISB, then
 * TRBLIMITR with the limit, modes, nVM = 0 and E = 1, ISB. SW_EINVAL for a bad buffer. */
int sw_trbe_enable(sw_trbe *t, const sw_trbe_buf *buf);
/* trbe_drain_buffer: TSB CSYNC, DSB. */
void sw_trbe_drain(sw_trbe *t);
/* set_trbe_disabled: TRBLIMITR_EL1.E = 0, ISB. */
void sw_trbe_disable(sw_trbe *t);
/* trbe_drain_and_disable_local */
void sw_trbe_drain_and_disable(sw_trbe *t);
/* trbe_handle_spurious: set_trbe_enabled with TRBLIMITR_EL1 as it is (E = 1, ISB). */
void sw_trbe_reenable(sw_trbe *t);
/* clr_trbe_status: IRQ, TRG, WRAP, EC, BSC and S cleared (the unit must be disabled). */
void sw_trbe_clear_status(sw_trbe *t);

/* arm_trbe_irq_handler up to its decision: TRBSR_EL1 read (SW_IRQ_NONE if IRQ is clear); trace
 * prohibited (cpu_prohibit_trace, the old TRFCR_EL1 in info->trfcr); drained and disabled; IRQ
 * cleared; ISB; the action (trbe_get_fault_act) and the cause. The caller then restarts
 * (sw_trbe_enable), re-enables (sw_trbe_reenable) or stops, and restores TRFCR_EL1 with
 * sw_trbe_write_trfcr unless it stops. Returns SW_IRQ_HANDLED or SW_IRQ_NONE. */
int sw_trbe_irq(sw_trbe *t, sw_trbe_irq_info *info);
/* trbe_get_fault_act for a TRBSR_EL1 value (reads TRBPTR_EL1 and TRBBASER_EL1). */
sw_trbe_act sw_trbe_get_fault_act(sw_trbe *t, uint64_t trbsr);
/* The cause of a TRBSR_EL1 value. */
sw_trbe_cause sw_trbe_get_cause(uint64_t trbsr);
/* arm_trbe_update_buffer at the end of a session, with IRQs masked: if the unit is enabled,
 * drain and disable it and handle a pending interrupt (cleared; its action and cause in info).
 * info->trbptr is where the trace ends. */
int sw_trbe_update_buffer(sw_trbe *t, sw_trbe_irq_info *info);

/* TRFCR_EL1 (the trace filter the trace unit's driver owns): cpu_prohibit_trace and its undo. */
uint64_t sw_trbe_prohibit_trace(sw_trbe *t);
void sw_trbe_write_trfcr(sw_trbe *t, uint64_t trfcr);

uint64_t sw_trbe_write_pointer(sw_trbe *t); /* get_trbe_write_pointer */
uint64_t sw_trbe_base_pointer(sw_trbe *t);  /* get_trbe_base_pointer */
uint64_t sw_trbe_limit_pointer(sw_trbe *t); /* get_trbe_limit_pointer */
bool sw_trbe_is_enabled(sw_trbe *t);        /* is_trbe_enabled */

static inline int sw_trbe_status(const sw_trbe *t)
{
    return t->err == HAL_OK ? SW_OK : SW_EIO;
}

#ifdef __cplusplus
}
#endif

#endif
