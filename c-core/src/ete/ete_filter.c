/*
 * ete_filter.c - the trace unit's filtering decisions: whether trace is allowed (TraceAllowed,
 * J1.3.4.42, reusing the Trace Buffer Unit's SelfHostedTraceEnabled and TraceBufferOwner), the
 * TRCVICTLR Exception level filter, the resources (TRCRSCTLR<n>: address, context and virtual
 * context comparators, External Inputs, counters at zero; resources 0 and 1 are FALSE and
 * TRUE), and ViewInst: TRCVICTLR.EVENT, include/exclude ranges (TRCVIIECTLR) and start/stop
 * (TRCVISSCTLR, TRCVICTLR.SSSTATUS), as they apply to the instructions the PE executes.
 */
#include "ete_internal.h"

/* --- Trace prohibition --- */

static bool effective_tge(const pmt_pe *pe)
{
    return pe->st.pe.el2_enabled && pe->st.pe.hcr_tge;
}

/* TraceAllowed(PSTATE.EL) (J1.3.4.42) outside Debug state. AArch64 at every EL the trace unit
 * sees. */
bool trace_allowed_arch(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (!trbe_self_hosted(pe))
        return !s->noninvasive_debug_prohibited; /* ExternalNoninvasiveDebugAllowed */
    bool allowed;
    switch (s->ss) {
    case PMT_SS_NONSECURE: allowed = true; break;
    case PMT_SS_SECURE:
        allowed = !pe->cfg.have_el3 || PMT_GET(MDCR_EL3, STE, pe->st.mdcr_el3);
        break;
    case PMT_SS_REALM: allowed = PMT_GET(MDCR_EL3, RLTE, pe->st.mdcr_el3); break;
    default: allowed = false; break; /* Root */
    }
    /* The owning Security state of an enabled trace buffer is not the current one, or its
     * owning Exception level is lower. */
    if (trbe_enabled(pe)) {
        pmt_security owning_ss;
        unsigned owning_el;
        trbe_owner(pe, &owning_ss, &owning_el);
        if (owning_ss != s->ss || owning_el < s->el || (effective_tge(pe) && owning_el == 1))
            allowed = false;
    }
    uint64_t t1 = pe->st.trbe.trfcr_el1, t2 = pe->cfg.have_el2 ? pe->st.trbe.trfcr_el2 : 0;
    bool tre;
    switch (s->el) {
    case 3: tre = false; break;
    case 2: tre = PMT_GET(TRFCR_EL2, E2TRE, t2); break;
    case 1: tre = PMT_GET(TRFCR_EL1, E1TRE, t1); break;
    default:
        tre = effective_tge(pe) ? PMT_GET(TRFCR_EL2, E0HTRE, t2) : PMT_GET(TRFCR_EL1, E0TRE, t1);
        break;
    }
    return allowed && tre;
}

/* No trace in Debug state; else the prohibited regions as the PE sees them: after an enabling
 * write of TRBLIMITR_EL1.E, erratum_ctxt_sync_after_enable keeps the view of that write until
 * the second Context synchronization event (trbe_errata.c). */
bool trace_allowed_seen(const pmt_pe *pe)
{
    if (pe->st.pe.debug)
        return false;
    return pe->st.trbe.ctxt_sync_due ? pe->st.trbe.stale_view : trace_allowed_arch(pe);
}

bool ete_trace_allowed(const pmt_pe *pe)
{
    return pe->cfg.ete.feat_ete && trace_allowed_seen(pe);
}

bool ete_active(const pmt_pe *pe)
{
    return pe && ete_enabled(pe) && ete_trace_allowed(pe);
}

/* The bit of an EXLEVEL_<ss>_EL<el> group (in ete_exlevel_bits positions) that filters the
 * current state, and for Realm the Non-secure bit it pairs with. */
static bool exlevel_filtered(const pmt_pe *pe, uint64_t bits)
{
    const pmt_pe_state *s = &pe->st.pe;
    unsigned el = s->el;
    switch (s->ss) {
    case PMT_SS_NONSECURE: return bits >> (4 + el) & 1;
    case PMT_SS_REALM:
        /* EXLEVEL_RL_ELn: instruction trace / comparison happens when it equals
         * EXLEVEL_NS_ELn (D24.4.67, D24.4.11). */
        return (bits >> (8 + el) & 1) != (bits >> (4 + el) & 1);
    default: return bits >> el & 1; /* Secure, and EL3 (Root) in EXLEVEL_S_EL3 */
    }
}

