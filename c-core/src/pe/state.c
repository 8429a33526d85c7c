/*
 * state.c - the saved state: its description, pmt_pe_save and pmt_pe_restore.
 *
 * struct pmt_pe_arch (pe_internal.h) is described field by field below (fields.h), with the
 * values each field may hold. The description is the only way between the state and a blob:
 *   - pmt_pe_save writes a header (magic, size) and then each field's bytes in the order of the
 *     description, so a blob has no padding and every byte of it is a byte of one field; the
 *     bytes of a buffer past those in use are written as 0;
 *   - pmt_pe_restore builds the state from zero, field by field, and refuses a blob in which a
 *     field holds a value outside its range (a bool other than 0 or 1, an enum that names
 *     nothing, a count larger than its buffer, a byte of a buffer past those in use other than
 *     0), then one that no model of this configuration can be in (restored_state_error: the
 *     rules that tie fields to each other and to the configuration).
 * A field the description does not name is never read from a blob (and a new one is not saved
 * until it is described): tests/core/test_state_fields.cpp checks that every byte of struct
 * pmt_pe_arch that is not padding belongs to a field described here.
 */
#include "../debug/pcs_internal.h"
#include "../ete/ete_internal.h"
#include "fields.h"

#include <inttypes.h>
#include <string.h>

/* "PMT7": the layout of a blob (this description); the number goes up when it changes. */
#define PMT_STATE_MAGIC    0x504D5437u
#define STATE_HEADER_BYTES 8u /* magic, size: uint32_t each */
#define S                  struct pmt_pe_arch
#define F(m)               PE_FIELD(S, m)
#define R(m, lo, hi)       PE_FIELD_RANGE(S, m, lo, hi)
#define A(m)               PE_ARRAY(S, m)
#define AR(m, lo, hi)      PE_ARRAY_RANGE(S, m, lo, hi)
#define USED(m, count)     PE_BYTES_USED(S, m, count)
/* Bitmaps of counter ids (PMCNTENSET, PMOVSSET, PMINTENSET, PMUACR): bits 0..32. */
#define COUNTER_IDS        ((UINT64_C(1) << PMT_NUM_COUNTER_IDS) - 1)

