/*
 * pmu_sysreg.c - the Performance Monitors registers as the PE sees them through MRS and MSR:
 * who may access them (the accessibility pseudocode of D24.5), what reads return and what
 * writes do.
 */
#include "../pe_internal.h"

#include "pmtrace/pmt_events.h"

#define MDCR2(f)   PMT_GET(MDCR_EL2, f, pe->st.mdcr_el2)
#define MDCR3(f)   PMT_GET(MDCR_EL3, f, pe->st.mdcr_el3)
#define USERENR(f) PMT_GET(PMUSERENR, f, pe->st.pmu.userenr)

/* What lets EL0 at a register (the first branch of each accessibility pseudocode). */
enum el0_gate {
    EL0_UNDEF,   /* an EL1 register: UNDEFINED at EL0 */
    EL0_EN,      /* PMUSERENR_EL0.EN, or UEN with FEAT_PMUv3p9 */
    EL0_PMCR,    /* PMUSERENR_EL0.EN only */
    EL0_SWINC,   /* EN, SW, or UEN */
    EL0_CCNTR,   /* reads: EN, CR or UEN; writes: EN or UEN */
    EL0_EVCNTR,  /* reads: EN, ER or UEN; writes: EN or UEN (also PMXEVCNTR) */
    EL0_SELR,    /* PMSELR_EL0: reads and writes with EN, ER or UEN */
    EL0_USERENR, /* PMUSERENR_EL0: readable at EL0, writes UNDEFINED */
    EL0_UEN      /* PMICNTR_EL0, PMICFILTR_EL0: PMUSERENR_EL0.UEN only */
};

/* Extra traps a register is subject to. */
enum {
    TRAP_TPMCR = 1, /* MDCR_EL2.TPMCR (PMCR_EL0) */
    TRAP_ENPM2 = 2  /* MDCR_EL3.EnPM2 == 0 traps to EL3 (FEAT_PMUv3p9, EBEP, SS registers) */
};

/* A self-hosted access from EL0 (external accesses are never "at EL0"). */
static bool at_el0(const pmt_pe *pe)
{
    return pe->accessor == PE_SELF_HOSTED && pe->st.pe.el == 0;
}

static pmt_access trap_from_el0(const pmt_pe *pe)
{
    return pe->st.pe.el2_enabled && pe->st.pe.hcr_tge ? PMT_ACCESS_TRAP_EL2 : PMT_ACCESS_TRAP_EL1;
}

/*
 * The common accessibility sequence. `counter` is the event counter an access names (or -1):
 * an index at or above the counters EL1 and EL0 may use traps to EL2
 * (GetNumEventCountersAccessible, FEAT_FGT behaviour, docs/choices.md).
 */
static pmt_access check_access(const pmt_pe *pe, enum el0_gate gate, bool write, unsigned traps,
                               int counter)
{
    if (pe->accessor != PE_SELF_HOSTED)
        return PMT_ACCESS_OK; /* external accesses are checked by pmu_ext.c */
    unsigned el = pe->st.pe.el;
    bool uen = pe_have_pmu(pe, PMT_PMUV3P9) && USERENR(UEN);
    if (el == 0) {
        bool en = USERENR(EN);
        bool ok;
        switch (gate) {
        case EL0_UNDEF: return PMT_ACCESS_UNDEFINED;
        case EL0_PMCR: ok = en; break;
        case EL0_SWINC: ok = en || USERENR(SW) || uen; break;
        case EL0_CCNTR: ok = en || uen || (!write && USERENR(CR)); break;
        case EL0_EVCNTR: ok = en || uen || (!write && USERENR(ER)); break;
        case EL0_SELR: ok = en || uen || USERENR(ER); break;
        case EL0_UEN: ok = uen; break;
        case EL0_USERENR:
            if (write)
                return PMT_ACCESS_UNDEFINED;
            ok = true;
            break;
        default: ok = en || uen; break;
        }
        if (!ok)
            return trap_from_el0(pe);
    }
    if (el <= 1 && pe->st.pe.el2_enabled) {
        if (MDCR2(TPM) || ((traps & TRAP_TPMCR) && MDCR2(TPMCR)))
            return PMT_ACCESS_TRAP_EL2;
        if (counter >= 0 && (unsigned)counter >= pmu_counters_accessible(pe))
            return PMT_ACCESS_TRAP_EL2;
    }
    if (el <= 2 && pe->cfg.have_el3 && (traps & TRAP_ENPM2) && !MDCR3(EnPM2))
        return PMT_ACCESS_TRAP_EL3;
    if (el <= 2 && pe->cfg.have_el3 && MDCR3(TPM))
        return PMT_ACCESS_TRAP_EL3;
    return PMT_ACCESS_OK;
}

