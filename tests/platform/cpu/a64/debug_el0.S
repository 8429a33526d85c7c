// Self-hosted debug exceptions from EL0, taken to EL1 (D2; the CPU's a64_cpu_debug.cpp). EL1 runs
// EL0 snippets (run_el0: each ends with SVC #0, which returns to EL1); the lower-EL handler keeps
// each debug exception's ESR_EL1, ELR_EL1 and FAR_EL1 in registers:
// 1. A breakpoint on bp_target (DBGBCR0_EL1: BAS 0b1111, PMC EL0, E) with MDSCR_EL1.MDE while the
//    OS Lock is locked (as out of reset): nothing; x9 counts bp_target's runs.
// 2. The OS Lock unlocked: the Breakpoint exception, x10 ESR, x11 ELR; the handler disables the
//    breakpoint and returns, bp_target runs.
// 3. A store watchpoint on the doubleword `var` (DBGWCR0_EL1: BAS 0xFF, LSC store, PAC EL0): a
//    load of var is not watched; the 4-byte store to var + 4 is: x12 ESR, x13 ELR, x14 FAR; the
//    handler disables the watchpoint and returns, the store is made (var + 4 holds 0x5A5A).
// 4. Software step (MDSCR_EL1.SS, SPSR_EL1.SS 1): the three steps of step0 .. step3, x15..x17 the
//    ELRs, x23..x25 the ESRs (the third after an LDXR: EX); the SVC at step3 is stepped too and
//    taken as an SVC (the handler clears MDSCR_EL1.SS); x27 counts the steps.
// 5. BRK #0x77: x18 ESR, x26 ELR.
// x8 counts Breakpoint exceptions, x22 Watchpoint exceptions.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x8, #0
    mov x9, #0
    mov x22, #0
    mov x27, #0
    mov x0, #(1 << 15)          // MDSCR_EL1.MDE
    msr mdscr_el1, x0
    adr x0, bp_target
    msr dbgbvr0_el1, x0
    mov x0, #0x1E5              // DBGBCR0_EL1: BAS 0b1111, PMC 0b10 (EL0), E
    msr dbgbcr0_el1, x0
    isb
    adr x0, el0_bp              // 1: OS Lock locked
    bl run_el0
    msr oslar_el1, xzr          // 2: unlocked
    isb
    adr x0, el0_bp
    bl run_el0
    adr x0, var                 // 3: the watchpoint
    msr dbgwvr0_el1, x0
    ldr x0, =0x1FF5             // DBGWCR0_EL1: BAS 0xFF, LSC 0b10 (store), PAC 0b10 (EL0), E
    msr dbgwcr0_el1, x0
    isb
    adr x0, el0_wp
    bl run_el0
    ldr x0, =((1 << 15) | 1)    // 4: MDSCR_EL1.MDE, SS
    msr mdscr_el1, x0
    isb
    adr x0, el0_step
    ldr x1, =(1 << 21)          // SPSR_EL1.SS
    bl run_el0_spsr
    adr x0, el0_brk             // 5: BRK
    bl run_el0
    system_off

// Runs the EL0 code at x0 (with SPSR_EL1 x1 for run_el0_spsr) until its SVC #0.
run_el0:
    mov x1, #0
run_el0_spsr:
    msr elr_el1, x0
    msr spsr_el1, x1
    mov x21, x30
    eret

lower_sync:
    mrs x0, esr_el1
    lsr x7, x0, #26
    cmp x7, #0x15
    b.eq 1f
    cmp x7, #0x30
    b.eq 2f
    cmp x7, #0x34
    b.eq 3f
    cmp x7, #0x32
    b.eq 4f
    cmp x7, #0x3C
    b.eq 5f
    b .                          // unexpected
1:  msr mdscr_el1, xzr           // SVC: back to EL1 after run_el0's call, stepping off
    ldr x0, =((1 << 15))
    msr mdscr_el1, x0
    msr elr_el1, x21
    mov x0, #0x3c5
    msr spsr_el1, x0
    eret
2:  add x8, x8, #1               // Breakpoint
    mov x10, x0
    mrs x11, elr_el1
    msr dbgbcr0_el1, xzr
    isb
    eret
3:  add x22, x22, #1             // Watchpoint
    mov x12, x0
    mrs x13, elr_el1
    mrs x14, far_el1
    msr dbgwcr0_el1, xzr
    isb
    eret
4:  add x27, x27, #1             // Software Step: keep stepping
    cmp x27, #1
    b.ne 6f
    mov x23, x0
    mrs x15, elr_el1
    b 8f
6:  cmp x27, #2
    b.ne 7f
    mov x24, x0
    mrs x16, elr_el1
    b 8f
7:  mov x25, x0
    mrs x17, elr_el1
8:  mrs x0, spsr_el1
    orr x0, x0, #(1 << 21)
    msr spsr_el1, x0
    eret
5:  mov x18, x0                  // BRK
    mrs x26, elr_el1
    add x0, x26, #4
    msr elr_el1, x0
    eret

el0_bp:
    nop
bp_target:
    add x9, x9, #1
    svc #0

el0_wp:
    adr x1, var
    ldr x2, [x1]                // a load: not watched (LSC store)
    mov x3, #0x5A5A
wp_store:
    str w3, [x1, #4]
    svc #0

el0_step:
step0:
    adr x1, var
step1:
    mov x5, #2
step2:
    ldxr x6, [x1]
step3:
    svc #0

el0_brk:
brk_insn:
    brk #0x77
    svc #0

    .balign 8
var:
    .quad 0

vectors vec, dispatch
dispatch:
    cmp x28, #8
    b.eq lower_sync
    b .
