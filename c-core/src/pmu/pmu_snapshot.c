/*
 * pmu_snapshot.c - PMU snapshots (FEAT_PMUv3_SS, D13.9): Capture events from PMSSCR_EL1.SS and
 * the external request, whether they are enabled and allowed (PMUCaptureEventEnabled,
 * PMUCaptureEventAllowed), the capture itself (PMUCaptureEvent), and the snapshot registers
 * PMSSCR_EL1, PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1 and PMICNTSVR_EL1 through MRS and MSR.
 */
#include "pmtrace/pmt_pmu_snapshot.h"

#include "../pe_internal.h"
#include "pmtrace/pmt_events.h"

#define MDCR2(f) PMT_GET(MDCR_EL2, f, pe->st.mdcr_el2)
#define MDCR3(f) PMT_GET(MDCR_EL3, f, pe->st.mdcr_el3)

/* PMECR_EL1.SSE: the reserved 0b01 is CONSTRAINED UNPREDICTABLE (Unpredictable_RESPMSSE);
 * reserved_pmecr_sse picks Constraint_DISABLED, 0b00, or a non-reserved value
 * (docs/choices.md). */
static unsigned effective_sse(const pmt_pe *pe)
{
    unsigned sse = (unsigned)PMT_GET(PMECR, SSE, pe->st.pmu.pmecr);
    if (sse != 1)
        return sse;
    switch (pe->cfg.reserved_pmecr_sse) {
    case PMT_RESPMSSE_AS_10: return 2;
    case PMT_RESPMSSE_AS_11: return 3;
    default: return 0;
    }
}

/* The control that decides (Table D13-10): MDCR_EL3.PMSSE unless it defers with 0b01, then
 * MDCR_EL2.PMSSE (even when EL2 is disabled in the current Security state) unless it defers,
 * then PMECR_EL1.SSE. */
static unsigned deciding_pmsse(const pmt_pe *pe)
{
    if (pe->cfg.have_el3 && MDCR3(PMSSE) != 1)
        return (unsigned)MDCR3(PMSSE);
    if (pe->cfg.have_el2 && MDCR2(PMSSE) != 1)
        return (unsigned)MDCR2(PMSSE);
    return effective_sse(pe);
}

/* RYWLFL (PMUCaptureEventEnabled): 0b1x enables. */
static bool capture_enabled(const pmt_pe *pe)
{
    return pe->cfg.feat_ss && deciding_pmsse(pe) >= 2;
}

/* RTSYTY (PMUCaptureEventAllowed): 0b11, the OS Lock unlocked, and Non-debug state unless the
 * PE allows Capture events in Debug state (IMPLEMENTATION DEFINED: capture_in_debug). */
static bool capture_allowed(const pmt_pe *pe)
{
    if (!capture_enabled(pe) || pe->st.pe.os_lock)
        return false;
    if (pe->st.pe.debug && !pe->cfg.capture_in_debug)
        return false;
    return deciding_pmsse(pe) == 3;
}

/* PMUCaptureEvent. */
static void capture(pmt_pe *pe)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    if (!capture_allowed(pe)) {
        /* Prohibited: the snapshot registers are unchanged; {NC, SS} = {1, 0}. */
        r->pmsscr = PMT_MASK(PMSSCR, NC);
        return;
    }
    pmu_flush(pe);
    for (unsigned idx = 0; idx < pe->cfg.num_counters; idx++)
        r->svr[idx] = r->cnt[idx];
    r->svr[PMT_CYCLE_COUNTER_ID] = r->cnt[PMT_CYCLE_COUNTER_ID];
    if (pe->cfg.feat_icntr)
        r->svr[PMT_INSTRUCTION_COUNTER_ID] = r->cnt[PMT_INSTRUCTION_COUNTER_ID];
    /* With FEAT_PCSRv8p9 and PMPCSCTL.SS: a PC sample, before {NC, SS} are set (D13.9). */
    pcs_capture_on_snapshot(pe);
    /* RLBQZR: a BRBE freeze event when BRBCR_ELx.FZPSS say so (the BRBE decides). */
    if (pe->cfg.feat_brbe && pe->cb.brbe_capture_freeze)
        pe->cb.brbe_capture_freeze(pe->cb.user);
    r->pmsscr = 0; /* {NC, SS} = {0, 0}: captured */
    /* PMU_SNAPSHOT after the counters were captured; in Debug state it is CONSTRAINED
     * UNPREDICTABLE, and not generated here (counting is disabled there anyway, D13.10). */
    if (!pe->st.pe.debug)
        pmu_increment(pe, PMT_EV_PMU_SNAPSHOT, 1, -1);
    pmu_update(pe);
}

/* RSCLCQ: a write of 1 to PMSSCR_EL1.SS, direct or through the external request, generates a
 * Capture event when Capture events are enabled and the Core power domain is on. */
static void request(pmt_pe *pe)
{
    if (capture_enabled(pe) && !pe->st.pe.powered_down)
        capture(pe);
}

