// DC ZVA (the kernel's memset) zeroes the naturally aligned block of DCZID_EL0.BS words that
// holds Xt: through a high virtual address (TTBR1) mapped to RAM; at EL0 with SCTLR_EL1.DZE set.
// To Device memory it is an Alignment fault (DC ZVA's description: any type of Device memory),
// WnR 1, CM 0, FAR Xt: to the PL011, and to RAM with the MMU off (data accesses are then
// Device-nGnRnE). The buffers at 0x40200000, 0x40201000 and 0x40202000 start as 0xFF bytes.
//
//   TTBR0 L1 (0x40100000): [0] 1 GiB Device block at 0 (EL0 read/write); [1] 1 GiB block at
//   0x40000000 (EL1 only); [2] 1 GiB block at 0x40000000, EL0 read/write
//   TTBR1 L1 (0x40101000): [1] 1 GiB block at 0x40000000 (VA HI + 0x4000_0000)
// Results: x10 DCZID_EL0; x25 aborts taken, each recorded at 0x40300000 + 32 * n (ESR, ELR, FAR).
#include "common.inc"
#define HI 0xFFFFFF8000000000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mrs x10, dczid_el0
    ldr x1, =0x40200000
    mov x2, #0x3000
    mov x0, #-1
    mov x25, #0
1:  str x0, [x1], #8
    subs x2, x2, #8
    b.ne 1b
    ldr x1, =0x40200000 + 0x48  // MMU off: Device-nGnRnE
zva_mmu_off:
    dc zva, x1

    ldr x1, =0x40100000
    mov x0, #0x445              // Device block at 0, EL0 read/write, AF
    str x0, [x1]
    ldr x0, =0x40000701
    str x0, [x1, #8]
    ldr x0, =0x40000741
    str x0, [x1, #16]
    ldr x1, =0x40101000
    ldr x0, =0x40000701
    str x0, [x1, #8]
    mmu_on_el1 0x40100000, 0x40101000, dze=1
    ldr x1, =0x40201000 + HI + 0x80
    dc zva, x1                  // 0x40201080..0x402010BF
    ldr x1, =0x09000000         // the PL011 (Device)
zva_device:
    dc zva, x1
    ldr x0, =user + 0x40000000
    msr elr_el1, x0
    msr spsr_el1, xzr
    eret
user:
    ldr x1, =0x40202000 + 0x40000000 + 0xC0
    dc zva, x1                  // 0x402020C0..0x402020FF
    svc #0
back:
    system_off

handler:
    mrs x0, esr_el1
    lsr x0, x0, #26
    cmp x0, #0x15
    b.eq 1f
    ldr x1, =0x40300000
    add x1, x1, x25, lsl #5
    add x25, x25, #1
    mrs x0, esr_el1
    str x0, [x1]
    mrs x0, far_el1
    str x0, [x1, #16]
    mrs x0, elr_el1
    str x0, [x1, #8]
    add x0, x0, #4
    msr elr_el1, x0
    eret
1:  ldr x0, =back
    msr elr_el1, x0
    mov x0, #0x3c5
    msr spsr_el1, x0
    eret

vectors vec, handler
