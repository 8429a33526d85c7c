// An interrupt inside a block for the trace listener (test_a64_trace.cpp): a PMU overflow
// (INST_RETIRED from 2^32 - 10, as overflow.S) takes PMUIRQ right after the tenth instruction
// counted, inside a block of NOPs, after the instructions that retired. The handler
// acknowledges it and returns with ERET.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 23, isb_a    // its ISB: a P0 element (isb_a)
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
after_overflow:
    nop                         // the IRQ is taken before this one
    msr pmcr_el0, xzr
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0

handler:
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mov x22, #1
    msr pmovsclr_el0, x22
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    add x25, x25, #1
handler_eret:
    eret

vectors vec, handler
