/*
 * pmt_trbe.h - the Trace Buffer Extension (FEAT_TRBE) side of a pmt_pe: configuration, the
 * memory port, the inputs from the trace unit and the CPU, and the outputs (TRBIRQ, the TRBE
 * Profiling exception, CTI trace buffer triggers, the trace unit flush request).
 *
 * The Trace Buffer Unit lives in the same pmt_pe as the PMU (it shares MDCR_EL2 and MDCR_EL3
 * with it). Its system registers (TRB*_EL1, TRBSR_EL2/EL3/EL12, TRFCR_EL1/EL2/EL12) are reached
 * through pmt_pe_sysreg_read/write like every other register of the model; the external
 * Trace Buffer frame of H9.4 (FEAT_TRBE_EXT) through pmt_trbe_ext_read/write.
 *
 * Arm ARM DDI0487 M.a: D6 (the Trace Buffer Extension), D24.4 (registers), H9.4 (external
 * registers), H5.4.9-H5.4.11 (CTI triggers), J1.3 (pseudocode). docs/trbe.md shows the wiring.
 */
#ifndef PMTRACE_PMT_TRBE_H
#define PMTRACE_PMT_TRBE_H

#include "pmt_regs.h"
#include "pmt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pmt_pe pmt_pe;

/* How the PE handles an External abort on a write to the trace buffer (RGQWBF, D6.5.5). */
typedef enum pmt_trbe_ext_abort {
    PMT_TRBE_EA_IGNORE = 0,      /* D6.5.5.1: ignored, TRBSR unchanged (TRBIDR_EL1.EA = 0b0001) */
    PMT_TRBE_EA_SERROR = 1,      /* D6.5.5.2: an SError exception (TRBIDR_EL1.EA = 0b0010) */
    PMT_TRBE_EA_REPORT_SYNC = 2, /* D6.5.5.4, not from Armv9.3 nor with FEAT_TRBE_EXC: reported
                                    to the Trace Buffer Unit and handled synchronously:
                                    TRBPTR_EL1 is the faulting address (TRBIDR_EL1.EA = 0) */
    PMT_TRBE_EA_REPORT_ASYNC = 3 /* the same, handled asynchronously: the event is raised when
                                    the pmt_trbe_trace call that met the abort has written the rest
                                    of its data, with FSC 0b010001, and TRBPTR_EL1 is not the
                                    faulting address; pmt_trbe_external_abort() reports one too */
} pmt_trbe_ext_abort;

/* What MDCR_EL2.E2TB = 0b01 (reserved) behaves as: a non-reserved value (the CONSTRAINED
 * UNPREDICTABLE behaviour of a reserved field value). */
typedef enum pmt_reserved_e2tb {
    PMT_RESE2TB_AS_11 = 0, /* default: owner EL1, no trap */
    PMT_RESE2TB_AS_10 = 1, /* owner EL1, EL1 accesses trap to EL2 */
    PMT_RESE2TB_AS_00 = 2  /* owner EL2 (where EL2 is enabled), EL1 accesses trap to EL2 */
} pmt_reserved_e2tb;

/* Unpredictable_RESTRFEE (EffectiveTRFCR_EL1_EE without FEAT_NV): what TRFCR_EL1.EE = 0b01 or
 * 0b10 behaves as. */
typedef enum pmt_reserved_trfcr_ee {
    PMT_RESTRFEE_AS_EE1 = 0,   /* default: Constraint_UNKNOWN ee<0> = ee<1> (0b01 as 0b00, 0b10 as
                                  0b11), what FEAT_NV requires */
    PMT_RESTRFEE_DISABLED = 1, /* Constraint_DISABLED: as 0b00 */
    PMT_RESTRFEE_AS_11 = 2     /* Constraint_UNKNOWN 0b11 */
} pmt_reserved_trfcr_ee;

/* Configuration (in pmt_pe_config.trbe). Every IMPLEMENTATION DEFINED choice of D6 is one field;
 * docs/choices.md lists them with their defaults. */
