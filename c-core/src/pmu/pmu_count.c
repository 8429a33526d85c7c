/*
 * pmu_count.c - counting. Counters that count the same event share a slot; pmt_pmu_count adds
 * to the slot's pending count while the count stays below the slot's room (the events left
 * before any of its counters overflows). Only then does the exact path run: it advances the
 * counters overflow by overflow (the step path), so overflow flags, CHAIN and freezing are
 * right whatever n is.
 *
 * Steady state. A counter that overflows at bit 32 overflows every 2^32 events (2^38 cycles for
 * the cycle counter with PMCR.D = 1), so a large n would make the step path take up to 2^32
 * steps. For n >= PMU_BATCH_MIN the step path batches once the counting repeats itself. It
 * marks the state right after an overflow of a counter that overflows at bit 32 (st, the
 * architectural state, and the output levels pmu_update derives from it) and compares at each
 * later overflow. If, P events later, all of it equals the mark except
 *   - the values of the counters counting the event: those that overflow at bit 32 show the
 *     same [31:0] again (and the cycle counter the same PMCR.D prescale: both are the phase
 *     within a period), the others (64-bit overflow) have not overflowed;
 *   - the values of odd counters counting CHAIN, each advanced by d (one per 32-bit overflow of
 *     its even neighbour, AArch64.IncrementEventCounter);
 * then each further period of P events does the same as this one: the same counters overflow
 * (their PMOVSSET bits already set, no output changes level, nothing freezes that has not),
 * CHAIN adds d and the same PMU_OVFS and PMU_HOVFS are exported. k whole periods are done at
 * once: the counters advance by k * P events (all bits, IFYVTD; PMCR.D divides as for any
 * count) and the CHAIN counters by k * d, and the pmu_event callback gets k times the window's
 * PMU_OVFS and PMU_HOVFS in one call (its contract: how many occurred at once). k stops short
 * of the next overflow of a counter that is not periodic (a CHAIN counter, a 64-bit counter):
 * that overflow may change the state (its PMOVSSET bit; freezing with PMCR.FZO or
 * MDCR_EL2.HPMFZO, FEAT_PMUv3p7), so the step path takes it, then marks again. Anything else
 * that changes inside the window (the first setting of a PMOVSSET bit, the PMU exception
 * pending, a freeze, a register a callback writes) fails the comparison and moves the mark.
 * pmu_sync_armed (FEAT_SEBEP) is not involved: it only sets the slots' room after the count,
 * from PMOVSSET and the exception controls, which the comparison covers; and while the PMU
 * exception is enabled every counter overflows at bit 64 (IPFDLQ), so nothing is periodic.
 * Not batched: the ETE taking PMU_OVFS or PMU_HOVFS as an External Input
 * (ete_external_event_taken), which makes each overflow its own event in the trace: the step
 * path then costs one step per overflow, as the trace it makes does.
 */
#include "../pe_internal.h"

#include "pmtrace/pmt_events.h"

#include <stddef.h>
#include <string.h>

static uint16_t counter_event(const pmt_pe *pe, unsigned idx)
{
    if (idx == PMT_CYCLE_COUNTER_ID)
        return PMT_EV_CPU_CYCLES;
    if (idx == PMT_INSTRUCTION_COUNTER_ID)
        return PMT_EV_INST_RETIRED;
    uint64_t ev = PMT_GET(PMEVTYPER, evtCount, pe->st.pmu.typer[idx]);
    /* Without FEAT_PMUv3p1 event numbers are 10 bits wide. */
    return (uint16_t)(pe_have_pmu(pe, PMT_PMUV3P1) ? ev : ev & 0x3FFu);
}

/* PMCR.D divides the cycle counter by 64: RES0 without AArch32, ignored when the Effective
 * PMCR.LC is 1 (AArch64.IncrementCycleCounter). */
static bool cycle_divider(const pmt_pe *pe)
{
    return pe->cfg.have_aarch32 && PMT_GET(PMCR, D, pe->st.pmu.pmcr) &&
           pmu_overflow_bit(pe, PMT_CYCLE_COUNTER_ID) == 32;
}

