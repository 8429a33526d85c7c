// a64_cpu_sysreg.cpp - where an MRS, MSR, SYS or SYSL goes: the PE model (PMU, TRBE, trace
// unit, MDCR_ELx, the OS Lock ...), the GIC CPU interface (ICC_*), the ID registers the PE model
// adds its fields to, or the engine.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"

#include <pmtrace/pmt_regs.h>

namespace pmtrace::platform
{

using namespace a64;

namespace
{

// The ID_AA64DFR0_EL1 fields the PE model owns (pmt_pe_id_aa64dfr, D24.2.80): TraceVer [7:4],
// PMUVer [11:8], PMSS [19:16], SEBEP [27:24], TraceFilt [43:40], TraceBuffer [47:44], ExtTrcBuff
// [59:56], HPMN0 [63:60]; the rest (DebugVer, BRPs, WRPs, CTX_CMPs, PMSVer, DoubleLock, MTPMU,
// BRBE) the engine's. ID_AA64DFR1_EL1: the PE model's.
constexpr uint64_t dfr0_model_fields = PMT_MASK(DFR0, TraceVer) | PMT_MASK(DFR0, PMUVer) |
                                       PMT_MASK(DFR0, PMSS) | PMT_MASK(DFR0, SEBEP) |
                                       PMT_MASK(DFR0, TraceFilt) | PMT_MASK(DFR0, TraceBuffer) |
                                       PMT_MASK(DFR0, ExtTrcBuff) | PMT_MASK(DFR0, HPMN0);

// ID_AA64PFR0_EL1.CSV3 [63:60].
constexpr uint64_t pfr0_csv3 = uint64_t{0xF} << 60;

// The trace unit's System registers (D24.4): op0 0b10, op1 0b001.
bool trace_unit_register(const a64_sysreg_access &a)
{
    return a.op0 == 2 && a.op1 == 1;
}

// The OS Lock and OS Double Lock registers (D24.3.9, .23, .27, .28): OSLAR_EL1, OSLSR_EL1,
// OSDLR_EL1, DBGPRCR_EL1 (op0 0b10, op1 0b000, CRn 0b0001, CRm 0, 1, 3, 4, op2 0b100). The PE
// model holds the OS Lock, which the trace unit, the PMU and the Trace Buffer Unit read
// (pmt_pe_config.os_lock_registers, which vp sets); a model without them answers NOT_MINE and
// the engine has them.
bool os_lock_register(const a64_sysreg_access &a)
{
    return a.op0 == 2 && a.op1 == 0 && a.crn == 1 && a.op2 == 4 &&
           (a.crm == 0 || a.crm == 1 || a.crm == 3 || a.crm == 4);
}

// PM, the PMU Exception Mask special-purpose register (MRS/MSR S3_0_C4_C3_1): PSTATE.PM at
// bit [32], where SPSR_ELx holds it.
constexpr enc pm_register{3, 0, 4, 3, 1};

} // namespace

// ISS of EC 0x18 (D24.2.40 ISS encoding for an exception from MSR, MRS or System instruction):
// Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction [0] (1 read).
uint32_t a64_cpu::sysreg_iss(const a64_sysreg_access &a) const
{
    return (uint32_t{a.op0} << 20) | (uint32_t{a.op2} << 17) | (uint32_t{a.op1} << 14) |
           (uint32_t{a.crn} << 10) | (a.rt << 5) | (uint32_t{a.crm} << 1) | (a.read ? 1u : 0u);
}

// The access is UNDEFINED (EC 0x00, to EL1), or trapped to `target` (EC 0x18 with its ISS): the
// exception is taken before the instruction.
a64_sysreg_action a64_cpu::undefined()
{
    pending_exception_ = true;
    pending_ec_ = EC_UNKNOWN;
    pending_iss_ = 0;
    pending_target_ = 1;
    return a64_sysreg_action::stop;
}

a64_sysreg_action a64_cpu::sysreg_trap(const a64_sysreg_access &a, unsigned target)
{
    pending_exception_ = true;
    pending_ec_ = EC_SYS64;
    pending_iss_ = sysreg_iss(a);
    pending_target_ = target;
    return a64_sysreg_action::stop;
}

// TLBI (SYS, CRn 8), IC (SYS, CRn 7, CRm 1 or 5), and writes at EL1 and above to registers of
// CRn 1 (SCTLR, HCR, SCR, ...), 2 (TTBRx, TCR) and 10 (MAIR): what the CPU decoded by virtual
// address may be stale after them.
void a64_cpu::code_may_change(const a64_sysreg_access &a)
{
    if (a.read)
        return;
    if ((a.op0 == 1 && (a.crn == 8 || (a.crn == 7 && (a.crm == 1 || a.crm == 5)))) ||
        (a.op0 == 3 && a.op1 != 3 && (a.crn == 1 || a.crn == 2 || a.crn == 10)))
        code_generation_++;
}

a64_sysreg_action a64_cpu::on_sysreg(const a64_sysreg_access &a, uint64_t &value)
{
    trace_flush();
    count_repeats();
    code_may_change(a);
    const a64_sysreg_action action = model_sysreg(a, value);
    // Unicorn 2.0.1 (QEMU) ends a block after a system register write, and after an access to a
    // register it does not know (translated as UNDEFINED); after a read of one it knows, the block
    // may go on without a call to on_block: the rest of the block stays the block running
    // (on_block_cut; resumed_rest_ran tells which it was). Measured: an MSR after an MRS of
    // PMOVSCLR_EL0 in one block (A64Trace.StraightLineWithSystemRegisterReads).
    uint64_t known = 0;
    block_goes_on_ = action == a64_sysreg_action::done && a.read &&
                     engine_->sysreg(a.op0, a.op1, a.crn, a.crm, a.op2, known);
    return action;
}

// DC ZVA to any type of Device memory generates an Alignment fault (DC ZVA's description; with
// stage 1 off data accesses are Device-nGnRnE), which the engine does not know: ISS WnR 1, CM 0,
// DFSC 0b100001; FAR Xt. A translation or permission fault is the engine's (take_abort).
bool a64_cpu::dc_zva_faults(uint64_t xt)
{
    const a64_translation t = translate(xt, 1, true, false);
    if (t.fault.kind != a64_fault_kind::none || !t.device)
        return false;
    const bool same = sync_target_el() == current_el();
    pending_exception_ = true;
    pending_ec_ = same ? EC_DABORT_SAME : EC_DABORT_LOWER;
    pending_iss_ = 0x21 | (1u << 6);
    pending_target_ = 1;
    pending_far_valid_ = true;
    pending_far_ = xt;
    return true;
}

// The identification registers the CPU answers for the engine, read at EL1 or above (at EL0
// they are the engine's: UNDEFINED without FEAT_IDST):
// - ID_AA64DFR0_EL1 and ID_AA64DFR1_EL1: the PE model's PMU and trace fields;
// - ID_AA64PFR0_EL1.CSV3 [63:60] 0b0001 (FEAT_CSV3): the CPU does not execute speculatively,
//   so no data loaded under speculation can be used. Linux then keeps the kernel mapped at EL0
//   on any part (no KPTI), which its TRBE driver needs (a Cortex-A710's MIDR has no entry in
//   its list of parts safe without CSV3, the A72's has);
// - MIDR_EL1 when a64_cpu_config::midr gives one (D24.2.137: at EL1 with EL2 enabled,
//   VPIDR_EL2, the engine's).
// HCR_EL2.TID3 is looked at first (id_group3_trapped).
bool a64_cpu::id_register(const a64_sysreg_access &a, uint64_t &value)
{
    if (is(a, midr_el1)) {
        if (!config_.midr || (el_ == 1 && pe_state_for(1).el2_enabled))
            return false;
        value = config_.midr;
        return true;
    }
    if (!is(a, id_aa64dfr0_el1) && !is(a, id_aa64dfr1_el1) && !is(a, id_aa64pfr0_el1))
        return false;
    if (is(a, id_aa64dfr1_el1)) {
        value = config_.id_aa64dfr1;
        return true;
    }
    uint64_t v = 0;
    if (!engine_->sysreg(a.op0, a.op1, a.crn, a.crm, a.op2, v))
        return false;
    value = is(a, id_aa64dfr0_el1)
                ? (v & ~dfr0_model_fields) | (config_.id_aa64dfr0 & dfr0_model_fields)
                : (v & ~pfr0_csv3) | (uint64_t{1} << 60);
    return true;
}

// HCR_EL2.TID3 (D24.2.62): with EL2 enabled, EL1 reads of the ID group 3 registers are trapped
// to EL2 (EC 0x18): op0 3, op1 0, CRn 0, CRm 1 (ID_PFR0_EL1 .. ID_MMFR3_EL1) and CRm 2..7 (the
// rest of the AArch32 and AArch64 ID registers and the unallocated encodings among them, which
// without FEAT_FGT it is IMPLEMENTATION DEFINED whether it traps: trapped, as with FEAT_FGT).
// The CPU takes the trap itself: the engine reports its own traps as UNDEFINED at EL1.
bool a64_cpu::id_group3_trapped(const a64_sysreg_access &a)
{
    return a.op0 == 3 && a.op1 == 0 && a.crn == 0 && a.crm >= 1 && a.crm <= 7 &&
           pe_state_for(1).el2_enabled && (get(*engine_, hcr_el2) & hcr_tid3);
}

a64_sysreg_action a64_cpu::model_sysreg(const a64_sysreg_access &a, uint64_t &value)
{
    if (a.read && el_ == 1 && id_group3_trapped(a))
        return sysreg_trap(a, 2);
    if (a.read && el_ >= 1 && id_register(a, value))
        return a64_sysreg_action::done;
    if (is(a, dc_zva) && dc_zva_faults(value))
        return a64_sysreg_action::stop;
    // SYS instructions (cache and TLB maintenance, ...) and the debug registers but the OS Lock
    // ones: the engine's.
    const bool trc = trace_unit_register(a);
    if (a.op0 != 3 && !trc && !os_lock_register(a) && !debug_register(a))
        return a64_sysreg_action::engine;

    pmt_sysreg enc = PMT_SYSREG(a.op0, a.op1, a.crn, a.crm, a.op2);
    bool icc = icc_ && icc_decode(enc) != icc_reg::none;

    // From here on the access reaches the platform: count up to the instruction first.
    auto settle = [&]() {
        if (block_active_) {
            retire_range(block_begin_, a.pc);
            block_begin_ = a.pc;
            end_fast(); // the rest of the block retires by its range
        }
        report();
    };
    // The breakpoint and watchpoint registers and MDSCR_EL1: the CPU's (a64_cpu_debug.cpp).
    if (debug_register(a)) {
        settle();
        return debug_sysreg(a, value);
    }
    // A write that changes the trace context, seen by trace listeners (a64_cpu_trace.cpp).
    if (tracing_ && !a.read && (a.crn == 13 || a.crn == 2) && trace_context_write(a, value)) {
        settle();
        return a64_sysreg_action::done;
    }
    // PSTATE.PM (FEAT_EBEP, FEAT_TRBE_EXC), which the engine does not hold: UNDEFINED at EL0.
    if (have_pm() && is(a, pm_register)) {
        if (el_ == 0) {
            return undefined();
        }
        settle();
        if (a.read) {
            value = pm_ ? spsr_pm : 0;
            return a64_sysreg_action::done;
        }
        set_pm((value & spsr_pm) != 0);
        return a64_sysreg_action::done_stop; // the masking of the Profiling exceptions changed
    }
    // SCR_EL3 is the engine's, but the PE model's state follows its NS, EEL2 and EA (the
    // Security state below EL3, EL2 enabled, the routing of External aborts): the CPU makes the
    // write and tells the PE model at once.
    if (!a.read && is(a, scr_el3) && el_ == 3) {
        settle();
        if (!engine_->set_sysreg(a.op0, a.op1, a.crn, a.crm, a.op2, value))
            return a64_sysreg_action::engine;
        (void)state->set_pe_state(pe_state_for(el_), qk_.get_local_time());
        return a64_sysreg_action::done_stop; // IRQ and SError routing may have changed
    }
    if (icc) {
        settle();
        stats_.sysreg_accesses++;
        const sc_core::sc_time &t = qk_.get_local_time();
        bool ok = a.read ? icc_->read(enc, value, t) : icc_->write(enc, value, t);
        if (!ok) {
            return undefined();
        }
        // A write can make an interrupt deliverable (EOIR, PMR): look before going on.
        return a.read ? a64_sysreg_action::done : a64_sysreg_action::done_stop;
    }
    // The Generic Timer (CNT*), then the PE model: PMU, TRBE, trace filter, MDCR_ELx, PMECR ...
    // (NOT_MINE for the rest).
    bool cnt = timer_ && cnt_decode(enc) != cnt_reg::none;
    // An encoding the PE model answered NOT_MINE for is the engine's (its decoding is fixed by
    // its configuration): Linux reads SP_EL0, TPIDR_EL1, ... all the time.
    const size_t index = sysreg_index(a);
    if (!cnt && (not_mine_[index / 64] >> (index % 64) & 1))
        return a64_sysreg_action::engine;
    settle();
    pmt_access r;
    if (cnt) {
        // A timer write changes its interrupt line at once: the CPU catches up with simulated
        // time first, so the line (and the GIC) see the write when the software makes it.
        if (!a.read) {
            qk_.sync();
            stats_.syncs++;
        }
        timer_pe_state ts = timer_pe_state_of(pe_state_for(el_));
        const sc_core::sc_time &t = qk_.get_local_time();
        r = a.read ? timer_->read(enc, el_, ts, value, t) : timer_->write(enc, el_, ts, value, t);
    } else {
        const sc_core::sc_time &t = qk_.get_local_time();
        if (trc)
            refresh_trap_controls(t); // CPACR_EL1, CPTR_ELx.TTA as they are now
        r = a.read ? sysreg->read_sysreg(enc, value, t) : sysreg->write_sysreg(enc, value, t);
        debug_mdcr(a, value, r == PMT_ACCESS_OK);
        if (!a.read && r == PMT_ACCESS_OK && os_lock_register(a))
            debug_refresh_os_lock();
        // TRCPRGCTLR may have enabled or disabled a trace unit: from the next instruction on.
        if (!a.read && r == PMT_ACCESS_OK && !attached_.empty())
            update_trace_listeners(a.pc + 4);
    }
    switch (r) {
    case PMT_ACCESS_NOT_MINE:
        if (!cnt)
            not_mine_[index / 64] |= uint64_t{1} << (index % 64);
        return a64_sysreg_action::engine;
    case PMT_ACCESS_OK:
        stats_.sysreg_accesses++;
        // A write can change what overflows when (the budget) or raise an interrupt.
        return a.read ? a64_sysreg_action::done : a64_sysreg_action::done_stop;
    case PMT_ACCESS_UNDEFINED: return undefined();
    case PMT_ACCESS_TRAP_EL1:
    case PMT_ACCESS_TRAP_EL2:
    case PMT_ACCESS_TRAP_EL3:
        return sysreg_trap(a, r == PMT_ACCESS_TRAP_EL1 ? 1u : r == PMT_ACCESS_TRAP_EL2 ? 2u : 3u);
    }
    return a64_sysreg_action::engine;
}

} // namespace pmtrace::platform