typedef struct pmt_trbe_config {
    bool feat_trbe;     /* FEAT_TRBE: the Trace Buffer Unit exists (default false) */
    bool feat_trbe_exc; /* FEAT_TRBEv1p1 with FEAT_TRBE_EXC: TRBSR_EL2, TRBSR_EL3, TRFCR_ELx.EE/KE,
                           the TRBE Profiling exception, TRFCR_EL2.DnVM (needs EL2) */
    bool feat_trbe_ext; /* FEAT_TRBE_EXT: External mode, the H9.4 frame, CTI triggers 8, 9, 10 */
    bool armv9p3;       /* Armv9.3 rules: no External abort is reported to the Trace Buffer Unit
                           (IFRNZK), TRBIDR_EL1.F = 1 (RFBKCC), TRBSR_ELx.EA is RES0 */
    unsigned align;     /* TRBIDR_EL1.Align: log2 of the alignment unit in bytes, 0..11 (RVMVJH);
                           default 6, 64-byte units */
    bool flag_updates;  /* TRBIDR_EL1.F: the Trace Buffer Unit's translations manage the Access
                           flag and dirty state like explicit accesses (RFBKCC); told to the
                           translate callback; default true */
    unsigned pa_bits;   /* PAMax, 32..56: with the Effective nVM = 1 a pointer with a bit set in
                           [OAMax:PAMax] (or above OAMax) takes a stage 1 Address Size fault
                           (RMXRFD, RBRRRK); default 48 */
    pmt_trbe_ext_abort ext_abort; /* RGQWBF; default PMT_TRBE_EA_SERROR */
    bool walk_abort_as_fault;     /* "Report TRBE ExtAbort on TTW as fault": an External abort
                                     on a translation table walk or update is a synchronous MMU
                                     fault (D6.5.5.3); otherwise it follows ext_abort; default
                                     true */
    bool walk_abort_sets_ea;      /* RFSPBK: such a fault also sets TRBSR_ELx.EA; default false */
    bool trb_trig_countable;      /* TRB_TRIG can be counted by the PMU (D14.3, PMCEID0_EL0[46]);
                                     default true */
    bool ignore_writes_while_enabled; /* RDJMDD: direct and external writes to TRBPTR, TRBBASER,
                                         TRBLIMITR (other than one clearing E/XE), TRBTRG,
                                         TRBSR_ELx, TRBMAR while enabled are ignored; default false
                                         (they take effect); either way one log line names RDJMDD */
    bool misaligned_ptr_fault;        /* a misaligned TRBPTR_EL1 written by software other than the
                                         value the unit left takes an Alignment fault when trace arrives
                                         (RJWWWM, RMGZWR); default false: every misaligned value is a
                                         restart value (RHXZZM, ISFTPM: a context switch restores values
                                         left in another context) */
    bool flush_pad;     /* a flush (TSB CSYNC, ManStop, trigger) completes a partly filled
                           alignment unit with pad_byte, so TRBPTR_EL1 stays aligned; default false
                           (the bytes are written as they are and TRBPTR_EL1 may be misaligned, a
                           valid restart value, RHXZZM) */
    uint8_t pad_byte;   /* default 0x70, the ETE Ignore packet */
    bool impdef_events; /* IMPLEMENTATION DEFINED management events exist (RCHNSL): the platform
                           raises them with pmt_trbe_impdef_event(); default false */
    pmt_reserved_e2tb reserved_e2tb;         /* MDCR_EL2.E2TB = 0b01; default AS_11 */
    pmt_reserved_trfcr_ee reserved_trfcr_ee; /* TRFCR_EL1.EE = 0b01, 0b10; default AS_EE1 */
    /* Silicon errata: behaviours of real cores that break the architecture, which Linux's
     * coresight-trbe works around (docs/choices.md "Errata"). All false by default. */
    bool erratum_fill_overwrite;           /* Fill mode does not stop at the wrap at once: up to
                                              erratum_fill_overwrite_bytes more bytes of the same trace
                                              are written from TRBBASER_EL1 on, and TRBPTR_EL1 is left
                                              after them (ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE) */
    uint16_t erratum_fill_overwrite_bytes; /* 1..256; default 256 */
    bool erratum_write_out_of_range;     /* on a wrap, up to 64 bytes of the trace that follows are
                                            also written from the Limit pointer on, outside the buffer
                                            (ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE) */
    bool erratum_drain_after_disable;    /* after a System register write clears
                                            TRBLIMITR_EL1.E, System register writes to TRBLIMITR,
                                            TRBPTR, TRBBASER, TRBMAR, TRBSR_ELx and TRBTRG are
                                            ignored until a TSB CSYNC (ARM64_WORKAROUND_2064142,
                                            TRBE_NEEDS_DRAIN_AFTER_DISABLE) */
    bool erratum_ctxt_sync_after_enable; /* after a System register write sets TRBLIMITR_EL1.E,
                                            the PE's view of whether trace is prohibited stays
                                            the one at that write until the second
                                            pmt_pe_context_sync (ARM64_WORKAROUND_2038923,
                                            TRBE_NEEDS_CTXT_SYNC_AFTER_ENABLE) */
    uint16_t part_number; /* TRBPIDR0/1 part number of the external frame; default 0 */
    uint8_t revision;     /* TRBPIDR2.REVISION; default 0 */
} pmt_trbe_config;

