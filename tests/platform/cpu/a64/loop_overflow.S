// Exact overflow inside loops, where the CPU counts blocks without looking at them one by one
// (a block the engine repeats, docs/cpu.md "The cost"):
// 1. PMEVCNTR0_EL0 counts MEM_ACCESS from 2^32 - 1000 through a loop of one block (LDR, ADD,
//    SUBS, B.NE; 5000 iterations): the 1000th LDR overflows; the IRQ (PPI 23) is taken right
//    after it: ELR_EL1 is `after_ldr` (x20), x3 counts 999 finished iterations (x21).
// 2. PMEVCNTR1_EL0 counts BR_RETIRED from 2^32 - 777 through a loop of two blocks (ADD, B;
//    SUBS, B.NE; 1000 iterations): the 777th branch is the B of iteration 389; ELR_EL1 is its
//    target `target` (x22), x7 is 389 (x23).
// At the end x12 and x13 are both counters: 2^32 - 1000 + 5000 accesses, and 2^32 - 777 + 2000
// loop branches + the handler's 4 (B to it, two TBZ, ERET). x27 counts the interrupts.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    ldr x1, =data
    mov x27, #0
    mov x3, #0
    mov x7, #0
    mov x0, #0x13               // MEM_ACCESS
    msr pmevtyper0_el0, x0
    mov x0, #0x21               // BR_RETIRED
    msr pmevtyper1_el0, x0
    ldr x0, =0xfffffc18         // 2^32 - 1000
    msr pmevcntr0_el0, x0
    ldr x0, =0xfffffcf7         // 2^32 - 777
    msr pmevcntr1_el0, x0
    mov x0, #3
    msr pmintenset_el1, x0
    mov x0, #1
    msr pmcntenset_el0, x0      // counter 0 for phase 1
    mov x6, #5000
    mov x8, #1000
    adr x24, after_ldr
    adr x25, target
    msr daifclr, #2
    msr pmcr_el0, x0            // E
    .balign 64
loop1:
    ldr x4, [x1]
after_ldr:
    add x3, x3, #1
    subs x6, x6, #1
    b.ne loop1
    mov x0, #2
    msr pmcntenset_el0, x0      // counter 1 for phase 2
loop2:
    add x7, x7, #1
    b target
target:
    subs x8, x8, #1
    b.ne loop2
    mrs x12, pmevcntr0_el0
    mrs x13, pmevcntr1_el0
    system_off

handler:
    mrs x9, s3_0_c12_c12_0      // ICC_IAR1_EL1
    mrs x10, elr_el1
    mrs x11, pmovsclr_el0
    msr pmovsclr_el0, x11
    tbz x11, #0, 1f
    mov x20, x10
    mov x21, x3
1:  tbz x11, #1, 2f
    mov x22, x10
    mov x23, x7
2:  add x27, x27, #1
    msr s3_0_c12_c12_1, x9      // ICC_EOIR1_EL1
    eret

vectors vec, handler

.balign 16
data:
    .quad 1
