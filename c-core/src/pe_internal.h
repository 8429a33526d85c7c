/*
 * pe_internal.h - the layout of a pmt_pe. Architectural state (struct pmt_pe_arch) is plain data
 * so that save and restore are a copy; everything else is derived from it and rebuilt.
 */
#ifndef PMTRACE_PE_INTERNAL_H
#define PMTRACE_PE_INTERNAL_H

#include "pmtrace/pmt_pcsample.h"
#include "pmtrace/pmt_pe.h"
#include "pmtrace/pmt_pmu.h"
#include "pmtrace/pmt_trbe.h"

/* Counter ids: event counters 0..30, the cycle counter 31, the instruction counter 32. */
#define PMT_NUM_COUNTER_IDS 33

/* Registers of the Performance Monitors. cnt[] and typer[] are indexed by counter id:
 * PMEVCNTR<n>/PMEVTYPER<n> at n, PMCCNTR/PMCCFILTR at 31, PMICNTR/PMICFILTR at 32. */
struct pmt_pmu_regs {
    uint64_t pmcr;  /* the stored (writable) bits only: E, D, DP, LC, LP, FZO, FZS */
    uint64_t cnten; /* PMCNTENSET/CLR */
    uint64_t ovs;   /* PMOVSSET/CLR */
    uint64_t inten; /* PMINTENSET/CLR */
    uint64_t cnt[PMT_NUM_COUNTER_IDS];
    uint64_t typer[PMT_NUM_COUNTER_IDS];
    uint64_t selr, userenr, uacr, pmccr, pmecr, pmiar;
    bool ppend;                        /* PSTATE.PPEND (FEAT_SEBEP), held by the model */
    uint64_t pmsscr;                   /* PMSSCR_EL1: NC and SS */
    uint64_t svr[PMT_NUM_COUNTER_IDS]; /* PMEVCNTSVR<n>, PMCCNTSVR at 31, PMICNTSVR at 32 */
    uint64_t ccnt_prescale; /* cycles counted towards the next PMCCNTR increment when PMCR.D=1 */
    bool spe_e, spe_pmfz, spe_s; /* PMBLIMITR_EL1.E, PMBLIMITR_EL1.PMFZ, PMBSR_EL1.S */
    bool locked;                 /* PMLSR.SLK: the software lock of the memory-mapped frame */
};

/* PC sample-based profiling (debug/pcsample.c): pc_sample and the sample registers of the frame
 * that has them. Values the architecture calls UNKNOWN are stored as 0. */
struct pmt_pcs_regs {
    pmt_pc_sample sample; /* pc_sample: the latest sample the CPU reported */
    bool valid;           /* pc_sample.valid */
    /* PMU frame (FEAT_PCSRv8p2) */
    uint64_t pmpcsr;
    uint32_t cid1;     /* PMCID1SR = PMCCIDSR[31:0] = PMVCIDSR[31:0] */
    uint32_t cid2;     /* PMCID2SR = PMCCIDSR[63:32] */
    uint16_t vmid;     /* PMVIDSR.VMID = PMVCIDSR.VMID */
    uint64_t pmpcsctl; /* PMPCSCTL.{SS,EN} as stored (IMP comes from the config) */
    /* debug frame (FEAT_PCSRv8) */
    uint32_t edpcsrhi, edcidsr, edvidsr;
    bool ed_locked; /* EDLSR.SLK: the software lock of the memory-mapped debug frame */
};

/* The largest TRBIDR_EL1.Align unit: 2 KiB (0b1011). */
#define PMT_TRBE_MAX_UNIT 2048

/* Registers and architecturally visible state of the Trace Buffer Unit (trbe/). The bytes the
 * unit has accepted but not yet written (TRBSR_EL1.DAT) are part of it: a TSB CSYNC after a
 * restore writes them. */
