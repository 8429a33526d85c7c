// a64_cpu_trace.cpp - what the AArch64 CPU reports to trace listeners (a64_trace_listener.h):
// the ranges of executed instructions that end with a P0 element, exceptions, context changes,
// the end of execution (docs/cpu.md, "What the CPU reports to a trace unit").
//
// The CPU knows what ran by blocks: a block retires whole when the next one starts (on_block),
// or up to where a stop cut it. A block ends at a branch, so a branch is (nearly always) the last
// instruction of its block, and whether it was taken is known only when the next block starts:
// such a branch is *pending* until then (trace_next), and the next block's address decides it
// (a conditional branch whose target is its own fall-through is decided by its condition, read
// from the registers, which the branch does not change). P0 elements that are not branches (ISB,
// WFx) go on at the next instruction and are reported at once. Blocks split without a branch
// (a page end, Unicorn's instruction limit, a system register access, a stop for an overflow or
// an interrupt) only extend the open range. Every call here is behind `tracing_`: with no
// listener that wants reports nothing is called (a block's P0 elements are decoded with its
// counts, once, when the block is first seen: block_info).
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"

#include <algorithm>

namespace pmtrace::platform
{

using namespace a64;

namespace
{

bool is_branch(a64_p0_kind k)
{
    return k != a64_p0_kind::none && k != a64_p0_kind::isb && k != a64_p0_kind::wfx;
}

a64_trace_exception exception_type(unsigned vector_type, uint32_t ec)
{
    switch (vector_type) {
    case VEC_IRQ: return a64_trace_exception::irq;
    case VEC_FIQ: return a64_trace_exception::fiq;
    case VEC_SERROR: return a64_trace_exception::serror;
    default: break;
    }
    switch (ec) {
    case EC_SVC64: return a64_trace_exception::svc;
    case EC_HVC64: return a64_trace_exception::hvc;
    case EC_SMC64: return a64_trace_exception::smc;
    case EC_BRK64: return a64_trace_exception::brk;
    case EC_UNKNOWN: return a64_trace_exception::undefined;
    case EC_SYS64: return a64_trace_exception::trap;
    case EC_IABORT_LOWER:
    case EC_IABORT_SAME: return a64_trace_exception::instruction_abort;
    case EC_DABORT_LOWER:
    case EC_DABORT_SAME: return a64_trace_exception::data_abort;
    case EC_PROFILING: return a64_trace_exception::profiling;
    default: return a64_trace_exception::other;
    }
}

} // namespace

void a64_cpu::add_trace_listener(a64_trace_listener *listener)
{
    if (!listener || std::find(attached_.begin(), attached_.end(), listener) != attached_.end())
        return;
    attached_.push_back(listener);
    update_trace_listeners(0);
}

void a64_cpu::remove_trace_listener(a64_trace_listener *listener)
{
    attached_.erase(std::remove(attached_.begin(), attached_.end(), listener), attached_.end());
    update_trace_listeners(0);
}

void a64_cpu::update_trace_listeners()
{
    update_trace_listeners(engine_->reg(a64_reg::pc));
}

// The listeners that want reports now get them: one that did not and does joins, from the
// instruction at `from` (0: the next one seen); one that did and does not (or was removed)
// leaves.
void a64_cpu::update_trace_listeners(uint64_t from)
{
    trace_flush(); // to the listeners that got the trace until now
    auto gets = [this](a64_trace_listener *l) {
        return std::find(listeners_.begin(), listeners_.end(), l) != listeners_.end();
    };
    auto attached = [this](a64_trace_listener *l) {
        return std::find(attached_.begin(), attached_.end(), l) != attached_.end();
    };
    listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                    [&](a64_trace_listener *l) { return !attached(l); }),
                     listeners_.end());
    for (a64_trace_listener *l : attached_) {
        const bool wants = l->wants_reports();
        if (wants && !gets(l))
            join_trace(l, from);
        else if (!wants && gets(l))
            listeners_.erase(std::find(listeners_.begin(), listeners_.end(), l));
    }
    late_.erase(std::remove_if(late_.begin(), late_.end(),
                               [&](const trace_late &l) { return !gets(l.listener); }),
                late_.end());
    tracing_ = !listeners_.empty();
}

