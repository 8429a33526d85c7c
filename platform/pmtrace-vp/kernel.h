// kernel.h - pmtrace-vp --kernel: a user's image booted on the AArch64 CPU as QEMU's virt board
// boots -kernel (boot_image.h loads it, virt_dtb.h describes the platform to it, x0 = the device
// tree, MMU off, interrupts masked), the PL011 as the console (stdout, input from stdin:
// console.h), the run to PSCI SYSTEM_OFF.
#ifndef PMTRACE_VP_KERNEL_H
#define PMTRACE_VP_KERNEL_H

#include "options.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/vp.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

// The platform the options ask for, with the AArch64 CPU and the console (stdin its input with
// --kernel; the scenario image reads none).
platform::vp_config kernel_platform_config(const options &o);

// Loads the image (--kernel's file, or `image`, named `name` in messages), --initrd's initial RAM
// disk and the device tree into RAM and gives the CPU its boot state; `bootargs` is the command
// line. Returns -1 to run,
// or the exit status: 0 after --dump-dtb, exit_usage with a message on `err` for an image, initrd
// or device tree that cannot be used or placed. `loaded` (may be null) gets where the image went.
int boot_kernel(const options &o, platform::vp &vp, std::ostream &err,
                platform::boot_image *loaded = nullptr);
int boot_kernel(const options &o, platform::vp &vp, const std::vector<uint8_t> &image,
                const std::string &name, const std::string &bootargs, std::ostream &err,
                platform::boot_image *loaded = nullptr);

// After the run: exit_ok when the software ended by PSCI SYSTEM_OFF or SYSTEM_RESET or by a
// semihosting SYS_EXIT with status 0, exit_time_limit when --time-limit stopped it, else
// exit_failed with what went wrong on `err`; `end` gets how it ended.
int kernel_exit_status(const options &o, platform::vp &vp, std::ostream &err, run_end &end);

} // namespace pmtrace::vp_cli

#endif