/* GetPMUAccessMask: the counter bits of PMCNTEN*, PMINTEN*, PMOVS* visible at this state. */
static uint64_t access_mask(const pmt_pe *pe)
{
    uint64_t mask = UINT64_C(1) << PMT_CYCLE_COUNTER_ID;
    if (pe->cfg.feat_icntr && (!at_el0(pe) || PMT_GET(PMUSERENR, UEN, pe->st.pmu.userenr)))
        mask |= UINT64_C(1) << PMT_INSTRUCTION_COUNTER_ID;
    unsigned n = pmu_counters_accessible(pe);
    mask |= (UINT64_C(1) << n) - 1;
    if (pe_have_pmu(pe, PMT_PMUV3P9) && at_el0(pe) && USERENR(UEN))
        mask &= pe->st.pmu.uacr;
    return mask;
}

/* GetPMUWriteMask: PMUSERENR_EL0.{IR,CR,ER} make counters read-only at EL0 with UEN. */
static uint64_t write_mask(const pmt_pe *pe)
{
    uint64_t mask = access_mask(pe);
    if (pe_have_pmu(pe, PMT_PMUV3P9) && at_el0(pe) && USERENR(UEN)) {
        if (pe->cfg.feat_icntr && USERENR(IR))
            mask &= ~(UINT64_C(1) << PMT_INSTRUCTION_COUNTER_ID);
        if (USERENR(CR))
            mask &= ~(UINT64_C(1) << PMT_CYCLE_COUNTER_ID);
        if (USERENR(ER))
            mask &= ~(uint64_t)0x7FFFFFFF;
    }
    return mask;
}

/* Writable bits of PMEVTYPER<n>, PMCCFILTR, PMICFILTR: fields of features that exist. */
static uint64_t typer_write_mask(const pmt_pe *pe, unsigned idx)
{
    uint64_t m = PMT_MASK(PMEVTYPER, P) | PMT_MASK(PMEVTYPER, U);
    if (pe->cfg.have_el3)
        m |= PMT_MASK(PMEVTYPER, NSK) | PMT_MASK(PMEVTYPER, NSU) | PMT_MASK(PMEVTYPER, M);
    if (pe->cfg.have_el2)
        m |= PMT_MASK(PMEVTYPER, NSH);
    if (pe->cfg.have_el3 && pe->cfg.have_sel2)
        m |= PMT_MASK(PMEVTYPER, SH);
    if (pe->cfg.have_rme)
        m |= PMT_MASK(PMEVTYPER, RLK) | PMT_MASK(PMEVTYPER, RLU) | PMT_MASK(PMEVTYPER, RLH);
    if (pe->cfg.feat_pmuv3_sme)
        m |= PMT_MASK(PMEVTYPER, VS);
    if (idx < PMT_CYCLE_COUNTER_ID)
        m |= pe_have_pmu(pe, PMT_PMUV3P1) ? PMT_MASK(PMEVTYPER, evtCount) : 0x3FFu;
    if (idx != PMT_CYCLE_COUNTER_ID && pe->cfg.feat_sebep)
        m |= PMT_MASK(PMEVTYPER, SYNC);
    return m;
}

static uint64_t pmcr_write_mask(const pmt_pe *pe)
{
    uint64_t m = PMT_MASK(PMCR, E) | PMT_MASK(PMCR, DP);
    if (pe->cfg.have_aarch32)
        m |= PMT_MASK(PMCR, D) | PMT_MASK(PMCR, LC);
    if (pe_have_pmu(pe, PMT_PMUV3P5))
        m |= PMT_MASK(PMCR, LP);
    if (pe_have_pmu(pe, PMT_PMUV3P7))
        m |= PMT_MASK(PMCR, FZO);
    if (pe->cfg.feat_spev1p2 && pe_have_pmu(pe, PMT_PMUV3P7))
        m |= PMT_MASK(PMCR, FZS);
    return m;
}

