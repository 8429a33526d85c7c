// Semihosting (Arm IHI 0069) over HLT #0xF000: x10 SYS_WRITE0's result (0), x11 SYS_WRITEC's
// (0), x12 an operation not served (0x30: -1), then SYS_EXIT with {ADP_Stopped_ApplicationExit,
// 3}: the run ends with status 3 and nothing after it runs (x9 stays 0). Without semihosting the
// first HLT is UNDEFINED: the vector (x28 = 4, current EL with SP_ELx, synchronous) records ESR_EL1
// in x13 and ELR_EL1 in x14; x15 is that HLT's address.
#include "common.inc"
.global _start
_start:
    adr x0, table
    msr vbar_el1, x0
    isb
    mov x9, #0
    mov x28, #-1
    adr x15, first
    mov x0, #0x04               // SYS_WRITE0
    adr x1, message
first:
    hlt #0xf000
    mov x10, x0
    mov x0, #0x03               // SYS_WRITEC
    adr x1, bang
    hlt #0xf000
    mov x11, x0
    mov x0, #0x30               // not an operation served
    mov x1, #0
    hlt #0xf000
    mov x12, x0
    mov x0, #0x18               // SYS_EXIT
    adr x1, block
    hlt #0xf000
    mov x9, #1
    system_off

handler:
    mrs x13, esr_el1
    mrs x14, elr_el1
    system_off

    .balign 8
block:
    .quad 0x20026               // ADP_Stopped_ApplicationExit
    .quad 3
message:
    .asciz "semihosting says hi\n"
bang:
    .ascii "!"
    vectors table, handler
