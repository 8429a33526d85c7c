/*
 * gicv3.h - the part of a GICv3 driver the PMU and TRBE drivers need (after Linux's
 * irq-gic-v3.c): the distributor and this CPU's redistributor and CPU interface brought up, private
 * interrupts (PPIs) requested and enabled, and the IRQ entry that acknowledges through
 * ICC_IAR1_EL1, runs the handler and ends the interrupt through ICC_EOIR1_EL1 (EOImode 0).
 */
#ifndef PMTRACE_SW_GICV3_H
#define PMTRACE_SW_GICV3_H

#include "../../hal/hal.h"
#include "../../sw_errno.h"
#include "gicv3_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a handler returns (Linux irqreturn_t). */
#define SW_IRQ_NONE    0
#define SW_IRQ_HANDLED 1

typedef int (*sw_irq_handler)(unsigned intid, void *arg);

#define SW_GIC_MAX_HANDLERS     8
#define SW_GIC_DEFAULT_PRIORITY 0xA0u /* GICD_INT_DEF_PRI */
#define SW_GIC_DEFAULT_PMR      0xF0u /* DEFAULT_PMR_VALUE */

typedef struct sw_gic_handler {
    unsigned intid;
    sw_irq_handler fn;
    void *arg;
    uint64_t count; /* times it returned SW_IRQ_HANDLED */
} sw_gic_handler;

typedef struct sw_gic {
    const hal *h;
    uint64_t gicd, gicr; /* distributor base, this CPU's redistributor RD_base */
    sw_gic_handler handlers[SW_GIC_MAX_HANDLERS];
    unsigned num_handlers;
    uint64_t irqs;      /* interrupts acknowledged */
    uint64_t spurious;  /* entries where ICC_IAR1_EL1 gave INTID 1023 */
    uint64_t unhandled; /* acknowledged, but no handler or every handler said SW_IRQ_NONE */
    hal_status err;     /* the first access that failed (HAL_OK if none) */
} sw_gic;

/* Brings up the distributor (ARE_NS, Group 1 enabled), wakes this CPU's redistributor, sets its
 * private interrupts to Non-secure Group 1, disabled, priority 0xA0, the CPU interface (SRE, PMR
 * 0xF0, BPR1 0, EOImode 0, Group 1 enabled), and installs the IRQ entry. IRQs stay masked. */
int sw_gic_init(sw_gic *g, const hal *h, uint64_t gicd_base, uint64_t gicr_base);

/* request_percpu_irq + enable_percpu_irq: a level-sensitive PPI (16..31) with its handler. */
int sw_gic_request_ppi(sw_gic *g, unsigned intid, sw_irq_handler fn, void *arg);
/* disable_percpu_irq + free_percpu_irq. */
void sw_gic_free_ppi(sw_gic *g, unsigned intid);

/* The IRQ entry (installed by sw_gic_init): IAR1, handler, EOIR1. */
void sw_gic_handle_irq(void *gic);

#ifdef __cplusplus
}
#endif

#endif