static uint64_t pmcr_read(const pmt_pe *pe)
{
    uint64_t v = pe->st.pmu.pmcr;
    if (!pe->cfg.have_aarch32)
        v |= PMT_MASK(PMCR, LC); /* RES1 without AArch32 */
    v |= PMT_PUT(PMCR, N, pmu_counters_accessible(pe));
    if (!pe_have_pmu(pe, PMT_PMUV3P7)) {
        v |= PMT_PUT(PMCR, IMP, pe->cfg.pmcr_imp);
        if (pe->cfg.pmcr_imp)
            v |= PMT_PUT(PMCR, IDCODE, pe->cfg.pmcr_idcode);
    }
    return v;
}

/* PMCR.P: zero the event counters of the first range, and of the second range too at EL2 and
 * EL3 or when EL2 is not enabled; never the third range. PMCR.C: zero PMCCNTR. Overflow flags
 * are unchanged. */
static void pmcr_reset_counters(pmt_pe *pe, uint64_t value)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    if (PMT_GET(PMCR, P, value)) {
        bool all = pe->accessor != PE_SELF_HOSTED || pe->st.pe.el >= 2 || !pe->st.pe.el2_enabled;
        for (unsigned i = 0; i < pe->cfg.num_counters; i++) {
            enum pmu_range range = pmu_counter_range(pe, i);
            if (range == PMU_R1 || (range == PMU_R2 && all))
                r->cnt[i] = 0;
        }
    }
    if (PMT_GET(PMCR, C, value)) {
        r->cnt[PMT_CYCLE_COUNTER_ID] = 0;
        r->ccnt_prescale = 0;
    }
}

/* PMSWINC_EL0 (PMUSwIncrement). */
static void sw_increment(pmt_pe *pe, uint64_t value)
{
    uint64_t mask = ((uint64_t)1 << pmu_counters_accessible(pe)) - 1;
    if (at_el0(pe) && pe_have_pmu(pe, PMT_PMUV3P9) && USERENR(UEN) && !USERENR(SW))
        mask &= pe->st.pmu.uacr;
    value &= mask & 0x7FFFFFFF;
    for (uint64_t m = value; m; m &= m - 1)
        pmu_increment(pe, PMT_EV_SW_INCR, 1, __builtin_ctzll(m));
}

static uint64_t pmceid(const pmt_pe *pe, unsigned which)
{
    /* PMCEID0 bits [31:0] are events 0x00..0x1F, [63:32] are 0x4000..0x401F; PMCEID1 the
     * next 32 of each. PMU_OVFS and PMU_HOVFS cannot be counted: their bits read 0. */
    uint64_t lo = pe->cfg.common_events[0] >> (32 * which) & UINT32_MAX;
    uint64_t hi = pe->cfg.common_events[1] >> (32 * which) & UINT32_MAX;
    if (which == 0) {
        hi &= ~((UINT64_C(1) << (PMT_EV_PMU_OVFS - 0x4000)) |
                (UINT64_C(1) << (PMT_EV_PMU_HOVFS - 0x4000)));
        lo |= 1u << PMT_EV_SW_INCR | 1u << PMT_EV_CPU_CYCLES | 1u << PMT_EV_INST_RETIRED |
              1u << PMT_EV_CHAIN; /* implemented by the PMU itself */
        /* TRB_WRAP and TRB_TRIG (D14.3) come from the model's Trace Buffer Unit when it has one;
         * whether TRB_TRIG can be counted is IMPLEMENTATION DEFINED. */
        if (pe->cfg.trbe.feat_trbe) {
            uint64_t trig = UINT64_C(1) << (PMT_EV_TRB_TRIG - 0x4000);
            hi |= UINT64_C(1) << (PMT_EV_TRB_WRAP - 0x4000);
            hi = pe->cfg.trbe.trb_trig_countable ? hi | trig : hi & ~trig;
        }
    }
    return lo | hi << 32;
}

