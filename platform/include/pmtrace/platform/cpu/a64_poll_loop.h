// a64_poll_loop.h - loops that only poll the Generic Timer's counter (`udelay`, `mdelay`, a
// bare-metal library's wait): found in the code, and one iteration evaluated for a given counter
// value, so the CPU can retire the iterations that go on without running them (docs/cpu.md,
// "Busy-waiting on the counter").
//
// A poll loop is straight-line code from `head` to a conditional branch back to `head` (B.cond,
// CBZ, CBNZ, TBZ, TBNZ) of at most max_insns instructions, each of them one of: an MRS of
// CNTVCT_EL0 or CNTPCT_EL0 (exactly one), ISB, NOP, YIELD, ADD, SUB, ADDS, SUBS (immediate or
// shifted register; CMP and CMN are SUBS and ADDS). And its iterations are memoryless: each
// register (and NZCV) an instruction reads is either written before it in the same iteration or
// not written in the loop at all. So whether an iteration branches back, and every register it
// leaves, depend only on the counter value it reads and on registers the loop never changes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace pmtrace::platform
{

struct a64_poll_loop {
    static constexpr unsigned max_insns = 16;
    uint64_t head = 0;
    unsigned insns = 0; // per iteration, the branch included
    std::array<uint32_t, max_insns> code{};
    unsigned mrs_index = 0; // the MRS of the counter
    bool physical = false;  // CNTPCT_EL0 (else CNTVCT_EL0)
};

// The loop that starts at `head` with the instructions `code[0..n)` (n may run past its end),
// if it is a poll loop.
std::optional<a64_poll_loop> a64_find_poll_loop(uint64_t head, const uint32_t *code, size_t n);

// The registers an iteration starts from: X0..X30, SP (of the current Exception level) and
// PSTATE.NZCV (bits 31:28).
struct a64_poll_regs {
    std::array<uint64_t, 31> x{};
    uint64_t sp = 0;
    uint32_t nzcv = 0;
};

// Whether the iteration that reads `counter` branches back to the loop's head.
bool a64_poll_goes_on(const a64_poll_loop &loop, const a64_poll_regs &regs, uint64_t counter);

// The first count after `counter` at which an iteration may go otherwise than at `counter`:
// every count in [counter, result) goes the same way (saturated at 2^64 - 1). Where the loop
// computes with the count only by adding and subtracting it and constants (slope -1, 0 or +1,
// no shift of it), a decision (a flag of ADDS or SUBS, CBZ, TBZ) can change only where a value
// derived from the count reaches 0, 1, -1, the sign boundary or the value before it, or where
// the tested bit flips: the nearest of those; elsewhere counter + 1.
uint64_t a64_poll_same_until(const a64_poll_loop &loop, const a64_poll_regs &regs,
                             uint64_t counter);

} // namespace pmtrace::platform
