// synthetic_program.h - a small AArch64 program, real A64 machine code, that the platform places
// in RAM and the ETE trace describes; what it executes; and its trace.
//
// The loop (offsets from the base, 0x4008_0000 by default, inside the platform's RAM):
//
//   0x00 loop: add  x0, x0, #1     0x91000400
//   0x04       cmp  x0, #0         0xF100001F   (subs xzr, x0, #0)
//   0x08       b.eq skip           0x54000040   never taken: x0 is not 0 after the increment
//   0x0C       add  x1, x1, #1     0x91000421
//   0x10 skip: cbnz x0, loop       0xB5FFFF80   always taken
//
// Entered at `loop` with x0 = 0, it runs 2^64 - 1 iterations before either branch changes its
// mind, so every iteration has the same two waypoints: b.eq not taken (an N atom) then cbnz taken
// (an E atom), and a decoder reports two ranges per iteration:
//
//   [base, base + 0x0C)         3 instructions, ending at b.eq, N
//   [base + 0x0C, base + 0x14)  2 instructions, ending at cbnz, E
//
// The walker produces that sequence (waypoints and ranges) for any number of iterations; the
// trace functions run it through the ETE encoder, whole, or in pieces that fit a byte budget.
#ifndef PMTRACE_PLATFORM_SYNTHETIC_PROGRAM_H
#define PMTRACE_PLATFORM_SYNTHETIC_PROGRAM_H

#include <pmtrace/platform/trace/ete_encoder.h>
#include <pmtrace/platform/trace/trace_types.h>
#include <pmtrace/platform/trace/trace_log.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pmtrace::platform
{

// A branch executed: where, whether taken, and the address executed next.
struct waypoint {
    uint64_t address = 0;
    bool taken = false;
    uint64_t next = 0;
};

class synthetic_program
{
  public:
    static constexpr uint64_t default_base = 0x4008'0000;
    static constexpr uint64_t b_eq_offset = 0x08;   // the waypoint never taken
    static constexpr uint64_t add_x1_offset = 0x0C; // where execution continues after it
    static constexpr uint64_t cbnz_offset = 0x10;   // the waypoint always taken, back to 0x00

    // `base` must be 4-byte aligned and leave room for the program below 2^64; otherwise one log
    // line and the default base.
    explicit synthetic_program(uint64_t base = default_base, const trace_log &log = trace_log());

    uint64_t base() const { return base_; }
    uint64_t size() const { return 4 * code_.size(); } // bytes
    const std::vector<uint32_t> &instructions() const { return code_; }
    // The machine code as memory holds it: each instruction a little-endian 32-bit word.
    std::vector<uint8_t> image_bytes() const;
    memory_image image() const { return memory_image{base_, image_bytes()}; }

    // The waypoints of `iterations` iterations from `loop`, in order.
    std::vector<waypoint> walk(uint64_t iterations) const;
    // The instruction ranges a decoder reports for them, in order.
    std::vector<instruction_range> ranges(uint64_t iterations) const;

    // Where execution continues after the first branch at or after `from` (an instruction address
    // of the program), given whether it is taken; nullopt for an address outside the program.
    std::optional<uint64_t> next_address(uint64_t from, bool taken) const;
    // next_address() as the encoder's waypoint map (holds a copy of the program).
    ete_encoder::waypoint_map waypoint_map() const;

  private:
    uint64_t base_;
    std::vector<uint32_t> code_;
};

// The ETE trace of `iterations` iterations: start() at `loop`, then an N and an E atom per
// iteration, with the encoder's periodic re-synchronization.
std::vector<uint8_t> synthetic_trace(const synthetic_program &program, uint64_t iterations,
                                     const ete_encoder_config &config = ete_encoder_config(),
                                     const ete_context &ctx = ete_context());

// The same trace in pieces, for a platform that hands the Trace Buffer Unit bytes as it can take
// them: each next() appends as many whole iterations as fit in `budget` bytes (the first one also
// the start sequence, at most ete_packet::start_size bytes; nothing when that does not fit).
class synthetic_trace_stream
{
  public:
    explicit synthetic_trace_stream(const synthetic_program &program,
                                    const ete_encoder_config &config = ete_encoder_config(),
                                    const ete_context &ctx = ete_context());

    // Appends to `out`; returns the number of iterations appended. A budget above max_budget is
    // cut to it (one log line).
    uint64_t next(size_t budget, std::vector<uint8_t> &out);
    static constexpr size_t max_budget = size_t(1) << 20; // 1 MiB
    // The trace of the next `iterations` iterations (the first call also the start sequence)
    // into buf: whole iterations, as many as fit in `size` bytes. Returns the bytes written.
    size_t run(uint64_t iterations, uint8_t *buf, size_t size);

    uint64_t iterations() const { return iterations_; }
    uint64_t bytes() const { return encoder_.bytes_emitted(); }
    const ete_encoder &encoder() const { return encoder_; }

  private:
    // The start sequence, kept when it fits in `budget` bytes.
    bool start_within(size_t budget);

    synthetic_program program_;
    ete_context ctx_;
    ete_encoder encoder_;
    trace_log log_;
    uint64_t iterations_ = 0;
    std::vector<uint8_t> pending_; // run()'s bytes
};

// As many whole iterations as fit in `budget` bytes, from the start.
struct budget_trace {
    std::vector<uint8_t> bytes;
    uint64_t iterations = 0;
};
budget_trace synthetic_trace_for_budget(const synthetic_program &program, size_t budget,
                                        const ete_encoder_config &config = ete_encoder_config(),
                                        const ete_context &ctx = ete_context());

} // namespace pmtrace::platform

#endif
