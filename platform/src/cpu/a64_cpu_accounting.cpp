// a64_cpu_accounting.cpp - the AArch64 CPU's accounting (a64_cpu.h): instructions retired per
// block and the PMU events of executed code, reported to the PE model; the budget of a run (the
// PMU's headroom of each counted event, the quantum) and the exact stops it makes; the events
// the CPU delivers (PMCEID); what happens at the boundary after an instruction the block ends
// on (an ERET, a PSTATE write, TSB CSYNC, a Store-Exclusive's status).
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include "a64_block_events.h"
#include "a64_cpu_regs.h"

#include <pmtrace/pmt_events.h>

#include <algorithm>
#include <vector>

namespace pmtrace::platform
{

using a64::block_events;
using a64::occurrences;

std::array<uint64_t, 2> a64_cpu::common_events(bool trbe)
{
    std::array<uint64_t, 2> e{};
    for (uint16_t n : {PMT_EV_SW_INCR, PMT_EV_INST_RETIRED, PMT_EV_CPU_CYCLES, PMT_EV_EXC_TAKEN,
                       PMT_EV_EXC_RETURN, PMT_EV_CHAIN, PMT_EV_STALL_FRONTEND, PMT_EV_STALL_BACKEND,
                       PMT_EV_STALL})
        e[0] |= uint64_t{1} << n;
    for (const a64::block_event &b : block_events)
        if (b.event < 64)
            e[0] |= uint64_t{1} << b.event;
    if (trbe)
        e[1] |= (uint64_t{1} << (PMT_EV_TRB_WRAP - 0x4000)) |
                (uint64_t{1} << (PMT_EV_TRB_TRIG - 0x4000));
    return e;
}

// ---- accounting -----------------------------------------------------------------------------
//
// A block's instructions are classified once (a direct-mapped cache by address) into its count
// of each block event; retiring the block adds those counts. The budget of a run is the PMU's
// headroom: for INST_RETIRED and CPU_CYCLES a number of instructions (stop_at_), for each block
// event counted with an overflow in reach the count where it overflows (limit_). A block that
// would reach one stops right after the instruction that does (event_stop), so the overflow is
// reported, and its interrupt taken, at that instruction boundary. Only then are the block's
// instructions looked at one by one; with nothing in reach a block costs its additions (on
// on_block's fast path), or a few instructions in the engine when it repeats (retire_repeats).

const a64_cpu::block_info &a64_cpu::info(uint64_t address, uint32_t size)
{
    block_info &b = blocks_[block_slot(address)];
    if (b.address == address && b.size == size && b.generation == code_generation_)
        return b;
    b = block_info{};
    count_range(address, address + size, b);
    b.address = address;
    b.size = size;
    b.generation = code_generation_;
    b.insns = size / 4;
    if (b.classes & A64_STORE_EXCLUSIVE)
        b.exclusive_cut = exclusive_cut(address, size);
    b.poll = config_.skip_counter_polls && starts_poll_loop(address, b);
    b.plain = !(b.classes & (A64_TSB | A64_STORE_EXCLUSIVE)) &&
              !(b.last_class & (A64_ERET | A64_PSTATE | A64_ISB)) && !b.poll;
    return b;
}

// f(pc, insn) for each instruction of [begin, end) that can be read, in order (up to the first
// that cannot).
template <typename F> void a64_cpu::for_each_insn(uint64_t begin, uint64_t end, F &&f)
{
    std::array<uint32_t, 512> words;
    for (uint64_t pc = begin; pc < end;) {
        const size_t want = std::min<uint64_t>(words.size(), (end - pc) / 4);
        const size_t got = read_code(pc, words.data(), want);
        for (size_t i = 0; i < got; i++, pc += 4)
            f(pc, words[i]);
        if (got < want)
            return;
    }
}

// D14.3 ST_RETIRED does not count a Store-Exclusive that fails (D14.1: Condition code check
// pass), and a failed one makes no Memory-write operation (MEM_ACCESS). Whether it failed is
// its status register Ws when its range retires: a block ends after a store-exclusive whose
// Ws a later instruction of the block may write, so Ws is still the status then.
uint32_t a64_cpu::exclusive_cut(uint64_t address, uint32_t size)
{
    std::vector<uint32_t> words(size / 4);
    if (words.empty() || read_code(address, words.data(), words.size()) != words.size())
        return 0;
    for (size_t i = 0; i + 1 < words.size(); i++) {
        if (!(a64_classify(words[i]) & A64_STORE_EXCLUSIVE))
            continue;
        unsigned ws = (words[i] >> 16) & 31;
        for (size_t j = i + 1; j < words.size(); j++)
            if (ws != 31 && a64_may_write(words[j], ws))
                return static_cast<uint32_t>(4 * (i + 1));
    }
    return 0;
}

void a64_cpu::uncount_failed_exclusives(const block_info &c, uint64_t begin, uint64_t end)
{
    auto status = [&](unsigned ws) {
        if (ws == 31 || engine_->x(ws) == 0) // WZR: the status is not kept (taken as success)
            return;
        for (unsigned k = 0; k < num_block_events; k++)
            events_[k] -= std::min<uint64_t>(events_[k] - reported_[k], occurrences(k, A64_STORE));
    };
    if (c.num_stxr <= c.stxr_ws.size()) {
        for (unsigned i = 0; i < c.num_stxr; i++)
            status(c.stxr_ws[i]);
        return;
    }
    for_each_insn(begin, end, [&](uint64_t, uint32_t insn) {
        if (a64_classify(insn) & A64_STORE_EXCLUSIVE)
            status((insn >> 16) & 31);
    });
}

void a64_cpu::count_range(uint64_t begin, uint64_t end, block_info &counts)
{
    for_each_insn(begin, end, [&](uint64_t pc, uint32_t insn) {
        uint32_t c = a64_classify(insn);
        counts.classes |= c;
        if (c & A64_STORE_EXCLUSIVE) {
            if (counts.num_stxr < counts.stxr_ws.size())
                counts.stxr_ws[counts.num_stxr] = static_cast<uint8_t>((insn >> 16) & 31);
            counts.num_stxr++;
        }
        for (unsigned k = 0; k < num_block_events; k++)
            counts.events[k] += occurrences(k, c);
        // The P0 elements, for the trace listeners (a64_cpu_trace.cpp).
        const a64_p0 p = a64_p0_of(insn, pc);
        if (pc + 4 >= end) {
            counts.last_class = c;
            counts.last_p0 = p;
            counts.last_insn = insn;
        } else if (p.kind != a64_p0_kind::none) {
            counts.inner_p0 = true;
        }
    });
}

void a64_cpu::retire_range(uint64_t begin, uint64_t end)
{
    if (end <= begin)
        return;
    last_retired_ = end - 4; // for FEAT_SEBEP's retire (a64_cpu_profiling.cpp)
    if (tracing_)
        trace_retired(begin, end);
    const block_info *c = current_info_;
    if (c && begin == c->address && end == c->address + c->size) {
        retire_counts(*c, begin, end);
        return;
    }
    block_info partial;
    count_range(begin, end, partial);
    retire_counts(partial, begin, end);
}

void a64_cpu::retire_counts(const block_info &c, uint64_t begin, uint64_t end)
{
    retired_ += (end - begin) / 4;
    for (unsigned k = 0; k < num_block_events; k++)
        events_[k] += c.events[k];
    if (c.classes & A64_STORE_EXCLUSIVE)
        uncount_failed_exclusives(c, begin, end);
}

// One instruction the CPU model performed itself (a device access, MSR PM) at `pc`.
void a64_cpu::count_stall(uint16_t kind, uint64_t n)
{
    if (!n)
        return;
    const sc_core::sc_time &t = qk_.get_local_time();
    (void)events->count_event(kind, n, t);
    (void)events->count_event(PMT_EV_STALL, n, t);
}

void a64_cpu::retire_one(uint32_t insn, uint64_t pc)
{
    uint32_t c = a64_classify(insn);
    last_retired_ = pc;
    if (tracing_)
        trace_retired(pc, pc + 4);
    retired_ += 1;
    for (unsigned k = 0; k < num_block_events; k++)
        events_[k] += occurrences(k, c);
}

// The running block retired up to `end`, and execution goes on at `next` (a trace listener's
// pending branch is decided by it). At its end: an ERET or a PSTATE write may have changed the
// Exception level; a TSB CSYNC (blocks end after one) takes effect; an ISB (the engine ends a
// block after one) is a Context synchronization event for the PE model.
void a64_cpu::finish_block(uint64_t end, uint64_t next)
{
    retire_range(block_begin_, std::min(end, block_end_));
    // A conditional branch that ends the block and was not taken is no Software change of the
    // PC that is taken (PC_WRITE_RETIRED counted it with the block).
    if (end >= block_end_ && next == block_end_ && block_begin_ < block_end_ && current_info_ &&
        (current_info_->last_class & A64_CONDITIONAL))
        events_[a64::not_taken_lane]--;
    block_active_ = false;
    end_fast();
    if (tracing_)
        trace_next(next);
    if (end < block_end_ || !current_info_)
        return;
    uint32_t last = current_info_->last_class;
    if (last & (A64_ERET | A64_PSTATE)) {
        check_state((last & A64_ERET) != 0);
        if (tracing_)
            trace_context_check(next);
    }
    if (last & A64_TSB)
        tsb_csync();
    if (last & A64_ISB) {
        report();
        (void)state->context_sync(qk_.get_local_time());
    }
}

// TSB CSYNC (D6.6.1): the Trace Buffer Unit writes all the trace it accepted. While a trace
// unit flush it requested is pending the TSB CSYNC is not complete (RJQDJD): simulated time
// moves on until it is.
void a64_cpu::tsb_csync()
{
    stats_.tsb_csyncs++;
    pmtrace::trbe_cpu_if *unit = trbe.get_interface(0);
    if (!unit)
        return;
    report();
    (void)unit->tsb_csync(qk_.get_local_time());
    for (unsigned n = 0; n < 1000 && unit->trbe_status().flush_pending; n++) {
        qk_.sync();
        stats_.syncs++;
        (void)unit->tsb_csync(qk_.get_local_time());
    }
}

sc_core::sc_time a64_cpu::offset_at(uint64_t retired) const
{
    const uint64_t n = retired - reported_insns_;
    return qk_.get_local_time() + sc_core::sc_time::from_value(config_.clock_period.value() * n *
                                                               config_.cycles_per_instruction);
}

void a64_cpu::report()
{
    trace_flush(); // its ranges' times count from the local time before this
    const uint64_t n = retired_ - reported_insns_;
    if (!n)
        return;
    const sc_core::sc_time &period = config_.clock_period;
    qk_.inc(period * static_cast<double>(n * config_.cycles_per_instruction));
    const sc_core::sc_time &t = qk_.get_local_time();
    stats_.instructions += n;
    (void)events->count_event(PMT_EV_INST_RETIRED, n, t);
    reported_insns_ = retired_;
    for (unsigned k = 0; k < num_block_events; k++) {
        if (events_[k] != reported_[k])
            (void)events->count_event(block_events[k].event, events_[k] - reported_[k], t);
        reported_[k] = events_[k];
    }
}

// The budget of the next run: instructions (stop_at_, quantum_stop_at_), the block events'
// limits (limit_), and how far the fast path may go (fast_until_).
void a64_cpu::plan()
{
    const uint64_t b = budget(), q = quantum_budget();
    stop_at_ = b > ~uint64_t{0} - retired_ ? ~uint64_t{0} : retired_ + b;
    quantum_stop_at_ = q > ~uint64_t{0} - retired_ ? ~uint64_t{0} : retired_ + q;
    watched_ = 0;
    limit_.fill(~uint64_t{0});
    if (peek_) {
        const sc_core::sc_time &t = qk_.get_local_time();
        for (unsigned k = 0; k < num_block_events; k++) {
            uint64_t h = peek_(block_events[k].event, t);
            if (h == ~uint64_t{0} || h > ~uint64_t{0} - events_[k])
                continue;
            // A headroom of 0 would stop every block.
            limit_[k] = events_[k] + std::max<uint64_t>(h, 1);
            watched_ |= 1u << k;
        }
    }
    debug_plan();
    update_fast_until();
}

// How far the fast path of on_block may go: a block may start there while no stop can come due
// in it. For the instruction stops that is stop_at_ and quantum_stop_at_; for a watched event,
// an instruction adds at most max_occurrences of it, so it cannot reach its limit in fewer than
// (limit - count) / max_occurrences instructions. The slow path (each block once fast_until_ is
// near) looks at the exact counts and moves fast_until_ on.
void a64_cpu::update_fast_until()
{
    // Breakpoints or watchpoints armed, or MDSCR_EL1.SS set: every block is looked at
    // (on_block_checked).
    uint64_t until = debug_bp_armed_ || debug_wp_armed_ || (debug_.mdscr & mdscr_ss)
                         ? retired_
                         : std::min(stop_at_, quantum_stop_at_);
    for (uint32_t w = watched_; w; w &= w - 1) {
        unsigned k = static_cast<unsigned>(__builtin_ctz(w));
        uint64_t room = limit_[k] > events_[k] ? limit_[k] - events_[k] : 0;
        until = std::min(until, retired_ + room / a64::max_occurrences);
    }
    fast_until_ = until;
}

// How many instructions may run before the PMU does something visible (an exact stop, also
// inside a block).
uint64_t a64_cpu::budget()
{
    uint64_t b = ~uint64_t{0};
    const uint64_t cpi = config_.cycles_per_instruction;
    if (peek_) {
        const sc_core::sc_time &t = qk_.get_local_time();
        uint64_t h = peek_(PMT_EV_INST_RETIRED, t);
        if (h != ~uint64_t{0})
            b = std::min(b, h);
        uint64_t hc = peek_(PMT_EV_CPU_CYCLES, t);
        if (hc != ~uint64_t{0})
            b = std::min(b, (hc + cpi - 1) / cpi);
    }
    return std::max<uint64_t>(b, 1);
}

// Where the CPU syncs next (from sc_time_stamp()): the earliest of
// - the end of the quantum (how far it may run ahead while nothing else is scheduled);
// - the next thing the rest of the platform has scheduled (sc_time_to_pending_activity: a
//   thread's wait, a delta notification), so that it happens about when the CPU gets there,
//   but no sooner than busy_quantum (the CPU would sync at every step of a fine-grained thread);
// - the Generic Timer's next event, exactly, so its interrupt is taken at the block boundary
//   after its time.
// sc_max_time() - now: none of them.
sc_core::sc_time a64_cpu::sync_point() const
{
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    sc_core::sc_time end = sc_core::sc_max_time() - now;
    const sc_core::sc_time q = tlm_utils::tlm_quantumkeeper::get_global_quantum();
    if (q > sc_core::SC_ZERO_TIME)
        end = q;
    end = std::min(end, std::max(sc_core::sc_time_to_pending_activity(), config_.busy_quantum));
    if (timer_) {
        const sc_core::sc_time t = timer_->next_event();
        if (t < now + end)
            end = t > now ? t - now : sc_core::SC_ZERO_TIME;
    }
    return end;
}

// How many instructions until the CPU syncs (sync_point). The run stops at the first block
// boundary from there, not inside a block: a stop inside a block makes Unicorn translate it
// twice (with a 1 us quantum the CPU ran ~10x slower, bench_a64), and the point is not
// architectural.
uint64_t a64_cpu::quantum_budget()
{
    const sc_core::sc_time end = sync_point();
    if (end >= sc_core::sc_max_time() - sc_core::sc_time_stamp())
        return ~uint64_t{0};
    const sc_core::sc_time local = qk_.get_local_time();
    const sc_core::sc_time left = end > local ? end - local : sc_core::SC_ZERO_TIME;
    const double n =
        left / config_.clock_period / static_cast<double>(config_.cycles_per_instruction);
    return n < 1e19 ? static_cast<uint64_t>(n) + 1 : ~uint64_t{0};
}

// Where the block at `address` must stop for the watched block events: `address` when one of
// them has reached its headroom, the address after the instruction that makes one reach it,
// or ~0 (the whole block runs).
uint64_t a64_cpu::event_stop(uint64_t address, uint32_t size)
{
    for (uint32_t w = watched_; w; w &= w - 1) {
        unsigned k = static_cast<unsigned>(__builtin_ctz(w));
        if (events_[k] >= limit_[k])
            return address;
    }
    std::array<uint64_t, num_block_events> seen{};
    for (uint64_t pc = address; pc < address + size; pc += 4) {
        uint32_t insn = 0;
        if (!read_code(pc, insn))
            break;
        uint32_t c = a64_classify(insn);
        for (unsigned k = 0; k < num_block_events; k++) {
            seen[k] += occurrences(k, c);
            if ((watched_ & (1u << k)) && events_[k] + seen[k] >= limit_[k])
                return pc + 4;
        }
    }
    return ~uint64_t{0};
}

// The address after the block's first instruction of one of `classes`; ~0 when that is the
// block's last (or there is none).
uint64_t a64_cpu::after_first(uint64_t address, uint32_t size, uint32_t classes)
{
    for (uint64_t pc = address; pc + 4 < address + size; pc += 4) {
        uint32_t insn = 0;
        if (!read_code(pc, insn))
            break;
        if (a64_classify(insn) & classes)
            return pc + 4;
    }
    return ~uint64_t{0};
}

// The engine calls this before every block it runs (but a repeat, below): it must cost little.
// The fast path: the block that ran retires with additions only (it ran whole and needs nothing
// at its end), no interrupt waits, and the next block, found in the cache, can run whole before
// any stop could come due (fast_until_). Anything else takes the checked path.
uint64_t a64_cpu::on_block(uint64_t address, uint32_t size)
{
    count_repeats();
    if (fast_) {
        const block_info &b = blocks_[block_slot(address)];
        if (b.address == address && b.size == size && b.generation == code_generation_ && b.plain &&
            !irq_level_ && !serror_pending_) {
            const block_info &ran = *current_info_;
            retired_ += ran.insns;
            for (unsigned k = 0; k < event_lanes; k++)
                events_[k] += ran.events[k];
            if ((ran.last_class & A64_CONDITIONAL) && address == ran.address + ran.size)
                events_[a64::not_taken_lane]--; // its conditional branch was not taken
            if (tracing_)
                trace_whole(ran, address);
            block_active_ = false;
            if (retired_ + b.insns < fast_until_) {
                // Repeats pay for their set-up (a division) only in a loop of this one block.
                if (&b == &ran)
                    allow_repeats(b);
                else
                    repeat_.left = 0;
                current_info_ = &b;
                block_begin_ = address;
                block_end_ = address + size;
                block_active_ = true;
                return ~uint64_t{0};
            }
            end_fast();
        }
    }
    return on_block_checked(address, size);
}

// The rest of a block resumed after a system register read (on_block_cut) ran if the block that
// starts now is not where it started, or where the block's last instruction may have branched.
// A block starting right there means the engine ended the block at the read after all.
bool a64_cpu::resumed_rest_ran(uint64_t address)
{
    if (address != block_begin_)
        return true;
    uint32_t insn = 0;
    if (!read_code(block_end_ - 4, insn))
        return true;
    const a64_p0 p = a64_p0_of(insn, block_end_ - 4);
    switch (p.kind) {
    case a64_p0_kind::direct:
    case a64_p0_kind::direct_link: return p.target == address;
    case a64_p0_kind::indirect:
    case a64_p0_kind::indirect_link:
    case a64_p0_kind::ret:
    case a64_p0_kind::eret: return true;
    default: return false;
    }
}

uint64_t a64_cpu::on_block_checked(uint64_t address, uint32_t size)
{
    device_insn_done();
    trace_flush();
    if (block_active_ && block_resumed_ && !resumed_rest_ran(address))
        block_active_ = false;
    block_resumed_ = false;
    if (block_active_)
        finish_block(block_end_, address);
    else if (tracing_)
        trace_next(address);
    if (serror_pending_ || (irq_level_ && irq_deliverable()))
        return address;
    if (retired_ >= stop_at_ || retired_ >= quantum_stop_at_)
        return address;
    current_info_ = &info(address, size);
    if (current_info_->poll && !tracing_)
        skip_polls(address);
    uint64_t stop = ~uint64_t{0};
    if (size / 4 > stop_at_ - retired_)
        stop = address + 4 * (stop_at_ - retired_);
    for (uint32_t w = watched_; w; w &= w - 1) {
        unsigned k = static_cast<unsigned>(__builtin_ctz(w));
        if (events_[k] + current_info_->events[k] >= limit_[k]) {
            // The rare case: this block reaches one.
            stop = std::min(stop, event_stop(address, size));
            break;
        }
    }
    if (current_info_->classes & A64_TSB)
        stop = std::min(stop, after_first(address, size, A64_TSB));
    if (current_info_->exclusive_cut)
        stop = std::min(stop, address + current_info_->exclusive_cut);
    if (debug_bp_armed_ || debug_wp_armed_)
        stop = std::min(stop, debug_stop(address, size));
    // PSTATE.D where an ERET runs, for DebugExceptionReturnSS (blocks end at PSTATE writes).
    if ((debug_.mdscr & mdscr_ss) && (current_info_->last_class & A64_ERET))
        eret_mask_ = (engine_->reg(a64_reg::pstate) & a64::pstate_d) != 0;
    // A stop inside the block: the engine runs it again cut there (on_block is called again).
    if (stop >= address && stop < address + size)
        return stop;
    block_begin_ = address;
    block_end_ = address + size;
    block_active_ = true;
    fast_ = current_info_->plain;
    if (fast_) {
        if (retired_ + current_info_->insns >= fast_until_)
            update_fast_until();
        allow_repeats(*current_info_);
    }
    return ~uint64_t{0};
}

// The repeats the engine made of the block running (a64_block_repeat): each means the run
// before it ended whole; the last run is the block running still.
void a64_cpu::retire_repeats()
{
    const uint64_t runs = repeat_.runs;
    repeat_.runs = 0;
    const block_info &b = *current_info_;
    retired_ += runs * b.insns;
    for (unsigned k = 0; k < num_block_events; k++)
        events_[k] += runs * b.events[k];
    if (tracing_)
        trace_repeats(b, runs);
}

// The running block `b` (plain, from its start) may start again without a call while nothing
// is pending, and as long as the fast path would let it: the j-th repeat starts with j runs of
// it more retired, and may while retired_ + (j + 1) * insns stays below fast_until_.
void a64_cpu::allow_repeats(const block_info &b)
{
    const uint64_t room = fast_until_ > retired_ ? fast_until_ - retired_ : 0;
    repeat_.address = b.address;
    repeat_.size = b.size;
    repeat_.left =
        b.insns && !irq_level_ && !serror_pending_ && room > b.insns ? (room - 1) / b.insns - 1 : 0;
}

void a64_cpu::on_block_cut(uint64_t pc)
{
    device_insn_done();
    trace_flush();
    count_repeats();
    // ~0: the block ran to its end (a fetch stop): execution goes on at the engine's pc.
    const uint64_t next = pc != ~uint64_t{0} ? pc : engine_->reg(a64_reg::pc);
    const bool goes_on = block_goes_on_;
    block_goes_on_ = false;
    if (block_active_) {
        const uint64_t end = block_end_;
        finish_block(pc, next);
        // The engine runs the rest of the block without calling on_block (on_sysreg).
        if (goes_on && pc < end) {
            block_begin_ = pc;
            block_active_ = true;
            block_resumed_ = true;
        }
    }
    if (tracing_ && trace_context_due_) {
        trace_context_due_ = false;
        trace_context_check(next);
    }
}

} // namespace pmtrace::platform
