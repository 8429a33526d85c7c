// Store-Exclusive and the PMU: counters 0 MEM_ACCESS, 1 LD_RETIRED, 2 ST_RETIRED over
//   ldxr, stxr (succeeds: w3 = 0)
//   clrex, stxr (fails: no exclusive monitor, w4 = 1)
//   clrex, stxr (fails: w5 = 1), then w5 is copied to w6 and overwritten in the same block.
// x10..x12: the counters.
#include "common.inc"
.global _start
_start:
    ldr x1, =data
    pmu_count_memory
    ldxr x2, [x1]
    add x2, x2, #1
    stxr w3, x2, [x1]
    clrex
    stxr w4, x2, [x1]
    clrex
    stxr w5, x2, [x1]
    mov w6, w5
    mov w5, #0
    pmu_stop_memory
    system_off

.balign 16
data:
    .quad 1, 2