/* A fault a translation can report (D6.5.4, RQKLXR, RYQMQK). Alignment faults from a misaligned
 * TRBPTR_EL1 are generated by the model itself. */
typedef enum pmt_trbe_fault_kind {
    PMT_TRBE_FAULT_NONE = 0,
    PMT_TRBE_FAULT_ADDRESS_SIZE,       /* levels -2..3 */
    PMT_TRBE_FAULT_TRANSLATION,        /* levels -2..3 */
    PMT_TRBE_FAULT_ACCESS_FLAG,        /* levels 0..3 */
    PMT_TRBE_FAULT_PERMISSION,         /* levels 0..3; toplevel, assuredonly, overlay, dirtybit */
    PMT_TRBE_FAULT_ALIGNMENT,          /* memory-type Alignment fault (RRZTDD, RXRQTN) */
    PMT_TRBE_FAULT_TLB_CONFLICT,       /* IMPLEMENTATION DEFINED */
    PMT_TRBE_FAULT_UNSUPPORTED_ATOMIC, /* unsupported atomic hardware update */
    PMT_TRBE_FAULT_EXTERNAL_WALK,      /* synchronous External abort on a translation table walk
                                          or update, levels -2..3: a fault or an External abort
                                          by walk_abort_as_fault */
    PMT_TRBE_FAULT_GPF,                /* Granule Protection Fault, not on a walk (stage 1) */
    PMT_TRBE_FAULT_GPF_WALK,           /* GPF on a translation table walk or update, levels -2..3,
                                          stage 1 or 2 */
    PMT_TRBE_FAULT_GPC                 /* Granule Protection Check fault other than a GPF: GPT
                                          address size, GPT walk fault, External abort on a GPT
                                          fetch (TRBSR_ELx.EC 0x1E) */
} pmt_trbe_fault_kind;

/*
 * What each fault kind needs. The model refuses a description that breaks any of these rules
 * (it cannot know which fault was meant) and never turns it into another fault:
 *   - kind is a pmt_trbe_fault_kind; PMT_TRBE_FAULT_NONE has every other field zero;
 *   - stage is 1 or 2 for every kind (the stage whose access met the fault; a GPC fault records
 *     no stage in TRBSR_ELx but still comes from one); PMT_TRBE_FAULT_GPF is stage 1 (RFSPBK: a
 *     GPF not on a walk is reported as stage 1; on a walk it is PMT_TRBE_FAULT_GPF_WALK);
 *   - level is -2..3 for ADDRESS_SIZE, TRANSLATION, EXTERNAL_WALK and GPF_WALK, 0..3 for
 *     ACCESS_FLAG and PERMISSION, and 0 for every other kind;
 *   - toplevel, assuredonly, overlay and dirtybit only with PERMISSION; toplevel and
 *     assuredonly only at stage 2 (RLYHGV, RYCPZX);
 *   - in External mode (regime->external) only GPC and GPF (RQKLXR).
 * A refused description is answered so: one log line says which rule it breaks; the bytes of
 * that page are not written, TRBPTR_EL1 advances as if they were (as after an ignored External
 * abort, D6.5.5.1), TRBSR_ELx is unchanged; the call that wrote (pmt_trbe_trace,
 * pmt_trbe_tsb_csync) returns PMT_ERR_ARG after handling the rest of its bytes.
 */
