// Entered at EL3 the image is the firmware: the GIC is as reset left it. x10: GICR_WAKER
// (ProcessorSleep and ChildrenAsleep set); then the Redistributor woken as firmware wakes it,
// x11: GICR_WAKER after (0).
#include "common.inc"
.global _start
_start:
    ldr x1, =0x080A0014         // GICR_WAKER
    ldr w10, [x1]
    ldr w0, [x1]
    bic w0, w0, #2              // ProcessorSleep
    str w0, [x1]
1:  ldr w11, [x1]
    tbnz w11, #2, 1b            // ChildrenAsleep
    semihosting_exit
