/*
 * pmt_pmu_exception.h - the PMU Profiling exception (FEAT_EBEP) and its synchronous form
 * (FEAT_SEBEP): what a CPU model calls (Arm ARM D13.3.2, D13.3.3).
 *
 * The asynchronous exception is an output: pmt_pe_callbacks.pmu_exception(pending, target EL)
 * changes whenever RKBPMJ's conditions change (counters, PMINTEN, PMECR_EL1, MDCR_ELx.PMEE, the
 * PE state pushed with pmt_pe_set_state, PSTATE.PM included). The CPU takes the exception when
 * it sees pending, at the target EL, at the vector offset for non-interrupt exceptions (IKLVCH).
 *
 * The synchronous exception works through PSTATE.PPEND, which the model holds:
 *   - after an instruction that generated counted events (counted with pmt_pmu_count first),
 *     pmt_pmu_retire(): RNZLVW sets PPEND and PMIAR_EL1, or PPEND is cleared;
 *   - before each instruction, pmt_pmu_sync_exception_due() (RHLYTW): take the PMU exception
 *     synchronously instead of executing it;
 *   - on exception entry, exception return and Debug state entry and exit, the calls below give
 *     and take the PPEND bit of SPSR_ELx, DSPSR_EL0 or DSPSR2 (RBVBYS, Table D13-2).
 * Each of these calls takes the PE state that follows the event and applies it (as
 * pmt_pe_set_state would), so the model sees the state before and after together.
 */
#ifndef PMTRACE_PMT_PMU_EXCEPTION_H
#define PMTRACE_PMT_PMU_EXCEPTION_H

#include "pmt_pe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The PMU Profiling exception at the current PE state (the cells of Table D13-1). */
typedef struct pmt_pmu_exception_state {
    bool enabled;      /* PMUExceptionEnabled() (RGWLVY) */
    uint8_t target_el; /* its target Exception level when enabled */
    bool masked;       /* enabled and PMUExceptionMasked() (RSCBDZ) */
    bool irq_enabled;  /* PMUInterruptEnabled(): PMUIRQ can be asserted */
    bool pending;      /* the asynchronous exception is pending (RKBPMJ): the output's value */
    bool ppend;        /* PSTATE.PPEND */
    bool sync_due;     /* the next instruction takes the exception synchronously (RHLYTW) */
} pmt_pmu_exception_state;

pmt_status pmt_pmu_exception_get(const pmt_pe *pe, pmt_pmu_exception_state *state);

/* RHLYTW: PPEND is 1 and the exception is enabled and unmasked. Cheap; call before each
 * instruction when FEAT_SEBEP is configured. */
bool pmt_pmu_sync_exception_due(const pmt_pe *pe);

/* The instruction at `address` retires, after its events were counted. `generates_exception`:
 * it generates an exception (then RNZLVW does not apply). *sync_due (may be NULL) is
 * pmt_pmu_sync_exception_due() afterwards. PMT_ERR_NOT_IMPLEMENTED without FEAT_SEBEP. */
pmt_status pmt_pmu_retire(pmt_pe *pe, uint64_t address, bool generates_exception, bool *sync_due);

/* Exception entry (RBVBYS): *spsr_ppend is the value for SPSR_ELx[33]; PPEND becomes 0. `after`
 * (may be NULL) is the PE state at the target (PSTATE.PM = 1 with FEAT_EBEP). */
pmt_status pmt_pmu_exception_entry(pmt_pe *pe, const pmt_pe_state *after, bool *spsr_ppend);

/* Exception return, also an illegal one (ExceptionReturnPPEND, Table D13-2): spsr_ppend is
 * SPSR_ELx[33], `after` the PE state the return leads to (its EL and PM from SPSR_ELx, or the
 * current EL for an illegal return), `address` the ERET's own address for PMIAR_EL1 (its events
 * counted first). *sync_due: the instruction at the return target takes the exception. */
pmt_status pmt_pmu_exception_return(pmt_pe *pe, bool spsr_ppend, const pmt_pe_state *after,
                                    uint64_t address, bool *sync_due);

/* Debug state entry: *dspsr_ppend is the value for DSPSR_EL0[33] (AArch64) or DSPSR2[1]
 * (AArch32); PPEND becomes 0 (UNKNOWN in AArch32: 0 here). `after` has debug = true. */
pmt_status pmt_pmu_debug_entry(pmt_pe *pe, bool aarch32, const pmt_pe_state *after,
                               bool *dspsr_ppend);

/* Debug state exit (also illegal): PPEND is restored from DSPSR_EL0[33] when the exception is
 * enabled and unmasked after the exit (AArch64), or from DSPSR2[1] when it is enabled (AArch32,
 * exit to EL0); otherwise 0. `after` has debug = false. */
pmt_status pmt_pmu_debug_exit(pmt_pe *pe, bool aarch32, bool dspsr_ppend,
                              const pmt_pe_state *after);

#ifdef __cplusplus
}
#endif

#endif
