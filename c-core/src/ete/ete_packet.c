/*
 * ete_packet.c - the calls of the ETE packet encoder (pmt_ete_packet.h): argument checks, the
 * order of packets for each trace unit event, periodic synchronization, and the all-or-nothing
 * hand-over of a call's bytes to the sink.
 */
#include "ete_packet_internal.h"

#include <string.h>

const char *pmt_ete_pkt_status_name(pmt_ete_pkt_status status)
{
    switch (status) {
    case PMT_ETE_PKT_OK: return "ok";
    case PMT_ETE_PKT_NULL: return "null";
    case PMT_ETE_PKT_BAD_CONFIG: return "bad_config";
    case PMT_ETE_PKT_NOT_STARTED: return "not_started";
    case PMT_ETE_PKT_BAD_ARGUMENT: return "bad_argument";
    case PMT_ETE_PKT_NOT_ENABLED: return "not_enabled";
    case PMT_ETE_PKT_SINK_FULL: return "sink_full";
    }
    return "unknown";
}

void pmt_ete_pkt_sink_consume(pmt_ete_pkt_sink *sink, size_t n)
{
    if (sink == NULL || sink->data == NULL)
        return;
    if (sink->length > sink->capacity)
        sink->length = sink->capacity;
    if (n >= sink->length) {
        sink->length = 0;
        return;
    }
    memmove(sink->data, sink->data + n, sink->length - n);
    sink->length -= n;
}

enum {
    CC_THRESHOLD_MAX = 0xFFF, /* TRCCCCTLR.THRESHOLD is 12 bits */
    CC_SIZE_MIN = 12,         /* TRCIDR2.CCSIZE: 12 to 20 bits */
    CC_SIZE_MAX = 20,
    EXTENSION_DISCARD = 0x03,
    EXTENSION_OVERFLOW = 0x05,
    HDR_TRACE_ON = 0x04,
    HDR_EXCEPTION = 0x06,
    HDR_EVENT = 0x70, /* | events[3:0] (0x70 alone is Ignore) */
    EXC_E0 = 0x01     /* E1:E0 = 0b01: the address that follows is the preferred return address */
};

pmt_ete_pkt_status pmt_ete_pkt_init(pmt_ete_pkt_encoder *enc, const pmt_ete_pkt_config *config)
{
    if (enc == NULL || config == NULL)
        return PMT_ETE_PKT_NULL;
    /* The return stack (TRCCONFIGR.RS) would let the trace unit leave out return addresses the
     * decoder predicts; this encoder always states them, so it needs TRCIDR0.RETSTACK = 0. */
    if (config->rs)
        return PMT_ETE_PKT_BAD_CONFIG;
    if (config->cci && (config->cc_threshold == 0 || config->cc_threshold > CC_THRESHOLD_MAX ||
                        config->cc_size_bits < CC_SIZE_MIN || config->cc_size_bits > CC_SIZE_MAX))
        return PMT_ETE_PKT_BAD_CONFIG;
    memset(enc, 0, sizeof *enc);
    enc->config = *config;
    enc->need_sync = true;
    enc->current = PMT_ETE_PKT_NO_ADDRESS;
    return PMT_ETE_PKT_OK;
}

size_t pmt_ete_pkt_pending_bytes(const pmt_ete_pkt_encoder *enc)
{
    if (enc == NULL)
        return 0;
    pmt_ete_pkt_encoder copy = *enc;
    ete_stage s = {{0}, 0};
    ete_flush_atoms(&copy, &s);
    if (copy.on && ete_context_pending(&copy))
        ete_put_context(&copy, &s);
    return s.n;
}

static bool bad_sink(const pmt_ete_pkt_sink *sink)
{
    return sink == NULL || (sink->data == NULL && sink->capacity > 0);
}

static bool bad_address(uint64_t a)
{
    return (a & 0x3u) != 0; /* A64 instructions are word aligned */
}

static bool bad_context(const pmt_ete_pkt_context *c)
{
    return c->el > 3 || c->security > PMT_ETE_REALM;
}

/* The end of every call: periodic synchronization (TRCSYNCPR) once the bytes since the last
 * A-Sync, counting those a flush would add, reach the period, and the address of the next
 * instruction is known: a decoder that starts there needs it. */
static void maybe_sync(pmt_ete_pkt_encoder *e, ete_stage *s)
{
    if (!e->on || e->config.sync_period == 0 || e->current == PMT_ETE_PKT_NO_ADDRESS)
        return;
    /* Each pending atom takes at most a byte: below the period with that bound, the exact count
     * (a flush's on a copy) is below it too. */
    if (!ete_context_pending(e) &&
        e->emitted + e->atom_count - e->last_sync < e->config.sync_period)
        return;
    if (e->emitted + pmt_ete_pkt_pending_bytes(e) - e->last_sync < e->config.sync_period)
        return;
    ete_flush_atoms(e, s);
    ete_put_sync(e, s);
    ete_put_address(e, s, e->current);
}

