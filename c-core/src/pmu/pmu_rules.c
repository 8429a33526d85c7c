/*
 * pmu_rules.c - which counter counts, in which range it is, and when an overflow is signalled.
 * A direct transcription of the J1.3 pseudocode: GetPMUCounterRange, EffectiveHPMN,
 * EffectiveEPMN, CountPMUEvents, CheckPMUOverflowCondition, ShouldPMUFreeze, SPEFreezeOnEvent.
 */
#include "../pe_internal.h"

#define MDCR2(f) PMT_GET(MDCR_EL2, f, pe->st.mdcr_el2)
#define MDCR3(f) PMT_GET(MDCR_EL3, f, pe->st.mdcr_el3)
#define PMCR(f)  PMT_GET(PMCR, f, pe->st.pmu.pmcr)

/* EffectiveEPMN: PMCCR.EPMN with FEAT_PMUv3_EXTPMN; a value above N behaves as N
 * (CONSTRAINED UNPREDICTABLE, docs/choices.md). */
unsigned pmu_effective_epmn(const pmt_pe *pe)
{
    unsigned n = pe->cfg.num_counters;
    if (!pe->cfg.feat_extpmn)
        return n;
    unsigned epmn = (unsigned)PMT_GET(PMCCR, EPMN, pe->st.pmu.pmccr);
    return epmn > n ? n : epmn;
}

/* EffectiveHPMN (RGNGCW, RKQDQS): HPMN above EPMN behaves as EPMN; HPMN == 0 without
 * FEAT_HPMN0 behaves as 1 (both CONSTRAINED UNPREDICTABLE, docs/choices.md). */
unsigned pmu_effective_hpmn(const pmt_pe *pe)
{
    unsigned counters = pmu_effective_epmn(pe);
    if (!pe->cfg.have_el2)
        return counters;
    unsigned hpmn = (unsigned)MDCR2(HPMN);
    if (hpmn > counters)
        return counters;
    if (hpmn == 0 && !pe->cfg.feat_hpmn0)
        return counters == 0 ? 0 : 1;
    return hpmn;
}

enum pmu_range pmu_counter_range(const pmt_pe *pe, unsigned idx)
{
    if (idx >= PMT_CYCLE_COUNTER_ID)
        return PMU_R1; /* the cycle and instruction counters are in the first range */
    if (idx < pmu_effective_hpmn(pe))
        return PMU_R1;
    if (idx < pmu_effective_epmn(pe))
        return PMU_R2;
    return PMU_R3;
}

unsigned pmu_counters_accessible(const pmt_pe *pe)
{
    if (pe->accessor == PE_EXTERNAL_MOST_SECURE)
        return pe->cfg.num_counters; /* the third range too (PMCCR.EPMN) */
    if (pe->accessor == PE_EXTERNAL)
        return pmu_effective_epmn(pe);
    if (pe->st.pe.el <= 1 && pe->st.pe.el2_enabled)
        return pmu_effective_hpmn(pe);
    return pmu_effective_epmn(pe);
}

unsigned pmu_counters_selfhosted(const pmt_pe *pe)
{
    return pmu_effective_epmn(pe);
}

/* The overflow bit of a counter: 32 or 64 (RQZJKS, RFBGFH, RNTZHW). While the PMU Profiling
 * exception is enabled the Effective PMCR.LP, MDCR_EL2.HLP and PMCR.LC are 1 (IPFDLQ,
 * AArch64.IncrementEventCounter, AArch64.IncrementCycleCounter). */
unsigned pmu_overflow_bit(const pmt_pe *pe, unsigned idx)
{
    if (idx == PMT_INSTRUCTION_COUNTER_ID)
        return 64;
    bool exception = pmu_exception_enabled(pe, NULL);
    if (idx == PMT_CYCLE_COUNTER_ID)
        return (pe->cfg.have_aarch32 && PMCR(LC) == 0 && !exception) ? 32 : 64;
    if (!pe_have_pmu(pe, PMT_PMUV3P5))
        return 32;
    if (exception)
        return 64;
    switch (pmu_counter_range(pe, idx)) {
    case PMU_R1: return PMCR(LP) ? 64 : 32;
    case PMU_R2: return MDCR2(HLP) ? 64 : 32;
    default: return 64;
    }
}

/* The global enable of a counter's range: PMCR_EL0.E, MDCR_EL2.HPME or PMCCR.EPME (the cycle
 * and instruction counters are in the first range). */
