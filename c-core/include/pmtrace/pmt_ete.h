/*
 * pmt_ete.h - the Embedded Trace Extension (FEAT_ETE) trace unit of a pmt_pe: its configuration.
 *
 * The trace unit lives in the same pmt_pe as the PMU and the Trace Buffer Unit. Its System
 * registers (TRC*, D24.4) are reached through pmt_pe_sysreg_read/write like every other register
 * of the model. The values the architecture leaves to the implementation and that software reads
 * in TRCIDR0-TRCIDR13 are the options below; everything else TRCIDR<n> reports is fixed by what
 * the model implements (docs/trace.md "Trace unit programmers' model").
 *
 * Arm ARM DDI0487 M.a: D24.4 (registers and their accessibility), J1.3 (TraceAllowed,
 * SelfHostedTraceEnabled, TraceContextIDR2).
 */
#ifndef PMTRACE_PMT_ETE_H
#define PMTRACE_PMT_ETE_H

#include "pmt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a write to a trace unit register does while the trace unit is not in the Idle state,
 * where D24.4 says "Writes are CONSTRAINED UNPREDICTABLE if the trace unit is not in the Idle
 * state". Either way the model logs the write. */
typedef enum pmt_ete_busy_write {
    PMT_ETE_BUSY_WRITE_APPLIES = 0, /* default: the write takes effect */
    PMT_ETE_BUSY_WRITE_IGNORED = 1  /* the write is ignored */
} pmt_ete_busy_write;

#define PMT_ETE_MAX_AC_PAIRS   8  /* TRCIDR4.NUMACPAIRS */
#define PMT_ETE_MAX_CTX_COMPS  8  /* TRCIDR4.NUMCIDC, TRCIDR4.NUMVMIDC */
#define PMT_ETE_MAX_RS_PAIRS   16 /* TRCIDR4.NUMRSPAIR + 1 */
#define PMT_ETE_MAX_CLAIM_TAGS 32
#define PMT_ETE_MAX_EXT_IN_SEL 4 /* TRCIDR5.NUMEXTINSEL */

typedef struct pmt_ete_config {
    bool feat_ete; /* FEAT_ETE with System register access (FEAT_TRC_SR); default false */
    /* Comparators and resources (TRCIDR4). */
    unsigned num_ac_pairs;   /* Address Comparator pairs, 0..8 (NUMACPAIRS); default 4 */
    unsigned num_cid_comps;  /* Context Identifier Comparators, 0..8 (NUMCIDC); default 1 */
    unsigned num_vmid_comps; /* Virtual Context Identifier Comparators, 0..8 (NUMVMIDC); 0
                                without EL2; default 1 */
    unsigned num_rs_pairs;   /* resource selector pairs including pair 0 (the fixed FALSE and
                                TRUE resources): 0 or 2..16 (NUMRSPAIR = n - 1); default 8 */
    unsigned num_ext_in_sel; /* External Input Selectors TRCEXTINSELR<n>, 0..4, which select PMU
                                events (TRCIDR5.NUMEXTINSEL; NUMEXTIN = 0x1FF, unified PMU event
                                selection, when not 0); needs resource selectors; default 4 */
    /* Trace contents. */
    bool wfx_p0;             /* TRCIDR2.WFXMODE: WFI, WFIT, WFE, WFET are P0 instructions; default
                                true */
    bool cycle_counting;     /* TRCIDR0.TRCCCI: instruction trace cycle counting; default true */
    unsigned ccitmin;        /* TRCIDR3.CCITMIN: smallest TRCCCCTLR.THRESHOLD, 1..0xFFF; default
                                4 */
    unsigned cc_size;        /* TRCIDR2.CCSIZE: the cycle counter is 12 + cc_size bits, 0..8;
                                default 0 */
    bool timestamps;         /* TRCIDR0.TSSIZE = 64-bit Global timestamping (else not
                                implemented); default true */
    bool return_stack;       /* TRCIDR0.RETSTACK; default false */
    bool branch_broadcast;   /* TRCIDR0.TRCBB, with TRCBBCTLR (needs num_ac_pairs > 0); default
                                true (Linux's etm4x writes TRCBBCTLR unconditionally) */
    bool fixed_sync_period;  /* TRCIDR3.SYNCPR: TRCSYNCPR is read-only; default false */
    unsigned sync_period;    /* TRCSYNCPR.PERIOD when fixed_sync_period (8..20); default 8 */
    bool trace_id;           /* TRCIDR5.TRACEIDSIZE = 7 bits: an external trace interface (AMBA
                                ATB) with a trace ID exists (else 0b000000, TRCTRACEIDR.TRACEID is
                                RES0); default true */
    unsigned num_claim_tags; /* claim tag bits of TRCCLAIMSET/CLR, 0..32; default 4 */
    /* Identification. */
    uint8_t designer; /* TRCIDR1.DESIGNER (as MIDR_EL1.Implementer); default 0x41 (Arm) */
    uint8_t revision; /* TRCIDR1.REVISION; default 0 */
    /* CONSTRAINED UNPREDICTABLE choices (docs/choices.md). */
    pmt_ete_busy_write busy_write; /* default PMT_ETE_BUSY_WRITE_APPLIES */
} pmt_ete_config;

#ifdef __cplusplus
}
#endif

#endif
