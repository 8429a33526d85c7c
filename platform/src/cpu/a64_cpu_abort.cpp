// a64_cpu_abort.cpp - the MMU's side of the CPU: which stage 1 regime translates at an Exception
// level, virtual to physical for the model's own reads (instructions it decodes) and device
// accesses, and the Instruction and Data Aborts the engine reports without a syndrome: the CPU
// finds the fault with its own walk (a64_stage1.h) and takes the exception with the ESR and FAR
// AArch64.Abort gives it (J1.1: AArch64.DataAbort, AArch64.InstructionAbort,
// AArch64.FaultSyndrome).
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include "a64_cpu_regs.h"

#include <algorithm>
#include <cstring>

namespace pmtrace::platform
{

using namespace a64;

unsigned a64_cpu::sync_target_el()
{
    const unsigned el = current_el();
    if (el == 0 && config_.have_el2 && (get(*engine_, hcr_el2) & hcr_tge))
        return 2;
    return el > 1 ? el : 1;
}

// The regime of `el` (D8.1): EL3 at EL3; EL2 and EL2&0 at EL2, and at EL0 when
// HCR_EL2.{E2H, TGE} is {1, 1}; EL1&0 otherwise. EL3 has one VA range, and TCR_EL3 the layout
// of TCR_EL2 with E2H 0.
a64_stage1_regime a64_cpu::regime(unsigned el)
{
    const uint64_t hcr = config_.have_el2 ? get(*engine_, hcr_el2) : 0;
    const bool e2h = (hcr & hcr_e2h) != 0;
    const unsigned r = regime_number(el);
    a64_stage1_regime s;
    s.sctlr = get(*engine_, sctlr(r));
    s.two_ranges = r == 1 || (r == 2 && e2h);
    s.el2_tcr_layout = (r == 2 && !e2h) || r == 3;
    s.tcr = get(*engine_, tcr(r)); // top byte ignore applies with stage 1 off too
    if (!(s.sctlr & sctlr_m))
        return s; // stage 1 off: the tables are not read
    s.ttbr0 = get(*engine_, ttbr0(r));
    s.ttbr1 = s.two_ranges ? get(*engine_, ttbr1(r)) : 0;
    s.mair = get(*engine_, mair(r));
    s.pa_bits = a64_pa_bits(get(*engine_, id_aa64mmfr0_el1) & 0xF);
    return s;
}

// The stage 1 regime of `el`, by number: 1 EL1&0, 2 EL2 or EL2&0, 3 EL3.
unsigned a64_cpu::regime_number(unsigned el)
{
    if (el == 3)
        return 3;
    if (el == 2)
        return 2;
    if (el == 0 && config_.have_el2) {
        const uint64_t hcr = get(*engine_, hcr_el2);
        if ((hcr & hcr_e2h) && (hcr & hcr_tge))
            return 2;
    }
    return 1;
}

a64_translation a64_cpu::translate(uint64_t va, unsigned size, bool write, bool fetch)
{
    const unsigned el = current_el();
    a64_access a;
    a.va = va;
    a.size = size;
    a.write = write;
    a.fetch = fetch;
    a.unprivileged = el == 0;
    a.pan = (engine_->reg(a64_reg::pstate) & pstate_pan) != 0;
    return a64_stage1_translate(regime(el), a, [this](uint64_t pa, uint64_t &value) {
        return engine_->read_memory(pa, &value, 8);
    });
}

// One translation per page (code_page_), kept until code_generation_ moves on or the Exception
// level changes, as a TLB holds a translation until maintenance.
bool a64_cpu::code_pa(uint64_t va, uint64_t &pa)
{
    const uint64_t page = va & ~uint64_t{0xFFF};
    const unsigned el = current_el();
    if (page != code_page_.va || el != code_page_.el || code_page_.generation != code_generation_) {
        const a64_translation t = translate(page, 4, false, true);
        if (t.fault.kind != a64_fault_kind::none) {
            code_page_.va = ~uint64_t{0};
            return false;
        }
        code_page_ = {page, t.pa, code_generation_, el};
    }
    pa = code_page_.pa + (va & 0xFFF);
    return true;
}

bool a64_cpu::read_code(uint64_t va, uint32_t &insn)
{
    uint64_t pa = 0;
    return code_pa(va, pa) && engine_->read_memory(pa, &insn, 4);
}

// Decoding a block reads its instructions a page at a time: one translation and one read each.
size_t a64_cpu::read_code(uint64_t va, uint32_t *words, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const uint64_t at = va + 4 * done;
        const size_t in_page = std::min<size_t>(n - done, (0x1000 - (at & 0xFFF)) / 4);
        uint64_t pa = 0;
        if (!code_pa(at, pa) || !engine_->read_memory(pa, words + done, 4 * in_page))
            break;
        done += in_page;
    }
    return done;
}

uint64_t a64_cpu::data_pa(uint64_t va, unsigned size, bool write)
{
    const a64_translation t = translate(va, size, write, false);
    return t.fault.kind == a64_fault_kind::none ? t.pa : va;
}

