// boot.S - what fuzz_cpu runs before and around a fuzzed A64 program (fuzz_cpu.cpp). Entered at
// EL1 or EL2 at 0x40080000 (MMU off, DAIF masked) with x1 the run's flags and x2 the program's
// address (0x40200000):
//   bit 0: at EL1 or EL0, the MMU on: 1 GiB of Device memory at 0 (the devices), RAM
//          (0x40000000, 1 GiB) in 2 MiB Normal blocks, the first (this code, its tables) for EL1
//          only, the others for EL1 (EL1 runs) or for EL0 (EL0 runs: read, write, execute at EL0);
//   bit 1: the program runs at EL0 (entered at EL1: an ERET to EL0t);
//   bit 2: entered at EL2, the program runs at EL1 (an ERET to EL1h with HCR_EL2.RW): EL2's
//          vectors take what is routed or trapped to EL2;
//   bit 4: self-hosted debug: the OS Lock unlocked (OSLAR_EL1 = 0), MDSCR_EL1.MDE and KDE, and
//          the program entered by an ERET with PSTATE.D clear (A, I, F masked at EL1 and EL2);
//   bit 5: as bit 4, and software step: MDSCR_EL1.SS and SPSR_ELx.SS at the ERET to the program,
//          so its first instruction is stepped; the handler steps on (SPSR.SS) after each step;
//   bit 6: a Breakpoint or Watchpoint exception is stepped over as a debugger does (MDSCR_EL1.MDE
//          off and SS on, the instruction again, then at its Software Step exception MDE on and
//          SS as it was) instead of going on after the instruction;
//   bit 7: entered at EL2, MDCR_EL2.TDE: debug exceptions from EL1 and EL0 go to EL2 and EL1's
//          debug registers are trapped there; debug exceptions at EL2 are generated.
// The vectors of the entry EL (and EL1's when EL2 runs an EL1 program) take every exception: SVC
// #0xF0F0 ends the run (PSCI SYSTEM_OFF: HVC from EL1, SMC from EL2; under EL2 EL1's HVC
// #0xF0F0 goes to EL2, which makes the SMC), a Software Step exception steps on, any other
// synchronous exception goes on after the instruction (ELR + 4; ELR is past an SVC, HVC, SMC
// already), an interrupt or SError returns where it was taken. EL1's handler uses x26..x28 (as
// the program does not); EL2's gives them back (TPIDR_EL2 and `saved_el2`), since it steps EL1's
// handler in turn under MDCR_EL2.TDE. Both use the words `flags` and `stepping` in this image.
#include "../../platform/cpu/a64/common.inc"
#define END_IMM 0xF0F0
#define MDSCR_SS 1
#define MDSCR_KDE (1 << 13)
#define MDSCR_MDE (1 << 15)
#define SPSR_SS (1 << 21)
.global _start
_start:
    ldr x9, =0x40380000         // SP_ELx and SP_EL0 (and SP_EL1 under EL2): stacks in RAM for
    mov sp, x9                  // programs that use sp
    ldr x9, =0x40300000
    msr sp_el0, x9
    adr x9, flags
    str x1, [x9]
    tst x1, #0x30               // self-hosted debug
    b.eq 1f
    msr oslar_el1, xzr
    mov x9, #(MDSCR_MDE | MDSCR_KDE)
    tbz x1, #5, 4f
    orr x9, x9, #MDSCR_SS
4:  msr mdscr_el1, x9
1:  mrs x9, CurrentEL
    cmp x9, #(2 << 2)
    b.eq el2
    adr x9, vec_el1
    msr vbar_el1, x9
    tbz x1, #0, 2f
    bl mmu
2:  mov x3, #0                  // EL0t, DAIF clear
    tbnz x1, #1, 3f
    tst x1, #0x30
    b.eq run                    // EL1 without debug: entered with DAIF masked
    mov x3, #0x1C5              // EL1h, A, I, F masked, D clear
3:  tbz x1, #5, 5f
    orr x3, x3, #SPSR_SS
5:  msr elr_el1, x2
    msr spsr_el1, x3
    bl clear
    eret
el2:
    adr x9, vec_el2
    msr vbar_el2, x9
    tbz x1, #7, 1f
    mrs x9, mdcr_el2            // HPMN as the harness set it, TDE
    orr x9, x9, #(1 << 8)
    msr mdcr_el2, x9
1:  tbnz x1, #2, 2f
    tst x1, #0x30
    b.eq run                    // EL2 without debug: entered with DAIF masked
    mov x3, #0x1C9              // EL2h, A, I, F masked, D clear
    b 3f
