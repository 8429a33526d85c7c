// a64_cpu_alias.cpp - virtual ranges at engine speed. With the MMU on, Unicorn 2.0.1 wants a
// mapping of its own at the *virtual* address of an access (docs/cpu.md): an access through a
// range whose virtual addresses are not physical ones stops the engine (a device stop, a fetch
// stop) although the tables map it onto RAM. The CPU performs the access as a device access
// and asks the engine for an alias of the block or page (a64_engine::alias); from then on the
// engine runs through that range at full speed, still translating each access by the tables.
//
// An alias lets an access through without looking at where it goes: it is right while the
// tables map its range onto RAM, so all aliases go whenever the translation may change (a TLB
// maintenance instruction, a write to a register of the translation regime) or another regime
// translates (an exception or ERET into it). Only virtual addresses that can never be physical
// ones get aliases (at or above 2^52: the high range of a kernel), so an alias never shadows a
// device or RAM.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"

namespace pmtrace::platform
{

using namespace a64;

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

bool a64_cpu::alias_range(uint64_t va, bool fetch)
{
    if ((va >> 52) == 0)
        return false;
    const unsigned r = regime_number(current_el());
    if (alias_regime_ && alias_regime_ != r)
        drop_aliases();
    const a64_translation t = translate(va, 1, false, fetch);
    if (t.fault.kind != a64_fault_kind::none || t.device || t.leaf_bits < 12)
        return false;
    // The whole block or page; where it is not all in one RAM region (or overlaps an alias),
    // the largest aligned part of it around va that is.
    for (unsigned bits = t.leaf_bits; bits >= 12; bits--) {
        const uint64_t mask = (uint64_t{1} << bits) - 1;
        if (engine_->alias(va & ~mask, t.pa & ~mask, mask + 1)) {
            stats_.aliases++;
            alias_regime_ = r;
            return true;
        }
    }
    return false;
}

void a64_cpu::drop_aliases()
{
    if (!alias_regime_)
        return;
    engine_->drop_aliases();
    alias_regime_ = 0;
}

// Called before the engine performs a system register access: a TLB maintenance instruction
// (SYS, CRn 8), or a write to a register of CRn 1 (SCTLR, HCR, SCR, ...), 2 (TTBRx, TCR, VTTBR,
// VTCR) or 10 (MAIR, AMAIR) at EL1 or above, drops the aliases (before it takes effect).
void a64_cpu::alias_sysreg(const a64_sysreg_access &a)
{
    if (!alias_regime_ || a.read)
        return;
    if ((a.op0 == 1 && a.crn == 8) ||
        (a.op0 == 3 && a.op1 != 3 && (a.crn == 1 || a.crn == 2 || a.crn == 10)))
        drop_aliases();
}

// The Exception level changes to `el`: aliases made for another regime go.
void a64_cpu::alias_el(unsigned el)
{
    if (alias_regime_ && regime_number(el) != alias_regime_)
        drop_aliases();
}

// The engine could not fetch from stop.address (the block at stop.pc did not start): a range
// that needs an alias, a translation fault the engine saw as unmapped memory, or a fetch from a
// physical address that is not RAM. The last is a synchronous External abort on the fetch: the
// bus answers an error where nothing is mapped, and the platform's devices answer no
// instruction fetch (with the MMU on, a fetch from Device memory is not a Permission fault:
// INSTRDEVICE's choice; docs/choices.md).
void a64_cpu::fetch_stop(const a64_stop &stop)
{
    on_block_cut(~uint64_t{0}); // the block before ran to its end
    if (alias_range(stop.address, true))
        return;
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
         ", RAM) through a virtual address the engine cannot reach: only addresses at or above "
         "2^52 can be aliased (docs/cpu.md, \"Unicorn 2.0.1: what the engine works around\")");
}

} // namespace pmtrace::platform
