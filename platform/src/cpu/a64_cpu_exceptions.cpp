// a64_cpu_exceptions.cpp - exception entry (AArch64.TakeException, J1.1), the stops of the
// engine that become exceptions, IRQ and SError, and PSCI (Arm DEN 0022) as firmware answers it.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"
#include "a64_exception_events.h"

#include <pmtrace/pmt_events.h>

namespace pmtrace::platform
{

using namespace a64;

// AArch64.TakeException: SPSR_ELx, ELR_ELx, ESR_ELx (synchronous and SError), FAR_ELx (aborts),
// PSTATE (the target EL with SP_ELx, D, A, I, F set; PM set with FEAT_EBEP), the vector:
// VBAR_ELx + the group (current EL with SP0, current EL with SPx, lower EL using AArch64) + the
// type. GetPSRFromPSTATE: SPSR_ELx[32] is PSTATE.PM, [33] PSTATE.PPEND (profiling_on_entry).
void a64_cpu::take_exception(unsigned target_el, uint32_t ec, uint32_t iss,
                             uint64_t preferred_return, unsigned vector_type, bool il,
                             bool far_valid, uint64_t far_value)
{
    report();
    a64_trace_context trace_from;
    if (tracing_) {
        trace_next(preferred_return); // a branch before it went there
        trace_from = trace_context_now();
    }
    uint64_t spsr_value = (engine_->reg(a64_reg::pstate) & ~pstate_ss) | step_on_entry();
    unsigned from = static_cast<unsigned>((spsr_value >> 2) & 3);
    if (have_pm() && pm_)
        spsr_value |= spsr_pm;
    uint64_t group = from == target_el ? ((spsr_value & pstate_sp) ? 0x200 : 0x000) : 0x400;
    uint64_t vector = get(*engine_, vbar(target_el)) + group + 0x80 * vector_type;
    uint64_t pstate = (spsr_value & pstate_nzcv) | pstate_d | pstate_a | pstate_i | pstate_f |
                      (uint64_t{target_el} << 2) | pstate_sp;
    engine_->enter(pstate, vector);
    put(*engine_, spsr(target_el), spsr_value);
    put(*engine_, elr(target_el), preferred_return);
    if (vector_type == VEC_SYNC || vector_type == VEC_SERROR)
        put(*engine_, esr(target_el),
            (uint64_t{ec} << 26) | (uint64_t{il ? 1u : 0u} << 25) | (iss & 0x1FFFFFF));
    if (far_valid)
        put(*engine_, far(target_el), far_value);
    stats_.exceptions++;
    if (config_.exception_entry_cycles) {
        // The entry's cycles: nothing issued until the vector's instructions are fetched, stall
        // cycles of the frontend (docs/choices.md).
        qk_.inc(config_.clock_period * static_cast<double>(config_.exception_entry_cycles));
        count_stall(PMT_EV_STALL_FRONTEND, config_.exception_entry_cycles);
    }
    const sc_core::sc_time &t = qk_.get_local_time();
    // The events are attributed to the state the exception was taken from (D13.7.3).
    uint64_t hcr = config_.have_el2 ? get(*engine_, hcr_el2) : 0;
    bool local = taken_locally(from, target_el, (hcr & hcr_e2h) && (hcr & hcr_tge));
    (void)events->count_event(PMT_EV_EXC_TAKEN, 1, t);
    (void)events->count_event(exception_event(vector_type, ec, local, target_el), 1, t);
    el_ = target_el;
    // Trace listeners hear of the exception while the PE model still holds the state it was
    // taken from (a trace unit decides there whether it is traced: pmt_ete.h).
    if (tracing_)
        trace_exception(vector_type, ec, preferred_return, trace_from);
    profiling_on_entry(target_el, spsr_value); // tells the PE model the new state
}

// A synchronous exception from the current state: to EL1, or EL2 when already there or when
// HCR_EL2.TGE routes EL0's exceptions to it.
void a64_cpu::take_sync(uint32_t ec, uint32_t iss, uint64_t preferred_return, bool il,
                        bool far_valid, uint64_t far_value)
{
    take_exception(sync_target_el(), ec, iss, preferred_return, VEC_SYNC, il, far_valid, far_value);
}

// Where an IRQ or an SError goes (D1.3.6, the interrupt routing tables): EL3 when SCR_EL3.IRQ
// (SCR_EL3.EA) routes it there; EL2 when EL2 is enabled and HCR_EL2.IMO (AMO) or TGE routes it
// there; EL1 otherwise.
unsigned a64_cpu::interrupt_target(uint64_t scr_bit, uint64_t hcr_bit)
{
    const uint64_t scr = scr_el3_value();
    if (scr & scr_bit)
        return 3;
    const bool el2_enabled = config_.have_el2 && (scr & (scr_ns | scr_eel2));
    if (el2_enabled && (get(*engine_, hcr_el2) & (hcr_bit | hcr_tge)))
        return 2;
    return 1;
}

// An interrupt is taken when routed to a higher Exception level, or to this one with its
// PSTATE mask bit clear; never when routed to a lower one (it stays pending).
bool a64_cpu::interrupt_taken(unsigned target, uint64_t mask)
{
    const unsigned el = current_el();
    if (target != el)
        return target > el;
    return (engine_->reg(a64_reg::pstate) & mask) == 0;
}

bool a64_cpu::irq_deliverable()
{
    return irq_level_ && interrupt_taken(interrupt_target(scr_irq, hcr_imo), pstate_i);
}

void a64_cpu::take_irq()
{
    stats_.irqs++;
    const uint64_t pc = engine_->reg(a64_reg::pc);
    if (irq_observer_)
        irq_observer_(pc, current_el());
    take_exception(interrupt_target(scr_irq, hcr_imo), 0, 0, pc, VEC_IRQ);
}

// An SError interrupt (the TRBE's External abort on a trace write), with ESR.ISS IDS 0 and DFSC
// 0b010001 (asynchronous SError).
void a64_cpu::take_serror()
{
    const unsigned target = interrupt_target(scr_ea, hcr_amo);
    if (!interrupt_taken(target, pstate_a))
        return; // stays pending
    serror_pending_ = false;
    stats_.serrors++;
    take_exception(target, EC_SERROR, 0x11, engine_->reg(a64_reg::pc), VEC_SERROR);
}

void a64_cpu::handle_stop(const a64_stop &stop)
{
    switch (stop.reason) {
    case a64_stop_reason::requested: on_block_cut(stop.pc); break;
    case a64_stop_reason::sysreg:
        if (pending_exception_) {
            pending_exception_ = false;
            const bool far_valid = pending_far_valid_;
            pending_far_valid_ = false;
            if (pending_target_ <= 1)
                take_sync(pending_ec_, pending_iss_, stop.pc, true, far_valid, pending_far_);
            else
                take_exception(std::max(pending_target_, current_el()), pending_ec_, pending_iss_,
                               stop.pc, VEC_SYNC);
        }
        break;
    case a64_stop_reason::wfi:
        on_block_cut(stop.pc);
        stats_.wfis++;
        report();
        // WFI: idle in simulated time until an interrupt is pending (masked or not).
        qk_.sync();
        // A Profiling exception to take ends the WFI as an interrupt does (docs/choices.md).
        while (!irq_level_ && !serror_pending_ && !profiling_pending())
            sc_core::wait(wake_);
        qk_.reset();
        break;
    case a64_stop_reason::exception: handle_exception(stop); break;
    case a64_stop_reason::bus_error: bus_error_stop(); break;
    case a64_stop_reason::fetch: fetch_stop(stop); break;
    case a64_stop_reason::error:
        on_block_cut(stop.pc);
        fail("engine stopped at pc " + hex(stop.pc) + ": " + stop.detail);
        break;
    }
}

void a64_cpu::handle_exception(const a64_stop &stop)
{
    uint32_t insn = 0;
    switch (stop.exception) {
    case a64_exception::svc:
    case a64_exception::hvc:
    case a64_exception::smc: {
        const uint64_t at = stop.pc - 4;
        if (stop.exception == a64_exception::hvc && !psci_conduit(stop.exception) &&
            hvc_undefined()) {
            on_block_cut(at); // UNDEFINED: the HVC does not retire
            take_sync(EC_UNKNOWN, 0, at);
            return;
        }
        on_block_cut(stop.pc); // the instruction retired
        (void)read_code(at, insn);
        const uint32_t imm16 = (insn >> 5) & 0xFFFF;
        if (stop.exception == a64_exception::svc)
            take_sync(EC_SVC64, imm16, stop.pc);
        else if (psci_conduit(stop.exception))
            (void)psci_call(stop.pc);
        else if (stop.exception == a64_exception::smc)
            take_exception(3, EC_SMC64, imm16, stop.pc, VEC_SYNC);
        else
            take_exception(std::max(2u, current_el()), EC_HVC64, imm16, stop.pc, VEC_SYNC);
        return;
    }
    case a64_exception::smc_trapped: // HCR_EL2.TSC: the SMC does not retire
        on_block_cut(stop.pc);
        (void)read_code(stop.pc, insn);
        take_exception(2, EC_SMC64, (insn >> 5) & 0xFFFF, stop.pc, VEC_SYNC);
        return;
    case a64_exception::brk: // AArch64.SoftwareBreakpoint: routed as the debug exceptions
        on_block_cut(stop.pc);
        (void)read_code(stop.pc, insn);
        take_exception(debug_target_el(), EC_BRK64, (insn >> 5) & 0xFFFF, stop.pc, VEC_SYNC);
        return;
    case a64_exception::undefined:
        on_block_cut(stop.pc);
        if (pm_instruction(stop.pc)) // MSR PM, #imm: unknown to the engine
            return;
        if (config_.semihosting && semihosting_call(stop.pc))
            return;
        take_sync(EC_UNKNOWN, 0, stop.pc);
        return;
    case a64_exception::instruction_abort:
    case a64_exception::data_abort: take_abort(stop); return;
    default:
        on_block_cut(stop.pc);
        fail("an exception the engine reports and the CPU does not model, at pc " + hex(stop.pc));
        return;
    }
}

// The firmware the CPU stands in for answers PSCI calls on the boot conduit: HVC when the image
// is entered at EL1, SMC at EL1 or EL2. Entered at EL3, the image is the firmware.
bool a64_cpu::psci_conduit(a64_exception e) const
{
    if (config_.entry_el == 3)
        return false;
    return e == a64_exception::smc || (e == a64_exception::hvc && config_.entry_el == 1);
}

// HVC is UNDEFINED without EL2, or where EL2 is not enabled (Secure state without
// SCR_EL3.EEL2); the engine has checked SCR_EL3.HCE and EL0. Otherwise it is taken to EL2, or to
// EL3 from EL3.
bool a64_cpu::hvc_undefined()
{
    const unsigned el = current_el();
    return el < 3 && !pe_state_for(el).el2_enabled;
}

// PSCI 1.0 (Arm DEN 0022D) for one PE, as firmware answers it on the conduit; SMCCC calls it does
// not know answer NOT_SUPPORTED. The call is invisible to the PMU (firmware's own time is not
// modelled), as with QEMU's built-in PSCI.
bool a64_cpu::psci_call(uint64_t pc_next)
{
    constexpr int64_t success = 0, not_supported = -1, invalid = -2, already_on = -4;
    uint64_t fn = engine_->x(0) & 0xFFFF'FFFF;
    bool smc64 = (fn & 0x4000'0000) != 0;
    uint64_t base = fn & ~uint64_t{0x4000'0000};
    int64_t result = not_supported;
    uint64_t mpidr = 0;
    engine_->sysreg(3, 0, 0, 0, 5, mpidr);
    mpidr &= 0xFF'00FF'FFFF;
    auto is_psci_fn = [&](uint64_t id) {
        switch (id) {
        case 0x8400'0000:
        case 0x8400'0001:
        case 0x8400'0002:
        case 0x8400'0003:
        case 0x8400'0004:
        case 0x8400'0006:
        case 0x8400'0008:
        case 0x8400'0009:
        case 0x8400'000A: return true;
        default: return false;
        }
    };
    switch (base) {
    case 0x8400'0000: result = 0x1'0000; break;      // PSCI_VERSION: 1.0
    case 0x8400'0001: result = success; break;       // CPU_SUSPEND: returns at once (a wake-up)
    case 0x8400'0002: result = not_supported; break; // CPU_OFF of the last PE: denied
    case 0x8400'0003:
        result = (engine_->x(1) & 0xFF'00FF'FFFF) == mpidr ? already_on : invalid;
        break;
    case 0x8400'0004: // AFFINITY_INFO: this PE is ON
        result = (engine_->x(1) & 0xFF'00FF'FFFF) == mpidr && engine_->x(2) == 0 ? 0 : invalid;
        break;
    case 0x8400'0006: result = 2; break; // MIGRATE_INFO_TYPE: no Trusted OS
    case 0x8400'0008:                    // SYSTEM_OFF
        if (smc64)
            break;
        end_ = a64_cpu_end::system_off;
        return true;
    case 0x8400'0009: // SYSTEM_RESET
        if (smc64)
            break;
        end_ = a64_cpu_end::system_reset;
        return true;
    case 0x8400'000A: // PSCI_FEATURES
        result = is_psci_fn(engine_->x(1) & ~uint64_t{0x4000'0000} & 0xFFFF'FFFF) ? success
                                                                                  : not_supported;
        break;
    default: break;
    }
    if (smc64 && base != 0x8400'0001 && base != 0x8400'0003 && base != 0x8400'0004)
        result = not_supported; // only these have SMC64 forms
    engine_->set_x(0, static_cast<uint64_t>(result));
    engine_->set_reg(a64_reg::pc, pc_next);
    return true;
}

} // namespace pmtrace::platform
