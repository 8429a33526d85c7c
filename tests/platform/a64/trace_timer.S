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
    mov x0, #1
    msr s3_0_c12_c12_5, x0      // ICC_SRE_EL1.SRE
isb_a:
    isb
    mov x0, #0xff
    msr s3_0_c4_c6_0, x0        // ICC_PMR_EL1
    mov x0, #1
    msr s3_0_c12_c12_7, x0      // ICC_IGRPEN1_EL1
    ldr x1, =0x08000000         // GICD_CTLR: EnableGrp1 | ARE
    mov w0, #0x12
    str w0, [x1]
    ldr x1, =0x080B0000         // GICR SGI_base of CPU 0
    mov w0, #(1 << 30)
    str w0, [x1, #0x80]         // GICR_IGROUPR0
    str w0, [x1, #0x100]        // GICR_ISENABLER0
    ldr x1, =0x080A0014         // GICR_WAKER: clear ProcessorSleep
    str wzr, [x1]
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
