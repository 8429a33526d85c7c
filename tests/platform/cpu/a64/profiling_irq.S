// A PMU Profiling exception (FEAT_EBEP, set up as in pmu_exception.S) and an IRQ pending at the
// same instruction boundary: counter 0 counts INST_RETIRED from 2^64 - 3, so the third
// instruction from the enabling MSR overflows it: the MSR ICC_SGI1R_EL1 that makes SGI 1
// pending for this PE (enabled in the GIC, PSTATE.I clear). The Profiling exception's handler
// (entry 4) records its turn in x20 and ELR_EL1 in x21 and clears PMOVS; the IRQ handler
// (entry 5) records its turn in x22, ELR_EL1 in x23, the INTID in x24, and ends the interrupt.
// x1 `after`.
#include "common.inc"
#include "profiling.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 1            // SGI 1
    mov x19, #0
    mov x0, #PMECR_EXCEPTION
    msr PMECR_EL1, x0
    mov x0, #0x08               // INST_RETIRED
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffffffffffffd // 2^64 - 3
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    ldr x2, =((1 << 24) | 1)    // ICC_SGI1R_EL1: INTID 1, TargetList: PE 0
    msr daifclr, #2
    msr pmcr_el0, x0            // E; counts itself: 1
    nop                         // 2
    msr s3_0_c12_c11_5, x2      // 3: ICC_SGI1R_EL1, overflows
after:
    nop
    nop
    msr pmcr_el0, xzr
    adr x1, after
    system_off

handler:
    add x19, x19, #1
    cmp x28, #5
    b.eq irq
    mov x20, x19
    mrs x21, elr_el1
    mov x0, #1
    msr pmovsclr_el0, x0
    eret
irq:
    mov x22, x19
    mrs x23, elr_el1
    mrs x24, s3_0_c12_c12_0     // ICC_IAR1_EL1
    msr s3_0_c12_c12_1, x24     // ICC_EOIR1_EL1
    eret

vectors vec, handler
