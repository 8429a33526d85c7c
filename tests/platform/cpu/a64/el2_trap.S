// A program entered at EL2 (EL2h, MMU off, D, A, I, F masked). It makes EL1 AArch64
// (HCR_EL2.RW), traps EL1's PMU accesses to EL2 (MDCR_EL2.TPM, HPMN = 6: every counter in the
// first range), and counts at EL1 and EL0 only (PMEVTYPER NSH = 0): counter 0 EXC_TAKEN,
// 1 EXC_TRAP_OTHER, 2 EXC_UNDEF, 3 EXC_HVC, 4 EXC_SVC, 5 EXC_RETURN. It ERETs to EL1, which
// executes MRS PMCCNTR_EL0 (trapped to EL2: the EL2 handler keeps ESR_EL2 (x20), ELR_EL2 (x21),
// SPSR_EL2 (x22), the vector entry (x23) and skips it), SVC #7 (to EL1: the EL1 handler keeps
// ESR_EL1 in x24 and returns) and HVC #3 (to EL2: the EL2 handler keeps ESR_EL2 in x26 and the
// entry in x27, reads the counters into x10..x15 and turns the PE off with SMC, the PSCI
// conduit at EL2). x1 `trap`.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec2
    msr vbar_el2, x0
    ldr x0, =vec1
    msr vbar_el1, x0
    mov x0, #(1 << 31)          // HCR_EL2.RW: EL1 is AArch64
    msr hcr_el2, x0
    mov x0, #(6 | (1 << 6))     // MDCR_EL2.HPMN = 6, TPM
    msr mdcr_el2, x0
    mov x0, #0x09
    msr pmevtyper0_el0, x0
    mov x0, #0x8d
    msr pmevtyper1_el0, x0
    mov x0, #0x81
    msr pmevtyper2_el0, x0
    mov x0, #0x8a
    msr pmevtyper3_el0, x0
    mov x0, #0x82
    msr pmevtyper4_el0, x0
    mov x0, #0x0a
    msr pmevtyper5_el0, x0
    mov x0, #0x3f
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0
    mov x5, #0
    adr x0, el1
    msr elr_el2, x0
    mov x0, #0x3c5              // EL1h, D, A, I, F masked
    msr spsr_el2, x0
    eret
el1:
trap:
    mrs x5, pmccntr_el0         // MDCR_EL2.TPM: to EL2
    svc #7                      // to EL1
    hvc #3                      // to EL2: the end
    b .

el2_handler:
    mrs x9, esr_el2
    lsr x9, x9, #26
    cmp x9, #0x16
    b.eq el2_hvc
    mrs x20, esr_el2
    mrs x21, elr_el2
    mrs x22, spsr_el2
    mov x23, x28
    add x21, x21, #4
    msr elr_el2, x21
    sub x21, x21, #4
    eret
el2_hvc:
    mrs x26, esr_el2
    mov x27, x28
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmevcntr2_el0
    mrs x13, pmevcntr3_el0
    mrs x14, pmevcntr4_el0
    mrs x15, pmevcntr5_el0
    adr x1, trap
    ldr x0, =PSCI_SYSTEM_OFF
    smc #0

el1_handler:
    mrs x24, esr_el1
    eret

vectors vec2, el2_handler
vectors vec1, el1_handler
