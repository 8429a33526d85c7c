/*
 * trbe_internal.h - what the files of the Trace Buffer Unit share: the J1.3 pseudocode functions
 * (trbe_rules.c), management events and outputs (trbe_mgmt.c), and the write path
 * (trbe_write.c).
 */
#ifndef PMTRACE_TRBE_INTERNAL_H
#define PMTRACE_TRBE_INTERNAL_H

#include "../pe_internal.h"

#include <string.h>

#define MDCR2(f)  PMT_GET(MDCR_EL2, f, pe->st.mdcr_el2)
#define MDCR3(f)  PMT_GET(MDCR_EL3, f, pe->st.mdcr_el3)
#define LIMITR(f) PMT_GET(TRBLIMITR, f, pe->st.trbe.limitr)
#define SR(el, f) PMT_GET(TRBSR, f, pe->st.trbe.sr[el])
#define TRFCR1(f) PMT_GET(TRFCR_EL1, f, pe->st.trbe.trfcr_el1)
#define TRFCR2(f) PMT_GET(TRFCR_EL2, f, pe->st.trbe.trfcr_el2)

/* Reasons for a trace unit flush the Trace Buffer Unit requested. */
#define TRBE_FLUSH_TRIGGER 1u /* a Trigger Event in Stop on trigger or IRQ on trigger mode */
#define TRBE_FLUSH_MANSTOP 2u /* a write of 1 to TRBCR.ManStop */

/* The bits of TRBSR_ELx.MSS.FSC the pseudocode's EncodeLDFSC gives. */
#define TRBE_FSC_SYNC_EXTERNAL  0x10u
#define TRBE_FSC_ASYNC_EXTERNAL 0x11u
#define TRBE_FSC_ALIGNMENT      0x21u

static inline uint64_t trbe_base(const pmt_pe *pe)
{
    return pe->st.trbe.baser & PMT_MASK(TRBBASER, BASE);
}
static inline uint64_t trbe_limit(const pmt_pe *pe)
{
    return pe->st.trbe.limitr & PMT_MASK(TRBLIMITR, LIMIT);
}
static inline uint64_t trbe_unit(const pmt_pe *pe)
{
    return UINT64_C(1) << pe->cfg.trbe.align;
}

/* trbe_rules.c: the pseudocode of J1.3 and D6. */
bool trbe_self_hosted(const pmt_pe *pe);                           /* SelfHostedTraceEnabled */
bool trbe_scr_ns(const pmt_pe *pe);                                /* EffectiveSCR_EL3_NS */
bool trbe_secure_el2(const pmt_pe *pe);                            /* IsSecureEL2Enabled */
void trbe_owner(const pmt_pe *pe, pmt_security *ss, unsigned *el); /* TraceBufferOwner */
bool trbe_enabled(const pmt_pe *pe);                               /* TraceBufferEnabled */
bool trbe_running(const pmt_pe *pe);                               /* TraceBufferRunning */
unsigned trbe_effective_ee2(const pmt_pe *pe);                     /* EffectiveTRFCR_EL2_EE */
unsigned trbe_effective_ee1(const pmt_pe *pe);                     /* EffectiveTRFCR_EL1_EE */
unsigned trbe_effective_e2tb(const pmt_pe *pe); /* MDCR_EL2.E2TB, 0b01 as reserved_e2tb says */
bool trbe_effective_nvm(const pmt_pe *pe);      /* EffectiveTRBLIMITR_EL1_nVM */
bool trbe_nstb_trap(const pmt_pe *pe);          /* CheckMDCR_EL3_NSTBTrap */
unsigned trbe_report_el(const pmt_pe *pe, unsigned ec, unsigned fsc); /* ReportTRBEEvent */
unsigned trbe_default_el(const pmt_pe *pe);                           /* DefaultTRBEEvent */
bool trbe_irq_enabled(const pmt_pe *pe);                              /* TRBEInterruptEnabled */
bool trbe_el_in_host(const pmt_pe *pe);                               /* ELIsInHost(EL2) */
unsigned trbe_fm(const pmt_pe *pe); /* TRBLIMITR_EL1.FM as it behaves (reserved values mapped) */
unsigned trbe_tm(const pmt_pe *pe); /* TRBLIMITR_EL1.TM as it behaves */
uint64_t trbe_trbidr(const pmt_pe *pe, bool external);
void trbe_regime(const pmt_pe *pe, pmt_trbe_regime *r);
/* The TRBE Profiling exception to take now (CheckForTRBEException), if any. */
bool trbe_exception_to_take(const pmt_pe *pe, unsigned *target_el);
/* Trace Buffer Unit registers are written while it is enabled (RDJMDD). */
bool trbe_write_locked(const pmt_pe *pe);

/* trbe_regs.c: register values and writes shared with the external frame. */
uint64_t trbe_reg_value(const pmt_pe *pe, pmt_reg_id id, unsigned which, bool external);
void trbe_ext_reg_write(pmt_pe *pe, pmt_reg_id id, uint64_t value);

/* trbe_mgmt.c: management events, triggers, outputs. */
void trbe_set_irq(pmt_pe *pe, unsigned el); /* TRBSR_ELx.IRQ = 1, CTI trigger 9 on 0 -> 1 */
/* ReportTRBEManagementEvent: IRQ = 1; if S was 0, S = 1, EC, MSS (RHLKSG). */
void trbe_other_event(pmt_pe *pe, unsigned bsc);
/* DebugWriteFault (RFSPBK): the syndrome of a fault on a write at va. */
void trbe_report_fault(pmt_pe *pe, uint64_t va, const pmt_trbe_fault *fault);
/* DebugWriteExternalAbort when reported to the Trace Buffer Unit (D6.5.5.4). */
void trbe_report_external_abort(pmt_pe *pe, bool async, unsigned stage, unsigned fsc, bool set_ptr,
                                uint64_t va);
void trbe_trigger_event(pmt_pe *pe); /* a Trigger Event (RXRRWP, RLMQHK, RMWWHM) */
void trbe_request_flush(pmt_pe *pe, unsigned reason);
void trbe_wrap(pmt_pe *pe); /* the current write pointer wrapped to the Base pointer */
void trbe_event(pmt_pe *pe, uint16_t event); /* TRB_WRAP, TRB_TRIG into the PMU and out */
void trbe_cti(pmt_pe *pe, unsigned trigger);

/* trbe_fault.c: why a fault description from translate is refused, or NULL (pmt_trbe.h). */
const char *trbe_fault_refused(const pmt_trbe_fault *fault, const pmt_trbe_regime *regime);

/* trbe_errata.c: the silicon errata options. After a write that wrapped the write pointer, with
 * the n bytes of the same trace that follow. */
void trbe_errata_after_wrap(pmt_pe *pe, const uint8_t *rest, size_t n,
                            const pmt_trbe_regime *regime);
/* erratum_ctxt_sync_after_enable: a System register write set TRBLIMITR_EL1.E (the view of the
 * prohibited regions is kept); the kept view is in use now (logged once per enabling write
 * where it differs from the architecture's). pe_internal.h has the Context synchronization
 * event. */
void trbe_errata_enabled(pmt_pe *pe);
void trbe_errata_stale_view_used(pmt_pe *pe);

/* trbe_write.c: the write path. */
void trbe_drain(pmt_pe *pe); /* writes the bytes accepted and not yet written */
/* The same, also after collection stopped (the Manual Stop event comes first, RWMPMV). */
void trbe_write_accepted(pmt_pe *pe, bool even_if_stopped);

#endif
