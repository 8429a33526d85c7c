/*
 * ete.h - an ETE trace unit driver that behaves as Linux's coresight-etm4x does for an ETE with
 * System register access (drivers/hwtracing/coresight/coresight-etm4x-core.c): probe
 * (etm4_init_arch_data: ID_AA64DFR0_EL1.TraceVer, TRCDEVARCH, the OS Lock model in TRCOSLSR and
 * the lock released, TRCIDR0-5), the enable sequence of a perf session (etm4_enable_hw: the OS
 * Lock released, disable, wait for Idle, program, enable, wait for it to leave Idle) and the
 * disable (etm4_disable_hw: clear TRCPRGCTLR.EN, wait for PMSTABLE). An ETE is controlled by the
 * PE's OS Lock (TRCOSLSR.OSLM = 0b100), which etm4x releases with OSLAR_EL1 = 0 (it is locked
 * after a Cold reset, D24.3.28), and sw_ete_os_lock takes it as etm4x's power-down save path
 * does (etm4_os_lock).
 *
 * It writes only the registers TRCIDR says exist; a register access that fails is SW_EIO.
 * The Trace Buffer Unit is the trbe driver's (TRFCR_EL1, which allows trace at EL0 and EL1, is
 * written by the trbe driver's sw_trbe_write_trfcr, as the perf session does).
 */
#ifndef PMTRACE_SW_ETE_H
#define PMTRACE_SW_ETE_H

#include "../../hal/hal.h"
#include "../../sw_errno.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_ete {
    const hal *h;
    uint64_t idr[6];      /* TRCIDR0-5 */
    uint64_t devarch;     /* TRCDEVARCH */
    unsigned nr_addr_cmp; /* TRCIDR4.NUMACPAIRS */
    unsigned nr_resource; /* TRCIDR4.NUMRSPAIR + 1, 0 when NUMRSPAIR is 0 */
    bool ts;              /* TRCIDR0.TSSIZE != 0: TRCTSCTLR exists */
    bool cci;             /* TRCIDR0.TRCCCI: TRCCCCTLR exists */
    bool bb;              /* TRCIDR0.TRCBB: TRCBBCTLR exists (with address comparators) */
    unsigned ccitmin;     /* TRCIDR3.CCITMIN */
    unsigned ns_ex_level; /* TRCIDR3.EXLEVEL_NS: the Non-secure ELs the unit can filter */
    unsigned s_ex_level;  /* TRCIDR3.EXLEVEL_S: the Secure ones */
    unsigned os_lock;     /* TRCOSLSR.OSLM (bits [4:3,0]): 0b100, the PE's OS Lock (etm4x's
                             ETM_OSLOCK_PE); 0b000 none (nothing to release) */
    bool enabled;
} sw_ete;

/* A perf session's configuration (what etm4_parse_event_config makes of cs_etm// options). */
typedef struct sw_ete_config {
    uint8_t trace_id;     /* TRCTRACEIDR (CoreSight trace ID, 1..0x6F) */
    bool exclude_user;    /* :k, no EL0 trace (TRCVICTLR.EXLEVEL_NS_EL0) */
    bool exclude_kernel;  /* :u, no EL1 (and EL2) trace */
    bool context_id;      /* contextid: TRCCONFIGR.CID */
    bool timestamp;       /* timestamp: TRCCONFIGR.TS */
    unsigned sync_period; /* TRCSYNCPR.PERIOD (Linux: 0xC, 4096 bytes); 0: Linux's */
} sw_ete_config;

/* The TRFCR_EL1 a session allows trace with (etm4x_allow_trace): E0TRE unless exclude_user,
 * E1TRE unless exclude_kernel. The trbe driver writes it (sw_trbe_write_trfcr). */
uint64_t sw_ete_trfcr_el1(const sw_ete_config *c);

/* Finds the trace unit: -SW_ENODEV when the PE has none with System register access (TraceVer
 * 0) or TRCDEVARCH is not an ETE's. */
int sw_ete_probe(sw_ete *e, const hal *h);
/* etm4_enable_hw for `c`: SW_OK once TRCSTATR.IDLE is 0; -SW_EBUSY when the unit does not reach
 * Idle first or does not leave it. */
int sw_ete_enable(sw_ete *e, const sw_ete_config *c);
/* etm4_disable_hw: TRCPRGCTLR.EN = 0 and TRCSTATR.PMSTABLE polled (the trace it generated is
 * then output to the Trace Buffer Unit). */
int sw_ete_disable(sw_ete *e);
/* etm_write_os_lock: locks (true) or releases the OS Lock that controls the unit, then ISB:
 * OSLAR_EL1 for the PE's OS Lock; nothing for a unit without one. Locking disables the unit
 * (its trace goes to the Trace Buffer Unit); __etm4_cpu_save then polls PMSTABLE (SW_OK once
 * it is 1, -SW_EBUSY if it is not within the budget). */
int sw_ete_os_lock(sw_ete *e, bool locked);

#ifdef __cplusplus
}
#endif

#endif
