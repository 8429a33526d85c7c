/*
 * pmt_pe.h - the model of one Arm PE's Performance Monitors and Trace Buffer Unit.
 *
 * One pmt_pe object per PE. It holds all architectural state; it has no time, no threads, no
 * I/O and allocates nothing after pmt_pe_create. Every call takes the object. Outputs (PMUIRQ,
 * CTI trigger events, ...) are reported through callbacks, each only when its value changes.
 */
#ifndef PMTRACE_PMT_PE_H
#define PMTRACE_PMT_PE_H

#include "pmt_ete.h"
#include "pmt_regs.h"
#include "pmt_trbe.h"
#include "pmt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmt_pe pmt_pe;

/* Features (FEAT_*) the PE implements. Each later PMU version implies the earlier ones. */
typedef enum pmt_pmu_version {
    PMT_PMUV3 = 1,   /* FEAT_PMUv3 */
    PMT_PMUV3P1 = 4, /* FEAT_PMUv3p1: 16-bit event numbers, MDCR_EL2.HPMD */
    PMT_PMUV3P4 = 5, /* FEAT_PMUv3p4: PMMIR_EL1 */
    PMT_PMUV3P5 = 6, /* FEAT_PMUv3p5: 64-bit event counters, PMCR.LP, HLP, SCCD, HCCD */
    PMT_PMUV3P7 = 7, /* FEAT_PMUv3p7: freeze on overflow, MDCR_EL3.MPMX, MCCD */
    PMT_PMUV3P8 = 8, /* FEAT_PMUv3p8: threshold-capable encodings (threshold not modelled) */
    PMT_PMUV3P9 = 9  /* FEAT_PMUv3p9: PMUSERENR_EL0.UEN, PMUACR_EL1, PMZR_EL0 */
} pmt_pmu_version;

/* What the PE does with an Unattributable event while counting Attributable events is
 * prohibited (IMPLEMENTATION DEFINED, D13.5 "Prohibiting event and cycle counting"). */
typedef enum pmt_unattributable_policy {
    PMT_UNATTRIB_NOT_COUNTED = 0, /* default: prohibited like Attributable events */
    PMT_UNATTRIB_COUNTED = 1      /* counted even where Attributable events are prohibited */
} pmt_unattributable_policy;

/* Which events are synchronous events (IsSupportingPMUSynchronousMode, RXLMVX: IMPLEMENTATION
 * DEFINED). */
typedef enum pmt_sync_events {
    PMT_SYNC_EVENTS_RECOMMENDED = 0, /* default: the events D14.7 recommends */
    PMT_SYNC_EVENTS_LIST = 1         /* exactly the events in sync_event_list */
} pmt_sync_events;

/* RMQDPX: when an instruction changes a condition of RNZLVW (PMINTENSET, the counter's enable
 * or mode, PMOVSSET, the PMU exception's enable or mask), whether RNZLVW uses the values from
 * before or after the instruction. Also decides case 3 of Table D13-2. */
typedef enum pmt_sync_values {
    PMT_SYNC_VALUES_AFTER = 0, /* default: the values the instruction leaves */
    PMT_SYNC_VALUES_BEFORE = 1 /* the values the instruction found (the CPU must then report
                                  every instruction through pmt_pmu_retire) */
} pmt_sync_values;

#define PMT_MAX_SYNC_EVENT_LIST 16

/* Unpredictable_RESPMEE (EffectivePMEE): what a reserved PMEE value behaves as. Each is a
 * behaviour the architecture permits: Constraint_DISABLED, or Constraint_UNKNOWN with a
 * non-reserved value. */
typedef enum pmt_reserved_pmee {
    PMT_RESPMEE_DISABLED = 0, /* default: neither the PMU Profiling exception nor PMUIRQ */
    PMT_RESPMEE_AS_00 = 1,    /* as 0b00: PMUIRQ, no exception */
    PMT_RESPMEE_AS_01 = 2,    /* as 0b01: the next lower control decides (MDCR_ELx only) */
    PMT_RESPMEE_AS_11 = 3     /* as 0b11: the exception, no PMUIRQ */
} pmt_reserved_pmee;

/* Unpredictable_RESPMSSE (PMUCaptureEventEnabled): what PMECR_EL1.SSE = 0b01 behaves as. */
typedef enum pmt_reserved_sse {
    PMT_RESPMSSE_DISABLED = 0, /* default: Constraint_DISABLED, as 0b00 (Capture disabled) */
    PMT_RESPMSSE_AS_10 = 1,    /* Constraint_UNKNOWN 0b10: enabled and prohibited */
    PMT_RESPMSSE_AS_11 = 2     /* Constraint_UNKNOWN 0b11: enabled and allowed */
} pmt_reserved_sse;

