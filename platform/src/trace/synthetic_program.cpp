// synthetic_program.cpp - the loop's machine code, its waypoints, and its ETE trace.
#include "pmtrace/platform/trace/synthetic_program.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace pmtrace::platform
{

namespace
{

// A64 encodings (Arm ARM C4.1, "Data Processing -- Immediate" and "Branches, Exception
// Generating and System instructions"), 64-bit forms only.
constexpr unsigned xzr = 31;

// ADD (immediate), sf=1 op=0 S=0: 1 0 0 100010 sh imm12 Rn Rd
uint32_t add_imm(unsigned rd, unsigned rn, unsigned imm12)
{
    return 0x91000000u | ((imm12 & 0xFFFu) << 10) | ((rn & 31u) << 5) | (rd & 31u);
}
// SUBS (immediate), sf=1 op=1 S=1: 1 1 1 100010 sh imm12 Rn Rd; CMP Xn, #imm is SUBS XZR, Xn, #imm
uint32_t subs_imm(unsigned rd, unsigned rn, unsigned imm12)
{
    return 0xF1000000u | ((imm12 & 0xFFFu) << 10) | ((rn & 31u) << 5) | (rd & 31u);
}
// B.cond: 0101010 0 imm19 0 cond, target = PC + imm19 * 4
uint32_t b_cond(unsigned cond, int32_t byte_offset)
{
    const uint32_t imm19 = static_cast<uint32_t>(byte_offset / 4) & 0x7FFFFu;
    return 0x54000000u | (imm19 << 5) | (cond & 0xFu);
}
// CBNZ, sf=1: 1 011010 1 imm19 Rt, target = PC + imm19 * 4
uint32_t cbnz(unsigned rt, int32_t byte_offset)
{
    const uint32_t imm19 = static_cast<uint32_t>(byte_offset / 4) & 0x7FFFFu;
    return 0xB5000000u | (imm19 << 5) | (rt & 31u);
}
constexpr unsigned cond_eq = 0x0;

// The program's branches: where each is, where it goes when taken, and whether this loop takes it.
struct branch_info {
    uint64_t offset;
    uint64_t target_offset;
    bool taken_in_loop;
};
constexpr branch_info branches[] = {
    {synthetic_program::b_eq_offset, synthetic_program::cbnz_offset, false},
    {synthetic_program::cbnz_offset, 0x00, true},
};

} // namespace

synthetic_program::synthetic_program(uint64_t base, const trace_log &log) : base_(base)
{
    code_ = {
        add_imm(0, 0, 1),                                                 // loop: add x0, x0, #1
        subs_imm(xzr, 0, 0),                                              // cmp x0, #0
        b_cond(cond_eq, static_cast<int32_t>(cbnz_offset - b_eq_offset)), // b.eq skip
        add_imm(1, 1, 1),                                                 // add x1, x1, #1
        cbnz(0, -static_cast<int32_t>(cbnz_offset)),                      // skip: cbnz x0, loop
    };
    if ((base & 0x3) || base > std::numeric_limits<uint64_t>::max() - size()) {
        std::ostringstream s;
        s << "synthetic_program: base 0x" << std::hex << base
          << " is not a 4-byte aligned address with room for the program: using 0x" << default_base;
        log_line(log, s.str());
        base_ = default_base;
    }
}

std::vector<uint8_t> synthetic_program::image_bytes() const
{
    std::vector<uint8_t> bytes;
    bytes.reserve(size());
    for (uint32_t word : code_)
        for (unsigned i = 0; i < 4; i++)
            bytes.push_back(static_cast<uint8_t>(word >> (8 * i)));
    return bytes;
}

std::optional<uint64_t> synthetic_program::next_address(uint64_t from, bool taken) const
{
    if (from < base_ || from - base_ >= size() || (from & 0x3))
        return std::nullopt;
    const uint64_t offset = from - base_;
    for (const branch_info &b : branches)
        if (b.offset >= offset)
            return base_ + (taken ? b.target_offset : b.offset + 4);
    return std::nullopt;
}

ete_encoder::waypoint_map synthetic_program::waypoint_map() const
{
    const synthetic_program copy = *this;
    return [copy](uint64_t from, bool taken) { return copy.next_address(from, taken); };
}

std::vector<waypoint> synthetic_program::walk(uint64_t iterations) const
{
    std::vector<waypoint> w;
    w.reserve(static_cast<size_t>(iterations) * 2);
    for (uint64_t i = 0; i < iterations; i++)
        for (const branch_info &b : branches)
            w.push_back({base_ + b.offset, b.taken_in_loop,
                         base_ + (b.taken_in_loop ? b.target_offset : b.offset + 4)});
    return w;
}

std::vector<instruction_range> synthetic_program::ranges(uint64_t iterations) const
{
    std::vector<instruction_range> r;
    uint64_t start = base_;
    for (const waypoint &w : walk(iterations)) {
        const uint64_t end = w.address + 4;
        r.push_back(
            {start, end, static_cast<uint32_t>((end - start) / 4), instr_kind::branch, w.taken});
        start = w.next;
    }
    return r;
}

namespace
{
// One iteration's waypoints through the encoder.
void encode_iteration(ete_encoder &encoder)
{
    for (const branch_info &b : branches)
        encoder.atom(b.taken_in_loop);
}
} // namespace

std::vector<uint8_t> synthetic_trace(const synthetic_program &program, uint64_t iterations,
                                     const ete_encoder_config &config, const ete_context &ctx)
{
    ete_encoder encoder(config, program.waypoint_map());
    std::vector<uint8_t> out;
    if (encoder.start(ctx, program.base()) != ete_status::ok)
        return out; // the encoder said why
    for (uint64_t i = 0; i < iterations; i++) {
        encode_iteration(encoder);
        if (encoder.pending().size() >= 4096)
            encoder.take(out);
    }
    encoder.take(out);
    return out;
}

synthetic_trace_stream::synthetic_trace_stream(const synthetic_program &program,
                                               const ete_encoder_config &config,
                                               const ete_context &ctx)
    : program_(program), ctx_(ctx), encoder_(config, program.waypoint_map()), log_(config.log)
{
}

bool synthetic_trace_stream::start_within(size_t budget)
{
    const ete_encoder::position before = encoder_.mark();
    if (encoder_.start(ctx_, program_.base()) != ete_status::ok)
        return false; // the encoder said why
    if (encoder_.pending().size() > budget) {
        encoder_.rollback(before);
        return false;
    }
    return true;
}

uint64_t synthetic_trace_stream::next(size_t budget, std::vector<uint8_t> &out)
{
    if (budget > max_budget) {
        log_line(log_, "synthetic_trace_stream: a budget of " + std::to_string(budget) +
                           " bytes is more than a piece can be: using " +
                           std::to_string(max_budget));
        budget = max_budget;
    }
    if (!encoder_.started() && !start_within(budget))
        return 0;
    uint64_t n = 0;
    // Try an iteration, keep it if it fits: a re-synchronization can fall inside it, so its size
    // is known only once encoded.
    for (;;) {
        const ete_encoder::position before = encoder_.mark();
        encode_iteration(encoder_);
        if (encoder_.pending().size() > budget) {
            encoder_.rollback(before);
            break;
        }
        n++;
    }
    encoder_.take(out);
    iterations_ += n;
    return n;
}

size_t synthetic_trace_stream::run(uint64_t iterations, uint8_t *buf, size_t size)
{
    if (!buf && size)
        return 0;
    if (!encoder_.started() && !start_within(size))
        return 0;
    uint64_t n = 0;
    for (; n < iterations; n++) {
        const ete_encoder::position before = encoder_.mark();
        encode_iteration(encoder_);
        if (encoder_.pending().size() > size) {
            encoder_.rollback(before);
            log_line(log_, "synthetic_trace_stream: the trace of " + std::to_string(iterations) +
                               " iterations does not fit " + std::to_string(size) +
                               " bytes: " + std::to_string(n) + " encoded");
            break;
        }
    }
    pending_.clear();
    encoder_.take(pending_);
    std::copy(pending_.begin(), pending_.end(), buf);
    iterations_ += n;
    return pending_.size();
}

budget_trace synthetic_trace_for_budget(const synthetic_program &program, size_t budget,
                                        const ete_encoder_config &config, const ete_context &ctx)
{
    budget_trace t;
    synthetic_trace_stream stream(program, config, ctx);
    t.iterations = stream.next(budget, t.bytes);
    return t;
}

} // namespace pmtrace::platform
