// Loops that poll the Generic Timer's count (a64_poll_loop.h), with the PMU counting them: PMCCNTR
// (cycles), counter 0 INST_RETIRED, counter 1 BR_RETIRED; x20..x22 their values at the end.
//   1. mrs cntvct_el0; sub; cmp; b.lo: until 125,000 ticks (2 ms at 62.5 MHz) after the first
//      read (x0); x2 the count past it at the exit, x3 the target.
//   2. isb; mrs cntpct_el0; cmp; b.cc (two blocks: the engine ends one after the ISB): until the
//      physical count reaches x4 (31,250 ticks on); x5 the count at the exit.
//   3. mrs cntvct_el0; sub (32-bit); tbz: until bit 12 of the count past x6 is set; x7.
//   4. add x9, x9, #1 first: an iteration count carried from one iteration to the next (not a
//      poll loop: every iteration runs) until 6,250 ticks on; x9 its iterations, x10 the count.
#include "common.inc"
.global _start
_start:
    mov x0, #0x08
    msr pmevtyper0_el0, x0
    mov x0, #0x21
    msr pmevtyper1_el0, x0
    ldr x0, =0x80000003
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0
    // 1
    mrs x0, cntvct_el0
    ldr x3, =125000
1:  mrs x1, cntvct_el0
    sub x2, x1, x0
    cmp x2, x3
    b.lo 1b
    // 2
    mrs x4, cntpct_el0
    ldr x8, =31250
    add x4, x4, x8
2:  isb
    mrs x5, cntpct_el0
    cmp x5, x4
    b.cc 2b
    // 3
    mrs x6, cntvct_el0
3:  mrs x11, cntvct_el0
    sub w7, w11, w6
    tbz w7, #12, 3b
    // 4
    mov x9, #0
    mrs x10, cntvct_el0
    ldr x8, =6250
    add x12, x10, x8
4:  add x9, x9, #1
    mrs x10, cntvct_el0
    cmp x10, x12
    b.lo 4b
    msr pmcr_el0, xzr
    mrs x20, pmccntr_el0
    mrs x21, pmevcntr0_el0
    mrs x22, pmevcntr1_el0
    system_off
