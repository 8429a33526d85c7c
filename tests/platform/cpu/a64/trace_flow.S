// Program flow for the trace listener (test_a64_trace.cpp): every kind of P0 element at EL1,
// each at a label, so the expected ranges come from the symbols. In order: an ISB; a counted
// loop of 3 (B.NE taken twice, then not); a loop of 100000 iterations of one block (the repeat
// fast path); BL and RET; BLR through a register and RET; a switch through a jump table (BR) to
// case 1; CBZ taken and not taken, TBZ not taken, TBNZ taken; B.EQ to its own fall-through taken
// and not taken; SVC, whose handler returns with ERET; PSCI SYSTEM_OFF.
#include "common.inc"
#define LONG 100000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
isb_a:
    isb
    mov x1, #3
loop3:
    subs x1, x1, #1
loop3_br:
    b.ne loop3
    ldr x1, =LONG
long:
    subs x1, x1, #1
long_br:
    b.ne long
call_bl:
    bl func
after_bl:
    adr x3, func
call_blr:
    blr x3
after_blr:
    mov x4, #1
    adr x5, table
    ldr x6, [x5, x4, lsl #3]
switch_br:
    br x6
case0:
    mov x7, #10
    b join
case1:
    mov x7, #11
case1_b:
    b join
join:
    mov x8, #0
cbz_t:
    cbz x8, cbz_target
    nop
cbz_target:
    mov x8, #1
cbz_n:
    cbz x8, bad
    mov x9, #4
tbz_n:
    tbz x9, #2, bad
tbnz_t:
    tbnz x9, #2, tbnz_target
    nop
tbnz_target:
    cmp x8, x8
beq_self_t:
    b.eq beq_self_n_start           // its own fall-through, Z set: taken
beq_self_n_start:
    cmp x8, #0
beq_self_n:
    b.eq after_beq                  // its own fall-through, Z clear: not taken
after_beq:
    mov x10, #0
svc_a:
    svc #1
after_svc:
    mov x19, #0
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0

bad:
    mov x19, #1
    ldr x0, =PSCI_SYSTEM_OFF
    hvc #0

func:
    add x2, x2, #1
func_ret:
    ret

handler:
    mrs x20, esr_el1
handler_eret:
    eret

    .balign 8
table:
    .quad case0
    .quad case1

vectors vec, handler
