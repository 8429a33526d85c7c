/*
 * apps.h - the workloads a user runs on the platform: `stat` (count a workload's events),
 * `record` (sample on overflow interrupts), `trace` (capture trace in Fill, Wrap and Circular
 * Buffer modes, with and without a trigger) and `fault` (recover from faults on trace writes and
 * report them). Each is a library function that runs to completion on a HAL: it brings up the GIC
 * and the drivers, runs the workload piece by piece through hal_run, and fills a result that a
 * formatter turns into text. They allocate nothing and keep no global state.
 */
#ifndef PMTRACE_SW_APPS_H
#define PMTRACE_SW_APPS_H

#include "../drivers/ete/ete.h"
#include "../drivers/gic/gicv3.h"
#include "../drivers/pmu/pmu.h"
#include "../drivers/trbe/trbe.h"
#include "../hal/hal.h"
#include "../sw_errno.h"
#include "capture.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- where the apps run --------------------------------------------------------------------- */

typedef struct sw_env {
    const hal *h;
    uint64_t gicd_base;  /* GIC distributor */
    uint64_t gicr_base;  /* this CPU's redistributor (RD_base) */
    unsigned pmu_intid;  /* PMUIRQ */
    unsigned trbe_intid; /* TRBIRQ */
    /* A GIC already brought up (sw_gic_init) that the app shares with others running at the
     * same time (a stat session around a trace session, say), or NULL: the app brings up its
     * own. Each app requests and frees only its own interrupt. */
    sw_gic *gic;
} sw_env;

/* QEMU virt: GICD 0x0800_0000, GICR 0x080A_0000, PMUIRQ 23, TRBIRQ 22, no shared GIC. */
sw_env sw_env_virt(const hal *h);

/* ---- workloads ---------------------------------------------------------------------------- */

/* A workload gives the work it does piece by piece. */
typedef struct sw_workload {
    void *arg;
    /* Fills *work with the next piece; false when the workload has finished. Pointers in the
     * piece stay valid until the next call. */
    bool (*next)(void *arg, hal_work *work);
} sw_workload;

#define SW_LOOP_MAX_EVENTS 8
#define SW_LOOP_TRACE_BUF  16384
#define SW_LOOP_NO_TRIGGER UINT64_MAX

/* A loop whose every iteration retires the same instructions, cycles, events and trace bytes.
 * Trace byte k of the whole run is sw_loop_trace_byte(k). */
typedef struct sw_loop {
    uint64_t iterations;
    uint8_t el;                                 /* Exception level of the loop (0: user space) */
    uint64_t instructions;                      /* per iteration */
    uint64_t cycles;                            /* per iteration */
    hal_event_count events[SW_LOOP_MAX_EVENTS]; /* per iteration */
    size_t num_events;
    size_t trace_bytes; /* per iteration (with trace_fill: at most, to size the pieces) */
    /* The trace unit's output, when it is not the byte pattern sw_loop_trace_byte: fills buf
     * (size bytes) with the trace of the next `iterations` iterations and returns its length
     * (an encoder of a real trace protocol, say). NULL: the pattern. */
    size_t (*trace_fill)(void *arg, uint64_t iterations, uint8_t *buf, size_t size);
    void *trace_arg;
    uint64_t trigger_after; /* a Detected Trigger after this many trace bytes of the whole run;
                               SW_LOOP_NO_TRIGGER for none */
    uint64_t per_piece;     /* iterations per hal_work (fewer when the trace would not fit) */
    /* Progress. */
    uint64_t done;      /* iterations given out */
    uint64_t trace_pos; /* trace bytes given out */
    hal_event_count piece_events[SW_LOOP_MAX_EVENTS];
    uint8_t trace_buf[SW_LOOP_TRACE_BUF];
} sw_loop;

/* Zero iterations of nothing, at EL0, one iteration per piece, no trigger. */
void sw_loop_init(sw_loop *loop);
sw_workload sw_loop_workload(sw_loop *loop);
uint8_t sw_loop_trace_byte(uint64_t k);

/* Numbers as the apps print them: 1234567 -> "1,234,567" (for tools printing beside them). */
void sw_app_grouped(uint64_t v, char *out, size_t size);

