// The Generic Timer interrupts a busy PE: CNTP_TVAL_EL0 = 625 (10 us at 62.5 MHz),
// CNTP_CTL_EL0.ENABLE, IRQs unmasked, then a loop (no WFI) that ends when the handler has run
// (x9 = 1) or after 10^6 iterations (x9 = 0). The handler reads the count and stops the timer.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 30
    mov x8, #0
    mov x9, #0
    ldr x7, =1000000
    isb
    mrs x1, cntpct_el0
    mov x0, #625
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
    msr daifclr, #2
1:  add x8, x8, #1
    cbnz x9, 2f
    cmp x8, x7
    b.lo 1b
2:  system_off

handler:
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, cntpct_el0
    mrs x23, cntp_ctl_el0
    msr cntp_ctl_el0, xzr
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    mov x9, #1
    eret

vectors vec, handler
