// An ERET that returns to itself at EL1 while MDSCR_EL1.MDE is set (fuzz_cpu's find: every block
// of the loop ends with the ERET, after which the CPU looks at what debug needs again). The
// loop runs with IRQs unmasked (SPSR_EL1 EL1h, D, A, F masked, I clear) until the EL1 physical
// timer's interrupt (CNTP_TVAL_EL0 625: 10 us) is taken: x9 1, x21 its INTID (30), x20 the
// ERET's address (ELR_EL1).
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 30
    mov x0, #(1 << 15)          // MDSCR_EL1.MDE (the OS Lock stays locked)
    msr mdscr_el1, x0
    mov x0, #625
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
    adr x1, loop
    msr elr_el1, x1
    mov x2, #0x345              // SPSR_EL1: EL1h, D, A, F masked, I clear
    msr spsr_el1, x2
    isb
loop:
    eret                        // returns to itself

handler:
    mov x9, #1
    mrs x20, elr_el1
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    msr cntp_ctl_el0, xzr
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    system_off

vectors vec, handler
