// static_pie.c - a position-independent AArch64 executable (ET_DYN, linked by
// aarch64-linux-gnu-gcc -static-pie, freestanding) for QEMU's virt board, as a user builds one:
// pmtrace-vp --kernel loads it as QEMU does, where it is linked (its text at RAM + 0x80000), and
// it runs there. Its start sets a stack, prints a line on the PL011 and powers off by PSCI
// (SYSTEM_OFF over HVC): exit status 0. Every address it uses is PC-relative (no relocation).
#include <stdint.h>

#define PL011_DR        ((volatile uint32_t *)0x09000000)
#define PSCI_SYSTEM_OFF 0x84000008u

__attribute__((visibility("hidden"), aligned(16))) char pie_stack[4096];
__attribute__((visibility("hidden"), noreturn)) void pie_main(void);

// The entry: a stack, then C.
__asm__(".section .text.start, \"ax\"\n"
        ".global _start\n"
        "_start:\n"
        "    adrp x1, pie_stack + 4096\n"
        "    add  x1, x1, :lo12:pie_stack + 4096\n"
        "    mov  sp, x1\n"
        "    b    pie_main\n"
        ".previous\n");

static void put(const char *s)
{
    for (; *s; s++)
        *PL011_DR = (uint32_t)(unsigned char)*s;
}

void pie_main(void)
{
    put("hello from a static PIE\n");
    register uint64_t x0 __asm__("x0") = PSCI_SYSTEM_OFF;
    __asm__ volatile("hvc #0" : "+r"(x0) : : "memory");
    for (;;)
        __asm__ volatile("wfi");
}
