// Device accesses: bytes to the PL011's UARTDR, a 32-bit read of its UARTFR, a 64-bit read of
// GICR_TYPER; then a load from a hole in the memory map: a synchronous External abort (Data
// Abort, DFSC 0b010000) with the syndrome of the load and FAR the address.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x1, =0x09000000
    mov w2, #'h'
    strb w2, [x1]
    mov w2, #'i'
    strb w2, [x1]
    ldr w3, [x1, #0x18]         // UARTFR
    ldr x1, =0x080A0000
    ldr x4, [x1, #8]            // GICR_TYPER (64-bit)
    ldr x1, =0x0A000000         // nothing there
hole:
    ldr w5, [x1, #4]
    mov x9, #1
    adr x6, hole
    system_off

handler:
    mrs x20, esr_el1
    mrs x21, elr_el1
    mrs x22, far_el1
    add x24, x21, #4
    msr elr_el1, x24
    eret

vectors vec, handler
