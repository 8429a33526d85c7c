/*
 * ete_internal.h - the ETE trace unit's programmers' model (ete_regs.c, ete_idr.c) and its
 * filtering decisions (ete_filter.c), and the interface the glue (CPU waypoints -> filter ->
 * packets -> Trace Buffer Unit) uses. Everything here reads the plain state in pe->st.ete.
 */
#ifndef PMTRACE_ETE_INTERNAL_H
#define PMTRACE_ETE_INTERNAL_H

#include "../trbe/trbe_internal.h"

/* Resource selector groups (TRCRSCTLR<n>.GROUP). */
enum ete_rs_group {
    ETE_RS_EXTIN = 0,    /* External Input Selectors (TRCEXTINSELR<n>: PMU events) */
    ETE_RS_PECOMP = 1,   /* PE Comparator Inputs (none) */
    ETE_RS_COUNTSEQ = 2, /* Counters at zero (SELECT[3:0]) and Sequencer states (none) */
    ETE_RS_SSC = 3,      /* Single-shot Comparator Controls (none) */
    ETE_RS_SAC = 4,      /* Single Address Comparators */
    ETE_RS_ARC = 5,      /* Address Range Comparators */
    ETE_RS_CID = 6,      /* Context Identifier Comparators */
    ETE_RS_VMID = 7      /* Virtual Context Identifier Comparators */
};

/* --- ete_idr.c: TRCIDR<n> and the other identification registers, from the config. --- */
uint64_t ete_idr(const pmt_pe *pe, unsigned n); /* TRCIDR<n>, n = 0..13 */
uint64_t ete_devarch(void);
uint64_t ete_authstatus(const pmt_pe *pe);
/* The Exception level filter bits the PE implements, in TRCVICTLR / TRCACATR positions
 * relative to EXLEVEL_S (bits 0..3 S, 4..6 NS, 8..10 RL). */
uint64_t ete_exlevel_bits(const pmt_pe *pe);

/* --- ete_regs.c --- */
bool ete_enabled(const pmt_pe *pe); /* TRCPRGCTLR.EN == 1 and the PE OS Lock unlocked */
bool ete_idle(const pmt_pe *pe);    /* TRCSTATR.IDLE */

/* --- The glue's interface. --- */

/* Is the trace unit enabled and is trace allowed at the current PE state (TraceAllowed)? The
 * cheap question to ask before anything else; false while trace is off. */
bool ete_active(const pmt_pe *pe);

/* TraceAllowed(PSTATE.EL) (J1.3.4.42): self-hosted trace prohibition by TRFCR_ELx, MDCR_EL3.STE
 * and RLTE, the Trace Buffer Unit's owner, Debug state; the authentication interface when
 * self-hosted trace is disabled; as the PE sees it (trace_allowed_seen), with FEAT_ETE. */
bool ete_trace_allowed(const pmt_pe *pe);

/* TRCVICTLR.EXLEVEL_<ss>_EL<n> lets instruction trace be generated at the current Exception
 * level and Security state. */
bool ete_exlevel_traced(const pmt_pe *pe);

/* Consumes instructions the PE executed, in program order at the current PE state: the A64
 * instructions at start, start + 4, ..., last (start <= last, 4-byte aligned). Finds the run
 * from start whose instructions all share one ViewInst answer (traced or not), updates the
 * ViewInst start/stop state (TRCVICTLR.SSSTATUS) for it, and returns whether the run is
 * traced; *run_last is its last instruction. The glue calls again from *run_last + 4 until it
 * passes last. While ete_active() is false every instruction is untraced and SSSTATUS does not
 * change (comparators do not match where trace is prohibited). */
bool ete_viewinst_run(pmt_pe *pe, uint64_t start, uint64_t last, uint64_t *run_last);

/* The filter decisions at the current PE state and programming (pmt_pe.ete_filter), derived
 * again after ete_filter_changed(): asked at every report, hence inline. */
void ete_filter_derive(pmt_pe *pe);
static inline const struct ete_filter_cache *ete_filter_now(pmt_pe *pe)
{
    if (!pe->ete_filter.valid)
        ete_filter_derive(pe);
    return &pe->ete_filter;
}

/* ete_viewinst_run for a ViewInst that selects no comparator, or trace inactive: every
 * instruction at the current PE state answers the same, *traced; false (nothing done) when
 * ViewInst selects comparators and ete_viewinst_run must decide run by run. */
static inline bool ete_viewinst_fixed(pmt_pe *pe, bool *traced)
{
    const struct ete_filter_cache *f = ete_filter_now(pe);
    if (!f->viewinst_fixed)
        return false;
    if (f->active && !pe->cfg.ete.num_ac_pairs)
        pe->st.ete.victlr |= PMT_MASK(TRCVICTLR, SSSTATUS); /* as ete_viewinst_run does */
    *traced = f->viewinst_traced;
    return true;
}

