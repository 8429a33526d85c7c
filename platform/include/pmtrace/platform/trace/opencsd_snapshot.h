// opencsd_snapshot.h - writes a trace capture as an OpenCSD snapshot directory, the form
// OpenCSD's test tool reads:  trc_pkt_lister -ss_dir DIR -decode
//
//   snapshot.ini      [snapshot] version, description; [device_list] the device files;
//                     [trace] metadata = trace.ini
//   cpu_0.ini         the PE: [device] name cpu_0, class core, type ARM-AA64 (OpenCSD: an
//                     AArch64 A-profile PE); [dump1..n] one memory image each: file, address,
//                     length
//   ete_0.ini         the trace unit: [device] name ete_0, class trace_source, type ETE;
//                     [regs] TRCCONFIGR, TRCTRACEIDR, TRCDEVARCH, TRCIDR0, TRCIDR1, TRCIDR2,
//                     TRCIDR8
//   trace.ini         [trace_buffers] buffers = buffer0; [buffer0] name trbe, file
//                     trace_buffer.bin, format source_data (a TRBE writes unformatted trace:
//                     one source, no CoreSight frame formatter); [source_buffers] ete_0 = trbe;
//                     [core_trace_sources] cpu_0 = ete_0
//   trace_buffer.bin  the trace bytes, oldest first
//   memory_<n>.bin    the memory images
//
// docs/trace.md says what each key means. A Trace Buffer Unit in Wrap mode overwrites its oldest
// bytes; trace_buffer_in_time_order() puts such a buffer back into time order first.
#ifndef PMTRACE_PLATFORM_OPENCSD_SNAPSHOT_H
#define PMTRACE_PLATFORM_OPENCSD_SNAPSHOT_H

#include <pmtrace/platform/trace/trace_types.h>
#include <pmtrace/platform/trace/trace_log.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::platform
{

namespace snapshot_names
{
constexpr const char *snapshot_ini = "snapshot.ini";
constexpr const char *core_ini = "cpu_0.ini";
constexpr const char *trace_unit_ini = "ete_0.ini";
constexpr const char *trace_ini = "trace.ini";
constexpr const char *trace_file = "trace_buffer.bin";
constexpr const char *core = "cpu_0";
constexpr const char *trace_unit = "ete_0";
constexpr const char *buffer = "trbe";
constexpr const char *core_type = "ARM-AA64";
} // namespace snapshot_names

struct trace_capture {
    std::vector<uint8_t> trace; // in time order
    std::vector<memory_image> images;
    ete_registers registers;
    std::string description = "pmtrace capture";
};

enum class snapshot_status {
    ok,
    bad_input, // an empty or overlapping memory image, an empty directory name, ...: nothing
               // written
    io_error,  // a directory or file could not be written
};

// Writes `capture` into directory `dir` (created if missing; files of an earlier snapshot there
// are replaced). Every failure is one log line.
snapshot_status write_opencsd_snapshot(const std::string &dir, const trace_capture &capture,
                                       const trace_log &log = trace_log());

// The bytes of a circular trace buffer in the order they were written. `write_offset` is where
// the next byte would go (TRBPTR_EL1 - TRBBASER_EL1). Not wrapped: bytes [0, write_offset).
// Wrapped: [write_offset, end) then [0, write_offset): the oldest surviving byte first (that one is
// usually inside a packet; a decoder starts at the first A-Sync after it). An offset past the end
// of the buffer is bad_input (one log line, `out` unchanged).
snapshot_status trace_buffer_in_time_order(const std::vector<uint8_t> &buffer,
                                           uint64_t write_offset, bool wrapped,
                                           std::vector<uint8_t> &out,
                                           const trace_log &log = trace_log());

} // namespace pmtrace::platform

#endif
