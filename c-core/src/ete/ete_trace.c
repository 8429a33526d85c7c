/*
 * ete_trace.c - the trace unit's instruction trace: the CPU's reports of what the PE executed
 * (pmt_ete_report_*) filtered (ete_filter.c), encoded (pmt_ete_packet.h) and given to the Trace
 * Buffer Unit of the same PE (pmt_trbe_trace). Also the unit's side of the Trace Buffer Unit's
 * flush (RXRRWP: the trace unit outputs what it holds, then the flush completes), the output when
 * the unit is disabled (TRCSTATR.IDLE), Timestamp elements (TRCCONFIGR.TS, TRCTSCTLR), and the
 * ETEEvents (TRCEVENTCTL0R): Event elements (TRCEVENTCTL1R.INSTEN) and, for ETEEvent 0, the
 * Detected Trigger of the Trace Buffer Unit, and cycle counting (TRCCONFIGR.CCI, TRCCCCTLR):
 * Cycle Count elements, and the cycle count of each Timestamp element. The Counters
 * (ete_counters.c) count at the points the resource events are evaluated at (events()).
 *
 * The encoder's state is in pe->st.etr (saved with the rest); the bytes of one report gather in
 * a sink on the stack and go to the Trace Buffer Unit, which accepts everything (it never applies
 * back-pressure: pmt_trbe.h), when the sink is nearly full and at the end of the report. With a
 * trace unit buffer (pmt_ete_config.unit_buffer), a held report's bytes gather there instead,
 * and go to the Trace Buffer Unit first at the next call that is not a held report.
 */
#include "ete_internal.h"
#include "ete_packet_internal.h"

#define NO_ADDRESS PMT_ETE_PKT_NO_ADDRESS

/* The bytes one report produces, before they go to the Trace Buffer Unit. */
typedef struct ete_out {
    pmt_pe *pe;
    bool held; /* the sink is the free part of the trace unit buffer (out_open_held) */
    /* Cycle counting in this report (cc_timed): run j (1, 2, ...) of its range was committed
     * at cycle cc_base + j * cc_step; cc_run runs are done. */
    bool cc;
    uint64_t cc_base, cc_step, cc_run;
    pmt_ete_pkt_sink sink;
    uint8_t buf[2048];
} ete_out;

static void out_open(ete_out *o, pmt_pe *pe)
{
    o->pe = pe;
    o->held = false;
    o->cc = false;
    o->sink.data = o->buf;
    o->sink.capacity = sizeof o->buf;
    o->sink.length = 0;
}

/* A held report's bytes go straight into the trace unit buffer. */
static void out_open_held(ete_out *o, pmt_pe *pe)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    o->pe = pe;
    o->held = true;
    o->cc = false;
    o->sink.data = t->buffer + t->buffered;
    o->sink.capacity = pe->cfg.ete.unit_buffer - t->buffered;
    o->sink.length = 0;
}

static void complete_requested_flush(pmt_pe *pe);
static void external_events(struct ete_out *o, unsigned extin);

static void to_trace_buffer_unit(pmt_pe *pe, const uint8_t *bytes, size_t n)
{
    if (pe->cfg.trbe.feat_trbe)
        (void)pmt_trbe_trace(pe, bytes, n, NULL);
}

/* The gathered bytes go to the Trace Buffer Unit, after those in the trace unit buffer (a held
 * report's stay there). A flush it requests meanwhile (a Trigger Event in Stop or IRQ on trigger
 * mode) completes once these bytes are in (RRWJNN). */
static void out_push(ete_out *o)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    if (o->held) {
        t->buffered = (uint16_t)(t->buffered + o->sink.length);
        pe->ete_stats.bytes += o->sink.length;
        o->sink.data += o->sink.length;
        o->sink.capacity -= o->sink.length;
        o->sink.length = 0;
        return;
    }
    if (t->buffered || o->sink.length) {
        pe->ete_in_output = true;
        if (t->buffered) {
            const size_t n = t->buffered;
            t->buffered = 0;
            to_trace_buffer_unit(pe, t->buffer, n);
        }
        if (o->sink.length)
            to_trace_buffer_unit(pe, o->sink.data, o->sink.length);
        pe->ete_in_output = false;
        pe->ete_stats.bytes += o->sink.length;
        o->sink.length = 0;
    }
    if (pe->st.etr.flush_requested)
        complete_requested_flush(pe);
    if (pe->st.etr.pending_extin) {
        unsigned extin = pe->st.etr.pending_extin;
        pe->st.etr.pending_extin = 0;
        external_events(o, extin);
        out_push(o); /* the Event and Timestamp packets they made */
    }
}

/* Room for the longest call (the encoder appends whole packets or nothing). */
static pmt_ete_pkt_sink *room(ete_out *o)
{
    if (o->sink.capacity - o->sink.length < PMT_ETE_PKT_MAX_CALL_BYTES)
        out_push(o);
    return &o->sink;
}

/* --- The PE context as the trace states it --- */

/* The context now (ete_filter_now), as a copy that outlives the output of the call. */
static void context_now(pmt_pe *pe, pmt_ete_pkt_context *c)
{
    *c = ete_filter_now(pe)->ctx;
}