void a64_cpu::join_trace(a64_trace_listener *listener, uint64_t from)
{
    if (listeners_.empty()) {
        // The first report is the context at the first instruction boundary seen at or after
        // `from` (trace_retired).
        trace_synced_ = false;
        trace_from_ = from;
        pending_ = trace_pending{};
    } else {
        // A listener that joins gets the context now, and the open range from `from` on
        // (late_, trace_emit_late); the others get it whole. The open range is straight-line
        // code up to `from`: no branch is pending here (the CPU decides a block's branch in the
        // call that retires the block, by where the next one starts).
        trace_context_ = trace_context_now();
        if (trace_synced_) {
            const uint64_t at = std::max(from, range_start_);
            listener->on_context(trace_context_, at);
            if (at != range_start_)
                late_.push_back({listener, at});
        }
    }
    listeners_.push_back(listener);
}

a64_cpu::trace_late *a64_cpu::late_of(a64_trace_listener *listener)
{
    for (trace_late &l : late_)
        if (l.listener == listener)
            return &l;
    return nullptr;
}

// The start of the first report to a listener that joined a running trace at l.from, for a
// report of the instructions [start, last] (last + 4 == start: none) that all listeners get from
// `start`: those before l.from (in the same straight-line run) were executed before it joined.
uint64_t a64_cpu::late_start(const trace_late &l, uint64_t start, uint64_t last)
{
    return std::min(std::max(start, l.from), last + 4);
}

// The listeners are told the context at `at`, where the range starts.
void a64_cpu::trace_sync(uint64_t at)
{
    trace_flush();
    trace_synced_ = true;
    pending_ = trace_pending{};
    range_start_ = range_end_ = at;
    trace_context_ = trace_context_now();
    trace_context_due_ = false;
    for (a64_trace_listener *l : listeners_)
        l->on_context(trace_context_, at);
}

void a64_cpu::trace_emit(const a64_trace_range &r)
{
    if (trace_stamp_ && trace_stamp_ != retired_ && late_.empty()) {
        // A range that ended before now (trace_retired, trace_repeats): in the batch, with its
        // time.
        batch_[batch_n_] = r;
        batch_times_.retired[batch_n_] = trace_stamp_;
        if (++batch_n_ == batch_.size())
            trace_deliver();
        range_start_ = range_end_ = r.next;
        return;
    }
    trace_flush();
    if (__builtin_expect(!late_.empty(), 0)) {
        trace_emit_late(r);
    } else {
        for (a64_trace_listener *l : listeners_)
            l->on_range(r);
    }
    range_start_ = range_end_ = r.next;
}

// trace_emit from on_block's fast path: the range waits in the batch, with its time, until the
// batch is full or the CPU does anything else (trace_flush). The CPU calls nothing outside it
// meanwhile, so each listener gets the range at its time, in the same order with everything
// else, only later in the host's time.
// The range is the open one to `last`, a branch (p) decided. It is written in place: a copy of
// a range just built field by field costs a failed store forwarding (measured, bench_a64).
void a64_cpu::trace_batch(uint64_t last, const a64_p0 &p, bool taken, uint64_t next)
{
    if (__builtin_expect(!late_.empty(), 0)) {
        trace_emit({range_start_, last, p.kind, p.conditional, taken, next, 1});
        return;
    }
    a64_trace_range &r = batch_[batch_n_];
    r.start = range_start_;
    r.last = last;
    r.kind = p.kind;
    r.conditional = p.conditional;
    r.taken = taken;
    r.next = next;
    r.count = 1;
    batch_times_.retired[batch_n_] = retired_;
    if (++batch_n_ == batch_.size())
        trace_deliver();
    range_start_ = range_end_ = next;
}

void a64_cpu::trace_deliver()
{
    const size_t n = batch_n_;
    batch_n_ = 0;
    for (a64_trace_listener *l : listeners_)
        l->on_ranges(batch_.data(), n, batch_times_);
}

