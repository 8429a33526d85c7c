/*
 * ete_packet_internal.h - the packet builders behind pmt_ete_packet.h. A call stages its packets
 * in a scratch buffer on a copy of the encoder; only when all of them fit in the sink are the
 * bytes appended and the copy becomes the encoder (a call emits whole packets or nothing).
 */
#ifndef PMTRACE_ETE_PACKET_INTERNAL_H
#define PMTRACE_ETE_PACKET_INTERNAL_H

#include "pmtrace/pmt_ete_packet.h"

typedef struct ete_stage {
    uint8_t bytes[PMT_ETE_PKT_MAX_CALL_BYTES];
    size_t n;
} ete_stage;

/* One byte of a packet (the encoder counts it). */
void ete_put(pmt_ete_pkt_encoder *e, ete_stage *s, uint8_t byte);

/* A-Sync, then Trace Info (which clears the address history and asks for a full context and
 * timestamp next). */
void ete_put_sync(pmt_ete_pkt_encoder *e, ete_stage *s);

static inline uint32_t ete_traced_vmid(const pmt_ete_pkt_encoder *e, const pmt_ete_pkt_context *c)
{
    return e->config.vmidopt ? c->contextidr_el2 : c->vmid;
}

/* What the decoder knows of the context: the one last stated. */
static inline bool ete_vmid_changed(const pmt_ete_pkt_encoder *e)
{
    return e->config.vmid &&
           (!e->ctx_valid || ete_traced_vmid(e, &e->ctx) != ete_traced_vmid(e, &e->stated));
}

static inline bool ete_cid_changed(const pmt_ete_pkt_encoder *e)
{
    return e->config.cid && (!e->ctx_valid || e->ctx.contextidr_el1 != e->stated.contextidr_el1);
}

/* Whether the context differs from the one last stated (or none was stated since the sync). */
static inline bool ete_context_pending(const pmt_ete_pkt_encoder *e)
{
    return !e->ctx_valid || e->ctx.el != e->stated.el || e->ctx.security != e->stated.security ||
           e->ctx.aarch64 != e->stated.aarch64 || ete_vmid_changed(e) || ete_cid_changed(e);
}

/* The atom joins the pending ones and no packet can be due (each pending atom takes at most a
 * byte, so a periodic sync cannot be due before the period minus them): pmt_ete_pkt_atom's
 * common case without staging a copy (inline for the trace unit's held reports). */
static inline bool ete_atom_held(pmt_ete_pkt_encoder *e, bool taken, uint64_t next)
{
    const uint32_t period = e->config.sync_period;
    if (!e->on || e->atom_count + 1 >= PMT_ETE_PKT_MAX_PENDING_ATOMS || ete_context_pending(e) ||
        (period != 0 && e->emitted + e->atom_count + 1 - e->last_sync >= period))
        return false;
    if (taken)
        e->atoms |= 1u << e->atom_count;
    e->atom_count++;
    e->current = next;
    return true;
}
/* A Context packet for e->ctx (only the identifiers that changed, all of them after a sync). */
void ete_put_context(pmt_ete_pkt_encoder *e, ete_stage *s);
/* An address packet for `a` in its shortest form; with the context first when it is pending
 * (combined into one Address with Context packet when the address needs the long form). */
void ete_put_address(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t a);
/* The Timestamp packet; `cc` only when with_cc. */
void ete_put_timestamp(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t value, bool with_cc,
                       uint32_t cc);
/* Cycle Count format 1: a known count (COUNT = count - threshold), or PMT_ETE_PKT_CC_UNKNOWN (U).
 */
void ete_put_cycle_count(pmt_ete_pkt_encoder *e, ete_stage *s, uint32_t cycles);

/* Atom packing: the header byte of the densest packet for the oldest of `count` pending atoms
 * (bit i = atom i, 1 = E); returns how many atoms it holds. */
unsigned ete_atom_packet(uint32_t atoms, unsigned count, uint8_t *header);
/* Queues an atom, emitting the oldest packet when PMT_ETE_PKT_MAX_PENDING_ATOMS are pending. */
void ete_put_atom(pmt_ete_pkt_encoder *e, ete_stage *s, bool taken);
/* Emits every pending atom. */
void ete_flush_atoms(pmt_ete_pkt_encoder *e, ete_stage *s);

#endif