bool ete_exlevel_traced(const pmt_pe *pe)
{
    return !exlevel_filtered(pe, pe->st.ete.victlr >> PMT_TRCVICTLR_EXLEVEL_S_SHIFT);
}

/* --- Comparators --- */

/* Comparator n of a Context or Virtual Context Identifier Comparator bank: the value register
 * against the PE's identifier, ignoring the bytes whose COMP<n> bits are set in the control
 * registers (four comparators per register, one byte of mask bits each). */
static bool ctx_comparator(const uint64_t *values, const uint64_t *ctlr, unsigned n,
                           uint32_t actual)
{
    unsigned ignore = (unsigned)(ctlr[n / 4] >> (8 * (n % 4))) & 0xFu;
    uint32_t mask = 0;
    for (unsigned b = 0; b < 4; b++)
        if (!(ignore >> b & 1))
            mask |= 0xFFu << (8 * b);
    return ((values[n] ^ actual) & mask) == 0;
}

/* Context Identifier Comparator n: TRCCIDCVR<n>, TRCCIDCCTLR0/1, CONTEXTIDR_EL1. */
static bool cid_match(const pmt_pe *pe, unsigned n)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    return n < pe->cfg.ete.num_cid_comps &&
           ctx_comparator(t->cidcvr, t->cidcctlr, n, t->contextidr_el1);
}

/* Virtual Context Identifier Comparator n: CONTEXTIDR_EL2 is the Virtual context identifier
 * (TRCIDR2.VMIDOPT = 0b10, TRCCONFIGR.VMIDOPT RES1). */
static bool vmid_match(const pmt_pe *pe, unsigned n)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    return pe->cfg.have_el2 && n < pe->cfg.ete.num_vmid_comps &&
           ctx_comparator(t->vmidcvr, t->vmidcctlr, n, t->contextidr_el2);
}

/* The conditions of TRCACATR<n> other than the address: TYPE (instruction address), the
 * Exception level and Security state filters, and the context comparators CONTEXTTYPE
 * selects. */
static bool ac_conditions(const pmt_pe *pe, unsigned n)
{
    uint64_t a = pe->st.ete.acatr[n];
    if (PMT_GET(TRCACATR, TYPE, a) != 0)
        return false;
    if (exlevel_filtered(pe, a >> PMT_TRCACATR_EXLEVEL_S_SHIFT))
        return false;
    unsigned ctx = (unsigned)PMT_GET(TRCACATR, CONTEXT, a);
    unsigned type = (unsigned)PMT_GET(TRCACATR, CONTEXTTYPE, a);
    if ((type & 1u) && !cid_match(pe, ctx))
        return false;
    if ((type & 2u) && !vmid_match(pe, ctx))
        return false;
    return true;
}

/* Single Address Comparator n matches the instruction at addr. */
static bool sac_match(const pmt_pe *pe, unsigned n, uint64_t addr)
{
    return pe->st.ete.acvr[n] == addr && ac_conditions(pe, n);
}

/* Address Range Comparator n (comparators 2n and 2n+1) matches the instruction at addr: the
 * lower and upper addresses are both in the range; the conditions are those of TRCACATR<2n>
 * (software programs the pair alike). */
static bool arc_match(const pmt_pe *pe, unsigned n, uint64_t addr)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    return t->acvr[2 * n] <= addr && addr <= t->acvr[2 * n + 1] && ac_conditions(pe, 2 * n);
}

/* --- Resources --- */

/* The selected resources of TRCRSCTLR<n>, before INV. */
static bool selector_raw(const pmt_pe *pe, unsigned n, uint64_t addr, unsigned extin)
{
    uint64_t r = pe->st.ete.rsctlr[n];
    uint64_t sel = PMT_GET(TRCRSCTLR, SELECT, r);
    unsigned count;
    bool (*cmp_ctx)(const pmt_pe *, unsigned) = NULL;
    switch ((unsigned)PMT_GET(TRCRSCTLR, GROUP, r)) {
    case ETE_RS_EXTIN: return (sel & extin) != 0;
    case ETE_RS_COUNTSEQ:
        /* COUNTERS[m], SELECT bit m: Counter <m> is zero; SEQUENCER[m], bits [7:4]: RES0 (no
         * Sequencer, TRCIDR5.NUMSEQSTATE 0), as are counters beyond NUMCNTR (write masks). */
        return (sel & ete_counters_at_zero(pe)) != 0;
    case ETE_RS_SAC:
        for (unsigned i = 0; i < 2 * pe->cfg.ete.num_ac_pairs; i++)
            if ((sel >> i & 1) && sac_match(pe, i, addr))
                return true;
        return false;
    case ETE_RS_ARC:
        for (unsigned i = 0; i < pe->cfg.ete.num_ac_pairs; i++)
            if ((sel >> i & 1) && arc_match(pe, i, addr))
                return true;
        return false;
    case ETE_RS_CID:
        cmp_ctx = cid_match;
        count = pe->cfg.ete.num_cid_comps;
        break;
    case ETE_RS_VMID:
        cmp_ctx = vmid_match;
        count = pe->cfg.ete.num_vmid_comps;
        break;
    default: return false; /* PE comparators, sequencer, SSCs: none; reserved */
    }
    for (unsigned i = 0; i < count; i++)
        if ((sel >> i & 1) && cmp_ctx(pe, i))
            return true;
    return false;
}

/* Resource selector n: 0 is FALSE and 1 is TRUE (fixed); 2..31 per TRCRSCTLR<n>. */
static bool selector(const pmt_pe *pe, unsigned n, uint64_t addr, unsigned extin)
{
    if (n < 2)
        return n == 1;
    if (n >= 2 * pe->cfg.ete.num_rs_pairs)
        return false; /* unimplemented: UNPREDICTABLE, the model's choice is FALSE */
    return selector_raw(pe, n, addr, extin) != (bool)PMT_GET(TRCRSCTLR, INV, pe->st.ete.rsctlr[n]);
}

unsigned ete_extin_selected(const pmt_pe *pe, uint16_t event)
{
    unsigned m = 0;
    for (unsigned i = 0; i < pe->cfg.ete.num_ext_in_sel; i++)
        if (PMT_GET(TRCEXTINSELR, evtCount, pe->st.ete.extinselr[i]) == event)
            m |= 1u << i;
    return m;
}

bool ete_resource_event(pmt_pe *pe, unsigned sel_field, uint64_t addr, unsigned extin)
{
    unsigned sel = (unsigned)PMT_GET(TRCEVENT, SEL, sel_field);
    if (!pe->cfg.ete.num_rs_pairs)
        return false;
    if (!PMT_GET(TRCEVENT, TYPE, sel_field))
        return selector(pe, sel, addr, extin);
    /* A Boolean-combined pair (TRCRSCTLR<2m>.PAIRINV): with A = resource 2m and B = 2m+1 after
     * their INV, the output is A AND B, inverted when PAIRINV is 1. Pair 0 is UNPREDICTABLE:
     * the model's choice is FALSE. */
    unsigned m = sel & 0xFu;
    if (m == 0 || m >= pe->cfg.ete.num_rs_pairs)
        return false;
    bool a = selector(pe, 2 * m, addr, extin), b = selector(pe, 2 * m + 1, addr, extin);
    return (a && b) != (bool)PMT_GET(TRCRSCTLR, PAIRINV, pe->st.ete.rsctlr[2 * m]);
}

/* --- ViewInst --- */

/* The ViewInst include/exclude function at addr (TRCVIIECTLR): included when no include range
 * is selected or one matches, and no selected exclude range matches. */
static bool include_exclude(const pmt_pe *pe, uint64_t addr)
{
    uint64_t r = pe->st.ete.viiectlr;
    unsigned inc = (unsigned)PMT_GET(TRCVIIECTLR, INCLUDE, r);
    unsigned exc = (unsigned)PMT_GET(TRCVIIECTLR, EXCLUDE, r);
    bool included = inc == 0;
    for (unsigned i = 0; i < pe->cfg.ete.num_ac_pairs; i++) {
        if (!((inc | exc) >> i & 1) || !arc_match(pe, i, addr))
            continue;
        if (exc >> i & 1)
            return false;
        included = true;
    }
    return included;
}