struct pmt_trbe_regs {
    uint64_t limitr, ptr, baser, trg, mar;
    uint64_t sr[4]; /* TRBSR_EL1, TRBSR_EL2, TRBSR_EL3 at [1], [2], [3] */
    uint64_t trfcr_el1, trfcr_el2;
    uint64_t itctrl;        /* TRBITCTRL (FEAT_TRBE_EXT) */
    uint32_t nbuf;          /* bytes in buf, to be written at TRBPTR_EL1 */
    uint8_t flush;          /* trace unit flushes requested and not completed (TRBE_FLUSH_*) */
    bool ptr_unpredictable; /* TRBPTR_EL1 holds a misaligned value software wrote that is not a
                               restart or fault value (RJWWWM, RMGZWR) */
    bool async_abort;       /* an External abort to report asynchronously (D6.5.5.4) */
    bool disable_undrained; /* erratum_drain_after_disable: disabled, no TSB CSYNC since */
    bool stale_view;        /* erratum_ctxt_sync_after_enable: TraceAllowed as the PE sees it
                               while ctxt_sync_due (the value at the enabling write) */
    uint8_t ctxt_sync_due;  /* ... Context synchronization events still needed before the PE
                               sees the prohibited regions again: 2 after the write, 0 (off) */
    bool stale_view_logged; /* ... its effect was logged since the enabling write (saved, so
                               that a restored model logs what the saved one would) */
    uint8_t async_abort_stage;
    uint8_t buf[PMT_TRBE_MAX_UNIT];
};

/* Registers and architecturally visible state of the ETE trace unit (ete/). Values a trace unit
 * reset leaves UNKNOWN are stored as 0 (docs/choices.md). */
struct pmt_ete_regs {
    uint64_t prgctlr, configr, auxctlr, eventctl0r, eventctl1r, tsctlr, syncpr, ccctlr, traceidr;
    uint64_t rsr, bbctlr;
    uint64_t extinselr[4]; /* TRCEXTINSELR<n>.evtCount */
    uint64_t victlr, viiectlr, vissctlr;
    uint64_t cidcctlr[2], vmidcctlr[2];
    uint64_t claim;      /* the claim tag bits set */
    uint64_t rsctlr[32]; /* TRCRSCTLR<n>, n = 2..31 */
    uint64_t acvr[16], acatr[16];
    uint64_t cidcvr[8], vmidcvr[8];
    /* The counters (ete_counters.c): TRCCNTRLDVR<n>.VALUE, TRCCNTCTLR<n>, and each counter's
     * value, TRCCNTVR<n>.VALUE, n < pmt_ete_config.num_counters. */
    uint64_t cntrldvr[4], cntctlr[4], cntvr[4];
    uint32_t contextidr_el1; /* the PE's CONTEXTIDR_EL1 and CONTEXTIDR_EL2, as the glue reports */
    uint32_t contextidr_el2; /*   them (ete_set_context), for the Context comparators */
    bool enabled;            /* the trace unit was enabled at the last update (ete_update) */
};

/* The trace unit's instruction trace generation (ete/ete_trace.c): plain data, saved with the
 * rest. */
struct pmt_ete_trace {
    pmt_ete_pkt_encoder enc;
    uint64_t expected;     /* where the last report said execution goes on (or NO_ADDRESS) */
    uint64_t address_due;  /* an indirect branch's target, traced with the next instruction */
    uint64_t exc_return;   /* the pending exception's preferred return address */
    uint64_t ts_syncs;     /* enc.syncs when the last Timestamp went out */
    uint8_t exc_type;      /* the pending exception's ETE type */
    uint8_t pending_extin; /* External Inputs that became active during the unit's output */
    bool exc_pending;      /* an exception was reported; its vector is the next report's start */
    bool exc_traced;       /* ... and trace was active when it was taken */
    bool configured;       /* enc was set up from the registers when the unit was enabled */
    bool trigger_seen;     /* ETEEvent 0 signalled the Detected Trigger (once per enable) */
    bool flush_requested;  /* the Trace Buffer Unit asked for a flush during the unit's output */
    uint16_t buffered;     /* bytes in the trace unit buffer (pmt_ete_config.unit_buffer) */
    uint8_t buffer[PMT_ETE_UNIT_BUFFER_MAX];
    /* Cycle counting (TRCCONFIGR.CCI), in cycles of the PE's clock (pmt_ete_callbacks.cycles):
     * the cycle counter is cc_commit - cc_ref at the most recent Commit element. */
    uint64_t cc_ref;     /* where the counter counts from: the commit of the last Cycle Count
                            element (RBMVKB), or the enable */
    uint64_t cc_commit;  /* the most recent Commit element: a traced P0 element's cycle */
    uint64_t cc_last;    /* the time of the last report (the cycle its last instruction ended) */
    uint64_t exc_cycles; /* the pending exception's: when it was taken */
    bool cc_known;       /* a Cycle Count element since the enable: before it the count is
                            UNKNOWN (RYFMWB) */
};

