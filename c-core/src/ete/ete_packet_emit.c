/*
 * ete_packet_emit.c - the bytes of each ETE packet the encoder emits (headers and payloads as
 * OpenCSD's ETE packet processor reads them; ETE shares these encodings with ETMv4).
 */
#include "ete_packet_internal.h"

enum {
    HDR_EXTENSION = 0x00,    /* A-Sync: 0x00 x11, 0x80 */
    HDR_TRACE_INFO = 0x01,   /* + PLCTL, then the INFO and CYCT sections */
    HDR_TIMESTAMP = 0x02,    /* | 1: a cycle count follows the timestamp */
    HDR_CONTEXT = 0x81,      /* + info byte [, VMID[31:0]][, CONTEXTID[31:0]] */
    HDR_ADDR_CTXT_32 = 0x82, /* Long Address with Context, 32-bit, IS0 */
    HDR_ADDR_CTXT_64 = 0x85, /* Long Address with Context, 64-bit, IS0 */
    HDR_ADDR_MATCH = 0x90,   /* | history index 0..2 */
    HDR_ADDR_SHORT = 0x95,   /* Short Address, IS0: A[8:2] [, A[16:9]] */
    HDR_ADDR_LONG_32 = 0x9A, /* Long Address, 32-bit, IS0: A[8:2], A[15:9], A[23:16], A[31:24] */
    HDR_ADDR_LONG_64 = 0x9D, /* Long Address, 64-bit, IS0: A[8:2], A[15:9], A[23:16] .. A[63:56] */
    HDR_CCNT_F1 = 0x0E,      /* Cycle Count format 1 (TRCIDR0.COMMOPT = 1: no commit field) */
    CCNT_F1_U = 0x01,        /* | U: the count is UNKNOWN, no COUNT field */
    ASYNC_ZEROS = 11,
    ASYNC_END = 0x80,
    PLCTL_INFO = 0x01,
    PLCTL_CYCT = 0x08,
    INFO_CC_ENABLED = 0x01,
    CTX_NSE = 1u << 3,
    CTX_SF = 1u << 4,
    CTX_NS = 1u << 5,
    CTX_V = 1u << 6,
    CTX_C = 1u << 7,
    CONT = 0x80 /* continuation bit of a multi-byte field */
};

void ete_put(pmt_ete_pkt_encoder *e, ete_stage *s, uint8_t byte)
{
    if (s->n < sizeof s->bytes)
        s->bytes[s->n++] = byte;
    e->emitted++;
}

/* A field of 7-bit groups, least significant first, each but the last with CONT set. */
static void put_cont_field(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t v)
{
    while (v >= 0x80) {
        ete_put(e, s, (uint8_t)(CONT | (v & 0x7F)));
        v >>= 7;
    }
    ete_put(e, s, (uint8_t)v);
}

void ete_put_sync(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    e->last_sync = e->emitted;
    e->syncs++;
    for (unsigned i = 0; i < ASYNC_ZEROS; i++)
        ete_put(e, s, HDR_EXTENSION);
    ete_put(e, s, ASYNC_END);

    /* Trace Info: PLCTL names the sections present. Without cycle counting every section would
     * be 0 (no conditional or load/store P0 trace, no speculation, no cycle count threshold), so
     * none is sent; with it, INFO says cycle counting is on and CYCT carries the threshold. */
    ete_put(e, s, HDR_TRACE_INFO);
    if (e->config.cci) {
        ete_put(e, s, PLCTL_INFO | PLCTL_CYCT);
        ete_put(e, s, INFO_CC_ENABLED);
        put_cont_field(e, s, e->config.cc_threshold);
    } else {
        ete_put(e, s, 0x00);
    }
    /* Trace Info resets the decoder's address history to zeros and starts a new view of the
     * context and the timestamp. */
    for (unsigned i = 0; i < 3; i++)
        e->history[i] = 0;
    e->ctx_valid = false;
    e->ts_valid = false;
}

static void put_u32(pmt_ete_pkt_encoder *e, ete_stage *s, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        ete_put(e, s, (uint8_t)(v >> (8 * i)));
}

/* The info byte and payload shared by Context and Address with Context. */
static void put_context_payload(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    const pmt_ete_pkt_context *c = &e->ctx;
    const bool v = ete_vmid_changed(e), cid = ete_cid_changed(e);
    uint8_t info = (uint8_t)(c->el & 0x3u);
    /* {NSE, NS}: Secure 00, Non-secure 01, Root 10, Realm 11 (FEAT_RME). */
    if (c->security == PMT_ETE_NON_SECURE || c->security == PMT_ETE_REALM)
        info |= CTX_NS;
    if (c->security == PMT_ETE_ROOT || c->security == PMT_ETE_REALM)
        info |= CTX_NSE;
    if (c->aarch64)
        info |= CTX_SF;
    if (v)
        info |= CTX_V;
    if (cid)
        info |= CTX_C;
    ete_put(e, s, info);
    if (v)
        put_u32(e, s, ete_traced_vmid(e, c));
    if (cid)
        put_u32(e, s, c->contextidr_el1);
    e->stated = *c;
    e->ctx_valid = true;
}

