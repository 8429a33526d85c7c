// Reports in batches (test_a64_trace.cpp): 2000 iterations of a loop body of four blocks, each
// ending with a branch the CPU decides on its fast path (B to the next block, BL, RET, B.NE
// back), so most ranges reach a listener in batches (a64_cpu_config::trace_batch). Nothing in
// it takes time but its instructions: no device access, no WFI, no exception.
#include "common.inc"
.global _start
_start:
    ldr x1, =2000
body:
    add x2, x2, #1
    b next
next:
    add x3, x3, #1
    bl func
    subs x1, x1, #1
    b.ne body
    mov x19, #0
    ldr x0, =PSCI_SYSTEM_OFF
    hvc #0

func:
    add x4, x4, #1
    ret
