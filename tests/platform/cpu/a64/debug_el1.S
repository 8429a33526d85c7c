// Debug exceptions taken to the Exception level they come from (EL1, with MDSCR_EL1.KDE and
// PSTATE.D clear: AArch64.GenerateDebugExceptionsFrom). The OS Lock unlocked, MDSCR_EL1.MDE and
// KDE set, PSTATE.D cleared:
// 1. A breakpoint on el1_target (DBGBCR0_EL1: BAS 0b1111, PMC EL1, E): the Breakpoint exception
//    to EL1 from EL1 (x10 ESR_EL1, x11 ELR_EL1); the handler disables it and returns.
// 2. With PSTATE.D set, a breakpoint enabled on el1_target2 does not fire (x12 counts the
//    Breakpoint exceptions: 1 in all; x9 the runs of el1_target and el1_target2).
// 3. Software step at EL1: an ERET (PSTATE.D set, so not enabled at its own level) to stepA with
//    SPSR_EL1.SS 1 and D 0: a Software Step exception after stepA and after stepB (x13, x14 the
//    ELRs; x15, x16 the ESRs); the second handler clears MDSCR_EL1.SS and stepping ends. x17
//    counts the steps.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x12, #0
    mov x17, #0
    mov x22, #0
    msr oslar_el1, xzr
    ldr x0, =((1 << 15) | (1 << 13)) // MDSCR_EL1.MDE, KDE
    msr mdscr_el1, x0
    adr x0, el1_target
    msr dbgbvr0_el1, x0
    mov x0, #0x1E3              // DBGBCR0_EL1: BAS 0b1111, PMC 0b01 (EL1), E
    msr dbgbcr0_el1, x0
    isb
    msr daifclr, #8             // PSTATE.D = 0
    isb
    nop
el1_target:
    add x9, x9, #1
    msr daifset, #8             // 2: D masked
    adr x0, el1_target2
    msr dbgbvr0_el1, x0
    mov x0, #0x1E3
    msr dbgbcr0_el1, x0
    isb
el1_target2:
    add x9, x9, #1              // not taken: PSTATE.D
    msr dbgbcr0_el1, xzr
    isb
    ldr x0, =((1 << 15) | (1 << 13) | 1) // 3: MDSCR_EL1.MDE, KDE, SS
    msr mdscr_el1, x0
    adr x0, stepA
    msr elr_el1, x0
    ldr x0, =((1 << 21) | 0x1C5) // SPSR_EL1: SS, EL1h, A, I, F masked, D clear
    msr spsr_el1, x0
    isb
    eret
stepA:
    mov x4, #1
stepB:
    mov x5, #2
stepC:
    mov x6, #3
    // 4. A load watchpoint on var at EL1 (DBGWCR0_EL1: BAS 0xFF, LSC load, PAC EL1, E), D clear:
    //    the Watchpoint exception from EL1 (x18 ESR, x19 ELR, x20 FAR); the handler disables it.
    msr daifclr, #8
    adr x1, var
    msr dbgwvr0_el1, x1
    ldr x0, =0x1FEB
    msr dbgwcr0_el1, x0
    isb
wp_load1:
    ldr x2, [x1]
    // 5. The same watchpoint with the OS Lock locked, then with the OS Double Lock locked: no
    //    exception; unlocked again: the second Watchpoint exception (x21 ELR). x22 counts them.
    ldr x0, =0x1FEB
    msr dbgwcr0_el1, x0
    mov x0, #1
    msr oslar_el1, x0
    isb
    ldr x2, [x1]
    msr oslar_el1, xzr
    mov x0, #1
    msr osdlr_el1, x0
    isb
    ldr x2, [x1]
    msr osdlr_el1, xzr
    isb
wp_load2:
    ldr x2, [x1]
    system_off

    .balign 8
var:
    .quad 0

handler:
    mrs x0, esr_el1
    lsr x7, x0, #26
    cmp x7, #0x31
    b.ne 1f
    add x12, x12, #1            // Breakpoint, from EL1
    mov x10, x0
    mrs x11, elr_el1
    msr dbgbcr0_el1, xzr
    isb
    eret
1:  cmp x7, #0x35
    b.ne 3f
    add x22, x22, #1            // Watchpoint, from EL1
    cmp x22, #1
    b.ne 4f
    mov x18, x0
    mrs x19, elr_el1
    mrs x20, far_el1
4:  mrs x21, elr_el1
    msr dbgwcr0_el1, xzr
    isb
    eret
3:  cmp x7, #0x33
    b.ne .                      // unexpected
    add x17, x17, #1            // Software Step, from EL1
    cmp x17, #1
    b.ne 2f
    mrs x13, elr_el1
    mov x15, x0
    mrs x0, spsr_el1
    orr x0, x0, #(1 << 21)      // step the next one too
    msr spsr_el1, x0
    eret
2:  mrs x14, elr_el1
    mov x16, x0
    ldr x0, =((1 << 15) | (1 << 13))
    msr mdscr_el1, x0           // stepping ends
    eret

vectors vec, handler
