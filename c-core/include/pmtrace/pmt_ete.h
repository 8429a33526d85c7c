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

#include "pmt_ete_packet.h"
#include "pmt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmt_pe pmt_pe;

/* What a write to a trace unit register does while the trace unit is not in the Idle state,
 * where D24.4 says "Writes are CONSTRAINED UNPREDICTABLE if the trace unit is not in the Idle
 * state". Either way the model logs the write. */
typedef enum pmt_ete_busy_write {
    PMT_ETE_BUSY_WRITE_APPLIES = 0, /* default: the write takes effect */
    PMT_ETE_BUSY_WRITE_IGNORED = 1  /* the write is ignored */
} pmt_ete_busy_write;

/* Cycle counting with TRCCCCTLR.THRESHOLD below TRCIDR3.CCITMIN (0 included), where D24.4.16
 * says "cycle counts might or might not be included in the trace and the cycle count threshold
 * is not known". Either way the model logs the write. */
typedef enum pmt_ete_cc_below_min {
    PMT_ETE_CC_BELOW_MIN_USE_CCITMIN = 0, /* default: the threshold is TRCIDR3.CCITMIN (Trace Info
                                             states it) */
    PMT_ETE_CC_BELOW_MIN_NO_COUNTS = 1    /* no cycle counts: the trace is as with
                                             TRCCONFIGR.CCI = 0 */
} pmt_ete_cc_below_min;

#define PMT_ETE_MAX_AC_PAIRS    8  /* TRCIDR4.NUMACPAIRS */
#define PMT_ETE_MAX_CTX_COMPS   8  /* TRCIDR4.NUMCIDC, TRCIDR4.NUMVMIDC */
#define PMT_ETE_MAX_RS_PAIRS    16 /* TRCIDR4.NUMRSPAIR + 1 */
#define PMT_ETE_MAX_CLAIM_TAGS  32
/* The trace unit buffer's size when there is one (pmt_ete_config.unit_buffer). */
#define PMT_ETE_UNIT_BUFFER_MIN 1024
#define PMT_ETE_UNIT_BUFFER_MAX 4096
#define PMT_ETE_MAX_EXT_IN_SEL  4 /* TRCIDR5.NUMEXTINSEL */
#define PMT_ETE_MAX_COUNTERS    4 /* TRCIDR5.NUMCNTR */

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
    unsigned num_counters;   /* Counters TRCCNTVR<n> with TRCCNTCTLR<n> and TRCCNTRLDVR<n>, 0..4
                                (TRCIDR5.NUMCNTR); their "at zero" resources are TRCRSCTLR<n>
                                group 0b0010; needs resource selectors; default 2 (as Arm's
                                ETMv4 trace units have, docs/choices.md; Linux's etm4x needs one
                                for perf's timestamp option) */
    /* Trace contents. */
    bool wfx_p0; /* TRCIDR2.WFXMODE: WFI, WFIT, WFE, WFET are P0 instructions; default
                    true */
    /* Cycle counting is not an option: TRCIDR0.TRCCCI "reads as 1" in ETE (D24.4.31), so
     * TRCCCCTLR and TRCCONFIGR.CCI always exist. */
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
    /* The trace unit buffer (TRCSTALLCTLR's term): 0, none (default): the bytes of each report
     * go to the Trace Buffer Unit within the report. Else its size in bytes,
     * PMT_ETE_UNIT_BUFFER_MIN..MAX: a held report's bytes wait there, and the Trace Buffer Unit
     * takes them at the next call that is not a held report (pmt_ete_report_range_held). */
    unsigned unit_buffer;
    /* Identification. */
    uint8_t designer; /* TRCIDR1.DESIGNER (as MIDR_EL1.Implementer); default 0x41 (Arm) */
    uint8_t revision; /* TRCIDR1.REVISION; default 0 */
    /* CONSTRAINED UNPREDICTABLE choices (docs/choices.md). */
    pmt_ete_busy_write busy_write;     /* default PMT_ETE_BUSY_WRITE_APPLIES */
    pmt_ete_cc_below_min cc_below_min; /* default PMT_ETE_CC_BELOW_MIN_USE_CCITMIN */
} pmt_ete_config;

