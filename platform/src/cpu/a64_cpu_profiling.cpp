// a64_cpu_profiling.cpp - the Profiling exceptions of the AArch64 CPU (a64_cpu.h): the PMU's
// (FEAT_EBEP D13.3.2, asynchronous; FEAT_SEBEP D13.3.3, synchronous through PSTATE.PPEND) and the
// Trace Buffer Unit's (FEAT_TRBE_EXC, D6.5), PSTATE.PM, which the engine does not hold, and
// SPSR_ELx.{PM, PPEND} across exception entry and return.
//
// The PE model decides everything (enabled, target, masked, pending, PPEND); the CPU takes what
// it is told at instruction boundaries and tells the model what it needs:
// - the asynchronous exceptions arrive as requests (pe_model::pmu_exception, trbe_exception:
//   pending and unmasked, with the target EL); a request that rises during a run stops it at
//   the next instruction boundary, through the stop points the run already has (stop_at_ and
//   the engine's request_stop);
// - with FEAT_SEBEP, the last instruction of each run is retired into the model
//   (sync_profiling_if::retire). That is the one RNZLVW can apply to: a run ends right after
//   an instruction that overflows a counter (the PMU's headroom), and while an overflow flag
//   is already set the headroom of its event is 1 (pmt_pmu_headroom), so the run ends after
//   the next instruction that generates it. No per-instruction work otherwise;
// - every exception entry and ERET goes through exception_entry / exception_return (with
//   FEAT_SEBEP) or set_pe_state, with PSTATE.PM.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"

