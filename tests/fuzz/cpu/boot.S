// boot.S - what fuzz_cpu runs before and around a fuzzed A64 program (fuzz_cpu.cpp). Entered at
// EL1 or EL2 at 0x40080000 (MMU off, DAIF masked) with x1 the input's flags and x2 the program's
// address (0x40200000):
//   flags bit 0: at EL1 or EL0, the MMU on: 1 GiB of Device memory at 0 (the devices), RAM
//                (0x40000000, 1 GiB) in 2 MiB Normal blocks, the first (this code, its tables)
//                for EL1 only, the others for EL1 (EL1 runs) or for EL0 (EL0 runs: read, write,
//                execute at EL0);
//   flags bit 1: the program runs at EL0 (entered at EL1: an ERET to EL0t).
// The vectors of the entry EL take every exception: SVC #0xF0F0 ends the run (PSCI SYSTEM_OFF:
// HVC from EL1, SMC from EL2), any other synchronous exception goes on after the instruction
// (ELR + 4), an interrupt or SError returns where it was taken. The handler uses x26..x28 only.
#include "../../platform/cpu/a64/common.inc"
#define END_IMM 0xF0F0
.global _start
_start:
    ldr x9, =0x40380000         // SP_ELx and SP_EL0: stacks in RAM for programs that use sp
    mov sp, x9
    ldr x9, =0x40300000
    msr sp_el0, x9
    mrs x9, CurrentEL
    cmp x9, #(2 << 2)
    b.eq el2
    adr x9, vec_el1
    msr vbar_el1, x9
    tbz x1, #0, 2f
    // The tables: L1 at 0x40100000, L2 at 0x40101000.
    ldr x10, =0x40100000
    mov x9, #0x405              // [0] 1 GiB block at 0, AttrIndx 1 (Device), AF
    str x9, [x10]
    ldr x9, =0x40101003         // [1] -> L2
    str x9, [x10, #8]
    ldr x11, =0x40101000
    ldr x9, =0x40000701         // L2[0]: 2 MiB at 0x40000000, Normal, AF, EL1 only
    str x9, [x11]
    ldr x12, =0x40000741        // L2[n]: AF, SH, Normal; AP[1] (EL0 access) for EL0 runs
    tst x1, #2
    b.ne 1f
    ldr x12, =0x40000701
1:  mov x13, #1
3:  add x9, x12, x13, lsl #21
    str x9, [x11, x13, lsl #3]
    add x13, x13, #1
    cmp x13, #512
    b.ne 3b
    mov x9, #0xFF               // MAIR_EL1: Attr0 Normal write-back, Attr1 Device-nGnRnE
    msr mair_el1, x9
    ldr x9, =0x200803519        // TCR_EL1: T0SZ 25, TG0 4K, EPD1, IPS 40 bits
    msr tcr_el1, x9
    msr ttbr0_el1, x10
    isb
    mrs x9, sctlr_el1
    orr x9, x9, #1              // M
    msr sctlr_el1, x9
    isb
2:  tbz x1, #1, run
    msr elr_el1, x2             // EL0t, DAIF clear
    msr spsr_el1, xzr
    bl clear
    eret
el2:
    adr x9, vec_el2
    msr vbar_el2, x9
run:
    bl clear
    br x2

// The program starts with x0..x25 zero.
clear:
    .irp n, 0,1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25
    mov x\n, #0
    .endr
    ret

handler_el1:
    mrs x27, esr_el1
    tst x28, #3                 // entries 0, 4, 8, 12: synchronous
    b.ne 9f
1:  lsr x26, x27, #26
    cmp x26, #0x15              // SVC
    b.ne 2f
    and x26, x27, #0xFFFF
    mov x27, #END_IMM
    cmp x26, x27
    b.ne 9f                     // another SVC: on after it (ELR is past it)
    ldr x0, =PSCI_SYSTEM_OFF
    hvc #0
2:  mrs x27, elr_el1
    add x27, x27, #4
    msr elr_el1, x27
9:  eret

handler_el2:
    mrs x27, esr_el2
    tst x28, #3
    b.ne 9f
1:  lsr x26, x27, #26
    cmp x26, #0x15
    b.ne 2f
    and x26, x27, #0xFFFF
    mov x27, #END_IMM
    cmp x26, x27
    b.ne 9f
    ldr x0, =PSCI_SYSTEM_OFF
    smc #0
2:  cmp x26, #0x16              // HVC, SMC: ELR is past them already
    b.eq 9f
    cmp x26, #0x17
    b.eq 9f
    mrs x27, elr_el2
    add x27, x27, #4
    msr elr_el2, x27
9:  eret

vectors vec_el1, handler_el1
vectors vec_el2, handler_el2
