// virt_dtb.h - the flattened device tree of the platform, made with libfdt: the nodes and
// properties QEMU's `virt` board (hw/arm/virt.c) gives the same devices, so a Linux kernel and
// bare-metal code written for that board find them. No SystemC.
//
//   /                      #address-cells 2, #size-cells 2, compatible and model
//                          "linux,dummy-virt", interrupt-parent = the GIC
//   /psci                  "arm,psci-1.0", "arm,psci-0.2"; method "hvc" or "smc" (none: absent)
//   /memory@<ram_base>     device_type "memory", reg
//   /cpus/cpu@<reg>        device_type "cpu", compatible, reg = MPIDR_EL1's affinity fields
//                          (#address-cells 2 when Aff3 is not 0), enable-method "psci"
//   /timer                 "arm,armv8-timer", "arm,armv7-timer"; the four PPIs level-high
//                          (secure physical, non-secure physical, virtual, hypervisor),
//                          always-on, clock-frequency when set
//   /pmu                   "arm,armv8-pmuv3", its PPI level-high
//   /trbe                  "arm,trace-buffer-extension", its PPI level-high (when trbe)
//   /ete0                  "arm,embedded-trace-extension", cpu = the CPU's phandle (when ete;
//                          the cpu node has that phandle then); the bindings' node names
//   /intc@<gicd_base>      "arm,gic-v3", #interrupt-cells 3, interrupt-controller,
//                          reg = distributor + redistributors, #redistributor-regions 1
//                          (#address-cells 2, #size-cells 2 and empty ranges as QEMU)
//   /apb-pclk              "fixed-clock", #clock-cells 0, clock-frequency,
//                          clock-output-names ("clk24mhz" at 24 MHz)
//   /pl011@<uart_base>     "arm,pl011", "arm,primecell"; reg; interrupts <SPI uart_spi
//                          level-high>; clocks <&apb-pclk &apb-pclk>, clock-names "uartclk",
//                          "apb_pclk"
//   /pl031@<rtc_base>      "arm,pl031", "arm,primecell"; reg; interrupts <SPI rtc_spi
//                          level-high>; clocks <&apb-pclk>, clock-names "apb_pclk"
//   /chosen                stdout-path = the PL011's path; bootargs when not empty;
//                          linux,initrd-start and linux,initrd-end (64-bit) with an initrd
//
// Interrupt specifiers are the GIC binding's three cells: type (0 SPI, 1 PPI), number (SPI:
// INTID-32, PPI: INTID-16) and flags (4: level-high; no PPI CPU mask, a GICv3 has none).
#ifndef PMTRACE_PLATFORM_VIRT_DTB_H
#define PMTRACE_PLATFORM_VIRT_DTB_H

#include <pmtrace/platform/bus/memory_map.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pmtrace::platform
{

struct virt_dtb_config {
    uint64_t ram_base = virt::ram_base, ram_size = virt::ram_default_size;
    // cpus/cpu@0 reg: MPIDR_EL1, of which only the affinity fields are used.
    uint64_t mpidr = 0;
    std::string cpu_compatible = "arm,armv8";
    // "hvc" or "smc"; "none": no /psci node and no enable-method (QEMU's virt with secure=on
    // and firmware of its own, which is entered at EL3 and answers PSCI itself).
    std::string psci_method = "hvc";
    std::string bootargs; // chosen/bootargs (omit when empty)
    // An initial RAM disk at [initrd_start, initrd_end): chosen/linux,initrd-start and
    // linux,initrd-end (omitted when initrd_end <= initrd_start).
    uint64_t initrd_start = 0, initrd_end = 0;
    uint64_t uart_base = virt::uart_base, uart_size = virt::uart_size;
    // PL011: SPI 1 (INTID 33), where the platform wires it, as QEMU's virt.
    unsigned uart_spi = virt::uart_intid - 32;
    uint32_t uart_clock_hz = 24000000; // apb_pclk fixed-clock
    uint64_t rtc_base = virt::rtc_base, rtc_size = virt::rtc_size;
    // PL031: SPI 2 (INTID 34), as QEMU's virt.
    unsigned rtc_spi = virt::rtc_intid - 32;
    uint64_t gicd_base = virt::gic_distributor_base, gicd_size = virt::gic_distributor_size;
    // One PE's redistributor frames (RD_base + SGI_base).
    uint64_t gicr_base = virt::gic_redistributor_base, gicr_size = virt::gic_redistributor_stride;
    // Secure physical, non-secure physical, virtual, hypervisor timer: PPI numbers (INTID-16)
    // as virt.
    unsigned timer_ppis[4] = {13, 14, 11, 10};
    unsigned pmu_ppi = 7;  // INTID 23
    bool trbe = true;      // the PE has a Trace Buffer Unit (FEAT_TRBE): /trbe
    unsigned trbe_ppi = 6; // arm,trace-buffer-extension: TRBIRQ, INTID 22 as the platform wires it
    bool ete = false;      // the CPU's ETE trace unit (FEAT_ETE): /ete0
    // 0: no clock-frequency property (the CPU's CNTFRQ_EL0 is set).
    uint32_t timer_frequency_hz = 0;
};

// The device tree blob (DTB, version 17) of `config`; empty + error (one sentence naming the
// offending value) for a bad configuration: a region of size 0 or past the end of the address
// space, a PPI above 15 or two interrupts on one PPI, an SPI above 987 or two devices on one SPI,
// a PSCI method other than
// "hvc" or "smc", an empty CPU compatible string, a clock of 0 Hz.
std::vector<uint8_t> build_virt_dtb(const virt_dtb_config &config, std::string &error);

// A device tree of the user's (QEMU's -dtb): checked (fdt_check_full), and with `bootargs` not
// empty, /chosen/bootargs set to it (the node made when missing), as QEMU does with -append;
// with an initrd ([initrd_start, initrd_end), end > start), /chosen/linux,initrd-start and
// linux,initrd-end in the root's #address-cells (1 or 2), as QEMU does with -initrd.
// Empty + error (one sentence) when the blob is not a valid device tree, or an address does not
// fit its cells.
std::vector<uint8_t> prepare_user_dtb(const std::vector<uint8_t> &dtb, const std::string &bootargs,
                                      std::string &error);
std::vector<uint8_t> prepare_user_dtb(const std::vector<uint8_t> &dtb, const std::string &bootargs,
                                      uint64_t initrd_start, uint64_t initrd_end,
                                      std::string &error);

} // namespace pmtrace::platform

#endif