/*
 * Instruction trace: what the PE executed, as the CPU model reports it (docs/trace.md, "The trace
 * unit driven by a CPU"). The trace unit filters it (TraceAllowed, TRCVICTLR, ViewInst), encodes
 * it (pmt_ete_packet.h) and gives the bytes to the Trace Buffer Unit of the same pmt_pe
 * (pmt_trbe_trace), which writes them through its callbacks.
 *
 * The reports form one stream in program order. Each is made while the PE state the model holds
 * (pmt_pe_set_state) is the state its instructions executed in: an exception is reported before
 * the CPU sets the state it is taken to, and an exception return's range before the state it
 * returns to. Between two reports execution is sequential: a report says where execution goes
 * on, and the next one starts there (a report that starts elsewhere is a discontinuity the trace
 * states with an address).
 */

/* The P0 element that ends a range. */
typedef enum pmt_ete_p0 {
    PMT_ETE_P0_DIRECT = 0, /* a direct branch: B, BL, B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ */
    PMT_ETE_P0_INDIRECT,   /* an indirect branch (BR, BLR, RET and their PAC forms, ERET): its
                              target is traced as an address */
    PMT_ETE_P0_ISB,        /* ISB: executed; execution goes on at the next instruction */
    PMT_ETE_P0_WFX         /* WFI, WFE, WFIT, WFET: a P0 element only with TRCIDR2.WFXMODE
                              (pmt_ete_config.wfx_p0); else an instruction like any other */
} pmt_ete_p0;

/* Instructions start, start + 4, ..., last executed in order, the last one a P0 element. */
typedef struct pmt_ete_range {
    uint64_t start; /* the first instruction (4-byte aligned) */
    uint64_t last;  /* the P0 instruction (start <= last, 4-byte aligned) */
    pmt_ete_p0 kind;
    /* The atom: true (E) for a branch taken and every P0 element that is not a conditional
     * branch; false (N) for a conditional branch not taken. */
    bool taken;
    uint64_t next;  /* where execution continues (4-byte aligned) */
    uint64_t count; /* the range ran count times in succession with this outcome, 1 or more (more
                       only for a loop of one range: next == start). For cycle counting the
                       runs took equal cycles, those since the last report split evenly (any
                       remainder in the first run): the report is made at the end of the last */
} pmt_ete_range;

/* The instructions of a range, then its P0 element. */
pmt_status pmt_ete_report_range(pmt_pe *pe, const pmt_ete_range *range);
/* The same report when it needs no time: it gives the Trace Buffer Unit nothing and takes no
 * timestamp, so a platform need not bring the PE's clock to the time of the call. That is when
 * the unit is disabled, or the range's atom joins those the unit holds (no packet due, no event
 * selected and no counter that can move, trace on where it starts), or, with a trace unit
 * buffer (pmt_ete_config.unit_buffer), when the report's bytes go there: a range that runs once
 * and does not end with a WFx, traced as a whole (ViewInst without comparators) or not at all,
 * no exception to resolve, no Timestamp due from an earlier synchronization, room for the
 * longest such report, and, when traced, no event selected, no counter that can move and no
 * Timestamp that could follow a synchronization in it. Never while the
 * enabled unit counts cycles (TRCCONFIGR.CCI and a cycles callback): each P0 element needs the
 * cycle it was executed in. True: reported. False: nothing done; make the report with
 * pmt_ete_report_range, at its time (it also refuses what is not a valid report).
 *
 * The bytes in the trace unit buffer go to the Trace Buffer Unit, before anything else, at the
 * next call to this PE that may need them there: every other report (pmt_ete_report_*,
 * pmt_ete_flush), pmt_pe_set_state, pmt_pe_context_sync, pmt_pe_sysreg_write,
 * pmt_*_ext_write, pmt_pe_reset, the Trace Buffer Unit's inputs (pmt_trbe_trace,
 * pmt_trbe_tsb_csync, pmt_trbe_detected_trigger, pmt_trbe_flush_complete,
 * pmt_trbe_external_abort, pmt_trbe_impdef_event, pmt_trbe_set_callbacks), and an event the
 * unit takes (a flush the Trace Buffer Unit requests, an External Input). pmt_pe_restore replaces
 * them with the saved state's. Reads do not move them:
 * trace is guaranteed in the Trace Buffer Unit's registers and memory only after a TSB CSYNC
 * (D6.6). */
bool pmt_ete_report_range_held(pmt_pe *pe, const pmt_ete_range *range);
/* Ranges in program order, each reported as pmt_ete_report_range_held would report it, up to the
 * first it cannot hold: returns how many were reported (0..n; 0 for a NULL pe or ranges). A CPU
 * that gathers the ranges it executed makes one call for them, then the report at its time of
 * the first one not held (pmt_ete_report_range), and goes on from the one after it. */