/* Events until counter idx next overflows; 0 when that is 2^64 or more events away. */
static uint64_t to_overflow(const pmt_pe *pe, unsigned idx)
{
    uint64_t v = pe->st.pmu.cnt[idx];
    uint64_t incs = pmu_overflow_bit(pe, idx) == 32 ? (UINT64_C(1) << 32) - (v & UINT32_MAX)
                                                    : (uint64_t)0 - v; /* 0 when v == 0 */
    if (idx != PMT_CYCLE_COUNTER_ID || !cycle_divider(pe) || incs == 0)
        return incs;
    uint64_t prescale = pe->st.pmu.ccnt_prescale;
    if (incs > (UINT64_C(1) << 58))
        return 0;
    if (incs == (UINT64_C(1) << 58))
        return (uint64_t)0 - prescale;
    return incs * 64 - prescale;
}

/* Adds n events to counter idx (IFYVTD: a 64-bit counter increments all of [63:0]). */
static void add_events(pmt_pe *pe, unsigned idx, uint64_t n)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    uint64_t incs = n;
    if (idx == PMT_CYCLE_COUNTER_ID && cycle_divider(pe)) {
        uint64_t sum = r->ccnt_prescale + n % 64;
        incs = n / 64 + sum / 64;
        r->ccnt_prescale = sum % 64;
    }
    uint64_t v = r->cnt[idx] + incs;
    if (idx < PMT_CYCLE_COUNTER_ID && !pe_have_pmu(pe, PMT_PMUV3P5))
        v &= UINT32_MAX; /* RQZJKS: 32-bit event counters without FEAT_PMUv3p5 */
    r->cnt[idx] = v;
}

/* Events the PMU generates itself (PMT_EVENT_PMU_INTERNAL in the event table) are marked in
 * slot_of once, so that pmt_pmu_count refuses them without a table search. */
void pmu_mark_internal_events(pmt_pe *pe)
{
    for (size_t i = 0; i < pmt_event_table_size(); i++) {
        const pmt_event_info *ev = pmt_event_at(i);
        if (ev->flags & PMT_EVENT_PMU_INTERNAL)
            pe->slot_of[ev->number] = PMT_SLOT_INTERNAL;
    }
    /* With the Trace Buffer Unit in the model, TRB_WRAP and TRB_TRIG come from it (trbe/). */
    if (pe->cfg.trbe.feat_trbe) {
        pe->slot_of[PMT_EV_TRB_WRAP] = PMT_SLOT_INTERNAL;
        pe->slot_of[PMT_EV_TRB_TRIG] = PMT_SLOT_INTERNAL;
    }
}

static bool event_unattributable(uint16_t event)
{
    const pmt_event_info *info = pmt_event_lookup(event);
    return info && (info->flags & PMT_EVENT_UNATTRIBUTABLE);
}

static uint64_t counting_mask(const pmt_pe *pe, uint16_t event, int only_idx)
{
    bool unattributable = event_unattributable(event);
    uint64_t mask = 0;
    for (unsigned idx = 0; idx < PMT_NUM_COUNTER_IDS; idx++) {
        if (only_idx >= 0 && (unsigned)only_idx != idx)
            continue;
        if (counter_event(pe, idx) == event && pmu_count_events(pe, idx, unattributable))
            mask |= UINT64_C(1) << idx;
    }
    return mask;
}

void pmu_flush(pmt_pe *pe)
{
    for (unsigned s = 1; s <= pe->nslots; s++) {
        struct pmt_pmu_slot *slot = &pe->slots[s];
        if (!slot->pending)
            continue;
        for (uint64_t m = slot->mask; m; m &= m - 1)
            add_events(pe, (unsigned)__builtin_ctzll(m), slot->pending);
        slot->pending = 0;
    }
}

static void rebuild_slots(pmt_pe *pe)
{
    for (unsigned s = 1; s <= pe->nslots; s++)
        pe->slot_of[pe->slots[s].event] = 0;
    pe->nslots = 0;
    const uint64_t armed = pmu_sync_armed(pe);
    for (uint64_t m = pe->impl_mask; m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctzll(m);
        uint16_t ev = counter_event(pe, idx);
        if (pe->slot_of[ev] == PMT_SLOT_INTERNAL ||
            !pmu_count_events(pe, idx, event_unattributable(ev)))
            continue;
        unsigned s = pe->slot_of[ev];
        if (!s) {
            s = ++pe->nslots;
            pe->slots[s] = (struct pmt_pmu_slot){.room = UINT64_MAX, .event = ev};
            pe->slot_of[ev] = (uint8_t)s;
        }
        pe->slots[s].mask |= UINT64_C(1) << idx;
        uint64_t t = to_overflow(pe, idx);
        if (armed >> idx & 1)
            t = 1; /* the next event sets PSTATE.PPEND (pmu_sync_armed) */
        if (t && t < pe->slots[s].room)
            pe->slots[s].room = t;
    }
}

