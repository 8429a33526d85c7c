// Exact overflow after a change of Exception level: PMEVCNTR0_EL0 counts INST_RETIRED only at
// EL0 (PMEVTYPER0_EL0.P = 1) from 2^32 - 5, with its overflow interrupt (PPI 23) enabled. EL1
// enables counting and ERETs to `user` at EL0t (DAIF clear); the fifth instruction there
// overflows and the IRQ is taken to EL1 (lower EL, IRQ: vector entry 9) before the sixth.
// The IRQ handler keeps ELR_EL1 (x20), SPSR_EL1 (x21), the INTID (x22) and PMOVSCLR_EL0 (x23);
// the SVC at the end of `user` brings the program back to EL1 (entry 8) to end it. With x1 != 0
// SCTLR_EL1.nTWI is cleared first: WFI at EL0 traps to EL1 (nothing here executes one).
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    cbz x1, 1f
    mrs x0, sctlr_el1
    bic x0, x0, #(1 << 16)      // nTWI
    msr sctlr_el1, x0
    isb
1:  gic_enable_ppi 23
    mov x0, #0x08
    orr x0, x0, #(1 << 31)      // P: not at EL1
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffffb         // 2^32 - 5
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t, DAIF clear
    eret
user:
    .rept 10
    nop
    .endr
    svc #0

handler:
    cmp x28, #9
    b.ne done
    mrs x20, elr_el1
    mrs x21, spsr_el1
    mrs x22, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x23, pmovsclr_el0
    msr pmovsclr_el0, x23
    msr s3_0_c12_c12_1, x22     // ICC_EOIR1_EL1
    eret
done:
    adr x1, user
    system_off

vectors vec, handler