/* Start and stop points at addr (TRCVISSCTLR.START/STOP select Single Address Comparators). */
static void start_stop(const pmt_pe *pe, uint64_t addr, bool *start, bool *stop)
{
    uint64_t r = pe->st.ete.vissctlr;
    unsigned st = (unsigned)PMT_GET(TRCVISSCTLR, START, r);
    unsigned sp = (unsigned)PMT_GET(TRCVISSCTLR, STOP, r);
    *start = *stop = false;
    for (unsigned i = 0; i < 2 * pe->cfg.ete.num_ac_pairs; i++) {
        if (!((st | sp) >> i & 1) || !sac_match(pe, i, addr))
            continue;
        *start = *start || (st >> i & 1);
        *stop = *stop || (sp >> i & 1);
    }
}

/* The ViewInst EVENT field of TRCVICTLR: an 8-bit resource event selector. */
static unsigned viewinst_event(const pmt_pe *pe)
{
    return (unsigned)(pe->st.ete.victlr &
                      (PMT_MASK(TRCVICTLR, EVENT_SEL) | PMT_MASK(TRCVICTLR, EVENT_TYPE)));
}

/* The ViewInst decision for the instruction at addr, and the start/stop state after it. The
 * instruction at a start point is traced and so is the instruction at a stop point; an
 * instruction that is both leaves the function stopped (docs/choices.md). */
static bool viewinst(pmt_pe *pe, uint64_t addr, bool *started)
{
    bool start, stop;
    start_stop(pe, addr, &start, &stop);
    bool in_ss = *started || start;
    *started = (*started || start) && !stop;
    /* No PMU event is delivered with an executed range: External Inputs are inactive. */
    return in_ss && ete_resource_event(pe, viewinst_event(pe), addr, 0) &&
           include_exclude(pe, addr);
}

/* The first address above addr at which a comparator's answer can change: the value of each
 * implemented comparator and the address after it. UINT64_MAX when none. */
static uint64_t next_boundary(const pmt_pe *pe, uint64_t addr)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < 2 * pe->cfg.ete.num_ac_pairs; i++) {
        uint64_t v = pe->st.ete.acvr[i];
        if (v > addr && v < next)
            next = v;
        if (v != UINT64_MAX && v + 1 > addr && v + 1 < next)
            next = v + 1;
    }
    return next;
}

/* ViewInst selects no comparator (the EVENT a fixed resource, no ranges, no start/stop points):
 * one answer for every instruction at the current PE state, and SSSTATUS as it is - set for
 * good without comparators, where the start/stop function is always started (D24.4.67). */
static bool viewinst_fixed(const pmt_pe *pe)
{
    return viewinst_event(pe) < 2 && pe->st.ete.viiectlr == 0 && pe->st.ete.vissctlr == 0;
}

static bool viewinst_fixed_answer(pmt_pe *pe, bool el_ok)
{
    if (!pe->cfg.ete.num_ac_pairs)
        pe->st.ete.victlr |= PMT_MASK(TRCVICTLR, SSSTATUS);
    const bool started = PMT_GET(TRCVICTLR, SSSTATUS, pe->st.ete.victlr);
    return el_ok && started && viewinst_event(pe) == 1 && pe->cfg.ete.num_rs_pairs;
}

