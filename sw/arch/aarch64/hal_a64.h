/*
 * hal_a64.h - the HAL on AArch64 bare metal (sw/README.md, "AArch64 bare metal"): the sw/ drivers
 * and apps run as A64 code at EL1, their system register accesses are MRS and MSR, their barriers
 * the instructions, MMIO volatile loads and stores, the IRQ entry the IRQ vector's, and a piece
 * of work a loop that runs at the work's Exception level. One PE.
 */
#ifndef PMTRACE_SW_HAL_A64_H
#define PMTRACE_SW_HAL_A64_H

#include "hal/hal.h"

#include <stdint.h>

/* The HAL of this PE. */
const hal *hal_a64(void);

/* Its operations that live in their own files. */
hal_status hal_a64_sysreg_read(void *ctx, hal_sysreg reg, uint64_t *value);
hal_status hal_a64_sysreg_write(void *ctx, hal_sysreg reg, uint64_t value);
hal_status hal_a64_run(void *ctx, const hal_work *work);

/* Runs fn(arg) at EL0 (EL0t, on its own stack, with PSTATE.{D, A, I, F} as now) and returns what
 * it returns. The HAL can be used from there: its accesses then have EL0's permissions. */
uint64_t hal_a64_call_el0(uint64_t (*fn)(uint64_t), uint64_t arg);

/* The Exception level the image was entered at (1, or 2: it runs at EL1 either way) and the
 * device tree's address it got in x0. */
unsigned hal_a64_entry_el(void);
uint64_t hal_a64_dtb(void);

/* PSCI SYSTEM_OFF: the end of the program. */
__attribute__((noreturn)) void hal_a64_system_off(void);

#endif