/* The layout of the external (memory-mapped) PMU frame, I5.2. */
typedef enum pmt_ext_layout {
    PMT_EXT32 = 0, /* FEAT_PMUv3_EXT32: 32-bit registers, PMDEVARCH.ARCHPART 0xA16 */
    PMT_EXT64 = 1  /* FEAT_PMUv3_EXT64: 64-bit registers, PMDEVARCH.ARCHPART 0xA26 */
} pmt_ext_layout;

/* Where the PC sample-based profiling registers are (OPTIONAL: H7, I5.3, H9.2). */
typedef enum pmt_pcsr_location {
    PMT_PCSR_NONE = 0,        /* not implemented */
    PMT_PCSR_DEBUG_FRAME = 1, /* FEAT_PCSRv8: EDPCSRlo/hi, EDCIDSR, EDVIDSR (pmt_debug_ext_*) */
    PMT_PCSR_PMU_FRAME = 2    /* FEAT_PCSRv8p2: PMPCSR, PMCID1SR, ... (pmt_pmu_ext_*) */
} pmt_pcsr_location;

typedef struct pmt_pe_config {
    /* Exception levels that exist above EL1 (EL0 and EL1 always exist). */
    bool have_el2;
    bool have_el3;
    bool have_sel2;    /* FEAT_SEL2: Secure EL2 (PMEVTYPER.SH) */
    bool have_rme;     /* FEAT_RME: Realm state (RLK, RLU, RLH filters) */
    bool have_aarch32; /* AArch32 is supported at some EL (HaveAArch32): PMCR.LC and PMCR.D are
                          writable; without it LC is RES1 and D RES0 */

    /* PMU */
    pmt_pmu_version pmu_version;
    unsigned num_counters; /* event counters, 0..31 (PMCR_EL0.N) */
    bool feat_hpmn0;       /* FEAT_HPMN0: MDCR_EL2.HPMN may be 0 */
    bool feat_extpmn;      /* FEAT_PMUv3_EXTPMN: PMCCR, third counter range */
    bool feat_icntr;       /* FEAT_PMUv3_ICNTR: PMICNTR_EL0 */
    bool feat_ebep;        /* FEAT_EBEP: the PMU Profiling exception */
    bool feat_sebep;       /* FEAT_SEBEP: the synchronous PMU Profiling exception */
    bool feat_ss;          /* FEAT_PMUv3_SS: PMU snapshots */
    bool feat_pcsrv8p9;    /* FEAT_PCSRv8p9: PMPCSCTL (needs pcsr = PMT_PCSR_PMU_FRAME) */
    bool feat_spev1p2;     /* FEAT_SPEv1p2: freeze on SPE buffer management event (FZS) */
    bool feat_spe_dpfzs;   /* FEAT_SPE_DPFZS: the SPE freeze also stops PMCCNTR when PMCR.DP=1 */
    bool feat_pmuv3_sme;   /* FEAT_PMUv3_SME: VS filter */
    bool feat_debugv8p9;   /* FEAT_Debugv8p9: PMU overflow halt request (with PMUv3p9) */
    bool feat_brbe;        /* FEAT_BRBE present outside the model: BRBE freeze output */

    /* Events the platform can deliver: bit e of common_events[0] is event e (0x00..0x3F),
     * bit e of common_events[1] is event 0x4000+e; they are read back in PMCEID0/1_EL0. */
    uint64_t common_events[2];

    /* IMPLEMENTATION DEFINED values and choices (docs/choices.md). */
    uint8_t pmcr_imp;    /* PMCR_EL0.IMP (reads 0 from FEAT_PMUv3p7) */
    uint8_t pmcr_idcode; /* PMCR_EL0.IDCODE */
    uint64_t pmmir;      /* PMMIR_EL1 value (FEAT_PMUv3p4) */
    pmt_unattributable_policy unattributable;
    /* The external PMU frame (I5.2, I5.3). */
    pmt_ext_layout ext_layout; /* default EXT32 */
    bool ext_software_lock;    /* PMLAR/PMLSR software lock implemented (not from Debugv8p4);
                                  default false */
    uint64_t mpidr;            /* PMDEVAFF: the PE's MPIDR_EL1 */
    uint32_t pmiidr;           /* PMIIDR; default 0x0000043B (implementer Arm) */
    uint16_t part_number;      /* PMPIDR0/1 part number; default 0 */
    uint8_t revision;          /* PMPIDR2.REVISION; default 0 */
    bool chain_across_ranges;  /* Unpredictable_COUNT_CHAIN: does an even counter in one range
                                  chain into an odd counter in the next? default false */

    /* Reserved values software can program (CONSTRAINED UNPREDICTABLE, docs/choices.md); the
     * model logs each such write naming the rule. */
    pmt_reserved_pmee reserved_pmecr_pmee;    /* PMECR_EL1.PMEE = 0b01 or 0b10 (not AS_01) */
    pmt_reserved_pmee reserved_mdcr_el2_pmee; /* MDCR_EL2.PMEE = 0b10 */
    pmt_reserved_pmee reserved_mdcr_el3_pmee; /* MDCR_EL3.PMEE = 0b10 */
    pmt_reserved_sse reserved_pmecr_sse;      /* PMECR_EL1.SSE = 0b01 */
    bool feat_nv; /* FEAT_NV, as far as the model's registers depend on it: TRFCR_EL1.EE 0b01 and
                     0b10 behave as ee<0> = ee<1> (EffectiveTRFCR_EL1_EE), which
                     trbe.reserved_trfcr_ee must then be; its traps are the CPU's */

    /* FEAT_EBEP, FEAT_SEBEP (docs/pmu.md "PMU Profiling exceptions"). */
    pmt_sync_events sync_events; /* default PMT_SYNC_EVENTS_RECOMMENDED */
    uint16_t sync_event_list[PMT_MAX_SYNC_EVENT_LIST];
    unsigned num_sync_events;    /* entries used in sync_event_list */
    pmt_sync_values sync_values; /* RMQDPX; default PMT_SYNC_VALUES_AFTER */
    unsigned va_bits;            /* 48, 52 (FEAT_LVA) or 56 (FEAT_LVA3): PMIAR_EL1 bits [63:P]
                                    are RESS; default 48 */
    /* FEAT_PMUv3_SS (docs/pmu.md "PMU snapshots"). */
    bool capture_in_debug; /* the PE allows Capture events in Debug state (RTSYTY); default
                              false */
    /* PC sample-based profiling (pmt_pcsample.h). feat_pcsrv8p9 above needs PMT_PCSR_PMU_FRAME. */
    pmt_pcsr_location pcsr; /* default PMT_PCSR_NONE */
    bool feat_vhe;          /* FEAT_VHE: CONTEXTIDR_EL2 is sampled; EDSCR.SC2 format of EDPCSRhi */
    bool feat_debugv8p2;    /* FEAT_Debugv8p2: CONTEXTIDR_EL2 is sampled, also without FEAT_VHE */
    bool feat_vmid16;       /* FEAT_VMID16: 16-bit VMIDs when VTCR_EL2.VS is 1 */
    bool debug_software_lock; /* EDLAR/EDLSR software lock of the debug frame (with
                                 PMT_PCSR_DEBUG_FRAME); default false */
    bool pmpcsctl_imp;        /* PMPCSCTL.IMP (FEAT_PCSRv8p9): EN suspends and resumes sampling;
                                 default true */
    /* The OS Lock and the OS Double Lock (D24.3.23, D24.3.27, D24.3.28, D24.3.9). false (the
     * default): the CPU model holds OSLAR_EL1, OSLSR_EL1, OSDLR_EL1 and DBGPRCR_EL1 and reports
     * OSLSR_EL1.OSLK and DoubleLockStatus() in pmt_pe_state.os_lock and double_lock; the
     * model answers PMT_ACCESS_NOT_MINE for them. true: they are the model's registers (a CPU
     * routes their MRS and MSR here), with FEAT_DoubleLock, the traps MDCR_EL2.{TDE, TDOSA} and
     * MDCR_EL3.TDOSA (which MDCR_ELx then store), OSLSR_EL1.OSLK 1 after a Cold reset, and
     * pmt_pe_set_state keeping os_lock and double_lock as the registers make them (whatever
     * the state given says). docs/choices.md "The OS Lock". */
    bool os_lock_registers;
    /* The Trace Buffer Unit (pmt_trbe.h); trbe.feat_trbe is false by default. */
    pmt_trbe_config trbe;
    /* The ETE trace unit (pmt_ete.h); ete.feat_ete is false by default. */
    pmt_ete_config ete;
} pmt_pe_config;

