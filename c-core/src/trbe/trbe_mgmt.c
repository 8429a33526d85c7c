/*
 * trbe_mgmt.c - trace buffer management events (D6.5): what each event writes into which
 * TRBSR_ELx, the Trigger Event and the trace unit flush, the wrap, and the outputs they drive:
 * TRBIRQ, the TRBE Profiling exception, the CTI trace buffer triggers, the TRB_WRAP and TRB_TRIG
 * events.
 */
#include "trbe_internal.h"

#include "pmtrace/pmt_events.h"

void trbe_cti(pmt_pe *pe, unsigned trigger)
{
    /* H5.4.9 to H5.4.11: the trace buffer triggers exist with FEAT_TRBE_EXT. */
    if (pe->cfg.trbe.feat_trbe_ext && pe->trbe_cb.cti_trigger)
        pe->trbe_cb.cti_trigger(pe->trbe_cb.user, trigger);
}

/* TRB_WRAP and TRB_TRIG (D14.3): counted by the PMU through its internal path (the platform
 * cannot deliver them with pmt_pmu_count) and given to the trace unit. */
void trbe_event(pmt_pe *pe, uint16_t event)
{
    if (event != PMT_EV_TRB_TRIG || pe->cfg.trbe.trb_trig_countable) {
        pmu_flush(pe);
        pmu_increment(pe, event, 1, -1);
    }
    ete_external_event(pe, event);
    if (pe->trbe_cb.event)
        pe->trbe_cb.event(pe->trbe_cb.user, event);
}

void trbe_set_irq(pmt_pe *pe, unsigned el)
{
    uint64_t *sr = &pe->st.trbe.sr[el];
    if (!PMT_GET(TRBSR, IRQ, *sr)) {
        *sr |= PMT_MASK(TRBSR, IRQ);
        trbe_cti(pe, PMT_CTI_TRBE_MANAGEMENT); /* H5.4.10: IRQ set from 0 */
    }
}

/* Collection stops because S was set in TRBSR_ELx by an event: the bytes not yet written are
 * lost (RYMVZL), the stopped trigger fires (H5.4.9). */
static void stopped_by_event(pmt_pe *pe)
{
    pe->st.trbe.nbuf = 0;
    trbe_cti(pe, PMT_CTI_TRBE_STOPPED);
}

/* Records an event: IRQ is always set (RHLKSG); S, EC, MSS, MSS2 only if S was 0. */
static void record(pmt_pe *pe, unsigned el, unsigned ec, uint64_t mss, uint64_t mss2)
{
    uint64_t *sr = &pe->st.trbe.sr[el];
    trbe_set_irq(pe, el);
    if (!PMT_GET(TRBSR, S, *sr)) {
        *sr &= ~(PMT_MASK(TRBSR, EC) | PMT_MASK(TRBSR, MSS) | PMT_MASK(TRBSR, MSS2));
        *sr |= PMT_MASK(TRBSR, S) | PMT_PUT(TRBSR, EC, ec) | PMT_PUT(TRBSR, MSS, mss) |
               PMT_PUT(TRBSR, MSS2, mss2);
        stopped_by_event(pe);
    }
}

/* ReportTRBEManagementEvent('000000', bsc): buffer full (RMBSHC), Trigger Event (RXRRWP),
 * Manual Stop (RWMPMV), access not allowed (RCMYYF). */
void trbe_other_event(pmt_pe *pe, unsigned bsc)
{
    record(pe, trbe_default_el(pe), PMT_TRBSR_EC_OTHER, bsc, 0);
    trbe_update(pe);
}

