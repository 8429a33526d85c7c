// Stage 1 translation in the EL3 regime (one VA range, TCR_EL3, TTBR0_EL3, MAIR_EL3,
// SCTLR_EL3), entered at EL3. The tables (4 KiB granule, T0SZ 25: the walk starts at level 1):
//
//   L1 (0x40100000): [0] 1 GiB block at 0 (Device-nGnRnE), [1] 1 GiB block at 0x40000000
//                    (Normal), [2] invalid
//
// With the MMU on, a device is reached through its mapping (x5: UARTFR of the PL011, TXFE and
// RXFE: 0x90) and RAM through its (x4: what was stored at 0x40200000 read back), then a load from
// VA 0x80000000 takes a Data Abort to EL3 (x20 ESR_EL3, x21 FAR_EL3, x22 ELR_EL3; x6 the load's
// address, x28 the vector entry) and the handler ends the program with semihosting SYS_EXIT,
// whose parameter block it reads through the MMU.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec3
    msr vbar_el3, x0
    mov x28, #-1
    ldr x1, =0x40100000
    mov x0, #0x405              // block, AttrIndx 1, AF
    str x0, [x1]
    ldr x0, =0x40000701         // block, AttrIndx 0, SH inner, AF
    str x0, [x1, #8]
    str xzr, [x1, #16]          // invalid
    mov x0, #0xFF               // MAIR_EL3: Attr0 Normal write-back, Attr1 Device-nGnRnE
    msr mair_el3, x0
    ldr x0, =0x80823519         // TCR_EL3: RES1 [31], [23]; PS 40 bits, SH0 inner, ORGN0/IRGN0 WB,
    msr tcr_el3, x0             //          TG0 4K, T0SZ 25
    ldr x0, =0x40100000
    msr ttbr0_el3, x0
    isb
    mrs x0, sctlr_el3
    orr x0, x0, #1              // M
    msr sctlr_el3, x0
    isb
    ldr x2, =0x40200000
    ldr x0, =0x1234
    str x0, [x2]
    ldr x4, [x2]
    ldr x1, =0x09000018         // UARTFR
    ldr w5, [x1]
    adr x6, unmapped
    ldr x0, =0x80000000
unmapped:
    ldr x7, [x0]
    b .

handler3:
    mrs x20, esr_el3
    mrs x21, far_el3
    mrs x22, elr_el3
    semihosting_exit

    vectors vec3, handler3
