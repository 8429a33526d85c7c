/*
 * a64.h - the AArch64 bare-metal runtime under hal_a64 (internal to sw/arch/aarch64): the
 * exception frame, the fixup table, EL0 calls, the workload loops, the PSCI conduit.
 */
#ifndef PMTRACE_SW_A64_H
#define PMTRACE_SW_A64_H

#include "hal/hal.h"

#include <stdbool.h>
#include <stdint.h>

/* What the vectors save (vectors.S): x0..x30, ELR_ELx, SPSR_ELx; 16-byte aligned. */
typedef struct a64_frame {
    uint64_t x[31];
    uint64_t elr;
    uint64_t spsr;
    uint64_t pad;
} a64_frame;

/* The vector an exception came through: kind = el << 4 | group << 2 | type, where group is the
 * vector group (0 current EL with SP0, 1 current EL with SPx, 2 lower EL AArch64, 3 lower EL
 * AArch32) and type the exception type (0 synchronous, 1 IRQ, 2 FIQ, 3 SError): the offset from
 * VBAR_ELx divided by 0x80 (Arm ARM D1.3.1, Table D1-5). */
void a64_exception(a64_frame *frame, unsigned kind);

/*
 * Fixups (as Linux's exception table): an instruction the HAL may execute although it can be
 * UNDEFINED, trapped or aborted is listed in the section __hal_fixup with A64_FIXUP. When it
 * takes a synchronous exception to an EL this software owns (EL1, and EL2 when entered there),
 * the handler sets the status and returns to the next instruction: the instruction has no
 * effect (an MRS leaves its register as it was; the HAL zeroes it before).
 *   EC 0x00 (Unknown reason: UNDEFINED)             -> HAL_UNDEFINED
 *   EC 0x18 (trapped MSR, MRS or System instruction) -> HAL_TRAP_EL1 or HAL_TRAP_EL2
 *   EC 0x24, 0x25 (Data Abort: External abort)       -> HAL_BUS_ERROR
 */
#define A64_FIXUP(label)                                                                           \
    ".pushsection __hal_fixup, \"a\"\n\t.balign 8\n\t.quad " label "\n\t.popsection\n\t"

/* The status of the last fixed-up access, cleared as it is read. One PE: one word (the IRQ entry
 * keeps it across a handler). */
hal_status a64_fixup_take(void);
void a64_fixup_clear(void);

/* The IRQ entry the IRQ vector calls (hal_a64's set_irq_entry). */
void a64_set_irq_entry(hal_irq_entry entry, void *arg);

/* Runs code at EL0 (el0.S): ERET to `entry` in EL0t with x0 = arg, SP_EL0 = sp_el0, x30 = a stub
 * that executes SVC #0, and PSTATE.{D, A, I, F} as they are at EL1. Returns x0 of the EL0 code at
 * its SVC #0 (taken to EL1 and turned into this return by a64_exception). */
uint64_t a64_call_el0(uint64_t entry, uint64_t arg, uint64_t sp_el0);
/* The SVC #0 immediate that ends an EL0 call. */
#define A64_SVC_EL0_RETURN 0
/* From the SVC handler: back into a64_call_el0's caller, returning x0. */
__attribute__((noreturn)) void a64_el0_return(uint64_t x0);

/* The workload loops (el0.S): the EL0 one ends in SVC #0, the EL1 one in RET (called). Entered
 * at one of four places, they retire exactly 1, 2, 2k + 2 or 2k + 1 instructions, the last one
 * included, with x0 = k >= 1 (hal_a64_run.c). */
extern const char a64_work_el0_one[], a64_work_el0_two[], a64_work_el0_even[], a64_work_el0_odd[];
extern const char a64_work_el1_one[], a64_work_el1_two[], a64_work_el1_even[], a64_work_el1_odd[];

/* Where the image was entered (start.S): 1 or 2, and the device tree's address (x0). */
extern uint64_t a64_entry_el;
extern uint64_t a64_boot_dtb;

/* PSCI over the conduit of the entry EL (psci.c). */
int64_t a64_psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
__attribute__((noreturn)) void a64_system_off(void);

/* The end of the image with main's status (exit.c): with a64_semihosting set, a semihosting
 * SYS_EXIT that gives the status to the host (QEMU's -semihosting, pmtrace-vp); else PSCI
 * SYSTEM_OFF, which carries none. */
extern bool a64_semihosting;
__attribute__((noreturn)) void a64_exit(int status);

/* Console output before or without the HAL (the panic path): the PL011 at virt's address. */
void a64_console(const char *text, size_t n);

#endif
