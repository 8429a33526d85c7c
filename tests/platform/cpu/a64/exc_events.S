// The exception events: counters 0 EXC_TAKEN, 1 EXC_SVC, 2 EXC_UNDEF, 3 EXC_RETURN (from
// 2^32 - 3, overflow interrupt enabled), 4 EXC_IRQ, 5 EXC_TRAP_OTHER. At EL1: SVC, BRK and UDF,
// each returned from by an ERET; the third ERET overflows counter 3 and the IRQ (PPI 23) is
// taken right after it, at `after_udf` (x20). Then at EL0: an MRS of PMCCNTR_EL0 trapped to
// EL1 (PMUSERENR_EL0.EN = 0) and an SVC that returns to EL1 at `back`. All are Taken locally
// (D14.1): to the current EL, or from EL0 to EL1. x10..x15: the counters.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    msr pmuserenr_el0, xzr
    mov x0, #0x09
    msr pmevtyper0_el0, x0
    mov x0, #0x82
    msr pmevtyper1_el0, x0
    mov x0, #0x81
    msr pmevtyper2_el0, x0
    mov x0, #0x0a
    msr pmevtyper3_el0, x0
    mov x0, #0x86
    msr pmevtyper4_el0, x0
    mov x0, #0x8d
    msr pmevtyper5_el0, x0
    ldr x0, =0xfffffffd         // 2^32 - 3
    msr pmevcntr3_el0, x0
    mov x0, #(1 << 3)
    msr pmintenset_el1, x0
    mov x0, #0x3f
    msr pmcntenset_el0, x0
    msr daifclr, #2
    mov x0, #1
    msr pmcr_el0, x0
    svc #0                      // exception 1, ERET 1
    brk #0                      // exception 2, ERET 2
    udf #0                      // exception 3, ERET 3: EXC_RETURN overflows
after_udf:
    adr x0, user                // the IRQ (exception 4, ERET 4) is taken before this
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret                        // ERET 5
user:
    mrs x5, pmccntr_el0         // exception 5 (trapped), ERET 6
    svc #1                      // exception 6, ERET 7 to `back` at EL1
back:
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmevcntr2_el0
    mrs x13, pmevcntr3_el0
    mrs x14, pmevcntr4_el0
    mrs x15, pmevcntr5_el0
    adr x1, after_udf
    system_off

handler:
    cmp x28, #5                 // IRQ, current EL with SPx
    b.eq irq
    mrs x9, esr_el1
    lsr x9, x9, #26
    cmp x9, #0x15
    b.eq svc
    mrs x9, elr_el1             // BRK, UDF, the trap: skip the instruction
    add x9, x9, #4
    msr elr_el1, x9
    eret
svc:
    cmp x28, #8                 // from EL0: back to EL1h, DAIF masked
    b.ne 1f
    adr x9, back
    msr elr_el1, x9
    mov x9, #0x3c5
    msr spsr_el1, x9
1:  eret
irq:
    mrs x20, elr_el1
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, pmovsclr_el0
    msr pmovsclr_el0, x22
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    eret

vectors vec, handler
