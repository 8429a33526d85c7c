// a64_cpu.cpp - the AArch64 CPU (a64_cpu.h): the thread that runs the engine, boot, and the PE
// state it tells the PE model. The accounting of retired instructions and their events is in
// a64_cpu_accounting.cpp; exceptions, devices and system registers in
// a64_cpu_{exceptions,device,sysreg}.cpp.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"
#include "hal/hal_impl.h"

#include <pmtrace/pmt_events.h>
#include <pmtrace/pmt_regs.h>

#include <algorithm>
#include <string>

namespace pmtrace::platform
{

using namespace a64;

a64_cpu::a64_cpu(const sc_core::sc_module_name &name, const a64_cpu_config &config,
                 std::unique_ptr<a64_engine> engine)
    : sc_module(name), bus("bus"), sysreg("sysreg"), events("events"), state("state"), trbe("trbe"),
      profiling("profiling"), irq("irq"), serror("serror"), pmu_exception("pmu_exception"),
      trbe_exception("trbe_exception"), trbe_translation("trbe_translation"),
      trbe_physical("trbe_physical"), config_(config), engine_(std::move(engine)),
      blocks_(block_cache_size)
{
    irq.bind(*this);
    serror.bind(*this);
    pmu_request_.cpu = this;
    trbe_request_.cpu = this;
    pmu_exception.bind(pmu_request_);
    trbe_exception.bind(trbe_request_);
    trbe_walker_.cpu = this;
    trbe_translation.bind(trbe_walker_);
    if (config_.cycles_per_instruction == 0)
        config_.cycles_per_instruction = 1;
    batch_.resize(std::clamp(config_.trace_batch, 1u, a64_trace_batch_max));
    batch_times_.cpu = this;
    batch_times_.retired.resize(batch_.size());
    if (config_.entry_el < 1 || config_.entry_el > 3 ||
        (config_.entry_el == 2 && !config_.have_el2) ||
        (config_.entry_el == 3 && !config_.have_el3))
        error_ = "a64_cpu: entry_el must be 1, 2 with EL2, or 3 with EL3";
    if ((config_.trace_batch < 1 || config_.trace_batch > a64_trace_batch_max) && error_.empty())
        error_ = "a64_cpu: trace_batch must be 1.." + std::to_string(a64_trace_batch_max);
    if (!engine_ && error_.empty()) {
        std::string why;
        engine_ = make_unicorn_engine(why);
        if (!engine_)
            error_ = why;
    }
    if (engine_) {
        engine_->set_client(this);
        (void)engine_->set_block_repeat(&repeat_);
    }
    if (config_.exec_log) {
        exec_log_ = std::make_unique<a64_exec_log>();
        add_trace_listener(exec_log_.get());
    }
    tlm_utils::tlm_quantumkeeper::set_global_quantum(config_.quantum);
    qk_.reset();
    SC_HAS_PROCESS(a64_cpu);
    SC_THREAD(main);
}

a64_cpu::~a64_cpu() = default;

bool a64_cpu::map_ram(uint64_t base, uint64_t size, uint8_t *host)
{
    if (!engine_)
        return false;
    std::string why;
    if (!engine_->map_memory(base, size, host, why)) {
        error_ = why;
        return false;
    }
    ram_.emplace_back(base, size);
    return true;
}

void a64_cpu::set_boot(uint64_t pc, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3)
{
    boot_set_ = true;
    boot_pc_ = pc;
    boot_x_ = {x0, x1, x2, x3};
}

void a64_cpu::set_level(bool level, const sc_core::sc_time &)
{
    if (level == irq_level_)
        return;
    irq_level_ = level;
    if (level) {
        repeat_.left = 0;
        wake_.notify(sc_core::SC_ZERO_TIME);
        if (in_engine_)
            engine_->request_stop();
    }
}

void a64_cpu::notify_event(const sc_core::sc_time &)
{
    serror_pending_ = true;
    repeat_.left = 0;
    wake_.notify(sc_core::SC_ZERO_TIME);
    if (in_engine_)
        engine_->request_stop();
}

void a64_cpu::fail(const std::string &why)
{
    if (error_.empty())
        error_ = why;
    end_ = a64_cpu_end::error;
    SC_REPORT_ERROR(name(), why.c_str());
}

bool a64_cpu::is_ram(uint64_t pa, uint64_t size) const
{
    for (const auto &[base, bytes] : ram_)
        if (pa >= base && pa - base < bytes && size <= bytes - (pa - base))
            return true;
    return false;
}

namespace
{

const char *stop_name(const a64_stop &stop)
{
    switch (stop.reason) {
    case a64_stop_reason::requested: return "a stop the CPU asked for";
    case a64_stop_reason::sysreg: return "a system register access";
    case a64_stop_reason::wfi: return "a WFI";
    case a64_stop_reason::exception: return "an exception the engine raised";
    case a64_stop_reason::bus_error: return "a device access that answered an error";
    case a64_stop_reason::fetch: return "an instruction fetch outside RAM";
    case a64_stop_reason::error: return "an engine error";
    }
    return "a stop";
}

} // namespace

// The progress guard: stops in a row without an instruction retired. A WFI waits in simulated
// time and an interrupt's handler retires instructions, so only software that can never go on
// (an exception taken again and again at a vector that cannot be fetched) comes here.
void a64_cpu::check_progress(const a64_stop &stop)
{
    if (retired_ != progress_retired_ || stop.reason == a64_stop_reason::wfi) {
        progress_retired_ = retired_;
        progress_exceptions_ = stats_.exceptions;
        progress_stops_ = 0;
        return;
    }
    if (!config_.no_progress_limit || end_ != a64_cpu_end::running ||
        ++progress_stops_ < config_.no_progress_limit)
        return;
    const uint64_t pc = engine_->reg(a64_reg::pc);
    std::string why = "no progress: " + std::to_string(progress_stops_) +
                      " stops in a row without an instruction retired, at pc " + hex(pc) + " (EL" +
                      std::to_string(current_el()) + "); the last: " + stop_name(stop);
    if (stop.reason == a64_stop_reason::fetch)
        why += " at " + hex(stop.address);
    why += "; " + std::to_string(stats_.exceptions - progress_exceptions_) +
           " exceptions taken meanwhile";
    fail(why);
}

// ---- the thread -----------------------------------------------------------------------------

void a64_cpu::main()
{
    qk_.reset();
    if (!error_.empty() || !engine_) {
        fail(error_.empty() ? "no engine" : error_);
    } else if (!boot_set_) {
        fail("nothing to run: no boot address (set_boot)");
    } else {
        boot();
    }
    while (end_ == a64_cpu_end::running) {
        if (serror_pending_)
            take_serror();
        if (config_.profiling_before_irq)
            take_profiling_exceptions();
        if (irq_deliverable())
            take_irq();
        if (!config_.profiling_before_irq)
            take_profiling_exceptions();
        take_step_if_pending();
        plan();
        in_engine_ = true;
        a64_stop stop = engine_->run();
        in_engine_ = false;
        trace_flush();
        count_repeats();
        device_insn_done();
        end_fast();
        handle_stop(stop);
        step_after_run();
        // A stop before an instruction a breakpoint or watchpoint may match (debug_stop), unless
        // a Software Step exception comes first.
        if (stop.reason == a64_stop_reason::requested &&
            !((debug_.mdscr & mdscr_ss) && !pstate_ss_))
            debug_check(stop.pc);
        check_progress(stop);
        report();
        profiling_after_run();
        if (qk_.need_sync() || qk_.get_local_time() >= sync_point()) {
            qk_.sync();
            stats_.syncs++;
        }
    }
    report();
    if (tracing_ && engine_)
        trace_end();
    qk_.sync();
    if (config_.stop_at_end)
        sc_core::sc_stop();
}

// What firmware (TF-A, a hypervisor) leaves and the boot loader does (QEMU hw/arm/boot.c): the
// image entered at entry_el with the MMU off, interrupts masked, x0 the device tree. Entered at
// EL3 the image is the firmware: the PE as it leaves reset, nothing set up for it.
void a64_cpu::boot()
{
    const sc_core::sc_time &t = qk_.get_local_time();
    pm_ = false; // PSTATE.PM as firmware's ERET leaves it (docs/choices.md)
    // VPIDR_EL2 out of reset: the MIDR EL1 reads with EL2 enabled (as QEMU resets it).
    if (config_.midr && config_.have_el2)
        put(*engine_, vpidr_el2, config_.midr);
    if (config_.firmware && config_.entry_el < 3) {
        // With FEAT_EBEP, EL3 gives PMECR_EL1 and PMIAR_EL1 to lower levels (MDCR_EL3.EnPM2, as
        // with FEAT_PMUv3p9), and EL3 and a hypervisor defer the PMU Profiling exception to the
        // software entered (MDCR_EL3.PMEE = 0b01, MDCR_EL2.PMEE = 0b01: RGWLVY); with FEAT_TRBE_EXC
        // the hypervisor lets EL1 use the TRBE Profiling exception (TRFCR_EL2.EE = 0b01: RMFMXQ,
        // IPRSXC). docs/choices.md.
        if (config_.have_el3) {
            (void)state->set_pe_state(pe_state_for(3), t);
            (void)sysreg->write_sysreg(hal_sysreg_to_pmt(HAL_MDCR_EL3),
                                       hal_firmware_mdcr_el3(config_.pmuv3p9 || config_.ebep,
                                                             config_.trbe, config_.trbe_exc) |
                                           (config_.ebep ? PMT_PUT(MDCR_EL3, PMEE, 1) : 0),
                                       t);
        }
        if (config_.have_el2 && config_.entry_el < 2 && timer_) {
            // CNTHCTL_EL2: EL1 uses the physical counter and timer.
            (void)timer_->write(PMT_SYSREG(3, 4, 14, 1, 0), 2, timer_pe_state_of(pe_state_for(2)),
                                cnthctl_el1pcten | cnthctl_el1pcen, t);
        }
        if (config_.have_el2 && config_.entry_el < 2) {
            (void)state->set_pe_state(pe_state_for(2), t);
            (void)sysreg->write_sysreg(
                hal_sysreg_to_pmt(HAL_MDCR_EL2),
                hal_firmware_mdcr_el2(config_.num_counters, config_.trbe, config_.entry_el) |
                    (config_.ebep ? PMT_PUT(MDCR_EL2, PMEE, 1) : 0),
                t);
            if (config_.trbe_exc)
                (void)sysreg->write_sysreg(hal_sysreg_to_pmt(HAL_TRFCR_EL2),
                                           PMT_PUT(TRFCR_EL2, EE, 1), t);
        }
    }
    el_ = config_.entry_el;
    if (boot_hook_)
        boot_hook_();
    (void)state->set_pe_state(pe_state_for(el_), t);
    debug_configure();
    debug_refresh_os_lock();
    // EL1h, EL2h or EL3h, D, A, I and F masked.
    engine_->enter(0x3C0 | (uint64_t{config_.entry_el} << 2) | 1, boot_pc_);
    for (unsigned n = 0; n < 4; n++)
        engine_->set_x(n, boot_x_[n]);
}

void a64_cpu::debug_access(const debug_access_function &access)
{
    const sc_core::sc_time t = qk_.get_local_time();
    const unsigned highest = config_.have_el3 ? 3 : config_.have_el2 ? 2 : 1;
    (void)state->set_pe_state(pe_state_for(highest), t);
    access(*sysreg[0], trbe.size() ? trbe[0] : nullptr, t);
    (void)state->set_pe_state(pe_state_for(el_), t);
    update_trace_listeners();
}

// The Exception level may have changed (an ERET, a PSTATE write the engine executed).
void a64_cpu::check_state(bool eret)
{
    unsigned el = current_el();
    if (!eret && el == el_) {
        if (debug_in_use())
            debug_replan(); // PSTATE.D may have changed what debug exceptions are generated
        return;
    }
    report();
    if (eret) {
        step_on_eret(el_);
        (void)events->count_event(PMT_EV_EXC_RETURN, 1, qk_.get_local_time());
        if (have_pm() || config_.sebep) {
            // The ERET ends the block that just retired (blocks end at branches).
            profiling_on_eret(block_end_ - 4);
            if (debug_in_use())
                debug_replan();
            return;
        }
    }
    if (el != el_) {
        el_ = el;
        (void)state->set_pe_state(pe_state_for(el_), qk_.get_local_time());
        // Filtering by Exception level changes what counts: the budget again.
        plan();
    } else if (debug_in_use()) {
        debug_replan();
    }
}

unsigned a64_cpu::current_el()
{
    return static_cast<unsigned>((engine_->reg(a64_reg::pstate) >> 2) & 3);
}

// SCR_EL3 as the software left it; without EL3, as if NS were 1 (Non-secure, the only state).
uint64_t a64_cpu::scr_el3_value()
{
    return config_.have_el3 && engine_ ? get(*engine_, scr_el3) : scr_ns;
}

// The Security state follows SCR_EL3.NS below EL3 (EL3 is Secure); EL2 is enabled in it when
// implemented and SCR_EL3.NS is 1 (EL2Enabled() without FEAT_SEL2).
pmt_pe_state a64_cpu::pe_state_for(unsigned el)
{
    const uint64_t scr = scr_el3_value();
    pmt_pe_state s{};
    s.el = static_cast<uint8_t>(el);
    s.scr_ns = (scr & scr_ns) != 0;
    // The platform's PE has no FEAT_SEL2 (the PE model is made without have_sel2): EEL2 is
    // RES0 for it, and the model refuses a state whose el2_enabled disagrees with SCR_EL3.
    s.scr_eel2 = false;
    s.scr_ea = (scr & scr_ea) != 0;
    s.ss = el == 3 || !s.scr_ns ? PMT_SS_SECURE : PMT_SS_NONSECURE;
    s.el2_enabled = config_.have_el2 && s.scr_ns;
    s.pm = pm_;
    if (config_.have_el2 && engine_) {
        const uint64_t hcr = get(*engine_, hcr_el2);
        s.hcr_tge = (hcr & hcr_tge) != 0;
        s.hcr_e2h = (hcr & hcr_e2h) != 0;
    }
    trap_controls(s);
    return s;
}

// The trace unit's trap controls (D24.4's accessibility pseudocode): CPACR_EL1.TTA [28],
// CPTR_EL2.TTA ([20], or [28] with HCR_EL2.E2H), CPTR_EL3.TTA [20].
void a64_cpu::trap_controls(pmt_pe_state &s)
{
    if (!config_.ete || !engine_)
        return;
    s.cpacr_tta = (get(*engine_, cpacr_el1) >> 28) & 1;
    if (config_.have_el2)
        s.cptr_el2_tta = (get(*engine_, cptr_el2) >> (s.hcr_e2h ? 28 : 20)) & 1;
    if (config_.have_el3)
        s.cptr_el3_tta = (get(*engine_, cptr_el3) >> 20) & 1;
}

// Before a trace unit register access: the PE model gets the trap controls the software last
// wrote (the engine holds CPACR_EL1 and CPTR_ELx; their writes do not reach the CPU model).
void a64_cpu::refresh_trap_controls(const sc_core::sc_time &t)
{
    pmt_pe_state now = state->pe_state();
    const pmt_pe_state before = now;
    trap_controls(now);
    if (now.cpacr_tta != before.cpacr_tta || now.cptr_el2_tta != before.cptr_el2_tta ||
        now.cptr_el3_tta != before.cptr_el3_tta)
        (void)state->set_pe_state(now, t);
}

} // namespace pmtrace::platform