/* EncodeLDFSC for the faults a translation reports. */
static unsigned encode_fsc(const pmt_trbe_fault *f)
{
    int level = f->level;
    unsigned l = (unsigned)(level < 0 ? 0 : level) & 3u;
    switch (f->kind) {
    case PMT_TRBE_FAULT_ADDRESS_SIZE: return level == -1 ? 0x29u : level == -2 ? 0x2Cu : 0x00u | l;
    case PMT_TRBE_FAULT_TRANSLATION: return level == -1 ? 0x2Bu : level == -2 ? 0x2Au : 0x04u | l;
    case PMT_TRBE_FAULT_ACCESS_FLAG: return 0x08u | l;
    case PMT_TRBE_FAULT_PERMISSION: return 0x0Cu | l;
    case PMT_TRBE_FAULT_ALIGNMENT: return TRBE_FSC_ALIGNMENT;
    case PMT_TRBE_FAULT_TLB_CONFLICT: return 0x30u;
    case PMT_TRBE_FAULT_UNSUPPORTED_ATOMIC: return 0x31u;
    case PMT_TRBE_FAULT_EXTERNAL_WALK: return level == -1 ? 0x13u : level == -2 ? 0x12u : 0x14u | l;
    case PMT_TRBE_FAULT_GPF_WALK: return level == -1 ? 0x23u : level == -2 ? 0x22u : 0x24u | l;
    case PMT_TRBE_FAULT_GPF: return 0x28u;
    default: return 0;
    }
}

/* DebugWriteFault (RFSPBK, RLYHGV for TopLevel, RYCPZX for AssuredOnly): EC 0x1E for a GPC fault
 * other than a GPF, else 0x24 or 0x25 by stage; FSC from the fault (none for 0x1E); MSS2 the
 * Permission fault flags; TRBPTR_EL1 the faulting address; collection stops. */
void trbe_report_fault(pmt_pe *pe, uint64_t va, const pmt_trbe_fault *f)
{
    unsigned ec, fsc = 0;
    uint64_t mss2 = 0;
    if (f->kind == PMT_TRBE_FAULT_GPC) {
        ec = PMT_TRBSR_EC_GPC;
    } else {
        /* A GPF other than on a walk is a stage 1 Data Abort (RFSPBK). */
        bool s2 = f->stage == 2 && f->kind != PMT_TRBE_FAULT_GPF;
        ec = s2 ? PMT_TRBSR_EC_STAGE2_ABORT : PMT_TRBSR_EC_STAGE1_ABORT;
        fsc = encode_fsc(f);
        /* TopLevel and AssuredOnly are stage 2 Permission fault information (RLYHGV, RYCPZX;
         * RES0 otherwise, D24.4.7). */
        if (f->kind == PMT_TRBE_FAULT_PERMISSION)
            mss2 = (uint64_t)(s2 && f->toplevel) << 8 | (uint64_t)(s2 && f->assuredonly) << 7 |
                   (uint64_t)f->overlay << 6 | (uint64_t)f->dirtybit << 5;
    }
    unsigned el = trbe_report_el(pe, ec, fsc);
    uint64_t *sr = &pe->st.trbe.sr[el];
    if (f->kind == PMT_TRBE_FAULT_EXTERNAL_WALK && pe->cfg.trbe.walk_abort_sets_ea)
        *sr |= PMT_MASK(TRBSR, EA); /* RFSPBK: IMPLEMENTATION DEFINED */
    if (!PMT_GET(TRBSR, S, *sr)) {
        record(pe, el, ec, fsc, mss2);
        pe->st.trbe.ptr = va; /* IGVGPB: TRBPTR_EL1 serves as a Fault Address Register */
        pe->st.trbe.ptr_unpredictable = false;
    }
    trbe_update(pe);
}

/* DebugWriteExternalAbort when the abort is reported to the Trace Buffer Unit (D6.5.5.4, RXRLSC):
 * EA is set; if S was 0, the event with EC by stage and the FSC of the abort (0b010001 when handled
 * asynchronously). Always TRBSR_EL1 (FEAT_TRBE_EXC does not allow this handling). */
