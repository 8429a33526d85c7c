/*
 * results.h - a results area: memory where a run of the apps leaves its results (the stat,
 * record and trace apps' result structures, as they returned them) for whoever reads it after
 * the run (the host of a virtual platform: pmtrace-vp --stats-json), beside the tables the apps
 * print on the console.
 *
 * The layout, one source of truth for the writer (the scenario image, sw/arch/aarch64/images/
 * vp.c) and the reader: the structure below, copied as it is. Writer and reader must lay the
 * structures out alike (both LP64 and little-endian: AArch64 and x86-64 do); `layout` holds the
 * writer's sizes of them, so a reader built otherwise refuses the area instead of misreading it.
 * `magic` is written last: an area without it holds no complete run (the run did not end).
 */
#ifndef PMTRACE_SW_RESULTS_H
#define PMTRACE_SW_RESULTS_H

#include "apps.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SW_RESULTS_MAGIC UINT64_C(0x3153544c55534552) /* "RESULTS1" */

/* What the area holds. */
#define SW_RESULTS_STAT   1u /* stat */
#define SW_RESULTS_RECORD 2u /* record */
#define SW_RESULTS_TRACE  4u /* a trace session (the trace app, or alongside stat and record) */

typedef struct sw_results {
    uint64_t magic;  /* SW_RESULTS_MAGIC once the run has ended (written last) */
    uint64_t layout; /* SW_RESULTS_LAYOUT of the writer */
    int32_t status;  /* the run's: SW_OK, or why it failed (sw_errno.h) */
    uint32_t have;   /* SW_RESULTS_STAT | SW_RESULTS_RECORD | SW_RESULTS_TRACE */
    sw_stat_result stat;
    sw_record_result record;
    sw_trace_result trace;
} sw_results;

#define SW_RESULTS_LAYOUT                                                                          \
    ((uint64_t)sizeof(sw_results) << 48 | (uint64_t)sizeof(sw_stat_result) << 32 |                 \
     (uint64_t)sizeof(sw_record_result) << 16 | (uint64_t)sizeof(sw_trace_result))

#ifdef __cplusplus
}
#endif

#endif