pmt_status pmt_pmu_snapshot_request(pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (!pe->cfg.feat_ss) {
        pe_log(pe, "snapshot request: FEAT_PMUv3_SS is not implemented");
        return PMT_ERR_NOT_IMPLEMENTED;
    }
    request(pe);
    return PMT_OK;
}

pmt_status pmt_pmu_snapshot_get(const pmt_pe *pe, pmt_pmu_snapshot *snapshot)
{
    if (!pe || !snapshot)
        return PMT_ERR_NULL;
    const struct pmt_pmu_regs *r = &pe->st.pmu;
    for (unsigned i = 0; i < PMT_MAX_EVENT_COUNTERS; i++)
        snapshot->pmevcntsvr[i] = i < pe->cfg.num_counters ? r->svr[i] : 0;
    snapshot->pmccntsvr = r->svr[PMT_CYCLE_COUNTER_ID];
    snapshot->pmicntsvr = pe->cfg.feat_icntr ? r->svr[PMT_INSTRUCTION_COUNTER_ID] : 0;
    snapshot->pmsscr = r->pmsscr;
    snapshot->enabled = capture_enabled(pe);
    snapshot->allowed = capture_allowed(pe);
    return PMT_OK;
}

/* The accessibility pseudocode of the snapshot registers: UNDEFINED at EL0, MDCR_EL3.EnPMSS
 * traps EL1 and EL2 to EL3; for PMEVCNTSVR<n> an n the guest may not see traps to EL2. */
static pmt_access check_access(const pmt_pe *pe, int counter)
{
    if (pe->accessor != PE_SELF_HOSTED)
        return PMT_ACCESS_OK;
    unsigned el = pe->st.pe.el;
    if (el == 0)
        return PMT_ACCESS_UNDEFINED;
    if (el == 1 && pe->st.pe.el2_enabled && counter >= 0 &&
        (unsigned)counter >= pmu_counters_accessible(pe))
        return PMT_ACCESS_TRAP_EL2;
    if (el <= 2 && pe->cfg.have_el3 && !MDCR3(EnPMSS))
        return PMT_ACCESS_TRAP_EL3;
    return PMT_ACCESS_OK;
}

/* The counter id a saved-value register reads; -1 for PMSSCR_EL1, -2 for none of them. */
static int saved_counter(const pmt_pe *pe, pmt_reg_ref reg)
{
    switch (reg.id) {
    case PMT_REG_PMEVCNTSVR_EL1: return (int)reg.index;
    case PMT_REG_PMCCNTSVR_EL1: return PMT_CYCLE_COUNTER_ID;
    case PMT_REG_PMICNTSVR_EL1: return pe->cfg.feat_icntr ? PMT_INSTRUCTION_COUNTER_ID : -2;
    case PMT_REG_PMSSCR_EL1: return -1;
    default: return -2;
    }
}

pmt_access pmu_snapshot_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    bool ours = reg.id == PMT_REG_PMEVCNTSVR_EL1 || reg.id == PMT_REG_PMCCNTSVR_EL1 ||
                reg.id == PMT_REG_PMICNTSVR_EL1 || reg.id == PMT_REG_PMSSCR_EL1;
    if (!ours)
        return PMT_ACCESS_NOT_MINE;
    int idx = saved_counter(pe, reg);
    if (!pe->cfg.feat_ss || idx == -2)
        return PMT_ACCESS_UNDEFINED;
    if (reg.id == PMT_REG_PMEVCNTSVR_EL1 && reg.index >= pmu_counters_selfhosted(pe) &&
        pe->accessor != PE_EXTERNAL_MOST_SECURE)
        return PMT_ACCESS_UNDEFINED;
    pmt_access a = check_access(pe, reg.id == PMT_REG_PMEVCNTSVR_EL1 ? idx : -1);
    if (a == PMT_ACCESS_OK)
        *value = idx < 0 ? pe->st.pmu.pmsscr : pe->st.pmu.svr[idx];
    return a;
}

pmt_access pmu_snapshot_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value)
{
    if (reg.id == PMT_REG_PMEVCNTSVR_EL1 || reg.id == PMT_REG_PMCCNTSVR_EL1 ||
        reg.id == PMT_REG_PMICNTSVR_EL1)
        return PMT_ACCESS_UNDEFINED; /* the saved-value registers have no MSR encoding */
    if (reg.id != PMT_REG_PMSSCR_EL1)
        return PMT_ACCESS_NOT_MINE;
    if (!pe->cfg.feat_ss)
        return PMT_ACCESS_UNDEFINED;
    pmt_access a = check_access(pe, -1);
    if (a != PMT_ACCESS_OK)
        return a;
    struct pmt_pmu_regs *r = &pe->st.pmu;
    /* NC is written as given; SS ignores 0, and ignores 1 too while Capture events are
     * disabled (RMFJWS). */
    r->pmsscr = (r->pmsscr & ~PMT_MASK(PMSSCR, NC)) | (value & PMT_MASK(PMSSCR, NC));
    if (PMT_GET(PMSSCR, SS, value))
        request(pe);
    return PMT_ACCESS_OK;
}
