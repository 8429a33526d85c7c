// a64_cpu_device.cpp - loads and stores to devices: every physical address that is not RAM. The
// engine calls on_device_access at the access, inside the instruction making it, with the
// registers as they were before that instruction; the CPU finds the instruction in the running
// block, retires the instructions before it, and performs the access on the bus (b_transport,
// the local time offset as the delay) at that instant. An error response is a synchronous
// External abort (a Data Abort, DFSC 0b010000) with the syndrome of the instruction, which then
// does not complete (the engine puts its registers back: a64_stop_reason::bus_error).
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include "a64_cpu_regs.h"
#include "bus/bus_access.h"

#include <cstring>
#include <vector>

namespace pmtrace::platform
{

using namespace a64;

// The bus's latency (the delay b_transport adds) is time the CPU waits with nothing issued: stall
// cycles of the backend (STALL_BACKEND, and STALL), counted when the access completes
// (docs/choices.md).
bool a64_cpu::bus_access(bool write, uint64_t address, unsigned size, uint64_t &value)
{
    stats_.device_accesses++;
    const sc_core::sc_time before = qk_.get_local_time();
    sc_core::sc_time delay = before;
    tlm::tlm_response_status response =
        platform::bus_access(*bus.get_interface(0), write, address, size, value, delay);
    qk_.set(delay);
    if (delay > before)
        count_stall(PMT_EV_STALL_BACKEND,
                    static_cast<uint64_t>((delay - before) / config_.clock_period));
    if (response != tlm::TLM_OK_RESPONSE) {
        stats_.bus_errors++;
        return false;
    }
    return true;
}

// The instruction that made the access. The engine does not say where in the block it is; the
// registers are those before the instruction, so it is the load or store of the block whose
// first access, computed from them, is this one (and for a store, whose data is the value
// written). Where two match, an earlier one whose address registers a later instruction of the
// block may write cannot be trusted (its address was computed from other values) and the later
// one is taken.
// The search stays inside one block of the engine (QEMU's TCG makes blocks of at most 512
// instructions): a block the CPU holds that is longer (or empty) is not the one that made the
// access, and only the instruction at `pc` is looked at.
bool a64_cpu::find_device_insn(const a64_stop &stop, uint64_t &pc, uint32_t &insn)
{
    constexpr uint64_t max_block_bytes = 512 * 4;
    uint64_t begin = stop.pc;
    uint64_t end = stop.pc + 4;
    if (block_active_ && block_begin_ < block_end_ &&
        block_end_ - block_begin_ <= max_block_bytes) {
        begin = block_begin_;
        end = block_end_;
    }
    auto base_reg = [&](unsigned n) { return n == 31 ? engine_->reg(a64_reg::sp) : engine_->x(n); };
    auto xreg = [&](unsigned n) { return engine_->x(n); };
    struct candidate {
        uint64_t pc;
        uint32_t insn;
        a64_mem_insn m;
    };
    std::vector<candidate> found;
    std::vector<uint32_t> words;
    for (uint64_t p = begin; p < end; p += 4) {
        uint32_t w = 0;
        if (!read_code(p, w))
            break;
        words.push_back(w);
        auto m = a64_decode_mem(w);
        if (!m || m->size == 0)
            continue;
        if (stop.write ? !m->store : !m->load)
            continue;
        // The engine reports the physical address; the virtual one of an access through an
        // address with no region of the engine's.
        const uint64_t va = a64_address(*m, base_reg, xreg, p);
        if (va != stop.address && data_pa(va, m->size, m->store) != stop.address)
            continue;
        if (stop.write && !m->atomic && !m->simd) {
            // The bytes the engine passed (an 8-byte store may come as two halves).
            const unsigned bytes = std::min(m->size, std::max(stop.size, 1u));
            const uint64_t mask = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
            if ((engine_->x(m->rt) & mask) != (stop.value & mask))
                continue;
        }
        found.push_back({p, w, *m});
    }
    if (found.empty())
        return false;
    for (size_t i = 0; i + 1 < found.size(); i++) {
        const candidate &c = found[i];
        bool trusted = true;
        for (uint64_t p = c.pc; p < found.back().pc && trusted; p += 4) {
            uint32_t w = words[(p - begin) / 4];
            if (a64_may_write(w, c.m.rn) || (c.m.reg_offset && a64_may_write(w, c.m.rm)))
                trusted = false;
        }
        if (trusted) {
            pc = c.pc;
            insn = c.insn;
            return true;
        }
    }
    pc = found.back().pc;
    insn = found.back().insn;
    return true;
}

// A synchronous External abort on a device access of the instruction at pc, to virtual address
// va. ISS (AArch64.FaultSyndrome): ISV 0 (AArch64.InstructionSyndromeValid holds only for stage
// 2 faults), WnR, DFSC 0b010000; FAR the virtual address.
void a64_cpu::take_external_abort(uint64_t pc, uint64_t va, bool write)
{
    const uint32_t iss = 0x10 | (uint32_t{write} << 6);
    const bool same = sync_target_el() == current_el();
    take_sync(same ? EC_DABORT_SAME : EC_DABORT_LOWER, iss, pc, true, true, va);
}

// The instruction of the device access in progress ended (all its bytes were accessed, or the
// engine went on to another block): it retires, and the block goes on after it.
void a64_cpu::device_insn_done()
{
    if (!device_insn_.active)
        return;
    device_insn_.active = false;
    retire_one(device_insn_.insn, device_insn_.pc);
    if (block_active_ && block_begin_ == device_insn_.pc)
        block_begin_ = device_insn_.pc + 4;
}

// The device access in progress answered an error at virtual address va: its instruction does
// not complete, nor does the rest of its block; the engine stops (bus_error_stop takes the abort).
bool a64_cpu::device_error(uint64_t va)
{
    device_insn_.active = false;
    block_active_ = false;
    abort_ = {true, device_insn_.pc, va, device_insn_.write};
    return false;
}

bool a64_cpu::on_device_access(uint64_t pa, unsigned size, bool write, uint64_t &value)
{
    device_insn &d = device_insn_;
    // Another part of the instruction in progress: an element it performed whole (the second
    // half of an 8-byte access), or its next element.
    if (d.active && d.write == write) {
        for (unsigned i = 0; i < d.count; i++) {
            if (pa < d.pa[i] || pa - d.pa[i] >= d.size || size > d.size - (pa - d.pa[i]))
                continue;
            const unsigned at = static_cast<unsigned>(pa - d.pa[i]);
            if (d.whole[i]) {
                if (!write)
                    value = size >= 8
                                ? d.value[i]
                                : (d.value[i] >> (8 * at)) & ((uint64_t{1} << (8 * size)) - 1);
            } else if (!bus_access(write, pa, size, value)) {
                return device_error(d.va + i * d.size + at);
            }
            d.left -= std::min(d.left, size);
            if (!d.left)
                device_insn_done();
            return true;
        }
    }
    device_insn_done();
    trace_flush();
    count_repeats();
    a64_stop stop;
    stop.pc = engine_->reg(a64_reg::pc);
    stop.address = pa;
    stop.size = size;
    stop.write = write;
    stop.value = value;
    uint64_t pc = 0;
    uint32_t insn = 0;
    if (!find_device_insn(stop, pc, insn)) {
        // Not an instruction the CPU can name (a load or store it does not decode): the access
        // as the engine makes it, counted with its block.
        if (bus_access(write, pa, size, value))
            return true;
        fail("a device access to " + hex(pa) + " in the block at " + hex(block_begin_) +
             " answered an error, and no load or store of the block makes it");
        return false;
    }
    // The instructions before it retired; it is performed now.
    block_goes_on_ = true;
    on_block_cut(pc);
    end_fast();
    report();
    const a64_mem_insn m = *a64_decode_mem(insn);
    auto base_reg = [&](unsigned n) { return n == 31 ? engine_->reg(a64_reg::sp) : engine_->x(n); };
    auto xreg = [&](unsigned n) { return engine_->x(n); };
    d = device_insn{};
    d.active = true;
    d.pc = pc;
    d.insn = insn;
    d.write = write;
    d.va = a64_address(m, base_reg, xreg, pc);
    d.size = m.size;
    d.count = m.pair ? 2 : 1;
    d.left = d.size * d.count;
    for (unsigned i = 0; i < d.count; i++) {
        d.pa[i] = i == 0 ? pa : data_pa(d.va + d.size, d.size, write);
        // An 8-byte general-purpose register access whose engine passes it in halves is made
        // whole, once: a 64-bit device register sees one access.
        d.whole[i] = !m.simd && d.size == 8 && size < 8;
    }
    if (d.whole[0]) {
        for (unsigned i = 0; i < d.count; i++) {
            uint64_t v = write ? engine_->x(i == 0 ? m.rt : m.rt2) : 0;
            if (!bus_access(write, d.pa[i], 8, v)) {
                return device_error(d.va + i * 8);
            }
            d.value[i] = v;
        }
        if (!write)
            value = d.value[0] & ((uint64_t{1} << (8 * size)) - 1);
    } else if (!bus_access(write, pa, size, value)) {
        return device_error(d.va);
    }
    d.left -= std::min(d.left, size);
    if (!d.left)
        device_insn_done();
    return true;
}

// The engine stopped after a device access answered an error: the instruction did not complete.
void a64_cpu::bus_error_stop()
{
    if (!abort_.pending) {
        fail("the engine stopped on a device access error the CPU did not answer");
        return;
    }
    abort_.pending = false;
    take_external_abort(abort_.pc, abort_.va, abort_.write);
}

} // namespace pmtrace::platform