static inline bool same_context(const pmt_ete_pkt_context *a, const pmt_ete_pkt_context *b)
{
    return a->el == b->el && a->security == b->security && a->aarch64 == b->aarch64 &&
           a->contextidr_el1 == b->contextidr_el1 && a->contextidr_el2 == b->contextidr_el2;
}

/* --- Set-up when the unit is enabled --- */

/* The stream's configuration from the trace unit's registers, as they are when the unit is
 * enabled (they may not change while it is: D24.4, "Writes are CONSTRAINED UNPREDICTABLE if the
 * trace unit is not in the Idle state"). */
static void configure(pmt_pe *pe)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    const uint64_t cfgr = pe->st.ete.configr;
    ete_options o;
    ete_get_options(pe, &o);
    /* D24.4.16, RKJXDK: cycle counting with a THRESHOLD below TRCIDR3.CCITMIN (0 included) is
     * CONSTRAINED UNPREDICTABLE; the model's answer is pmt_ete_config.cc_below_min. */
    const unsigned threshold = (unsigned)PMT_GET(TRCCCCTLR, THRESHOLD, pe->st.ete.ccctlr);
    if (PMT_GET(TRCCONFIGR, CCI, cfgr) && threshold < pe->cfg.ete.ccitmin) {
        if (o.cycle_counting)
            pe_log(pe,
                   "ETE: enabled with TRCCONFIGR.CCI and TRCCCCTLR.THRESHOLD = %u, below "
                   "TRCIDR3.CCITMIN = %u: CONSTRAINED UNPREDICTABLE, the threshold is %u",
                   threshold, pe->cfg.ete.ccitmin, o.cc_threshold);
        else
            pe_log(pe,
                   "ETE: enabled with TRCCONFIGR.CCI and TRCCCCTLR.THRESHOLD = %u, below "
                   "TRCIDR3.CCITMIN = %u: CONSTRAINED UNPREDICTABLE, no cycle counts are traced",
                   threshold, pe->cfg.ete.ccitmin);
    }
    pmt_ete_pkt_config c;
    memset(&c, 0, sizeof c);
    c.cid = PMT_GET(TRCCONFIGR, CID, cfgr);
    /* CONTEXTIDR_EL2 is the Virtual context identifier (TRCCONFIGR.VMIDOPT is RES1). */
    c.vmid = PMT_GET(TRCCONFIGR, VMID, cfgr) && ete_contextidr2_where_allowed(pe);
    c.vmidopt = c.vmid;
    c.ts = PMT_GET(TRCCONFIGR, TS, cfgr) && pe->cfg.ete.timestamps;
    c.cci = o.cycle_counting; /* TRCCONFIGR.CCI, with a threshold the unit counts with */
    c.cc_threshold = c.cci ? o.cc_threshold : 0;
    c.cc_size_bits = 12 + pe->cfg.ete.cc_size;
    c.sync_period = o.sync_period_log2 ? UINT32_C(1) << o.sync_period_log2 : 0;
    if (pmt_ete_pkt_init(&t->enc, &c) != PMT_ETE_PKT_OK) {
        /* Not reached: the registers hold only values the encoder takes (RS is RES0 without
         * TRCIDR0.RETSTACK, which the config refuses). */
        pe_log(pe, "ETE: the trace unit's configuration cannot be encoded; no trace generated");
        t->configured = false;
        return;
    }
    t->configured = true;
    t->expected = t->address_due = NO_ADDRESS;
    t->exc_pending = t->exc_traced = false;
    t->trigger_seen = t->flush_requested = false;
    t->ts_syncs = t->enc.syncs;
    /* The cycle counter starts at the enable; its first count is UNKNOWN (RYFMWB). */
    const uint64_t now = pe->ete_cb.cycles ? pe->ete_cb.cycles(pe->ete_cb.user) : 0;
    t->cc_ref = t->cc_commit = t->cc_last = t->exc_cycles = now;
    t->cc_known = false;
}

/* --- Cycle counting (TRCCONFIGR.CCI) --- */

/* The unit counts cycles: enabled with TRCCONFIGR.CCI (and a threshold it counts with), and the
 * PE's cycles known (pmt_ete_callbacks.cycles). */
static inline bool cc_on(const pmt_pe *pe)
{
    const struct pmt_ete_trace *t = &pe->st.etr;
    return t->configured && t->enc.config.cci && pe->ete_cb.cycles;
}

/* The PE's cycles now, never before the last report's. */
static uint64_t cycles_now(pmt_pe *pe)
{
    const uint64_t c = pe->ete_cb.cycles(pe->ete_cb.user);
    return c < pe->st.etr.cc_last ? pe->st.etr.cc_last : c;
}

/* A report made now, of `runs` runs of a range (1 but for a loop): the cycle each run's P0
 * element was committed in. The runs took equal cycles, those since the last report split
 * evenly, a remainder in the first (pmt_ete_range.count). */
