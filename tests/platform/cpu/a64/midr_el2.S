// MIDR_EL1 and VPIDR_EL2 (D24.2.137), entered at EL2: at EL2, MIDR_EL1 (x10) and VPIDR_EL2 out
// of reset (x11); VPIDR_EL2 written 0x410FD461, then ID_AA64PFR0_EL1 at EL2 (x12) and an ERET to
// EL1 (AArch64, HCR_EL2.RW), where MIDR_EL1 reads VPIDR_EL2 (x13); with HCR_EL2.TID3 set from
// EL1 by an HVC, ID_AA64PFR0_EL1 at EL1 traps to EL2 (the EL2 handler keeps ESR_EL2 in x14 and
// skips the MRS, x15 stays 0); an HVC #1 then turns the PE off with SMC (the conduit at EL2).
#include "common.inc"
.global _start
_start:
    ldr x0, =vec2
    msr vbar_el2, x0
    mrs x10, midr_el1
    mrs x11, vpidr_el2
    ldr x0, =0x410FD461
    msr vpidr_el2, x0
    mrs x12, id_aa64pfr0_el1
    mov x0, #(1 << 31)          // HCR_EL2.RW: EL1 is AArch64
    msr hcr_el2, x0
    adr x0, el1
    msr elr_el2, x0
    mov x0, #0x3c5              // EL1h, D, A, I, F masked
    msr spsr_el2, x0
    mov x15, #0
    eret
el1:
    mrs x13, midr_el1
    hvc #0                      // HCR_EL2.TID3 on
el1_trap:
    mrs x15, id_aa64pfr0_el1    // trapped to EL2
    hvc #1                      // the end

el2_handler:
    mrs x9, esr_el2
    lsr x9, x9, #26
    cmp x9, #0x16
    b.eq el2_hvc
    mrs x14, esr_el2            // the trap
    mrs x0, elr_el2
    add x0, x0, #4
    msr elr_el2, x0
    eret
el2_hvc:
    mrs x9, esr_el2
    and x9, x9, #0xFFFF
    cbnz x9, el2_end
    mov x0, #((1 << 31) | (1 << 18)) // RW, TID3
    msr hcr_el2, x0
    eret
el2_end:
    ldr x0, =PSCI_SYSTEM_OFF
    smc #0

vectors vec2, el2_handler
