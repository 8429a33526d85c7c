// a64_block_events.h - the PMU events the AArch64 CPU counts from the instructions it retires,
// besides INST_RETIRED: each is a set of instruction classes (a64_decode.h), and an instruction
// adds the number of those classes it has (so an atomic that reads and writes makes two
// MEM_ACCESS). Counted per block, in this order (a64_cpu::num_block_events).
#ifndef PMTRACE_PLATFORM_A64_BLOCK_EVENTS_H
#define PMTRACE_PLATFORM_A64_BLOCK_EVENTS_H

#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include <pmtrace/pmt_events.h>

#include <algorithm>
#include <cstdint>

namespace pmtrace::platform::a64
{

struct block_event {
    uint16_t event;
    uint32_t classes;
};

constexpr block_event block_events[] = {
    // D14.3 MEM_ACCESS: each Memory-read or Memory-write operation; how many an instruction
    // makes is IMPLEMENTATION DEFINED: here one read for a Memory-reading instruction and one
    // write for a Memory-writing instruction (an LDP is one read; LDADD one read, one write).
    {PMT_EV_MEM_ACCESS, A64_LOAD | A64_STORE},
    // LD_RETIRED, ST_RETIRED: each Memory-reading / Memory-writing instruction (D14.1).
    {PMT_EV_LD_RETIRED, A64_LOAD},
    {PMT_EV_ST_RETIRED, A64_STORE},
    // BR_RETIRED: every branch, conditional ones taken or not; exception returns too and no
    // exception-generating instruction or ISB (the rule with FEAT_PMUv3p9, Arm's
    // recommendation without it: docs/choices.md).
    {PMT_EV_BR_RETIRED, A64_BRANCH | A64_ERET},
    // BR_IMMED_RETIRED: B, BL, B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ, taken or not.
    {PMT_EV_BR_IMMED_RETIRED, A64_BR_IMMED},
    // BR_RETURN_RETIRED: RET, RETAA, RETAB.
    {PMT_EV_BR_RETURN_RETIRED, A64_BR_RETURN},
    // BR_IND_RETIRED: every Software change of the PC that is neither an immediate branch nor
    // exception-generating: BR, BLR, RET (and their authenticated forms) and ERET.
    {PMT_EV_BR_IND_RETIRED, A64_BR_INDIRECT | A64_ERET},
    // PC_WRITE_RETIRED: each Software change of the PC that is taken (D14.3): every branch and
    // exception return, as BR_RETIRED, but a conditional branch only when taken. A block ends at
    // a branch, so whether it was taken is where the next block starts: the block counts it,
    // and the CPU takes it back when the next block is the one after it (not_taken_lane).
    {PMT_EV_PC_WRITE_RETIRED, A64_BRANCH | A64_ERET},
};

// The lane of PC_WRITE_RETIRED.
constexpr unsigned not_taken_lane = 7;
static_assert(sizeof(block_events) / sizeof(block_events[0]) == a64_cpu::num_block_events,
              "a64_cpu::num_block_events is the size of the table");
static_assert(block_events[not_taken_lane].event == PMT_EV_PC_WRITE_RETIRED, "its lane");

// How many of event k's classes instruction class `c` has (a loop over the bits: 0, 1 or 2 of
// them; __builtin_popcount is a call into libgcc without a popcount instruction in the target).
inline uint32_t occurrences(unsigned k, uint32_t c)
{
    uint32_t n = 0;
    for (uint32_t x = c & block_events[k].classes; x; x &= x - 1)
        n++;
    return n;
}

// The most any instruction adds to one block event (an atomic that reads and writes: two
// MEM_ACCESS): how far apart the fast path's checks of a watched event may be (fast_until).
constexpr uint32_t max_occurrences = [] {
    uint32_t m = 0;
    for (const block_event &b : block_events)
        m = std::max<uint32_t>(m, static_cast<uint32_t>(__builtin_popcount(b.classes)));
    return m;
}();
static_assert(max_occurrences >= 1, "a block event counts some instruction");

} // namespace pmtrace::platform::a64

#endif
