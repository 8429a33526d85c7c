// a64_cpu_debug.cpp - self-hosted debug (Arm ARM D2) on the CPU: the breakpoint and watchpoint
// registers and MDSCR_EL1, which the CPU holds instead of the engine (Unicorn 2.0.1 crashes in
// its translated code when a hardware breakpoint is programmed, and its watchpoints and software
// step never fire); the Breakpoint, Watchpoint and Software Step exceptions, each at its
// instruction; BRK and all of them routed by MDCR_EL2.TDE and HCR_EL2.TGE; none while the OS
// Lock or the OS Double Lock is locked (AArch64.GenerateDebugExceptionsFrom). docs/cpu.md,
// "Self-hosted debug".
#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/cpu/a64_decode.h>

#include "a64_cpu_regs.h"

namespace pmtrace::platform
{

using namespace a64;

namespace
{
constexpr uint64_t mdcr_tde = 1u << 8;
constexpr uint64_t mdcr_tda = 1u << 9;
constexpr uint64_t mdcr_el3_sdd = 1u << 16;
// The ISS of the debug exceptions: IFSC/DFSC 0b100010 (Debug exception).
constexpr uint32_t fsc_debug = 0x22;

// The bytes an Advanced SIMD structure load or store accesses (C4.1.x "Advanced SIMD load/store
// multiple structures" and "single structure", which a64_decode_mem leaves undecoded): from
// Xn, contiguous (a post-index writes Xn after).
unsigned simd_structure_bytes(uint32_t insn)
{
    const unsigned q = (insn >> 30) & 1;
    if (((insn >> 24) & 1) == 0) { // multiple structures: LD1-LD4, ST1-ST4
        static const unsigned regs[16] = {4, 0, 4, 0, 3, 0, 3, 1, 2, 0, 2, 0, 0, 0, 0, 0};
        return regs[(insn >> 12) & 0xF] * (q ? 16u : 8u);
    }
    // Single structure (and LDnR): selem = opcode<0>:R + 1 elements of 1 << scale bytes.
    const unsigned opcode = (insn >> 13) & 7;
    const unsigned selem = (((opcode & 1) << 1) | ((insn >> 21) & 1)) + 1;
    unsigned scale = opcode >> 1;
    if (scale == 3) // LDnR: the size field
        scale = (insn >> 10) & 3;
    else if (scale == 2 && ((insn >> 10) & 1))
        scale = 3; // a doubleword element
    return selem << scale;
}

pmt_sysreg pmt_of(enc r)
{
    return PMT_SYSREG(r.op0, r.op1, r.crn, r.crm, r.op2);
}
} // namespace

// DBGBVR<n>_EL1, DBGBCR<n>_EL1, DBGWVR<n>_EL1, DBGWCR<n>_EL1 (op0 0b10, op1 0b000, CRn 0b0000,
// CRm n, op2 4..7) and MDSCR_EL1 (CRm 0b0010, op2 0b010).
bool a64_cpu::debug_register(const a64_sysreg_access &a)
{
    return a.op0 == 2 && a.op1 == 0 && a.crn == 0 && (a.op2 >= 4 || (a.crm == 2 && a.op2 == 2));
}

// The implemented breakpoints and watchpoints, from the engine's ID registers.
void a64_cpu::debug_configure()
{
    uint64_t dfr0 = 0, pfr0 = 0;
    (void)engine_->sysreg(3, 0, 0, 5, 0, dfr0);
    (void)engine_->sysreg(3, 0, 0, 4, 0, pfr0);
    debug_pe_.breakpoints = static_cast<unsigned>((dfr0 >> 12) & 0xF) + 1;
    debug_pe_.watchpoints = static_cast<unsigned>((dfr0 >> 20) & 0xF) + 1;
    debug_pe_.context_aware = static_cast<unsigned>((dfr0 >> 28) & 0xF) + 1;
    debug_pe_.have_el2 = config_.have_el2;
    debug_pe_.have_el3 = config_.have_el3;
    debug_pe_.aarch32 = (pfr0 & 0xF) == 2;
}

// OSLSR_EL1.OSLK or DoubleLockStatus() (OSDLR_EL1.DLK with DBGPRCR_EL1.CORENPDRQ 0), as the PE
// model holds them (pmt_pe_config.os_lock_registers): read again after a write to one of them.
void a64_cpu::debug_refresh_os_lock()
{
    if (el_ == 0)
        return;
    const sc_core::sc_time &t = qk_.get_local_time();
    uint64_t oslsr = 0, osdlr = 0, dbgprcr = 0;
    if (sysreg->read_sysreg(pmt_of(oslsr_el1), oslsr, t) != PMT_ACCESS_OK)
        return; // a PE model that does not hold the OS Lock: never locked here
    (void)sysreg->read_sysreg(pmt_of(osdlr_el1), osdlr, t);
    (void)sysreg->read_sysreg(pmt_of(dbgprcr_el1), dbgprcr, t);
    os_locked_ = (oslsr & 2) || ((osdlr & 1) && !(dbgprcr & 1));
}

// MDCR_EL2 and MDCR_EL3 as the software writes them: the PE model keeps its own fields, the CPU
// the debug ones (TDE, TDA; SDD). A read gets the CPU's TDA (and SDD) back.
void a64_cpu::debug_mdcr(const a64_sysreg_access &a, uint64_t &value, bool ok)
{
    if (!ok)
        return;
    if (is(a, mdcr_el2)) {
        if (a.read)
            value |= mdcr_el2_ & mdcr_tda;
        else
            mdcr_el2_ = value;
    } else if (is(a, mdcr_el3)) {
        if (a.read)
            value |= mdcr_el3_ & (mdcr_tda | mdcr_el3_sdd);
        else
            mdcr_el3_ = value;
    }
}

// The debug registers the CPU holds (D24.3.2, .3, .11, .12, .20): UNDEFINED at EL0 and for a
// breakpoint or watchpoint not implemented; from EL1 trapped to EL2 by MDCR_EL2.TDA or TDE
// (EL2 enabled), from EL1 and EL2 to EL3 by MDCR_EL3.TDA.
a64_sysreg_action a64_cpu::debug_sysreg(const a64_sysreg_access &a, uint64_t &value)
{
    if (el_ == 0)
        return undefined();
    if (el_ == 1 && pe_state_for(1).el2_enabled && (mdcr_el2_ & (mdcr_tde | mdcr_tda)))
        return sysreg_trap(a, 2);
    if (el_ <= 2 && config_.have_el3 && (mdcr_el3_ & mdcr_tda))
        return sysreg_trap(a, 3);
    a64_self_hosted_debug &d = debug_;
    if (a.crm == 2 && a.op2 == 2) { // MDSCR_EL1
        if (a.read) {
            value = d.mdscr;
            return a64_sysreg_action::done;
        }
        const uint64_t w = mdscr_rw | (os_locked_ ? mdscr_rw_locked : 0);
        d.mdscr = (d.mdscr & ~w) | (value & w);
        return a64_sysreg_action::done_stop; // what is armed may have changed: plan again
    }
    const unsigned n = a.crm;
    const bool breakpoint = a.op2 <= 5;
    if (n >= (breakpoint ? debug_pe_.breakpoints : debug_pe_.watchpoints))
        return undefined();
    uint64_t *r = nullptr, mask = ~uint64_t{0};
    switch (a.op2) {
    case 4: r = &d.bvr[n]; break;
    case 5: r = &d.bcr[n], mask = dbgbcr_mask; break;
    case 6: r = &d.wvr[n], mask = dbgwvr_mask; break;
    default: r = &d.wcr[n], mask = dbgwcr_mask; break;
    }
    if (a.read) {
        value = *r;
        return a64_sysreg_action::done;
    }
    *r = value & mask;
    return a64_sysreg_action::done_stop;
}

// EL2 enabled with HCR_EL2.TGE or MDCR_EL2.TDE: debug exceptions from EL0 and EL1 go to EL2.
bool a64_cpu::debug_route_to_el2()
{
    if (!config_.have_el2 || !pe_state_for(current_el()).el2_enabled)
        return false;
    return (mdcr_el2_ & mdcr_tde) || (get(*engine_, hcr_el2) & hcr_tge);
}

// The Exception level a debug exception (and BRK) is taken to: the current one at EL2 and EL3,
// else EL2 when routed there, else EL1 (AArch64.BreakpointException and its siblings).
unsigned a64_cpu::debug_target_el()
{
    const unsigned el = current_el();
    if (el >= 2)
        return el;
    return debug_route_to_el2() ? 2 : 1;
}

// AArch64.GenerateDebugExceptions() now.
bool a64_cpu::debug_exceptions_enabled()
{
    const unsigned el = current_el();
    const bool secure = el == 3 || !(scr_el3_value() & scr_ns);
    const bool mask = (engine_->reg(a64_reg::pstate) & pstate_d) != 0;
    return a64_generate_debug_exceptions_from(el, secure, mask, os_locked_, debug_route_to_el2(),
                                              config_.have_el3, (mdcr_el3_ & mdcr_el3_sdd) != 0,
                                              debug_.mdscr);
}

a64_debug_context a64_cpu::debug_context()
{
    a64_debug_context c;
    c.el = current_el();
    c.secure = c.el == 3 || !(scr_el3_value() & scr_ns);
    c.el2_enabled = config_.have_el2 && !c.secure;
    c.contextidr_el1 = static_cast<uint32_t>(get(*engine_, contextidr_el1));
    c.vmid = config_.have_el2 ? static_cast<uint8_t>(get(*engine_, vttbr_el2) >> 48) : 0;
    return c;
}

// What must be looked at in the state the run starts in (plan): each instruction (breakpoints),
// each load and store (watchpoints), or one instruction at a time (software step, D2.12).
void a64_cpu::debug_plan()
{
    step_after_run(); // a stepped instruction that retired (a PSTATE write, re-planned mid-run)
    debug_bp_armed_ = debug_wp_armed_ = false;
    if (!(debug_.mdscr & (mdscr_mde | mdscr_ss)) || !debug_exceptions_enabled())
        return;
    if (debug_.mdscr & mdscr_mde) {
        const a64_debug_context c = debug_context();
        debug_bp_armed_ = debug_.breakpoints_armed(debug_pe_, c);
        debug_wp_armed_ = debug_.watchpoints_armed(debug_pe_, c);
    }
    if (debug_.mdscr & mdscr_ss) {
        if (pstate_ss_) {
            // Active-not-pending: one instruction, then the Software Step exception.
            step_active_ = true;
            step_retired_ = retired_;
            stop_at_ = std::min(stop_at_, retired_ + 1);
        } else {
            stop_at_ = retired_; // active-pending: the exception before any instruction
        }
    }
}

// Within a run, at an instruction boundary the Exception level did not change at (an ERET to the
// same level, a write of PSTATE.D): what debug looks at again, without planning the rest of the
// run anew (plan() sets the quantum's and the PMU's stops from now on: a loop whose every block
// ends with an ERET would push them forward for ever).
void a64_cpu::debug_replan()
{
    debug_plan();
    update_fast_until();
}

// Where the block at `address` must stop for a debug check: the first instruction a breakpoint
// matches, or the first load or store while watchpoints are armed (its addresses are known only
// from the registers before it executes: debug_check). The instruction checked last, where the
// run resumes, is passed over until an instruction retires (the engine may call for the block
// again, cut at the next stop, before it runs it).
uint64_t a64_cpu::debug_stop(uint64_t address, uint32_t size)
{
    const uint64_t skip = retired_ == debug_checked_at_ ? debug_checked_pc_ : ~uint64_t{0};
    const a64_debug_context c = debug_context();
    for (uint64_t pc = address; pc < address + size; pc += 4) {
        if (pc == skip)
            continue;
        if (debug_bp_armed_ && debug_.breakpoint(debug_pe_, c, pc))
            return pc;
        if (debug_wp_armed_) {
            uint32_t insn = 0;
            if (read_code(pc, insn) && (a64_classify(insn) & (A64_LOAD | A64_STORE)))
                return pc;
        }
    }
    return ~uint64_t{0};
}

// The run stopped before the instruction at `pc`: a Breakpoint exception (EC 0x30/0x31, IFSC
// Debug; ELR the instruction), or a Watchpoint exception for its access (EC 0x34/0x35, WnR, DFSC
// Debug; FAR an address of the access in the watched block; ELR the instruction), or neither:
// the instruction runs, and is not checked again where the run resumes.
void a64_cpu::debug_check(uint64_t pc)
{
    if (!(debug_bp_armed_ || debug_wp_armed_) || engine_->reg(a64_reg::pc) != pc)
        return;
    const a64_debug_context c = debug_context();
    if (debug_bp_armed_ && debug_.breakpoint(debug_pe_, c, pc)) {
        take_debug(EC_BREAKPOINT_LOWER, fsc_debug, pc);
        return;
    }
    if (debug_wp_armed_) {
        uint32_t insn = 0;
        if (read_code(pc, insn) && (a64_classify(insn) & (A64_LOAD | A64_STORE))) {
            uint64_t va = 0;
            unsigned size = 0;
            bool read = false, write = false;
            if (auto m = a64_decode_mem(insn)) {
                va = a64_address(
                    *m,
                    [this](unsigned n) {
                        return n == 31 ? engine_->reg(a64_reg::sp) : engine_->x(n);
                    },
                    [this](unsigned n) { return engine_->x(n); }, pc);
                size = m->size ? m->size * (m->pair ? 2 : 1) : simd_structure_bytes(insn);
                read = m->load;
                write = m->store;
            } else if (auto op = a64_decode_cache_op(insn); op && op->zva) {
                va = engine_->x(op->rt) & ~uint64_t{63}; // DCZID_EL0.BS: 64 bytes
                size = 64;
                write = true;
            }
            const a64_watchpoint_hit hit = debug_.watchpoint(debug_pe_, c, va, size, read, write);
            if (size && hit.hit) {
                take_debug(EC_WATCHPOINT_LOWER, fsc_debug | (hit.write ? 1u << 6 : 0u), pc, true,
                           hit.address);
                return;
            }
        }
    }
    debug_checked_pc_ = pc;
    debug_checked_at_ = retired_;
}

void a64_cpu::take_debug(uint32_t ec_lower, uint32_t iss, uint64_t preferred_return, bool far_valid,
                         uint64_t far_value)
{
    const unsigned target = debug_target_el();
    const uint32_t ec = ec_lower + (target == current_el() ? 1 : 0);
    take_exception(target, ec, iss, preferred_return, VEC_SYNC, true, far_valid, far_value);
}

// After a run that stepped: the instruction completed without an exception (SSAdvance):
// active-pending, with the syndrome of the instruction stepped.
void a64_cpu::step_after_run()
{
    if (!step_active_)
        return;
    step_active_ = false;
    if (retired_ > step_retired_ && pstate_ss_) {
        pstate_ss_ = false;
        step_stepped_ = true;
        uint32_t insn = 0;
        const auto m = read_code(last_retired_, insn) ? a64_decode_mem(insn) : std::nullopt;
        step_ex_ = m && m->exclusive && m->load;
    }
}

// Active-pending (MDSCR_EL1.SS, debug exceptions generated here, PSTATE.SS 0): the Software
// Step exception, EC 0x32/0x33, ELR the next instruction, ISS.ISV 1 with EX (a Load-Exclusive
// was stepped) after an instruction stepped, ISV 0 when none was (an exception return to the
// active-pending state).
void a64_cpu::take_step_if_pending()
{
    if (!(debug_.mdscr & mdscr_ss) || pstate_ss_ || !debug_exceptions_enabled())
        return;
    const uint32_t iss = fsc_debug | (step_stepped_ ? (1u << 24) | (step_ex_ ? 1u << 6 : 0u) : 0u);
    step_stepped_ = step_ex_ = false;
    take_debug(EC_SOFTWARE_STEP_LOWER, iss, engine_->reg(a64_reg::pc));
}

// Exception entry: SPSR_ELx.SS is PSTATE.SS, after SSAdvance when the instruction stepped
// completed (an SVC, HVC or SMC: the handler returns to the active-pending state); PSTATE.SS
// becomes 0.
uint64_t a64_cpu::step_on_entry()
{
    debug_checked_pc_ = ~uint64_t{0};
    if (step_active_ && retired_ > step_retired_)
        pstate_ss_ = false;
    const uint64_t ss = pstate_ss_ ? pstate_ss : 0;
    pstate_ss_ = false;
    step_active_ = step_stepped_ = step_ex_ = false;
    return ss;
}

// ERET (DebugExceptionReturnSS): PSTATE.SS becomes SPSR.SS where software step is not enabled
// at the ERET's level (with its PSTATE.D, seen when its block started) and is at the level
// returned to; else 0.
void a64_cpu::step_on_eret(unsigned from_el)
{
    step_active_ = false; // a stepped ERET sets PSTATE.SS itself (no SSAdvance)
    step_stepped_ = step_ex_ = false;
    pstate_ss_ = false;
    const bool mask = eret_mask_;
    eret_mask_ = true;
    if (!(debug_.mdscr & mdscr_ss) || from_el == 0)
        return;
    const uint64_t spsr_value = get(*engine_, spsr(from_el));
    const bool secure = from_el == 3 || !(scr_el3_value() & scr_ns);
    const bool at_source = a64_generate_debug_exceptions_from(
        from_el, secure, mask, os_locked_, from_el < 2 && debug_route_to_el2(), config_.have_el3,
        (mdcr_el3_ & mdcr_el3_sdd) != 0, debug_.mdscr);
    if (!at_source && debug_exceptions_enabled())
        pstate_ss_ = (spsr_value & pstate_ss) != 0;
}

} // namespace pmtrace::platform
