// Filtering by Exception level: PMEVCNTR0_EL0 counts INST_RETIRED with PMEVTYPER0_EL0.U = 1 (not
// at EL0), PMEVCNTR1_EL0 counts it everywhere. At EL1 the program counts from `el1_first`
// through the ERET at `el1_eret`; at EL0 from `user` through the SVC at `user_svc`; back at EL1
// the vector's two instructions (mov, b) before the MSR that stops counting.
// x10, x11: the counters; x1..x4: the labels.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x0, #0x08
    orr x1, x0, #(1 << 30)      // U
    msr pmevtyper0_el0, x1
    msr pmevtyper1_el0, x0
    mov x0, #3
    msr pmcntenset_el0, x0
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    mov x0, #1
el1_first:
    msr pmcr_el0, x0            // E: counts itself
    nop
    nop
el1_eret:
    eret
user:
    .rept 8
    nop
    .endr
    add x5, x5, #1
user_svc:
    svc #0

handler:
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    adr x1, el1_first
    adr x2, el1_eret
    adr x3, user
    adr x4, user_svc
    system_off

vectors vec, handler