namespace pmtrace::platform
{

using namespace a64;

namespace
{
// TakeProfilingException's ISS<5:1> (J1.1, CheckForPMUException and CheckForTRBEException).
constexpr uint32_t fsc_pmu = 0b00000;
constexpr uint32_t fsc_trbe = 0b00010;
} // namespace

void a64_cpu::profiling_request::set_exception_request(bool p, unsigned el)
{
    pending = p;
    target_el = el;
    cpu->profiling_requested(p);
}

// RDKCTL, RYXTTY: taken in finite time, before the next instruction that can be stopped.
void a64_cpu::profiling_requested(bool pending)
{
    if (!pending)
        return;
    wake_.notify(sc_core::SC_ZERO_TIME);
    if (in_engine_)
        stop_before_next();
}

// The run stops before the next instruction: on_block stops once retired_ reaches stop_at_, and
// a request stops a block already running at its next boundary.
void a64_cpu::stop_before_next()
{
    stop_at_ = retired_;
    if (in_engine_)
        engine_->request_stop();
}

// At an instruction boundary: RHLYTW's synchronous PMU exception first (the instruction there
// would take it), then the asynchronous PMU exception (RKBPMJ), then the TRBE's (RMFMXQ,
// IMTLSX). Their relative priority is IMPLEMENTATION DEFINED (IGMXLL; for the three TRBE
// sources the PE model's choice): docs/choices.md. Each one taken changes the state (PSTATE.PM,
// the EL), and the requests follow at once; a few rounds take what is still unmasked.
void a64_cpu::take_profiling_exceptions()
{
    for (unsigned round = 0; round < 4 && end_ == a64_cpu_end::running; round++) {
        if (sync_due_) {
            sync_due_ = false;
            pmtrace::sync_profiling_if *p = config_.sebep ? profiling.get_interface(0) : nullptr;
            if (p) {
                const pmt_pmu_exception_state s = p->pmu_exception_state();
                if (s.sync_due) {
                    take_profiling(s.target_el, fsc_pmu, true);
                    continue;
                }
            }
        }
        if (pmu_request_.pending)
            take_profiling(pmu_request_.target_el, fsc_pmu, false);
        else if (trbe_request_.pending)
            take_profiling(trbe_request_.target_el, fsc_trbe, false);
        else
            return;
    }
}

// TakeProfilingException (J1.1): ExceptionSyndrome(Exception_Profiling), EC 0x3D, IL 1,
// ISS<5:1> the source, ISS<0> 1 when synchronous; the preferred return ThisInstrAddr: the
// instruction not executed; vector offset 0x0 (IKLVCH: the offset for non-interrupt exceptions,
// also for the asynchronous ones) in the group of the state taken from.
void a64_cpu::take_profiling(unsigned target_el, uint32_t fsc, bool synchronous)
{
    if (target_el < current_el() || target_el > 3 || (target_el == 3 && !config_.have_el3) ||
        (target_el == 2 && !config_.have_el2)) {
        // Not a target the PE model gives for the state it was told: not taken (logged once).
        if (!bad_profiling_target_)
            SC_REPORT_WARNING(name(), ("a Profiling exception to EL" + std::to_string(target_el) +
                                       " from EL" + std::to_string(current_el()) +
                                       " is not taken: not a target for this state")
                                          .c_str());
        bad_profiling_target_ = true;
        return;
    }
    stats_.profiling_exceptions++;
    take_exception(target_el, EC_PROFILING, (fsc << 1) | (synchronous ? 1u : 0u),
                   engine_->reg(a64_reg::pc), VEC_SYNC);
}

// FEAT_SEBEP: the last instruction retired ends (ShouldSetPPEND): RNZLVW sets PPEND and
// PMIAR_EL1, or PPEND becomes 0. Its events were reported first (report()).
void a64_cpu::profiling_after_run()
{
    if (!config_.sebep || retired_ == retire_reported_)
        return;
    retire_reported_ = retired_;
    pmtrace::sync_profiling_if *p = profiling.get_interface(0);
    if (!p)
        return;
    bool due = false;
    (void)p->retire(last_retired_, false, due, qk_.get_local_time());
    sync_due_ = due;
}

// AArch64.TakeException: PSTATE.PM = 1 with FEAT_EBEP. RBVBYS (FEAT_SEBEP): PSTATE.PPEND goes to
// SPSR_ELx[33] and becomes 0 (the PE model holds it: exception_entry). The instructions before
// were ended by the entry (ShouldSetPPEND = FALSE).
void a64_cpu::profiling_on_entry(unsigned target_el, uint64_t spsr_value)
{
    if (config_.ebep)
        pm_ = true;
    sync_due_ = false;
    retire_reported_ = retired_;
    const pmt_pe_state after = pe_state_for(target_el);
    const sc_core::sc_time &t = qk_.get_local_time();
    pmtrace::sync_profiling_if *p = config_.sebep ? profiling.get_interface(0) : nullptr;
    bool ppend = false;
    if (p && p->exception_entry(after, ppend, t) == PMT_OK) {
        if (ppend)
            put(*engine_, spsr(target_el), spsr_value | spsr_ppend);
        return;
    }
    (void)state->set_pe_state(after, t);
}

// An ERET at el_ (it retired; the engine is at its target): SetPSTATEFromPSR restores PSTATE.PM
// from SPSR_ELx[32] (on an illegal return too: it is "reinstated regardless"); with FEAT_SEBEP
// ExceptionReturnPPEND (Table D13-2) decides PPEND from SPSR_ELx[33], in the PE model, and the
// target instruction takes the PMU exception when it set PPEND (RGBQFX).
void a64_cpu::profiling_on_eret(uint64_t eret_pc)
{
    const unsigned el = current_el();
    const uint64_t spsr_value = el_ >= 1 ? get(*engine_, spsr(el_)) : 0;
    if (have_pm())
        pm_ = (spsr_value & spsr_pm) != 0;
    retire_reported_ = retired_;
    el_ = el;
    const pmt_pe_state after = pe_state_for(el);
    const sc_core::sc_time &t = qk_.get_local_time();
    pmtrace::sync_profiling_if *p = config_.sebep ? profiling.get_interface(0) : nullptr;
    bool due = false;
    if (!p || p->exception_return((spsr_value & spsr_ppend) != 0, after, eret_pc, due, t) != PMT_OK)
        (void)state->set_pe_state(after, t);
    // Filtering by Exception level and the masking of the exceptions changed: the budget again.
    plan();
    sync_due_ = due;
    if (due || profiling_pending()) // plan() moved stop_at_: stop again for what is to take
        stop_before_next();
}

// MSR PM, #<imm> (MSR (immediate): op1 0b001, CRm 0b001:imm, op2 0b000), which the engine
// reports UNDEFINED: with PSTATE.PM implemented the CPU performs it. UNDEFINED at EL0, as MRS and
// MSR of the PM register (docs/choices.md).
bool a64_cpu::pm_instruction(uint64_t pc)
{
    uint32_t insn = 0;
    if (!have_pm() || current_el() == 0 || !read_code(pc, insn) ||
        (insn & ~uint32_t{0x100}) != 0xD501421Fu)
        return false;
    retire_one(insn, pc);
    set_pm(((insn >> 8) & 1) != 0);
    engine_->set_reg(a64_reg::pc, pc + 4);
    return true;
}

// A write of PSTATE.PM (MSR PM): the Profiling exceptions' masking follows (RSCBDZ, RMFMXQ).
void a64_cpu::set_pm(bool pm)
{
    report();
    if (pm == pm_)
        return;
    pm_ = pm;
    (void)state->set_pe_state(pe_state_for(el_), qk_.get_local_time());
}

} // namespace pmtrace::platform
