// a64_capture.h - the scenario image's trace, after the run: the trace session on the AArch64
// CPU leaves each part it collected in a capture area (sw/apps/capture.h) in RAM that
// pmtrace-vp names on the image's command line (pmtrace.capture); pmtrace-vp reads it, writes
// --trace-out and --snapshot, and with --decode decodes each part (OpenCSD) and checks it against
// what the CPU executed (its execution log), range by range.
#ifndef PMTRACE_VP_A64_CAPTURE_H
#define PMTRACE_VP_A64_CAPTURE_H

#include "options.h"

#include <pmtrace/platform/vp.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

// The capture area's place: the larger stretch of RAM the image and the trace buffer leave
// free (above RAM's first MiB, below or above the buffer). Size 0 when no output wants it.
struct capture_area {
    uint64_t base = 0, size = 0;
};
capture_area capture_area_of(const options &o);

// Reads the capture, writes and checks what the options ask for; its report goes to `out`
// (a line per part decoded, then the total). Returns exit_ok, or exit_failed with the reason on
// `err`. `image` is the scenario image (the program the decoder follows).
int finish_capture(const options &o, platform::vp &vp, const std::vector<uint8_t> &image,
                   std::string &out, std::ostream &err);

} // namespace pmtrace::vp_cli

#endif