/* The OS Double Lock's registers (debug/os_lock.c), with pmt_pe_config.os_lock_registers; the
 * OS Lock itself is pe.os_lock (OSLSR_EL1.OSLK), and pe.double_lock is DoubleLockStatus() as
 * these and Halted() make it. Both 0 without the option. */
struct pmt_os_lock_regs {
    bool dlk;       /* OSDLR_EL1.DLK */
    bool corenpdrq; /* DBGPRCR_EL1.CORENPDRQ */
};

/* The architectural state: plain data, saved and restored field by field as pe/state.c
 * describes it (a field added here must be described there, with the values it may hold). */
struct pmt_pe_arch {
    pmt_pe_state pe;
    uint64_t mdcr_el2;
    uint64_t mdcr_el3;
    struct pmt_pmu_regs pmu;
    struct pmt_pcs_regs pcs;
    struct pmt_trbe_regs trbe;
    struct pmt_ete_regs ete;
    struct pmt_ete_trace etr;
    struct pmt_os_lock_regs oslock;
};

/* Lazy counting: the counters that currently count one event number share a slot. count()
 * adds to `pending` until `room` (events before the first overflow) runs out. */
struct pmt_pmu_slot {
    uint64_t room;
    uint64_t pending;
    uint64_t mask; /* counter ids counting this event */
    uint16_t event;
};

/* The trace unit's filter decisions at the current PE state and programming, derived from st by
 * ete_filter_now() and valid until ete_filter_changed() (ete_filter.c): not architectural
 * state, not saved. */
struct ete_filter_cache {
    bool valid;
    bool active;             /* ete_active(): enabled, and TraceAllowed() */
    bool exlevel_traced;     /* ete_exlevel_traced() */
    bool viewinst_fixed;     /* ViewInst selects no comparator: one answer for every address */
    bool viewinst_traced;    /* ... and that answer (with active and exlevel_traced) */
    bool events;             /* an ETEEvent or TRCTSCTLR's event may occur at an instruction,
                                or a counter may move (counters) */
    bool counters;           /* ete_counters_live(): a counter may move at each evaluation */
    bool branch_broadcast;   /* TRCCONFIGR.BB where the unit implements it */
    pmt_ete_pkt_context ctx; /* the PE context as the trace states it */
};

struct pmt_pe {
    pmt_pe_config cfg;
    pmt_pe_callbacks cb;
    struct pmt_pe_arch st;

    /* derived from cfg */
    uint64_t impl_mask; /* implemented counter ids: 0..N-1, 31, and 32 with FEAT_PMUv3_ICNTR */

    /* the CPU's sample on request (pmt_pe_set_pc_sample_source); not architectural state */
    pmt_pc_sample_source pcs_source;
    void *pcs_source_user;

    /* set while an external access is performed: the self-hosted access checks do not apply */
    enum { PE_SELF_HOSTED, PE_EXTERNAL, PE_EXTERNAL_MOST_SECURE } accessor;

    /* derived from st; rebuilt by pmu_update() */
    bool irq_level, cti_level, halt_level, brbe_frozen;
    bool exc_pending;    /* the pmu_exception output */
    unsigned exc_target; /* its target Exception level */

    /* FEAT_SEBEP bookkeeping within one instruction (between pmt_pmu_retire calls) */
    uint64_t counted;    /* counters that counted an event */
    uint64_t overflowed; /* counters that overflowed */
    bool before_valid;   /* `before` holds the conditions the instruction found */
    struct pmu_sync_conditions {
        uint64_t eligible; /* PMINTENSET[n] and counter n enabled in synchronous mode */
        uint64_t ovs;      /* PMOVSSET */
        bool unmasked;     /* the PMU exception is enabled and unmasked */
    } before;
    uint8_t sync_event[65536 / 8]; /* bit e: event e is a synchronous event */
    unsigned nslots;
    struct pmt_pmu_slot slots[PMT_NUM_COUNTER_IDS + 1]; /* slot 0 is unused */
    /* event number -> slot; 0 for none, PMT_SLOT_INTERNAL for events the PMU generates */
    uint8_t slot_of[65536];