size_t pmt_ete_report_ranges_held(pmt_pe *pe, const pmt_ete_range *ranges, size_t n);

/* Whether reports can change what the trace unit outputs. False while the unit is disabled
 * (TRCPRGCTLR.EN 0) and holds nothing (no trace, no exception to resolve): a report then only
 * counts in pmt_ete_stats, so a CPU may make none until a System register write enables the unit,
 * and start again with pmt_ete_report_context_ids and the range from the next instruction (a
 * unit enabled again starts its trace anew). False for a NULL pe or a PE without FEAT_ETE. */
bool pmt_ete_wants_reports(const pmt_pe *pe);

/* An exception taken from the current PE state, before the CPU sets the state it is taken to:
 * the instructions [range_start, preferred_return) executed since the last report (none when
 * equal; they end without a P0 element), then the exception with its preferred return address
 * (ELR_ELx). The vector is where the next report starts, in the target state. */
typedef struct pmt_ete_exception_taken {
    pmt_ete_exception type; /* as the Exception packet encodes it (pmt_ete_packet.h) */
    uint64_t range_start;
    uint64_t preferred_return;
} pmt_ete_exception_taken;

pmt_status pmt_ete_report_exception(pmt_pe *pe, const pmt_ete_exception_taken *exception);

/* CONTEXTIDR_EL1 and CONTEXTIDR_EL2 from the next instruction on: at the first report and after
 * a write of either (the Context comparators compare them; TRCCONFIGR.CID and VMID trace them).
 * The Exception level and Security state come from the PE state. */
pmt_status pmt_ete_report_context_ids(pmt_pe *pe, uint32_t contextidr_el1, uint32_t contextidr_el2);

/* The trace unit outputs all it holds (atoms not yet packed) to the Trace Buffer Unit: at the end
 * of execution, or before software or a tool reads the buffer without disabling the unit. */
pmt_status pmt_ete_flush(pmt_pe *pe);

/* Where the trace unit's Timestamp elements come from (TraceTimeStamp(), J1.3.4.45). */
typedef enum pmt_ete_timebase {
    PMT_ETE_TIMEBASE_PHYSICAL = 0, /* the physical count (CNTPCT_EL0) */
    PMT_ETE_TIMEBASE_VIRTUAL,      /* the virtual count (physical - CNTVOFF_EL2) */
    PMT_ETE_TIMEBASE_CORESIGHT     /* the CoreSight time (self-hosted trace disabled) */
} pmt_ete_timebase;

typedef struct pmt_ete_callbacks {
    void *user;
    /* The Generic Timer's count now (at the instruction reported). NULL: the trace unit emits no
     * Timestamp packets even with TRCCONFIGR.TS (and logs it once). */
    uint64_t (*timestamp)(void *user, pmt_ete_timebase timebase);
    /* The cycles of the PE's clock now: at the report being made, the cycles up to the end of
     * its last instruction (a range's P0 element, an exception's entry), never fewer than at an
     * earlier report. The trace unit's cycle counter (TRCCONFIGR.CCI) counts them: a Cycle Count
     * element is the difference between two such answers (docs/trace.md, "Cycle counting").
     * With it, and cycle counting enabled, no report is held (pmt_ete_report_range_held): each
     * needs its time. NULL: no Cycle Count packets even with TRCCONFIGR.CCI (logged once). */
    uint64_t (*cycles)(void *user);
} pmt_ete_callbacks;

/* Sets the trace unit's inputs (copied); NULL clears them. */
pmt_status pmt_ete_set_callbacks(pmt_pe *pe, const pmt_ete_callbacks *callbacks);

/* What the trace unit did, for tests and tools (not architectural state). */
typedef struct pmt_ete_stats {
    uint64_t ranges;          /* ranges reported */
    uint64_t traced_p0;       /* P0 elements traced (atoms; a range's count included) */
    uint64_t exceptions;      /* Exception packets */
    uint64_t bytes;           /* trace bytes given to the Trace Buffer Unit */
    uint64_t discontinuities; /* reports that did not start where the last one said */
    uint64_t refused;         /* reports refused (bad arguments, trace unit not implemented) */
} pmt_ete_stats;

pmt_status pmt_ete_get_stats(const pmt_pe *pe, pmt_ete_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
