// A program entered at EL3 (EL3h, MMU off, D, A, I, F masked: QEMU's virt with secure=on), its own
// firmware: nobody answers PSCI, and it ends with semihosting SYS_EXIT (status 0).
//
// At EL3: MDCR_EL3.{SPME, MPMX} 0 (no counting in Secure state), counter 0 counts INST_RETIRED at
// EL1 and EL0 (PMEVTYPER0_EL0 0x08), counter 1 EXC_SMC and counter 2 EXC_TRAP_OTHER there. SMC #5
// at EL3 is taken to EL3 (x20 ESR_EL3, x21 ELR_EL3; x15 the SMC's address). SCR_EL3 = NS | HCE |
// RW (x3 reads it back), then ERET to Non-secure EL1, where HVC #7 is taken to EL2 (x12 ESR_EL2,
// x13 the vector entry; the handler sets HCR_EL2.TSC), SMC #8 is trapped to EL2 (x8 ESR_EL2, x9
// ELR_EL2: the SMC, x7; the handler clears TSC and returns past it) and SMC #9 is taken to EL3
// from a lower EL (x22 ESR_EL3, x23 ELR_EL3, x24 SPSR_EL3, x10 counter 0: the HVC and SMC #9, the
// instructions EL1 retired; x4 counter 1, x5 counter 2; x16 the SMC's address). That handler sets
// SCR_EL3.IRQ and returns; EL1 enables the Generic Timer's PPI (INTID 30) and starts the timer
// with PSTATE.I still set, and loops (x14 the loop's address): the IRQ, routed to EL3, is taken
// from EL1 anyway (x25 the INTID, x26 ELR_EL3, x27 SPSR_EL3) and the EL3 handler ends the program.
// Any other exception ends it with status 1 and the vector entry in x18 (x17 the Exception level:
// 1, 2 or 3).
#include "common.inc"
.global _start
_start:
    mrs x2, CurrentEL
    ldr x0, =vec3
    msr vbar_el3, x0
    ldr x0, =vec2
    msr vbar_el2, x0
    ldr x0, =vec1
    msr vbar_el1, x0
    mov x18, #-1
    mov x0, #(1 << 31)          // HCR_EL2.RW: EL1 is AArch64
    msr hcr_el2, x0
    mov x0, #3                  // CNTHCTL_EL2.{EL1PCTEN, EL1PCEN}: EL1 has the physical timer
    msr cnthctl_el2, x0
    msr mdcr_el3, xzr
    mov x0, #0x08               // INST_RETIRED at EL1 and EL0
    msr pmevtyper0_el0, x0
    mov x0, #0x88               // EXC_SMC
    msr pmevtyper1_el0, x0
    mov x0, #0x8d               // EXC_TRAP_OTHER
    msr pmevtyper2_el0, x0
    mov x0, #7
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0            // E
    isb
    adr x15, smc_at_el3
    adr x16, smc_at_el1
    adr x14, loop
    adr x7, smc_trapped
smc_at_el3:
    smc #5
    mov x0, #0x501              // SCR_EL3: NS, HCE, RW
    msr scr_el3, x0
    isb
    mrs x3, scr_el3
    adr x0, el1
    msr elr_el3, x0
    mov x0, #0x3c5              // EL1h, D, A, I, F masked
    msr spsr_el3, x0
    eret

el1:
    hvc #7
smc_trapped:
    smc #8                      // HCR_EL2.TSC: trapped to EL2
smc_at_el1:
    smc #9
    gic_enable_ppi 30
    mov x0, #625
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
loop:
    b loop

handler3:
    cmp x28, #4                 // current EL with SP_ELx, synchronous
    b.eq el3_smc
    cmp x28, #8                 // lower EL (AArch64), synchronous
    b.eq lower_smc
    cmp x28, #9                 // lower EL (AArch64), IRQ
    b.eq lower_irq
    mov x17, #3
    b unexpected
el3_smc:
    mrs x20, esr_el3
    mrs x21, elr_el3
    eret
lower_smc:
    mrs x22, esr_el3
    mrs x23, elr_el3
    mrs x24, spsr_el3
    mrs x10, pmevcntr0_el0
    mrs x4, pmevcntr1_el0
    mrs x5, pmevcntr2_el0
    mov x0, #0x503              // SCR_EL3: NS, IRQ, HCE, RW
    msr scr_el3, x0
    eret
lower_irq:
    mrs x25, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x26, elr_el3
    mrs x27, spsr_el3
    msr cntp_ctl_el0, xzr
    msr s3_0_c12_c12_1, x25     // ICC_EOIR1_EL1
    semihosting_exit

handler2:
    cmp x28, #8                 // lower EL (AArch64), synchronous
    b.ne 1f
    mrs x0, esr_el2
    lsr x0, x0, #26
    cmp x0, #0x17
    b.eq el2_smc
    mrs x12, esr_el2            // the HVC: set HCR_EL2.TSC
    mov x13, x28
    mrs x0, hcr_el2
    orr x0, x0, #(1 << 19)
    msr hcr_el2, x0
    eret
el2_smc:                        // the trapped SMC: clear TSC, return past it
    mrs x8, esr_el2
    mrs x9, elr_el2
    mrs x0, hcr_el2
    bic x0, x0, #(1 << 19)
    msr hcr_el2, x0
    add x0, x9, #4
    msr elr_el2, x0
    eret
1:  mov x17, #2
    b unexpected

handler1:
    mov x17, #1
unexpected:
    mov x18, x28
    mov x0, #0x18
    adr x1, failure
    hlt #0xf000

    .balign 8
failure:
    .quad 0x20026
    .quad 1

    vectors vec3, handler3
    vectors vec2, handler2
    vectors vec1, handler1
