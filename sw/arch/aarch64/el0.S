// el0.S - running code at EL0 (a64_call_el0, a64_el0_return) and the workload loops hal_a64's
// run executes (a64.h).

    .text
// uint64_t a64_call_el0(uint64_t entry, uint64_t arg, uint64_t sp_el0)
// Keeps the callee-saved registers and DAIF on the EL1 stack, then ERET to EL0t with SPSR_EL1's
// D, A, I, F those of the caller (D1.3.4: PSTATE is restored from SPSR_EL1), interrupts masked
// from the write of ELR_EL1 to the ERET.
    .global a64_call_el0
a64_call_el0:
    stp x29, x30, [sp, #-112]!
    stp x19, x20, [sp, #16]
    stp x21, x22, [sp, #32]
    stp x23, x24, [sp, #48]
    stp x25, x26, [sp, #64]
    stp x27, x28, [sp, #80]
    mrs x9, daif
    str x9, [sp, #96]
    // An interrupt taken between the MSR to ELR_EL1 and the ERET would overwrite ELR_EL1 and
    // SPSR_EL1 (D1.3.1): mask everything until the ERET, which restores the caller's masks.
    msr daifset, #0xf
    mov x10, sp
    ldr x11, =el0_caller_sp
    str x10, [x11]
    msr sp_el0, x2
    msr elr_el1, x0
    and x9, x9, #0x3c0              // M = 0b0000: EL0t
    msr spsr_el1, x9
    mov x0, x1
    ldr x30, =a64_el0_exit
    eret

// EL0: where a C function run by a64_call_el0 returns.
a64_el0_exit:
    svc #0                          // A64_SVC_EL0_RETURN

// void a64_el0_return(uint64_t x0), at EL1 from the SVC handler: the exception's frame is left
// behind, the caller of a64_call_el0 gets x0.
    .global a64_el0_return
a64_el0_return:
    ldr x11, =el0_caller_sp
    ldr x10, [x11]
    mov sp, x10
    ldr x9, [sp, #96]
    ldp x19, x20, [sp, #16]
    ldp x21, x22, [sp, #32]
    ldp x23, x24, [sp, #48]
    ldp x25, x26, [sp, #64]
    ldp x27, x28, [sp, #80]
    ldp x29, x30, [sp], #112
    msr daif, x9
    ret

// The workload loops: x0 = k >= 1 iterations of SUBS and B.NE. Entered at _odd they retire
// 2k + 1 instructions, at _even 2k + 2, at _two 2, at _one 1, the final \end included (SVC #0
// at EL0, RET at EL1).
.macro work_loop name, end:vararg
    .balign 16
    .global \name\()_two, \name\()_one, \name\()_even, \name\()_odd
\name\()_two:
    nop
\name\()_one:
    \end
\name\()_even:
    nop
\name\()_odd:
    subs x0, x0, #1
    b.ne \name\()_odd
    \end
.endm

    work_loop a64_work_el0, svc #0
    work_loop a64_work_el1, ret

    .bss
    .balign 8
el0_caller_sp:
    .quad 0
