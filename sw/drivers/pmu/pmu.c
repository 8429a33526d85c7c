/*
 * pmu.c - the arm_pmuv3 driver (pmu.h). Function names in comments are Linux's.
 */
#include "pmu.h"

#include "../gic/gicv3.h"

#include <string.h>

/* arm_pmuv3.h: the event type filter bits Linux programs (positions from pmt_regs.h). */
#define EXCLUDE_EL1   PMT_MASK(PMEVTYPER, P)
#define EXCLUDE_EL0   PMT_MASK(PMEVTYPER, U)
#define INCLUDE_EL2   PMT_MASK(PMEVTYPER, NSH)
#define EVTYPE_EVENT  PMT_MASK(PMEVTYPER, evtCount)
#define EVTYPE_MASK   (EVTYPE_EVENT | INCLUDE_EL2 | EXCLUDE_EL0 | EXCLUDE_EL1)
#define PMCR_MASK     UINT64_C(0xFF) /* ARMV8_PMU_PMCR_MASK: E .. LP */
#define GENMASK32     UINT64_C(0xFFFFFFFF)
#define BIT(n)        (UINT64_C(1) << (n))
#define OVERFLOW_MASK (GENMASK32 | BIT(SW_PMU_INSTR_IDX)) /* ARMV8_PMU_OVERFLOWED_MASK */

/* ---- register access ---------------------------------------------------------------------- */

static void note(sw_pmu *pmu, hal_sysreg reg, hal_status s)
{
    if (s != HAL_OK && pmu->err == HAL_OK) {
        pmu->err = s;
        pmu->err_reg = reg;
    }
}

static uint64_t rd(sw_pmu *pmu, hal_sysreg reg)
{
    uint64_t v = 0;
    note(pmu, reg, hal_sysreg_read(pmu->h, reg, &v));
    return v;
}

static void wr(sw_pmu *pmu, hal_sysreg reg, uint64_t v)
{
    note(pmu, reg, hal_sysreg_write(pmu->h, reg, v));
}

static void isb(sw_pmu *pmu)
{
    hal_isb(pmu->h);
}

/* armv8pmu_pmcr_read / armv8pmu_pmcr_write */
static uint64_t pmcr_read(sw_pmu *pmu)
{
    return rd(pmu, HAL_PMCR_EL0);
}

static void pmcr_write(sw_pmu *pmu, uint64_t val)
{
    val &= PMCR_MASK;
    isb(pmu);
    wr(pmu, HAL_PMCR_EL0, val);
}

/* armv8pmu_disable_counter / armv8pmu_enable_counter */
static void disable_counter(sw_pmu *pmu, uint64_t mask)
{
    wr(pmu, HAL_PMCNTENCLR_EL0, mask);
    /* Make sure the effect of disabling the counter is visible before we start configuring the
     * event. */
    isb(pmu);
}

static void enable_counter(sw_pmu *pmu, uint64_t mask)
{
    /* Make sure event configuration register writes are visible before we enable the counter. */
    isb(pmu);
    wr(pmu, HAL_PMCNTENSET_EL0, mask);
}

/* armv8pmu_disable_intens / armv8pmu_enable_intens */
static void disable_intens(sw_pmu *pmu, uint64_t mask)
{
    wr(pmu, HAL_PMINTENCLR_EL1, mask);
    isb(pmu);
    /* Clear the overflow flag in case an interrupt is pending. */
    wr(pmu, HAL_PMOVSCLR_EL0, mask);
    isb(pmu);
}

static void enable_intens(sw_pmu *pmu, uint64_t mask)
{
    wr(pmu, HAL_PMINTENSET_EL1, mask);
}

/* ---- events --------------------------------------------------------------------------------- */

