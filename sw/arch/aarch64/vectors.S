// vectors.S - the exception vectors of EL1 (and of EL2 while the image was entered there): each
// entry saves the general-purpose registers, ELR_ELx and SPSR_ELx (a64_frame, a64.h) and calls
// a64_exception(frame, kind) with kind = EL << 4 | offset / 0x80 (Arm ARM D1.3.1, Table D1-5),
// then restores them and returns with ERET.

#define FRAME_SIZE 272              // sizeof(a64_frame)

.macro vector el, n
    .balign 128
    sub sp, sp, #FRAME_SIZE
    stp x0, x1, [sp, #0]
    mov x1, #((\el << 4) | \n)
    b a64_entry_el\el
.endm

.macro vector_table el
    .balign 2048
    .global a64_vectors_el\el
a64_vectors_el\el:
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    vector \el, \n
    .endr
.endm

// The common part: the rest of the frame, the call, the way back.
.macro entry_common el
a64_entry_el\el:
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    stp x16, x17, [sp, #128]
    stp x18, x19, [sp, #144]
    stp x20, x21, [sp, #160]
    stp x22, x23, [sp, #176]
    stp x24, x25, [sp, #192]
    stp x26, x27, [sp, #208]
    stp x28, x29, [sp, #224]
    mrs x2, elr_el\el
    stp x30, x2, [sp, #240]
    mrs x2, spsr_el\el
    str x2, [sp, #256]
    mov x0, sp
    bl a64_exception
    ldr x2, [sp, #256]
    msr spsr_el\el, x2
    ldp x30, x2, [sp, #240]
    msr elr_el\el, x2
    ldp x28, x29, [sp, #224]
    ldp x26, x27, [sp, #208]
    ldp x24, x25, [sp, #192]
    ldp x22, x23, [sp, #176]
    ldp x20, x21, [sp, #160]
    ldp x18, x19, [sp, #144]
    ldp x16, x17, [sp, #128]
    ldp x14, x15, [sp, #112]
    ldp x12, x13, [sp, #96]
    ldp x10, x11, [sp, #80]
    ldp x8, x9, [sp, #64]
    ldp x6, x7, [sp, #48]
    ldp x4, x5, [sp, #32]
    ldp x2, x3, [sp, #16]
    ldp x0, x1, [sp, #0]
    add sp, sp, #FRAME_SIZE
    eret
.endm

    .text
    vector_table 1
    entry_common 1
    vector_table 2
    entry_common 2
