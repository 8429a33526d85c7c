/*
 * pmu_exception.c - the PMU Profiling exception (FEAT_EBEP, D13.3.2) and its synchronous form
 * (FEAT_SEBEP, D13.3.3): whether it is enabled, where it goes, whether it is masked, when it is
 * pending, and PSTATE.PPEND with PMIAR_EL1 across instructions, exception entry and return and
 * Debug state. A transcription of PMUExceptionEnabled, EffectivePMEE, PMUExceptionMasked,
 * PMUInterruptEnabled, CheckForPMUException and ExceptionReturnPPEND (J1.1).
 */
#include "pmtrace/pmt_pmu_exception.h"

#include "../pe_internal.h"
#include "pmtrace/pmt_events.h"

#include <string.h>

#define MDCR2(f) PMT_GET(MDCR_EL2, f, pe->st.mdcr_el2)
#define MDCR3(f) PMT_GET(MDCR_EL3, f, pe->st.mdcr_el3)

uint64_t pmu_pmecr_write_mask(const pmt_pe *pe)
{
    uint64_t m = 0;
    if (pe->cfg.feat_ebep)
        m |= PMT_MASK(PMECR, PMEE) | PMT_MASK(PMECR, KPME);
    if (pe->cfg.feat_ss)
        m |= PMT_MASK(PMECR, SSE);
    return m;
}

/* EffectivePMEE: the reserved encodings ('10' in MDCR_ELx, '01' and '10' in PMECR_EL1) are
 * CONSTRAINED UNPREDICTABLE (Unpredictable_RESPMEE); the configured reserved_*_pmee picks
 * Constraint_DISABLED (both the exception and PMUIRQ disabled, the "Dis" rows of Table D13-1)
 * or a non-reserved value (docs/choices.md). */
static unsigned effective_pmee(const pmt_pe *pe, unsigned el, bool for_interrupt)
{
    unsigned val = el == 3   ? (unsigned)MDCR3(PMEE)
                   : el == 2 ? (unsigned)MDCR2(PMEE)
                             : (unsigned)PMT_GET(PMECR, PMEE, pe->st.pmu.pmecr);
    if (val == 2 || (el == 1 && val == 1)) {
        pmt_reserved_pmee c = el == 3   ? pe->cfg.reserved_mdcr_el3_pmee
                              : el == 2 ? pe->cfg.reserved_mdcr_el2_pmee
                                        : pe->cfg.reserved_pmecr_pmee;
        switch (c) {
        case PMT_RESPMEE_AS_00: val = 0; break;
        case PMT_RESPMEE_AS_01: val = 1; break;
        case PMT_RESPMEE_AS_11: val = 3; break;
        default: val = for_interrupt ? 3 : 0; break; /* Constraint_DISABLED */
        }
    }
    return val;
}

/* The log line's words for what a reserved PMEE value behaves as. */
const char *pmu_reserved_pmee_behaviour(pmt_reserved_pmee c)
{
    switch (c) {
    case PMT_RESPMEE_AS_00: return "behaves as 0b00 (PMUIRQ, no exception)";
    case PMT_RESPMEE_AS_01: return "behaves as 0b01 (the lower control decides)";
    case PMT_RESPMEE_AS_11: return "behaves as 0b11 (the exception, no PMUIRQ)";
    default: return "Constraint_DISABLED: neither the exception nor PMUIRQ";
    }
}

/* RGWLVY (PMUExceptionEnabled). */
bool pmu_exception_enabled(const pmt_pe *pe, unsigned *target_el)
{
    if (!pe->cfg.feat_ebep)
        return false;
    const pmt_pe_state *s = &pe->st.pe;
    bool enabled;
    unsigned target;
    unsigned pmee3 = effective_pmee(pe, 3, false), pmee2 = effective_pmee(pe, 2, false);
    if (pe->cfg.have_el3 && pmee3 != 1) {
        enabled = pmee3 == 3;
        target = 3;
    } else if (s->el2_enabled && pmee2 != 1) {
        enabled = pmee2 == 3;
        target = 2;
    } else {
        enabled = effective_pmee(pe, 1, false) == 3;
        target = s->el2_enabled && s->hcr_tge ? 2 : 1;
    }
    if (target_el)
        *target_el = target;
    return enabled;
}

