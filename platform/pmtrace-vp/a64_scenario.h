// a64_scenario.h - pmtrace-vp's scenarios on the AArch64 CPU: the scenario image (the sw/ apps
// built for AArch64, sw/arch/aarch64/images/vp.c, built into pmtrace-vp), booted as --kernel
// boots an image, with the options turned into its command line (pmtrace.* words in
// chosen/bootargs), so every count comes from executed instructions.
#ifndef PMTRACE_VP_A64_SCENARIO_H
#define PMTRACE_VP_A64_SCENARIO_H

#include "options.h"

#include <pmtrace/platform/vp.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

// The scenario image (a raw binary for RAM + 0x80000); empty when pmtrace-vp was built without
// an AArch64 cross compiler.
std::vector<uint8_t> scenario_image();

// The scenario image as an ELF, for symbols (pmtrace-vp --perf-data): the path of the build's
// sw_vp.elf; empty when it was built without one.
std::string scenario_elf_path();

// The image's command line for the options: the scenario, the loop, the counting and the trace
// buffer.
std::string scenario_bootargs(const options &o);

// The platform for the scenario image: as for --kernel (with the ETE trace unit, and with
// --decode the CPU's execution log), with semihosting (the image ends with its status:
// SYS_EXIT).
platform::vp_config scenario_platform_config(const options &o);

} // namespace pmtrace::vp_cli

#endif