static void cc_timed(ete_out *o, uint64_t runs)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    if (!cc_on(pe)) {
        if (t->configured && t->enc.config.cci && !pe->ete_cycles_warned) {
            pe_log(pe, "ETE: TRCCONFIGR.CCI is set but no cycle source is connected "
                       "(pmt_ete_set_callbacks): no Cycle Count packets");
            pe->ete_cycles_warned = true;
        }
        return;
    }
    const uint64_t now = cycles_now(pe);
    o->cc = true;
    o->cc_step = (now - t->cc_last) / runs;
    o->cc_base = now - o->cc_step * runs;
    o->cc_run = 0;
    t->cc_last = now;
}

/* The counter's largest value (TRCIDR2.CCSIZE: 12 to 20 bits). */
static inline uint64_t cc_max(const struct pmt_ete_trace *t)
{
    return (UINT64_C(1) << t->enc.config.cc_size_bits) - 1;
}

/* A Commit element at cycle `at` (each traced P0 element commits at once: TRCIDR8.MAXSPEC = 0):
 * with the cycle counter at or above TRCCCCTLR.THRESHOLD it requests a Cycle Count element
 * (RGWQGS), generated at once (RGDTBW). True: requested, *count its value, the counter's: the
 * cycles since the last one, or PMT_ETE_PKT_CC_UNKNOWN for the first after the enable (RYFMWB)
 * and one beyond the counter's size (RYVWJW). cc_done restarts the counter once it is out. */
static bool cc_due(struct pmt_ete_trace *t, uint64_t at, uint32_t *count)
{
    t->cc_commit = at;
    const uint64_t n = at - t->cc_ref;
    if (n < t->enc.config.cc_threshold)
        return false;
    *count = !t->cc_known || n > cc_max(t) ? PMT_ETE_PKT_CC_UNKNOWN : (uint32_t)n;
    return true;
}

/* The Cycle Count element is out: it holds the counter at the commit at `at`, and the counter
 * restarts from there (RBMVKB). */
static inline void cc_done(struct pmt_ete_trace *t, uint64_t at)
{
    t->cc_ref = at;
    t->cc_known = true;
}

/* The cycle count of a Timestamp element (TRCCONFIGR.CCI, RZMQLT): the cycles between the most
 * recent Commit element, which it goes with, and the most recent Cycle Count element; it does
 * not restart the counter (ITYVDN). UNKNOWN before the first Cycle Count element (RJNSWW) and
 * beyond the counter's size (RNPYKS): the counter's value, since the enable, at most its
 * largest. */
static uint32_t ts_cycles(const struct pmt_ete_trace *t)
{
    const uint64_t n = t->cc_commit - t->cc_ref;
    return (uint32_t)(n > cc_max(t) ? cc_max(t) : n);
}

/* --- Timestamps and events --- */

static pmt_ete_timebase timebase(ete_timestamp_source s)
{
    switch (s) {
    case ETE_TS_VIRTUAL: return PMT_ETE_TIMEBASE_VIRTUAL;
    case ETE_TS_CORESIGHT: return PMT_ETE_TIMEBASE_CORESIGHT;
    default: return PMT_ETE_TIMEBASE_PHYSICAL;
    }
}

static void timestamp(ete_out *o)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    t->ts_syncs = t->enc.syncs;
    if (!t->enc.config.ts || !t->enc.on)
        return;
    if (!pe->ete_cb.timestamp) {
        if (!pe->ete_ts_warned)
            pe_log(pe, "ETE: TRCCONFIGR.TS is set but no timestamp source is connected "
                       "(pmt_ete_set_callbacks): no Timestamp packets");
        pe->ete_ts_warned = true;
        return;
    }
    ete_options opt;
    ete_get_options(pe, &opt);
    uint64_t value = pe->ete_cb.timestamp(pe->ete_cb.user, timebase(opt.timestamp));
    const bool with_cc = t->enc.config.cci; /* RZMQLT: each Timestamp has a cycle count */
    (void)pmt_ete_pkt_timestamp(&t->enc, room(o), value, with_cc, with_cc ? ts_cycles(t) : 0);
}

/* A Timestamp follows every synchronization of the stream (Trace Info). */
static void after_call(ete_out *o)
{
    if (o->pe->st.etr.enc.syncs != o->pe->st.etr.ts_syncs)
        timestamp(o);
}

/* The ETEEvents (TRCEVENTCTL0R) that occur at the instruction at addr with the External Inputs
 * `extin` active: bit n for ETEEvent n. */
static unsigned occurred_events(pmt_pe *pe, uint64_t addr, unsigned extin)
{
    const uint64_t ctl0 = pe->st.ete.eventctl0r;
    unsigned occurred = 0;
    if (ctl0 && pe->cfg.ete.num_rs_pairs)
        for (unsigned n = 0; n < 4; n++)
            if (ete_resource_event(pe, (unsigned)(ctl0 >> (8 * n)) & 0xFFu, addr, extin))
                occurred |= 1u << n;
    return occurred;
}

/* TRCTSCTLR's event occurs at the instruction at addr (with timestamps enabled). */
static bool timestamp_event(pmt_pe *pe, uint64_t addr, unsigned extin)
{
    return pe->st.etr.enc.config.ts && pe->st.ete.tsctlr &&
           ete_resource_event(pe, (unsigned)pe->st.ete.tsctlr, addr, extin);
}