/* RSCBDZ (PMUExceptionMasked). */
bool pmu_exception_masked(const pmt_pe *pe, unsigned target_el, unsigned from_el, bool pm,
                          bool halted)
{
    if (halted)
        return true;
    if (target_el < from_el)
        return true;
    if (from_el == 2 && target_el == 2 && effective_pmee(pe, 2, false) != 3)
        return true;
    if (target_el == from_el && (!PMT_GET(PMECR, KPME, pe->st.pmu.pmecr) || pm))
        return true;
    return false;
}

/* IPFDLQ (PMUInterruptEnabled): enabling the exception disables PMUIRQ. */
bool pmu_interrupt_enabled(const pmt_pe *pe)
{
    if (!pe->cfg.feat_ebep)
        return true;
    unsigned pmee3 = effective_pmee(pe, 3, true), pmee2 = effective_pmee(pe, 2, true);
    if (pe->cfg.have_el3 && pmee3 != 1)
        return pmee3 == 0;
    if (pe->st.pe.el2_enabled && pmee2 != 1)
        return pmee2 == 0;
    return effective_pmee(pe, 1, true) == 0;
}

/* Enabled and unmasked at the current PE state; the target in *target_el. */
static bool exception_unmasked(const pmt_pe *pe, unsigned *target_el)
{
    unsigned target = 0;
    bool enabled = pmu_exception_enabled(pe, &target);
    if (target_el)
        *target_el = target;
    const pmt_pe_state *s = &pe->st.pe;
    return enabled && !pmu_exception_masked(pe, target, s->el, s->pm, s->debug);
}

/* RKBPMJ: the asynchronous exception is pending. Re-evaluated at every change of state, so that
 * RHFTPJ and RDKCTL hold: the output rises as soon as the conditions hold. */
void pmu_exception_update(pmt_pe *pe)
{
    unsigned target = 0;
    bool pending = exception_unmasked(pe, &target) &&
                   pmu_overflow_condition(pe, PMU_OVF_PMU_EXCEPTION, true, true, true);
    if (!pending)
        target = pe->exc_target; /* the target is only meaningful while pending */
    if (pending == pe->exc_pending && target == pe->exc_target)
        return;
    pe->exc_pending = pending;
    pe->exc_target = target;
    if (pe->cb.pmu_exception)
        pe->cb.pmu_exception(pe->cb.user, pending, target);
}

/* ---- FEAT_SEBEP ---------------------------------------------------------------------------- */

/* RXLMVX: which events are synchronous events is IMPLEMENTATION DEFINED (the config). */
void pmu_sync_init(pmt_pe *pe)
{
    memset(pe->sync_event, 0, sizeof pe->sync_event);
    if (pe->cfg.sync_events == PMT_SYNC_EVENTS_LIST) {
        for (unsigned i = 0; i < pe->cfg.num_sync_events; i++) {
            uint16_t e = pe->cfg.sync_event_list[i];
            pe->sync_event[e >> 3] |= (uint8_t)(1u << (e & 7));
        }
        return;
    }
    for (size_t i = 0; i < pmt_event_table_size(); i++) {
        const pmt_event_info *ev = pmt_event_at(i);
        if (ev->flags & PMT_EVENT_SYNC_CAPABLE)
            pe->sync_event[ev->number >> 3] |= (uint8_t)(1u << (ev->number & 7));
    }
}

bool pmu_sync_event(const pmt_pe *pe, uint16_t event)
{
    return pe->sync_event[event >> 3] >> (event & 7) & 1;
}

/* RSSVKV, RFCXWT: the Effective SYNC is 1 and, for an event counter, its event is a synchronous
 * event. The cycle counter has no synchronous mode. */
bool pmu_sync_mode(const pmt_pe *pe, unsigned idx)
{
    if (!pe->cfg.feat_sebep || idx == PMT_CYCLE_COUNTER_ID || !(pe->impl_mask >> idx & 1))
        return false;
    uint64_t typer = pe->st.pmu.typer[idx];
    if (!PMT_GET(PMEVTYPER, SYNC, typer))
        return false;
    return idx == PMT_INSTRUCTION_COUNTER_ID ||
           pmu_sync_event(pe, (uint16_t)PMT_GET(PMEVTYPER, evtCount, typer));
}

