// Stall cycles of the CPU's timing model (the test sets the bus latency to 10 cycles and
// exception entry to 5 cycles). Counters: 0 STALL_FRONTEND, 1 STALL_BACKEND, 2 STALL. Each of
// ITERATIONS iterations loads the PL011's UARTFR (a device access: the bus's 10 cycles) and
// takes an SVC (its entry's 5 cycles). x10..x12 get the counters after the loop.
#include "common.inc"
#define ITERATIONS 4
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x1, =0x09000018         // UARTFR
    mov x2, #ITERATIONS
    mov x0, #0x23
    msr pmevtyper0_el0, x0
    mov x0, #0x24
    msr pmevtyper1_el0, x0
    mov x0, #0x3c
    msr pmevtyper2_el0, x0
    mov x0, #7
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0            // E: counting starts
loop:
    ldr w3, [x1]
    svc #0
    subs x2, x2, #1
    b.ne loop
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmevcntr2_el0
    system_off

handler:
    eret

vectors vec, handler
