// The buffer at a virtual address (TTBR1_EL1) whose pages are not in physical order, as Linux's
// coresight-trbe gives the kernel's mapping of the perf AUX pages: the Trace Buffer Unit's writes
// are translated by the owning regime's stage 1 (D6.3.4). The MMU is on for the whole program:
//
//   TTBR0 L1 (0x40300000): [0] 1 GiB Device block at 0 (the GIC), [1] 1 GiB block at 0x40000000,
//   read-only at EL1 and EL0 (the program's code and data; it stores nothing)
//   TTBR1 L1 (0x40301000): [1] -> L2 (0x40302000): [0] -> L3 (0x40303000):
//     [0] page at 0x40101000, [1] page at 0x40100000 (swapped), [2] page at 0x40102000, or the
//     descriptor THIRD when defined
// The buffer is VA BUF = HI + 0x40000000, LIMIT BUF + 0x3000.
#define HI 0xFFFFFF8000000000
#define BUF (HI + 0x40000000)
#define LIMIT (BUF + 0x3000)
#define VICTLR 0x201
#ifndef LONG
#define LONG 100000
#endif

.macro mmu_high_buffer
    ldr x1, =0x40300000
    mov x0, #0x405              // Device block (AttrIndx 1), AF
    str x0, [x1]
    ldr x0, =0x400007C1         // block, AP 0b11 (read-only, EL0 too), SH inner, AF, PXN 0
    str x0, [x1, #8]
    ldr x1, =0x40301000
    ldr x0, =0x40302003
    str x0, [x1, #8]
    ldr x1, =0x40302000
    ldr x0, =0x40303003
    str x0, [x1]
    ldr x1, =0x40303000
    ldr x0, =0x40101703         // page, AF, SH inner, EL1 read/write
    str x0, [x1]
    ldr x0, =0x40100703
    str x0, [x1, #8]
#ifndef THIRD
#define THIRD 0x40102703
#endif
    ldr x0, =THIRD
    str x0, [x1, #16]
    mmu_on_el1 0x40300000, 0x40301000
.endm
#define PROLOGUE mmu_high_buffer
#include "ete_capture.inc"
