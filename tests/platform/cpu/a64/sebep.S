// The synchronous PMU Profiling exception (FEAT_SEBEP) and PSTATE.PPEND. As in pmu_exception.S
// the exception is enabled, taken to EL1 and unmasked at EL1 while PSTATE.PM is 0; counter 0
// counts INST_RETIRED in synchronous mode (PMEVTYPER0_EL0.SYNC) from 2^64 - 10 with
// PMINTENSET_EL1[0]: the tenth instruction from the enabling MSR (`overflows`) overflows it.
// The handler counts in x19 and keeps, per entry k = 1, 2, 3, ESR_EL1, ELR_EL1, SPSR_EL1 and
// PMIAR_EL1 in x(4k+6) .. x(4k+9) (x10..x13, x14..x17, x18 is skipped: x20..x23 for k = 3).
// Entry 1 returns as it is (SPSR_EL1.PPEND still 1); entry 2 sets SPSR_EL1.PM and returns;
// the program then clears PSTATE.PM with MSR PM, #0 (`unmask`), the overflow flag still set;
// entry 3 clears SPSR_EL1.PPEND only and returns, the flag still set; entry 4 keeps ESR_EL1
// (x8), SPSR_EL1 (x9), ELR_EL1 (x26), PMIAR_EL1 (x27), clears PMOVS and SPSR_EL1.PPEND and
// returns. x1 `overflows`, x2 `taken_at`, x3 `unmask`; x24 the PM register after the second
// return.
#include "common.inc"
#include "profiling.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x19, #0
    mov x0, #PMECR_EXCEPTION
    msr PMECR_EL1, x0
    ldr x0, =(0x08 | PMEVTYPER_SYNC) // INST_RETIRED, synchronous mode
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffffffffffff6 // 2^64 - 10
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0            // E; counts itself: 1
    nop                         // 2
    nop
    nop
    nop
    nop
    nop
    nop
    nop                         // 9
overflows:
    nop                         // 10: overflows, sets PPEND
taken_at:
    nop                         // observes PPEND: entries 1 and 2 are taken here
    mrs x24, PM_REG
unmask:
    msr_pm_0                    // entry 3 is taken after it
    nop                         // sets PPEND again
    nop                         // entry 4 is taken here
    msr pmcr_el0, xzr
    adr x1, overflows
    adr x2, taken_at
    adr x3, unmask
    system_off

handler:
    add x19, x19, #1
    mrs x4, esr_el1
    mrs x5, elr_el1
    mrs x6, spsr_el1
    mrs x7, PMIAR_EL1
    cmp x19, #1
    b.ne 2f
    mov x10, x4
    mov x11, x5
    mov x12, x6
    mov x13, x7
    eret                        // SPSR_EL1.PPEND = 1: taken again at taken_at
2:  cmp x19, #2
    b.ne 3f
    mov x14, x4
    mov x15, x5
    mov x16, x6
    mov x17, x7
    orr x6, x6, #SPSR_PM
    msr spsr_el1, x6
    eret                        // masked after the return: PPEND 0
3:  cmp x19, #3
    b.ne 4f
    mov x20, x4
    mov x21, x5
    mov x22, x6
    mov x23, x7
    bic x6, x6, #SPSR_PPEND
    msr spsr_el1, x6
    eret                        // the overflow flag still set: armed again
4:  mov x8, x4
    mov x9, x6
    mov x26, x5
    mov x27, x7
    mov x0, #1
    msr pmovsclr_el0, x0
    bic x6, x6, #SPSR_PPEND
    msr spsr_el1, x6
    eret

vectors vec, handler
