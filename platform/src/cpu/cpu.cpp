// cpu.cpp - the host-driven CPU (cpu.h).
#include <pmtrace/platform/cpu/cpu.h>

#include "bus/bus_access.h"
#include "hal/hal_impl.h"

#include <algorithm>
#include <cstring>

namespace pmtrace::platform
{

namespace
{

bool is_cpu_register(hal_sysreg reg)
{
    return reg == HAL_CURRENTEL || reg == HAL_MPIDR_EL1 || reg == HAL_ID_AA64DFR0_EL1 ||
           reg == HAL_ID_AA64DFR1_EL1;
}

bool is_icc(hal_sysreg reg)
{
    return icc_decode(hal_sysreg_to_pmt(reg)) != icc_reg::none;
}

cpu *self(void *ctx)
{
    return static_cast<cpu *>(ctx);
}

// The HAL's table: each entry forwards to the CPU.
const hal_ops cpu_ops = {
    [](void *c, hal_sysreg r, uint64_t *v) { return self(c)->sysreg_read(r, *v); },
    [](void *c, hal_sysreg r, uint64_t v) { return self(c)->sysreg_write(r, v); },
    [](void *c) { self(c)->barrier(); },
    [](void *c) { self(c)->barrier(); },
    [](void *c) { self(c)->tsb_csync(); },
    [](void *c, uint64_t pa, unsigned size, uint64_t *v) {
        *v = 0;
        return self(c)->mmio(false, pa, size, *v);
    },
    [](void *c, uint64_t pa, unsigned size, uint64_t v) {
        return self(c)->mmio(true, pa, size, v);
    },
    [](void *c, uint64_t va, void *dst, size_t n) { return self(c)->mem_read(va, dst, n); },
    [](void *c, bool masked) { return self(c)->irq_mask(masked); },
    [](void *c) { return self(c)->wait_for_interrupt(); },
    [](void *c, hal_irq_entry e, void *arg) { self(c)->set_irq_entry(e, arg); },
    [](void *c, const hal_work *w) { return w ? self(c)->run(*w) : HAL_INVALID; },
    [](void *c, const char *text, size_t n) { self(c)->console_write(text, n); },
};

} // namespace

cpu::cpu(const sc_core::sc_module_name &name, const cpu_config &config)
    : sc_module(name), bus("bus"), sysreg("sysreg"), events("events"), state("state"), irq("irq"),
      trace_out("trace_out"), trbe("trbe"), serror("serror"), config_(config)
{
    irq.bind(*this);
    serror.bind(*this);
    hal_.ops = &cpu_ops;
    hal_.ctx = this;
    tlm_utils::tlm_quantumkeeper::set_global_quantum(config_.quantum);
    qk_.reset();
    kernel_.el = 1;
    kernel_.ss = PMT_SS_NONSECURE;
    kernel_.el2_enabled = config_.have_el2;
    SC_HAS_PROCESS(cpu);
    SC_THREAD(main);
}

void cpu::set_level(bool level, const sc_core::sc_time &)
{
    if (level != irq_level_) {
        irq_level_ = level;
        if (level)
            irq_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

void cpu::notify_event(const sc_core::sc_time &)
{
    stats_.serrors++;
    SC_REPORT_INFO_VERB(name(), "SError signalled (no SError handler: counted)",
                        sc_core::SC_MEDIUM);
}

void cpu::main()
{
    if (!config_.enabled)
        return;
    qk_.reset();
    boot_firmware();
    (void)state->set_pe_state(kernel_, qk_.get_local_time());
    if (program_)
        program_(&hal_);
    qk_.sync();
    finished_ = true;
    if (config_.stop_at_end)
        sc_core::sc_stop();
}

// What TF-A and a hypervisor do before the kernel runs: give the kernel every counter and the
// trace buffer (sw/hal/hal_impl.h).
void cpu::boot_firmware()
{
    if (!config_.firmware)
        return;
    const sc_core::sc_time &t = qk_.get_local_time();
    pmt_pe_state s{};
    if (config_.have_el3) {
        s.el = 3;
        s.ss = PMT_SS_SECURE;
        s.scr_ns = true;
        s.el2_enabled = config_.have_el2; // EL2Enabled(): SCR_EL3.NS = 1
        (void)state->set_pe_state(s, t);
        (void)sysreg->write_sysreg(
            hal_sysreg_to_pmt(HAL_MDCR_EL3),
            hal_firmware_mdcr_el3(config_.pmuv3p9, config_.trbe, config_.trbe_exc), t);
    }
    if (config_.have_el2) {
        s = pmt_pe_state{};
        s.el = 2;
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = true;
        (void)state->set_pe_state(s, t);
        (void)sysreg->write_sysreg(
            hal_sysreg_to_pmt(HAL_MDCR_EL2),
            hal_firmware_mdcr_el2(config_.num_counters, config_.trbe, kernel_.el), t);
    }
}

// ---- interrupts ---------------------------------------------------------------------------------

void cpu::take_irqs()
{
    unsigned taken = 0;
    while (!masked_ && !in_handler_ && entry_ && irq_level_) {
        if (++taken > config_.irq_storm_limit) {
            stats_.irq_storms++;
            break;
        }
        pmt_pe_state saved = state->pe_state();
        bool switched = saved.el != kernel_.el;
        if (switched)
            (void)state->set_pe_state(kernel_, qk_.get_local_time());
        masked_ = true;
        in_handler_ = true;
        stats_.irqs_taken++;
        (void)run_cycles(config_.irq_entry_cycles);
        entry_(entry_arg_);
        in_handler_ = false;
        masked_ = false;
        if (switched)
            (void)state->set_pe_state(saved, qk_.get_local_time());
    }
}

bool cpu::irq_mask(bool masked)
{
    bool prev = masked_;
    masked_ = masked;
    take_irqs();
    return prev;
}

bool cpu::wait_for_interrupt()
{
    // Let the rest of the platform catch up: a line raised at an earlier time is seen now.
    qk_.sync();
    stats_.syncs++;
    bool pending = irq_level_;
    take_irqs();
    return pending;
}

void cpu::set_irq_entry(hal_irq_entry entry, void *arg)
{
    entry_ = entry;
    entry_arg_ = arg;
    take_irqs();
}

// ---- system registers
// ----------------------------------------------------------------------------

hal_status cpu::sysreg_read(hal_sysreg reg, uint64_t &value)
{
    stats_.sysreg_accesses++;
    hal_status st = HAL_OK;
    uint64_t v = 0;
    const uint8_t el = state->pe_state().el;
    if (is_cpu_register(reg) || is_icc(reg)) {
        if (el == 0) {
            st = HAL_UNDEFINED;
        } else if (is_icc(reg)) {
            st = icc_ && icc_->read(hal_sysreg_to_pmt(reg), v, qk_.get_local_time())
                     ? HAL_OK
                     : HAL_UNDEFINED;
        } else {
            v = reg == HAL_CURRENTEL         ? uint64_t{el} << 2
                : reg == HAL_MPIDR_EL1       ? config_.mpidr | uint64_t{0x80000000}
                : reg == HAL_ID_AA64DFR0_EL1 ? config_.id_aa64dfr0
                                             : config_.id_aa64dfr1;
        }
    } else {
        st = hal_status_of_access(
            sysreg->read_sysreg(hal_sysreg_to_pmt(reg), v, qk_.get_local_time()));
    }
    value = st == HAL_OK ? v : 0;
    take_irqs();
    return st;
}

hal_status cpu::sysreg_write(hal_sysreg reg, uint64_t value)
{
    stats_.sysreg_accesses++;
    hal_status st;
    if (is_cpu_register(reg))
        st = HAL_UNDEFINED; // read-only
    else if (is_icc(reg))
        st = state->pe_state().el == 0 || !icc_ ||
                     !icc_->write(hal_sysreg_to_pmt(reg), value, qk_.get_local_time())
                 ? HAL_UNDEFINED
                 : HAL_OK;
    else
        st = hal_status_of_access(
            sysreg->write_sysreg(hal_sysreg_to_pmt(reg), value, qk_.get_local_time()));
    if (st == HAL_OK && (reg == HAL_TRFCR_EL1 || reg == HAL_TRFCR_EL2 || reg == HAL_TRFCR_EL12))
        refresh_trfcr();
    take_irqs();
    return st;
}

// TRFCR_EL1 and TRFCR_EL2 as the kernel reads them (for the trace unit's prohibited regions),
// after the software wrote one of them.
void cpu::refresh_trfcr()
{
    const pmt_pe_state s = state->pe_state();
    const bool vhe = s.el == 2 && s.hcr_e2h;
    uint64_t v = 0;
    trfcr_el1_ = sysreg->read_sysreg(hal_sysreg_to_pmt(vhe ? HAL_TRFCR_EL12 : HAL_TRFCR_EL1), v,
                                     qk_.get_local_time()) == PMT_ACCESS_OK
                     ? v
                     : 0;
    trfcr_el2_ = s.el == 2 && sysreg->read_sysreg(hal_sysreg_to_pmt(HAL_TRFCR_EL2), v,
                                                  qk_.get_local_time()) == PMT_ACCESS_OK
                     ? v
                     : 0;
}

void cpu::barrier()
{
    take_irqs();
}

// TSB CSYNC (D6.6.1). While a trace unit flush the Trace Buffer Unit requested is pending, the
// TSB CSYNC is not complete (RJQDJD): the CPU lets the rest of the platform run until it is.
void cpu::tsb_csync()
{
    stats_.tsb_csyncs++;
    if (pmtrace::trbe_cpu_if *unit = trbe.get_interface(0)) {
        (void)unit->tsb_csync(qk_.get_local_time());
        for (unsigned n = 0; n < 1000 && unit->trbe_status().flush_pending; n++) {
            qk_.sync();
            stats_.syncs++;
            (void)unit->tsb_csync(qk_.get_local_time());
        }
    }
    take_irqs();
}

// ---- memory -----------------------------------------------------------------------------------

hal_status cpu::mmio(bool write, uint64_t pa, unsigned size, uint64_t &value)
{
    stats_.mmio_accesses++;
    if ((size != 1 && size != 2 && size != 4 && size != 8) || (pa & (size - 1)) != 0)
        return HAL_BUS_ERROR;
    sc_core::sc_time delay = qk_.get_local_time();
    tlm::tlm_response_status response =
        bus_access(*bus.get_interface(0), write, pa, size, value, delay);
    qk_.set(delay);
    hal_status st = HAL_OK;
    switch (response) {
    case tlm::TLM_OK_RESPONSE: break;
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: st = HAL_NO_DEVICE; break;
    default: st = HAL_BUS_ERROR; break;
    }
    if (st != HAL_OK)
        stats_.bus_errors++;
    maybe_sync();
    take_irqs();
    return st;
}

hal_status cpu::mem_read(uint64_t va, void *dst, size_t n)
{
    if (!dst && n)
        return HAL_INVALID;
    if (!n)
        return HAL_OK;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(va); // no MMU: virtual = physical
    tx.set_data_ptr(static_cast<unsigned char *>(dst));
    tx.set_data_length(static_cast<unsigned>(n));
    tx.set_streaming_width(static_cast<unsigned>(n));
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return bus->transport_dbg(tx) == n ? HAL_OK : HAL_NO_DEVICE;
}

void cpu::console_write(const char *text, size_t n)
{
    if (!config_.uart_base)
        return;
    for (size_t i = 0; i < n; i++) {
        uint64_t c = static_cast<unsigned char>(text[i]);
        (void)mmio(true, config_.uart_base, 4, c); // UARTDR
    }
}

// ---- work ---------------------------------------------------------------------------------------

void cpu::maybe_sync()
{
    if (qk_.need_sync()) {
        qk_.sync();
        stats_.syncs++;
    }
}

void cpu::set_el(uint8_t el)
{
    pmt_pe_state s = kernel_;
    s.el = el;
    (void)state->set_pe_state(s, qk_.get_local_time());
}

hal_status cpu::run_event(uint16_t event, uint64_t n)
{
    while (n) {
        uint64_t step = n;
        if (peek_) {
            uint64_t room = peek_(event, qk_.get_local_time());
            step = std::min(n, room ? room : uint64_t{1});
        }
        if (events->count_event(event, step, qk_.get_local_time()) != PMT_OK)
            return HAL_INVALID;
        if (event == PMT_EV_INST_RETIRED)
            stats_.instructions += step;
        n -= step;
        take_irqs();
    }
    return HAL_OK;
}

hal_status cpu::run_cycles(uint64_t n)
{
    while (n) {
        uint64_t step = n;
        if (peek_) {
            uint64_t room = peek_(PMT_EV_CPU_CYCLES, qk_.get_local_time());
            step = std::min(n, room ? room : uint64_t{1});
        }
        // No further than the end of the quantum: then the rest of the platform runs.
        sc_core::sc_time left = qk_.get_global_quantum() - qk_.get_local_time();
        if (qk_.get_global_quantum() > sc_core::SC_ZERO_TIME &&
            qk_.get_local_time() < qk_.get_global_quantum()) {
            auto to_boundary = static_cast<uint64_t>(left / config_.clock_period);
            if (to_boundary)
                step = std::min(step, to_boundary);
        }
        qk_.inc(config_.clock_period * static_cast<double>(step));
        stats_.cycles += step;
        n -= step;
        if (peek_)
            (void)peek_(PMT_EV_CPU_CYCLES, qk_.get_local_time()); // an overflow now shows
        maybe_sync();
        take_irqs();
    }
    return HAL_OK;
}

// The trace unit's output while the work ran (sw/hal/hal_impl.h).
hal_status cpu::run_trace(const hal_work &w)
{
    pmtrace::trace_sink_if *sink = trace_out.get_interface(0);
    pmtrace::trbe_cpu_if *unit = trbe.get_interface(0);
    if (!sink || !unit) {
        stats_.trace_dropped += w.trace_len;
        return HAL_OK;
    }
    const bool allowed =
        hal_trace_allowed(w.el, kernel_.hcr_e2h && kernel_.hcr_tge, trfcr_el1_, trfcr_el2_);

    struct context {
        cpu *self;
        pmtrace::trace_sink_if *sink;
        pmtrace::trbe_cpu_if *unit;
    } ctx{this, sink, unit};
    const hal_trace_sink port = {
        &ctx,
        [](void *c) { return static_cast<context *>(c)->unit->trbe_status().headroom; },
        [](void *c, const uint8_t *data, size_t n) {
            context *x = static_cast<context *>(c);
            x->sink->trace_bytes(data, n, x->self->qk_.get_local_time());
            return true;
        },
        [](void *c) {
            context *x = static_cast<context *>(c);
            x->sink->detected_trigger(x->self->qk_.get_local_time());
        },
        [](void *c) { static_cast<context *>(c)->self->take_irqs(); },
    };
    return hal_trace_deliver(&port, allowed, w.trace, w.trace_len, w.trigger_at,
                             &stats_.trace_bytes, &stats_.trace_dropped);
}

hal_status cpu::run(const hal_work &w)
{
    if ((w.num_events && !w.events) || (w.trace_len && !w.trace) || w.el > kernel_.el)
        return HAL_INVALID;
    set_el(w.el);
    hal_status st = run_event(PMT_EV_INST_RETIRED, w.instructions);
    if (st == HAL_OK)
        st = run_cycles(w.cycles);
    for (size_t i = 0; st == HAL_OK && i < w.num_events; i++)
        st = w.events[i].event == PMT_EV_CPU_CYCLES
                 ? run_cycles(w.events[i].count)
                 : run_event(w.events[i].event, w.events[i].count);
    if (st == HAL_OK && (w.trace_len || w.trigger_at != HAL_NO_TRIGGER))
        st = run_trace(w);
    (void)state->set_pe_state(kernel_, qk_.get_local_time());
    take_irqs();
    return st;
}

} // namespace pmtrace::platform