void ete_put_context(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    ete_put(e, s, HDR_CONTEXT);
    put_context_payload(e, s);
}

static void push_history(pmt_ete_pkt_encoder *e, uint64_t a)
{
    e->history[2] = e->history[1];
    e->history[1] = e->history[0];
    e->history[0] = a;
}

/* The long forms: A[8:2], A[15:9], then A[23:16] up to A[31:24] (32-bit) or A[63:56]. */
static void put_long_address_bytes(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t a, bool wide)
{
    ete_put(e, s, (uint8_t)((a >> 2) & 0x7F));
    ete_put(e, s, (uint8_t)((a >> 9) & 0x7F));
    for (unsigned shift = 16; shift < (wide ? 64u : 32u); shift += 8)
        ete_put(e, s, (uint8_t)(a >> shift));
}

void ete_put_address(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t a)
{
    int match = -1;
    for (int i = 0; i < 3 && match < 0; i++)
        if (e->history[i] == a)
            match = i;
    const uint64_t diff = a ^ e->history[0];
    const bool short_form = match >= 0 || (diff >> 17) == 0;
    /* The 32-bit long form keeps A[63:32] of the newest history entry. */
    const bool wide = (diff >> 32) != 0;
    if (ete_context_pending(e)) {
        if (!short_form) {
            ete_put(e, s, wide ? HDR_ADDR_CTXT_64 : HDR_ADDR_CTXT_32);
            put_long_address_bytes(e, s, a, wide);
            put_context_payload(e, s);
            push_history(e, a);
            return;
        }
        ete_put_context(e, s);
    }
    if (match >= 0) {
        ete_put(e, s, (uint8_t)(HDR_ADDR_MATCH | match));
    } else if ((diff >> 9) == 0) {
        ete_put(e, s, HDR_ADDR_SHORT);
        ete_put(e, s, (uint8_t)((a >> 2) & 0x7F));
    } else if (short_form) {
        ete_put(e, s, HDR_ADDR_SHORT);
        ete_put(e, s, (uint8_t)(CONT | ((a >> 2) & 0x7F)));
        ete_put(e, s, (uint8_t)(a >> 9));
    } else {
        ete_put(e, s, wide ? HDR_ADDR_LONG_64 : HDR_ADDR_LONG_32);
        put_long_address_bytes(e, s, a, wide);
    }
    push_history(e, a);
}

void ete_put_timestamp(pmt_ete_pkt_encoder *e, ete_stage *s, uint64_t value, bool with_cc,
                       uint32_t cc)
{
    ete_put(e, s, (uint8_t)(HDR_TIMESTAMP | (with_cc ? 1u : 0u)));
    /* The low-order 7-bit groups up to the highest bit that changed; all 64 bits (nine bytes,
     * the last one 8 bits wide) after a sync or when more than six groups changed. */
    unsigned groups = 9;
    if (e->ts_valid) {
        const uint64_t diff = value ^ e->last_ts;
        groups = 1;
        while (groups < 7 && (diff >> (7 * groups)) != 0)
            groups++;
        if (groups > 6)
            groups = 9;
    }
    if (groups == 9) {
        for (unsigned i = 0; i < 8; i++)
            ete_put(e, s, (uint8_t)(CONT | ((value >> (7 * i)) & 0x7F)));
        ete_put(e, s, (uint8_t)(value >> 56));
    } else {
        for (unsigned i = 0; i < groups; i++)
            ete_put(e, s, (uint8_t)((i + 1 < groups ? CONT : 0) | ((value >> (7 * i)) & 0x7F)));
    }
    if (with_cc)
        put_cont_field(e, s, cc);
    e->last_ts = value;
    e->ts_valid = true;
}

void ete_put_cycle_count(pmt_ete_pkt_encoder *e, ete_stage *s, uint32_t cycles)
{
    if (cycles == PMT_ETE_PKT_CC_UNKNOWN) {
        ete_put(e, s, HDR_CCNT_F1 | CCNT_F1_U);
        return;
    }
    /* COUNT is the count less the threshold (the decoder adds TRCCCCTLR.THRESHOLD back). */
    ete_put(e, s, HDR_CCNT_F1);
    put_cont_field(e, s, cycles - e->config.cc_threshold);
}
