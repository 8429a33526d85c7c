// Software that can never go on: VBAR_EL1 at 0x1000, a hole of the memory map, and an UNDEFINED
// instruction. The Undefined Instruction exception goes to 0x1200, whose fetch is an External
// abort taken to 0x1200 again, and so on without an instruction retired (the progress guard,
// a64_cpu_config::no_progress_limit).
#include "common.inc"
.global _start
_start:
    mov x0, #0x1000
    msr vbar_el1, x0
    isb
    udf #0
