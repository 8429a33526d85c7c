// The stack pointers across exceptions (Arm ARM D1.3.4, AArch64.TakeException: the handler runs
// on SP_ELx of the target EL; ERET selects the SP of the EL and PSTATE.SP it returns to). EL1h
// takes an SVC and an UNDEFINED instruction to EL1h with its SP in use: the handler sees that SP
// (x2, x3) and the program has it back (x4). EL0 moves its SP, then takes an SVC: the handler
// reads SP_EL0 (x5) and returns, and EL0 still has its moved SP (x6); a last SVC brings it back.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x1, =0x40100000
    mov sp, x1
    svc #1
    udf #2
    mov x4, sp
    ldr x0, =0x40110000
    msr sp_el0, x0
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret
user:
    sub sp, sp, #0x100          // SP_EL0 = 0x4010ff00
    svc #3
    mov x6, sp
    svc #4
back:
    system_off

handler:
    read_syndrome
    mov x0, sp
    and x24, x20, #0xffff       // the SVC's immediate
    cmp x23, #0x00
    b.ne 1f
    mov x3, x0                  // UNDEFINED: SP in the handler, and on past the UDF
    add x21, x21, #4
    msr elr_el1, x21
    eret
1:  cmp x24, #1
    b.ne 2f
    mov x2, x0
    eret
2:  cmp x24, #3
    b.ne 3f
    mrs x5, sp_el0
    eret
3:  adr x0, back                // SVC #4: back to EL1h
    msr elr_el1, x0
    mov x0, #0x3c5
    msr spsr_el1, x0
    eret

vectors vec, handler