static void set_output(pmt_pe *pe, bool *cur, bool level, void (*cb)(void *, bool))
{
    if (*cur == level)
        return;
    *cur = level;
    if (cb)
        cb(pe->cb.user, level);
}

/* CheckForPMUOverflow: PMUIRQ and the CTI overflow trigger (D13.3.1, H5.4.4), the BRBE freeze
 * event and the PMU overflow external debug request. */
static void update_outputs(pmt_pe *pe)
{
    bool pmuirq = pmu_overflow_condition(pe, PMU_OVF_IRQ, true, true, true);
    set_output(pe, &pe->irq_level, pmu_interrupt_enabled(pe) && pmuirq, pe->cb.pmuirq);
    set_output(pe, &pe->cti_level, pmuirq, pe->cb.cti_pmu_overflow);
    bool halt = pe_have_pmu(pe, PMT_PMUV3P9) && pe->cfg.feat_debugv8p9 && pmuirq;
    set_output(pe, &pe->halt_level, halt, pe->cb.halt_request);
    if (pe->cfg.feat_brbe) {
        bool freeze = pmu_overflow_condition(pe, PMU_OVF_BRBE_FREEZE, true, true, false);
        if (freeze && !pe->brbe_frozen && pe->cb.brbe_freeze)
            pe->cb.brbe_freeze(pe->cb.user);
        pe->brbe_frozen = freeze;
    }
    pmu_exception_update(pe);
}

void pmu_update(pmt_pe *pe)
{
    pmu_flush(pe);
    update_outputs(pe);
    rebuild_slots(pe);
}

/* PMU_OVFS and PMU_HOVFS (D14.3): each overflow of a counter whose PMINTENSET bit is 1, in the
 * first range (with the cycle and instruction counters) or the second range. */
struct ovf_events {
    uint64_t first, second;
};

static struct ovf_events overflow_events(const pmt_pe *pe, uint64_t ovf)
{
    struct ovf_events e = {0, 0};
    for (uint64_t m = ovf & pe->st.pmu.inten; m; m &= m - 1) {
        enum pmu_range range = pmu_counter_range(pe, (unsigned)__builtin_ctzll(m));
        e.first += range == PMU_R1;
        e.second += range == PMU_R2;
    }
    e.second = pe->cfg.have_el2 ? e.second : 0;
    return e;
}

/* The PMU cannot count PMU_OVFS and PMU_HOVFS; they go to the pmu_event output. */
static void deliver_overflow_events(pmt_pe *pe, struct ovf_events e)
{
    if (!pe->cb.pmu_event)
        return;
    if (e.first)
        pe->cb.pmu_event(pe->cb.user, PMT_EV_PMU_OVFS, e.first);
    if (e.second)
        pe->cb.pmu_event(pe->cb.user, PMT_EV_PMU_HOVFS, e.second);
}

static void export_overflow_events(pmt_pe *pe, uint64_t ovf)
{
    if (!pe->cb.pmu_event && !pe->cfg.ete.feat_ete)
        return;
    struct ovf_events e = overflow_events(pe, ovf);
    /* The trace unit's External Inputs (TRCEXTINSELR<n>) see them too. */
    if (e.first)
        ete_external_event(pe, PMT_EV_PMU_OVFS);
    if (e.second)
        ete_external_event(pe, PMT_EV_PMU_HOVFS);
    deliver_overflow_events(pe, e);
}