/* A config with every field at its documented default: 6 counters, PMUv3p7, EL2 and EL3. */
pmt_pe_config pmt_pe_config_default(void);

/* Outputs. Each is called only when the value changes; any may be NULL. */
typedef struct pmt_pe_callbacks {
    void *user;
    void (*pmuirq)(void *user, bool level);           /* PMUIRQ, level-sensitive (D13.3.1) */
    void (*cti_pmu_overflow)(void *user, bool level); /* CTI input trigger 1 (H5.4.4), as a level */
    void (*brbe_freeze)(void *user);                  /* a BRBE freeze event (ShouldBRBEFreeze) */
    void (*halt_request)(void *user, bool level);     /* PMU overflow external debug request */
    /* Events the PMU generates but cannot count itself, for a trace unit or another observer:
     * PMU_OVFS and PMU_HOVFS (D14.3), with how many occurred at once. */
    void (*pmu_event)(void *user, uint16_t event, uint64_t count);
    /* The asynchronous PMU Profiling exception (RKBPMJ): pending, and its target Exception
     * level (meaningful while pending). Called when either changes. */
    void (*pmu_exception)(void *user, bool pending, unsigned target_el);
    /* A successful PMU snapshot Capture event: a BRBE freeze event when the BRBE's own controls
     * (BRBCR_ELx.FZPSS, BranchRecordAllowed) say so (RLBQZR). */
    void (*brbe_capture_freeze)(void *user);
    /* One log line for a person: bad input, UNPREDICTABLE programming (names the rule). */
    void (*log)(void *user, const char *message);
} pmt_pe_callbacks;

