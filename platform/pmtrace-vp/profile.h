// profile.h - pmtrace-vp --perf-data: a sample at each PMU interrupt the AArch64 CPU takes (the
// interrupted instruction, its Exception level, the simulated time), written as a perf.data file
// (perf_data.h) whose mapping names the image's ELF, so `perf report -i FILE` names functions.
#ifndef PMTRACE_VP_PROFILE_H
#define PMTRACE_VP_PROFILE_H

#include "options.h"

#include <pmtrace/platform/trace/perf_data.h>
#include <pmtrace/platform/vp.h>

#include <iosfwd>
#include <vector>

namespace pmtrace::vp_cli
{

class pmu_profile
{
  public:
    // Samples the IRQs of `vp`'s AArch64 CPU taken for PMUIRQ (INTID 23 the highest pending
    // interrupt of the GIC's CPU interface), when o.perf_data asks for them.
    pmu_profile(const options &o, platform::vp &vp);
    // Writes the file: exit_ok, or exit_failed with a line on `err`.
    int write(std::ostream &err) const;
    const std::vector<platform::perf_sample> &samples() const { return samples_; }

  private:
    // The record scenario: its event, sampled every --period (an image of the user's programs
    // its own events and periods).
    bool records() const;
    const options &o_;
    std::vector<platform::perf_sample> samples_;
};

} // namespace pmtrace::vp_cli

#endif