/* The mnemonic of a common event ("INST_RETIRED"), or NULL. From pmt_events.h. */
const char *sw_event_name(uint16_t event);

/* ---- stat ------------------------------------------------------------------------------------ */

#define SW_STAT_MAX_EVENTS 16

typedef struct sw_stat_config {
    uint16_t events[SW_STAT_MAX_EVENTS]; /* counted in this order of allocation */
    unsigned num_events;
    bool long_counters; /* 64-bit events (chained pairs without FEAT_PMUv3p5) */
    bool exclude_user;
    bool exclude_kernel;
} sw_stat_config;

typedef struct sw_stat_counter {
    uint16_t event;
    bool counted;   /* a counter was free: else "<not counted>" (perf would multiplex) */
    bool supported; /* PMCEID lists it (for common events) */
    int idx;        /* counter (the odd one of a chained pair), SW_PMU_CYCLE_IDX, ... */
    bool chained;
    uint64_t count;
} sw_stat_counter;

typedef struct sw_stat_result {
    int status; /* SW_OK, or why the run failed */
    unsigned pmuver;
    unsigned num_counters;
    sw_stat_counter counters[SW_STAT_MAX_EVENTS];
    unsigned num;
    uint64_t pmu_irqs; /* overflow interrupts handled (counters folded into 64-bit counts) */
    uint64_t pieces;   /* pieces of work run */
} sw_stat_result;

int sw_stat_run(const sw_env *env, const sw_stat_config *config, const sw_workload *workload,
                sw_stat_result *result);
/* The result in the shape of `perf stat`; returns the length it wanted (snprintf). */
size_t sw_stat_format(const sw_stat_result *result, char *buf, size_t size);

/* ---- record ---------------------------------------------------------------------------------- */

typedef struct sw_record_sample {
    uint64_t count;  /* the event's count when the sample was taken */
    uint64_t period; /* the period that elapsed (hw.last_period) */
} sw_record_sample;

typedef struct sw_record_config {
    uint16_t event;
    uint64_t period; /* sample every period events */
    bool long_counter;
    bool exclude_user;
    bool exclude_kernel;
    sw_record_sample *samples; /* where samples go (may be NULL) */
    size_t max_samples;
} sw_record_config;

typedef struct sw_record_result {
    int status;
    uint64_t samples;  /* overflow samples taken */
    uint64_t stored;   /* of which stored in config->samples */
    uint64_t count;    /* events counted over the run */
    uint64_t pmu_irqs; /* PMU interrupts handled */
    int idx;           /* counter used */
    bool chained;
} sw_record_result;

int sw_record_run(const sw_env *env, const sw_record_config *config, const sw_workload *workload,
                  sw_record_result *result);
size_t sw_record_format(const sw_record_config *config, const sw_record_result *result, char *buf,
                        size_t size);

/* ---- trace ----------------------------------------------------------------------------------- */

typedef enum sw_trace_trigger {
    SW_TRACE_NO_TRIGGER = 0, /* TRBLIMITR_EL1.TM ignore, TRBTRG_EL1 not written */
    SW_TRACE_STOP_ON_TRIGGER,
    SW_TRACE_IRQ_ON_TRIGGER,
    SW_TRACE_IGNORE_TRIGGER /* the trigger is counted and recorded (TRG), nothing else */
} sw_trace_trigger;

