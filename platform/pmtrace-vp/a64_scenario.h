// a64_scenario.h - pmtrace-vp's scenarios on the AArch64 CPU: the scenario image (the sw/ apps
// built for AArch64, sw/arch/aarch64/images/vp.c, built into pmtrace-vp), booted as --kernel
// boots an image, with the options turned into its command line (pmtrace.* words in
// chosen/bootargs), so every count comes from executed instructions.
#ifndef PMTRACE_VP_A64_SCENARIO_H
#define PMTRACE_VP_A64_SCENARIO_H

#include "options.h"
#include "scenario.h"

#include <pmtrace/platform/vp.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

// The scenario image (a raw binary for RAM + 0x80000); empty when pmtrace-vp was built without
// an AArch64 cross compiler.
std::vector<uint8_t> scenario_image();

// The scenario image as an ELF, for symbols (pmtrace-vp --perf-data): the one installed with
// pmtrace-vp (share/pmtrace/sw_vp.elf, found from the executable's own path, /proc/self/exe), or
// from the build tree the build's; empty when there is none (built without a cross compiler, or
// an installed pmtrace-vp whose ELF was removed).
std::string scenario_elf_path();

// The image's command line for the options: the scenario, the loop, the counting and the trace
// buffer (and with --stats-json the results area).
std::string scenario_bootargs(const options &o);

// Where the image leaves its apps' results with --stats-json (pmtrace.results; sw/apps/results.h):
// RAM's base, below the image at + 0x80000 (nothing else is there: pmtrace-vp writes no boot
// stub, and the device tree, the trace buffer and the capture area lie above RAM's first MiB).
constexpr uint64_t results_area_base = platform::virt::ram_base;
constexpr uint64_t results_area_size = 0x1000;

// The apps' results the image left (status, stat, record, trace), for the JSON; false when there
// are none (no --stats-json, or the image did not end its run; a results area of another layout
// is refused with a line on `err`).
bool read_results_area(const options &o, platform::vp &vp, run_result &r, std::ostream &err);

// The platform for the scenario image: as for --kernel (with the ETE trace unit, and with
// --decode the CPU's execution log), with semihosting (the image ends with its status:
// SYS_EXIT).
platform::vp_config scenario_platform_config(const options &o);

} // namespace pmtrace::vp_cli

#endif