const char *sw_pmu_version_name(unsigned pmuver)
{
    switch (pmuver) {
    case SW_PMUVER_NI: return "no PMU";
    case SW_PMUVER_IMP: return "PMUv3";
    case SW_PMUVER_V3P1: return "PMUv3p1";
    case SW_PMUVER_V3P4: return "PMUv3p4";
    case SW_PMUVER_V3P5: return "PMUv3p5";
    case SW_PMUVER_V3P7: return "PMUv3p7";
    case 0x8: return "PMUv3p8";
    case 0x9: return "PMUv3p9";
    case SW_PMUVER_IMPDEF: return "IMPLEMENTATION DEFINED PMU";
    default: return "PMUv3 (later version)";
    }
}

bool sw_pmu_has_long_event(const sw_pmu *pmu)
{
    return pmu->pmuver >= SW_PMUVER_V3P5 && pmu->pmuver != SW_PMUVER_IMPDEF;
}

bool sw_pmu_event_is_chained(const sw_pmu *pmu, const sw_pmu_event *ev)
{
    return ev->is_64bit && !sw_pmu_has_long_event(pmu) && ev->idx < SW_PMU_MAX_GENERAL_COUNTERS;
}

bool sw_pmu_event_is_common(uint16_t event)
{
    return event < 0x40 || (event >= 0x4000 && event < 0x4040);
}

bool sw_pmu_event_supported(const sw_pmu *pmu, uint16_t event)
{
    if (event < 0x40)
        return pmu->pmceid_bitmap >> event & 1;
    if (event >= 0x4000 && event < 0x4040)
        return pmu->pmceid_ext_bitmap >> (event - 0x4000) & 1;
    return false;
}

/* arm_pmu_event_max_period */
static uint64_t max_period(const sw_pmu_event *ev)
{
    return ev->is_64bit ? UINT64_MAX : GENMASK32;
}

/* armv8pmu_event_needs_bias: a 32-bit event on a 64-bit counter counts from 0xFFFFFFFF_xxxxxxxx
 * so that the counter overflows (bit 63) when the 32-bit value would. */
static bool needs_bias(const sw_pmu *pmu, const sw_pmu_event *ev)
{
    if (ev->is_64bit)
        return false;
    return sw_pmu_has_long_event(pmu) || ev->idx >= SW_PMU_MAX_GENERAL_COUNTERS;
}

static uint64_t bias_long_counter(const sw_pmu *pmu, const sw_pmu_event *ev, uint64_t value)
{
    return needs_bias(pmu, ev) ? value | ~GENMASK32 : value;
}

static uint64_t unbias_long_counter(const sw_pmu *pmu, const sw_pmu_event *ev, uint64_t value)
{
    return needs_bias(pmu, ev) ? value & GENMASK32 : value;
}

/* armv8pmu_read_hw_counter / armv8pmu_read_counter */
static uint64_t read_counter(sw_pmu *pmu, const sw_pmu_event *ev)
{
    int idx = ev->idx;
    uint64_t value;
    if (idx == SW_PMU_CYCLE_IDX) {
        value = rd(pmu, HAL_PMCCNTR_EL0);
    } else if (idx == SW_PMU_INSTR_IDX) {
        value = rd(pmu, HAL_PMICNTR_EL0);
    } else {
        value = rd(pmu, hal_pmevcntr((unsigned)idx));
        if (sw_pmu_event_is_chained(pmu, ev))
            value = (value << 32) | rd(pmu, hal_pmevcntr((unsigned)idx - 1));
    }
    return unbias_long_counter(pmu, ev, value);
}

/* armv8pmu_write_hw_counter / armv8pmu_write_counter */
static void write_counter(sw_pmu *pmu, const sw_pmu_event *ev, uint64_t value)
{
    int idx = ev->idx;
    value = bias_long_counter(pmu, ev, value);
    if (idx == SW_PMU_CYCLE_IDX) {
        wr(pmu, HAL_PMCCNTR_EL0, value);
    } else if (idx == SW_PMU_INSTR_IDX) {
        wr(pmu, HAL_PMICNTR_EL0, value);
    } else if (sw_pmu_event_is_chained(pmu, ev)) {
        wr(pmu, hal_pmevcntr((unsigned)idx), value >> 32);
        wr(pmu, hal_pmevcntr((unsigned)idx - 1), value & GENMASK32);
    } else {
        wr(pmu, hal_pmevcntr((unsigned)idx), value);
    }
}