2:  adr x9, vec_el1             // an EL1 program under EL2
    msr vbar_el1, x9
    ldr x9, =0x40370000         // SP_EL1 apart from SP_EL2
    msr sp_el1, x9
    mov x9, #(1 << 31)          // HCR_EL2.RW
    msr hcr_el2, x9
    tbz x1, #0, 4f
    bl mmu
4:  mov x3, #0x3C5              // EL1h, D, A, I, F masked
    tst x1, #0x30
    b.eq 3f
    mov x3, #0x1C5              // D clear
3:  tbz x1, #5, 5f
    orr x3, x3, #SPSR_SS
5:  msr elr_el2, x2
    msr spsr_el2, x3
    bl clear
    eret
run:
    bl clear
    br x2

// Stage 1 of the EL1&0 regime (flags bit 0). The tables: L1 at 0x40100000, L2 at 0x40101000.
mmu:
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
    ret

// The program starts with x0..x25 zero.
clear:
    .irp n, 0,1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25
    mov x\n, #0
    .endr
    ret

.macro handler el
handler_el\el:
    mrs x27, esr_el\el
    tst x28, #3                 // entries 0, 4, 8, 12: synchronous
    b.ne 9f
    lsr x26, x27, #26
    cmp x26, #0x15              // SVC
    b.ne 1f
    and x26, x27, #0xFFFF
    mov x27, #END_IMM
    cmp x26, x27
    b.ne 9f                     // another SVC: on after it (ELR is past it)
    ldr x0, =PSCI_SYSTEM_OFF
    .if \el == 1
    hvc #END_IMM
    .else
    smc #0
    .endif
1:
    .if \el == 2
    cmp x26, #0x16              // HVC: #END_IMM (EL1's handler under EL2) ends the run
    b.ne 3f
    and x26, x27, #0xFFFF
    mov x27, #END_IMM
    cmp x26, x27
    b.ne 9f                     // ELR is past it
    ldr x0, =PSCI_SYSTEM_OFF
    smc #0
3:  cmp x26, #0x17              // SMC: ELR is past it
    b.eq 9f
    .endif
    sub x27, x26, #0x30         // the debug exceptions: EC 0x30..0x35
    cmp x27, #5
    b.hi 2f
    cmp x27, #2                 // Software Step (EC 0x32, 0x33)
    b.eq 5f
    cmp x27, #3
    b.eq 5f
    adr x26, flags              // Breakpoint, Watchpoint: on after the instruction (2), or
    ldr x26, [x26]              // (flags bit 6) stepped over: MDE off, SS on, the old SS kept
    tbz x26, #6, 2f             // in `stepping` (bit 0, bit 1 a step over in progress)
    mrs x27, mdscr_el1
    and x28, x27, #MDSCR_SS
    orr x28, x28, #2
    adr x26, stepping
    str x28, [x26]
    and x27, x27, #~MDSCR_MDE
    orr x27, x27, #MDSCR_SS
    msr mdscr_el1, x27
    b 6f
5:  adr x26, stepping           // Software Step: the end of a step over, or step on
    ldr x28, [x26]
    tbz x28, #1, 6f
    str xzr, [x26]
    mrs x27, mdscr_el1          // MDE back, SS as it was
    orr x27, x27, #MDSCR_MDE
    bfxil x27, x28, #0, #1
    msr mdscr_el1, x27
    tbz x28, #0, 9f
6:  mrs x27, spsr_el\el         // SPSR.SS: the next instruction is stepped
    orr x27, x27, #SPSR_SS
    msr spsr_el\el, x27
    b 9f
2:  mrs x27, elr_el\el
    add x27, x27, #4
    msr elr_el\el, x27
9:
    .if \el == 2
    adr x26, saved_el2
    ldp x27, x28, [x26]
    mrs x26, tpidr_el2
    .endif
    eret
.endm

handler 1
handler 2

    .balign 8
flags:
    .quad 0
stepping:
    .quad 0
saved_el2:                      // x27, x28 where EL2's handler was entered (x26: TPIDR_EL2)
    .quad 0, 0

vectors vec_el1, handler_el1

// EL2's vector table: as common.inc's `vectors`, keeping x26..x28 first.
    .balign 2048
vec_el2:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .balign 128
    msr tpidr_el2, x26
    adr x26, saved_el2
    stp x27, x28, [x26]
    mov x28, #\n
    b handler_el2
    .endr
