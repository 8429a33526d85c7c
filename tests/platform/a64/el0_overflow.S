// PMU overflow at the exact EL0 instruction when the counter counts EL0 only: PMEVCNTR0_EL0
// counts INST_RETIRED with PMEVTYPER0_EL0.P = 1 (EL1 not counted, D13.7.1) from 2^32 - 10, and
// is enabled at EL1, where it does not count. The ERET to EL0 happens inside a run of the CPU
// that began at EL1; the IRQ (PPI 23) is still taken right after the tenth EL0 instruction.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    ldr x0, =0x80000008         // P, INST_RETIRED
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffff6         // 2^32 - 10
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0            // PMCR_EL0.E
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t, IRQs unmasked
    eret
user:
    .rept 10                    // 1 .. 10: the overflow
    nop
    .endr
after:
    .rept 4000                  // the IRQ is taken before the first of these
    nop
    .endr
    svc #0

handler:
    mrs x20, elr_el1
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, pmovsclr_el0
    mov x23, x28
    adr x2, after
    system_off

vectors vec, handler
