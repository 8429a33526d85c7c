// Exact overflow of events other than INST_RETIRED, inside a block and at its end.
// 1. PMEVCNTR0_EL0 counts MEM_ACCESS from 2^32 - 5: the fifth access after the enabling MSR
//    overflows (ldr, str, ldp, stp, ldr, with data processing between them, one block); the
//    IRQ (PPI 23) is taken right after it: its ELR_EL1 is `after_mem` (x20).
// 2. PMEVCNTR1_EL0 counts BR_RETIRED from 2^32 - 3: the third branch of `b; b; b` overflows,
//    the last instruction of its block; the IRQ's ELR_EL1 is the branch's target `after_br`
//    (x21). The handler keeps PMOVSCLR_EL0 of each (x22, x23) and clears it.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    ldr x1, =data
    mov x27, #0                 // interrupts taken
    mov x0, #0x13               // MEM_ACCESS
    msr pmevtyper0_el0, x0
    mov x0, #0x21               // BR_RETIRED
    msr pmevtyper1_el0, x0
    ldr x0, =0xfffffffb         // 2^32 - 5
    msr pmevcntr0_el0, x0
    ldr x0, =0xfffffffd         // 2^32 - 3
    msr pmevcntr1_el0, x0
    mov x0, #3
    msr pmintenset_el1, x0
    mov x0, #1
    msr pmcntenset_el0, x0      // counter 0 only
    msr daifclr, #2
    msr pmcr_el0, x0            // E
    add x3, x3, #1
    ldr x4, [x1]                // 1
    add x3, x3, #1
    str x4, [x1, #8]            // 2
    ldp x5, x6, [x1]            // 3: one instruction, one access
    add x3, x3, #1
    stp x5, x6, [x1, #16]       // 4
    add x3, x3, #1
    ldr x7, [x1, #24]           // 5: overflow
after_mem:
    add x3, x3, #1              // the IRQ is taken before this one
    str x7, [x1]
    add x3, x3, #1
    mov x0, #1
    msr pmcntenclr_el0, x0      // phase 2: counter 1 alone
    mov x0, #2
    msr pmcntenset_el0, x0
    b 1f                        // 1
1:  b 2f                        // 2
2:  b after_br                  // 3: overflow
    nop
after_br:
    nop                         // the IRQ is taken before this one
    nop
    system_off

handler:
    mrs x9, elr_el1
    mrs x10, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x11, pmovsclr_el0
    msr pmovsclr_el0, x11
    msr s3_0_c12_c12_1, x10     // ICC_EOIR1_EL1
    cbnz x27, 1f
    mov x20, x9
    mov x22, x11
    b 2f
1:  mov x21, x9
    mov x23, x11
2:  add x27, x27, #1
    adr x24, after_mem
    adr x25, after_br
    eret

vectors vec, handler

.balign 16
data:
    .quad 1, 2, 3, 4
