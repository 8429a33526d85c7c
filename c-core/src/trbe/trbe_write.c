/*
 * trbe_write.c - the write path: trace bytes from the trace unit are collected into
 * TRBIDR_EL1.Align-sized units and written at the current write pointer through the memory
 * port, which translates in the owning translation regime and writes (D6.1, D6.3, D6.5).
 *
 * The architecture describes a simple sequential model that handles one byte at a time
 * (CollectTrace); the model is as if it did (IBTSCF, IVKQBR) but works on runs: the bytes up to
 * the end of a 4 KiB page, the last complete unit of the input, or the unit in which the
 * Trigger Counter reaches zero, cost one translation and one write. A translation holds for a
 * whole 4 KiB page (the smallest translation granule) and is asked for once per page and call.
 * The writes are privileged writes in the owning translation regime (RJTVDD); they never
 * generate watchpoints (RFYBCG) nor Data Abort exceptions (IDTKGB): faults and External aborts
 * only reach TRBSR_ELx and TRBPTR_EL1, or an SError.
 */
#include "trbe_internal.h"

#define PAGE_SIZE_ UINT64_C(4096)

struct xlate {
    pmt_trbe_regime regime;
    bool valid;
    uint64_t page;    /* va >> 12 of the cached translation */
    uint64_t pa_base; /* pa of the first byte of that page */
    pmt_security pas;
};

/* RMSPSD: the current write pointer is out-of-range. */
static bool out_of_range(const pmt_pe *pe, uint64_t ptr)
{
    uint64_t base = trbe_base(pe), limit = trbe_limit(pe);
    return ptr < base || ptr >= limit || (ptr >> 56) != (base >> 56) ||
           (ptr >> 56) != (limit >> 56);
}

/* What the unit does before writing at ptr when software programmed it badly (RMGZWR, a
 * CONSTRAINED UNPREDICTABLE choice, docs/choices.md): an out-of-range pointer raises a
 * management event, EC 0x00 BSC 0b000000 (with FEAT_TRBE_EXC an "access not allowed" event,
 * without it an event for an UNKNOWN reason), and writes nothing; a misaligned pointer software
 * wrote that is not a restart value takes an Alignment fault. */
static bool pointer_ok(pmt_pe *pe, uint64_t ptr)
{
    if (out_of_range(pe, ptr)) {
        pe_log(pe,
               "TRBE: TRBPTR_EL1 = 0x%llx is out-of-range for TRBBASER_EL1 = 0x%llx, "
               "TRBLIMITR_EL1.LIMIT = 0x%llx (RMSPSD): nothing is written, management event "
               "EC 0x00 BSC 0x00 (RMGZWR)",
               (unsigned long long)ptr, (unsigned long long)trbe_base(pe),
               (unsigned long long)trbe_limit(pe));
        trbe_other_event(pe, PMT_TRBSR_BSC_NOT_STOPPED);
        return false;
    }
    if (pe->st.trbe.ptr_unpredictable) {
        pe_log(pe,
               "TRBE: TRBPTR_EL1 = 0x%llx is misaligned and not a restart value (RXXZHM): "
               "Alignment fault (RMGZWR)",
               (unsigned long long)ptr);
        pmt_trbe_fault f = {PMT_TRBE_FAULT_ALIGNMENT, 1, 0, false, false, false, false};
        trbe_report_fault(pe, ptr, &f);
        return false;
    }
    return true;
}

/* An External abort on a write, or on a walk that is not reported as a fault (RGQWBF): ignored
 * (IFBNFC), an SError with TRBSR_ELx unchanged (RVKWPM), or reported to the Trace Buffer Unit,
 * synchronously or asynchronously as configured (RNZTKV; what is recorded: RXRLSC, ITVKJR).
 * returns true when the unit carries on as if the bytes were written. `done` bytes of a data
 * write completed before the abort. */
static bool external_abort(pmt_pe *pe, bool async, bool walk, const pmt_trbe_fault *walk_fault,
                           uint64_t va, size_t done)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    switch (c->ext_abort) {
    case PMT_TRBE_EA_IGNORE: return true; /* D6.5.5.1: as if no abort */
    case PMT_TRBE_EA_SERROR:
    serror: /* D6.5.5.2: the PE takes an SError; TRBSR_ELx is not modified */
        if (pe->trbe_cb.serror)
            pe->trbe_cb.serror(pe->trbe_cb.user);
        return true;
    case PMT_TRBE_EA_REPORT_ASYNC:
        if (async && !walk)
            goto serror; /* an asynchronous abort from memory is an SError */
        pe->st.trbe.async_abort = true;
        pe->st.trbe.async_abort_stage = walk ? walk_fault->stage : 1;
        return true;
    default: { /* PMT_TRBE_EA_REPORT_SYNC */
        if (async && !walk)
            goto serror;
        unsigned stage = walk ? walk_fault->stage : 1;
        unsigned fsc = TRBE_FSC_SYNC_EXTERNAL;
        if (walk) {
            int level = walk_fault->level;
            fsc = level == -1 ? 0x13u : level == -2 ? 0x12u : 0x14u | ((unsigned)level & 3u);
        }
        trbe_report_external_abort(pe, false, stage, fsc, true, va + done);
        return false;
    }
    }
}