    /* Trace Buffer Unit: outputs and memory port, and what trbe_update() derives from st. */
    pmt_trbe_callbacks trbe_cb;
    bool trbe_enabled, trbe_running;
    bool trbe_irq_level, trbe_exc_take;
    uint8_t trbe_exc_el;
    bool trbe_in_flush_request, trbe_flush_deferred;
    bool trbe_refused; /* a fault description from translate was refused (trbe_fault.c) */
    bool trbe_wrapped; /* the write pointer wrapped in the current write (trbe_errata.c) */

    /* ETE trace unit: its inputs, what it did, and whether it is giving bytes to the Trace
     * Buffer Unit now (a flush the Trace Buffer Unit requests then waits: ete_trace.c). */
    pmt_ete_callbacks ete_cb;
    pmt_ete_stats ete_stats;
    bool ete_in_output;
    bool ete_ts_warned, ete_cycles_warned;
    /* The trace unit's filter decisions at the current PE state and programming (ete_filter.c),
     * valid until ete_filter_changed(). */
    struct ete_filter_cache ete_filter;
};

/* Logging (pe.c). */
void pe_log(const pmt_pe *pe, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Why a PE state cannot be this PE's, or NULL: what pmt_pe_set_state refuses, and el2_enabled
 * without EL2 (pe.c). */
const char *pe_state_error(const pmt_pe *pe, const pmt_pe_state *s);

/* The descriptions of the saved state (pe/state.c) and of the configuration (pe/config.c), for
 * the tests that check them (fields.h). */
struct pe_field;
const struct pe_field *pe_state_fields(size_t *n);
const struct pe_field *pe_config_fields(size_t *n);
/* Whether every field of a config is in its range; if not, a line saying which is not. */
bool pe_config_fields_valid(const pmt_pe_config *c, char *why, size_t why_size);

/* Register access by decoded register, dispatched to the unit that owns it (pe.c). */
pmt_access pe_reg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
pmt_access pe_reg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);

/* Counter ranges (GetPMUCounterRange). */
enum pmu_range { PMU_R1 = 1, PMU_R2 = 2, PMU_R3 = 3 };
unsigned pmu_effective_epmn(const pmt_pe *pe);
unsigned pmu_effective_hpmn(const pmt_pe *pe);
enum pmu_range pmu_counter_range(const pmt_pe *pe, unsigned idx);
unsigned pmu_counters_accessible(const pmt_pe *pe);     /* GetNumEventCountersAccessible */
unsigned pmu_counters_selfhosted(const pmt_pe *pe);     /* GetNumEventCountersSelfHosted */
bool pmu_global_enable(const pmt_pe *pe, unsigned idx); /* PMCR.E, MDCR_EL2.HPME, PMCCR.EPME */
bool pmu_count_events(const pmt_pe *pe, unsigned idx, bool unattributable); /* CountPMUEvents */
unsigned pmu_overflow_bit(const pmt_pe *pe, unsigned idx);                  /* 32 or 64 */

/* Overflow conditions (CheckPMUOverflowCondition). */
enum pmu_ovf_reason { PMU_OVF_PMU_EXCEPTION, PMU_OVF_BRBE_FREEZE, PMU_OVF_FREEZE, PMU_OVF_IRQ };
bool pmu_overflow_condition(const pmt_pe *pe, enum pmu_ovf_reason reason, bool r1, bool r2,
                            bool r3);

/* PMU Profiling exceptions (pmu_exception.c). */
bool pmu_interrupt_enabled(const pmt_pe *pe);                      /* PMUInterruptEnabled */
bool pmu_exception_enabled(const pmt_pe *pe, unsigned *target_el); /* PMUExceptionEnabled */
const char *pmu_reserved_pmee_behaviour(pmt_reserved_pmee choice); /* for the log line */
bool pmu_exception_masked(const pmt_pe *pe, unsigned target_el, unsigned from_el, bool pm,
                          bool halted);                /* PMUExceptionMasked */