/* An evaluation point of the resource events, at the instruction at addr (with the External
 * Inputs `extin` active): the ETEEvents, with Event elements for those TRCEVENTCTL1R.INSTEN
 * enables and the Detected Trigger for ETEEvent 0 (the model's reading, docs/trace.md), and a
 * Timestamp when TRCTSCTLR's event occurs; all evaluated with the counters as they are, which
 * then count (ete_counters_step). */
static void events(ete_out *o, uint64_t addr, unsigned extin)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    const unsigned occurred = occurred_events(pe, addr, extin);
    const bool ts = timestamp_event(pe, addr, extin);
    if (ete_filter_now(pe)->counters)
        ete_counters_step(pe, addr, extin);
    const unsigned traced =
        occurred & (unsigned)PMT_GET(TRCEVENTCTL1R, INSTEN, pe->st.ete.eventctl1r);
    if (traced && t->enc.on)
        (void)pmt_ete_pkt_event(&t->enc, room(o), traced);
    if ((occurred & 1u) && !t->trigger_seen) {
        t->trigger_seen = true;
        out_push(o); /* the trace before the trigger goes first */
        if (pe->cfg.trbe.feat_trbe)
            (void)pmt_trbe_detected_trigger(pe);
    }
    if (ts && t->enc.on)
        timestamp(o);
}

/* Does an ETEEvent or TRCTSCTLR's event occur at the P0 element at addr, or may a counter
 * move there? Without counters the resources answer the same for every run of a repeated range
 * (one address, one PE state); a counter may change their answer from one run to the next. */
static bool events_at(pmt_pe *pe, uint64_t addr)
{
    const struct ete_filter_cache *f = ete_filter_now(pe);
    return f->events &&
           (f->counters || occurred_events(pe, addr, 0) || timestamp_event(pe, addr, 0));
}

/* --- Trace on, off, exceptions --- */

static void trace_off(ete_out *o)
{
    struct pmt_ete_trace *t = &o->pe->st.etr;
    if (t->enc.on)
        (void)pmt_ete_pkt_trace_off(&t->enc, room(o));
    t->address_due = NO_ADDRESS;
}

/* Trace is on, and the next instruction it states is the one at addr. */
static void trace_at(ete_out *o, uint64_t addr)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    pmt_ete_pkt_context ctx;
    if (!t->enc.on) {
        context_now(pe, &ctx);
        (void)pmt_ete_pkt_trace_on(&t->enc, room(o), &ctx, addr);
        after_call(o);
        t->address_due = NO_ADDRESS;
        return;
    }
    if (!same_context(&ete_filter_now(pe)->ctx, &t->enc.ctx)) {
        context_now(pe, &ctx);
        (void)pmt_ete_pkt_context_change(&t->enc, room(o), &ctx);
    }
    if (t->address_due != NO_ADDRESS || t->enc.current != addr) {
        (void)pmt_ete_pkt_address(&t->enc, room(o), addr);
        after_call(o);
    }
    t->address_due = NO_ADDRESS;
}

/* The exception reported last, now that the state it was taken to is the PE's: its vector, the
 * instruction at `vector`, is traced or not. */
static void resolve_exception(ete_out *o, bool vector_traced, uint64_t vector)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    t->exc_pending = false;
    if (!t->exc_traced || !t->enc.on)
        return;
    pmt_ete_pkt_context ctx;
    context_now(pe, &ctx);
    const pmt_ete_exception type = (pmt_ete_exception)t->exc_type;
    const uint64_t target = vector_traced ? vector : NO_ADDRESS;
    /* The Exception element is a P0 element: committed when the exception was taken. */
    uint32_t count = 0;
    if (cc_on(pe) && cc_due(t, t->exc_cycles, &count) &&
        pmt_ete_pkt_exception_cc(&t->enc, room(o), type, t->exc_return, &ctx, target, count) ==
            PMT_ETE_PKT_OK)
        cc_done(t, t->exc_cycles);
    else
        (void)pmt_ete_pkt_exception(&t->enc, room(o), type, t->exc_return, &ctx, target);
    after_call(o);
    t->address_due = NO_ADDRESS;
    pe->ete_stats.exceptions++;
}

/* --- Instructions --- */

/* The atoms of `r` are out (or held by the encoder): its target is due when the trace states it
 * (an indirect branch's; with branch broadcasting, TRCCONFIGR.BB and TRCBBCTLR, a direct
 * branch's too). */
static inline void p0_traced(pmt_pe *pe, const pmt_ete_range *r)
{
    pe->ete_stats.traced_p0 += r->count;
    if (r->taken && (r->kind == PMT_ETE_P0_INDIRECT ||
                     (r->kind == PMT_ETE_P0_DIRECT && ete_filter_now(pe)->branch_broadcast &&
                      ete_branch_broadcast(pe, r->last))))
        pe->st.etr.address_due = r->next;
}

/* The atom of one run of `r` (the next of this report's runs with cycle counting), and the
 * Cycle Count element its commit requests. */