// trace_emit when listeners joined the running trace: the first range of each starts where it
// joined. A range that ended before now (trace_stamp_) goes to each as a batch of one, with its
// time.
void a64_cpu::trace_emit_late(const a64_trace_range &r)
{
    struct one_time final : a64_trace_times {
        const a64_cpu *cpu;
        uint64_t retired;
        one_time(const a64_cpu *c, uint64_t n) : cpu(c), retired(n) {}
        sc_core::sc_time offset(size_t) const override { return cpu->offset_at(retired); }
    } const when(this, trace_stamp_);
    const bool earlier = trace_stamp_ && trace_stamp_ != retired_;
    auto deliver = [&](a64_trace_listener *l, const a64_trace_range &x) {
        if (earlier)
            l->on_ranges(&x, 1, when);
        else
            l->on_range(x);
    };
    for (a64_trace_listener *l : listeners_) {
        trace_late *late = late_of(l);
        if (!late) {
            deliver(l, r);
            continue;
        }
        // A repeated range starts before the join only if the write is in the loop, which ends
        // its block (no repeats).
        a64_trace_range first = r;
        first.start = late_start(*late, r.start, r.last);
        if (first.start <= r.last && (r.count == 1 || first.start == r.start))
            deliver(l, first);
        late->listener = nullptr;
    }
    late_.erase(
        std::remove_if(late_.begin(), late_.end(), [](const trace_late &l) { return !l.listener; }),
        late_.end());
}

// Instructions [begin, end) retired, in order, after those already seen. `counted`: retired_
// counts them already (else it counts those before `begin`). Each range reported here ended
// before now, at its P0 element: it carries that time (trace_stamp_).
void a64_cpu::trace_retired(uint64_t begin, uint64_t end, bool counted)
{
    if (end <= begin)
        return;
    // retired_ when [begin, end) ended; a range reported ending before `at` ended earlier.
    const uint64_t at_end = trace_stamp_ ? trace_stamp_
                            : counted    ? retired_
                                         : retired_ + (end - begin) / 4;
    const uint64_t saved = trace_stamp_;
    auto ended_before = [&](uint64_t at) { trace_stamp_ = at_end - (end - at) / 4; };
    if (!trace_synced_) {
        // Instructions before the one a listener joined at are not its.
        if (end <= trace_from_)
            return;
        begin = std::max(begin, trace_from_);
        trace_sync(begin);
    }
    if (pending_.valid) {
        ended_before(begin); // a branch decided by where this range starts
        trace_next(begin);
        trace_stamp_ = saved;
    }
    if (begin != range_end_) {
        // Not where the last report said execution goes on.
        stats_.trace_discontinuities++;
        range_start_ = begin;
    }
    range_end_ = end;
    // The P0 elements of [begin, end): a block's from its cache, a part of one by walking it.
    const block_info *whole = current_info_;
    if (whole && begin == whole->address && end == whole->address + whole->size &&
        !whole->inner_p0) {
        if (whole->last_p0.kind == a64_p0_kind::none)
            return;
        if (is_branch(whole->last_p0.kind)) {
            pending_ = {true, end - 4, whole->last_insn, whole->last_p0};
            return;
        }
        ended_before(end);
        trace_emit({range_start_, end - 4, whole->last_p0.kind, false, true, end, 1});
        trace_stamp_ = saved;
        return;
    }
    for (uint64_t pc = begin; pc < end; pc += 4) {
        uint32_t insn = 0;
        if (!read_code(pc, insn))
            continue;
        const a64_p0 p = a64_p0_of(insn, pc);
        if (p.kind == a64_p0_kind::none)
            continue;
        if (is_branch(p.kind) && pc + 4 == end) {
            pending_ = {true, pc, insn, p};
            return;
        }
        // ISB, WFx: execution goes on after it (a branch inside a range went on, not taken, to
        // pc + 4: blocks end at branches, so only as the last instruction of a cut block).
        const bool taken = !(is_branch(p.kind) && p.conditional);
        ended_before(pc + 4);
        trace_emit({range_start_, pc, p.kind, p.conditional, taken, pc + 4, 1});
        trace_stamp_ = saved;
        range_end_ = end;
    }
}