bool pmu_sync_mode(const pmt_pe *pe, unsigned idx);    /* counter idx is in synchronous mode */
bool pmu_sync_event(const pmt_pe *pe, uint16_t event); /* IsSupportingPMUSynchronousMode */
void pmu_sync_init(pmt_pe *pe);                        /* fills sync_event from the config */
void pmu_sync_before_change(pmt_pe *pe);   /* an instruction is about to change a condition */
uint64_t pmu_sync_armed(const pmt_pe *pe); /* counters whose next event sets PPEND (RNZLVW) */
void pmu_exception_update(pmt_pe *pe);     /* the pmu_exception output */
uint64_t pmu_pmecr_write_mask(const pmt_pe *pe);

/* PMU snapshots (pmu_snapshot.c). */
pmt_access pmu_snapshot_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
pmt_access pmu_snapshot_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);

/* Counting machinery (pmu_count.c). */
#define PMT_SLOT_INTERNAL 0xFFu
void pmu_mark_internal_events(pmt_pe *pe);
void pmu_flush(pmt_pe *pe);  /* folds pending counts into the counters; no overflow can occur */
void pmu_update(pmt_pe *pe); /* after any state change: outputs, then slots */
void pmu_increment(pmt_pe *pe, uint16_t event, uint64_t n, int only_idx);

/* Register access (pmu_sysreg.c) and reset. */
void pmu_reset(pmt_pe *pe);
pmt_access pmu_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
bool pmu_is_set_clear(pmt_reg_id id); /* PMCNTENSET/CLR, PMOVSSET/CLR, PMINTENSET/CLR */
pmt_access pmu_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);

/* PC sample-based profiling (debug/pcsample.c). */
void pcs_reset(pmt_pe *pe);
void pcs_state_changed(pmt_pe *pe); /* after pmt_pe_set_state: Debug state, prohibition */
/* D13.9: a successful PMU snapshot Capture event samples the PC when FEAT_PCSRv8p9 and
 * PMPCSCTL.SS say so (PMUCaptureEvent). Called by the snapshot code after the counters were
 * captured and before PMSSCR_EL1.{NC,SS} is set to {0,0}. */
void pcs_capture_on_snapshot(pmt_pe *pe);
/* The PMU frame's sample registers (I5.3), decoded by pmu_ext.c. */
enum pcs_pmu_reg {
    PCS_PMPCSR,   /* 64-bit; EXT32 has the halves at +0 and +4 */
    PCS_PMCID1SR, /* EXT32 */
    PCS_PMCID2SR, /* EXT32 */
    PCS_PMVIDSR,  /* EXT32, with EL2 */
    PCS_PMVCIDSR, /* EXT64 */
    PCS_PMCCIDSR, /* EXT64 */
    PCS_PMPCSCTL  /* FEAT_PCSRv8p9 */
};
/* The accessibility of the sample registers and PMPCSCTL: an error response when
 * DoubleLockStatus() or !IsCorePowered(), or OSLockStatus() unless PMCCR.OSLO lets a Most
 * secure access through. */
bool pcs_pmu_access_error(const pmt_pe *pe, bool most_secure);
/* A read; `sample` says it reads PMPCSR[31:0] (or all of PMPCSR), which is Read_PMPCSR with its
 * side effects (none for a memory-mapped read while PMLSR.SLK is 1). */
uint64_t pcs_pmu_read(pmt_pe *pe, enum pcs_pmu_reg reg, bool sample, bool memory_mapped);
void pcs_pmu_write(pmt_pe *pe, enum pcs_pmu_reg reg, uint64_t value); /* PMPCSCTL; others RO */
/* PMDEVID.PCSample: 0, 1 (FEAT_PCSRv8p2) or 2 (FEAT_PCSRv8p9). */
unsigned pcs_pmdevid_pcsample(const pmt_pe *pe);
/* The OS Lock and the OS Double Lock (debug/os_lock.c): OSLAR_EL1, OSLSR_EL1, OSDLR_EL1 and
 * DBGPRCR_EL1, the model's registers with pmt_pe_config.os_lock_registers (else NOT_MINE). */
