// gic.h - a GICv3 (Arm IHI 0069) enough for Linux's irq-gic-v3 and bare-metal GIC code: the
// Distributor with its SPIs, one Redistributor per PE, and one CPU interface per PE as calls.
//
// Sockets (addresses are offsets; the router maps them): `distributor`, the 64 KiB GICD frame
// (virt: 0x0800_0000), and `redistributors`, one 128 KiB RD_base + SGI_base pair per PE
// (virt: 0x080A_0000). Inputs: ppi(cpu, intid) is the line of a PPI (16-31), a level_if the
// PE model's PMUIRQ or TRBIRQ port binds to; spi(intid) the line of an SPI (32 .. 31 +
// num_spis), which a device's interrupt port binds to. Outputs: irq[cpu] and fiq[cpu] (Group 1 and
// Group 0 interrupts signalled to the PE), each a port that calls its target when the level
// changes, with an sc_signal view. The CPU interface: cpu(n).iar1(), cpu(n).eoir1(v), ... or by
// encoding. Everything takes effect at once, in the call that changes it; an output changes at
// the time of that call (a PPI's or SPI's offset, a frame access's b_transport delay, a CPU
// interface access's offset), which its target is told and its view shows (signal_if.h).
#ifndef PMTRACE_PLATFORM_GIC_H
#define PMTRACE_PLATFORM_GIC_H

#include <pmtrace/systemc/log.h>
#include <pmtrace/platform/interrupt/gic_cpu_interface.h>
#include <pmtrace/platform/interrupt/gic_distributor.h>
#include <pmtrace/platform/interrupt/gic_redistributor.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/signal_if.h>

#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace pmtrace::platform
{

struct gic_config {
    unsigned num_cpus = 1; // 1..16 (PE n has affinity 0.0.0.n)
    // SPIs, INTIDs 32 .. 31 + num_spis (0..988; GICD_TYPER.ITLinesNumber covers them in blocks
    // of 32). 256 as QEMU's virt board (its GIC has 288 INTIDs: ITLinesNumber 8).
    unsigned num_spis = virt::gic_num_spis;
    uint32_t iidr = 0x0000043B; // GICD_IIDR and GICR_IIDR: Implementer Arm, product 0
    sc_core::sc_time access_latency = sc_core::sc_time(10, sc_core::SC_NS);
    unsigned trbe_intid = virt::trbe_default_intid; // the PPI of TRBIRQ, for trbirq()
    // GICR_WAKER out of reset. false: the architecture's reset, every Redistributor asleep
    // (ProcessorSleep = ChildrenAsleep = 1), forwarding nothing until software wakes it.
    // true: as firmware leaves it for the software it hands over to (TF-A wakes each
    // Redistributor before it enters the kernel or bare-metal image: docs/platform.md, "GICv3").
    bool redistributors_awake = false;
};

class gicv3 : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<gicv3> distributor;
    tlm_utils::simple_target_socket<gicv3> redistributors;
    sc_core::sc_vector<level_out> irq;
    sc_core::sc_vector<level_out> fiq;

    gicv3(const sc_core::sc_module_name &name, const gic_config &config = gic_config());
    ~gicv3() override;

    // The input line of PPI intid (16-31) of a PE.
    level_if &ppi(unsigned cpu, unsigned intid);
    level_if &pmuirq(unsigned cpu) { return ppi(cpu, virt::pmu_intid); }
    level_if &trbirq(unsigned cpu) { return ppi(cpu, config_.trbe_intid); }
    // The input line of SPI intid (32 .. 31 + num_spis). Any other INTID: a line that goes
    // nowhere, with one warning.
    level_if &spi(unsigned intid);

    gic_cpu_interface &cpu(unsigned n) { return *cpus_.at(n); }
    const gic_config &config() const { return config_; }
    gic_redistributor &redistributor(unsigned n) { return *rds_.at(n); }
    gic_distributor &gicd() { return *gicd_; }
    unsigned num_cpus() const { return config_.num_cpus; }

    // This component's log: its verbosity, its warnings and their repeats (log.h).
    module_log &log() { return log_; }

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    module_log log_;
    class ppi_line;
    class spi_line;

    void update(unsigned cpu);
    void update_all();
    void send_sgi(uint32_t targets, unsigned intid);
    void gicd_b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned gicd_transport_dbg(tlm::tlm_generic_payload &tx);
    void gicr_b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned gicr_transport_dbg(tlm::tlm_generic_payload &tx);
    // The Redistributor a frame address falls in (and the address made an offset in it).
    gic_redistributor *frame(tlm::tlm_generic_payload &tx, uint64_t &offset);

    gic_config config_;
    sc_core::sc_time access_offset_; // of the access in progress (gic_access_scope)
    std::unique_ptr<gic_distributor> gicd_;
    std::vector<std::unique_ptr<gic_redistributor>> rds_;
    std::vector<std::unique_ptr<gic_cpu_interface>> cpus_;
    std::vector<std::unique_ptr<ppi_line>> lines_;     // 16 per PE
    std::vector<std::unique_ptr<spi_line>> spi_lines_; // one per SPI, and a last one to nowhere
};

} // namespace pmtrace::platform

#endif