/* The counters in `ovf` have just overflowed. */
static void on_overflow(pmt_pe *pe, uint64_t ovf)
{
    /* CHAIN (AArch64.IncrementEventCounter): an odd counter counts each 32-bit overflow of its
     * even neighbour. Counted before the overflow flags are set, so that CHAIN observes the
     * overflow when freeze-on-overflow is enabled (a CONSTRAINED UNPREDICTABLE choice of D13.5,
     * docs/choices.md). */
    for (uint64_t m = ovf & UINT64_C(0x55555555); m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctzll(m);
        unsigned odd = idx + 1;
        if (odd >= pe->cfg.num_counters || pmu_overflow_bit(pe, idx) != 32)
            continue;
        if (pmu_counter_range(pe, idx) != pmu_counter_range(pe, odd) &&
            !pe->cfg.chain_across_ranges)
            continue;
        pmu_increment(pe, PMT_EV_CHAIN, 1, (int)odd);
    }
    /* RHTPDY: the overflow flag is set with the counter update. */
    pe->st.pmu.ovs |= ovf;
    pe->overflowed |= ovf;
    export_overflow_events(pe, ovf);
    pmu_update(pe);
}

/* ---- Steady state (the header comment) ---- */

/* Below this many events the step path makes at most a few steps per counter: no marking. */
#define PMU_BATCH_MIN (UINT64_C(1) << 33)

/* The state at an overflow, and what happened since. Of what pmu_update derives from st, the
 * output levels and the exception output; not the FEAT_SEBEP bookkeeping of the instruction
 * (pe->counted and pe->overflowed only gather the counters that counted and overflowed, which a
 * batch repeats; pe->before is not touched by counting): a model restored from a save, where
 * those start empty, batches as the saved one does. */
struct steady_mark {
    bool valid;
    uint64_t left;          /* events still to count at the mark */
    struct ovf_events sent; /* PMU_OVFS and PMU_HOVFS exported since the mark */
    struct pmt_pe_arch st;
    struct pmt_pe_arch scratch; /* compare_window's copy of st (kept here: st is large) */
    bool irq_level, cti_level, halt_level, brbe_frozen, exc_pending;
    unsigned exc_target;
};

static void mark_now(const pmt_pe *pe, struct steady_mark *k, uint64_t left)
{
    *k = (struct steady_mark){.valid = true,
                              .left = left,
                              .irq_level = pe->irq_level,
                              .cti_level = pe->cti_level,
                              .halt_level = pe->halt_level,
                              .brbe_frozen = pe->brbe_frozen,
                              .exc_pending = pe->exc_pending,
                              .exc_target = pe->exc_target};
    memcpy(&k->st, &pe->st, sizeof k->st);
}

static bool derived_equal(const pmt_pe *pe, const struct steady_mark *k)
{
    return pe->irq_level == k->irq_level && pe->cti_level == k->cti_level &&
           pe->halt_level == k->halt_level && pe->brbe_frozen == k->brbe_frozen &&
           pe->exc_pending == k->exc_pending && pe->exc_target == k->exc_target;
}

/* A counter's value bits: [31:0] for an event counter without FEAT_PMUv3p5 (RQZJKS). */
static uint64_t value_mask(const pmt_pe *pe, unsigned idx)
{
    return idx < PMT_CYCLE_COUNTER_ID && !pe_have_pmu(pe, PMT_PMUV3P5) ? UINT32_MAX : UINT64_MAX;
}

/* How a window from the mark to now repeats: the counters that advance (mask: by the window's
 * events; chained: by d[idx] CHAIN increments), and whether the 32-bit ones are in phase. */
struct steady_window {
    uint64_t chained;
    uint64_t d[PMT_NUM_COUNTER_IDS];
    bool same_state, in_phase;
};

/* A counter not counting the event that changed in the window must be an odd counter counting
 * CHAIN. It may have overflowed there (at a point where the state did not change, or the
 * comparison fails): that overflow's own effects are not repeated, whole_periods stops short of
 * its next one. */
static bool chain_counter(const pmt_pe *pe, unsigned idx)
{
    return (idx & 1) && idx < pe->cfg.num_counters && counter_event(pe, idx) == PMT_EV_CHAIN;
}