/* Creates a model; NULL (and, when log is given, a line saying why) for a bad config: a field
 * outside its documented range, whether or not the feature it belongs to is implemented (a bool
 * whose byte is neither 0 nor 1 too), or fields that contradict each other. */
pmt_pe *pmt_pe_create(const pmt_pe_config *config, const pmt_pe_callbacks *callbacks);
void pmt_pe_destroy(pmt_pe *pe);
/* Cold reset: every register to its architectural reset value (UNKNOWN values read as 0). */
pmt_status pmt_pe_reset(pmt_pe *pe);
const pmt_pe_config *pmt_pe_get_config(const pmt_pe *pe);

/* Save and restore: the state is plain data, saved field by field (docs/pmu.md "Save and
 * restore"). pmt_pe_save needs size >= pmt_pe_state_size (else PMT_ERR_ARG). pmt_pe_restore takes
 * a blob of exactly that size saved by a model of the same configuration, as it is, and refuses
 * (PMT_ERR_STATE_BLOB and a log line, the model unchanged) one that is not a state of this model:
 * another size or magic, a field outside its values (a bool other than 0 or 1, an enum that
 * names nothing, a count past its buffer), or fields that contradict each other or the config. */
size_t pmt_pe_state_size(const pmt_pe *pe);
pmt_status pmt_pe_save(pmt_pe *pe, void *buffer, size_t size);
pmt_status pmt_pe_restore(pmt_pe *pe, const void *buffer, size_t size);

/* The CPU tells the model its state; everything depending on it is re-evaluated. With
 * os_lock_registers, state->os_lock and double_lock are not read: the model keeps its own
 * (pmt_pe_get_state reports them). */
pmt_status pmt_pe_set_state(pmt_pe *pe, const pmt_pe_state *state);
pmt_pe_state pmt_pe_get_state(const pmt_pe *pe);

/* A Context synchronization event the PE executed: an ISB, or another the CPU model chooses to
 * report (docs/choices.md "Errata": the model reads nothing else as one, and exception entry
 * and return are not counted). Only the TRBE erratum option erratum_ctxt_sync_after_enable
 * uses it; O(1), and nothing is done without that option. */
pmt_status pmt_pe_context_sync(pmt_pe *pe);

/* The PMU and trace fields of ID_AA64DFR0_EL1 and ID_AA64DFR1_EL1 (other fields 0), for a CPU
 * model that owns the ID registers to OR into its own values. */
pmt_status pmt_pe_id_aa64dfr(const pmt_pe *pe, uint64_t *dfr0, uint64_t *dfr1);

/* MRS/MSR at the current PE state. */
pmt_access pmt_pe_sysreg_read(pmt_pe *pe, pmt_sysreg enc, uint64_t *value);
pmt_access pmt_pe_sysreg_write(pmt_pe *pe, pmt_sysreg enc, uint64_t value);

#ifdef __cplusplus
}
#endif

#endif