static void identity(pmt_pe *pe, uint64_t va, const pmt_trbe_regime *r, pmt_trbe_translation *o)
{
    (void)pe;
    (void)r;
    o->pa = va;
}

/* The translation of the page containing va, or a fault handled as the architecture says.
 * Returns 1 to write to *pa, 0 when collection stopped, -1 to skip the write and carry on (an
 * External abort on a walk that is ignored, an SError or reported later). */
static int translate(pmt_pe *pe, uint64_t va, struct xlate *xl, uint64_t *pa, pmt_security *pas)
{
    if (xl->valid && (va >> 12) == xl->page) {
        *pa = xl->pa_base + (va & (PAGE_SIZE_ - 1));
        *pas = xl->pas;
        return 1;
    }
    const pmt_trbe_config *c = &pe->cfg.trbe;
    pmt_trbe_translation out;
    memset(&out, 0, sizeof out);
    uint64_t page_va = va & ~(PAGE_SIZE_ - 1);
    out.pas = xl->regime.ss;
    if (xl->regime.external) {
        page_va &= (UINT64_C(1) << 56) - 1; /* the pointer is a PA, address<55:0> */
    } else if (xl->regime.nvm && (va >> c->pa_bits) != 0) {
        /* RMXRFD, RBRRRK (the fault is the CONSTRAINED UNPREDICTABLE choice above OAMax). */
        out.fault.kind = PMT_TRBE_FAULT_ADDRESS_SIZE;
        out.fault.stage = 1;
        out.fault.level = 0;
    }
    if (out.fault.kind == PMT_TRBE_FAULT_NONE) {
        out.pa = page_va;
        if (pe->trbe_cb.translate)
            pe->trbe_cb.translate(pe->trbe_cb.user, page_va, &xl->regime, &out);
        else
            identity(pe, page_va, &xl->regime, &out);
    }
    pmt_trbe_fault *f = &out.fault;
    const char *why = trbe_fault_refused(f, &xl->regime);
    if (why) {
        /* Refused (pmt_trbe.h): neither a fault nor a translation; the bytes are not written and
         * the unit carries on as after an ignored External abort (D6.5.5.1). */
        pe_log(pe,
               "TRBE: translate(0x%llx) gave a fault the model refuses (kind %d, stage %u, "
               "level %d): %s. Not written; TRBPTR_EL1 advances",
               (unsigned long long)page_va, (int)f->kind, f->stage, f->level, why);
        pe->trbe_refused = true;
        return -1;
    }
    if (f->kind != PMT_TRBE_FAULT_NONE) {
        if (f->kind == PMT_TRBE_FAULT_EXTERNAL_WALK && !c->walk_abort_as_fault)
            return external_abort(pe, false, true, f, va, 0) ? -1 : 0;
        trbe_report_fault(pe, va, f);
        return 0;
    }
    xl->valid = true;
    xl->page = va >> 12;
    xl->pa_base = out.pa & ~(PAGE_SIZE_ - 1);
    xl->pas = out.pas;
    *pa = xl->pa_base + (va & (PAGE_SIZE_ - 1));
    *pas = xl->pas;
    return 1;
}

/* After len bytes were written at TRBPTR_EL1: the Trigger Counter (RBQTGW, RDHLQG), then the
 * pointer and its wrap (RVHNTF), in the order of CollectTrace. That order is how simultaneous
 * synchronous events on one write are prioritized (RMKCHT): a Trigger Event completed at once is
 * recorded before the buffer full event of the same byte, which then finds S = 1. The Trigger
 * Event belongs to the trace operation whose byte brought the counter to zero (RXYPYF). */
static void advance(pmt_pe *pe, size_t len)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    unsigned el = trbe_default_el(pe);
    uint64_t trg = PMT_GET(TRBTRG, TRG, t->trg);
    if (SR(el, TRG) && trg) {
        trg = len >= trg ? 0 : trg - len;
        t->trg = trg;
        if (!trg)
            trbe_trigger_event(pe);
    }
    t->ptr += len;
    t->ptr_unpredictable = false;
    if (t->ptr >> 12 == pe->st.trbe.limitr >> 12)
        trbe_wrap(pe);
}

