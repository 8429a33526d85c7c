// The identification registers the CPU answers (a64_cpu_sysreg.cpp, id_register): at EL1,
// MIDR_EL1 (x10), ID_AA64PFR0_EL1 (x11) and ID_AA64DFR0_EL1 (x12); then at EL0 an MRS of
// ID_AA64DFR0_EL1, UNDEFINED there (no FEAT_IDST): the handler keeps ESR_EL1 (x13) and the
// return address (x14), and returns past it (x15 stays 0); an SVC brings the program back.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mrs x10, midr_el1
    mrs x11, id_aa64pfr0_el1
    mrs x12, id_aa64dfr0_el1
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret
user:
    mov x15, #0
el0_mrs:
    mrs x15, id_aa64dfr0_el1
    svc #0
back:
    system_off

handler:
    read_syndrome
    cmp x23, #0x15
    b.eq from_svc
    mov x13, x20
    mov x14, x21
    add x21, x21, #4
    msr elr_el1, x21
    eret
from_svc:
    adr x0, back
    msr elr_el1, x0
    mov x0, #0x3c5              // EL1h, DAIF masked
    msr spsr_el1, x0
    eret

vectors vec, handler
