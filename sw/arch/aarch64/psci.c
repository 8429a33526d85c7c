/*
 * psci.c - PSCI calls (Arm DEN 0022) on the conduit QEMU's virt board gives a kernel: HVC when
 * the image is entered at EL1 (the firmware is the hypervisor's place), SMC when entered at EL2
 * (virtualization=on: PSCI is EL3 firmware's); SMC too when entered at EL3 (secure=on), where
 * start.S's stub answers NOT_SUPPORTED: such an image ends through semihosting (exit.c). SMC
 * Calling Convention: function in w0, arguments in x1..x3, result in x0.
 */
#include "a64.h"

#define PSCI_SYSTEM_OFF 0x84000008u

int64_t a64_psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    if (a64_entry_el >= 2)
        __asm__ __volatile__("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
    else
        __asm__ __volatile__("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
    return (int64_t)x0;
}

void a64_system_off(void)
{
    (void)a64_psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
    for (;;) /* SYSTEM_OFF does not return; if it did, wait */
        __asm__ __volatile__("wfi");
}