static void one_atom(ete_out *o, const pmt_ete_range *r)
{
    struct pmt_ete_trace *t = &o->pe->st.etr;
    uint32_t count = 0;
    if (o->cc) {
        const uint64_t at = o->cc_base + o->cc_step * ++o->cc_run;
        if (cc_due(t, at, &count) &&
            pmt_ete_pkt_atom_cc(&t->enc, room(o), r->taken, r->next, count) == PMT_ETE_PKT_OK) {
            cc_done(t, at);
            after_call(o);
            return;
        }
    }
    (void)pmt_ete_pkt_atom(&t->enc, room(o), r->taken, r->next);
    after_call(o);
}

/* `n` atoms of runs of `r` (a loop) whose commits request no Cycle Count element. */
static void atoms(ete_out *o, const pmt_ete_range *r, uint64_t n)
{
    struct pmt_ete_trace *t = &o->pe->st.etr;
    for (uint64_t left = n; left;) {
        uint64_t done = 0;
        if (pmt_ete_pkt_atoms(&t->enc, room(o), r->taken, left, r->next, &done) != PMT_ETE_PKT_OK ||
            done == 0)
            break; /* not reached: room() leaves space for one chunk at least */
        left -= done;
        if (o->cc) { /* a Timestamp after a synchronization goes with the last of them */
            o->cc_run += done;
            t->cc_commit = o->cc_base + o->cc_step * o->cc_run;
        }
        after_call(o);
    }
}

/* Of the next `left` runs of this report, how many commit before the first that requests a
 * Cycle Count element (left: none does): run j commits at cc_base + j * cc_step, and requests
 * one when that is at least the threshold after the counter's start. */
static uint64_t runs_before_cycle_count(const ete_out *o, uint64_t left)
{
    const struct pmt_ete_trace *t = &o->pe->st.etr;
    const uint64_t need = t->cc_ref + t->enc.config.cc_threshold;
    const uint64_t first = o->cc_base + o->cc_step * (o->cc_run + 1);
    if (first >= need)
        return 0;
    if (o->cc_step == 0)
        return left;
    const uint64_t j = (need - o->cc_base + o->cc_step - 1) / o->cc_step; /* the first run */
    return j - o->cc_run - 1 < left ? j - o->cc_run - 1 : left;
}

/* The P0 element ending a traced run: `count` atoms. */
static void p0_element(ete_out *o, const pmt_ete_range *r)
{
    pmt_pe *pe = o->pe;
    if (r->kind == PMT_ETE_P0_WFX && !pe->cfg.ete.wfx_p0)
        return;
    if (r->count == 1) {
        one_atom(o, r);
    } else if (!o->cc) {
        atoms(o, r, r->count);
    } else {
        /* A loop with cycle counting: the runs between Cycle Count elements packed, the run
         * whose commit requests one on its own. */
        for (uint64_t done = 0; done < r->count;) {
            const uint64_t n = runs_before_cycle_count(o, r->count - done);
            atoms(o, r, n);
            done += n;
            if (done < r->count) {
                one_atom(o, r);
                done++;
            }
        }
    }
    p0_traced(pe, r);
    if (ete_filter_now(pe)->events)
        events(o, r->last, 0);
}

/* Instructions [start, last] executed at the current PE state, ended by the P0 element of `r`
 * (NULL: they end without one, before an exception). Each run of instructions with one ViewInst
 * answer is traced or not as a whole. */
static void instructions(ete_out *o, uint64_t start, uint64_t last, const pmt_ete_range *r)
{
    pmt_pe *pe = o->pe;
    struct pmt_ete_trace *t = &pe->st.etr;
    uint64_t a = start;
    for (;;) {
        uint64_t run_last = last;
        bool traced = false;
        if (t->configured && !ete_viewinst_fixed(pe, &traced))
            traced = ete_viewinst_run(pe, a, last, &run_last);
        if (t->exc_pending)
            resolve_exception(o, traced, a);
        if (traced) {
            trace_at(o, a);
            if (run_last == last && r)
                p0_element(o, r);
        } else {
            trace_off(o);
        }
        if (run_last >= last)
            return;
        a = run_last + 4;
    }
}

/* The common report, a branch ending a run of instructions that goes on where the trace is:
 * trace on, traced as a whole (a ViewInst without comparators), the context stated, no address
 * due, no exception pending, no event selected. instructions() would find the run traced,
 * state nothing in trace_at and end it with the P0 element: p0_element alone does the same. */
static inline bool just_p0(pmt_pe *pe, const pmt_ete_range *r)
{
    const struct pmt_ete_trace *t = &pe->st.etr;
    bool traced = false;
    if (r->count != 1 || !t->configured || t->exc_pending || !t->enc.on ||
        t->address_due != NO_ADDRESS || t->enc.current != r->start ||
        !ete_viewinst_fixed(pe, &traced) || !traced)
        return false;
    const struct ete_filter_cache *f = ete_filter_now(pe);
    return !f->events && same_context(&f->ctx, &t->enc.ctx);
}

/* --- Reports --- */

static bool aligned(uint64_t a)
{
    return (a & 3u) == 0;
}

static pmt_status refuse(pmt_pe *pe, pmt_status st, const char *what)
{
    pe->ete_stats.refused++;
    pe_log(pe, "ETE: %s", what);
    return st;
}

