// SW_INCR (0x00): PMEVCNTR0..3_EL0 count software increments. Counter 0 starts at 2^32 - 2 with
// its overflow interrupt enabled, counter 1 at 0, counter 2 at 5 but disabled in PMCNTENSET,
// counter 3 at 7 with PMEVTYPER3_EL0.P = 1 (not counted at EL1). A first write with PMCR_EL0.E = 0
// counts nowhere; then writes of 0b1111, 0b0010 and 0b0001: the last overflows counter 0 and
// the IRQ (PPI 23) is taken right after that MSR: ELR_EL1 (x20) is `after`. x21: the INTID,
// x22: PMOVSCLR_EL0; x10..x13: the counters at the end.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    msr pmevtyper0_el0, xzr
    msr pmevtyper1_el0, xzr
    msr pmevtyper2_el0, xzr
    mov x0, #(1 << 31)          // P: not at EL1
    msr pmevtyper3_el0, x0
    ldr x0, =0xfffffffe
    msr pmevcntr0_el0, x0
    msr pmevcntr1_el0, xzr
    mov x0, #5
    msr pmevcntr2_el0, x0
    mov x0, #7
    msr pmevcntr3_el0, x0
    mov x0, #0b1011
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr daifclr, #2
    mov x0, #0b1111
    msr pmswinc_el0, x0         // PMCR_EL0.E = 0: ignored by every counter
    mov x0, #1
    msr pmcr_el0, x0
    mov x0, #0b1111
    msr pmswinc_el0, x0         // counter 0: 2^32 - 1, counter 1: 1
    mov x0, #0b0010
    msr pmswinc_el0, x0         // counter 1: 2
    mov x0, #0b0001
    msr pmswinc_el0, x0         // counter 0 overflows
after:
    nop                         // the IRQ is taken before this one
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmevcntr2_el0
    mrs x13, pmevcntr3_el0
    adr x1, after
    system_off

handler:
    mrs x20, elr_el1
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, pmovsclr_el0
    msr pmovsclr_el0, x22
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    eret

vectors vec, handler
