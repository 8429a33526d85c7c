// vp.cpp - the reference virtual platform (vp.h).
#include <pmtrace/platform/vp.h>

#include <algorithm>

namespace pmtrace::platform
{

pmtrace::pe_model_config vp_default_pe()
{
    pmtrace::pe_model_config c;
    c.core.trbe.feat_trbe = true;
    // With FEAT_ETE: a 1 KiB trace unit buffer, so that most of the CPU's reports need no time
    // (pmt_ete_report_range_held; docs/trace.md, "The trace unit buffer").
    c.core.ete.unit_buffer = 1024;
    c.core.common_events[0] = ~uint64_t{0};
    c.core.common_events[1] = ~uint64_t{0};
    return c;
}

namespace
{
// What the CPUs must know of the PE, from the PE model's configuration.
cpu_pe_config cpu_pe_config_of(const pmtrace::pe_model_config &pe)
{
    cpu_pe_config c;
    c.clock_period = pe.clock_period;
    c.num_counters = pe.core.num_counters;
    c.have_el2 = pe.core.have_el2;
    c.have_el3 = pe.core.have_el3;
    c.pmuv3p9 = pe.core.pmu_version >= PMT_PMUV3P9;
    c.trbe = pe.core.trbe.feat_trbe;
    c.trbe_exc = pe.core.trbe.feat_trbe && pe.core.trbe.feat_trbe_exc;
    c.ebep = pe.core.feat_ebep;
    c.sebep = pe.core.feat_sebep;
    c.ete = pe.core.ete.feat_ete;
    return c;
}
} // namespace

vp_config vp::complete(vp_config c)
{
    // Both CPUs route OSLAR_EL1, OSLSR_EL1, OSDLR_EL1 and DBGPRCR_EL1 to the PE model, which
    // holds the OS Lock that its trace unit, PMU and Trace Buffer Unit read (locked out of
    // reset, as on silicon: software releases it, as Linux does).
    c.pe.core.os_lock_registers = true;
    static_cast<cpu_pe_config &>(c.cpu) = cpu_pe_config_of(c.pe);
    static_cast<cpu_pe_config &>(c.a64) = cpu_pe_config_of(c.pe);
    c.cpu.uart_base = virt::uart_base;
    c.cpu.enabled = c.cpu_kind == vp_cpu::host;
    if (c.cpu_kind == vp_cpu::a64 && c.a64_pmceid) {
        std::array<uint64_t, 2> e = a64_cpu::common_events(c.pe.core.trbe.feat_trbe);
        c.pe.core.common_events[0] = e[0];
        c.pe.core.common_events[1] = e[1];
    }
    // An image entered at EL1 or EL2 finds the GIC as firmware leaves it (its Redistributors
    // awake); one entered at EL3 is the firmware and finds the reset values. The host-driven
    // CPU's software wakes its Redistributor itself (sw/drivers/gic).
    c.gic.redistributors_awake = c.cpu_kind == vp_cpu::a64 && c.a64.entry_el < 3;
    c.timer.have_el2 = c.pe.core.have_el2;
    c.timer.have_el3 = c.pe.core.have_el3;
    return c;
}

namespace
{
memory_config ram_config(uint64_t size)
{
    memory_config m;
    m.size = size;
    return m;
}
} // namespace

vp::vp(const sc_core::sc_module_name &name, const vp_config &config)
    : sc_module(name), bus("bus", config.bus_latency), ram("ram", ram_config(config.ram_size)),
      uart("uart", config.uart), rtc("rtc", config.rtc), gic("gic", complete(config).gic),
      cross_trigger("cti", config.cti), mmu("mmu"), pe("pe", complete(config).pe),
      cpu0("cpu", complete(config).cpu), timer("timer", complete(config).timer),
      config_(complete(config))
{
    // The ID registers the drivers probe, as the PE model reports them.
    uint64_t dfr0 = 0, dfr1 = 0;
    (void)pmt_pe_id_aa64dfr(pe.core(), &dfr0, &dfr1);

    // The bus, with two initiators: the CPU and the Trace Buffer Unit.
    cpu0.bus.bind(bus.target);
    pe.trace_bus.bind(bus.target);
    bus.initiator.bind(gic.distributor);
    bus.initiator.bind(gic.redistributors);
    bus.initiator.bind(uart.socket);
    bus.initiator.bind(ram.socket);
    bus.initiator.bind(cross_trigger.socket);
    bus.initiator.bind(pe.pmu_frame);
    bus.initiator.bind(pe.trbe_frame);
    bus.initiator.bind(rtc.socket);
    bus.map(GICD, virt::gic_distributor_base, virt::gic_distributor_size);
    bus.map(GICR, virt::gic_redistributor_base,
            virt::gic_redistributor_stride * config_.gic.num_cpus);
    bus.map(UART, virt::uart_base, virt::uart_size);
    bus.map(RAM, virt::ram_base, config_.ram_size);
    bus.map(CTI, virt::cti_base, virt::cti_size);
    bus.map(PMU_FRAME, virt::pmu_frame_base, virt::pmu_frame_size);
    bus.map(TRBE_FRAME, virt::trbe_frame_base, virt::trbe_frame_size);
    bus.map(RTC, virt::rtc_base, virt::rtc_size);

    // The CPU and the PE.
    cpu0.sysreg.bind(pe.sysreg);
    cpu0.events.bind(pe.events);
    cpu0.state.bind(pe.state);
    cpu0.trbe.bind(pe.trbe);
    cpu0.trace_out.bind(pe.trace_sink);
    cpu0.set_cpu_interface(&gic.cpu(0));
    cpu0.set_id_registers(dfr0 | 0x6 /* DebugVer: Armv8.0 */, dfr1);
    pmtrace::pe_model *model = &pe;
    cpu0.set_peek([model](uint16_t event, const sc_core::sc_time &offset) {
        model->sync(offset);
        return pmt_pmu_headroom(model->core(), event);
    });

    // The AArch64 CPU, when it runs the software: the same connections.
    if (config_.cpu_kind == vp_cpu::a64) {
        a64 = std::make_unique<a64_cpu>("a64", config_.a64);
        a64->bus.bind(bus.target);
        a64->sysreg.bind(pe.sysreg);
        a64->events.bind(pe.events);
        a64->state.bind(pe.state);
        a64->trbe.bind(pe.trbe);
        a64->profiling.bind(pe.profiling);
        pe.pmu_exception.bind(a64->pmu_exception);
        pe.trbe_exception.bind(a64->trbe_exception);
        // The Trace Buffer Unit's pointers are the software's virtual addresses: the CPU's stage
        // 1 translates them, then the platform's translator answers for the physical address.
        pe.translation.bind(a64->trbe_translation);
        a64->trbe_physical.bind(mmu);
        a64->set_cpu_interface(&gic.cpu(0));
        a64->set_timer(&timer);
        a64->set_id_registers(dfr0, dfr1);
        a64->set_peek([model](uint16_t event, const sc_core::sc_time &offset) {
            model->sync(offset);
            return pmt_pmu_headroom(model->core(), event);
        });
        (void)a64->map_ram(virt::ram_base, config_.ram_size, ram.data());
        if (config_.pe.core.ete.feat_ete) {
            // The trace unit sees what the CPU executes; its timestamps are the counter's.
            a64_cpu *cpu = a64.get();
            trace_reports =
                std::make_unique<ete_reporter>(pe, [cpu] { return cpu->retired_offset(); });
            a64->add_trace_listener(trace_reports.get());
            pe.timestamps.bind(timer);
        }
        if (config_.a64_trace_stand_in) {
            trace_unit = std::make_unique<trace_source>("trace_unit", config_.a64_trace);
            trace_unit->sink.bind(pe.trace_sink);
            pe.trace_flush.bind(*trace_unit);
        }
    }

    // Interrupts and triggers.
    pe.pmuirq.bind(gic.pmuirq(0));
    pe.trbirq.bind(gic.trbirq(0));
    if (a64) {
        gic.irq[0].bind(a64->irq);
        pe.serror.bind(a64->serror);
    } else {
        gic.irq[0].bind(cpu0.irq);
        pe.serror.bind(cpu0.serror);
        pe.translation.bind(mmu); // the host CPU's software gives physical addresses
    }
    pe.cti_pmu_overflow.bind(cross_trigger);
    pe.cti_trbe_stopped.bind(cross_trigger);
    pe.cti_trbe_management.bind(cross_trigger);
    pe.cti_trbe_wrap.bind(cross_trigger);
    // The Generic Timer's interrupts (BSA PPIs, as QEMU's virt).
    timer.cntp_irq.bind(gic.ppi(0, virt::timer_el1_physical_intid));
    timer.cntv_irq.bind(gic.ppi(0, virt::timer_virtual_intid));
    timer.cnthp_irq.bind(gic.ppi(0, virt::timer_el2_physical_intid));
    // The PL011's interrupt, SPI 1 (INTID 33) as virt's device tree says.
    uart.intr.bind(gic.spi(virt::uart_intid));
    // The PL031's, SPI 2 (INTID 34).
    rtc.intr.bind(gic.spi(virt::rtc_intid));
    // The CTI's generic interrupt (output trigger 2) is a PPI (H5.4.8).
    cross_trigger.out_level[cti_out::cti_interrupt].bind(gic.ppi(0, virt::cti_intid));
}

void vp::run(cpu::program program)
{
    cpu0.set_program(std::move(program));
    sc_core::sc_start();
}

bool vp::load(uint64_t address, const uint8_t *data, size_t n)
{
    if (address < virt::ram_base || n > config_.ram_size ||
        address - virt::ram_base > config_.ram_size - n || !ram.data())
        return false;
    std::copy(data, data + n, ram.data() + (address - virt::ram_base));
    return true;
}

void vp::trace(sc_core::sc_trace_file *file) const
{
    if (!file)
        return;
    pe.trace(file);
    sc_core::sc_trace(file, gic.irq[0].view(), std::string(name()) + ".cpu_irq");
    for (unsigned n = 0; n < cross_trigger.out_event.size(); n++)
        sc_core::sc_trace(file, cross_trigger.out_level[n].view(),
                          std::string(name()) + ".cti_out" + std::to_string(n));
}

} // namespace pmtrace::platform