void trbe_report_external_abort(pmt_pe *pe, bool async, unsigned stage, unsigned fsc, bool set_ptr,
                                uint64_t va)
{
    uint64_t *sr = &pe->st.trbe.sr[1];
    *sr |= PMT_MASK(TRBSR, EA);
    if (!PMT_GET(TRBSR, S, *sr)) {
        unsigned ec = stage == 2 ? PMT_TRBSR_EC_STAGE2_ABORT : PMT_TRBSR_EC_STAGE1_ABORT;
        record(pe, 1, ec, async ? TRBE_FSC_ASYNC_EXTERNAL : fsc, 0);
        if (set_ptr) {
            pe->st.trbe.ptr = va;
            pe->st.trbe.ptr_unpredictable = false;
        }
    }
    trbe_update(pe);
}

/* TraceUnitFlushOnTriggerComplete. Stop on trigger: the accepted bytes are written, then the
 * event with BSC Trigger Event (RXRRWP). IRQ on trigger: IRQ is set, S unchanged (the rule after
 * IVPLRF, whose identifier the seed prints apart from it: RMLZZW). The flush completes after
 * the data of the trace operation that generated the Detected Trigger (RRWJNN, IMCGFL): the
 * trace unit delivers it before pmt_trbe_flush_complete. */
static void trigger_flush_complete(pmt_pe *pe)
{
    switch (trbe_tm(pe)) {
    case PMT_TRBLIMITR_TM_STOP:
        trbe_drain(pe);
        trbe_other_event(pe, PMT_TRBSR_BSC_TRIGGER);
        break;
    case PMT_TRBLIMITR_TM_IRQ:
        trbe_set_irq(pe, trbe_default_el(pe));
        trbe_update(pe);
        break;
    default: break;
    }
}

/* TRBCRManStopWrite on completion of the flush (RWMPMV): the event with BSC Manual Stop, even
 * when collection was already stopped (IYBKZD); after it, the accepted bytes are written (with
 * padding when configured). */
static void manstop_flush_complete(pmt_pe *pe)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    uint32_t accepted = pe->trbe_running ? t->nbuf : 0;
    t->nbuf = 0; /* kept through the event, which stops collection */
    trbe_other_event(pe, PMT_TRBSR_BSC_MANUAL_STOP);
    t->nbuf = accepted;
    trbe_write_accepted(pe, true);
    trbe_update(pe);
}

static void flush_complete(pmt_pe *pe)
{
    unsigned reasons = pe->st.trbe.flush;
    pe->st.trbe.flush = 0;
    if (reasons & TRBE_FLUSH_TRIGGER)
        trigger_flush_complete(pe);
    if (reasons & TRBE_FLUSH_MANSTOP)
        manstop_flush_complete(pe);
}

/* Initiates a trace unit flush. Without a flush_request callback the flush completes at once;
 * a completion reported from inside the callback is handled when the callback returns. */
void trbe_request_flush(pmt_pe *pe, unsigned reason)
{
    pe->st.trbe.flush |= (uint8_t)reason;
    if (pe->cfg.ete.feat_ete) {
        /* The trace unit of this PE is the model's own (ete_trace.c). */
        ete_flush_request(pe);
        return;
    }
    if (!pe->trbe_cb.flush_request) {
        flush_complete(pe);
        return;
    }
    if (pe->trbe_in_flush_request)
        return;
    pe->trbe_in_flush_request = true;
    pe->trbe_cb.flush_request(pe->trbe_cb.user);
    pe->trbe_in_flush_request = false;
    if (pe->trbe_flush_deferred) {
        pe->trbe_flush_deferred = false;
        flush_complete(pe);
    }
}

/* A Trigger Event (RDHLQG). TRB_TRIG is always generated (RXRRWP, RLMQHK, RMWWHM); in Stop on
 * trigger and IRQ on trigger modes, when collection is not stopped, the unit initiates a trace
 * unit flush and acts when it completes (RXRRWP). With Ignore trigger or collection stopped
 * TRBSR_ELx is unchanged (RLMQHK, RMWWHM). */
