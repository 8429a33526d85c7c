// Exception levels and context for the trace listener (test_a64_trace.cpp): at EL1 the program
// writes CONTEXTIDR_EL1 (0x55), then enters EL0 with ERET; EL0 makes an SVC, taken to EL1 at the
// vector for a lower EL (VBAR_EL1 + 0x400), whose handler turns the PE off.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x0, =0x40200000
    msr sp_el0, x0
    ldr x0, =el0_code
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t, interrupts unmasked
    mov x0, #0x55
write_ctx:
    msr contextidr_el1, x0
    isb
to_el0:
    eret

el0_code:
    mov x1, #1
svc0:
    svc #0

handler:
    mov x2, #2
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0

vectors vec, handler