/* armv8pmu_write_evtype */
static void write_evtype(sw_pmu *pmu, int idx, uint64_t val)
{
    wr(pmu, hal_pmevtyper((unsigned)idx), val & EVTYPE_MASK);
}

/* armv8pmu_write_event_type: for a chained pair the low counter counts the event and the high
 * counter CHAIN, with the filters set to count at all ELs. */
static void write_event_type(sw_pmu *pmu, const sw_pmu_event *ev)
{
    int idx = ev->idx;
    if (sw_pmu_event_is_chained(pmu, ev)) {
        write_evtype(pmu, idx - 1, ev->config_base);
        write_evtype(pmu, idx, PMT_EV_CHAIN | INCLUDE_EL2);
    } else if (idx == SW_PMU_CYCLE_IDX) {
        wr(pmu, HAL_PMCCFILTR_EL0, ev->config_base);
    } else if (idx == SW_PMU_INSTR_IDX) {
        wr(pmu, HAL_PMICFILTR_EL0, ev->config_base);
    } else {
        write_evtype(pmu, idx, ev->config_base);
    }
}

/* armv8pmu_event_cnten_mask */
static uint64_t cnten_mask(const sw_pmu *pmu, const sw_pmu_event *ev)
{
    uint64_t mask = BIT(ev->idx);
    if (sw_pmu_event_is_chained(pmu, ev))
        mask |= BIT(ev->idx - 1);
    return mask;
}

/* armv8pmu_enable_event / armv8pmu_disable_event */
static void enable_event(sw_pmu *pmu, const sw_pmu_event *ev)
{
    write_event_type(pmu, ev);
    enable_intens(pmu, BIT(ev->idx));
    enable_counter(pmu, cnten_mask(pmu, ev));
}

static void disable_event(sw_pmu *pmu, const sw_pmu_event *ev)
{
    disable_counter(pmu, cnten_mask(pmu, ev));
    disable_intens(pmu, BIT(ev->idx));
}

/* armpmu_event_update: fold the counter's progress since prev_count into the count. */
static uint64_t event_update(sw_pmu *pmu, sw_pmu_event *ev)
{
    uint64_t prev = ev->prev_count;
    uint64_t now = read_counter(pmu, ev);
    ev->prev_count = now;
    uint64_t delta = (now - prev) & max_period(ev);
    ev->count += delta;
    ev->period_left -= (int64_t)delta;
    return now;
}

/* armpmu_event_set_period: program the counter to overflow after period_left more events. */
static bool event_set_period(sw_pmu *pmu, sw_pmu_event *ev)
{
    int64_t left = ev->period_left;
    int64_t period = (int64_t)ev->sample_period;
    uint64_t maxp = max_period(ev);
    bool ret = false;
    if (left <= -period) {
        left = period;
        ev->period_left = left;
        ev->last_period = (uint64_t)period;
        ret = true;
    }
    if (left <= 0) {
        left += period;
        ev->period_left = left;
        ev->last_period = (uint64_t)period;
        ret = true;
    }
    /* Limit the maximum period to prevent the counter value from overtaking the one we are about
     * to program. */
    if ((uint64_t)left > (maxp >> 1))
        left = (int64_t)(maxp >> 1);
    ev->prev_count = (uint64_t)-left;
    write_counter(pmu, ev, (uint64_t)-left & maxp);
    return ret;
}

