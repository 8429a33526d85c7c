// PMU overflow interrupt at the exact instruction: PMEVCNTR0_EL0 counts INST_RETIRED from
// 2^32 - 10; the GIC delivers PMUIRQ (PPI 23) and the IRQ is taken right after the tenth
// instruction counted. The handler keeps ELR_EL1, ICC_IAR1_EL1 and PMOVSCLR_EL0.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    // GIC: system register interface, priority mask, Group 1, PPI 23 in Group 1 enabled.
    mov x0, #1
    msr s3_0_c12_c12_5, x0      // ICC_SRE_EL1.SRE
    isb
    mov x0, #0xff
    msr s3_0_c4_c6_0, x0        // ICC_PMR_EL1
    mov x0, #1
    msr s3_0_c12_c12_7, x0      // ICC_IGRPEN1_EL1
    ldr x1, =0x08000000         // GICD_CTLR: EnableGrp1 (bit 1) | ARE
    mov w0, #0x12
    str w0, [x1]
    ldr x1, =0x080B0000         // GICR SGI_base of CPU 0
    mov w0, #(1 << 23)
    str w0, [x1, #0x80]         // GICR_IGROUPR0
    str w0, [x1, #0x100]        // GICR_ISENABLER0
    ldr x1, =0x080A0014         // GICR_WAKER: clear ProcessorSleep
    str wzr, [x1]
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
