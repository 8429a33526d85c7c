// EL0 and a trapped PMU access: with PMUSERENR_EL0.EN = 0 an MRS of PMCCNTR_EL0 at EL0 traps to
// EL1 (EC 0x18, ISS: Op0 3, Op2 0, Op1 3, CRn 9, Rt 5, CRm 13, read). The handler keeps the
// syndrome and returns to EL0 past it; an SVC brings the program back to EL1.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    msr pmuserenr_el0, xzr
    adr x0, user
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret
user:
    mrs x1, CurrentEL           // UNDEFINED at EL0: the handler skips it, x1 stays 0
trap:
    mrs x5, pmccntr_el0
    svc #1
back:
    mrs x7, CurrentEL
    adr x8, trap
    system_off

handler:
    read_syndrome
    cmp x23, #0x15
    b.eq from_svc
    cmp x23, #0x18
    b.ne 1f
    mov x10, x20                 // the trap's ESR
    mov x11, x21                 // and ELR
    mov x12, x22                 // and SPSR
1:  add x21, x21, #4
    msr elr_el1, x21
    eret
from_svc:
    adr x0, back
    msr elr_el1, x0
    mov x0, #0x3c5               // back to EL1h
    msr spsr_el1, x0
    eret

vectors vec, handler