/* The counter PMXEVTYPER/PMXEVCNTR select; -1 when SEL selects nothing (UNDEFINED). */
static int selected_counter(const pmt_pe *pe, bool for_typer)
{
    unsigned sel = (unsigned)PMT_GET(PMSELR, SEL, pe->st.pmu.selr);
    if (sel == 31)
        return for_typer ? PMT_CYCLE_COUNTER_ID : -1;
    return sel < pmu_counters_selfhosted(pe) ? (int)sel : -1;
}

static pmt_access counter_access(const pmt_pe *pe, pmt_reg_ref reg, bool write, int *idx_out)
{
    int idx;
    enum el0_gate gate = EL0_EN;
    switch (reg.id) {
    case PMT_REG_PMEVCNTR_EL0:
        idx = (int)reg.index;
        gate = EL0_EVCNTR;
        break;
    case PMT_REG_PMEVTYPER_EL0: idx = (int)reg.index; break;
    case PMT_REG_PMXEVCNTR_EL0:
        idx = selected_counter(pe, false);
        gate = EL0_EVCNTR;
        break;
    case PMT_REG_PMXEVTYPER_EL0: idx = selected_counter(pe, true); break;
    default: return PMT_ACCESS_NOT_MINE;
    }
    /* An index at or above the implemented counters: UNDEFINED (CONSTRAINED UNPREDICTABLE
     * Unpredictable_PMUEVENTCOUNTER, the FEAT_FGT behaviour; docs/choices.md). */
    unsigned limit = pe->accessor == PE_EXTERNAL_MOST_SECURE ? pe->cfg.num_counters
                                                             : pmu_counters_selfhosted(pe);
    if (idx < 0 || (idx < PMT_CYCLE_COUNTER_ID && (unsigned)idx >= limit))
        return PMT_ACCESS_UNDEFINED;
    *idx_out = idx;
    return check_access(pe, gate, write, 0, idx < PMT_CYCLE_COUNTER_ID ? idx : -1);
}

/* With PMUSERENR_EL0.UEN at EL0, a counter PMUACR_EL1 does not grant reads as zero and ignores
 * writes. */
static bool el0_uen_hidden(const pmt_pe *pe, unsigned idx)
{
    return at_el0(pe) && pe_have_pmu(pe, PMT_PMUV3P9) && USERENR(UEN) && !USERENR(EN) &&
           !(pe->st.pmu.uacr >> idx & 1);
}

/* The set/clear register pairs PMCNTENSET/CLR, PMOVSSET/CLR, PMINTENSET/CLR share one state
 * per pair; `set` says which view a register is. */
enum set_clear_kind { SC_NONE, SC_CNTEN, SC_OVS, SC_INTEN };

static enum set_clear_kind set_clear_kind(pmt_reg_id id, bool *set)
{
    *set =
        id == PMT_REG_PMCNTENSET_EL0 || id == PMT_REG_PMOVSSET_EL0 || id == PMT_REG_PMINTENSET_EL1;
    switch (id) {
    case PMT_REG_PMCNTENSET_EL0:
    case PMT_REG_PMCNTENCLR_EL0: return SC_CNTEN;
    case PMT_REG_PMOVSSET_EL0:
    case PMT_REG_PMOVSCLR_EL0: return SC_OVS;
    case PMT_REG_PMINTENSET_EL1:
    case PMT_REG_PMINTENCLR_EL1: return SC_INTEN;
    default: return SC_NONE;
    }
}

bool pmu_is_set_clear(pmt_reg_id id)
{
    bool set;
    return set_clear_kind(id, &set) != SC_NONE;
}

/* The state a set/clear register shares and its EL0 gate; NULL for any other register. */
static uint64_t *set_clear_state(pmt_pe *pe, pmt_reg_id id, bool *set, enum el0_gate *gate)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    *gate = EL0_EN;
    switch (set_clear_kind(id, set)) {
    case SC_CNTEN: return &r->cnten;
    case SC_OVS: return &r->ovs;
    case SC_INTEN: *gate = EL0_UNDEF; return &r->inten;
    default: return NULL;
    }
}