/* Writes len bytes at TRBPTR_EL1 (never across a 4 KiB page or an alignment unit boundary
 * that ends the buffer). Returns false when collection stopped. */
static bool write_block(pmt_pe *pe, const uint8_t *src, size_t len, struct xlate *xl)
{
    uint64_t va = pe->st.trbe.ptr;
    if (!pointer_ok(pe, va))
        return false;
    uint64_t pa;
    pmt_security pas;
    int tr = translate(pe, va, xl, &pa, &pas);
    if (tr == 0)
        return false;
    if (tr > 0 && pe->trbe_cb.write) {
        size_t done = len;
        pmt_trbe_write_result r = pe->trbe_cb.write(pe->trbe_cb.user, pa, pas, src, len, &done);
        if (r != PMT_TRBE_WRITE_OK) {
            if (done > len)
                done = len;
            bool async = r != PMT_TRBE_WRITE_ABORT_SYNC;
            bool report = pe->cfg.trbe.ext_abort == PMT_TRBE_EA_REPORT_SYNC && !async;
            if (report && done)
                advance(pe, done); /* the bytes before the abort were written */
            if (!external_abort(pe, async, false, NULL, pe->st.trbe.ptr - (report ? done : 0),
                                report ? done : 0))
                return false;
        }
    }
    advance(pe, len);
    return pe->trbe_running;
}

static void report_async_abort(pmt_pe *pe)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    if (!t->async_abort)
        return;
    t->async_abort = false;
    trbe_report_external_abort(pe, true, t->async_abort_stage, TRBE_FSC_ASYNC_EXTERNAL, false, 0);
}

/* RRRCNN: at EL3, SCR_EL3.{NSE, NS} should select the owning Security state when trace is
 * written (software executes TSB CSYNC before changing them). The model writes in the owning
 * translation regime (a CONSTRAINED UNPREDICTABLE choice) and says so. */
static void check_scr(pmt_pe *pe, const pmt_trbe_regime *r)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (r->external || s->el != 3 || !pe->cfg.have_el3)
        return;
    bool ns = r->ss == PMT_SS_NONSECURE || r->ss == PMT_SS_REALM;
    bool nse = r->ss == PMT_SS_REALM;
    if (s->scr_ns != ns || (pe->cfg.have_rme && s->scr_nse != nse))
        pe_log(pe, "TRBE: trace written at EL3 with SCR_EL3.{NSE, NS} not the owning Security "
                   "state (RRRCNN): written in the owning translation regime");
}

/* RCMYYF: in External mode TRBMAR_EL1.PAS must be an implemented physical address space whose
 * invasive debug the authentication interface allows. */
static bool external_pas_allowed(const pmt_pe *pe)
{
    unsigned pas = (unsigned)PMT_GET(TRBMAR, PAS, pe->st.trbe.mar);
    static const pmt_security ss[4] = {PMT_SS_SECURE, PMT_SS_NONSECURE, PMT_SS_ROOT, PMT_SS_REALM};
    if (pas == 0 && !pe->cfg.have_el3)
        return false;
    if (pas >= 2 && !pe->cfg.have_rme)
        return false;
    unsigned prohibited = pe->st.pe.ext_invasive_prohibited;
    return !(prohibited >> PMT_SS_NONSECURE & 1) && !(prohibited >> ss[pas] & 1);
}