typedef struct pmt_trbe_fault {
    pmt_trbe_fault_kind kind;
    uint8_t stage; /* 1 or 2 */
    int8_t level;  /* translation level, -2..3 (where the kind has a level; else 0) */
    /* Permission fault details, recorded in TRBSR_ELx.MSS2 (DebugWriteFault) */
    bool toplevel, assuredonly, overlay, dirtybit;
} pmt_trbe_fault;

/* The owning translation regime of a write (D6.3.5, Table D6-2). */
typedef struct pmt_trbe_regime {
    pmt_security ss;   /* owning Security state; in External mode the Security state of
                          TRBMAR_EL1.PAS */
    uint8_t el;        /* owning Exception level: 1 (EL1&0) or 2 (EL2, or EL2&0 with e2h);
                          0 in External mode */
    bool e2h;          /* owning EL2 with HCR_EL2.E2H = 1: the EL2&0 regime */
    bool nvm;          /* Effective TRBLIMITR_EL1.nVM: the address is an IPA (EL1&0 with stage 2)
                          or a PA; stage 1 is disabled and TRBMAR_EL1 gives the attributes */
    bool external;     /* External mode: the address is a PA in the PAS `ss`; only Granule
                          Protection Checks apply */
    bool flag_updates; /* TRBIDR_EL1.F: manage the Access flag and dirty state (RFBKCC) */
    uint64_t trbmar;   /* TRBMAR_EL1 (attributes when nvm or external) */
} pmt_trbe_regime;

/* What translate returns. The model fills pa with the identity and pas with regime->ss before
 * calling; a translation holds for the whole 4 KiB page containing the address. */
typedef struct pmt_trbe_translation {
    uint64_t pa;
    pmt_security pas; /* physical address space of pa */
    pmt_trbe_fault fault;
} pmt_trbe_translation;

/* What write returns. */
typedef enum pmt_trbe_write_result {
    PMT_TRBE_WRITE_OK = 0,
    PMT_TRBE_WRITE_ABORT_SYNC = 1, /* a synchronous External abort after *done bytes */
    PMT_TRBE_WRITE_ABORT_ASYNC = 2 /* an asynchronous External abort (always an SError, or
                                      ignored with PMT_TRBE_EA_IGNORE) */
} pmt_trbe_write_result;

/* Outputs and the memory port. Any pointer may be NULL. The outputs are called only when
 * something happens (a level when it changes, an event each time it occurs). Callbacks must not
 * call into the model, except flush_request, which may call pmt_trbe_flush_complete. */
typedef struct pmt_trbe_callbacks {
    void *user;
    /* TRBIRQ, a level-triggered PPI (RLRTBP, RVSCDV). */
    void (*trbirq)(void *user, bool level);
    /* The TRBE Profiling exception (RMFMXQ, IMTLSX): take is true while an enabled, pending
     * and unmasked exception should be taken to target_el. */
    void (*exception)(void *user, bool take, unsigned target_el);
    /* An SError exception from an External abort on a trace buffer write (D6.5.5.2). */
    void (*serror)(void *user);
    /* CTI input trigger events with FEAT_TRBE_EXT (H5.4.9 to H5.4.11): 8 trace buffer stopped,
     * 9 trace buffer management, 10 trace buffer wrap. Each call is one trigger event. */
    void (*cti_trigger)(void *user, unsigned number);
    /* A trace unit flush request (RXRRWP, RWMPMV). The trace unit flushes and then calls
     * pmt_trbe_flush_complete; without this callback the flush completes at once. */
    void (*flush_request)(void *user);
    /* TRB_WRAP and TRB_TRIG as they occur, for a trace unit that uses them as events (D6.1.2);
     * the PMU counts them itself. */
    void (*event)(void *user, uint16_t event);
    /* The memory port. translate: va (or IPA or PA, see regime) -> pa or a fault; NULL gives
     * the identity. write: n bytes at pa; NULL drops the bytes. */
    void (*translate)(void *user, uint64_t va, const pmt_trbe_regime *regime,
                      pmt_trbe_translation *out);
    pmt_trbe_write_result (*write)(void *user, uint64_t pa, pmt_security pas, const uint8_t *bytes,
                                   size_t n, size_t *done);
} pmt_trbe_callbacks;