static pmt_status check_pe(pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (!pe->cfg.ete.feat_ete)
        return refuse(pe, PMT_ERR_NOT_IMPLEMENTED, "a report to a PE without FEAT_ETE");
    return PMT_OK;
}

static void note_start(pmt_pe *pe, uint64_t start)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    if (t->expected != NO_ADDRESS && t->expected != start)
        pe->ete_stats.discontinuities++;
}

static inline bool range_valid(const pmt_ete_range *r)
{
    return aligned(r->start | r->last | r->next) && r->last >= r->start && r->count != 0 &&
           (r->count == 1 || r->next == r->start) && (unsigned)r->kind <= PMT_ETE_P0_WFX;
}

/* The longest output of a report the trace unit buffer takes (buffer_takes): trace_at's Trace
 * On, or its Context and Address packets, then p0_element's atom; each encoder call appends at
 * most PMT_ETE_PKT_MAX_CALL_BYTES, so room() never pushes. */
#define BUFFER_REPORT_MAX    (3u * PMT_ETE_PKT_MAX_CALL_BYTES)
/* What such a report adds to the stream's bytes beyond the pending atoms (a byte each at most,
 * counted apart) when trace is on in the stated context: an Address packet (9 bytes at most) and
 * the new atom. */
#define BUFFER_REPORT_STREAM (9u + 1u)

/* The trace unit buffer can take the report of the valid range `r`, and it needs no time: it
 * runs once, instructions() finds it traced as a whole (no ViewInst comparator) or not at all,
 * no event can occur (no Event packet, Detected Trigger or TRCTSCTLR Timestamp), no exception
 * is pending, and no Timestamp can follow a synchronization (timestamps off, or trace on in the
 * stated context with the periodic synchronization more than the report's bytes away). */
static inline bool buffer_takes(pmt_pe *pe, const pmt_ete_range *r)
{
    const struct pmt_ete_trace *t = &pe->st.etr;
    const pmt_ete_pkt_encoder *e = &t->enc;
    bool traced = false;
    if (pe->cfg.ete.unit_buffer - t->buffered < BUFFER_REPORT_MAX || r->count != 1 ||
        r->kind == PMT_ETE_P0_WFX || t->exc_pending || !ete_viewinst_fixed(pe, &traced))
        return false;
    if (!traced)
        return true; /* at most the Trace Off of trace_off */
    const struct ete_filter_cache *f = ete_filter_now(pe);
    if (f->events)
        return false;
    if (!e->config.ts)
        return true;
    return e->on && !ete_context_pending(e) && same_context(&f->ctx, &e->ctx) &&
           (e->config.sync_period == 0 ||
            e->emitted + e->atom_count + BUFFER_REPORT_STREAM - e->last_sync <
                e->config.sync_period);
}

/* A held report's end: the range is reported, execution goes on at its next. */
static inline void held_done(pmt_pe *pe, const pmt_ete_range *r)
{
    pe->ete_stats.ranges++;
    note_start(pe, r->start);
    pe->st.etr.expected = r->next;
}

/* The part of report_held's atom case that depends on the range (just_p0 checks the unit's
 * state as well): the range runs once, is not a WFx, starts where the trace is with no address
 * due, and its atom joins those held. True: held. False: nothing done. */
static inline bool atom_joins(pmt_pe *pe, const pmt_ete_range *r)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    if (r->count != 1 || r->kind == PMT_ETE_P0_WFX || t->address_due != NO_ADDRESS ||
        t->enc.current != r->start || !ete_atom_held(&t->enc, r->taken, r->next))
        return false;
    p0_traced(pe, r);
    held_done(pe, r);
    return true;
}

typedef enum held_as { NOT_HELD = 0, HELD_ATOM, HELD } held_as;

/* The report of a valid range when it needs no time (pmt_ete_report_range_held): the unit is
 * disabled (instructions() finds nothing traced and nothing to end), or the range is just its P0
 * element and the encoder holds the atom (HELD_ATOM), or the trace unit buffer takes its bytes.
 * The unit's state changes as pmt_ete_report_range would change it. NOT_HELD: nothing done. */
static inline held_as report_held(pmt_pe *pe, const pmt_ete_range *r)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    if (t->flush_requested || t->pending_extin)
        return NOT_HELD; /* out_push has work */
    if (cc_on(pe))
        return NOT_HELD; /* its P0 element's cycle is needed: a report at its time */
    if (!t->configured) {
        if (t->enc.on || t->exc_pending)
            return NOT_HELD;
        t->address_due = NO_ADDRESS; /* as trace_off */
    } else if (t->enc.syncs != t->ts_syncs) {
        return NOT_HELD; /* a synchronization since the last Timestamp: after_call's is due */
    } else if (r->kind != PMT_ETE_P0_WFX && just_p0(pe, r) && atom_joins(pe, r)) {
        return HELD_ATOM;
    } else if (pe->cfg.ete.unit_buffer && buffer_takes(pe, r)) {
        ete_out o;
        out_open_held(&o, pe);
        instructions(&o, r->start, r->last, r);
        out_push(&o);
    } else {
        return NOT_HELD;
    }
    held_done(pe, r);
    return HELD;
}

