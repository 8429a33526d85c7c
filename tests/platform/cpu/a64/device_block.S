// Device accesses in the middle of straight-line code (no branch between them and the
// instructions around them, so one engine block holds them): each access is made once, at the
// instruction, and every instruction around it runs once; a store to a hole in the map is a
// synchronous External abort at the store, the instructions after it running once, after the
// handler. Three times: MMU off at EL1; MMU on at EL1 (the PL011 through a Device block); MMU on
// at EL0, whose code and data use virtual addresses that are physical addresses of devices and
// holes but map to RAM (as a user process's may: busybox at 0x400000, a heap in the device
// window), which reach RAM and no device.
//
//   TTBR0 L1 (0x40100000): [0] -> L2 (0x40101000); [1] 1 GiB block at 0x40000000 (EL1 only);
//                          [2] 1 GiB block at 0x40000000, EL0 read/write (EL0's code)
//   L2: [2] (VA 0x0040_0000) 2 MiB RAM at 0x40600000, EL0; [64] (VA 0x0800_0000, the GIC's
//       physical address) 2 MiB RAM at 0x40400000, EL0; [72] the PL011, Device, EL0;
//       [80] (0x0A00_0000, a hole) Device, EL0
// Results: x10 (MMU off), x13 (EL1, MMU on), x14 (EL0) count to 4 around a PL011 store and load;
// x11, x12, x17 to 3 around a store to the hole; x15, x16 what EL0 read back from RAM;
// x4 GICR_TYPER (a 64-bit load), x5 and x6 GICR_CTLR and GICR_IIDR (a pair);
// x18/x19/x26 ESR/ELR/FAR of the EL1 aborts (the last), x23/x24/x25 of EL0's.
#include "common.inc"
#define USER_OFFSET 0x40000000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x1, =0x09000000
    ldr x7, =0x0A000000

    // MMU off, EL1.
    mov x10, #1
    mov w2, #'a'
    strb w2, [x1]
    add x10, x10, #1
    ldr w3, [x1, #0x18]          // UARTFR
    add x10, x10, #1
    add x10, x10, #1
    mov x11, #1
hole_off:
    str w11, [x7, #8]
    add x11, x11, #1
    add x11, x11, #1
    ldr x8, =0x080A0000
    ldr x4, [x8, #8]             // GICR_TYPER
    ldp w5, w6, [x8]             // GICR_CTLR, GICR_IIDR

    // The tables, then the MMU on.
    ldr x1, =0x40100000
    ldr x0, =0x40101003          // table
    str x0, [x1]
    ldr x0, =0x40000701          // block, Normal, inner shareable, AF, EL1 read/write
    str x0, [x1, #8]
    ldr x0, =0x40000741          // the same, EL0 read/write (AP[1])
    str x0, [x1, #16]
    ldr x1, =0x40101000
    ldr x0, =0x40600741
    str x0, [x1, #2 * 8]
    ldr x0, =0x40400741
    str x0, [x1, #64 * 8]
    ldr x0, =0x09000445          // block, Device (AttrIndx 1), AF, EL0 read/write
    str x0, [x1, #72 * 8]
    ldr x0, =0x0A000445
    str x0, [x1, #80 * 8]
    mmu_on_el1 0x40100000

    // MMU on, EL1.
    ldr x1, =0x09000000
    mov x13, #1
    mov w2, #'b'
    strb w2, [x1]
    add x13, x13, #1
    ldr w3, [x1, #0x18]
    add x13, x13, #1
    add x13, x13, #1
    mov x12, #1
hole_on:
    str w12, [x7, #8]
    add x12, x12, #1
    add x12, x12, #1

    // EL0, through its own mapping of RAM.
    ldr x0, =user + USER_OFFSET
    msr elr_el1, x0
    msr spsr_el1, xzr            // EL0t
    eret
user:
    mov x14, #1
    mov w2, #'c'
    strb w2, [x1]
    add x14, x14, #1
    ldr w3, [x1, #0x18]
    add x14, x14, #1
    add x14, x14, #1
    ldr x2, =0x08000010          // the GIC's physical address: RAM 0x40400010
    ldr x0, =0x5A5A
    str x0, [x2]
    ldr x15, [x2]
    ldr x2, =0x00400020          // a hole's physical address: RAM 0x40600020
    ldr x0, =0x6B6B
    str x0, [x2]
    ldr x16, [x2]
    mov x17, #1
hole_el0:
    str w17, [x7, #8]
    add x17, x17, #1
    add x17, x17, #1
    svc #0
back:
    system_off

handler:                         // from EL1: returns past the instruction
    mrs x18, esr_el1
    mrs x19, elr_el1
    mrs x26, far_el1
    add x0, x19, #4
    msr elr_el1, x0
    eret
lower:                           // from EL0: an SVC ends it, an abort returns past
    mrs x0, esr_el1
    lsr x0, x0, #26
    cmp x0, #0x15
    b.eq 1f
    mrs x23, esr_el1
    mrs x24, elr_el1
    mrs x25, far_el1
    add x0, x24, #4
    msr elr_el1, x0
    eret
1:  ldr x0, =back
    msr elr_el1, x0
    mov x0, #0x3c5               // EL1h
    msr spsr_el1, x0
    eret

.balign 2048
vec:
    .irp n, 0,1,2,3,4,5,6,7
    .balign 128
    b handler
    .endr
    .irp n, 8,9,10,11,12,13,14,15
    .balign 128
    b lower
    .endr
