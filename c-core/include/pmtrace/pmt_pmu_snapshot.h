/*
 * pmt_pmu_snapshot.h - PMU snapshots (FEAT_PMUv3_SS, Arm ARM D13.9).
 *
 * Software requests a Capture event by writing 1 to PMSSCR_EL1.SS (an MSR through
 * pmt_pe_sysreg_write); the platform's IMPLEMENTATION DEFINED external snapshot request is
 * pmt_pmu_snapshot_request. The model completes a Capture event at once: when allowed it copies
 * the counters into the saved-value registers, sets PMSSCR_EL1.{NC, SS} = {0, 0} and generates
 * PMU_SNAPSHOT; when prohibited it sets {NC, SS} = {1, 0} and changes nothing else.
 */
#ifndef PMTRACE_PMT_PMU_SNAPSHOT_H
#define PMTRACE_PMT_PMU_SNAPSHOT_H

#include "pmt_pe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The external snapshot request (RSCLCQ: as a write of 1 to PMSSCR_EL1.SS). Nothing happens
 * while Capture events are disabled or the Core power domain is off (pmt_pe_state.powered_down).
 * PMT_ERR_NOT_IMPLEMENTED without FEAT_PMUv3_SS. */
pmt_status pmt_pmu_snapshot_request(pmt_pe *pe);

/* The snapshot registers and controls, for a tool (no access checks, no side effects). */
typedef struct pmt_pmu_snapshot {
    uint64_t pmevcntsvr[31]; /* PMEVCNTSVR<n>_EL1; 0 for counters that are not implemented */
    uint64_t pmccntsvr;      /* PMCCNTSVR_EL1 */
    uint64_t pmicntsvr;      /* PMICNTSVR_EL1 (FEAT_PMUv3_ICNTR) */
    uint64_t pmsscr;         /* PMSSCR_EL1 */
    bool enabled;            /* Capture events are enabled (RYWLFL) */
    bool allowed;            /* ... and allowed (RTSYTY) */
} pmt_pmu_snapshot;

pmt_status pmt_pmu_snapshot_get(const pmt_pe *pe, pmt_pmu_snapshot *snapshot);

#ifdef __cplusplus
}
#endif

#endif