void ete_unit_buffer_drain_slow(pmt_pe *pe)
{
    ete_out o;
    out_open(&o, pe);
    out_push(&o);
}

bool pmt_ete_report_range_held(pmt_pe *pe, const pmt_ete_range *r)
{
    return pe && r && pe->cfg.ete.feat_ete && range_valid(r) && report_held(pe, r) != NOT_HELD;
}

/* After an atom held (HELD_ATOM), the state report_held checked apart from the range (trace on
 * and configured, traced as a whole in the stated context, no event, no exception, no
 * synchronization without its Timestamp, nothing for out_push) is unchanged: an atom held
 * changes only the pending atoms, the trace's address and address_due. The ranges after it need
 * only their own checks (atom_joins) until one fails; report_held decides that one. */
size_t pmt_ete_report_ranges_held(pmt_pe *pe, const pmt_ete_range *ranges, size_t n)
{
    if (!pe || !ranges || !pe->cfg.ete.feat_ete)
        return 0;
    size_t i = 0;
    while (i < n && range_valid(&ranges[i])) {
        const held_as h = report_held(pe, &ranges[i]);
        if (h == NOT_HELD)
            break;
        i++;
        if (h == HELD_ATOM)
            while (i < n && range_valid(&ranges[i]) && atom_joins(pe, &ranges[i]))
                i++;
    }
    return i;
}

bool pmt_ete_wants_reports(const pmt_pe *pe)
{
    if (!pe || !pe->cfg.ete.feat_ete)
        return false;
    const struct pmt_ete_trace *t = &pe->st.etr;
    return t->configured || t->enc.on || t->exc_pending || t->flush_requested;
}

pmt_status pmt_ete_report_range(pmt_pe *pe, const pmt_ete_range *r)
{
    pmt_status st = check_pe(pe);
    if (st != PMT_OK)
        return st;
    if (!r)
        return PMT_ERR_NULL;
    if (!range_valid(r))
        return refuse(pe, PMT_ERR_ARG,
                      "pmt_ete_report_range: unaligned addresses, last before start, count 0, a "
                      "repeated range that does not loop, or an unknown P0 kind");
    struct pmt_ete_trace *t = &pe->st.etr;
    pe->ete_stats.ranges++;
    note_start(pe, r->start);
    ete_out o;
    out_open(&o, pe);
    cc_timed(&o, r->count);
    if (just_p0(pe, r)) {
        p0_element(&o, r);
    } else if (r->count > 1 && (pe->st.ete.vissctlr || events_at(pe, r->last))) {
        /* Start and stop points may change the answer from one run of the loop to the next. A
         * resource event at the loop's P0 element occurs at each run (D24.4.28, TRCEVENTCTL0R:
         * "When any of the selected resource events occurs ... Event element n is generated"):
         * an Event element after each run's atom, the Detected Trigger after the first. The
         * counters count at each run, and their resources may answer differently at the next. */
        pmt_ete_range once = *r;
        once.count = 1;
        for (uint64_t n = 0; n < r->count; n++) {
            o.cc_run = n; /* run n + 1 commits next, whether run n was traced or not */
            instructions(&o, r->start, r->last, &once);
        }
    } else {
        instructions(&o, r->start, r->last, r);
    }
    t->expected = r->next;
    out_push(&o);
    return PMT_OK;
}

pmt_status pmt_ete_report_exception(pmt_pe *pe, const pmt_ete_exception_taken *e)
{
    pmt_status st = check_pe(pe);
    if (st != PMT_OK)
        return st;
    if (!e)
        return PMT_ERR_NULL;
    if (!aligned(e->range_start) || !aligned(e->preferred_return) ||
        e->preferred_return < e->range_start || !pmt_ete_pkt_exception_defined(e->type))
        return refuse(pe, PMT_ERR_ARG,
                      "pmt_ete_report_exception: unaligned addresses, a preferred return address "
                      "below the range's start, or an exception type ETE does not define");
    struct pmt_ete_trace *t = &pe->st.etr;
    note_start(pe, e->range_start);
    ete_out o;
    out_open(&o, pe);
    if (e->range_start < e->preferred_return) {
        instructions(&o, e->range_start, e->preferred_return - 4, NULL);
    } else if (t->exc_pending) {
        /* Taken at the vector of the last one, before any instruction there. */
        resolve_exception(
            &o, t->configured && ete_filter_now(pe)->active && ete_filter_now(pe)->exlevel_traced,
            e->range_start);
    }
    t->exc_pending = true;
    t->exc_traced = t->enc.on && ete_filter_now(pe)->active && ete_filter_now(pe)->exlevel_traced;
    t->exc_type = (uint8_t)e->type;
    t->exc_return = e->preferred_return;
    if (cc_on(pe)) /* the cycle the exception was taken in: its Exception element commits then */
        t->exc_cycles = t->cc_last = cycles_now(pe);
    t->expected = NO_ADDRESS; /* the vector */
    out_push(&o);
    return PMT_OK;
}