/* armv8pmu_set_event_filter */
static int set_event_filter(const sw_pmu *pmu, sw_pmu_event *ev)
{
    const sw_pmu_attr *a = &ev->attr;
    uint64_t config_base = 0;
    /* If we're running in hyp mode, then we *are* the hypervisor: exclude_hv is ignored. */
    if (pmu->in_hyp) {
        if (!a->exclude_kernel && !a->exclude_host)
            config_base |= INCLUDE_EL2;
        if (a->exclude_guest)
            config_base |= EXCLUDE_EL1;
        if (a->exclude_host)
            config_base |= EXCLUDE_EL0;
    } else {
        if (!a->exclude_hv && !a->exclude_host)
            config_base |= INCLUDE_EL2;
    }
    /* Filter out !VHE kernels and guest kernels. */
    if (a->exclude_kernel)
        config_base |= EXCLUDE_EL1;
    if (a->exclude_user)
        config_base |= EXCLUDE_EL0;
    ev->config_base = config_base;
    return SW_OK;
}

int sw_pmu_event_init(sw_pmu *pmu, sw_pmu_event *ev, const sw_pmu_attr *attr)
{
    if (!pmu || !ev || !attr)
        return SW_EINVAL;
    memset(ev, 0, sizeof *ev);
    ev->attr = *attr;
    ev->idx = -1;
    ev->stopped = true;
    /* __armv8_pmuv3_map_event: CHAIN only works paired with an adjacent counter. */
    uint16_t mapping = (uint16_t)(attr->event & EVTYPE_EVENT);
    if (mapping == PMT_EV_CHAIN)
        return SW_EINVAL;
    ev->is_64bit = attr->long_counter;
    /* __hw_perf_event_init */
    int ret = set_event_filter(pmu, ev);
    if (ret)
        return ret;
    ev->config_base |= mapping;
    if (attr->sample_period == 0) {
        ev->sample_period = max_period(ev) >> 1;
        ev->last_period = ev->sample_period;
        ev->period_left = (int64_t)ev->sample_period;
    } else {
        if (attr->sample_period > (uint64_t)INT64_MAX)
            return SW_EINVAL;
        ev->sample_period = attr->sample_period;
        ev->last_period = attr->sample_period;
        ev->period_left = (int64_t)attr->sample_period;
    }
    return SW_OK;
}

static bool test_and_set(uint64_t *mask, int idx)
{
    bool was = *mask >> idx & 1;
    *mask |= BIT(idx);
    return was;
}

/* armv8pmu_get_single_idx / armv8pmu_get_chain_idx / armv8pmu_get_event_idx */
static int get_event_idx(sw_pmu *pmu, const sw_pmu_event *ev)
{
    uint64_t evtype = ev->config_base & EVTYPE_EVENT;
    /* Always prefer to place a cycle counter into the cycle counter. */
    if (evtype == PMT_EV_CPU_CYCLES && !test_and_set(&pmu->used_mask, SW_PMU_CYCLE_IDX))
        return SW_PMU_CYCLE_IDX;
    /* ... and an instruction counter into the instruction counter. */
    if (evtype == PMT_EV_INST_RETIRED && (pmu->cntr_mask >> SW_PMU_INSTR_IDX & 1) &&
        !test_and_set(&pmu->used_mask, SW_PMU_INSTR_IDX))
        return SW_PMU_INSTR_IDX;
    if (sw_pmu_event_is_chained(pmu, ev)) {
        /* Chaining requires two consecutive event counters, where the lower idx is even. */
        for (int idx = 1; idx < SW_PMU_MAX_GENERAL_COUNTERS; idx += 2) {
            if (!(pmu->cntr_mask >> idx & 1))
                continue;
            if (!test_and_set(&pmu->used_mask, idx)) {
                if (!test_and_set(&pmu->used_mask, idx - 1))
                    return idx;
                pmu->used_mask &= ~BIT(idx); /* release the odd counter */
            }
        }
        return SW_EAGAIN;
    }
    for (int idx = 0; idx < SW_PMU_MAX_GENERAL_COUNTERS; idx++)
        if ((pmu->cntr_mask >> idx & 1) && !test_and_set(&pmu->used_mask, idx))
            return idx;
    return SW_EAGAIN;
}

