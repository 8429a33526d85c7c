// PMU overflow interrupt at the exact instruction: PMEVCNTR0_EL0 counts INST_RETIRED from
// 2^32 - 10; the GIC delivers PMUIRQ (PPI 23) and the IRQ is taken right after the tenth
// instruction counted. The handler keeps ELR_EL1, ICC_IAR1_EL1 and PMOVSCLR_EL0.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23
    // PMU: event counter 0 counts INST_RETIRED (0x08), interrupt on overflow.
    mov x0, #0x08
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffff6         // 2^32 - 10
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr daifclr, #2             // unmask IRQ
    mov x0, #1                  // PMCR_EL0.E
enable:
    msr pmcr_el0, x0            // counts itself: instruction 1
    nop                         // 2
    nop
    nop
    nop
    nop
    nop
    nop
    nop
    nop                         // 10: the overflow
after:
    nop                         // the IRQ is taken before this one
    nop
    nop
    adr x1, enable
    adr x2, after
    system_off

handler:
    mrs x20, elr_el1
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, pmovsclr_el0
    msr pmovsclr_el0, x22
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    mov x23, x28
    mrs x24, pmevcntr0_el0
    eret

vectors vec, handler
