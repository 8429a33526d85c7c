// a64_cpu_poll.cpp - busy-waiting on the counter: the iterations of a loop that only polls the
// Generic Timer's count (a64_poll_loop.h) and goes on are retired without running them, up to
// where the CPU must sync, with every count as if they ran (docs/cpu.md, "Busy-waiting on the
// counter").
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include "a64_cpu_regs.h"

#include <algorithm>

namespace pmtrace::platform
{

// The poll loop whose head is `address`, if there is one (its code read as the CPU reads code).
std::optional<a64_poll_loop> a64_cpu::poll_loop_at(uint64_t address)
{
    std::array<uint32_t, a64_poll_loop::max_insns> code{};
    return a64_find_poll_loop(address, code.data(), read_code(address, code.data(), code.size()));
}

// A loop's first block branches back to itself or ends with an ISB (the engine ends a block
// after one; the loop goes on in the next).
bool a64_cpu::starts_poll_loop(uint64_t address, const block_info &b)
{
    const bool to_itself = (b.last_class & A64_CONDITIONAL) && b.last_p0.target == address;
    return timer_ && (to_itself || (b.last_class & A64_ISB)) && poll_loop_at(address);
}

// At the loop's head, between two iterations: each iteration reads the count at its MRS, at the
// local time the instructions before it take; every iteration whose count makes it go on is
// retired here (one evaluation per span of counts that go the same way: a64_poll_same_until),
// the one that leaves runs in the engine. The iterations retired stay within fast_until_, so
// nothing that could interrupt or stop them (the quantum's end, the timer's next event, the
// platform's next activity, a PMU overflow) is passed; the next iteration then runs, and at its
// head the CPU looks again.
void a64_cpu::skip_polls(uint64_t address)
{
    if (debug_bp_armed_ || debug_wp_armed_ || (debug_.mdscr & mdscr_ss))
        return;
    const std::optional<a64_poll_loop> loop = poll_loop_at(address);
    if (!loop)
        return;
    update_fast_until();
    const uint64_t k = loop->insns;
    // Room for the iterations retired and the one that runs.
    if (fast_until_ <= retired_ || (fast_until_ - retired_) / k < 2)
        return;
    const uint64_t most = (fast_until_ - retired_) / k - 1;
    a64_poll_regs regs;
    for (unsigned i = 0; i < 31; i++)
        regs.x[i] = engine_->x(i);
    regs.sp = engine_->reg(a64_reg::sp);
    regs.nzcv = static_cast<uint32_t>(engine_->reg(a64_reg::pstate) & 0xF000'0000u);
    const pmt_sysreg counter = PMT_SYSREG(3, 3, 14, 0, loop->physical ? 1 : 2);
    const timer_pe_state ts = timer_pe_state_of(pe_state_for(el_));
    // The local time at the MRS of iteration j, as report() makes it there.
    const uint64_t before = retired_ - reported_insns_ + loop->mrs_index;
    const uint64_t cpi = config_.cycles_per_instruction;
    auto at = [&](uint64_t j) {
        return qk_.get_local_time() +
               config_.clock_period * static_cast<double>((before + j * k) * cpi);
    };
    const uint64_t step =
        static_cast<uint64_t>((config_.clock_period * static_cast<double>(k * cpi)).value());
    uint64_t runs = 0;
    while (runs < most) {
        uint64_t count = 0;
        sc_core::sc_time next;
        const sc_core::sc_time t = at(runs);
        if (!timer_->peek_count(counter, el_, ts, t, 1, count, next) ||
            !a64_poll_goes_on(*loop, regs, count))
            break;
        // Every count up to `until` goes on too: the iterations whose MRS comes before the
        // count reaches it.
        const uint64_t until = a64_poll_same_until(*loop, regs, count);
        if (until - count > 1)
            (void)timer_->peek_count(counter, el_, ts, t, until - count, count, next);
        uint64_t j = runs + 1;
        if (next > t && step) {
            const uint64_t ahead = (next - t).value() / step + 1;
            j = ahead >= most - runs ? most : std::max<uint64_t>(j, runs + ahead);
        }
        while (j > runs + 1 && at(j - 1) >= next)
            j--;
        while (j < most && at(j) < next)
            j++;
        runs = std::min(j, most);
    }
    if (!runs)
        return;
    block_info per;
    count_range(address, address + 4 * k, per);
    retired_ += runs * k;
    for (unsigned e = 0; e < num_block_events; e++)
        events_[e] += runs * per.events[e];
    stats_.polls_skipped += runs;
}

} // namespace pmtrace::platform
