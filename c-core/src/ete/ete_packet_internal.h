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
/* Whether the context differs from the one last stated (or none was stated since the sync). */
bool ete_context_pending(const pmt_ete_pkt_encoder *e);
/* A Context packet for e->ctx (only the identifiers that changed, all of them after a sync). */
void ete_put_context(pmt_ete_pkt_encoder *e, ete_stage *s);
/* An address packet for `a` in its shortest form; with the context first when it is pending
 * (combined into one Address with Context packet when the address needs the long form). */
void ete_put_address(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t a);
/* The Timestamp packet; `cc` only when with_cc. */
void ete_put_timestamp(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t value, bool with_cc,
                       uint32_t cc);
/* Cycle Count format 1 with a known count (count - threshold). */
void ete_put_cycle_count(pmt_ete_pkt_encoder *e, ete_stage *s, uint32_t cycles);

/* Atom packing: the header byte of the densest packet for the oldest of `count` pending atoms
 * (bit i = atom i, 1 = E); returns how many atoms it holds. */
unsigned ete_atom_packet(uint32_t atoms, unsigned count, uint8_t *header);
/* Queues an atom, emitting the oldest packet when PMT_ETE_PKT_MAX_PENDING_ATOMS are pending. */
void ete_put_atom(pmt_ete_pkt_encoder *e, ete_stage *s, bool taken);
/* Emits every pending atom. */
void ete_flush_atoms(pmt_ete_pkt_encoder *e, ete_stage *s);

#endif