/* armv8pmu_clear_event_idx */
static void clear_event_idx(sw_pmu *pmu, const sw_pmu_event *ev)
{
    pmu->used_mask &= ~BIT(ev->idx);
    if (sw_pmu_event_is_chained(pmu, ev))
        pmu->used_mask &= ~BIT(ev->idx - 1);
}

/* armpmu_start */
static void event_start(sw_pmu *pmu, sw_pmu_event *ev)
{
    ev->stopped = false;
    /* Set the period again: the counter may have gone on counting while the event was stopped. */
    (void)event_set_period(pmu, ev);
    enable_event(pmu, ev);
}

/* armpmu_stop(PERF_EF_UPDATE) */
static void event_stop(sw_pmu *pmu, sw_pmu_event *ev)
{
    if (!ev->stopped) {
        disable_event(pmu, ev);
        (void)event_update(pmu, ev);
        ev->stopped = true;
    }
}

int sw_pmu_add(sw_pmu *pmu, sw_pmu_event *ev, bool start)
{
    if (!pmu || !ev || ev->idx >= 0)
        return SW_EINVAL;
    int idx = get_event_idx(pmu, ev);
    if (idx < 0)
        return idx;
    ev->idx = idx;
    pmu->events[idx] = ev;
    ev->stopped = true;
    if (start)
        event_start(pmu, ev);
    return sw_pmu_status(pmu);
}

void sw_pmu_del(sw_pmu *pmu, sw_pmu_event *ev)
{
    if (!pmu || !ev || ev->idx < 0)
        return;
    event_stop(pmu, ev);
    pmu->events[ev->idx] = NULL;
    clear_event_idx(pmu, ev);
    ev->idx = -1;
}

uint64_t sw_pmu_read(sw_pmu *pmu, sw_pmu_event *ev)
{
    if (pmu && ev && ev->idx >= 0 && !ev->stopped)
        (void)event_update(pmu, ev);
    return ev ? ev->count : 0;
}

/* ---- the PMU ------------------------------------------------------------------------------ */

int sw_pmu_probe(sw_pmu *pmu, const hal *h)
{
    if (!pmu || !h)
        return SW_EINVAL;
    memset(pmu, 0, sizeof *pmu);
    pmu->h = h;
    /* read_pmuver */
    uint64_t dfr0 = rd(pmu, HAL_ID_AA64DFR0_EL1);
    if (pmu->err != HAL_OK)
        return SW_EIO;
    pmu->pmuver = (unsigned)PMT_GET(DFR0, PMUVer, dfr0);
    if (pmu->pmuver == SW_PMUVER_NI || pmu->pmuver == SW_PMUVER_IMPDEF)
        return SW_ENODEV;
    pmu->in_hyp = ((rd(pmu, HAL_CURRENTEL) >> 2) & 3) == 2; /* is_kernel_in_hyp_mode */
    /* Read the nb of CNTx counters supported from PMNC. */
    pmu->num_counters = (unsigned)PMT_GET(PMCR, N, pmcr_read(pmu));
    pmu->cntr_mask = (BIT(pmu->num_counters) - 1) | BIT(SW_PMU_CYCLE_IDX);
    /* pmuv3_has_icntr */
    if (PMT_GET(DFR1, PMICNTR, rd(pmu, HAL_ID_AA64DFR1_EL1)) == 1)
        pmu->cntr_mask |= BIT(SW_PMU_INSTR_IDX);
    uint64_t ceid0 = rd(pmu, HAL_PMCEID0_EL0);
    uint64_t ceid1 = rd(pmu, HAL_PMCEID1_EL0);
    pmu->pmceid_bitmap = (ceid0 & GENMASK32) | (ceid1 << 32);
    pmu->pmceid_ext_bitmap = (ceid0 >> 32) | (ceid1 & ~GENMASK32);
    /* store PMMIR register for sysfs */
    if (pmu->pmuver >= SW_PMUVER_V3P4)
        pmu->pmmir = rd(pmu, HAL_PMMIR_EL1);
    return sw_pmu_status(pmu);
}