// An abort the engine reported at stop.pc (the instruction did not execute).
void a64_cpu::take_abort(const a64_stop &stop)
{
    on_block_cut(stop.pc);
    const bool same = sync_target_el() == current_el();
    if (stop.exception == a64_exception::instruction_abort) {
        const a64_translation t = translate(stop.pc, 4, false, true);
        if (t.fault.kind == a64_fault_kind::none) {
            fail("an instruction abort at " + hex(stop.pc) +
                 " that the translation tables do not explain");
            return;
        }
        // ISS: IFSC; FnV, EA, S1PTW 0 (AArch64.FaultSyndrome). FAR: the address fetched.
        take_sync(same ? EC_IABORT_SAME : EC_IABORT_LOWER, t.fault.fsc(), stop.pc, true, true,
                  stop.pc);
        return;
    }
    uint32_t insn = 0;
    if (!read_code(stop.pc, insn)) {
        fail("a data abort at " + hex(stop.pc) + " whose instruction cannot be read");
        return;
    }
    // The access: a load or store (its first byte, its element size, all its bytes), or a
    // cache maintenance instruction by VA (CM, and WnR 1: AArch64.FaultSyndrome).
    uint64_t va = 0;
    unsigned element = 1, total = 1;
    bool write = false, cm = false;
    if (auto m = a64_decode_mem(insn)) {
        auto base_reg = [&](unsigned n) {
            return n == 31 ? engine_->reg(a64_reg::sp) : engine_->x(n);
        };
        auto xreg = [&](unsigned n) { return engine_->x(n); };
        va = a64_address(*m, base_reg, xreg, stop.pc);
        element = m->size ? m->size : 1;
        total = element * (m->pair ? 2 : 1);
        write = m->store;
    } else if (auto c = a64_decode_cache_op(insn)) {
        va = engine_->x(c->rt);
        write = true;
        cm = !c->zva;
    } else {
        fail("a data abort at " + hex(stop.pc) +
             " from an instruction that is not a load or store");
        return;
    }
    a64_fault fault;
    uint64_t far = va;
    // SCTLR_ELx.A: an alignment check before translation (AArch64.FullTranslate's note).
    const a64_stage1_regime r = regime(current_el());
    if (!cm && (r.sctlr & (1u << 1)) && (va & (element - 1)))
        fault.kind = a64_fault_kind::alignment;
    if (fault.kind == a64_fault_kind::none) {
        fault = translate(va, element, write, false).fault;
        // An access that crosses into another page faults there: FAR is that page's first byte.
        const uint64_t last = va + total - 1;
        if (fault.kind == a64_fault_kind::none && ((last ^ va) >> 12) != 0) {
            far = last & ~uint64_t{0xFFF};
            fault = translate(far, 1, write, false).fault;
        }
    }
    if (fault.kind == a64_fault_kind::none) {
        fail("a data abort at " + hex(stop.pc) + " on " + hex(va) +
             " that the translation tables do not explain");
        return;
    }
    // ISS (AArch64.FaultSyndrome): ISV 0 (a stage 1 fault), CM, WnR, DFSC.
    const uint32_t iss = fault.fsc() | (uint32_t{write} << 6) | (uint32_t{cm} << 8);
    take_sync(same ? EC_DABORT_SAME : EC_DABORT_LOWER, iss, stop.pc, true, true, far);
}

// Code at virtual address va may be translated: its translation reaches RAM (on_fetch). The
// engine asks where its own map does not say (a virtual address that is not RAM's physical
// one), when it translates code, not each time the code runs.
bool a64_cpu::on_fetch(uint64_t va)
{
    const a64_translation t = translate(va, 4, false, true);
    return t.fault.kind == a64_fault_kind::none && is_ram(t.pa, 4);
}

// The engine could not fetch from stop.address (the block at stop.pc did not start): a
// translation fault, or a fetch from a physical address that is not RAM. The last is a
// synchronous External abort on the fetch: the bus answers an error where nothing is mapped,
// and the platform's devices answer no instruction fetch (with the MMU on, a fetch from Device
// memory is not a Permission fault: INSTRDEVICE's choice; docs/choices.md).
void a64_cpu::fetch_stop(const a64_stop &stop)
{
    on_block_cut(~uint64_t{0}); // the block before ran to its end
    if (stop.address != stop.pc) {
        fail("an instruction fetch from " + hex(stop.address) + " in the block at pc " +
             hex(stop.pc) + " that the engine could not start");
        return;
    }
    const a64_translation t = translate(stop.pc, 4, false, true);
    const bool same = sync_target_el() == current_el();
    const uint32_t ec = same ? EC_IABORT_SAME : EC_IABORT_LOWER;
    if (t.fault.kind != a64_fault_kind::none) {
        // An Instruction Abort: the translation's IFSC, FAR the virtual address.
        take_sync(ec, t.fault.fsc(), stop.pc, true, true, stop.pc);
        return;
    }
    if (!is_ram(t.pa, 4)) {
        // A synchronous External abort on the fetch: IFSC 0b010000, FAR the virtual address.
        take_sync(ec, 0x10, stop.pc, true, true, stop.pc);
        return;
    }
    fail("an instruction fetch from " + hex(stop.pc) + " (physical " + hex(t.pa) +
         ", RAM) that the engine refused");
}

} // namespace pmtrace::platform
