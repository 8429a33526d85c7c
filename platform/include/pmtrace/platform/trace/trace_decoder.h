// trace_decoder.h - decodes a raw ETE capture with OpenCSD, the library Linux perf uses, into the
// instruction ranges it describes: the proof that a capture is trace real tools can read.
//
// Input: trace bytes as a Trace Buffer Unit writes them (unformatted: one trace unit, no
// CoreSight frame formatter), in time order (opencsd_snapshot.h turns a wrapped buffer into
// that), the trace unit's registers and the memory images of the traced program. OpenCSD starts
// decoding at the first A-Sync; bytes before it are skipped (counted in unsynced_bytes).
//
// Anything wrong is counted in `errors` with a line in `messages` (and the log): an empty buffer,
// a buffer with no A-Sync, no memory image, bad packets (OpenCSD's packet processor rejects a
// header or a sequence, its decoder loses synchronization), trace going where no memory image
// is, a failure of the library. Nothing a buffer holds makes the decoder crash.
//
// A buffer that ends inside a packet is not an error (a buffer is cut somewhere): the ranges
// before the cut are reported. OpenCSD 1.3.3 does not say so through its C API (its packet monitor
// does not support ETE there), so the cut itself is not reported either.
#ifndef PMTRACE_PLATFORM_TRACE_DECODER_H
#define PMTRACE_PLATFORM_TRACE_DECODER_H

#include <pmtrace/platform/trace/trace_types.h>
#include <pmtrace/platform/trace/trace_log.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmtrace::platform
{

// Consecutive identical ranges, kept once with their count (decode_options::runs): a loop's
// millions of iterations in one entry. `after_break`: trace restarted before it (a Trace On, or
// the decoder waiting for a sync point), so what ran just before it is not in the trace.
struct range_run {
    instruction_range range;
    uint64_t count = 1;
    bool after_break = false;
};

struct decode_options {
    bool runs = false; // fill decode_result::runs instead of decode_result::ranges
};

// An Event element (OCSD_GEN_TRC_ELEM_EVENT) from the Event packet at trace byte `byte`, after
// the first `after_ranges` ranges: `events` is the packet's EVENT field, bit n set for ETEEvent n
// (TRCEVENTCTL1R.INSTEN[n]).
struct trace_event {
    unsigned events;
    size_t after_ranges;
    uint64_t byte;
};

// An Exception element (OCSD_GEN_TRC_ELEM_EXCEPTION): its type (the packet's TYPE, as
// pmt_ete_exception numbers them), after the first `after_ranges` ranges (or runs, with
// decode_options::runs); the last of them, when the exception was taken after instructions
// that end without a P0 element, ends at its preferred return address.
struct trace_exception_element {
    uint32_t type;
    size_t after_ranges;
};

// A Cycle Count element (OCSD_GEN_TRC_ELEM_CYCLE_COUNT, TRCCONFIGR.CCI): `cycles` processor
// cycles from the commit of the P0 element the Cycle Count element before it followed to the
// commit of the P0 element it follows (0: UNKNOWN, as the first after the trace unit is enabled),
// after the first `after_ranges` ranges (or runs, with decode_options::runs) and
// `after_exceptions` Exception elements: the P0 element it follows is the last of those (a range
// that ends with a P0 element, or an Exception element).
struct trace_cycle_count {
    uint32_t cycles;
    size_t after_ranges;
    size_t after_exceptions;
};

struct decode_result {
    std::vector<instruction_range> ranges;           // in execution order
    std::vector<range_run> runs;                     // the same, with decode_options::runs
    std::vector<trace_event> events;                 // in trace order (after_ranges: of `ranges`)
    std::vector<trace_exception_element> exceptions; // in trace order
    std::vector<trace_cycle_count> cycle_counts;     // in trace order

    uint32_t errors = 0;
    std::vector<std::string> messages; // one per error (the first max_messages of them)
    static constexpr size_t max_messages = 16;

    // A-Sync sequences (eleven 0x00 then 0x80) in the buffer: each a point decoding can start.
    uint32_t async_packets = 0;
    std::optional<uint64_t> sync_offset; // offset of the first: where decoding started
    uint64_t unsynced_bytes = 0;         // bytes before it, skipped (all of them without one)
    uint32_t no_sync = 0;    // OCSD_GEN_TRC_ELEM_NO_SYNC: the decoder waiting for a sync point
                             // (one at the start; one more after each bad packet)
    uint32_t trace_on = 0;   // OCSD_GEN_TRC_ELEM_TRACE_ON: trace (re)started (a Trace On packet)
    uint32_t pe_context = 0; // OCSD_GEN_TRC_ELEM_PE_CONTEXT elements
    std::vector<uint64_t> timestamps; // OCSD_GEN_TRC_ELEM_TIMESTAMP elements, in order
    // The cycle counts of those that carry one (TRCCONFIGR.CCI: each does), in order.
    std::vector<uint32_t> timestamp_cycles;
    uint32_t bad_packets = 0; // headers and sequences OpenCSD's packet processor rejected
    uint32_t memory_gaps = 0; // OCSD_GEN_TRC_ELEM_ADDR_NACC: no memory image where trace went
    uint64_t bytes = 0;       // bytes given to the decoder

    bool ok() const { return errors == 0; }
};

// Decodes `size` bytes at `data`. `regs` describe the trace unit (TRCIDR0/1/2/8, TRCCONFIGR,
// TRCTRACEIDR, TRCDEVARCH); `images` hold the program (they must not overlap).
decode_result decode_ete_trace(const uint8_t *data, size_t size, const ete_registers &regs,
                               const std::vector<memory_image> &images,
                               const decode_options &options, const trace_log &log = trace_log());
inline decode_result decode_ete_trace(const uint8_t *data, size_t size, const ete_registers &regs,
                                      const std::vector<memory_image> &images,
                                      const trace_log &log = trace_log())
{
    return decode_ete_trace(data, size, regs, images, decode_options(), log);
}
inline decode_result decode_ete_trace(const std::vector<uint8_t> &trace, const ete_registers &regs,
                                      const std::vector<memory_image> &images,
                                      const trace_log &log = trace_log())
{
    return decode_ete_trace(trace.data(), trace.size(), regs, images, log);
}

} // namespace pmtrace::platform

#endif
