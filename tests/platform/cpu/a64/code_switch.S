// Two address spaces with different code at one virtual address, as two processes have: the
// function at VA 0x0040_0000 is four instructions in both, `nop; nop; nop; ret` under tables A
// and `ldr x9, [sp]; str x9, [sp]; nop; ret` under tables B. It is called 10 times under A, then
// TTBR0_EL1 is switched to B (no TLB maintenance: another ASID, as Linux switches processes)
// and it is called 10 times again. Counter 0 counts LD_RETIRED, counter 1 ST_RETIRED: 10 each,
// all under B. x10, x11: the counters.
//
//   A: L1 (0x40100000) [0] -> L2 (0x40101000) [2] 2 MiB at 0x40400000; [1] 1 GiB identity
//   B: L1 (0x40102000) [0] -> L2 (0x40103000) [2] 2 MiB at 0x40600000; [1] 1 GiB identity
#include "common.inc"
.global _start
_start:
    ldr x1, =0x40400000
    ldr x0, =0xD503201FD503201F  // nop; nop
    str x0, [x1]
    ldr x0, =0xD65F03C0D503201F  // nop; ret
    str x0, [x1, #8]
    ldr x1, =0x40600000
    ldr x0, =0xF90003E9F94003E9  // ldr x9, [sp]; str x9, [sp]
    str x0, [x1]
    ldr x0, =0xD65F03C0D503201F  // nop; ret
    str x0, [x1, #8]
    dc cvau, x1
    dsb ish
    ic iallu
    dsb ish
    isb
    ldr x1, =0x40100000
    ldr x0, =0x40101003
    str x0, [x1]
    ldr x0, =0x40000701
    str x0, [x1, #8]
    ldr x1, =0x40101000
    ldr x0, =0x40400701
    str x0, [x1, #16]
    ldr x1, =0x40102000
    ldr x0, =0x40103003
    str x0, [x1]
    ldr x0, =0x40000701
    str x0, [x1, #8]
    ldr x1, =0x40103000
    ldr x0, =0x40600701
    str x0, [x1, #16]
    mmu_on_el1 0x40100000          // ASID 0
    ldr x0, =0x40800000          // a stack in RAM
    mov sp, x0
    mov x0, #0x06                // LD_RETIRED
    msr pmevtyper0_el0, x0
    mov x0, #0x07                // ST_RETIRED
    msr pmevtyper1_el0, x0
    mov x0, #3
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0
    mov x4, #0x400000            // (no literal loads while counting)
    mov x2, #10
1:  blr x4
    subs x2, x2, #1
    b.ne 1b
    mov x0, #0x2000              // B, ASID 1: 0x0001_0000_4010_2000
    movk x0, #0x4010, lsl #16
    movk x0, #1, lsl #48
    msr ttbr0_el1, x0
    isb
    mov x2, #10
2:  blr x4
    subs x2, x2, #1
    b.ne 2b
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    system_off
