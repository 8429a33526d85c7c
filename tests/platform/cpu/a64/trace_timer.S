// The Generic Timer's interrupt for the trace listener (test_a64_trace.cpp): taken (10 us after
// it is set) during a loop of 100000 iterations of one block, between two of its blocks, and
// returned from; then a WFI waits for the timer again (20 us), and the interrupt is taken after
// it. The handler stops the timer, acknowledges the interrupt and returns with ERET.
#include "common.inc"
#define LONG 100000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 30, isb_a    // its ISB: a P0 element (isb_a)
    msr daifclr, #2
    // The timer: 625 ticks (10 us at 62.5 MHz) from now, during the loop.
    mov x0, #625
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
    ldr x1, =LONG
long:
    subs x1, x1, #1
long_br:
    b.ne long
    // WFI until the timer's next interrupt (20 us).
    mov x0, #1250
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
wfi_a:
    wfi
after_wfi:
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0

handler:
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    msr cntp_ctl_el0, xzr
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    add x25, x25, #1
handler_eret:
    eret

vectors vec, handler