pmt_status pmt_trbe_trace(pmt_pe *pe, const uint8_t *bytes, size_t n, size_t *accepted)
{
    if (accepted)
        *accepted = 0;
    if (!pe || (!bytes && n))
        return PMT_ERR_NULL;
    if (!pe->cfg.trbe.feat_trbe)
        return PMT_ERR_NOT_IMPLEMENTED;
    ete_unit_buffer_drain(pe); /* the trace unit's bytes came first */
    if (accepted)
        *accepted = n;
    pe->trbe_refused = false;
    /* Disabled: discarded (RHNTLG); enabled and stopped: discarded (RYMVZL). */
    if (!pe->trbe_running || n == 0)
        return PMT_OK;
    if (!trbe_self_hosted(pe) && !external_pas_allowed(pe)) {
        trbe_other_event(pe, PMT_TRBSR_BSC_NOT_STOPPED); /* access not allowed */
        return PMT_OK;
    }
    struct pmt_trbe_regs *t = &pe->st.trbe;
    struct xlate xl;
    memset(&xl, 0, sizeof xl);
    trbe_regime(pe, &xl.regime);
    check_scr(pe, &xl.regime);
    const uint64_t unit = trbe_unit(pe), mask = unit - 1;
    while (n && pe->trbe_running) {
        uint64_t off = (t->ptr + t->nbuf) & mask;
        if (t->nbuf || n < unit - off) {
            /* Fill the unit the next byte belongs to; write it when it is complete. */
            size_t take = n < unit - off ? n : (size_t)(unit - off);
            memcpy(t->buf + t->nbuf, bytes, take);
            t->nbuf += (uint32_t)take;
            bytes += take;
            n -= take;
            if (((t->ptr + t->nbuf) & mask) == 0) {
                size_t len = t->nbuf;
                t->nbuf = 0;
                pe->trbe_wrapped = false;
                write_block(pe, t->buf, len, &xl);
                if (pe->trbe_wrapped)
                    trbe_errata_after_wrap(pe, bytes, n, &xl.regime);
            }
            continue;
        }
        /* Whole units straight from the input: up to the end of the page, the last complete
         * unit, and the unit in which the Trigger Counter reaches zero. */
        uint64_t run = PAGE_SIZE_ - (t->ptr & (PAGE_SIZE_ - 1));
        uint64_t whole = ((off + n) & ~mask) - off;
        if (whole < run)
            run = whole;
        uint64_t trg = PMT_GET(TRBTRG, TRG, t->trg);
        if (trg && trg < run && SR(trbe_default_el(pe), TRG)) {
            uint64_t end = ((t->ptr + trg - 1) | mask) + 1 - t->ptr;
            if (end < run)
                run = end;
        }
        pe->trbe_wrapped = false;
        write_block(pe, bytes, (size_t)run, &xl);
        bytes += run;
        n -= (size_t)run;
        if (pe->trbe_wrapped)
            trbe_errata_after_wrap(pe, bytes, n, &xl.regime);
    }
    report_async_abort(pe);
    return pe->trbe_refused ? PMT_ERR_ARG : PMT_OK;
}

/* Writes the accepted bytes of a partly filled unit, completed with pad_byte when flush_pad is
 * set. Nothing is buffered unless the unit is running (trbe_update discards otherwise). */
void trbe_drain(pmt_pe *pe)
{
    trbe_write_accepted(pe, false);
}

void trbe_write_accepted(pmt_pe *pe, bool even_if_stopped)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    if (!t->nbuf || (!pe->trbe_running && !even_if_stopped))
        return;
    size_t len = t->nbuf;
    if (pe->cfg.trbe.flush_pad) {
        size_t end = (size_t)(trbe_unit(pe) - (t->ptr & (trbe_unit(pe) - 1)));
        memset(t->buf + len, pe->cfg.trbe.pad_byte, end - len);
        len = end;
    }
    t->nbuf = 0;
    struct xlate xl;
    memset(&xl, 0, sizeof xl);
    trbe_regime(pe, &xl.regime);
    check_scr(pe, &xl.regime);
    write_block(pe, t->buf, len, &xl);
    report_async_abort(pe);
}

/* TSB CSYNC (D6.6.1, RJQDJD): the trace operations accepted so far complete, so TRBPTR_EL1
 * and memory agree. */
pmt_status pmt_trbe_tsb_csync(pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (!pe->cfg.trbe.feat_trbe)
        return PMT_ERR_NOT_IMPLEMENTED;
    ete_unit_buffer_drain(pe); /* trace generated before the TSB CSYNC */
    pe->trbe_refused = false;
    trbe_drain(pe);
    pe->st.trbe.disable_undrained = false; /* erratum_drain_after_disable: drained */
    return pe->trbe_refused ? PMT_ERR_ARG : PMT_OK;
}

pmt_status pmt_trbe_get_status(const pmt_pe *pe, pmt_trbe_status *s)
{
    if (!pe || !s)
        return PMT_ERR_NULL;
    memset(s, 0, sizeof *s);
    if (!pe->cfg.trbe.feat_trbe)
        return PMT_ERR_NOT_IMPLEMENTED;
    s->enabled = pe->trbe_enabled;
    s->running = pe->trbe_running;
    s->self_hosted = trbe_self_hosted(pe);
    trbe_regime(pe, &s->owner);
    s->buffered = pe->st.trbe.nbuf;
    s->flush_pending = pe->st.trbe.flush != 0;
    s->headroom = UINT64_MAX;
    if (pe->trbe_running) {
        const struct pmt_trbe_regs *t = &pe->st.trbe;
        uint64_t ptr = t->ptr + t->nbuf;
        uint64_t room = ptr < trbe_limit(pe) ? trbe_limit(pe) - ptr - 1 : 0;
        uint64_t trg = PMT_GET(TRBTRG, TRG, t->trg);
        if (trg && SR(trbe_default_el(pe), TRG) && trg - 1 < room)
            room = trg - 1;
        s->headroom = room;
    }
    return PMT_OK;
}
