// Debug exceptions routed to EL2 by MDCR_EL2.TDE (entered at EL2): the OS Lock unlocked,
// MDSCR_EL1.MDE, MDCR_EL2.TDE set (the PMU's fields as they were), a breakpoint on el0_target
// (DBGBCR0_EL1: BAS 0b1111, PMC EL0, E), then an ERET to EL0:
// 1. The Breakpoint exception from EL0 is taken to EL2 (x10 ESR_EL2, x11 ELR_EL2); the handler
//    disables the breakpoint and returns.
// 2. BRK #5 at EL0, taken to EL2 (x12 ESR_EL2, x13 ELR_EL2); the handler goes on after it.
// 3. EL0 ends with SVC #0, taken to EL1 (TDE routes only debug exceptions): the EL1 handler
//    reads DBGBCR0_EL1, which MDCR_EL2.TDE traps to EL2 (x14 ESR_EL2, x15 ELR_EL2, the MRS; the
//    EL2 handler skips it: x1 stays 0x1234), then HVC #1 ends the run with PSCI SYSTEM_OFF (SMC).
#include "common.inc"
.global _start
_start:
    ldr x0, =vec2
    msr vbar_el2, x0
    ldr x0, =vec1
    msr vbar_el1, x0
    ldr x0, =(1 << 31)          // HCR_EL2.RW
    msr hcr_el2, x0
    mrs x0, mdcr_el2
    orr x0, x0, #(1 << 8)       // MDCR_EL2.TDE
    msr mdcr_el2, x0
    msr oslar_el1, xzr
    mov x0, #(1 << 15)          // MDSCR_EL1.MDE
    msr mdscr_el1, x0
    adr x0, el0_target
    msr dbgbvr0_el1, x0
    mov x0, #0x1E5              // DBGBCR0_EL1: BAS 0b1111, PMC 0b10 (EL0), E
    msr dbgbcr0_el1, x0
    isb
    adr x0, el0_code
    msr elr_el2, x0
    msr spsr_el2, xzr           // EL0t
    eret

el0_code:
    nop
el0_target:
    add x9, x9, #1
brk_insn:
    brk #5
    svc #0

el1_svc:
    mov x1, #0x1234
el1_mrs:
    mrs x1, dbgbcr0_el1         // trapped to EL2
    hvc #1

el2_handler:
    mrs x0, esr_el2
    lsr x7, x0, #26
    cmp x7, #0x30
    b.ne 1f
    mov x10, x0                 // Breakpoint
    mrs x11, elr_el2
    msr dbgbcr0_el1, xzr
    isb
    eret
1:  cmp x7, #0x3C
    b.ne 2f
    mov x12, x0                 // BRK
    mrs x13, elr_el2
    add x0, x13, #4
    msr elr_el2, x0
    eret
2:  cmp x7, #0x18
    b.ne 3f
    mov x14, x0                 // the trapped MRS
    mrs x15, elr_el2
    add x0, x15, #4
    msr elr_el2, x0
    eret
3:  ldr x0, =PSCI_SYSTEM_OFF    // HVC #1: the end
    smc #0

vectors vec2, el2_handler
vectors vec1, el1_svc
