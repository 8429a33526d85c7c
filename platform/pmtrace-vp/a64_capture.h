// a64_capture.h - the AArch64 CPU's trace, after the run. The scenario image's trace session
// leaves each part it collected in a capture area (sw/apps/capture.h) in RAM that pmtrace-vp
// names on the image's command line (pmtrace.capture); with --kernel --trace the capture is the
// buffer of pmtrace-vp's own session (kernel_trace.h). pmtrace-vp writes --trace-out and
// --snapshot, and with --decode decodes each part (OpenCSD) and checks it against what the CPU
// executed (its execution log), range by range.
#ifndef PMTRACE_VP_A64_CAPTURE_H
#define PMTRACE_VP_A64_CAPTURE_H

#include "options.h"

#include <pmtrace/platform/trace/trace_types.h>
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

// Trace without a break: decoded on its own.
struct capture_part {
    const uint8_t *data;
    uint64_t size;
};

// The parts the scenario image left in its capture area (none when capture_area_of is empty;
// pointers into RAM). Returns exit_ok, or exit_failed with the reason on `err`; a note on
// trace that did not fit goes to `out`.
int read_capture_area(const options &o, platform::vp &vp, std::vector<capture_part> &parts,
                      std::string &out, std::ostream &err);

// Writes and checks what the options ask for (--trace-out: the parts one after the other;
// --snapshot: the first part; --decode: each part decoded and checked); the report goes to
// `out`. `program` is the memory the decoder follows. Returns exit_ok, or exit_failed with the
// reason on `err` (or in `out` for a decode that is not what the CPU executed).
int write_capture(const options &o, platform::vp &vp, const std::vector<capture_part> &parts,
                  const platform::memory_image &program, std::string &out, std::ostream &err);

} // namespace pmtrace::vp_cli

#endif