/* Sets the TRBE outputs and memory port (copied). NULL clears them. */
pmt_status pmt_trbe_set_callbacks(pmt_pe *pe, const pmt_trbe_callbacks *callbacks);

/*
 * n bytes of trace from the trace unit (CollectTrace for each byte, D6.1). The Trace Buffer
 * Unit accepts and writes them, or discards them when it is disabled or collection is stopped
 * (RHNTLG, RYMVZL); this model never rejects trace (TRBEInternalBufferFull is FALSE), so
 * *accepted (may be NULL) is n. Bytes are collected into TRBIDR_EL1.Align-sized units and each
 * whole unit is written when complete; pmt_trbe_tsb_csync writes a partial one. Returns
 * PMT_ERR_ARG when translate gave a fault description the model refuses (see pmt_trbe_fault).
 */
pmt_status pmt_trbe_trace(pmt_pe *pe, const uint8_t *bytes, size_t n, size_t *accepted);

/* A Detected Trigger from the trace unit (D6.5.3). */
pmt_status pmt_trbe_detected_trigger(pmt_pe *pe);

/* The trace unit flush the model requested (flush_request) has completed. */
pmt_status pmt_trbe_flush_complete(pmt_pe *pe);

/* TSB CSYNC executed by the PE (D6.6.1): every byte the Trace Buffer Unit accepted is written
 * to memory, so that TRBPTR_EL1 and memory agree. The trace unit delivers its own pending
 * trace (pmt_trbe_trace) before this call. PMT_ERR_ARG as for pmt_trbe_trace. */
pmt_status pmt_trbe_tsb_csync(pmt_pe *pe);

/* TraceAllowed(PSTATE.EL) (J1.3.4.42) as the PE sees it now, for a trace unit outside the model
 * that feeds pmt_trbe_trace: false in Debug state, else the self-hosted prohibited regions
 * (TRFCR_ELx, MDCR_EL3.STE and RLTE, the owner of an enabled trace buffer) or, with the Trace
 * Buffer Unit external, ExternalNoninvasiveDebugAllowed. With erratum_ctxt_sync_after_enable,
 * the PE's stale view while it lasts (docs/choices.md "Errata"). False for a NULL pe. */
bool pmt_trbe_trace_allowed(pmt_pe *pe);

/* An External abort reported to the Trace Buffer Unit asynchronously (D6.5.5.4, only with
 * PMT_TRBE_EA_REPORT_ASYNC): stage 1 or 2 of the write it belongs to. */
pmt_status pmt_trbe_external_abort(pmt_pe *pe, unsigned stage);

/* An IMPLEMENTATION DEFINED trace buffer management event (RCHNSL, EC 0x1F) with its
 * IMPLEMENTATION DEFINED syndrome (MSS[15:0], MSS2[23:0]); needs impdef_events. */
pmt_status pmt_trbe_impdef_event(pmt_pe *pe, uint16_t mss, uint32_t mss2);

/* The state the model derives (for a CPU model, a trace unit and tests). */
typedef struct pmt_trbe_status {
    bool enabled;          /* TraceBufferEnabled() */
    bool running;          /* TraceBufferRunning() */
    bool self_hosted;      /* Self-hosted mode (else External mode) */
    pmt_trbe_regime owner; /* owning translation regime (meaningful when enabled) */
    size_t buffered;       /* bytes accepted but not yet written (TRBSR_EL1.DAT) */
    bool flush_pending;    /* a trace unit flush requested by the model has not completed */
    uint64_t headroom;     /* bytes the Trace Buffer Unit can accept before anything visible happens
                              (a wrap, a Trigger Event); UINT64_MAX when trace is discarded */
} pmt_trbe_status;

