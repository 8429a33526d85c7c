// memory_map.h - where things are on the reference platform: the memory map of QEMU's `virt`
// board, so software written for that board finds its devices, and the interrupt numbers.
#ifndef PMTRACE_PLATFORM_MEMORY_MAP_H
#define PMTRACE_PLATFORM_MEMORY_MAP_H

#include <cstdint>

namespace pmtrace::platform::virt
{

constexpr uint64_t gic_distributor_base = 0x0800'0000; // GICD, 64 KiB
constexpr uint64_t gic_distributor_size = 0x1'0000;
constexpr uint64_t gic_redistributor_base = 0x080A'0000; // GICR: RD_base + SGI_base per CPU
constexpr uint64_t gic_redistributor_stride = 0x2'0000;  // 128 KiB per CPU
constexpr uint64_t uart_base = 0x0900'0000;              // PL011
constexpr uint64_t uart_size = 0x1000;
constexpr uint64_t rtc_base = 0x0901'0000; // PL031
constexpr uint64_t rtc_size = 0x1000;
constexpr uint64_t ram_base = 0x4000'0000;
constexpr uint64_t ram_default_size = 0x800'0000; // 128 MiB; configurable
// The GIC's Shared Peripheral Interrupts: 256, INTIDs 32-287, as virt's (NUM_IRQS).
constexpr unsigned gic_num_spis = 256;
// The PL011's interrupt: SPI 1 (INTID 33), as virt's device tree says (interrupts = <0 1 4>).
constexpr unsigned uart_intid = 33;
// The PL031's interrupt: SPI 2 (INTID 34), as virt's device tree says (interrupts = <0 2 4>).
constexpr unsigned rtc_intid = 34;

// Private peripheral interrupts (INTIDs, BSA recommended assignment).
constexpr unsigned pmu_intid = 23;          // PMUIRQ
constexpr unsigned trbe_default_intid = 22; // TRBIRQ (configurable)
constexpr unsigned cti_intid = 24;          // the generic CTI interrupt (CTI output trigger 2)
// The Generic Timer's PPIs, as QEMU's virt board wires them (and the BSA recommends).
constexpr unsigned timer_el2_physical_intid = 26; // CNTHP
constexpr unsigned timer_virtual_intid = 27;      // CNTV
constexpr unsigned timer_el1_physical_intid = 30; // CNTP

} // namespace pmtrace::platform::virt

#endif