bool ete_viewinst_run(pmt_pe *pe, uint64_t start, uint64_t last, uint64_t *run_last)
{
    *run_last = last;
    if (last < start)
        return false;
    /* Nothing is traced, and comparators do not match, while the unit is off or trace is
     * prohibited; the Exception level filter holds for the whole run (one PE state). */
    if (!ete_active(pe))
        return false;
    bool el_ok = ete_exlevel_traced(pe);
    if (viewinst_fixed(pe))
        return viewinst_fixed_answer(pe, el_ok);
    bool started = PMT_GET(TRCVICTLR, SSSTATUS, pe->st.ete.victlr);
    bool traced = viewinst(pe, start, &started) && el_ok;
    uint64_t addr = start; /* the latest instruction decided */
    for (;;) {
        /* The instructions after addr and before the next boundary answer as addr did and,
         * not being start or stop points (each of those is alone between two boundaries),
         * leave the start/stop state as it is. */
        uint64_t b = next_boundary(pe, addr);
        uint64_t end = b > last ? last : start + ((b - 1 - start) & ~UINT64_C(3));
        if (end >= last) {
            *run_last = last;
            break;
        }
        uint64_t next = end + 4;
        bool saved = started;
        if ((viewinst(pe, next, &started) && el_ok) != traced) {
            started = saved; /* the next run starts there and decides it again */
            *run_last = end;
            break;
        }
        addr = next;
    }
    pe->st.ete.victlr = (pe->st.ete.victlr & ~PMT_MASK(TRCVICTLR, SSSTATUS)) |
                        (pe->cfg.ete.num_ac_pairs ? PMT_PUT(TRCVICTLR, SSSTATUS, started)
                                                  : PMT_MASK(TRCVICTLR, SSSTATUS));
    return traced;
}

bool ete_branch_broadcast(pmt_pe *pe, uint64_t addr)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    if (!pe->cfg.ete.branch_broadcast || !PMT_GET(TRCCONFIGR, BB, t->configr))
        return false;
    unsigned range = (unsigned)PMT_GET(TRCBBCTLR, RANGE, t->bbctlr);
    bool in = false;
    for (unsigned i = 0; i < pe->cfg.ete.num_ac_pairs; i++)
        if ((range >> i & 1) && arc_match(pe, i, addr))
            in = true;
    /* Include mode: active in the ranges (none with RANGE = 0, the model's choice); Exclude
     * mode: active outside them (everywhere with RANGE = 0). */
    return PMT_GET(TRCBBCTLR, MODE, t->bbctlr) ? in : !in;
}

/* --- Options --- */

bool ete_contextidr2_where_allowed(const pmt_pe *pe)
{
    return pe->cfg.have_el2 &&
           (!trbe_self_hosted(pe) || PMT_GET(TRFCR_EL2, CX, pe->st.trbe.trfcr_el2));
}

/* TraceContextIDR2() (J1.3.4.43). */
static bool trace_contextidr2(const pmt_pe *pe)
{
    return ete_trace_allowed(pe) && ete_contextidr2_where_allowed(pe);
}

/* TraceTimeStamp() (J1.3.4.45), without FEAT_ECV: a reserved TRFCR_ELx.TS (0b10, and 0b00 in
 * TRFCR_EL1) behaves as the physical counter (CONSTRAINED UNPREDICTABLE, docs/choices.md). */
static ete_timestamp_source timestamp_source(const pmt_pe *pe)
{
    if (!trbe_self_hosted(pe))
        return ETE_TS_CORESIGHT;
    if (pe->cfg.have_el2) {
        switch ((unsigned)PMT_GET(TRFCR_EL2, TS, pe->st.trbe.trfcr_el2)) {
        case 1: return ETE_TS_VIRTUAL;
        case 2:
        case 3: return ETE_TS_PHYSICAL;
        default: break;
        }
    }
    return PMT_GET(TRFCR_EL1, TS, pe->st.trbe.trfcr_el1) == 1 ? ETE_TS_VIRTUAL : ETE_TS_PHYSICAL;
}