/* The value of a resource event selector (an 8-bit {TYPE, SEL} field of TRCVICTLR,
 * TRCTSCTLR or TRCEVENTCTL0R) for the instruction at `address` at the current PE state, with
 * the External Input Selectors in `extin` (bit m: selector m's PMU event occurs now, see
 * ete_extin_selected; 0 when no PMU event is being delivered). */
bool ete_resource_event(pmt_pe *pe, unsigned selector, uint64_t address, unsigned extin);

/* The External Input Selectors whose TRCEXTINSELR<m>.evtCount selects PMU event `event` (for
 * the glue delivering PMU events such as PMU_OVFS to the trace unit). */
unsigned ete_extin_selected(const pmt_pe *pe, uint16_t event);

/* --- ete_counters.c: the Counters (TRCCNTVR<n>, TRCCNTCTLR<n>, TRCCNTRLDVR<n>). --- */

/* Bit n: Counter <n> is zero (the resource TRCRSCTLR group 0b0010 SELECT[n] selects). */
unsigned ete_counters_at_zero(const pmt_pe *pe);
/* Some counter can move: one whose CNTEVENT or RLDEVENT selects a resource other than 0
 * (FALSE). While none can, the counters need no evaluation point. */
bool ete_counters_live(const pmt_pe *pe);
/* One evaluation point of the resource events, at the instruction at `addr` with the External
 * Inputs `extin` active (as ete_resource_event): each counter's CNTEVENT and RLDEVENT are
 * evaluated with the counters as they are, then the counters decrement or reload. The caller
 * evaluates the other resource events of the point (TRCTSCTLR, TRCEVENTCTL0R) before. */
void ete_counters_step(pmt_pe *pe, uint64_t addr, unsigned extin);

/* Branch broadcasting applies to the branch instruction at `address` (TRCCONFIGR.BB with
 * TRCBBCTLR's Address Range Comparators, D24.4.15). */
bool ete_branch_broadcast(pmt_pe *pe, uint64_t address);

/* What the trace unit is programmed to put in its trace (TRCCONFIGR and friends), as it
 * applies at the current PE state. */
typedef enum ete_timestamp_source {
    ETE_TS_NONE = 0,        /* TRCCONFIGR.TS = 0 or no Global timestamping */
    ETE_TS_VIRTUAL,         /* TraceTimeStamp(): TimeStamp_Virtual */
    ETE_TS_OFFSET_PHYSICAL, /* TimeStamp_OffsetPhysical (needs FEAT_ECV; not reached here) */
    ETE_TS_PHYSICAL,        /* TimeStamp_Physical */
    ETE_TS_CORESIGHT        /* TimeStamp_CoreSight (self-hosted trace disabled) */
} ete_timestamp_source;

typedef struct ete_options {
    bool context_id; /* TRCCONFIGR.CID: CONTEXTIDR_EL1 in Context elements */
    bool vmid;       /* TRCCONFIGR.VMID and TraceContextIDR2(): CONTEXTIDR_EL2 as the Virtual
                        context identifier (TRCCONFIGR.VMIDOPT is RES1) */
    ete_timestamp_source timestamp;
    unsigned ts_event;         /* TRCTSCTLR: the resource event selector requesting timestamps */
    bool cycle_counting;       /* TRCCONFIGR.CCI, and a threshold to count with (cc_below_min) */
    unsigned cc_threshold;     /* TRCCCCTLR.THRESHOLD, TRCIDR3.CCITMIN when below it */
    bool return_stack;         /* TRCCONFIGR.RS */
    unsigned sync_period_log2; /* trace protocol synchronization every 2^n bytes; 0: disabled */
    unsigned trace_id;         /* TRCTRACEIDR.TRACEID */
    bool wfx_p0;               /* TRCIDR2.WFXMODE */
    unsigned event_insten;     /* TRCEVENTCTL1R.INSTEN: Event elements 0..3 enabled */
} ete_options;
void ete_get_options(const pmt_pe *pe, ete_options *out);

/* TraceContextIDR2() (J1.3.4.43) without its TraceAllowed term, which holds wherever trace is
 * generated: CONTEXTIDR_EL2 may be traced (EL2, and TRFCR_EL2.CX in self-hosted trace). */
bool ete_contextidr2_where_allowed(const pmt_pe *pe);

/* The PE's CONTEXTIDR_EL1 and CONTEXTIDR_EL2, which the Context comparators compare. */
void ete_set_context(pmt_pe *pe, uint32_t contextidr_el1, uint32_t contextidr_el2);

/* --- ete_trace.c: instruction trace generation (pmt_ete_report_*), and its side of the enable
 * and of the Trace Buffer Unit. --- */
void ete_trace_enabled(pmt_pe *pe);  /* the unit became enabled: the stream is set up */
void ete_trace_disabled(pmt_pe *pe); /* ... disabled: what it generated goes out */

#endif
