// frame_names.h - names of the registers at the offsets of the external frames, for log lines.
// The core decodes the frames and says what an offset names (pmt_pmu_ext_name and its
// siblings); this only formats what an access the core accepted reached.
#ifndef PMTRACE_SYSTEMC_FRAME_NAMES_H
#define PMTRACE_SYSTEMC_FRAME_NAMES_H

#include <pmtrace/pmt_pe.h>

#include <string>

namespace pmtrace
{

// "PMCR_EL0 <= 0x41 {E=1, LC=1}" for a register the PE also reaches with MRS/MSR (the field
// names of the 32-bit half that holds bits [31:0]), "PMCCNTR_EL0[63:32] => 0x1" for an upper
// half, "PMDEVARCH => 0x47702a16" for a register of the frame only (named as a whole, also for
// a 32-bit half), "0x123 => 0x0" for an offset that names nothing.
std::string describe_pmu_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value,
                                      bool write);
std::string describe_debug_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value,
                                        bool write);
// "TRBLIMITR_EL1 <= 0x...1 {E=1, ...}", "TRBSR_EL1[63:32] => 0x0", "TRBCR <= 0x1", ...
std::string describe_trbe_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value,
                                       bool write);

} // namespace pmtrace

#endif