static struct steady_window compare_window(const pmt_pe *pe, struct steady_mark *k, uint64_t mask,
                                           uint64_t events)
{
    struct steady_window w = {.same_state = true, .in_phase = true};
    for (unsigned idx = 0; idx < PMT_NUM_COUNTER_IDS; idx++) {
        uint64_t was = k->st.pmu.cnt[idx], now = pe->st.pmu.cnt[idx];
        if (mask >> idx & 1) {
            if (pmu_overflow_bit(pe, idx) == 32)
                w.in_phase &= (was & UINT32_MAX) == (now & UINT32_MAX);
            else /* a 64-bit overflow in the window is not periodic: its export would repeat */
                w.same_state &= was + events > was;
        } else if (was != now) {
            w.d[idx] = (now - was) & value_mask(pe, idx);
            w.chained |= UINT64_C(1) << idx;
            w.same_state &= chain_counter(pe, idx);
        }
    }
    if (!w.same_state || !derived_equal(pe, k))
        return (struct steady_window){.same_state = false};
    /* The PMCR.D prescale is the divided cycle counter's phase, like the [31:0] of a counter
     * that overflows at bit 32: a window ends where it is as at the mark. Were it state, a mark
     * at the cycle counter's overflow and one at an event counter's (the prescale elsewhere)
     * would never compare equal, and the step path would take every period. */
    if (mask >> PMT_CYCLE_COUNTER_ID & 1)
        w.in_phase &= k->st.pmu.ccnt_prescale == pe->st.pmu.ccnt_prescale;
    /* Everything else as at the mark: st but for the counter values and the prescale
     * (bytewise: st is plain data copied with memcpy, padding included). */
    struct pmt_pe_arch *then = &k->scratch;
    memcpy(then, &k->st, sizeof *then);
    memcpy(then->pmu.cnt, pe->st.pmu.cnt, sizeof then->pmu.cnt);
    then->pmu.ccnt_prescale = pe->st.pmu.ccnt_prescale;
    w.same_state = memcmp(then, &pe->st, sizeof *then) == 0;
    return w;
}

/* How far counter idx advances in a period if it is not periodic (a CHAIN counter, in CHAIN
 * increments; a 64-bit counter counting the event, in events); 0 if it is periodic or idle. */
static uint64_t nonperiodic_advance(const pmt_pe *pe, const struct steady_window *w, uint64_t mask,
                                    uint64_t events, unsigned idx)
{
    if (w->chained >> idx & 1)
        return w->d[idx];
    if ((mask >> idx & 1) && pmu_overflow_bit(pe, idx) == 64)
        return events;
    return 0;
}

/* Whole periods of `events` that can be done at once from now: at most `left` events, and
 * short of the next overflow of a counter that is not periodic. */
static uint64_t whole_periods(const pmt_pe *pe, const struct steady_window *w, uint64_t mask,
                              uint64_t events, uint64_t left)
{
    uint64_t k = left / events;
    for (unsigned idx = 0; idx < PMT_NUM_COUNTER_IDS; idx++) {
        uint64_t d = nonperiodic_advance(pe, w, mask, events, idx);
        uint64_t t = d ? to_overflow(pe, idx) : 0; /* 0: 2^64 or more away */
        if (t && (t - 1) / d < k)
            k = (t - 1) / d;
    }
    return k;
}

/* The ETE takes each overflow as its own event: batching would lose them. */
static bool trace_takes(const pmt_pe *pe, struct ovf_events e)
{
    return (e.first && ete_external_event_taken(pe, PMT_EV_PMU_OVFS)) ||
           (e.second && ete_external_event_taken(pe, PMT_EV_PMU_HOVFS));
}

/* A mark is only useful where the state can recur: at an overflow of a counter that overflows
 * at bit 32 (the counters are back in the same phase one period later), not at a 64-bit one. */
static void mark_at(const pmt_pe *pe, struct steady_mark *k, uint64_t ovf, uint64_t left)
{
    k->valid = false;
    for (uint64_t m = ovf; m; m &= m - 1)
        if (pmu_overflow_bit(pe, (unsigned)__builtin_ctzll(m)) == 32) {
            mark_now(pe, k, left);
            return;
        }
}

/* At the overflow of the counters in `ovf`, with `left` events still to count: marks, or does
 * whole periods since the mark at once. Returns the events done. */
static uint64_t steady_state(pmt_pe *pe, struct steady_mark *k, uint64_t mask, uint64_t ovf,
                             uint64_t left)
{
    if (!k->valid) {
        mark_at(pe, k, ovf, left);
        return 0;
    }
    const uint64_t events = k->left - left;
    struct steady_window w = compare_window(pe, k, mask, events);
    if (!w.same_state || trace_takes(pe, k->sent)) {
        mark_at(pe, k, ovf, left);
        return 0;
    }
    if (!w.in_phase)
        return 0; /* further into the period */
    uint64_t periods = whole_periods(pe, &w, mask, events, left);
    k->valid = false;
    if (periods == 0)
        return 0;
    for (uint64_t m = mask; m; m &= m - 1)
        add_events(pe, (unsigned)__builtin_ctzll(m), periods * events);
    for (uint64_t m = w.chained; m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctzll(m);
        add_events(pe, idx, periods * w.d[idx]);
    }
    deliver_overflow_events(pe,
                            (struct ovf_events){periods * k->sent.first, periods * k->sent.second});
    return periods * events;
}

