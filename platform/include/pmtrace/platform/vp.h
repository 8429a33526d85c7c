// vp.h - the reference virtual platform: one PE (pe_model) with its PMU and Trace Buffer Unit, a
// host-driven CPU, a GICv3, a CTI, RAM with a fault table, the TRBE's address translation, a
// PL011 UART and a PL031 real-time clock on the memory map of QEMU's virt board (docs/platform.md
// draws it).
//
//   cpu.bus, pe.trace_bus -> router -> GICD 0x0800_0000, GICR 0x080A_0000, UART 0x0900_0000,
//                                      RTC 0x0901_0000, CTI 0x0C00_0000, PMU frame 0x0C01_0000,
//                                      TRBE frame 0x0C02_0000, RAM 0x4000_0000
//   cpu -> pe.sysreg / pe.events / pe.state / pe.trbe;  ICC_* -> gic.cpu(0)
//   cpu.trace_out -> pe.trace_sink (the CPU stands in for the trace unit); with the AArch64
//   CPU, trace_unit (a trace_source, when asked for) -> pe.trace_sink, pe.trace_flush
//   pe.translation -> mmu (identity; mappings and injected faults per page); with the AArch64
//   CPU, pe.translation -> a64.trbe_translation (the owning regime's stage 1) -> mmu
//   pe.pmuirq -> GIC PPI 23, pe.trbirq -> GIC PPI 22 (gic.trbe_intid) -> gic.irq[0] -> cpu.irq
//   pe.serror -> cpu.serror
//   pe.cti_pmu_overflow -> CTI input trigger 1; pe.cti_trbe_stopped/management/wrap -> 8/9/10
//   CTI output trigger 2 (the CTI interrupt) -> GIC PPI 24
//   uart.intr (UARTINTR) -> GIC SPI 1 (INTID 33)
//   rtc.intr (RTCINTR) -> GIC SPI 2 (INTID 34)
#ifndef PMTRACE_PLATFORM_VP_H
#define PMTRACE_PLATFORM_VP_H

#include <pmtrace/platform/cpu/a64_cpu.h>
#include <pmtrace/platform/trace/ete_reporter.h>
#include <pmtrace/platform/cpu/cpu.h>
#include <pmtrace/platform/interrupt/cti.h>
#include <pmtrace/platform/interrupt/gic.h>
#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/trace/trace_source.h>
#include <pmtrace/platform/bus/translator.h>
#include <pmtrace/platform/devices/rtc_pl031.h>
#include <pmtrace/platform/devices/uart_pl011.h>
#include <pmtrace/systemc/pe_model.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

namespace pmtrace::platform
{

namespace virt
{
// Additions to virt's map, in its platform-bus window (0x0C00_0000): the PE's debug components.
constexpr uint64_t cti_base = 0x0C00'0000;
constexpr uint64_t cti_size = 0x1000;
constexpr uint64_t pmu_frame_base = 0x0C01'0000;
constexpr uint64_t pmu_frame_size = 0x1000;
constexpr uint64_t trbe_frame_base = 0x0C02'0000; // FEAT_TRBE_EXT (else every access faults)
constexpr uint64_t trbe_frame_size = 0x1000;
} // namespace virt

// The PE the platform has by default: pe_model_config's defaults, with FEAT_TRBE, a 1 KiB trace
// unit buffer when FEAT_ETE is on (pmt_ete_config.unit_buffer), and every common event listed in
// PMCEID (the host-driven CPU's workloads report any; the AArch64 CPU replaces the list with its
// own: vp_config::a64_pmceid).
pmtrace::pe_model_config vp_default_pe();

// Which CPU runs the software: the host-driven CPU (sw/ apps through the HAL, cpu.h) or the
// AArch64 CPU (A64 code in RAM, a64_cpu.h).
enum class vp_cpu { host, a64 };

struct vp_config {
    pmtrace::pe_model_config pe = vp_default_pe(); // the PE: features, counters, clock period
    vp_cpu cpu_kind = vp_cpu::host;
    cpu_config cpu;     // quantum; the rest is filled in from `pe`
    a64_cpu_config a64; // entry EL, timing; the rest from `pe`
    // With vp_cpu::a64, PMCEID0/1_EL0 list exactly the events that CPU delivers
    // (a64_cpu::common_events in pe.core.common_events); false keeps pe's list.
    bool a64_pmceid = true;
    // With vp_cpu::a64 and no FEAT_ETE (pe.core.ete.feat_ete, which makes the CPU drive the PE
    // model's trace unit): a stand-in trace unit for Trace Buffer Unit work that does not
    // program one (trace_source.h: a byte stream at a rate, counting up from 0) feeds
    // pe.trace_sink and answers the TRBE's flush requests. It ignores TRFCR_ELx and the
    // trace unit's own programming: it streams from the start of simulation, and the TRBE
    // discards what arrives while it is disabled. Off by default (a thread wakes at every
    // interval, which a long run pays for).
    bool a64_trace_stand_in = false;
    trace_source_config a64_trace;
    generic_timer_config timer;     // the counter's frequency
    uint64_t ram_size = 0x100'0000; // 16 MiB at virt::ram_base
    sc_core::sc_time bus_latency = sc_core::SC_ZERO_TIME;
    cti_config cti;
    gic_config gic;
    uart_config uart; // the console: echo to stdout, input
    rtc_config rtc;   // the real-time clock's time at simulated time 0 (default: the host's)
};

class vp : public sc_core::sc_module
{
  public:
    // Router ports, in binding order.
    enum port : unsigned { GICD = 0, GICR, UART, RAM, CTI, PMU_FRAME, TRBE_FRAME, RTC };

    router bus;
    memory ram;
    uart_pl011 uart;
    rtc_pl031 rtc;
    gicv3 gic;
    cti cross_trigger;
    translator mmu;
    pmtrace::pe_model pe;
    cpu cpu0; // the host-driven CPU (idle when the AArch64 CPU runs the software)
    std::unique_ptr<a64_cpu> a64;             // the AArch64 CPU, with vp_cpu::a64
    std::unique_ptr<trace_source> trace_unit; // with a64_trace_stand_in
    // With vp_cpu::a64 and pe.core.ete.feat_ete: the CPU's reports to the PE model's trace unit.
    std::unique_ptr<ete_reporter> trace_reports;
    generic_timer timer; // CNT*: PPIs 30 (CNTP), 27 (CNTV), 26 (CNTHP)

    vp(const sc_core::sc_module_name &name, const vp_config &config = vp_config());

    // Runs `program` on the CPU to completion (sc_start until the CPU stops the simulation).
    // Once per process: SystemC cannot elaborate again.
    void run(cpu::program program);
    // Copies `image` (n bytes at `data`) into RAM at `address`: false, with nothing written, if
    // it does not fit.
    bool load(uint64_t address, const uint8_t *data, size_t n);
    bool load(uint64_t address, const std::vector<uint8_t> &image)
    {
        return load(address, image.data(), image.size());
    }

    // Waveforms: PMUIRQ, TRBIRQ and the other outputs of the PE model (its CTI triggers among
    // them), the CPU's IRQ line, the CTI's output triggers. Call before run().
    void trace(sc_core::sc_trace_file *file) const override;

    const vp_config &config() const { return config_; }

  private:
    static vp_config complete(vp_config config);
    vp_config config_;
};

} // namespace pmtrace::platform

#endif