pmt_access pmu_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    pmt_access a;
    int idx = -1;
    bool set;
    enum el0_gate gate;
    pmu_flush(pe);
    uint64_t *set_clear = set_clear_state(pe, reg.id, &set, &gate);
    if (set_clear) {
        if ((a = check_access(pe, gate, false, 0, -1)) == PMT_ACCESS_OK)
            *value = *set_clear & access_mask(pe);
        return a;
    }
    switch (reg.id) {
    case PMT_REG_PMCR_EL0:
        if ((a = check_access(pe, EL0_PMCR, false, TRAP_TPMCR, -1)) == PMT_ACCESS_OK)
            *value = pmcr_read(pe);
        return a;
    case PMT_REG_PMSWINC_EL0:
    case PMT_REG_PMZR_EL0: return PMT_ACCESS_UNDEFINED; /* write-only */
    case PMT_REG_PMSELR_EL0:
        if ((a = check_access(pe, EL0_SELR, false, 0, -1)) == PMT_ACCESS_OK)
            *value = r->selr;
        return a;
    case PMT_REG_PMCEID0_EL0:
    case PMT_REG_PMCEID1_EL0:
        if (at_el0(pe) && pe_have_pmu(pe, PMT_PMUV3P9) && USERENR(TID))
            return trap_from_el0(pe);
        if ((a = check_access(pe, EL0_EN, false, 0, -1)) == PMT_ACCESS_OK)
            *value = pmceid(pe, reg.id == PMT_REG_PMCEID1_EL0);
        return a;
    case PMT_REG_PMCCNTR_EL0:
        if ((a = check_access(pe, EL0_CCNTR, false, 0, -1)) == PMT_ACCESS_OK)
            *value = el0_uen_hidden(pe, PMT_CYCLE_COUNTER_ID) ? 0 : r->cnt[PMT_CYCLE_COUNTER_ID];
        return a;
    case PMT_REG_PMCCFILTR_EL0:
        if ((a = check_access(pe, EL0_EN, false, 0, -1)) == PMT_ACCESS_OK)
            *value = r->typer[PMT_CYCLE_COUNTER_ID];
        return a;
    case PMT_REG_PMICNTR_EL0:
    case PMT_REG_PMICFILTR_EL0:
        if (!pe->cfg.feat_icntr)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UEN, false, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        if (reg.id == PMT_REG_PMICFILTR_EL0)
            *value = r->typer[PMT_INSTRUCTION_COUNTER_ID] | PMT_EV_INST_RETIRED;
        else
            *value = el0_uen_hidden(pe, PMT_INSTRUCTION_COUNTER_ID)
                         ? 0
                         : r->cnt[PMT_INSTRUCTION_COUNTER_ID];
        return a;
    case PMT_REG_PMUSERENR_EL0:
        if ((a = check_access(pe, EL0_USERENR, false, 0, -1)) == PMT_ACCESS_OK)
            *value = r->userenr;
        return a;
    case PMT_REG_PMMIR_EL1:
        if (!pe_have_pmu(pe, PMT_PMUV3P4))
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, false, 0, -1)) == PMT_ACCESS_OK)
            *value = pe->cfg.pmmir;
        return a;
    case PMT_REG_PMUACR_EL1:
        if (!pe_have_pmu(pe, PMT_PMUV3P9))
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, false, TRAP_ENPM2, -1)) == PMT_ACCESS_OK)
            *value = r->uacr;
        return a;
    case PMT_REG_PMECR_EL1:
        if (!pe->cfg.feat_ebep && !pe->cfg.feat_ss)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, false, TRAP_ENPM2, -1)) == PMT_ACCESS_OK)
            *value = r->pmecr;
        return a;
    case PMT_REG_PMIAR_EL1:
        if (!pe->cfg.feat_sebep)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, false, TRAP_ENPM2, -1)) == PMT_ACCESS_OK)
            *value = r->pmiar;
        return a;
    case PMT_REG_PMEVCNTR_EL0:
    case PMT_REG_PMXEVCNTR_EL0:
        if ((a = counter_access(pe, reg, false, &idx)) == PMT_ACCESS_OK)
            *value = el0_uen_hidden(pe, (unsigned)idx) ? 0 : r->cnt[idx];
        return a;
    case PMT_REG_PMEVTYPER_EL0:
    case PMT_REG_PMXEVTYPER_EL0:
        if ((a = counter_access(pe, reg, false, &idx)) == PMT_ACCESS_OK)
            *value = el0_uen_hidden(pe, (unsigned)idx) ? 0 : r->typer[idx];
        return a;
    default: return PMT_ACCESS_NOT_MINE;
    }
}

