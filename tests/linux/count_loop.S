// A static Linux program of known length for perf in the guest (tests/linux): count_loop runs
// ITERATIONS times two instructions, then the program exits. At EL0 it executes exactly
// 2 + 2 * ITERATIONS + 3 instructions (movz, movk; subs, b.ne each iteration; mov, mov, svc),
// ITERATIONS branches (b.ne: ITERATIONS - 1 taken), no loads or stores. ITERATIONS is 1000000
// unless defined (trace_loop: 10000).
#ifndef ITERATIONS
#define ITERATIONS 1000000
#endif
.global _start
.type _start, %function
_start:
    movz x0, #(ITERATIONS & 0xFFFF)
    movk x0, #(ITERATIONS >> 16), lsl #16
.global count_loop
.type count_loop, %function
count_loop:
    subs x0, x0, #1
    b.ne count_loop
    mov x0, #0
    mov x8, #93                 // exit
    svc #0
