/*
 * exit.c - how an image ends (a64.h): a semihosting SYS_EXIT when the host serves semihosting
 * ("Semihosting for AArch32 and AArch64", Arm IHI 0069: HLT #0xF000, W0 the operation, X1 the
 * address of {ADP_Stopped_ApplicationExit, status}), else PSCI SYSTEM_OFF. Semihosting is used
 * only when the image was told the host serves it: without a debugger HLT is UNDEFINED.
 */
#include "a64.h"

#define SYS_EXIT                     0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

bool a64_semihosting;

void a64_exit(int status)
{
    if (a64_semihosting) {
        uint64_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status};
        register uint64_t x0 __asm__("x0") = SYS_EXIT;
        register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;
        __asm__ __volatile__("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    }
    a64_system_off();
}
