// SVC, BRK and UDF at EL1, each taken to EL1's "current EL with SPx" vector; the handler keeps
// ESR_EL1, ELR_EL1, SPSR_EL1 and the vector entry in registers and returns past the instruction.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    isb
    mov x19, #0
svc_insn:
    svc #0x1234
    mov x10, x20          // ESR of the SVC
    mov x11, x21          // ELR
    mov x12, x22          // SPSR
    mov x13, x28          // vector entry
brk_insn:
    brk #0x42
    mov x14, x20
    mov x15, x21
udf_insn:
    udf #7
    mov x16, x20
    mov x17, x21
    adr x1, svc_insn
    adr x2, brk_insn
    adr x3, udf_insn
    system_off

handler:
    read_syndrome
    cmp x23, #0x15       // SVC: ELR is already the next instruction
    b.eq 1f
    add x24, x21, #4     // BRK, UDF: skip the instruction
    msr elr_el1, x24
1:  eret

vectors vec, handler