bool pmu_global_enable(const pmt_pe *pe, unsigned idx)
{
    switch (pmu_counter_range(pe, idx)) {
    case PMU_R1: return PMCR(E);
    case PMU_R2: return MDCR2(HPME);
    default: return PMT_GET(PMCCR, EPME, pe->st.pmu.pmccr);
    }
}

/* CheckPMUOverflowCondition. */
bool pmu_overflow_condition(const pmt_pe *pe, enum pmu_ovf_reason reason, bool r1, bool r2, bool r3)
{
    const struct pmt_pmu_regs *r = &pe->st.pmu;
    bool check_e = reason == PMU_OVF_PMU_EXCEPTION || reason == PMU_OVF_IRQ;
    bool check_inten = check_e;
    bool exclude_cyc = reason == PMU_OVF_BRBE_FREEZE || reason == PMU_OVF_FREEZE;
    bool exclude_sync = reason != PMU_OVF_IRQ && pe->cfg.feat_sebep;

    uint64_t ovsf = r->ovs & pe->impl_mask;
    if (check_inten)
        ovsf &= r->inten;
    for (unsigned idx = 0; idx < pe->cfg.num_counters; idx++) {
        if (!(ovsf >> idx & 1))
            continue;
        enum pmu_range range = pmu_counter_range(pe, idx);
        bool keep = range == PMU_R1 ? r1 : range == PMU_R2 ? r2 : r3;
        if (exclude_sync && pmu_sync_mode(pe, idx))
            keep = false;
        if (check_e && !pmu_global_enable(pe, idx))
            keep = false;
        if (keep)
            return true;
    }
    if ((ovsf >> PMT_CYCLE_COUNTER_ID & 1) && !exclude_cyc && r1 && (!check_e || PMCR(E)))
        return true;
    if ((ovsf >> PMT_INSTRUCTION_COUNTER_ID & 1) && r1 &&
        !(exclude_sync && pmu_sync_mode(pe, PMT_INSTRUCTION_COUNTER_ID)) && (!check_e || PMCR(E)))
        return true;
    return false;
}

/* ShouldPMUFreeze: a range freezes on a (non-synchronous) overflow of one of its counters. */
static bool should_freeze(const pmt_pe *pe, enum pmu_range range)
{
    if (range == PMU_R3)
        return false;
    return pmu_overflow_condition(pe, PMU_OVF_FREEZE, range == PMU_R1, range == PMU_R2, false);
}

/* SPEFreezeOnEvent (D13.5 "Freezing event counters" on an SPE buffer management event). */
static bool spe_freeze(const pmt_pe *pe, unsigned idx, enum pmu_range range)
{
    const struct pmt_pmu_regs *r = &pe->st.pmu;
    if (!pe->cfg.feat_spev1p2 || !pe_have_pmu(pe, PMT_PMUV3P7))
        return false;
    if (idx == PMT_CYCLE_COUNTER_ID && !pe->cfg.feat_spe_dpfzs)
        return false;
    bool stopped = r->spe_e && r->spe_pmfz && r->spe_s;
    switch (range) {
    case PMU_R1: return stopped && PMCR(FZS);
    case PMU_R2: return stopped && MDCR2(HPMFZS);
    default: return false;
    }
}

static bool filtered_out(const pmt_pe *pe, unsigned idx)
{
    const pmt_pe_state *s = &pe->st.pe;
    uint64_t f = pe->st.pmu.typer[idx];
    bool p = PMT_GET(PMEVTYPER, P, f), u = PMT_GET(PMEVTYPER, U, f);
    bool nsk = pe->cfg.have_el3 && PMT_GET(PMEVTYPER, NSK, f);
    bool nsu = pe->cfg.have_el3 && PMT_GET(PMEVTYPER, NSU, f);
    bool nsh = pe->cfg.have_el2 && PMT_GET(PMEVTYPER, NSH, f);
    bool m = pe->cfg.have_el3 && PMT_GET(PMEVTYPER, M, f);
    bool sh = pe->cfg.have_el3 && pe->cfg.have_sel2 && PMT_GET(PMEVTYPER, SH, f);
    bool rlk = pe->cfg.have_rme && PMT_GET(PMEVTYPER, RLK, f);
    bool rlu = pe->cfg.have_rme && PMT_GET(PMEVTYPER, RLU, f);
    bool rlh = pe->cfg.have_rme && PMT_GET(PMEVTYPER, RLH, f);
    bool filtered;
    switch (s->el) {
    case 0:
        filtered = s->ss == PMT_SS_SECURE ? u : s->ss == PMT_SS_REALM ? u != rlu : u != nsu;
        break;
    case 1:
        filtered = s->ss == PMT_SS_SECURE ? p : s->ss == PMT_SS_REALM ? p != rlk : p != nsk;
        break;
    case 2:
        filtered = s->ss == PMT_SS_SECURE ? nsh == sh : s->ss == PMT_SS_REALM ? nsh == rlh : !nsh;
        break;
    default: filtered = m != p; break;
    }
    if (pe->cfg.feat_pmuv3_sme) {
        unsigned vs = (unsigned)PMT_GET(PMEVTYPER, VS, f);
        /* VS == 0b11 is reserved: CONSTRAINED UNPREDICTABLE, we filter (docs/choices.md). */
        if (vs == 3 || (s->streaming && (vs & 1)) || (!s->streaming && (vs & 2)))
            filtered = true;
    }
    return filtered;
}

