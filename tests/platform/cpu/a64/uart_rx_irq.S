// The PL011's receive interrupts through the GIC to the CPU, as a driver takes them: the GICv3
// with SPI 33 (the PL011's, SPI 1) in Group 1 at priority 0x80 routed to this PE, the PL011 with
// 16-character FIFOs, the receive trigger level at 1/2 full and the receive and receive timeout
// interrupts unmasked; then WFI until the handler has run once. The handler acknowledges
// (ICC_IAR1_EL1), reads UARTMIS, reads the FIFO empty (UARTFR.RXFE), ends the interrupt.
// Leaves: x19 the interrupts handled, x20 the INTID, x21 UARTMIS, x22 the characters read (the
// first in the lowest byte), x28 the vector entry.
#include "common.inc"
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    mov x19, #0
    mov x22, #0
    mov x0, #1
    msr s3_0_c12_c12_5, x0      // ICC_SRE_EL1.SRE
    isb
    mov x0, #0xff
    msr s3_0_c4_c6_0, x0        // ICC_PMR_EL1
    mov x0, #1
    msr s3_0_c12_c12_7, x0      // ICC_IGRPEN1_EL1
    ldr x1, =0x08000000         // the Distributor
    mov w0, #0x12
    str w0, [x1]                // GICD_CTLR: ARE, EnableGrp1
    mov w0, #(1 << 1)           // INTID 33: bit 1 of the INTID 32-63 registers
    str w0, [x1, #0x84]         // GICD_IGROUPR1: Group 1
    mov w0, #0x80
    strb w0, [x1, #0x421]       // GICD_IPRIORITYR8, byte 1: INTID 33's priority
    str xzr, [x1, #0x6108]      // GICD_IROUTER33: affinity 0.0.0.0, this PE (64-bit)
    mov w0, #(1 << 1)
    str w0, [x1, #0x104]        // GICD_ISENABLER1
    ldr x1, =0x080A0014         // GICR_WAKER: clear ProcessorSleep
    str wzr, [x1]
    ldr x1, =0x09000000         // the PL011
    mov w0, #0x70
    str w0, [x1, #0x2c]         // UARTLCR_H: 8 bits, FEN
    mov w0, #0x12
    str w0, [x1, #0x34]         // UARTIFLS: both levels 1/2 full
    mov w0, #0x50
    str w0, [x1, #0x38]         // UARTIMSC: RTIM, RXIM
    mov w0, #0x301
    str w0, [x1, #0x30]         // UARTCR: RXE, TXE, UARTEN
    msr daifclr, #2
wait:
    wfi
    cbz x19, wait
    msr daifset, #2
    system_off

handler:
    mrs x20, s3_0_c12_c12_0     // ICC_IAR1_EL1
    ldr x1, =0x09000000
    ldr w21, [x1, #0x40]        // UARTMIS
    mov x3, #0
1:  ldr w2, [x1, #0x18]         // UARTFR
    tbnz w2, #4, 2f             // RXFE: the FIFO is empty
    ldr w2, [x1]                // UARTDR
    and x2, x2, #0xff
    lsl x2, x2, x3
    orr x22, x22, x2
    add x3, x3, #8
    b 1b
2:  msr s3_0_c12_c12_1, x20     // ICC_EOIR1_EL1
    add x19, x19, #1
    eret

vectors vec, handler