int sw_pmu_reset(sw_pmu *pmu)
{
    if (!pmu || !pmu->h)
        return SW_EINVAL;
    uint64_t mask = pmu->cntr_mask;
    /* The counter and interrupt enable registers are unknown at reset. */
    disable_counter(pmu, mask);
    disable_intens(pmu, mask);
    /* Initialize & Reset PMNC. Request overflow interrupt for 64 bit cycle counter but cheat in
     * armv8pmu_write_counter(). */
    uint64_t pmcr = PMT_MASK(PMCR, P) | PMT_MASK(PMCR, C) | PMT_MASK(PMCR, LC);
    /* Enable long event counter support where available */
    if (sw_pmu_has_long_event(pmu))
        pmcr |= PMT_MASK(PMCR, LP);
    pmcr_write(pmu, pmcr);
    return sw_pmu_status(pmu);
}

int sw_pmu_start(sw_pmu *pmu)
{
    if (!pmu || !pmu->h)
        return SW_EINVAL;
    wr(pmu, HAL_PMUSERENR_EL0, 0); /* armv8pmu_disable_user_access */
    /* Enable all counters */
    pmcr_write(pmu, pmcr_read(pmu) | PMT_MASK(PMCR, E));
    return sw_pmu_status(pmu);
}

int sw_pmu_stop(sw_pmu *pmu)
{
    if (!pmu || !pmu->h)
        return SW_EINVAL;
    /* Disable all counters */
    pmcr_write(pmu, pmcr_read(pmu) & ~PMT_MASK(PMCR, E));
    return sw_pmu_status(pmu);
}

/* armv8pmu_getreset_flags */
static uint64_t getreset_flags(sw_pmu *pmu)
{
    /* Read */
    uint64_t value = rd(pmu, HAL_PMOVSCLR_EL0);
    /* Write to clear flags */
    value &= OVERFLOW_MASK;
    wr(pmu, HAL_PMOVSCLR_EL0, value);
    return value;
}

int sw_pmu_handle_irq(unsigned intid, void *arg)
{
    sw_pmu *pmu = arg;
    (void)intid;
    /* Get and reset the IRQ flags */
    uint64_t pmovsr = getreset_flags(pmu);
    /* Did an overflow occur? */
    if (!(pmovsr & OVERFLOW_MASK)) {
        pmu->irqs_none++;
        return SW_IRQ_NONE;
    }
    /* Stop the PMU while processing the counter overflows to prevent skews in group events. */
    (void)sw_pmu_stop(pmu);
    for (int idx = 0; idx < SW_PMU_MAX_HWEVENTS; idx++) {
        sw_pmu_event *ev = pmu->events[idx];
        /* Ignore if we don't have an event. */
        if (!ev || !(pmu->cntr_mask >> idx & 1))
            continue;
        /* We have a single interrupt for all counters. Check that each counter has overflowed
         * before we process it. */
        if (!(pmovsr >> idx & 1))
            continue;
        (void)event_update(pmu, ev);
        if (!event_set_period(pmu, ev))
            continue;
        /* perf_event_overflow: a sample (counting events have no handler). */
        if (ev->attr.sample_period) {
            ev->samples++;
            if (ev->attr.overflow)
                ev->attr.overflow(ev->attr.overflow_arg, ev);
        }
    }
    (void)sw_pmu_start(pmu);
    pmu->irqs_handled++;
    return SW_IRQ_HANDLED;
}