pmt_status pmt_ete_report_context_ids(pmt_pe *pe, uint32_t contextidr_el1, uint32_t contextidr_el2)
{
    pmt_status st = check_pe(pe);
    if (st != PMT_OK)
        return st;
    ete_unit_buffer_drain(pe);
    ete_set_context(pe, contextidr_el1, contextidr_el2);
    /* The time of the instruction boundary the context applies from: a loop reported next
     * (pmt_ete_range.count) starts there. */
    if (cc_on(pe))
        pe->st.etr.cc_last = cycles_now(pe);
    return PMT_OK;
}

/* Everything the unit holds goes out: the pending atoms. */
static void flush_encoder(ete_out *o)
{
    struct pmt_ete_trace *t = &o->pe->st.etr;
    if (t->configured && pmt_ete_pkt_pending_bytes(&t->enc))
        (void)pmt_ete_pkt_flush(&t->enc, room(o));
}

pmt_status pmt_ete_flush(pmt_pe *pe)
{
    pmt_status st = check_pe(pe);
    if (st != PMT_OK)
        return st;
    ete_out o;
    out_open(&o, pe);
    flush_encoder(&o);
    out_push(&o);
    return PMT_OK;
}

pmt_status pmt_ete_set_callbacks(pmt_pe *pe, const pmt_ete_callbacks *cb)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (cb)
        pe->ete_cb = *cb;
    else
        memset(&pe->ete_cb, 0, sizeof pe->ete_cb);
    pe->ete_ts_warned = pe->ete_cycles_warned = false;
    return PMT_OK;
}

pmt_status pmt_ete_get_stats(const pmt_pe *pe, pmt_ete_stats *stats)
{
    if (!pe || !stats)
        return PMT_ERR_NULL;
    *stats = pe->ete_stats;
    return PMT_OK;
}

/* --- The unit's side of the Trace Buffer Unit and of the enable --- */

/* The Trace Buffer Unit requests a flush (RXRRWP): the unit outputs what it holds and the flush
 * completes. Requested while the unit gives it bytes, the flush completes after those. */
void ete_flush_request(pmt_pe *pe)
{
    pe->st.etr.flush_requested = true;
    if (!pe->ete_in_output)
        complete_requested_flush(pe);
}

static void complete_requested_flush(pmt_pe *pe)
{
    pe->st.etr.flush_requested = false;
    ete_out o;
    out_open(&o, pe);
    flush_encoder(&o);
    out_push(&o);
    (void)pmt_trbe_flush_complete(pe);
}

void ete_trace_enabled(pmt_pe *pe)
{
    configure(pe);
}

/* The unit became disabled: the trace it generated goes out (an exception whose vector it did
 * not see ends the trace), and the unit is Idle. */
void ete_trace_disabled(pmt_pe *pe)
{
    struct pmt_ete_trace *t = &pe->st.etr;
    if (!t->configured)
        return;
    ete_out o;
    out_open(&o, pe);
    if (t->exc_pending)
        resolve_exception(&o, false, 0);
    trace_off(&o);
    flush_encoder(&o);
    out_push(&o);
    t->configured = false;
}

/* PMU_OVFS and the Trace Buffer Unit's events reach the unit as External Inputs
 * (TRCEXTINSELR<n>); they are events at the next instruction. */
static void external_events(ete_out *o, unsigned extin)
{
    const uint64_t next = o->pe->st.etr.expected;
    events(o, next == NO_ADDRESS ? 0 : next, extin);
}

/* The External Inputs that take `event` now; 0 when ete_external_event does nothing. */
static unsigned extin_taking(const pmt_pe *pe, uint16_t event)
{
    if (!pe->cfg.ete.feat_ete || !pe->st.etr.configured || !ete_active(pe))
        return 0;
    return ete_extin_selected(pe, event);
}

bool ete_external_event_taken(const pmt_pe *pe, uint16_t event)
{
    return extin_taking(pe, event) != 0;
}

void ete_external_event(pmt_pe *pe, uint16_t event)
{
    unsigned extin = extin_taking(pe, event);
    if (!extin)
        return;
    if (pe->ete_in_output) { /* a Trace Buffer Unit event while it takes the unit's bytes */
        pe->st.etr.pending_extin |= (uint8_t)extin;
        return;
    }
    ete_out o;
    out_open(&o, pe);
    external_events(&o, extin);
    out_push(&o);
}

/* --- Restore --- */

/* Each field's range is in pe/state.c; these are the rules between fields. */
const char *ete_trace_state_error(const pmt_pe *pe)
{
    const struct pmt_ete_trace *t = &pe->st.etr;
    const pmt_ete_pkt_encoder *e = &t->enc;
    if (t->exc_pending && !pmt_ete_pkt_exception_defined((pmt_ete_exception)t->exc_type))
        return "etr.exc_type is not an exception type ETE defines";
    if (e->atom_count < 32 && (e->atoms >> e->atom_count) != 0)
        return "etr.enc.atoms has atoms past etr.enc.atom_count";
    if (t->cc_ref > t->cc_commit || t->cc_commit > t->cc_last || t->exc_cycles > t->cc_last)
        return "etr.cc_ref, cc_commit, exc_cycles and cc_last are not in the order of time";
    return NULL;
}