pmt_access pmu_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t v)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    pmt_access a;
    int idx = -1;
    bool set;
    enum el0_gate gate;
    pmu_flush(pe);
    uint64_t *set_clear = set_clear_state(pe, reg.id, &set, &gate);
    if (set_clear) {
        if ((a = check_access(pe, gate, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        uint64_t m = v & write_mask(pe);
        *set_clear = set ? *set_clear | m : *set_clear & ~m;
        pmu_update(pe);
        return PMT_ACCESS_OK;
    }
    switch (reg.id) {
    case PMT_REG_PMCR_EL0:
        if ((a = check_access(pe, EL0_PMCR, true, TRAP_TPMCR, -1)) != PMT_ACCESS_OK)
            return a;
        r->pmcr = v & pmcr_write_mask(pe);
        pmcr_reset_counters(pe, v);
        break;
    case PMT_REG_PMSWINC_EL0:
        if ((a = check_access(pe, EL0_SWINC, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        sw_increment(pe, v);
        break;
    case PMT_REG_PMZR_EL0: {
        if (!pe_have_pmu(pe, PMT_PMUV3P9))
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_EN, true, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        uint64_t m = v & write_mask(pe) & pe->impl_mask;
        for (; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m);
            if (i >= PMT_CYCLE_COUNTER_ID || pmu_counter_range(pe, i) != PMU_R3)
                r->cnt[i] = 0;
        }
        break;
    }
    case PMT_REG_PMSELR_EL0:
        if ((a = check_access(pe, EL0_SELR, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        r->selr = v & PMT_MASK(PMSELR, SEL);
        break;
    case PMT_REG_PMCEID0_EL0:
    case PMT_REG_PMCEID1_EL0:
    case PMT_REG_PMMIR_EL1: return PMT_ACCESS_UNDEFINED; /* read-only */
    case PMT_REG_PMCCNTR_EL0:
        if ((a = check_access(pe, EL0_CCNTR, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        if (write_mask(pe) >> PMT_CYCLE_COUNTER_ID & 1)
            r->cnt[PMT_CYCLE_COUNTER_ID] = v;
        break;
    case PMT_REG_PMCCFILTR_EL0:
        if ((a = check_access(pe, EL0_EN, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        if (!el0_uen_hidden(pe, PMT_CYCLE_COUNTER_ID))
            r->typer[PMT_CYCLE_COUNTER_ID] = v & typer_write_mask(pe, PMT_CYCLE_COUNTER_ID);
        break;
    case PMT_REG_PMICNTR_EL0:
    case PMT_REG_PMICFILTR_EL0:
        if (!pe->cfg.feat_icntr)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UEN, true, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        if (!(write_mask(pe) >> PMT_INSTRUCTION_COUNTER_ID & 1))
            break;
        if (reg.id == PMT_REG_PMICNTR_EL0)
            r->cnt[PMT_INSTRUCTION_COUNTER_ID] = v;
        else
            r->typer[PMT_INSTRUCTION_COUNTER_ID] =
                v & typer_write_mask(pe, PMT_INSTRUCTION_COUNTER_ID);
        break;
    case PMT_REG_PMUSERENR_EL0: {
        if ((a = check_access(pe, EL0_USERENR, true, 0, -1)) != PMT_ACCESS_OK)
            return a;
        uint64_t m = PMT_MASK(PMUSERENR, EN) | PMT_MASK(PMUSERENR, SW) | PMT_MASK(PMUSERENR, CR) |
                     PMT_MASK(PMUSERENR, ER);
        if (pe_have_pmu(pe, PMT_PMUV3P9))
            m |= PMT_MASK(PMUSERENR, UEN) | PMT_MASK(PMUSERENR, TID);
        if (pe->cfg.feat_icntr)
            m |= PMT_MASK(PMUSERENR, IR);
        r->userenr = v & m;
        break;
    }
    case PMT_REG_PMUACR_EL1:
        if (!pe_have_pmu(pe, PMT_PMUV3P9))
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, true, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        r->uacr = v & pe->impl_mask;
        break;
    case PMT_REG_PMECR_EL1:
        if (!pe->cfg.feat_ebep && !pe->cfg.feat_ss)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, true, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        r->pmecr = v & pmu_pmecr_write_mask(pe);
        if (pe->cfg.feat_ebep && (PMT_GET(PMECR, PMEE, v) == 1 || PMT_GET(PMECR, PMEE, v) == 2))
            pe_log(pe,
                   "PMECR_EL1.PMEE = %u is reserved: CONSTRAINED UNPREDICTABLE "
                   "(Unpredictable_RESPMEE, EffectivePMEE), %s (reserved_pmecr_pmee)",
                   (unsigned)PMT_GET(PMECR, PMEE, v),
                   pmu_reserved_pmee_behaviour(pe->cfg.reserved_pmecr_pmee));
        if (pe->cfg.feat_ss && PMT_GET(PMECR, SSE, v) == 1)
            pe_log(pe,
                   "PMECR_EL1.SSE = 1 is reserved: CONSTRAINED UNPREDICTABLE "
                   "(Unpredictable_RESPMSSE), behaves as %s (reserved_pmecr_sse)",
                   pe->cfg.reserved_pmecr_sse == PMT_RESPMSSE_AS_10   ? "0b10 (enabled, prohibited)"
                   : pe->cfg.reserved_pmecr_sse == PMT_RESPMSSE_AS_11 ? "0b11 (enabled, allowed)"
                                                                      : "0b00 (Capture disabled)");
        break;
    case PMT_REG_PMIAR_EL1: {
        if (!pe->cfg.feat_sebep)
            return PMT_ACCESS_UNDEFINED;
        if ((a = check_access(pe, EL0_UNDEF, true, TRAP_ENPM2, -1)) != PMT_ACCESS_OK)
            return a;
        /* ADDRESS[63:P] is RESS (stored as copies of bit P-1), ADDRESS[1:0] is RES0. */
        unsigned p = pe->cfg.va_bits;
        uint64_t low = v & ((UINT64_C(1) << p) - 1) & ~UINT64_C(3);
        r->pmiar = (v >> (p - 1) & 1) ? low | ~((UINT64_C(1) << p) - 1) : low;
        break;
    }
    case PMT_REG_PMEVCNTR_EL0:
    case PMT_REG_PMXEVCNTR_EL0:
        if ((a = counter_access(pe, reg, true, &idx)) != PMT_ACCESS_OK)
            return a;
        if (write_mask(pe) >> idx & 1)
            r->cnt[idx] = pe_have_pmu(pe, PMT_PMUV3P5) ? v : v & UINT32_MAX;
        break;
    case PMT_REG_PMEVTYPER_EL0:
    case PMT_REG_PMXEVTYPER_EL0:
        if ((a = counter_access(pe, reg, true, &idx)) != PMT_ACCESS_OK)
            return a;
        if (!el0_uen_hidden(pe, (unsigned)idx))
            r->typer[idx] = v & typer_write_mask(pe, (unsigned)idx);
        break;
    default: return PMT_ACCESS_NOT_MINE;
    }
    pmu_update(pe);
    return PMT_ACCESS_OK;
}

void pmu_reset(pmt_pe *pe)
{
    /* Cold reset. Fields whose reset value is architecturally UNKNOWN reset to 0 (a documented
     * choice); PMCR_EL0.E, MDCR_EL2.HPMN = N and PMCCR.EPMN = N have defined values. */
    pe->st.pmu = (struct pmt_pmu_regs){0};
    pe->st.pmu.pmccr = PMT_PUT(PMCCR, EPMN, pe->cfg.num_counters);
    pe->st.pmu.pmsscr = PMT_MASK(PMSSCR, NC); /* no capture yet */
    pe->counted = 0;
    pe->overflowed = 0;
    pe->before_valid = false;
}
