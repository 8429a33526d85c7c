// The asynchronous PMU Profiling exception (FEAT_EBEP). Firmware leaves MDCR_EL3.PMEE and
// MDCR_EL2.PMEE = 0b01; the program sets PMECR_EL1.{PMEE, KPME} = {0b11, 1}: the exception is
// enabled, taken to EL1, unmasked at EL1 while PSTATE.PM is 0 and at EL0. Counter 0 counts
// INST_RETIRED from 2^64 - 10 (the Effective PMCR_EL0.LP is 1) with PMINTENSET_EL1[0]: the
// enabling MSR and the nine NOPs after it overflow it. The handler (x19: how many taken) keeps
// ESR_EL1 (x20), ELR_EL1 (x21), SPSR_EL1 (x22), the vector entry (x23), the PM register (x24)
// DAIF (x25) and SPSel (x27) of the first, clears PMOVS and returns; x26 is the PM register
// after the ERET.
// Then from EL0: counter 0 counts only at EL0 (P = 1) from 2^64 - 5; EL1 ERETs to EL0, whose
// fifth instruction overflows it; the handler keeps ESR_EL1 (x10), ELR_EL1 (x11), SPSR_EL1
// (x12), the entry (x13), and returns to EL1 at `back`. x1 and x2: the expected ELRs.
#include "common.inc"
#include "profiling.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x19, #0
    mov x0, #PMECR_EXCEPTION
    msr PMECR_EL1, x0
    mov x0, #0x08               // INST_RETIRED
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffffffffffff6 // 2^64 - 10
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0            // E; counts itself: 1
    nop                         // 2
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop                         // 10: overflows
taken_at:
    nop                         // the exception is taken before this one
    mrs x26, PM_REG
    // From EL0.
    ldr x0, =(0x08 | PMEVTYPER_P)
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffffffffffffb // 2^64 - 5
    msr pmevcntr0_el0, x0
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret
user:
    nop                         // 1
    nop
    nop
    nop
    nop                         // 5: overflows
user_taken_at:
    nop
    b .
back:
    msr pmcr_el0, xzr
    adr x1, taken_at
    adr x2, user_taken_at
    system_off

handler:
    add x19, x19, #1
    cmp x28, #8                 // from EL0
    b.eq from_el0
    mrs x20, esr_el1
    mrs x21, elr_el1
    mrs x22, spsr_el1
    mov x23, x28
    mrs x24, PM_REG
    mrs x25, daif
    mrs x27, spsel
    mov x0, #1
    msr pmovsclr_el0, x0
    eret
from_el0:
    mrs x10, esr_el1
    mrs x11, elr_el1
    mrs x12, spsr_el1
    mov x13, x28
    mov x0, #1
    msr pmovsclr_el0, x0
    adr x0, back
    msr elr_el1, x0
    mov x0, #0x3c5
    msr spsr_el1, x0
    eret

vectors vec, handler