/* A call in progress: the encoder as it will be, and the bytes it will have emitted. */
typedef struct ete_call {
    pmt_ete_pkt_encoder next;
    ete_stage s;
} ete_call;

/* Opens a call on a copy of the encoder; with flush, the pending atoms go first (a packet other
 * than an atom follows them). */
static void open_call(ete_call *c, const pmt_ete_pkt_encoder *enc, bool flush)
{
    c->next = *enc;
    c->s.n = 0;
    if (flush)
        ete_flush_atoms(&c->next, &c->s);
}

/* The call's bytes go to the sink and its state becomes the encoder's, or neither. */
static pmt_ete_pkt_status commit(pmt_ete_pkt_encoder *enc, const ete_call *c,
                                 pmt_ete_pkt_sink *sink)
{
    if (sink->length > sink->capacity || sink->capacity - sink->length < c->s.n)
        return PMT_ETE_PKT_SINK_FULL;
    if (c->s.n > 0)
        memcpy(sink->data + sink->length, c->s.bytes, c->s.n);
    sink->length += c->s.n;
    *enc = c->next;
    return PMT_ETE_PKT_OK;
}

static pmt_ete_pkt_status finish(pmt_ete_pkt_encoder *enc, ete_call *c, pmt_ete_pkt_sink *sink)
{
    if (c->next.syncs == enc->syncs) /* a call that synchronized needs no periodic sync */
        maybe_sync(&c->next, &c->s);
    return commit(enc, c, sink);
}

/* Argument checks shared by every call on a running trace. */
static pmt_ete_pkt_status check_on(const pmt_ete_pkt_encoder *enc, const pmt_ete_pkt_sink *sink)
{
    if (enc == NULL || bad_sink(sink))
        return PMT_ETE_PKT_NULL;
    return enc->on ? PMT_ETE_PKT_OK : PMT_ETE_PKT_NOT_STARTED;
}

