// Aborts with the MMU on: EL1 maps its RAM with 4 KiB-granule tables (T0SZ 25, walks from level
// 1) and then loads from an address whose level 2 entry is invalid, loads from a page whose level 3
// entry is invalid, loads from a page whose Access flag is 0, stores to a read-only page, and
// branches to an unmapped address. The handler records ESR_EL1, FAR_EL1, ELR_EL1 and SPSR_EL1 of
// each (32 bytes a record at 0x40200100) and returns past the access (for the branch, to the
// caller).
//
// Before the aborts, RAM is also reached through a second virtual range (VA 0x8000_0000 maps the
// same 1 GiB as 0x4000_0000): x11 and x12 show what went through it.
//
//   L1 (0x40100000): [0] 1 GiB block at 0 (Device-nGnRnE), [1] -> L2, [2] 1 GiB block at
//                    0x40000000 (Normal)
//   L2 (0x40101000): [0] 2 MiB block at 0x40000000 (Normal), [1] -> L3, [2] invalid
//   L3 (0x40102000): [0] 0x40200000 RW, [1] invalid, [2] AF = 0, [3] read-only (AP 0b10)
#include "common.inc"
#define RECORDS 0x40200100
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x19, #0
    ldr x1, =0x40100000
    mov x0, #0x405              // block, AttrIndx 1, AF
    str x0, [x1]
    ldr x0, =0x40101003         // table
    str x0, [x1, #8]
    ldr x0, =0x40000701         // block, Normal, AF
    str x0, [x1, #16]
    ldr x1, =0x40101000
    ldr x0, =0x40000701         // block, AttrIndx 0, SH inner, AF
    str x0, [x1]
    ldr x0, =0x40102003
    str x0, [x1, #8]
    ldr x1, =0x40102000
    ldr x0, =0x40200703         // page, AF
    str x0, [x1]
    ldr x0, =0x40202303         // page, AF = 0
    str x0, [x1, #16]
    ldr x0, =0x40203783         // page, AF, AP[2] = 1: read-only
    str x0, [x1, #24]
    mmu_on_el1 0x40100000, , 0x200803519 // TCR_EL1: T0SZ 25, WB, inner, TG0 4K, EPD1, IPS 40 bits
    ldr x2, =0x40200000         // a mapped page works
    str x2, [x2]
    ldr x3, [x2]
    ldr x1, =0x80200000         // the same page through the second range
    ldr x12, [x1]               // what was stored at 0x40200000: 0x40200000
    mov x0, #0x77
    str x0, [x1, #8]
    ldr x11, [x2, #8]           // 0x77, through the first range
    ldr x4, =0x40400010
level2:
    ldr x5, [x4]                // translation fault, level 2
    ldr x4, =0x40201008
level3:
    ldr x5, [x4]                // translation fault, level 3
    ldr x4, =0x40202000
access_flag:
    ldr x5, [x4]                // Access flag fault, level 3
    ldr x4, =0x40203010
permission:
    str x5, [x4]                // Permission fault, level 3 (a write)
    ldr x4, =0x40400000
branch:
    blr x4                      // instruction abort: translation fault, level 2
    adr x6, level2
    adr x7, level3
    adr x8, access_flag
    adr x9, permission
    adr x10, branch
    system_off

handler:
    read_syndrome
    mrs x24, far_el1
    ldr x25, =RECORDS
    add x25, x25, x19, lsl #5
    stp x20, x24, [x25]
    stp x21, x22, [x25, #16]
    add x19, x19, #1
    cmp x23, #0x21              // an instruction abort: back to the caller
    b.ne 1f
    msr elr_el1, x30
    eret
1:  add x21, x21, #4
    msr elr_el1, x21
    eret

vectors vec, handler
