// CHAIN: PMEVCNTR0_EL0 counts INST_RETIRED from 2^32 - 10, PMEVCNTR1_EL0 counts CHAIN (0x1E)
// from 2^32 - 1. PMCR_EL0 is written with x1 (from the test: E, and LP when asked); that MSR
// and the 19 NOPs after it are the 20 instructions counted (the MSR that clears E is not).
// x10, x11: the counters; x12: PMOVSCLR_EL0.
#include "common.inc"
.global _start
_start:
    mov x0, #0x08               // INST_RETIRED
    msr pmevtyper0_el0, x0
    mov x0, #0x1e               // CHAIN, counted at every Exception level
    msr pmevtyper1_el0, x0
    ldr x0, =0xfffffff6         // 2^32 - 10
    msr pmevcntr0_el0, x0
    ldr x0, =0xffffffff         // 2^32 - 1
    msr pmevcntr1_el0, x0
    mov x0, #3
    msr pmcntenset_el0, x0
    msr pmcr_el0, x1            // 1
    .rept 19                    // 2 .. 20
    nop
    .endr
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmovsclr_el0
    system_off