/* clang-format off */
static const struct pe_field state_fields[] = {
    /* The PE state (pmt_pe_state); pmt_pe_set_state's rules in restored_state_error. */
    R(pe.el, 0, 3), R(pe.ss, 0, PMT_SS_ROOT),
    F(pe.debug), F(pe.el2_enabled), F(pe.hcr_tge), F(pe.hcr_e2h), F(pe.pm), F(pe.streaming),
    F(pe.os_lock), F(pe.double_lock), F(pe.powered_down), F(pe.noninvasive_debug_prohibited),
    F(pe.edscr_sc2), F(pe.scr_ns), F(pe.scr_nse), F(pe.scr_eel2), F(pe.scr_ea), F(pe.scr_gpf),
    F(pe.hcr_tea), F(pe.hcr_gpf), F(pe.self_hosted_trace_disabled),
    R(pe.aarch32_els, 0, 0xF), F(pe.ext_invasive_prohibited),
    F(pe.cpacr_tta), F(pe.cptr_el2_tta), F(pe.cptr_el3_tta),
    F(mdcr_el2), F(mdcr_el3),
    /* The PMU. */
    F(pmu.pmcr), R(pmu.cnten, 0, COUNTER_IDS), R(pmu.ovs, 0, COUNTER_IDS),
    R(pmu.inten, 0, COUNTER_IDS), A(pmu.cnt), A(pmu.typer),
    F(pmu.selr), F(pmu.userenr), R(pmu.uacr, 0, COUNTER_IDS), F(pmu.pmccr), F(pmu.pmecr),
    F(pmu.pmiar), F(pmu.ppend), F(pmu.pmsscr), A(pmu.svr),
    R(pmu.ccnt_prescale, 0, 63), /* cycles towards the next increment of PMCCNTR / 64 */
    F(pmu.spe_e), F(pmu.spe_pmfz), F(pmu.spe_s), F(pmu.locked),
    /* PC sampling (the sample as pmt_pe_pc_sample takes it: restored_state_error). */
    F(pcs.sample.pc), R(pcs.sample.el, 0, 3), R(pcs.sample.ss, 0, PMT_SS_ROOT),
    F(pcs.sample.aarch32), F(pcs.sample.contextidr_el1), F(pcs.sample.contextidr_el2),
    F(pcs.sample.el2_enabled), F(pcs.sample.el2_aarch32), F(pcs.sample.vttbr_vmid),
    F(pcs.sample.vtcr_vs), F(pcs.sample.in_host), F(pcs.valid),
    F(pcs.pmpcsr), F(pcs.cid1), F(pcs.cid2), F(pcs.vmid), F(pcs.pmpcsctl),
    F(pcs.edpcsrhi), F(pcs.edcidsr), F(pcs.edvidsr), F(pcs.ed_locked),
    /* The Trace Buffer Unit. */
    F(trbe.limitr), F(trbe.ptr), F(trbe.baser), F(trbe.trg), F(trbe.mar), A(trbe.sr),
    F(trbe.trfcr_el1), F(trbe.trfcr_el2), F(trbe.itctrl),
    R(trbe.nbuf, 0, PMT_TRBE_MAX_UNIT),
    R(trbe.flush, 0, TRBE_FLUSH_TRIGGER | TRBE_FLUSH_MANSTOP),
    F(trbe.ptr_unpredictable), F(trbe.async_abort), F(trbe.disable_undrained),
    F(trbe.stale_view), R(trbe.ctxt_sync_due, 0, 2), F(trbe.stale_view_logged),
    R(trbe.async_abort_stage, 0, 2), USED(trbe.buf, trbe.nbuf),
    /* The trace unit's registers. */
    F(ete.prgctlr), F(ete.configr), F(ete.auxctlr), F(ete.eventctl0r), F(ete.eventctl1r),
    F(ete.tsctlr), F(ete.syncpr), F(ete.ccctlr), F(ete.traceidr), F(ete.rsr), F(ete.bbctlr),
    A(ete.extinselr), F(ete.victlr), F(ete.viiectlr), F(ete.vissctlr), A(ete.cidcctlr),
    A(ete.vmidcctlr), F(ete.claim), A(ete.rsctlr), A(ete.acvr), A(ete.acatr), A(ete.cidcvr),
    A(ete.vmidcvr), AR(ete.cntrldvr, 0, 0xFFFF), A(ete.cntctlr),
    AR(ete.cntvr, 0, 0xFFFF), /* the counters: 16 bits */
    F(ete.contextidr_el1), F(ete.contextidr_el2), F(ete.enabled),
    /* The trace unit's trace generation, and its packet encoder (pmt_ete_pkt_encoder). */
    F(etr.enc.config.cci), F(etr.enc.config.cid), F(etr.enc.config.vmid), F(etr.enc.config.ts),
    F(etr.enc.config.rs), F(etr.enc.config.vmidopt), F(etr.enc.config.sync_period),
    R(etr.enc.config.cc_threshold, 0, 0xFFF), R(etr.enc.config.cc_size_bits, 0, 20),
    F(etr.enc.on), F(etr.enc.need_sync), F(etr.enc.ctx_valid), F(etr.enc.ts_valid),
    R(etr.enc.ctx.el, 0, 3), R(etr.enc.ctx.security, 0, PMT_ETE_REALM), F(etr.enc.ctx.aarch64),
    F(etr.enc.ctx.contextidr_el1), F(etr.enc.ctx.contextidr_el2), F(etr.enc.ctx.vmid),
    R(etr.enc.stated.el, 0, 3), R(etr.enc.stated.security, 0, PMT_ETE_REALM),
    F(etr.enc.stated.aarch64), F(etr.enc.stated.contextidr_el1),
    F(etr.enc.stated.contextidr_el2), F(etr.enc.stated.vmid),
    A(etr.enc.history), F(etr.enc.current), F(etr.enc.atoms),
    R(etr.enc.atom_count, 0, PMT_ETE_PKT_MAX_PENDING_ATOMS - 1),
    F(etr.enc.last_ts), F(etr.enc.emitted), F(etr.enc.last_sync), F(etr.enc.syncs),
    F(etr.expected), F(etr.address_due), F(etr.exc_return), F(etr.ts_syncs),
    R(etr.exc_type, 0, PMT_ETE_EXC_IMPDEF0 + 7), R(etr.pending_extin, 0, 0xF),
    F(etr.exc_pending), F(etr.exc_traced), F(etr.configured), F(etr.trigger_seen),
    F(etr.flush_requested), R(etr.buffered, 0, PMT_ETE_UNIT_BUFFER_MAX),
    USED(etr.buffer, etr.buffered), F(etr.cc_ref), F(etr.cc_commit), F(etr.cc_last),
    F(etr.exc_cycles), F(etr.cc_known),
    /* The OS Double Lock's registers (os_lock_state_error ties them to pe.double_lock). */
    F(oslock.dlk), F(oslock.corenpdrq),
};
/* clang-format on */

#define NUM_STATE_FIELDS (sizeof state_fields / sizeof state_fields[0])

const struct pe_field *pe_state_fields(size_t *n)
{
    *n = NUM_STATE_FIELDS;
    return state_fields;
}

static size_t blob_size(void)
{
    size_t n = STATE_HEADER_BYTES;
    for (size_t i = 0; i < NUM_STATE_FIELDS; i++)
        n += state_fields[i].size;
    return n;
}

size_t pmt_pe_state_size(const pmt_pe *pe)
{
    (void)pe;
    return blob_size();
}