// A block retired whole, and the next one starts at `next` (on_block's fast path). The common
// case, a block that continues the open range and ends with a branch whose target decides it,
// is reported here directly.
void a64_cpu::trace_whole(const block_info &b, uint64_t next)
{
    const uint64_t end = b.address + b.size;
    if (trace_synced_ && !pending_.valid && b.address == range_end_) {
        const a64_p0 &p = b.last_p0;
        if (!b.inner_p0 && is_branch(p.kind) && (!p.conditional || p.target != end)) {
            const bool taken = !p.conditional || next == p.target;
            if (!taken && next != end)
                stats_.trace_discontinuities++; // a not-taken branch went elsewhere
            trace_batch(end - 4, p, taken, next);
            return;
        }
    }
    trace_retired(b.address, end, true);
    trace_next(next);
}

// Execution goes on at `next`: the pending branch, if any, is decided.
void a64_cpu::trace_next(uint64_t next)
{
    if (!trace_synced_) {
        trace_sync(next);
        return;
    }
    if (!pending_.valid) {
        if (next != range_end_) {
            stats_.trace_discontinuities++;
            range_start_ = range_end_ = next;
        }
        return;
    }
    pending_.valid = false;
    const a64_p0 &p = pending_.p0;
    const uint64_t fall_through = pending_.last + 4;
    bool taken = true;
    if (p.conditional) {
        if (p.target != fall_through) {
            taken = next == p.target;
        } else {
            // Both ways lead to `next`: the condition says which (the registers the branch read
            // are unchanged until the next instruction runs).
            const uint32_t rt = pending_.insn & 31;
            taken = a64_branch_taken(pending_.insn, engine_->reg(a64_reg::pstate), engine_->x(rt));
        }
    }
    if (!taken && next != fall_through)
        stats_.trace_discontinuities++; // a not-taken branch went elsewhere: not expected
    trace_emit({range_start_, pending_.last, p.kind, p.conditional, taken, next, 1});
}

// The block `b`, running, ran `runs` times more (a64_block_repeat): each run but the last ended
// with the branch at its end taken to its start (that is what made it start again). retired_
// counts them all: run n (0, 1, ...) ended when it was `first` + n * b.insns, and each range is
// reported with the time it ended (trace_stamp_), not now.
void a64_cpu::trace_repeats(const block_info &b, uint64_t runs)
{
    if (!runs)
        return;
    const uint64_t end = b.address + b.size;
    const uint64_t first = retired_ - (runs - 1) * b.insns;
    if (trace_synced_ && pending_.valid) {
        trace_stamp_ = first - b.insns; // a branch before the first run: decided as it started
        trace_next(b.address);
    }
    if (b.inner_p0 || !is_branch(b.last_p0.kind)) {
        for (uint64_t n = 0; n < runs; n++) {
            trace_stamp_ = first + n * b.insns;
            trace_retired(b.address, end);
            trace_next(b.address);
        }
        trace_stamp_ = 0;
        return;
    }
    // The first run may have started before the block (a range of several blocks).
    trace_stamp_ = first;
    trace_retired(b.address, end);
    const bool merged = range_start_ == b.address;
    pending_.valid = false;
    a64_trace_range r{range_start_, end - 4,   b.last_p0.kind,   b.last_p0.conditional,
                      true,         b.address, merged ? runs : 1};
    trace_stamp_ = merged ? retired_ : first;
    trace_emit(r);
    if (!merged && runs > 1) {
        r.start = b.address;
        r.count = runs - 1;
        trace_stamp_ = retired_;
        trace_emit(r);
    }
    trace_stamp_ = 0;
}

