// kernel_trace.h - pmtrace-vp --kernel IMAGE --trace: a trace session the platform runs around
// the user's image as a debugger (or a trace tool's firmware) does. Before the image's first
// instruction it programs the Trace Buffer Unit and the ETE with the sw/ drivers' perf sequences
// (a64_debug_hal.h: at the highest Exception level, the PE halted); when the run ends it stops
// them the same way and takes the buffer, which a64_capture.h writes and checks. The image must
// leave the trace unit, the Trace Buffer Unit, TRFCR_EL1 and TRFCR_EL2 alone.
#ifndef PMTRACE_VP_KERNEL_TRACE_H
#define PMTRACE_VP_KERNEL_TRACE_H

#include "options.h"

#include <pmtrace/platform/vp.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

class kernel_trace
{
  public:
    // Sets the CPU's boot hook (the session starts at boot).
    kernel_trace(const options &o, platform::vp &vp);

    // After the run: stops the session and gives the capture, oldest byte first. False (and
    // `error` says why) when the session could not start or stop.
    bool finish(std::vector<uint8_t> &trace, std::string &error);
    // What the session did: the buffer, its mode, TRBSR_EL1 and TRBPTR_EL1 at the end.
    const std::string &text() const { return text_; }

  private:
    void start();
    const options &o_;
    platform::vp &vp_;
    sw_trbe trbe_{};
    sw_ete ete_{};
    int status_ = 0; // the first failure (sw_errno)
    std::string text_;
};

} // namespace pmtrace::vp_cli

#endif