/* CountPMUEvents(idx): TRUE if counter idx counts its event now. `unattributable` says whether
 * the event being counted is Unattributable (D13.5, the configured policy). */
bool pmu_count_events(const pmt_pe *pe, unsigned idx, bool unattributable)
{
    const struct pmt_pmu_regs *r = &pe->st.pmu;
    const pmt_pe_state *s = &pe->st.pe;
    if (!(pe->impl_mask >> idx & 1))
        return false;
    if (s->debug) /* event counting is disabled in Debug state (D13.10) */
        return false;

    enum pmu_range range = pmu_counter_range(pe, idx);
    bool global_en = pmu_global_enable(pe, idx);
    bool counter_en = r->cnten >> idx & 1;
    /* A counter with SYNC = 1 counting an event that is not a synchronous event does not
     * count (FEAT_SEBEP, CountPMUEvents). */
    if (idx < PMT_CYCLE_COUNTER_ID && pe->cfg.feat_sebep &&
        PMT_GET(PMEVTYPER, SYNC, r->typer[idx]) &&
        !pmu_sync_event(pe, (uint16_t)PMT_GET(PMEVTYPER, evtCount, r->typer[idx])))
        counter_en = false;
    bool enabled = global_en && counter_en;

    /* Prohibition (D13.5 "Prohibiting event and cycle counting"). */
    bool prohibited = false;
    if (pe->cfg.have_el3 && (s->ss == PMT_SS_SECURE || s->el == 3) && range != PMU_R3)
        prohibited = !MDCR3(SPME) && (!pe_have_pmu(pe, PMT_PMUV3P7) || !MDCR3(MPMX));
    if (!prohibited && pe_have_pmu(pe, PMT_PMUV3P7) && s->el == 3 && range != PMU_R3)
        prohibited = MDCR3(MPMX) && (!MDCR3(SPME) || range == PMU_R1);
    if (!prohibited && s->el == 2 && pe_have_pmu(pe, PMT_PMUV3P1) && range == PMU_R1)
        prohibited = MDCR2(HPMD);

    bool frozen = false;
    if (pe_have_pmu(pe, PMT_PMUV3P7)) {
        bool fz = range == PMU_R1 ? PMCR(FZO) : range == PMU_R2 ? MDCR2(HPMFZO) : false;
        frozen = (fz && should_freeze(pe, range)) || spe_freeze(pe, idx, range);
    }

    if (idx == PMT_CYCLE_COUNTER_ID) {
        /* PMCR.DP disables the cycle counter when event counting is prohibited or frozen;
         * otherwise prohibition of events does not affect it. */
        if ((prohibited || frozen) && PMCR(DP))
            enabled = false;
        prohibited = false;
        frozen = false;
        if (pe_have_pmu(pe, PMT_PMUV3P5)) {
            if (pe->cfg.have_el3 && (s->ss == PMT_SS_SECURE || s->el == 3) && MDCR3(SCCD))
                prohibited = true;
            if (s->el == 2 && MDCR2(HCCD))
                prohibited = true;
        }
        if (pe_have_pmu(pe, PMT_PMUV3P7) && s->el == 3 && MDCR3(MCCD))
            prohibited = true;
    } else if (prohibited && unattributable && pe->cfg.unattributable == PMT_UNATTRIB_COUNTED) {
        prohibited = false;
    }

    return enabled && !prohibited && !frozen && !filtered_out(pe, idx);
}