void ete_get_options(const pmt_pe *pe, ete_options *o)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    const pmt_ete_config *e = &pe->cfg.ete;
    memset(o, 0, sizeof *o);
    o->context_id = PMT_GET(TRCCONFIGR, CID, t->configr);
    o->vmid = PMT_GET(TRCCONFIGR, VMID, t->configr) && trace_contextidr2(pe);
    if (PMT_GET(TRCCONFIGR, TS, t->configr))
        o->timestamp = timestamp_source(pe);
    o->ts_event = (unsigned)t->tsctlr;
    /* A THRESHOLD below TRCIDR3.CCITMIN (0 included) is CONSTRAINED UNPREDICTABLE (D24.4.16):
     * the threshold is CCITMIN, or no cycle counts are traced (pmt_ete_config.cc_below_min). */
    unsigned th = (unsigned)PMT_GET(TRCCCCTLR, THRESHOLD, t->ccctlr);
    o->cycle_counting = PMT_GET(TRCCONFIGR, CCI, t->configr) &&
                        (th >= e->ccitmin || e->cc_below_min != PMT_ETE_CC_BELOW_MIN_NO_COUNTS);
    o->cc_threshold = th < e->ccitmin ? e->ccitmin : th;
    o->return_stack = PMT_GET(TRCCONFIGR, RS, t->configr);
    unsigned p = (unsigned)PMT_GET(TRCSYNCPR, PERIOD, t->syncpr);
    o->sync_period_log2 = p >= 8 && p <= 20 ? p : 0u; /* reserved values: no requests */
    o->trace_id = (unsigned)PMT_GET(TRCTRACEIDR, TRACEID, t->traceidr);
    o->wfx_p0 = e->wfx_p0;
    o->event_insten = (unsigned)PMT_GET(TRCEVENTCTL1R, INSTEN, t->eventctl1r);
}

void ete_set_context(pmt_pe *pe, uint32_t contextidr_el1, uint32_t contextidr_el2)
{
    ete_filter_changed(pe);
    pe->st.ete.contextidr_el1 = contextidr_el1;
    pe->st.ete.contextidr_el2 = contextidr_el2;
}

/* --- The filter decisions at the current PE state --- */

void ete_filter_changed(pmt_pe *pe)
{
    pe->ete_filter.valid = false;
}

/* The PE context as the trace states it. */
static void context_now(const pmt_pe *pe, pmt_ete_pkt_context *c)
{
    const pmt_pe_state *s = &pe->st.pe;
    memset(c, 0, sizeof *c);
    c->el = s->el;
    switch (s->ss) {
    case PMT_SS_SECURE: c->security = PMT_ETE_SECURE; break;
    case PMT_SS_REALM: c->security = PMT_ETE_REALM; break;
    case PMT_SS_ROOT: c->security = PMT_ETE_ROOT; break;
    default: c->security = PMT_ETE_NON_SECURE; break;
    }
    c->aarch64 = !(s->aarch32_els >> s->el & 1u);
    c->contextidr_el1 = pe->st.ete.contextidr_el1;
    c->contextidr_el2 = pe->st.ete.contextidr_el2;
}

/* Everything here reads only the PE state (pe->st.pe), the trace unit's, the Trace Buffer
 * Unit's and the MDCR_ELx and TRFCR_ELx registers, and the configuration: the decisions hold
 * until one of those changes (ete_filter_changed). Without side effects: TRCVICTLR.SSSTATUS is
 * set where ViewInst decides (ete_viewinst_fixed). */
void ete_filter_derive(pmt_pe *pe)
{
    struct ete_filter_cache *f = &pe->ete_filter;
    const struct pmt_ete_regs *t = &pe->st.ete;
    if (pe->st.trbe.ctxt_sync_due && ete_enabled(pe))
        trbe_errata_stale_view_used(pe);
    f->active = ete_active(pe);
    f->exlevel_traced = ete_exlevel_traced(pe);
    f->viewinst_fixed = !f->active || viewinst_fixed(pe);
    const bool started = !pe->cfg.ete.num_ac_pairs || PMT_GET(TRCVICTLR, SSSTATUS, t->victlr);
    f->viewinst_traced = f->active && f->viewinst_fixed && f->exlevel_traced && started &&
                         viewinst_event(pe) == 1 && pe->cfg.ete.num_rs_pairs;
    /* The resource events of TRCEVENTCTL0R and TRCTSCTLR: none selected, none occurs; and the
     * counters, which count at the points those are evaluated at (ete_counters.c). */
    f->counters = ete_counters_live(pe);
    f->events = (t->eventctl0r && pe->cfg.ete.num_rs_pairs) || t->tsctlr || f->counters;
    f->branch_broadcast = pe->cfg.ete.branch_broadcast && PMT_GET(TRCCONFIGR, BB, t->configr);
    context_now(pe, &f->ctx);
    f->valid = true;
}
