// a64_debug_hal.h - a HAL (sw/hal/hal.h) through which an external agent runs the sw/ drivers on
// the AArch64 CPU's PE as a debugger does with the PE halted (a64_cpu::debug_access): system
// registers at the highest Exception level, the CPU's own ID registers, ISB, DSB and TSB CSYNC.
// Nothing else: memory, MMIO, interrupts and work are refused (HAL_INVALID), and the image's
// state (its registers, PSTATE, memory) is not touched.
#ifndef PMTRACE_PLATFORM_A64_DEBUG_HAL_H
#define PMTRACE_PLATFORM_A64_DEBUG_HAL_H

#include <pmtrace/platform/cpu/a64_cpu.h>

#include "hal/hal.h"

#include <functional>

namespace pmtrace::platform
{

// Runs `use` with the HAL (valid during the call only), from the CPU's boot hook or after
// simulation.
void with_debug_hal(a64_cpu &cpu, const std::function<void(const hal *)> &use);

} // namespace pmtrace::platform

#endif
