/*
 * hal_impl.h - for HAL implementations, not drivers: what the core HAL (hal_core.c) and the
 * platform's host-driven CPU (platform/src/cpu/cpu.cpp) do the same way.
 *
 * Firmware: before the software runs, EL3 and EL2 firmware (TF-A, a hypervisor) give the kernel
 * every counter and the trace buffer: hal_firmware_mdcr_el3/el2 are the values they write.
 *
 * Trace: both stand in for the PE's trace unit, and the trace part of a hal_work reaches the
 * Trace Buffer Unit this way:
 * - the trace unit's prohibited regions (hal_trace_allowed): at an Exception level whose
 *   TRFCR_ELx.ExTRE is 0 the trace unit generates nothing, and the work's bytes are dropped;
 * - the bytes go in steps that end where the Trace Buffer Unit does something visible (the
 *   unit's headroom: a wrap, a Trigger Event, a stop), with interrupts taken after each step, so
 *   TRBIRQ is taken at the exact byte that raised it;
 * - the Detected Trigger comes after work->trigger_at bytes (also when that is the last byte).
 *
 * Registers: a HAL register name is the model's encoding (hal_sysreg_to_pmt), and the model's
 * answer to an access is a HAL status (hal_status_of_access).
 */
#ifndef PMTRACE_SW_HAL_IMPL_H
#define PMTRACE_SW_HAL_IMPL_H

#include "hal.h"

#include <pmtrace/pmt_types.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline pmt_sysreg hal_sysreg_to_pmt(hal_sysreg r)
{
    return PMT_SYSREG(HAL_SYSREG_OP0(r), HAL_SYSREG_OP1(r), HAL_SYSREG_CRN(r), HAL_SYSREG_CRM(r),
                      HAL_SYSREG_OP2(r));
}

/* PMT_ACCESS_NOT_MINE: nothing in this PE implements the register, UNDEFINED. */
static inline hal_status hal_status_of_access(pmt_access a)
{
    switch (a) {
    case PMT_ACCESS_OK: return HAL_OK;
    case PMT_ACCESS_UNDEFINED: return HAL_UNDEFINED;
    case PMT_ACCESS_TRAP_EL1: return HAL_TRAP_EL1;
    case PMT_ACCESS_TRAP_EL2: return HAL_TRAP_EL2;
    case PMT_ACCESS_TRAP_EL3: return HAL_TRAP_EL3;
    case PMT_ACCESS_NOT_MINE: return HAL_UNDEFINED;
    }
    return HAL_UNDEFINED;
}

/* MDCR_EL3: MDCR_EL3.EnPM2 with FEAT_PMUv3p9; with FEAT_TRBE the Non-secure state owns the
 * trace buffer (NSTB = 0b11) and, with FEAT_TRBE_EXC, TRBEE = 0b01 (exceptions not trapped). */
uint64_t hal_firmware_mdcr_el3(bool pmuv3p9, bool trbe, bool trbe_exc);
/* MDCR_EL2: HPMN = num_counters (every counter to EL1 and EL0); with FEAT_TRBE and the kernel at
 * EL1, the EL1&0 regime owns the trace buffer (E2TB = 0b11). */
uint64_t hal_firmware_mdcr_el2(unsigned num_counters, bool trbe, uint8_t kernel_el);

/* Whether the trace unit traces at `el` (TRFCR_EL1.E0TRE/E1TRE, TRFCR_EL2.E0HTRE/E2TRE). The
 * values are the registers as the kernel reads them; vhe_host: HCR_EL2.{E2H, TGE} = {1, 1}. */
bool hal_trace_allowed(uint8_t el, bool vhe_host, uint64_t trfcr_el1, uint64_t trfcr_el2);

/* The Trace Buffer Unit side, as the HAL implementation reaches it. */
typedef struct hal_trace_sink {
    void *ctx;
    /* Bytes the unit takes before it does something visible (pmt_trbe_status.headroom);
     * UINT64_MAX: no limit. */
    uint64_t (*headroom)(void *ctx);
    /* n bytes from the trace unit; false when the unit refused them (a model error). */
    bool (*bytes)(void *ctx, const uint8_t *data, size_t n);
    void (*detected_trigger)(void *ctx);
    /* After each step: the HAL takes the interrupts the step raised. */
    void (*step_done)(void *ctx);
} hal_trace_sink;

/* Delivers n bytes (and the Detected Trigger after trigger_at of them, HAL_NO_TRIGGER for none)
 * generated at a level where tracing is `allowed`. Counts the bytes delivered and dropped.
 * HAL_INVALID when the sink refused bytes. */
hal_status hal_trace_deliver(const hal_trace_sink *sink, bool allowed, const uint8_t *bytes,
                             size_t n, size_t trigger_at, uint64_t *delivered, uint64_t *dropped);

#ifdef __cplusplus
}
#endif

#endif
