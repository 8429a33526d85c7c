// OSDLR_EL1 (D24.3.23) read and written at EL1: x10 OSDLR_EL1 out of reset (DLK 0), x11 after
// a write of DLK 1, x12 after a write of 0. (Unicorn 2.0.1 aborted the simulator when the CPU
// asked it about this register after the read: fuzz_cpu's find.)
#include "common.inc"
.global _start
_start:
    mrs x10, osdlr_el1
    mov x0, #1
    msr osdlr_el1, x0
    isb
    mrs x11, osdlr_el1
    msr osdlr_el1, xzr
    isb
    mrs x12, osdlr_el1
    system_off
