/*
 * bench_pmu_count - how fast the PMU core counts.
 *
 *   build/bench/bench_pmu_count [calls]
 *
 * For 6 and 31 event counters, all enabled, it measures pmt_pmu_count calls per second when
 * (a) every counter counts the event being delivered, and (b) each counter counts a different
 * event; then the cost of one bulk count of 10^9 events against a count of 1.
 */
#define _POSIX_C_SOURCE 199309L
#include <pmtrace/pmtrace.h>

#include "bench_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void wr(pmt_pe *pe, pmt_reg_id id, unsigned n, uint64_t v)
{
    pmt_reg_ref reg = {id, n};
    if (pmt_pe_sysreg_write(pe, pmt_sysreg_encode(reg), v) != PMT_ACCESS_OK) {
        fprintf(stderr, "bench: write to %s refused\n", pmt_reg_name(id));
        exit(1);
    }
}

static pmt_pe *make(unsigned counters, int same_event)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.num_counters = counters;
    pmt_pe *pe = pmt_pe_create(&cfg, NULL);
    if (!pe)
        exit(1);
    pmt_pe_state s = {0};
    s.el = 1;
    s.el2_enabled = 1;
    pmt_pe_set_state(pe, &s);
    for (unsigned n = 0; n < counters; n++)
        wr(pe, PMT_REG_PMEVTYPER_EL0, n, same_event ? PMT_EV_INST_RETIRED : 0x08 + n);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, ~(uint64_t)0);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP) | PMT_MASK(PMCR, LC));
    return pe;
}

static double calls_per_second(pmt_pe *pe, uint64_t calls)
{
    double t0 = now();
    for (uint64_t i = 0; i < calls; i++)
        pmt_pmu_count(pe, PMT_EV_INST_RETIRED, 1);
    return (double)calls / (now() - t0);
}

static double ns_per_bulk(pmt_pe *pe, uint64_t n, int reps)
{
    double t0 = now();
    for (int i = 0; i < reps; i++)
        pmt_pmu_count(pe, PMT_EV_INST_RETIRED, n);
    return (now() - t0) * 1e9 / reps;
}

int main(int argc, char **argv)
{
    uint64_t calls = 200000000u;
    const int rc = bench_args(argc, argv, "bench_pmu_count [calls (200000000)]", &calls, 1);
    if (rc >= 0)
        return rc;
    unsigned sizes[] = {6, 31};
    printf("%-44s %14s\n", "case", "result");
    for (int i = 0; i < 2; i++) {
        for (int same = 1; same >= 0; same--) {
            pmt_pe *pe = make(sizes[i], same);
            double r = calls_per_second(pe, calls);
            printf("count(event, 1), %2u counters, %-16s %9.1f M calls/s\n", sizes[i],
                   same ? "all same event" : "distinct events", r / 1e6);
            pmt_pe_destroy(pe);
        }
    }
    pmt_pe *pe = make(31, 1);
    printf("%-44s %11.1f ns\n", "one count of 1 (31 counters)", ns_per_bulk(pe, 1, 1000000));
    printf("%-44s %11.1f ns\n", "one count of 10^9 (31 counters)",
           ns_per_bulk(pe, 1000000000u, 1000000));
    pmt_pe_destroy(pe);
    /* 32-bit overflow every 2^32 events: a bulk count crossing overflows takes the exact path. */
    pe = make(31, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    printf("%-44s %11.1f ns\n", "one count of 10^12 (31 counters, ~232 overflows)",
           ns_per_bulk(pe, 1000000000000u, 1000));
    /* Whole periods at once once the overflows repeat (pmu_count.c "Steady state"). */
    printf("%-44s %11.1f ns\n", "one count of 2^64-1 (31 counters, 2^32 overfl.)",
           ns_per_bulk(pe, UINT64_MAX, 1000));
    pmt_pe_destroy(pe);
    return 0;
}
