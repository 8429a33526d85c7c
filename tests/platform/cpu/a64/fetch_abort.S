// Instruction fetches from addresses that are not memory (issue 27): the architecture says a
// synchronous exception to the software, never an end of the simulation. With the MMU off, a
// branch to a hole of the memory map (0x0000_1000: nothing there) and to a device (the GIC
// Distributor at 0x0800_0000) is a synchronous External abort on the fetch (EC 0x21, IFSC
// 0b010000: the platform's devices answer no instruction fetch). With the MMU on (the tables of
// mmu_abort.S: VA 0 maps 1 GiB of Device-nGnRnE at PA 0), the branch to VA 0x0000_2000 goes to
// the hole, Device memory: the same External abort (a fetch from Device memory is not a
// Permission fault: INSTRDEVICE's choice, docs/choices.md). The handler records ESR_EL1, FAR_EL1,
// ELR_EL1 and SPSR_EL1 of each (32 bytes a record at 0x40200100) and returns to the caller.
#include "common.inc"
#define RECORDS 0x40200100
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x19, #0
    mov x4, #0x1000
hole:
    blr x4                      // MMU off: a hole
    ldr x4, =0x08000000
device:
    blr x4                      // MMU off: the GIC Distributor
    ldr x1, =0x40100000
    mov x0, #0x405              // [0] 1 GiB block at 0, AttrIndx 1 (Device), AF
    str x0, [x1]
    ldr x0, =0x40000701         // [1] 1 GiB block at 0x40000000, Normal, AF
    str x0, [x1, #8]
    mov x0, #0xFF               // MAIR_EL1: Attr0 Normal write-back, Attr1 Device-nGnRnE
    msr mair_el1, x0
    ldr x0, =0x200803519        // TCR_EL1: T0SZ 25, TG0 4K, EPD1, IPS 40 bits
    msr tcr_el1, x0
    msr ttbr0_el1, x1
    isb
    mrs x0, sctlr_el1
    orr x0, x0, #1              // M
    msr sctlr_el1, x0
    isb
    mov x4, #0x2000
mmu_hole:
    blr x4                      // MMU on: Device memory over a hole
    adr x6, hole
    adr x7, device
    adr x8, mmu_hole
    system_off

handler:
    read_syndrome
    mrs x24, far_el1
    ldr x25, =RECORDS
    add x25, x25, x19, lsl #5
    stp x20, x24, [x25]
    stp x21, x22, [x25, #16]
    add x19, x19, #1
    msr elr_el1, x30            // back to the caller
    eret

vectors vec, handler