static pmt_ete_pkt_status begin(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                const pmt_ete_pkt_context *ctx, uint64_t address, bool sync)
{
    if (enc == NULL || bad_sink(sink) || ctx == NULL)
        return PMT_ETE_PKT_NULL;
    if (bad_context(ctx) || bad_address(address))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    ete_call c;
    open_call(&c, enc, true);
    if (sync || c.next.need_sync) {
        ete_put_sync(&c.next, &c.s);
        c.next.need_sync = false;
    }
    ete_put(&c.next, &c.s, HDR_TRACE_ON);
    c.next.ctx = *ctx;
    ete_put_address(&c.next, &c.s, address);
    c.next.current = address;
    c.next.on = true;
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_start(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                     const pmt_ete_pkt_context *ctx, uint64_t address)
{
    return begin(enc, sink, ctx, address, true);
}

pmt_ete_pkt_status pmt_ete_pkt_trace_on(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                        const pmt_ete_pkt_context *ctx, uint64_t address)
{
    return begin(enc, sink, ctx, address, false);
}

/* A Cycle Count element's count: 0 (UNKNOWN) or one the threshold and the counter allow. */
static pmt_ete_pkt_status check_cycle_count(const pmt_ete_pkt_encoder *enc, uint32_t cycles)
{
    if (!enc->config.cci)
        return PMT_ETE_PKT_NOT_ENABLED;
    if (cycles != PMT_ETE_PKT_CC_UNKNOWN &&
        (cycles < enc->config.cc_threshold || (cycles >> enc->config.cc_size_bits) != 0))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    return PMT_ETE_PKT_OK;
}

static pmt_ete_pkt_status atom(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                               uint64_t next_address, bool with_cc, uint32_t cycles)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (next_address != PMT_ETE_PKT_NO_ADDRESS && bad_address(next_address))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    if (with_cc && (st = check_cycle_count(enc, cycles)) != PMT_ETE_PKT_OK)
        return st;
    if (!with_cc && ete_atom_held(enc, taken, next_address))
        return PMT_ETE_PKT_OK;
    ete_call c;
    open_call(&c, enc, false);
    /* A context change without an address since: the atom is in the new context. */
    if (c.next.atom_count == 0 && ete_context_pending(&c.next))
        ete_put_context(&c.next, &c.s);
    ete_put_atom(&c.next, &c.s, taken);
    c.next.current = next_address;
    if (with_cc) {
        /* The Cycle Count element follows its P0 element: the atoms go out first. */
        ete_flush_atoms(&c.next, &c.s);
        ete_put_cycle_count(&c.next, &c.s, cycles);
    }
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_atom(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                    uint64_t next_address)
{
    return atom(enc, sink, taken, next_address, false, 0);
}

pmt_ete_pkt_status pmt_ete_pkt_atom_cc(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                       uint64_t next_address, uint32_t cycles)
{
    return atom(enc, sink, taken, next_address, true, cycles);
}

/* Room a chunk of pmt_ete_pkt_atoms leaves in the stage for its last packets and a sync. */
#define ATOMS_CHUNK_BYTES (PMT_ETE_PKT_MAX_CALL_BYTES - 64u)

pmt_ete_pkt_status pmt_ete_pkt_atoms(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                     uint64_t count, uint64_t next_address, uint64_t *done)
{
    if (done == NULL)
        return PMT_ETE_PKT_NULL;
    *done = 0;
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (next_address != PMT_ETE_PKT_NO_ADDRESS && bad_address(next_address))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    while (*done < count) {
        ete_call c;
        open_call(&c, enc, false);
        if (c.next.atom_count == 0 && ete_context_pending(&c.next))
            ete_put_context(&c.next, &c.s);
        uint64_t n = 0;
        const uint64_t left = count - *done;
        while (n < left && c.s.n < ATOMS_CHUNK_BYTES) {
            if (c.next.atom_count == 0 && taken && left - n > PMT_ETE_PKT_MAX_PENDING_ATOMS) {
                /* 24 E atoms with more to come: the one Atom format 6 packet per-atom calls
                 * would emit for them (3 + 20 E atoms, then E). */
                ete_put(&c.next, &c.s, 0xD4);
                n += PMT_ETE_PKT_MAX_PENDING_ATOMS;
            } else {
                ete_put_atom(&c.next, &c.s, taken);
                n++;
            }
            c.next.current = next_address;
            /* Periodic synchronization as the single calls have it, checked on the bytes out
             * (the pending atoms, at most a few bytes, count at the next check). */
            if (c.next.config.sync_period && c.next.current != PMT_ETE_PKT_NO_ADDRESS &&
                c.next.emitted - c.next.last_sync >= c.next.config.sync_period)
                maybe_sync(&c.next, &c.s);
            if (c.next.syncs != enc->syncs)
                break; /* the caller may follow a sync with a timestamp */
        }
        const bool synced = c.next.syncs != enc->syncs;
        st = commit(enc, &c, sink);
        if (st != PMT_ETE_PKT_OK)
            return *done ? PMT_ETE_PKT_OK : st;
        *done += n;
        if (synced)
            break;
    }
    return PMT_ETE_PKT_OK;
}

pmt_ete_pkt_status pmt_ete_pkt_address(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                       uint64_t target)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (bad_address(target))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    ete_call c;
    open_call(&c, enc, true);
    ete_put_address(&c.next, &c.s, target);
    c.next.current = target;
    return finish(enc, &c, sink);
}

static bool bad_exception(unsigned type)
{
    switch (type) {
    case PMT_ETE_EXC_RESET:
    case PMT_ETE_EXC_DEBUG_HALT:
    case PMT_ETE_EXC_CALL:
    case PMT_ETE_EXC_TRAP:
    case PMT_ETE_EXC_SERROR:
    case PMT_ETE_EXC_INST_DEBUG:
    case PMT_ETE_EXC_DATA_DEBUG:
    case PMT_ETE_EXC_ALIGNMENT:
    case PMT_ETE_EXC_INST_FAULT:
    case PMT_ETE_EXC_DATA_FAULT:
    case PMT_ETE_EXC_IRQ:
    case PMT_ETE_EXC_FIQ: return false;
    default: return type < PMT_ETE_EXC_IMPDEF0 || type > PMT_ETE_EXC_IMPDEF0 + 7;
    }
}

bool pmt_ete_pkt_exception_defined(pmt_ete_exception type)
{
    return !bad_exception((unsigned)type);
}

