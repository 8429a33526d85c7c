/*
 * pl011.c - console output on the PL011 UART at QEMU virt's address (Arm PrimeCell UART PL011
 * TRM, DDI0183): each character to UARTDR once UARTFR.TXFF is clear. The UART is used as the
 * firmware left it (QEMU's, like the platform's, transmits without set-up).
 */
#include "a64.h"

#define PL011_BASE  0x09000000u
#define UARTDR      0x000u
#define UARTFR      0x018u
#define UARTFR_TXFF (1u << 5)

void a64_console(const char *text, size_t n)
{
    volatile uint32_t *dr = (volatile uint32_t *)(uintptr_t)(PL011_BASE + UARTDR);
    volatile const uint32_t *fr = (volatile const uint32_t *)(uintptr_t)(PL011_BASE + UARTFR);
    for (size_t i = 0; i < n; i++) {
        while (*fr & UARTFR_TXFF)
            ;
        *dr = (unsigned char)text[i];
    }
}