bool os_lock_owns(pmt_reg_id id);
void os_lock_reset(pmt_pe *pe); /* Cold reset: OSLK 1, DLK 0, CORENPDRQ 0 */
pmt_access os_lock_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
pmt_access os_lock_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);
/* DoubleLockStatus() of the registers with Halted() = s->debug. */
bool os_lock_double_lock_status(const pmt_pe *pe, const pmt_pe_state *s);
/* A state pmt_pe_set_state takes: with the option, os_lock and double_lock are the model's. */
void os_lock_keep(const pmt_pe *pe, pmt_pe_state *s);
/* The MDCR_EL2 and MDCR_EL3 fields the OS Lock registers' traps read (TDE, TDOSA). */
uint64_t os_lock_mdcr_el2_mask(const pmt_pe *pe);
uint64_t os_lock_mdcr_el3_mask(const pmt_pe *pe);
/* Why the OS Lock state in pe->st cannot be this model's, or NULL (a restored state). */
const char *os_lock_state_error(const pmt_pe *pe);

/* The Trace Buffer Unit (trbe/). */
bool trbe_owns(pmt_reg_id id); /* a register of the Trace Buffer Unit or FEAT_TRF */
void trbe_reset(pmt_pe *pe);
void trbe_update(pmt_pe *pe); /* after any change of state the unit reads: outputs, running */
pmt_access trbe_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
pmt_access trbe_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);
uint64_t trbe_mdcr_el2_mask(const pmt_pe *pe);
uint64_t trbe_mdcr_el3_mask(const pmt_pe *pe);
void trbe_mdcr_written(pmt_pe *pe, bool el3, uint64_t old); /* logs reserved values */
const char *trbe_config_error(const pmt_pe_config *c);
void trbe_errata_context_sync(pmt_pe *pe); /* pmt_pe_context_sync (trbe_errata.c) */
/* A restored erratum_ctxt_sync_after_enable state is one the unit can be in: a count of 0..2,
 * and only with the option; nothing kept or logged without a count (bools checked apart). */
bool trbe_errata_state_valid(const pmt_pe *pe, const struct pmt_trbe_regs *t);

/* TraceAllowed(PSTATE.EL) (J1.3.4.42) at the current PE state, whatever trace unit asks
 * (ete_filter.c): as the architecture says it, and as the PE sees it (the architecture's, or
 * the stale view of erratum_ctxt_sync_after_enable). */
bool trace_allowed_arch(const pmt_pe *pe);
bool trace_allowed_seen(const pmt_pe *pe);

/* The ETE trace unit (ete/, ete_internal.h has the interface the glue uses). */
bool ete_owns(pmt_reg_id id);
void ete_reset(pmt_pe *pe);
void ete_update(pmt_pe *pe); /* after a change of the state the unit reads: enable, OS Lock */
/* Any change of the PE state or of a register the trace unit's filters read (TRC*, TRB*, TRFCR,
 * MDCR, the PE state, a restore): the cached filter decisions are derived again (ete_filter.c). */
void ete_filter_changed(pmt_pe *pe);
pmt_access ete_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value);
pmt_access ete_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value);
const char *ete_config_error(const pmt_pe_config *c);
void ete_flush_request(pmt_pe *pe); /* the Trace Buffer Unit's flush (RXRRWP), with FEAT_ETE */
/* The bytes in the trace unit buffer (pmt_ete_config.unit_buffer) go to the Trace Buffer Unit:
 * at the start of every call that may need them there (pmt_ete.h lists them). */
void ete_unit_buffer_drain_slow(pmt_pe *pe);
static inline void ete_unit_buffer_drain(pmt_pe *pe)
{
    if (pe->st.etr.buffered)
        ete_unit_buffer_drain_slow(pe);
}
/* Why the trace generation state in pe->st cannot be the unit's, or NULL: the rules between
 * its fields (each field's own range is in pe/state.c). For a restored state. */
const char *ete_trace_state_error(const pmt_pe *pe);
/* A PMU event (PMU_OVFS, ...) or a Trace Buffer Unit event (TRB_WRAP, TRB_TRIG), which the trace
 * unit's External Input Selectors may select. */
void ete_external_event(pmt_pe *pe, uint16_t event);
/* Whether ete_external_event(event) would do something now (an External Input takes it). */
bool ete_external_event_taken(const pmt_pe *pe, uint16_t event);

static inline bool pe_have_pmu(const pmt_pe *pe, pmt_pmu_version v)
{
    return pe->cfg.pmu_version >= v;
}

#endif