/* The conditions of RNZLVW that an instruction can change (RMQDPX), now. */
static struct pmu_sync_conditions sync_conditions(const pmt_pe *pe)
{
    struct pmu_sync_conditions c = {0, pe->st.pmu.ovs, exception_unmasked(pe, NULL)};
    for (uint64_t m = pe->st.pmu.inten & pe->impl_mask; m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctzll(m);
        if (pmu_global_enable(pe, idx) && (pe->st.pmu.cnten >> idx & 1) && pmu_sync_mode(pe, idx))
            c.eligible |= UINT64_C(1) << idx;
    }
    return c;
}

/* RNZLVW with PMOVSSET_EL0[n] already 1 (IHMXCY): while the exception is enabled and unmasked,
 * the next instruction that generates an event counted by an eligible counter n sets
 * PSTATE.PPEND and PMIAR_EL1 (something visible): pmt_pmu_headroom is 1 for that event. */
uint64_t pmu_sync_armed(const pmt_pe *pe)
{
    if (!pe->cfg.feat_sebep)
        return 0;
    struct pmu_sync_conditions c = sync_conditions(pe);
    return c.unmasked ? c.eligible & c.ovs : 0;
}

void pmu_sync_before_change(pmt_pe *pe)
{
    if (!pe->cfg.feat_sebep || pe->cfg.sync_values != PMT_SYNC_VALUES_BEFORE || pe->before_valid)
        return;
    pmu_flush(pe);
    pe->before = sync_conditions(pe);
    pe->before_valid = true;
}

static pmt_pmu_exception_state exception_state(const pmt_pe *pe)
{
    pmt_pmu_exception_state st;
    memset(&st, 0, sizeof st);
    unsigned target = 0;
    st.enabled = pmu_exception_enabled(pe, &target);
    st.target_el = (uint8_t)target;
    st.masked =
        st.enabled && pmu_exception_masked(pe, target, pe->st.pe.el, pe->st.pe.pm, pe->st.pe.debug);
    st.irq_enabled = pmu_interrupt_enabled(pe);
    st.pending = pe->exc_pending;
    st.ppend = pe->st.pmu.ppend;
    st.sync_due = pe->cfg.feat_sebep && st.ppend && st.enabled && !st.masked;
    return st;
}

pmt_status pmt_pmu_exception_get(const pmt_pe *pe, pmt_pmu_exception_state *state)
{
    if (!pe || !state)
        return PMT_ERR_NULL;
    *state = exception_state(pe);
    return PMT_OK;
}

bool pmt_pmu_sync_exception_due(const pmt_pe *pe)
{
    return pe && exception_state(pe).sync_due;
}

/* The end of an instruction: RNZLVW sets PSTATE.PPEND and PMIAR_EL1, or PPEND is cleared
 * (ShouldSetPPEND). `masked` forces the exception to count as masked (the exception return that
 * unmasks it, RMQDPX). */
static void end_instruction(pmt_pe *pe, uint64_t address, bool generates_exception, bool masked)
{
    pmu_flush(pe);
    struct pmu_sync_conditions c = sync_conditions(pe);
    if (pe->cfg.sync_values == PMT_SYNC_VALUES_BEFORE && pe->before_valid) {
        c = pe->before;
        c.ovs |= pe->overflowed; /* the overflow's own write of PMOVSSET counts (RMQDPX) */
    }
    bool hit =
        !generates_exception && !masked && c.unmasked && (pe->counted & c.eligible & c.ovs) != 0;
    pe->st.pmu.ppend = hit;
    if (hit)
        pe->st.pmu.pmiar = address & ~UINT64_C(3);
    pe->counted = 0;
    pe->overflowed = 0;
    pe->before_valid = false;
}

static pmt_status need_sebep(const pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (!pe->cfg.feat_sebep) {
        pe_log(pe, "PSTATE.PPEND: FEAT_SEBEP is not implemented");
        return PMT_ERR_NOT_IMPLEMENTED;
    }
    return PMT_OK;
}

pmt_status pmt_pmu_retire(pmt_pe *pe, uint64_t address, bool generates_exception, bool *sync_due)
{
    pmt_status st = need_sebep(pe);
    if (sync_due)
        *sync_due = false;
    if (st != PMT_OK)
        return st;
    end_instruction(pe, address, generates_exception, false);
    if (sync_due)
        *sync_due = pmt_pmu_sync_exception_due(pe);
    return PMT_OK;
}