typedef struct sw_trace_config {
    uint64_t base; /* the buffer: 4 KiB aligned virtual address and size */
    uint64_t size;
    unsigned fill_mode; /* PMT_TRBLIMITR_FM_FILL, _WRAP or _CIRCULAR */
    sw_trace_trigger trigger;
    uint64_t trigger_count; /* TRBTRG_EL1: bytes written after the Detected Trigger before the
                               Trigger Event */
    bool exclude_user;      /* TRFCR_EL1.E0TRE = 0 */
    bool exclude_kernel;    /* TRFCR_EL1.E1TRE = 0 */
    /* The PE's trace unit (sw/drivers/ete), programmed for the session as perf's cs_etm does:
     * enabled after the buffer, disabled (its trace flushed into the buffer) before the buffer
     * is collected, its Exception level filter from exclude_user and exclude_kernel, TRCTRACEIDR
     * trace_id. False: the trace is the workload's own (a synthetic program's, on a host CPU). */
    bool trace_unit;
    uint8_t trace_id;
    bool timestamps; /* TRCCONFIGR.TS */
    /* Where captured trace goes, oldest first: each piece of the buffer as it is collected
     * (callback, may be NULL), a copy (may be NULL), and a capture area holding each part on
     * its own (capture.h; may be NULL). */
    void (*data)(void *arg, uint64_t va, size_t len);
    void *data_arg;
    uint8_t *out;
    size_t out_size;
    sw_capture *capture;
} sw_trace_config;

typedef struct sw_trace_result {
    int status;
    uint64_t bytes;       /* captured trace (Fill: every part collected; Wrap and Circular Buffer:
                             what the buffer holds at the end) */
    size_t out_len;       /* bytes copied to config->out */
    uint64_t parts;       /* parts collected (capture.h: each decoded on its own) */
    uint64_t irqs;        /* TRBE interrupts handled */
    uint64_t wraps;       /* Fill: buffer-full events; Wrap: wrap interrupts; Circular: 1 when the
                             pointer wrapped (TRBSR_EL1.WRAP) */
    uint64_t spurious;    /* interrupts Linux would call spurious (re-enabled as they were) */
    bool triggered;       /* a Trigger Event was seen (or TRG at the end) */
    uint64_t trigger_ptr; /* TRBPTR_EL1 when the Trigger Event was handled */
    bool stopped;         /* the capture ended before the workload (stop on trigger, fatal) */
    bool wrapped;         /* Wrap and Circular Buffer: the buffer was overwritten at least once */
    uint64_t trbsr;       /* TRBSR_EL1 of the last event handled, or at the end */
    uint64_t trbptr;      /* TRBPTR_EL1 at the end */
    sw_trbe_act last_act;
    sw_trbe_cause last_cause;
} sw_trace_result;

int sw_trace_run(const sw_env *env, const sw_trace_config *config, const sw_workload *workload,
                 sw_trace_result *result);
size_t sw_trace_format(const sw_trace_config *config, const sw_trace_result *result, char *buf,
                       size_t size);

/* ---- fault ----------------------------------------------------------------------------------- */

typedef struct sw_fault_report {
    sw_trbe_cause cause;
    sw_trbe_act act;
    unsigned ec;  /* TRBSR_EL1.EC */
    unsigned fsc; /* MSS[5:0] */
    bool ea;      /* TRBSR_EL1.EA */
    uint64_t trbsr;
    uint64_t trbptr; /* TRBPTR_EL1: the faulting address for a synchronous fault */
} sw_fault_report;

#define SW_FAULT_MAX_REPORTS 8

typedef struct sw_fault_config {
    uint64_t base; /* the buffer, as for trace (Fill mode, trigger ignored: Linux's set-up) */
    uint64_t size;
    /* Called for each fault: true when it resolved the cause (mapped the page, removed the
     * error): the capture resumes at TRBPTR_EL1. Otherwise (or NULL) it resumes on the next page
     * (the faulting one is skipped; after the last page, at the base). */
    bool (*fix)(void *arg, const sw_fault_report *report);
    void *fix_arg;
    unsigned max_recoveries; /* then the session is truncated as Linux does; 0: 8 */
} sw_fault_config;

typedef struct sw_fault_result {
    int status;
    uint64_t faults;                               /* fatal events handled */
    uint64_t recoveries;                           /* restarts after one */
    uint64_t wraps;                                /* buffer-full events */
    uint64_t bytes;                                /* trace captured (every part collected) */
    bool stopped;                                  /* given up after max_recoveries */
    sw_fault_report reports[SW_FAULT_MAX_REPORTS]; /* the first faults */
    unsigned num_reports;
} sw_fault_result;

int sw_fault_run(const sw_env *env, const sw_fault_config *config, const sw_workload *workload,
                 sw_fault_result *result);
size_t sw_fault_format(const sw_fault_result *result, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
