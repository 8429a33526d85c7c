/*
 * pmu_count.c - counting. Counters that count the same event share a slot; pmt_pmu_count adds
 * to the slot's pending count while the count stays below the slot's room (the events left
 * before any of its counters overflows). Only then does the exact path run: it advances the
 * counters overflow by overflow, so overflow flags, CHAIN and freezing are right whatever n is,
 * at a cost that grows with the number of overflows crossed, never with n.
 */
#include "../pe_internal.h"

#include "pmtrace/pmt_events.h"

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
 * first range (with the cycle and instruction counters) or the second range. The PMU cannot
 * count them; they go to the pmu_event output. */
static void export_overflow_events(pmt_pe *pe, uint64_t ovf)
{
    if (!pe->cb.pmu_event && !pe->cfg.ete.feat_ete)
        return;
    uint64_t first = 0, second = 0;
    for (uint64_t m = ovf & pe->st.pmu.inten; m; m &= m - 1) {
        enum pmu_range range = pmu_counter_range(pe, (unsigned)__builtin_ctzll(m));
        first += range == PMU_R1;
        second += range == PMU_R2;
    }
    second = pe->cfg.have_el2 ? second : 0;
    /* The trace unit's External Inputs (TRCEXTINSELR<n>) see them too. */
    if (first)
        ete_external_event(pe, PMT_EV_PMU_OVFS);
    if (second)
        ete_external_event(pe, PMT_EV_PMU_HOVFS);
    if (!pe->cb.pmu_event)
        return;
    if (first)
        pe->cb.pmu_event(pe->cb.user, PMT_EV_PMU_OVFS, first);
    if (second)
        pe->cb.pmu_event(pe->cb.user, PMT_EV_PMU_HOVFS, second);
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

void pmu_increment(pmt_pe *pe, uint16_t event, uint64_t n, int only_idx)
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
        if (ovf)
            on_overflow(pe, ovf);
    }
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
