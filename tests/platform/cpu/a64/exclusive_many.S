// More store-exclusives in one block than the CPU keeps the status registers of (four): counters
// 0 MEM_ACCESS, 1 LD_RETIRED, 2 ST_RETIRED over one block of
//   ldxr, stxr w3 (succeeds), stxr w4 (fails: the monitor is open no more),
//   ldxr, stxr w5 (succeeds), clrex, stxr w6 (fails),
//   ldxr, stxr w7 (succeeds), clrex, stxr w8 (fails)
// x10..x12: the counters.
#include "common.inc"
.global _start
_start:
    ldr x1, =data
    pmu_count_memory
    ldxr x2, [x1]
    stxr w3, x2, [x1]
    stxr w4, x2, [x1]
    ldxr x2, [x1]
    stxr w5, x2, [x1]
    clrex
    stxr w6, x2, [x1]
    ldxr x2, [x1]
    stxr w7, x2, [x1]
    clrex
    stxr w8, x2, [x1]
    pmu_stop_memory
    system_off

.balign 16
data:
    .quad 1, 2