static pmt_ete_pkt_status exception(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                    pmt_ete_exception type, uint64_t preferred_return,
                                    const pmt_ete_pkt_context *target_ctx, uint64_t target,
                                    bool with_cc, uint32_t cycles)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (target_ctx == NULL)
        return PMT_ETE_PKT_NULL;
    const bool has_target = target != PMT_ETE_PKT_NO_ADDRESS;
    if (bad_exception((unsigned)type) || bad_address(preferred_return) ||
        (has_target && bad_address(target)) || bad_context(target_ctx))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    if (with_cc && (st = check_cycle_count(enc, cycles)) != PMT_ETE_PKT_OK)
        return st;
    ete_call c;
    open_call(&c, enc, true);
    /* A context change not stated yet belongs to the code before the exception. */
    if (ete_context_pending(&c.next))
        ete_put_context(&c.next, &c.s);
    ete_put(&c.next, &c.s, HDR_EXCEPTION);
    ete_put(&c.next, &c.s, (uint8_t)((((unsigned)type & 0x1Fu) << 1) | EXC_E0));
    ete_put_address(&c.next, &c.s, preferred_return);
    c.next.ctx = *target_ctx;
    if (!has_target) {
        /* The vector is not traced: trace stops after the exception (as trace_off). */
        if (with_cc)
            ete_put_cycle_count(&c.next, &c.s, cycles);
        c.next.current = PMT_ETE_PKT_NO_ADDRESS;
        c.next.on = false;
        return commit(enc, &c, sink);
    }
    ete_put_address(&c.next, &c.s, target);
    c.next.current = target;
    if (with_cc) /* after the P0 element, before a periodic synchronization */
        ete_put_cycle_count(&c.next, &c.s, cycles);
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_exception(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                         pmt_ete_exception type, uint64_t preferred_return,
                                         const pmt_ete_pkt_context *target_ctx, uint64_t target)
{
    return exception(enc, sink, type, preferred_return, target_ctx, target, false, 0);
}

pmt_ete_pkt_status pmt_ete_pkt_exception_cc(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                            pmt_ete_exception type, uint64_t preferred_return,
                                            const pmt_ete_pkt_context *target_ctx, uint64_t target,
                                            uint32_t cycles)
{
    return exception(enc, sink, type, preferred_return, target_ctx, target, true, cycles);
}

pmt_ete_pkt_status pmt_ete_pkt_context_change(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                              const pmt_ete_pkt_context *ctx)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (ctx == NULL)
        return PMT_ETE_PKT_NULL;
    if (bad_context(ctx))
        return PMT_ETE_PKT_BAD_ARGUMENT;
    ete_call c;
    open_call(&c, enc, true);
    c.next.ctx = *ctx;
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_timestamp(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                         uint64_t value, bool with_cc, uint32_t cycles)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (!enc->config.ts || (with_cc && !enc->config.cci))
        return PMT_ETE_PKT_NOT_ENABLED;
    if (with_cc && (cycles >> enc->config.cc_size_bits) != 0)
        return PMT_ETE_PKT_BAD_ARGUMENT;
    ete_call c;
    open_call(&c, enc, true);
    ete_put_timestamp(&c.next, &c.s, value, with_cc, cycles);
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_cycle_count(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                           uint32_t cycles)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if ((st = check_cycle_count(enc, cycles)) != PMT_ETE_PKT_OK)
        return st;
    ete_call c;
    open_call(&c, enc, true);
    ete_put_cycle_count(&c.next, &c.s, cycles);
    return finish(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_event(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                     unsigned events)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    if (events == 0 || events > 0xF)
        return PMT_ETE_PKT_BAD_ARGUMENT;
    ete_call c;
    open_call(&c, enc, true);
    ete_put(&c.next, &c.s, (uint8_t)(HDR_EVENT | events));
    return finish(enc, &c, sink);
}

/* Pending atoms, then an optional extension packet; trace is off afterwards. */
static pmt_ete_pkt_status stop(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, int extension)
{
    pmt_ete_pkt_status st = check_on(enc, sink);
    if (st != PMT_ETE_PKT_OK)
        return st;
    ete_call c;
    open_call(&c, enc, true);
    if (extension >= 0) {
        ete_put(&c.next, &c.s, 0x00);
        ete_put(&c.next, &c.s, (uint8_t)extension);
        c.next.need_sync = true; /* the decoder drops out of sync at Overflow and Discard */
    }
    c.next.on = false;
    return commit(enc, &c, sink);
}

pmt_ete_pkt_status pmt_ete_pkt_overflow(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink)
{
    return stop(enc, sink, EXTENSION_OVERFLOW);
}

pmt_ete_pkt_status pmt_ete_pkt_discard(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink)
{
    return stop(enc, sink, EXTENSION_DISCARD);
}

pmt_ete_pkt_status pmt_ete_pkt_trace_off(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink)
{
    return stop(enc, sink, -1);
}

pmt_ete_pkt_status pmt_ete_pkt_flush(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink)
{
    if (enc == NULL || bad_sink(sink))
        return PMT_ETE_PKT_NULL;
    if (!enc->on)
        return PMT_ETE_PKT_OK; /* nothing is pending while trace is off */
    ete_call c;
    open_call(&c, enc, true);
    if (ete_context_pending(&c.next))
        ete_put_context(&c.next, &c.s);
    return commit(enc, &c, sink);
}
