/*
 * hal_core.h - a HAL that runs the sw/ drivers directly on a pmt_pe (the C core), with no
 * SystemC: the PE, a small GICv3 (one CPU, the private interrupts 0..31), RAM and the TRBE's
 * memory port with fault injection. The tests of sw/ use it; so can any host program that wants
 * to run the drivers and apps on the model.
 *
 * What it does for each HAL call (sw/README.md "Running on the core HAL"):
 * - system registers: the model's registers go to pmt_pe_sysreg_read/write at the current PE
 *   state (statuses passed through; an encoding nobody implements is HAL_UNDEFINED); it answers
 *   CurrentEL, MPIDR_EL1, ID_AA64DFR0/1_EL1 (pmt_pe_id_aa64dfr) and the ICC_* registers itself;
 * - isb is recorded and is pmt_pe_context_sync (a Context synchronization event); dsb is
 *   recorded; tsb_csync is pmt_trbe_tsb_csync;
 * - MMIO reaches the GIC (distributor and redistributor at the virt addresses by default) and
 *   RAM; mem_read reads RAM (virtual addresses are physical: the identity map);
 * - run feeds the work to the model in steps cut at pmt_pmu_headroom and the TRBE headroom, so
 *   that every interrupt is taken at the exact event or byte that raises it; its trace where
 *   pmt_trbe_trace_allowed says so at the work's Exception level. The moves to that level and
 *   back (an exception return and entry) are not reported as Context synchronization events
 *   (docs/choices.md "Errata");
 * - PMUIRQ and TRBIRQ drive PPIs of the GIC (23 and 22 by default); an interrupt the GIC signals
 *   is taken between HAL calls while PSTATE.I is clear, at the software's Exception level.
 */
#ifndef PMTRACE_SW_HAL_CORE_H
#define PMTRACE_SW_HAL_CORE_H

#include "hal.h"

#include <pmtrace/pmtrace.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hal_core hal_core;

/* One HAL call or event, as the access callback reports it (tests check sequences with it). */
typedef enum hal_core_op {
    HAL_CORE_SYSREG_READ,
    HAL_CORE_SYSREG_WRITE,
    HAL_CORE_ISB,
    HAL_CORE_DSB,
    HAL_CORE_TSB_CSYNC,
    HAL_CORE_MMIO_READ,
    HAL_CORE_MMIO_WRITE,
    HAL_CORE_IRQ_ENTRY, /* the PE takes an IRQ: the entry is called */
    HAL_CORE_IRQ_EXIT,
    HAL_CORE_WFI
} hal_core_op;

typedef struct hal_core_access {
    hal_core_op op;
    hal_sysreg reg; /* system register accesses */
    uint64_t addr;  /* MMIO accesses */
    uint64_t value; /* the value read or written */
    hal_status status;
} hal_core_access;

typedef struct hal_core_config {
    pmt_pe_config pe;    /* the model (default: pmt_pe_config_default() with FEAT_TRBE, the OS
                            Lock registers in the model (os_lock_registers: the OS Lock is
                            locked out of reset, as on silicon) and every common event the PE
                            can deliver listed in PMCEID) */
    uint8_t kernel_el;   /* the Exception level the software runs at: 1 (default, Non-secure,
                            EL2 enabled when it exists) or 2 (a VHE host: HCR_EL2.E2H = TGE = 1) */
    bool firmware;       /* at create, do what EL3 and EL2 firmware do before the kernel runs:
                            MDCR_EL3.NSTB = 0b11 (and EnPM2 with PMUv3p9), MDCR_EL2.HPMN = N and
                            E2TB = 0b11 (EL1 owns the trace buffer) or 0b00 (VHE); default true */
    unsigned pmu_intid;  /* PPI of PMUIRQ; default 23 */
    unsigned trbe_intid; /* PPI of TRBIRQ; default 22 */
    uint64_t gicd_base;  /* default 0x0800_0000 */
    uint64_t gicr_base;  /* default 0x080A_0000 */
    uint64_t ram_base;   /* default 0x4000_0000 */
    size_t ram_size;     /* allocated at create; default 1 MiB */
    uint8_t ram_fill;    /* initial RAM contents; default 0xEE */
    /* Callbacks, any may be NULL. */
    void *user;
    void (*access)(void *user, const hal_core_access *access);
    void (*console)(void *user, const char *text, size_t n);
    void (*log)(void *user, const char *message); /* the model's log lines */
} hal_core_config;

hal_core_config hal_core_config_default(void);

/* Creates the model and the HAL; NULL for a bad configuration (the log callback says why). */
hal_core *hal_core_create(const hal_core_config *config);
void hal_core_destroy(hal_core *hc);

const hal *hal_core_hal(hal_core *hc);
pmt_pe *hal_core_pe(hal_core *hc);
/* RAM as the host sees it: ram_size bytes from ram_base. */
uint8_t *hal_core_ram(hal_core *hc);

/* Faults the TRBE's translations report for virtual addresses in [va_lo, va_hi), and External
 * aborts its writes get in [pa_lo, pa_hi). Up to 16 of each; PMT_ERR_ARG when full. */
pmt_status hal_core_add_fault(hal_core *hc, uint64_t va_lo, uint64_t va_hi,
                              const pmt_trbe_fault *fault);
pmt_status hal_core_add_abort(hal_core *hc, uint64_t pa_lo, uint64_t pa_hi,
                              pmt_trbe_write_result result);
void hal_core_clear_faults(hal_core *hc);

typedef struct hal_core_stats {
    uint64_t irqs_taken;    /* IRQ exceptions taken (entry calls) */
    uint64_t irq_storms;    /* times an interrupt was retaken 64 times in a row (not cleared) */
    uint64_t serrors;       /* SError exceptions from External aborts on trace writes */
    uint64_t trace_bytes;   /* trace bytes given to the Trace Buffer Unit */
    uint64_t trace_dropped; /* trace bytes the trace unit did not generate: TRFCR prohibits */
    uint64_t isb, dsb, tsb_csync;
} hal_core_stats;

hal_core_stats hal_core_get_stats(const hal_core *hc);
/* The level of the GIC's input for private interrupt intid (0..31). */
bool hal_core_line(const hal_core *hc, unsigned intid);
/* The GIC signals an IRQ to the PE (whatever PSTATE.I). */
bool hal_core_irq_pending(const hal_core *hc);

#ifdef __cplusplus
}
#endif

#endif