/* Applies a new PE state given with an exception entry or return (NULL: none). */
static pmt_status apply_state(pmt_pe *pe, const pmt_pe_state *after)
{
    return after ? pmt_pe_set_state(pe, after) : PMT_OK;
}

/* RBVBYS: exception entry. In Debug state PPEND is cleared and SPSR is UNKNOWN (0 here). */
pmt_status pmt_pmu_exception_entry(pmt_pe *pe, const pmt_pe_state *after, bool *spsr_ppend)
{
    pmt_status st = need_sebep(pe);
    if (spsr_ppend)
        *spsr_ppend = false;
    if (st != PMT_OK)
        return st;
    pmu_sync_before_change(pe);
    if (spsr_ppend)
        *spsr_ppend = pe->st.pmu.ppend && !pe->st.pe.debug;
    pe->st.pmu.ppend = false;
    pe->counted = 0; /* ShouldSetPPEND = FALSE: the instruction no longer sets PPEND */
    pe->overflowed = 0;
    pe->before_valid = false;
    return apply_state(pe, after);
}

/* ExceptionReturnPPEND and Table D13-2. */
pmt_status pmt_pmu_exception_return(pmt_pe *pe, bool spsr_ppend, const pmt_pe_state *after,
                                    uint64_t address, bool *sync_due)
{
    pmt_status st = need_sebep(pe);
    if (sync_due)
        *sync_due = false;
    if (st != PMT_OK)
        return st;
    if (!after) {
        pe_log(pe, "pmt_pmu_exception_return: the state after the return is needed");
        return PMT_ERR_NULL;
    }
    pmu_sync_before_change(pe);
    const pmt_pe_state *s = &pe->st.pe;
    unsigned target = 0;
    bool enabled = pmu_exception_enabled(pe, &target);
    bool masked_src = pmu_exception_masked(pe, target, s->el, s->pm, s->debug);
    bool masked_dst = pmu_exception_masked(pe, target, after->el, after->pm, s->debug);
    if ((st = apply_state(pe, after)) != PMT_OK)
        return st;
    if (enabled && masked_src && !masked_dst) {
        /* Case 2: PPEND from SPSR_ELx.PPEND; RNZLVW treats the exception as masked for this
         * instruction (RMQDPX), and PPEND is not changed again by it. */
        end_instruction(pe, address, false, true);
        pe->st.pmu.ppend = spsr_ppend;
    } else {
        end_instruction(pe, address, false, false); /* cases 1, 3 and 4 */
    }
    if (sync_due)
        *sync_due = pmt_pmu_sync_exception_due(pe);
    return PMT_OK;
}

pmt_status pmt_pmu_debug_entry(pmt_pe *pe, bool aarch32, const pmt_pe_state *after,
                               bool *dspsr_ppend)
{
    pmt_status st = need_sebep(pe);
    if (dspsr_ppend)
        *dspsr_ppend = false;
    if (st != PMT_OK)
        return st;
    /* DSPSR_EL0[33] (AArch64) or DSPSR2[1] (AArch32) takes PPEND; PPEND becomes 0 (AArch32:
     * UNKNOWN, 0 here). */
    (void)aarch32;
    if (dspsr_ppend)
        *dspsr_ppend = pe->st.pmu.ppend;
    pe->st.pmu.ppend = false;
    pe->counted = 0;
    pe->overflowed = 0;
    pe->before_valid = false;
    return apply_state(pe, after);
}

pmt_status pmt_pmu_debug_exit(pmt_pe *pe, bool aarch32, bool dspsr_ppend, const pmt_pe_state *after)
{
    pmt_status st = need_sebep(pe);
    if (st != PMT_OK)
        return st;
    if (!after) {
        pe_log(pe, "pmt_pmu_debug_exit: the state after the exit is needed");
        return PMT_ERR_NULL;
    }
    if ((st = apply_state(pe, after)) != PMT_OK)
        return st;
    unsigned target = 0;
    bool enabled = pmu_exception_enabled(pe, &target);
    bool restore;
    if (aarch32) /* exit to EL0 in AArch32: only the enable matters */
        restore = enabled;
    else /* unmasked in Non-debug state after the exit (RSCBDZ) */
        restore = enabled && !pmu_exception_masked(pe, target, after->el, after->pm, false);
    pe->st.pmu.ppend = restore && dspsr_ppend;
    pe->counted = 0;
    pe->overflowed = 0;
    pe->before_valid = false;
    return PMT_OK;
}
