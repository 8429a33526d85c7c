// RAM through a high virtual range (TTBR1_EL1, T1SZ 25: VAs from 0xFFFF_FF80_0000_0000), which
// is not a physical address: code runs there and loads and stores go through it at the engine's
// speed (docs/cpu.md, "The memory path"), while a device in the same range still goes to the
// bus; after a TLB invalidation a page remapped from RAM to the device reaches the device. A load
// from an address the tables do not map in that range is a translation fault (the engine raises
// it: the CPU walks the tables for its syndrome).
//
//   TTBR0 L1 (0x40100000): [0] 1 GiB Device block at 0, [1] 1 GiB block at 0x40000000 (identity)
//   TTBR1 L1 (0x40101000): [1] 1 GiB block at 0x40000000 (VA HI + 0x4000_0000), [2] -> L2
//   L2 (0x40102000): [0] -> L3, [1] 2 MiB Device block at 0x09000000 (the PL011)
//   L3 (0x40103000): [0] page at 0x40200000, [1] page at 0x40300000 (then: the PL011)
#include "common.inc"
#define HI 0xFFFFFF8000000000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x25, #0
    ldr x1, =0x40100000
    mov x0, #0x405              // block, AttrIndx 1 (Device), AF
    str x0, [x1]
    ldr x0, =0x40000701         // block, AttrIndx 0 (Normal), SH inner, AF
    str x0, [x1, #8]
    ldr x1, =0x40101000
    ldr x0, =0x40000701
    str x0, [x1, #8]
    ldr x0, =0x40102003         // table
    str x0, [x1, #16]
    ldr x1, =0x40102000
    ldr x0, =0x40103003
    str x0, [x1]
    ldr x0, =0x09000405         // Device block
    str x0, [x1, #8]
    ldr x1, =0x40103000
    ldr x0, =0x40200703         // page, AF
    str x0, [x1]
    ldr x0, =0x40300703
    str x0, [x1, #8]
    mmu_on_el1 0x40100000, 0x40101000

    ldr x4, =func + HI          // code through the block: fetched by its high address
    blr x4
    adr x17, func               // x12 (func's own adr) is x17 + HI
    ldr x1, =0x40200000 + HI    // data through the block
    ldr x2, =0x40200000
    ldr x0, =0x1122334455667788
    str x0, [x1]
    ldr x10, [x2]               // 0x1122334455667788, stored through the block
    mov x3, #1000
    mov x11, #0
1:  ldr x4, [x1]
    add x11, x11, x4
    subs x3, x3, #1
    b.ne 1b                     // x11 = 1000 * 0x1122334455667788
    ldr x5, =0x80000000 + HI    // the pages
    ldr x0, =0xAAAA
    str x0, [x5, #8]
    ldr x14, [x2, #8]           // 0xAAAA: page 0 is 0x40200000
    ldr x0, =0xBBBB
    str x0, [x5, #0x1008]
    ldr x6, =0x40300000
    ldr x15, [x6, #8]           // 0xBBBB: page 1 is 0x40300000
    ldr x7, =0x80200000 + HI    // the PL011 through the Device block
    mov w0, #'o'
    strb w0, [x7]
    mov w0, #'k'
    strb w0, [x7]
    ldr x8, =0x40103008         // page 1 to the PL011: break, invalidate, make
    str xzr, [x8]
    dsb ishst
    tlbi vmalle1
    dsb ish
    isb
    ldr x0, =0x09000407         // page, AttrIndx 1, AF
    str x0, [x8]
    dsb ishst
    isb
    mov w0, #'!'
    add x9, x5, #0x1000
    strb w0, [x9]               // to the PL011, not to RAM
    ldr x16, [x1]               // the block again after the invalidation
    ldr x18, [x6]               // RAM at 0x40300000 kept its 0
    ldr x3, =0xC0000008 + HI    // L1[3] is invalid: a translation fault at level 1
fault:
    ldr x19, [x3]
    adr x20, fault
    system_off

func:
    adr x12, .
    mov x13, #0x55
    ret

handler:                        // x25 counts, x27 ESR, x26 FAR, x24 ELR; returns past
    add x25, x25, #1
    mrs x27, esr_el1
    mrs x26, far_el1
    mrs x24, elr_el1
    add x0, x24, #4
    msr elr_el1, x0
    eret

vectors vec, handler