a64_trace_context a64_cpu::trace_context_now()
{
    a64_trace_context c;
    c.el = current_el();
    c.nonsecure = c.el != 3 && (scr_el3_value() & scr_ns); // as pe_state_for
    (void)engine_->sysreg(contextidr_el1.op0, contextidr_el1.op1, contextidr_el1.crn,
                          contextidr_el1.crm, contextidr_el1.op2, c.contextidr_el1);
    if (config_.have_el2) {
        uint64_t v = 0;
        if (engine_->sysreg(contextidr_el2.op0, contextidr_el2.op1, contextidr_el2.crn,
                            contextidr_el2.crm, contextidr_el2.op2, v))
            c.contextidr_el2 = v;
        c.vmid = static_cast<uint16_t>((get(*engine_, vttbr_el2) >> 48) & 0xFF);
    }
    return c;
}

// After an ERET or a PSTATE write (next: where execution goes on), or an MSR that changed the
// context: reported when it differs from the last reported.
void a64_cpu::trace_context_check(uint64_t next)
{
    if (!trace_synced_)
        return;
    const a64_trace_context c = trace_context_now();
    if (c == trace_context_)
        return;
    trace_flush();
    trace_context_ = c;
    for (a64_trace_listener *l : listeners_)
        l->on_context(c, next);
}

// An MSR to CONTEXTIDR_EL1, CONTEXTIDR_EL2 (or CONTEXTIDR_EL12) or VTTBR_EL2 the listeners see:
// the CPU performs it in the engine (done: the engine goes on after it) and reports the context
// after it (on_block_cut). False: the engine's (not allowed at this EL, trapped by
// HCR_EL2.TVM, or a register the engine does not have), as without a listener.
bool a64_cpu::trace_context_write(const a64_sysreg_access &a, uint64_t value)
{
    const unsigned el = current_el();
    const bool el2_register = is(a, contextidr_el2) || is(a, vttbr_el2);
    const uint64_t hcr = config_.have_el2 ? get(*engine_, hcr_el2) : 0;
    enc target = contextidr_el1;
    if (is(a, contextidr_el1)) {
        if (el < 1 || (el == 1 && (hcr & (uint64_t{1} << 26)))) // HCR_EL2.TVM traps it
            return false;
        if (el == 2 && (hcr & hcr_e2h))
            target = contextidr_el2; // redirected with E2H
    } else if (is(a, contextidr_el12)) {
        if (el < 2 || !(hcr & hcr_e2h))
            return false;
    } else if (el2_register) {
        if (el < 2 || !config_.have_el2)
            return false;
        target = is(a, vttbr_el2) ? vttbr_el2 : contextidr_el2;
    } else {
        return false;
    }
    uint64_t old = 0;
    if (!engine_->sysreg(target.op0, target.op1, target.crn, target.crm, target.op2, old) ||
        !engine_->set_sysreg(target.op0, target.op1, target.crn, target.crm, target.op2, value))
        return false;
    trace_context_due_ = true;
    return true;
}

void a64_cpu::trace_exception(unsigned vector_type, uint32_t ec, uint64_t preferred_return,
                              const a64_trace_context &from)
{
    trace_flush();
    a64_trace_exception_taken e;
    e.type = exception_type(vector_type, ec);
    e.ec = vector_type == VEC_IRQ || vector_type == VEC_FIQ ? 0 : ec;
    e.range_start = range_start_;
    e.preferred_return = preferred_return;
    e.vector = engine_->reg(a64_reg::pc);
    e.from = from;
    e.to = trace_context_now();
    trace_context_ = e.to;
    for (a64_trace_listener *l : listeners_) {
        const trace_late *late = late_of(l);
        a64_trace_exception_taken x = e;
        if (late)
            x.range_start = late_start(*late, e.range_start, preferred_return - 4);
        l->on_exception(x);
    }
    late_.clear();
    range_start_ = range_end_ = e.vector;
}

void a64_cpu::trace_end()
{
    trace_flush();
    const uint64_t pc = engine_->reg(a64_reg::pc);
    if (!trace_synced_)
        trace_sync(pc);
    if (pending_.valid)
        trace_next(pc);
    for (a64_trace_listener *l : listeners_) {
        const trace_late *late = late_of(l);
        a64_trace_end e{end_, range_start_, range_end_};
        if (late)
            e.start = late_start(*late, range_start_, range_end_ - 4);
        l->on_end(e);
    }
    late_.clear();
    range_start_ = range_end_;
}

} // namespace pmtrace::platform
