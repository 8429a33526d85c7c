// PSCI 1.0 over HVC (Arm DEN 0022D), the answers of firmware for one PE that is on:
// x10 PSCI_VERSION, x11 PSCI_FEATURES(PSCI_VERSION), x12 PSCI_FEATURES(SYSTEM_OFF),
// x13 PSCI_FEATURES(0x8400001F: not a PSCI function), x14 AFFINITY_INFO(this PE, level 0),
// x15 AFFINITY_INFO(MPIDR + 1, level 0), x16 CPU_ON(this PE), x17 MIGRATE_INFO_TYPE.
// Then SYSTEM_OFF: nothing after it runs (x9 stays 0).
#include "common.inc"
.macro psci fn, arg1=xzr, arg2=xzr
    ldr x0, =\fn
    mov x1, \arg1
    mov x2, \arg2
    hvc #0
.endm
.global _start
_start:
    mrs x19, mpidr_el1
    ldr x0, =0xff00ffffff        // Aff3..Aff0
    and x19, x19, x0
    add x20, x19, #1             // a PE that does not exist
    ldr x21, =0x84000008         // SYSTEM_OFF
    ldr x22, =0x84000000         // PSCI_VERSION
    ldr x23, =0x8400001f
    psci 0x84000000
    mov x10, x0
    psci 0x8400000a, x22
    mov x11, x0
    psci 0x8400000a, x21
    mov x12, x0
    psci 0x8400000a, x23
    mov x13, x0
    psci 0x84000004, x19
    mov x14, x0
    psci 0x84000004, x20
    mov x15, x0
    psci 0xc4000003, x19         // CPU_ON (SMC64): target, entry 0, context 0
    mov x16, x0
    psci 0x84000006
    mov x17, x0
    mov x9, #0
    system_off
    mov x9, #1
    b .