pmt_status pmt_trbe_get_status(const pmt_pe *pe, pmt_trbe_status *status);

/* Current TRBIRQ level (what the callback last reported). */
bool pmt_trbe_irq_level(const pmt_pe *pe);

/* A cell of Tables D6-8, D6-9 and D6-10: the TRBE Profiling exception for the IRQ bit of
 * TRBSR_EL<source_el>, at the current PE state. */
typedef enum pmt_trbe_exc_state {
    PMT_TRBE_EXC_NONE = 0,      /* disabled ("None"), or no TRBSR_ELx.IRQ pending */
    PMT_TRBE_EXC_MASKED_PM = 1, /* enabled, pending, masked by PSTATE.PM ("B") */
    PMT_TRBE_EXC_MASKED = 2,    /* enabled, pending, masked regardless of PSTATE.PM ("C") */
    PMT_TRBE_EXC_TAKEN = 3      /* enabled, pending, unmasked: taken to *target_el */
} pmt_trbe_exc_state;

pmt_trbe_exc_state pmt_trbe_exception_state(const pmt_pe *pe, unsigned source_el,
                                            unsigned *target_el);

/* The external Trace Buffer frame (H9.4, FEAT_TRBE_EXT) at byte offset 0..0xFFF, size 4 or 8
 * (8 only for a 64-bit register). `from` is the physical address space of the access
 * (AllowExternalTraceBufferAccess, MDCR_EL3.ETBAD). Results as for the PMU frame: PMT_EXT_OK,
 * PMT_EXT_BAD_SIZE, PMT_EXT_ERROR (an error response). Reads have no side effects. */
pmt_ext_status pmt_trbe_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                 uint64_t *value);
pmt_ext_status pmt_trbe_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                  uint64_t value);
/* What an access to the Trace Buffer frame reaches at `offset`: a TRB*_EL1 register of the PE's
 * view and its half, a register of the frame only ("TRBCR", "TRBDEVARCH", ...), or nothing
 * (always without FEAT_TRBE_EXT; pmt_pmu_ext_name in pmt_pmu.h says more). */
pmt_ext_name pmt_trbe_ext_name(const pmt_pe *pe, uint32_t offset);

/* TRBSR_ELx.EC values (D24.4.7). */
#define PMT_TRBSR_EC_OTHER        0x00u
#define PMT_TRBSR_EC_GPC          0x1Eu
#define PMT_TRBSR_EC_IMPDEF       0x1Fu
#define PMT_TRBSR_EC_STAGE1_ABORT 0x24u
#define PMT_TRBSR_EC_STAGE2_ABORT 0x25u
/* TRBSR_ELx.MSS.BSC values for EC 0 (D24.4.7). */
#define PMT_TRBSR_BSC_NOT_STOPPED 0x00u /* also "access not allowed" */
#define PMT_TRBSR_BSC_FULL        0x01u
#define PMT_TRBSR_BSC_TRIGGER     0x02u
#define PMT_TRBSR_BSC_MANUAL_STOP 0x03u
/* TRBLIMITR_EL1.FM and .TM values. */
#define PMT_TRBLIMITR_FM_FILL     0u
#define PMT_TRBLIMITR_FM_WRAP     1u
#define PMT_TRBLIMITR_FM_CIRCULAR 3u
#define PMT_TRBLIMITR_TM_STOP     0u
#define PMT_TRBLIMITR_TM_IRQ      1u
#define PMT_TRBLIMITR_TM_IGNORE   3u
/* CTI input triggers (Table H5-2). */
#define PMT_CTI_TRBE_STOPPED      8u
#define PMT_CTI_TRBE_MANAGEMENT   9u
#define PMT_CTI_TRBE_WRAP         10u

#ifdef __cplusplus
}
#endif

#endif
