/*
 * pmu.h - a PMU driver that behaves as Linux's arm_pmuv3 (drivers/perf/arm_pmuv3.c with the
 * arm_pmu.c core): the same register sequences, counter allocation, 32-bit bias on 64-bit
 * counters, chained counter pairs without FEAT_PMUv3p5, and the overflow handler that reads and
 * clears PMOVSCLR_EL0, updates the counts and reprograms the period.
 *
 * The perf core's part is reduced to what a driver needs to run: an event (sw_pmu_event, the
 * perf_event with its hw_perf_event) is initialised from attributes, added to the PMU (started or
 * not), read, and deleted; the whole PMU is started and stopped (PMCR_EL0.E).
 */
#ifndef PMTRACE_SW_PMU_H
#define PMTRACE_SW_PMU_H

#include "../../hal/hal.h"
#include "../../sw_errno.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_PMU_MAX_GENERAL_COUNTERS 31 /* ARMV8_PMU_MAX_GENERAL_COUNTERS */
#define SW_PMU_CYCLE_IDX            31 /* ARMV8_PMU_CYCLE_IDX: PMCCNTR_EL0 */
#define SW_PMU_INSTR_IDX            32 /* ARMV8_PMU_INSTR_IDX: PMICNTR_EL0 */
#define SW_PMU_MAX_HWEVENTS         33

/* ID_AA64DFR0_EL1.PMUVer values (ID_AA64DFR0_EL1_PMUVer_*). */
#define SW_PMUVER_NI     0x0u
#define SW_PMUVER_IMP    0x1u
#define SW_PMUVER_V3P1   0x4u
#define SW_PMUVER_V3P4   0x5u
#define SW_PMUVER_V3P5   0x6u
#define SW_PMUVER_V3P7   0x7u
#define SW_PMUVER_IMPDEF 0xFu

typedef struct sw_pmu_event sw_pmu_event;

/* perf_event_overflow: one sample of an event (its count so far is event->count). */
typedef void (*sw_pmu_overflow_fn)(void *arg, sw_pmu_event *event);

/* The perf_event_attr fields the driver reads. */
typedef struct sw_pmu_attr {
    uint16_t event;         /* a raw event number (perf -e rNNNN); CHAIN is refused */
    bool long_counter;      /* attr.config1 bit 0: count with 64 bits (a chained pair of event
                               counters without FEAT_PMUv3p5) */
    uint64_t sample_period; /* 0: a counting event (the period is half the counter's range) */
    bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
    sw_pmu_overflow_fn overflow; /* called for each sample of a sampling event */
    void *overflow_arg;
} sw_pmu_attr;

/* An event: perf_event and its hw_perf_event. */
struct sw_pmu_event {
    sw_pmu_attr attr;
    bool is_64bit;          /* ARMPMU_EVT_64BIT */
    int idx;                /* hw.idx: the counter (the odd one of a chained pair); -1 if none */
    uint64_t config_base;   /* hw.config_base: filters and the event number */
    uint64_t sample_period; /* hw.sample_period */
    uint64_t last_period;   /* hw.last_period */
    int64_t period_left;    /* hw.period_left */
    uint64_t prev_count;    /* hw.prev_count: the raw (unbiased) counter value last seen */
    uint64_t count;         /* event->count: events counted so far */
    uint64_t samples;       /* overflows reported through attr.overflow */
    bool stopped;           /* PERF_HES_STOPPED */
};

typedef struct sw_pmu {
    const hal *h;
    unsigned pmuver;        /* ID_AA64DFR0_EL1.PMUVer */
    unsigned num_counters;  /* PMCR_EL0.N */
    uint64_t cntr_mask;     /* counters: 0..N-1, 31 (cycle), 32 (instruction, FEAT_PMUv3_ICNTR) */
    uint64_t pmceid_bitmap; /* common events 0x00..0x3F (PMCEID0/1_EL0 [31:0]) */
    uint64_t pmceid_ext_bitmap; /* common events 0x4000..0x403F (PMCEID0/1_EL0 [63:32]) */
    uint64_t pmmir;             /* PMMIR_EL1 (FEAT_PMUv3p4) */
    bool in_hyp;                /* is_kernel_in_hyp_mode(): the kernel runs at EL2 */
    uint64_t used_mask;         /* counters in use */
    sw_pmu_event *events[SW_PMU_MAX_HWEVENTS];
    uint64_t irqs_handled; /* handle_irq returned IRQ_HANDLED */
    uint64_t irqs_none;    /* handle_irq found no overflow (IRQ_NONE) */
    hal_status err;        /* the first register access that failed (sticky; probe clears) */
    hal_sysreg err_reg;
} sw_pmu;

/* __armv8pmu_probe_pmu: ID_AA64DFR0_EL1.PMUVer (SW_ENODEV when 0 or IMPLEMENTATION DEFINED),
 * PMCR_EL0.N, PMCEID0/1_EL0, PMMIR_EL1 with PMUv3p4, the instruction counter from
 * ID_AA64DFR1_EL1.PMICNTR, CurrentEL. SW_EIO when a register access fails (pmu->err says). */
int sw_pmu_probe(sw_pmu *pmu, const hal *h);
/* armv8pmu_reset: counters and interrupt requests disabled, overflows cleared, PMCR_EL0 = P | C |
 * LC (| LP with PMUv3p5). */
int sw_pmu_reset(sw_pmu *pmu);
/* armpmu_event_init: map the event, the exclusion filters into config_base, the period. */
int sw_pmu_event_init(sw_pmu *pmu, sw_pmu_event *event, const sw_pmu_attr *attr);
/* armpmu_add: allocate a counter (SW_EAGAIN when none is free), and start the event if asked. */
int sw_pmu_add(sw_pmu *pmu, sw_pmu_event *event, bool start);
/* armpmu_del: stop with an update, free the counter. */
void sw_pmu_del(sw_pmu *pmu, sw_pmu_event *event);
/* armpmu_read: the event's count, updated from the counter. */
uint64_t sw_pmu_read(sw_pmu *pmu, sw_pmu_event *event);
/* armv8pmu_start / armv8pmu_stop: PMCR_EL0.E (and PMUSERENR_EL0 = 0, no user access). */
int sw_pmu_start(sw_pmu *pmu);
int sw_pmu_stop(sw_pmu *pmu);
/* armv8pmu_handle_irq, as an sw_irq_handler (arg: the sw_pmu): SW_IRQ_HANDLED or SW_IRQ_NONE. */
int sw_pmu_handle_irq(unsigned intid, void *pmu);

/* "PMUv3", "PMUv3p1" ... for a PMUVer value. */
const char *sw_pmu_version_name(unsigned pmuver);
/* The event is a chained pair (armv8pmu_event_is_chained). */
bool sw_pmu_event_is_chained(const sw_pmu *pmu, const sw_pmu_event *event);
/* PMCEID lists the common event (0x0000..0x003F, 0x4000..0x403F). */
bool sw_pmu_event_supported(const sw_pmu *pmu, uint16_t event);
/* A common event (0x0000-0x003F, 0x4000-0x403F): PMCEID0/1_EL0 say whether the PE has it. */
bool sw_pmu_event_is_common(uint16_t event);
/* FEAT_PMUv3p5: 64-bit event counters (armv8pmu_has_long_event). */
bool sw_pmu_has_long_event(const sw_pmu *pmu);
/* The driver's register accesses all succeeded since probe. */
static inline int sw_pmu_status(const sw_pmu *pmu)
{
    return pmu->err == HAL_OK ? SW_OK : SW_EIO;
}

#ifdef __cplusplus
}
#endif

#endif
