// perf_data.h - PMU samples written as a perf.data file (Linux's
// tools/perf/Documentation/perf.data-file-format.txt), which `perf report -i FILE` and `perf script
// -i FILE` read, with the executed image named so that its symbols resolve. No SystemC.
//
// The file holds one event (PERF_TYPE_RAW with the PMU event number, named in the
// HEADER_EVENT_DESC feature), then in its data: a COMM and MMAP records that describe the image as
// one process, and one PERF_RECORD_SAMPLE per sample (IP, TID, TIME, CPU, PERIOD). The Exception
// level of a sample is its thread: thread "EL0" ... "EL3" of the image's process (perf report's
// `comm` column), so `perf report --sort comm,sym` splits the profile by Exception level. Samples
// are user-mode samples for perf (the image is not a Linux kernel perf could find symbols for).
// HEADER_ARCH says aarch64, HEADER_NRCPUS one CPU.
#ifndef PMTRACE_PLATFORM_PERF_DATA_H
#define PMTRACE_PLATFORM_PERF_DATA_H

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::platform
{

// One sample: where the PE was (the preferred return address of the PMU interrupt), at which
// Exception level, when (simulated time), and the sampling period.
struct perf_sample {
    uint64_t ip = 0;
    unsigned el = 0;
    uint64_t time_ns = 0;
    uint64_t period = 1;
};

// An executable mapping of a file: [address, address + size) holds the file's bytes from
// file_offset (an ELF's executable PT_LOAD segment).
struct perf_mapping {
    std::string path; // as perf opens it (absolute, or relative to where perf runs)
    uint64_t address = 0, size = 0, file_offset = 0;
};

struct perf_data_config {
    std::string command = "pmtrace-vp"; // the process's name (COMM)
    uint16_t event = 0;                 // the PMU event sampled (perf's raw event rNNNN)
    std::string event_name;             // its name (HEADER_EVENT_DESC); empty: rNNNN
    uint64_t sample_period = 1;
    std::vector<perf_mapping> mappings;
};

// Writes the file; false and `error` when it cannot.
bool write_perf_data(const std::string &path, const perf_data_config &config,
                     const std::vector<perf_sample> &samples, std::string &error);

// The executable PT_LOAD segments of an ELF64 little-endian image (`bytes` the file's contents,
// `path` how perf should open it); empty for anything else (a raw binary has no symbols).
std::vector<perf_mapping> elf_executable_mappings(const std::string &path,
                                                  const std::vector<uint8_t> &bytes);

} // namespace pmtrace::platform

#endif
