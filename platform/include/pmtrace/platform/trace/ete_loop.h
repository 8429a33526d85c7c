// ete_loop.h - the workload loop's trace as ETE: each iteration of the sw/ loop (sw_loop) runs one
// iteration of the synthetic program (synthetic_program.h), and its trace is the program's ETE
// trace for those iterations, so a capture decodes into the program's instructions.
//
// Hand it to a loop with attach(); place() writes the program into RAM where the trace says it
// ran; capture() turns the captured trace (oldest byte first) into the OpenCSD snapshot that
// trc_pkt_lister and decode_ete_trace read (opencsd_snapshot.h, trace_decoder.h).
#ifndef PMTRACE_PLATFORM_ETE_LOOP_H
#define PMTRACE_PLATFORM_ETE_LOOP_H

#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>
#include <pmtrace/platform/trace/synthetic_program.h>

#include "apps/apps.h"

#include <cstdint>
#include <vector>

namespace pmtrace::platform
{

class ete_loop
{
  public:
    explicit ete_loop(uint64_t program_base = synthetic_program::default_base,
                      const ete_encoder_config &config = ete_encoder_config());

    // The loop's trace comes from here: trace_fill, and trace_bytes set to the most one
    // iteration can take (two atoms and a re-synchronization).
    void attach(sw_loop &loop);
    // Writes the program's code into `ram` (which starts at ram_base); false when it does not
    // fit there.
    bool place(memory &ram, uint64_t ram_base) const;

    const synthetic_program &program() const { return program_; }
    ete_registers registers() const { return stream_.encoder().registers(); }
    uint64_t iterations() const { return stream_.iterations(); } // encoded so far
    uint64_t bytes() const { return stream_.bytes(); }
    // The snapshot of a capture: the trace, the program's image, the trace unit's registers.
    trace_capture capture(std::vector<uint8_t> trace) const;

  private:
    static size_t fill(void *arg, uint64_t iterations, uint8_t *buf, size_t size);

    synthetic_program program_;
    synthetic_trace_stream stream_;
};

} // namespace pmtrace::platform

#endif