void trbe_trigger_event(pmt_pe *pe)
{
    trbe_event(pe, PMT_EV_TRB_TRIG);
    if (trbe_tm(pe) == PMT_TRBLIMITR_TM_IGNORE || !trbe_running(pe))
        return;
    trbe_request_flush(pe, TRBE_FLUSH_TRIGGER);
}

/* The current write pointer wrapped to the Base pointer (RVHNTF): WRAP is set in the TRBSR_ELx
 * of the Other event column of Table D6-7, TRB_WRAP and the CTI wrap trigger are generated in
 * every mode (H5.4.11); Fill mode raises a buffer full event (RMBSHC), Wrap mode sets IRQ
 * (RVBDJZ), Circular Buffer mode nothing more (RGDSTS). */
void trbe_wrap(pmt_pe *pe)
{
    unsigned el = trbe_default_el(pe);
    pe->st.trbe.ptr = trbe_base(pe);
    pe->trbe_wrapped = true; /* for the errata options (trbe_errata.c) */
    pe->st.trbe.sr[el] |= PMT_MASK(TRBSR, WRAP);
    trbe_cti(pe, PMT_CTI_TRBE_WRAP);
    trbe_event(pe, PMT_EV_TRB_WRAP);
    switch (trbe_fm(pe)) {
    case PMT_TRBLIMITR_FM_FILL: trbe_other_event(pe, PMT_TRBSR_BSC_FULL); break;
    case PMT_TRBLIMITR_FM_WRAP:
        trbe_set_irq(pe, el);
        trbe_update(pe);
        break;
    default: break;
    }
}

/* Outputs and derived state, after any change. */
void trbe_update(pmt_pe *pe)
{
    ete_filter_changed(pe); /* TraceAllowed() reads the Trace Buffer Unit's owner and enable */
    if (!pe->cfg.trbe.feat_trbe)
        return;
    pe->trbe_enabled = trbe_enabled(pe);
    pe->trbe_running = trbe_running(pe);
    if (!pe->trbe_running && pe->st.trbe.nbuf) {
        pe_log(pe,
               "TRBE: %u accepted trace bytes discarded: the Trace Buffer Unit stopped running "
               "before a TSB CSYNC wrote them (ITRWFM)",
               (unsigned)pe->st.trbe.nbuf);
        pe->st.trbe.nbuf = 0;
    }
    /* TryAssertTRBIRQ (RVSCDV, RLRTBP): a level, one per PE (RTPPCF: a PPI of this PE). */
    bool irq = trbe_irq_enabled(pe) && SR(1, IRQ);
    if (irq != pe->trbe_irq_level) {
        pe->trbe_irq_level = irq;
        if (pe->trbe_cb.trbirq)
            pe->trbe_cb.trbirq(pe->trbe_cb.user, irq);
    }
    /* CheckForTRBEException (RMFMXQ, IMTLSX): reported at once, so that the CPU takes it before
     * the next instruction completes (RYXTTY). */
    unsigned el;
    bool take = trbe_exception_to_take(pe, &el);
    if (take != pe->trbe_exc_take || el != pe->trbe_exc_el) {
        pe->trbe_exc_take = take;
        pe->trbe_exc_el = (uint8_t)el;
        if (pe->trbe_cb.exception)
            pe->trbe_cb.exception(pe->trbe_cb.user, take, el);
    }
}

pmt_status pmt_trbe_set_callbacks(pmt_pe *pe, const pmt_trbe_callbacks *callbacks)
{
    if (!pe)
        return PMT_ERR_NULL;
    ete_unit_buffer_drain(pe); /* through the callbacks they were generated for */
    if (callbacks)
        pe->trbe_cb = *callbacks;
    else
        memset(&pe->trbe_cb, 0, sizeof pe->trbe_cb);
    return PMT_OK;
}

