// a64_cpu_device.cpp - loads and stores to devices: every address that is not RAM. The engine
// stops before the instruction with the registers it found; the CPU finds the instruction in
// the running block, performs its accesses on the bus (b_transport, the local time offset as the
// delay), writes the registers, and goes on after it. An error response is a synchronous
// External abort (a Data Abort, DFSC 0b010000) with the syndrome of the instruction.
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

// The instruction that made the access. Unicorn does not say where in the block it stopped; the
// registers are those before the instruction, so it is the load or store of the block whose
// address, computed from them, is the access's (and for a store, whose data is the value
// written). Where two match, an earlier one whose address registers a later instruction of the
// block may write cannot be trusted (its address was computed from other values) and the later
// one is taken.
// The search stays inside one block of the engine (QEMU's TCG makes blocks of at most 512
// instructions): a block the CPU holds that is longer (or empty) is not the one that stopped,
// and only the instruction at the stop's pc is looked at.
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
        if (!m || m->simd || m->size == 0)
            continue;
        if (stop.write ? !m->store : !m->load)
            continue;
        // The engine reports a device's physical address, or the virtual one of an access it
        // found unmapped (Unicorn 2.0.1 looks for a mapping of the virtual address: docs/cpu.md).
        const uint64_t va = a64_address(*m, base_reg, xreg, p);
        if (va != stop.address && data_pa(va, m->size, m->store) != stop.address)
            continue;
        if (stop.write && !m->atomic) {
            uint64_t mask = m->size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * m->size)) - 1;
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

void a64_cpu::device_access(const a64_stop &stop)
{
    uint64_t pc = 0;
    uint32_t insn = 0;
    if (!find_device_insn(stop, pc, insn)) {
        on_block_cut(stop.pc);
        fail("device access to " + hex(stop.address) + " near pc " + hex(stop.pc) +
             ": no load or store of the block makes it");
        return;
    }
    a64_mem_insn m = *a64_decode_mem(insn);
    // The instructions before it retired; it retires (or aborts) now.
    if (block_active_)
        retire_range(block_begin_, pc);
    block_active_ = false;
    end_fast();
    report();
    if (m.simd || m.exclusive || m.atomic) {
        fail("device access to " + hex(stop.address) + " at pc " + hex(pc) +
             ": SIMD&FP, exclusive and atomic accesses to devices are not modelled");
        return;
    }
    auto base_reg = [&](unsigned n) { return n == 31 ? engine_->reg(a64_reg::sp) : engine_->x(n); };
    auto xreg = [&](unsigned n) { return engine_->x(n); };
    uint64_t address = a64_address(m, base_reg, xreg, pc);
    unsigned count = m.pair ? 2 : 1;
    uint64_t values[2] = {0, 0};
    if (m.store) {
        values[0] = engine_->x(m.rt);
        values[1] = engine_->x(m.rt2);
    }
    for (unsigned i = 0; i < count; i++) {
        const uint64_t va = address + uint64_t{i} * m.size;
        // A virtual address the engine reported unmapped may be one the tables do not map (or
        // do not allow): the Data Abort of the translation, with its DFSC, not a bus access.
        const a64_translation t = translate(va, m.size, m.store, false);
        if (t.fault.kind != a64_fault_kind::none) {
            const uint32_t iss = t.fault.fsc() | (uint32_t{m.store} << 6);
            const bool same = sync_target_el() == current_el();
            take_sync(same ? EC_DABORT_SAME : EC_DABORT_LOWER, iss, pc, true, true, va);
            return;
        }
        if (!bus_access(m.store, t.pa, m.size, values[i])) {
            // A synchronous External abort on the access. ISS (AArch64.FaultSyndrome): ISV 0
            // (AArch64.InstructionSyndromeValid holds only for stage 2 faults), WnR, DFSC
            // 0b010000; FAR the virtual address.
            const uint32_t iss = 0x10 | (uint32_t{m.store} << 6);
            const bool same = sync_target_el() == current_el();
            take_sync(same ? EC_DABORT_SAME : EC_DABORT_LOWER, iss, pc, true, true, va);
            return;
        }
    }
    // A virtual range onto RAM that the engine stopped at: the next accesses at its speed.
    for (unsigned i = 0; i < count; i++)
        (void)alias_range(address + uint64_t{i} * m.size, false);
    if (m.load) {
        for (unsigned i = 0; i < count; i++) {
            uint64_t v = values[i];
            unsigned bits = 8 * m.size;
            if (m.sign_extend && bits < 64) {
                uint64_t sign = uint64_t{1} << (bits - 1);
                v = (v ^ sign) - sign;
            }
            if (!m.dest64)
                v &= 0xFFFF'FFFF;
            unsigned rt = i == 0 ? m.rt : m.rt2;
            engine_->set_x(rt, v); // XZR: discarded
        }
    }
    if (m.addressing == a64_mem_insn::mode::pre_index ||
        m.addressing == a64_mem_insn::mode::post_index) {
        uint64_t nb = base_reg(m.rn) + static_cast<uint64_t>(m.imm);
        if (m.rn == 31)
            engine_->set_reg(a64_reg::sp, nb);
        else
            engine_->set_x(m.rn, nb);
    }
    retire_one(insn, pc);
    engine_->set_reg(a64_reg::pc, pc + 4);
}

} // namespace pmtrace::platform