/* The step path, batching whole periods once they repeat when `mark` is given. */
static void increment(pmt_pe *pe, uint16_t event, uint64_t n, int only_idx,
                      struct steady_mark *mark)
{
    while (n > 0) {
        uint64_t mask = counting_mask(pe, event, only_idx);
        if (!mask)
            return;
        pe->counted |= mask;
        uint64_t step = n;
        for (uint64_t m = mask; m; m &= m - 1) {
            uint64_t t = to_overflow(pe, (unsigned)__builtin_ctzll(m));
            if (t && t < step)
                step = t;
        }
        uint64_t ovf = 0;
        for (uint64_t m = mask; m; m &= m - 1) {
            unsigned idx = (unsigned)__builtin_ctzll(m);
            uint64_t t = to_overflow(pe, idx);
            add_events(pe, idx, step);
            if (t && step >= t)
                ovf |= UINT64_C(1) << idx;
        }
        n -= step;
        if (!ovf)
            continue;
        if (mark && mark->valid) {
            struct ovf_events e = overflow_events(pe, ovf);
            mark->sent.first += e.first;
            mark->sent.second += e.second;
        }
        on_overflow(pe, ovf);
        if (mark && n >= PMU_BATCH_MIN)
            n -= steady_state(pe, mark, counting_mask(pe, event, only_idx), ovf, n);
    }
}

/* Kept out of line so that the mark takes stack space only for large counts. */
static __attribute__((noinline)) void increment_batching(pmt_pe *pe, uint16_t event, uint64_t n,
                                                         int only_idx)
{
    struct steady_mark mark = {.valid = false};
    increment(pe, event, n, only_idx, &mark);
}

void pmu_increment(pmt_pe *pe, uint16_t event, uint64_t n, int only_idx)
{
    if (n >= PMU_BATCH_MIN)
        increment_batching(pe, event, n, only_idx);
    else
        increment(pe, event, n, only_idx, NULL);
}

pmt_status pmt_pmu_count(pmt_pe *pe, uint16_t event, uint64_t n)
{
    if (!pe)
        return PMT_ERR_NULL;
    unsigned s = pe->slot_of[event];
    if (s == 0)
        return PMT_OK; /* no counter counts it */
    if (s == PMT_SLOT_INTERNAL)
        return PMT_ERR_ARG;
    struct pmt_pmu_slot *slot = &pe->slots[s];
    if (n < slot->room) {
        slot->room -= n;
        slot->pending += n;
        pe->counted |= slot->mask; /* for RNZLVW */
        return PMT_OK;
    }
    pmu_flush(pe);
    pmu_increment(pe, event, n, -1);
    pmu_update(pe);
    return PMT_OK;
}

pmt_status pmt_pmu_cycles(pmt_pe *pe, uint64_t n)
{
    return pmt_pmu_count(pe, PMT_EV_CPU_CYCLES, n);
}

uint64_t pmt_pmu_headroom(const pmt_pe *pe, uint16_t event)
{
    if (!pe)
        return UINT64_MAX;
    unsigned s = pe->slot_of[event];
    return s && s != PMT_SLOT_INTERNAL ? pe->slots[s].room : UINT64_MAX;
}

pmt_status pmt_pmu_set_spe_state(pmt_pe *pe, bool pmblimitr_e, bool pmblimitr_pmfz, bool pmbsr_s)
{
    if (!pe)
        return PMT_ERR_NULL;
    pmu_flush(pe);
    pe->st.pmu.spe_e = pmblimitr_e;
    pe->st.pmu.spe_pmfz = pmblimitr_pmfz;
    pe->st.pmu.spe_s = pmbsr_s;
    pmu_update(pe);
    return PMT_OK;
}

bool pmt_pmu_irq_level(const pmt_pe *pe)
{
    return pe && pe->irq_level;
}

bool pmt_pmu_cti_level(const pmt_pe *pe)
{
    return pe && pe->cti_level;
}
