// start.S - the startup of a bare-metal program for QEMU's virt board (AArch64), as one is written
// without pmtrace: entered at EL1 at the load address with x0 = the device tree, MMU off. Sets a
// stack, clears the BSS (link.ld places this first, at the load address), installs the vectors and calls main(dtb); main's return powers off.
    .section .text.boot, "ax"
    .global _start
_start:
    ldr x1, =stack_top
    mov sp, x1
    ldr x1, =__bss_start
    ldr x2, =_end
1:  cmp x1, x2
    b.hs 2f
    str xzr, [x1], #8
    b 1b
2:  ldr x1, =vectors
    msr vbar_el1, x1
    isb
    bl main
    bl power_off
3:  b 3b

// The vectors: IRQ from the current EL (SP_ELx) calls irq(); everything else stops with the
// vector's offset in x0 (fault()).
    .macro entry handler
    .balign 128
    b \handler
    .endm
    .balign 2048
vectors:
    .irp n, 0,1,2,3
    entry unexpected
    .endr
    entry unexpected    // current EL, SP_ELx: synchronous
    entry irq_entry     // IRQ
    .irp n, 6,7,8,9,10,11,12,13,14,15
    entry unexpected
    .endr

irq_entry:
    stp x29, x30, [sp, #-176]!
    stp x0, x1, [sp, #16]
    stp x2, x3, [sp, #32]
    stp x4, x5, [sp, #48]
    stp x6, x7, [sp, #64]
    stp x8, x9, [sp, #80]
    stp x10, x11, [sp, #96]
    stp x12, x13, [sp, #112]
    stp x14, x15, [sp, #128]
    stp x16, x17, [sp, #144]
    str x18, [sp, #160]
    bl irq
    ldr x18, [sp, #160]
    ldp x16, x17, [sp, #144]
    ldp x14, x15, [sp, #128]
    ldp x12, x13, [sp, #112]
    ldp x10, x11, [sp, #96]
    ldp x8, x9, [sp, #80]
    ldp x6, x7, [sp, #64]
    ldp x4, x5, [sp, #48]
    ldp x2, x3, [sp, #32]
    ldp x0, x1, [sp, #16]
    ldp x29, x30, [sp], #176
    eret

unexpected:
    mrs x0, esr_el1
    bl fault
    bl power_off
4:  b 4b

// PSCI over HVC (the conduit virt's device tree names): x0 the function, x1-x3 its arguments.
    .global psci_call
psci_call:
    hvc #0
    ret

    .bss
    .balign 16
    .space 16384
stack_top:
