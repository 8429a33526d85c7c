/*
 * trbe_errata.c - silicon errata of real Trace Buffer Units as options (pmt_trbe_config
 * erratum_*), so that a driver's workaround can be exercised on the model. Each breaks the
 * architecture on purpose and only when its option is set; docs/choices.md "Errata" names them.
 * erratum_drain_after_disable lives with the register writes (trbe_regs.c).
 */
#include "trbe_internal.h"

/* The bytes an erratum writes outside the architecture's write path: translated as the unit
 * translates, written without any event; a translation that reports a fault drops them (the
 * errata descriptions say nothing of faults there). */
static void stray_write(pmt_pe *pe, uint64_t va, const uint8_t *bytes, size_t n,
                        const pmt_trbe_regime *regime)
{
    while (n) {
        size_t len = (size_t)(0x1000 - (va & 0xFFF));
        if (len > n)
            len = n;
        pmt_trbe_translation out;
        memset(&out, 0, sizeof out);
        out.pa = va & ~UINT64_C(0xFFF);
        out.pas = regime->ss;
        if (pe->trbe_cb.translate)
            pe->trbe_cb.translate(pe->trbe_cb.user, out.pa, regime, &out);
        if (out.fault.kind != PMT_TRBE_FAULT_NONE)
            return;
        if (pe->trbe_cb.write) {
            size_t done = len;
            uint64_t pa = (out.pa & ~UINT64_C(0xFFF)) | (va & 0xFFF);
            if (pe->trbe_cb.write(pe->trbe_cb.user, pa, out.pas, bytes, len, &done) !=
                PMT_TRBE_WRITE_OK)
                return;
        }
        va += len;
        bytes += len;
        n -= len;
    }
}

void trbe_errata_after_wrap(pmt_pe *pe, const uint8_t *rest, size_t n,
                            const pmt_trbe_regime *regime)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    pe->trbe_wrapped = false;
    if (!n)
        return;
    /* Write out of range (ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE): up to 64 bytes of the
     * trace that follows the wrap are also written from the Limit pointer on. */
    if (c->erratum_write_out_of_range) {
        size_t k = n < 64 ? n : 64;
        pe_log(pe,
               "TRBE: erratum_write_out_of_range: %zu bytes written at the Limit pointer 0x%llx, "
               "outside the buffer",
               k, (unsigned long long)trbe_limit(pe));
        stray_write(pe, trbe_limit(pe), rest, k, regime);
    }
    /* Overwrite in Fill mode (ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE): the unit does not stop
     * at once at the wrap; up to erratum_fill_overwrite_bytes more bytes are written from the
     * Base pointer on, and TRBPTR_EL1 is left after them. */
    if (c->erratum_fill_overwrite && trbe_fm(pe) == PMT_TRBLIMITR_FM_FILL &&
        PMT_GET(TRBSR, S, pe->st.trbe.sr[trbe_default_el(pe)])) {
        size_t k = n < c->erratum_fill_overwrite_bytes ? n : c->erratum_fill_overwrite_bytes;
        pe_log(pe,
               "TRBE: erratum_fill_overwrite: %zu bytes written from the Base pointer after the "
               "Fill mode wrap stopped collection",
               k);
        stray_write(pe, pe->st.trbe.ptr, rest, k, regime);
        pe->st.trbe.ptr += k;
    }
}

/* Context synchronization after enable (ARM64_WORKAROUND_2038923, Cortex-A510 erratum 2038923):
 * after TRBLIMITR_EL1.E is set, a single Context synchronization event before execution moves
 * between a trace prohibited and a trace allowed context leaves the PE with an inconsistent view
 * of whether trace is prohibited. Architecturally a Context synchronization event makes the
 * trace after it observe the System register writes before it (D6.6 RBFJKD, SYPWVJ: an ERET
 * into a region where trace is allowed). The model's erratum: the view at the enabling write
 * is kept (trace_allowed_seen) until the second pmt_pe_context_sync after it; the CPU reports
 * ISB there, and not the exception entry or return that is itself the change of context
 * (docs/choices.md "Errata"). */
void trbe_errata_enabled(pmt_pe *pe)
{
    pe->st.trbe.stale_view = trace_allowed_arch(pe);
    pe->st.trbe.ctxt_sync_due = 2;
    pe->st.trbe.stale_view_logged = false;
    ete_filter_changed(pe);
}

void trbe_errata_context_sync(pmt_pe *pe)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    if (t->ctxt_sync_due && --t->ctxt_sync_due == 0) {
        t->stale_view = t->stale_view_logged = false; /* not in use */
        ete_filter_changed(pe);                       /* the PE sees the prohibited regions again */
    }
}

void trbe_errata_stale_view_used(pmt_pe *pe)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    if (!t->ctxt_sync_due || t->stale_view_logged || pe->st.pe.debug ||
        t->stale_view == trace_allowed_arch(pe))
        return;
    t->stale_view_logged = true;
    pe_log(pe,
           "TRBE: erratum_ctxt_sync_after_enable (ARM64_WORKAROUND_2038923): trace is %s here "
           "although the architecture %s it: the PE's view of the prohibited regions is the one "
           "at the write that set TRBLIMITR_EL1.E until %u more Context synchronization "
           "event%s",
           t->stale_view ? "allowed" : "prohibited", t->stale_view ? "prohibits" : "allows",
           (unsigned)t->ctxt_sync_due, t->ctxt_sync_due == 1 ? "" : "s");
}

bool trbe_errata_state_valid(const pmt_pe *pe, const struct pmt_trbe_regs *t)
{
    if (!t->ctxt_sync_due)
        return !t->stale_view && !t->stale_view_logged;
    return t->ctxt_sync_due <= 2 && pe->cfg.trbe.erratum_ctxt_sync_after_enable;
}

bool pmt_trbe_trace_allowed(pmt_pe *pe)
{
    if (!pe)
        return false;
    trbe_errata_stale_view_used(pe);
    return trace_allowed_seen(pe);
}