static pmt_status check(const pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    return pe->cfg.trbe.feat_trbe ? PMT_OK : PMT_ERR_NOT_IMPLEMENTED;
}

/* DetectedTraceTrigger (RKSQJW, RDHLQG). While the unit is enabled, TRG is set in the
 * TRBSR_ELx of the Other event column; if it was 0 and the Trigger Counter is zero, a Trigger
 * Event. A nonzero counter counts down as bytes are written (RBQTGW); bytes already in a
 * partly filled unit count too when it is written (RQFGNQ, IQQKZF). No Trigger Event while
 * disabled (IZGFSK). The pseudocode acts only while running; the rules say "enabled", and
 * RMWWHM (a Trigger Event while collection is stopped) needs it: the model follows the rules
 * (docs/choices.md). */
pmt_status pmt_trbe_detected_trigger(pmt_pe *pe)
{
    pmt_status st = check(pe);
    if (st != PMT_OK)
        return st;
    ete_unit_buffer_drain(pe);
    if (!trbe_enabled(pe))
        return PMT_OK;
    unsigned el = trbe_default_el(pe);
    uint64_t *sr = &pe->st.trbe.sr[el];
    if (!PMT_GET(TRBSR, TRG, *sr)) {
        *sr |= PMT_MASK(TRBSR, TRG);
        if (PMT_GET(TRBTRG, TRG, pe->st.trbe.trg) == 0)
            trbe_trigger_event(pe);
    }
    trbe_update(pe);
    return PMT_OK;
}

pmt_status pmt_trbe_flush_complete(pmt_pe *pe)
{
    pmt_status st = check(pe);
    if (st != PMT_OK)
        return st;
    ete_unit_buffer_drain(pe);
    if (pe->trbe_in_flush_request) {
        pe->trbe_flush_deferred = true;
        return PMT_OK;
    }
    if (!pe->st.trbe.flush)
        return PMT_OK; /* nothing requested: a flush the trace unit did for itself */
    flush_complete(pe);
    return PMT_OK;
}

pmt_status pmt_trbe_external_abort(pmt_pe *pe, unsigned stage)
{
    pmt_status st = check(pe);
    if (st != PMT_OK)
        return st;
    if (stage != 1 && stage != 2)
        return PMT_ERR_ARG;
    if (pe->cfg.trbe.ext_abort != PMT_TRBE_EA_REPORT_ASYNC) {
        pe_log(pe, "pmt_trbe_external_abort: External aborts are not reported to the Trace Buffer "
                   "Unit asynchronously in this configuration (RGQWBF)");
        return PMT_ERR_NOT_IMPLEMENTED;
    }
    ete_unit_buffer_drain(pe);
    trbe_report_external_abort(pe, true, stage, TRBE_FSC_ASYNC_EXTERNAL, false, 0);
    return PMT_OK;
}

/* RCHNSL: IRQ = 1, S = 1, EC 0x1F, MSS and MSS2 IMPLEMENTATION DEFINED, recorded as an Other
 * event (Table D6-7). As an IMPLEMENTATION DEFINED event it is not prioritized against
 * synchronous events (RGTMJD): it takes effect where it is raised. */
pmt_status pmt_trbe_impdef_event(pmt_pe *pe, uint16_t mss, uint32_t mss2)
{
    pmt_status st = check(pe);
    if (st != PMT_OK)
        return st;
    if (!pe->cfg.trbe.impdef_events)
        return PMT_ERR_NOT_IMPLEMENTED;
    if (mss2 > 0xFFFFFFu)
        return PMT_ERR_ARG;
    ete_unit_buffer_drain(pe);
    record(pe, trbe_default_el(pe), PMT_TRBSR_EC_IMPDEF, mss, mss2);
    trbe_update(pe);
    return PMT_OK;
}

bool pmt_trbe_irq_level(const pmt_pe *pe)
{
    return pe && pe->trbe_irq_level;
}
