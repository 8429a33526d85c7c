// Straight-line code with system register reads the CPU model performs (PMU registers) in the
// middle of a block (test_a64_trace.cpp): after a read of a register the engine also knows,
// Unicorn 2.0.1 may go on with the rest of the block without calling the CPU's block hook. Every
// instruction from _start to the HVC of PSCI SYSTEM_OFF runs once.
#include "common.inc"
.global _start
_start:
    mov x2, #0
    mrs x1, pmceid0_el0
    add x2, x2, #1
    add x2, x2, #1
    mrs x3, pmovsclr_el0
    add x2, x2, #1
    mrs x4, pmcr_el0
    mrs x5, pmceid1_el0
    add x2, x2, #1
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0