pmt_status pmt_pe_save(pmt_pe *pe, void *buffer, size_t size)
{
    if (!pe || !buffer)
        return PMT_ERR_NULL;
    const size_t need = blob_size();
    if (size < need)
        return PMT_ERR_ARG;
    pmu_flush(pe);
    unsigned char *b = buffer;
    const uint32_t header[2] = {PMT_STATE_MAGIC, (uint32_t)need};
    memcpy(b, header, sizeof header);
    b += STATE_HEADER_BYTES;
    for (size_t i = 0; i < NUM_STATE_FIELDS; i++) {
        const struct pe_field *f = &state_fields[i];
        size_t used = f->size;
        if (f->count_size) {
            const struct pe_field count = {
                "", f->count_offset, f->count_size, (uint8_t)f->count_size, false, 0, 0, 0, 0};
            const uint64_t c = pe_field_get(&count, &pe->st, 0);
            used = c < used ? (size_t)c : used;
        }
        memcpy(b, (const unsigned char *)&pe->st + f->offset, used);
        memset(b + used, 0, f->size - used);
        b += f->size;
    }
    return PMT_OK;
}

/* Why a state whose every field is in range cannot be one of this model (of its configuration),
 * or NULL. The state is pe->st; pe->cfg is the configuration. */
static const char *restored_state_error(const pmt_pe *pe)
{
    const struct pmt_pe_arch *st = &pe->st;
    const char *why = pe_state_error(pe, &st->pe);
    if (why)
        return why;
    if ((why = pcs_sample_error(pe, &st->pcs.sample)))
        return why;
    if (st->pcs.sample.el2_enabled && !pe->cfg.have_el2)
        return "pcs.sample.el2_enabled is true without EL2";
    const struct pmt_trbe_regs *t = &st->trbe;
    if (!trbe_errata_state_valid(pe, t))
        return "the erratum state of the Trace Buffer Unit is one it cannot be in";
    if (t->disable_undrained && !pe->cfg.trbe.erratum_drain_after_disable)
        return "trbe.disable_undrained is set without erratum_drain_after_disable";
    if (t->async_abort && pe->cfg.trbe.ext_abort != PMT_TRBE_EA_REPORT_ASYNC)
        return "trbe.async_abort is set without PMT_TRBE_EA_REPORT_ASYNC";
    /* The bytes the unit holds fill part of one alignment unit, and only while it runs (it
     * discards them when it stops: trbe_update). */
    if (t->nbuf) {
        const uint64_t unit = UINT64_C(1) << pe->cfg.trbe.align;
        if ((t->ptr & (unit - 1)) + t->nbuf > unit)
            return "trbe.nbuf is more than the rest of the alignment unit at TRBPTR_EL1";
        if (!trbe_running(pe))
            return "trbe.nbuf is not 0 while the Trace Buffer Unit is not running";
    }
    /* The trace unit: the enable it last saw is its enable now (ete_update acts on a change). */
    if (st->ete.enabled != ete_enabled(pe))
        return "ete.enabled is not the trace unit's enable (TRCPRGCTLR.EN, the OS Lock)";
    if (st->etr.buffered > (pe->cfg.ete.feat_ete ? pe->cfg.ete.unit_buffer : 0u))
        return "etr.buffered is more than the trace unit buffer holds";
    if ((why = os_lock_state_error(pe)))
        return why;
    return ete_trace_state_error(pe);
}

pmt_status pmt_pe_restore(pmt_pe *pe, const void *buffer, size_t size)
{
    if (!pe || !buffer)
        return PMT_ERR_NULL;
    const size_t need = blob_size();
    if (size != need) {
        pe_log(pe, "pmt_pe_restore: state of %zu bytes, expected %zu", size, need);
        return PMT_ERR_STATE_BLOB;
    }
    const unsigned char *b = buffer;
    uint32_t header[2];
    memcpy(header, b, sizeof header);
    if (header[0] != PMT_STATE_MAGIC || header[1] != need) {
        pe_log(pe, "pmt_pe_restore: not a saved pmtrace state (magic 0x%08" PRIx32 ")", header[0]);
        return PMT_ERR_STATE_BLOB;
    }
    b += STATE_HEADER_BYTES;
    struct pmt_pe_arch st;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < NUM_STATE_FIELDS; i++) {
        const struct pe_field *f = &state_fields[i];
        memcpy((unsigned char *)&st + f->offset, b, f->size);
        b += f->size;
        char why[160];
        if (!pe_field_valid(f, &st, why, sizeof why)) {
            pe_log(pe, "pmt_pe_restore: not a state of this model: %s", why);
            return PMT_ERR_STATE_BLOB;
        }
    }
    /* The rules between fields read the state where the model keeps it: the candidate takes
     * its place, and the model's own goes back when it is refused. */
    pmu_flush(pe);
    const struct pmt_pe_arch old = pe->st;
    pe->st = st;
    const char *why = restored_state_error(pe);
    if (why) {
        pe->st = old;
        pe_log(pe, "pmt_pe_restore: not a state of this model: %s", why);
        return PMT_ERR_STATE_BLOB;
    }
    /* The bytes in the trace unit buffer are the saved state's (those of the state left are
     * discarded with it: a restore goes back, it does not go on). */
    pmu_update(pe);
    trbe_update(pe);
    ete_update(pe);
    return PMT_OK;
}
