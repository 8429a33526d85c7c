// The components together on the virt memory map: devices where virt software expects them, and a
// stand-in for the TRBE's write path (trace source -> translate -> bus -> memory with faults).
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/interrupt/gic.h>
#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/trace/trace_source.h>
#include <pmtrace/platform/bus/translator.h>
#include <pmtrace/platform/devices/uart_pl011.h>

#include <vector>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;

memory_config ram_config()
{
    memory_config c;
    c.size = 0x10'0000;
    return c;
}

struct virt_board {
    initiator cpu{"cpu"};
    router bus{"bus"};
    gicv3 gic{"gic"};
    uart_pl011 uart{"uart"};
    memory ram{"ram", ram_config()};
    virt_board()
    {
        cpu.socket.bind(bus.target);
        bus.initiator.bind(gic.distributor);
        bus.initiator.bind(gic.redistributors);
        bus.initiator.bind(uart.socket);
        bus.initiator.bind(ram.socket);
        bus.map(0, virt::gic_distributor_base, virt::gic_distributor_size);
        bus.map(1, virt::gic_redistributor_base, virt::gic_redistributor_stride);
        bus.map(2, virt::uart_base, virt::uart_size);
        bus.map(3, virt::ram_base, ram.size());
    }
};

TEST(PlatformVirtMap, DevicesAreWhereVirtSoftwareExpectsThem)
{
    virt_board b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(b.cpu.rd(0x0800'FFE8) >> 4 & 0xF, 3u); // GICD_PIDR2.ArchRev
    uint64_t typer = 0;
    ASSERT_EQ(b.cpu.read(0x080A'0008, typer, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(typer & (1u << 4), 1u << 4); // GICR_TYPER.Last: the only PE
    EXPECT_EQ(b.cpu.rd(0x0900'0018), uartfr_txfe | uartfr_rxfe);
    ASSERT_TRUE(b.cpu.wr(0x0900'0000, 'A'));
    EXPECT_EQ(b.uart.output(), "A");
    ASSERT_TRUE(b.cpu.wr(0x4000'0100, 0x12345678));
    EXPECT_EQ(b.ram.data()[0x100], 0x78);
    uint64_t v = 0;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(b.cpu.read(0x0A00'0000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no target");
}

// A stand-in for the TRBE's memory port: every byte from the trace source is translated and
// written through the bus; a fault or an error response stops it, as the TRBE would.
struct trbe_port : sc_core::sc_module, trace_sink_if {
    sc_core::sc_port<trbe_translation_if> mmu{"mmu"};
    tlm_utils::simple_initiator_socket<trbe_port> bus{"bus"};
    uint64_t ptr;
    pmt_trbe_fault fault{};
    tlm::tlm_response_status error = tlm::TLM_OK_RESPONSE;
    uint64_t triggers = 0;
    trbe_port(const sc_core::sc_module_name &n, uint64_t base) : sc_module(n), ptr(base) {}

    void trace_bytes(const uint8_t *data, size_t n, const sc_core::sc_time &) override
    {
        pmt_trbe_regime r{};
        r.ss = PMT_SS_NONSECURE;
        r.el = 1;
        for (size_t i = 0;
             i < n && fault.kind == PMT_TRBE_FAULT_NONE && error == tlm::TLM_OK_RESPONSE; i++) {
            pmt_trbe_translation x = mmu->translate(ptr, r);
            if (x.fault.kind != PMT_TRBE_FAULT_NONE) {
                fault = x.fault;
                return;
            }
            uint8_t b = data[i];
            tlm::tlm_generic_payload tx;
            tx.set_command(tlm::TLM_WRITE_COMMAND);
            tx.set_address(x.pa);
            tx.set_data_ptr(&b);
            tx.set_data_length(1);
            tx.set_streaming_width(1);
            sc_core::sc_time d;
            bus->b_transport(tx, d);
            error = tx.get_response_status();
            if (error == tlm::TLM_OK_RESPONSE)
                ptr++;
        }
    }
    void detected_trigger(const sc_core::sc_time &) override { triggers++; }
    void flush_complete(const sc_core::sc_time &) override {}
};

TEST(PlatformTraceWritePath, TraceLandsInMemoryUntilAnInjectedPermissionFault)
{
    virt_board b;
    translator mmu{"mmu"};
    trace_source src{"src"};
    trbe_port trbe{"trbe", 0xffff'0000'0000'0000};
    src.sink.bind(trbe);
    trbe.mmu.bind(mmu);
    trbe.bus.bind(b.bus.target);
    mmu.map(0xffff'0000'0000'0000, virt::ram_base, 0x10000);
    mmu.inject(0xffff'0000'0000'1000, 0x1000, make_fault(PMT_TRBE_FAULT_PERMISSION, 1, 3));
    sc_core::sc_start(3000, sc_core::SC_NS);
    EXPECT_EQ(trbe.fault.kind, PMT_TRBE_FAULT_PERMISSION);
    EXPECT_EQ(trbe.ptr, 0xffff'0000'0000'1000u); // stopped at the faulting page
    for (unsigned k = 0; k < 0x1000; k++)
        ASSERT_EQ(b.ram.data()[k], static_cast<uint8_t>(k));
}

TEST(PlatformTraceWritePath, AMemoryFaultRangeAnswersTheTraceWrite)
{
    virt_board b;
    translator mmu{"mmu"};
    trace_source src{"src"};
    trbe_port trbe{"trbe", virt::ram_base};
    src.sink.bind(trbe);
    trbe.mmu.bind(mmu);
    trbe.bus.bind(b.bus.target);
    b.ram.add_fault(0x200, 0x100, tlm::TLM_GENERIC_ERROR_RESPONSE, fault_access::write);
    sc_core::sc_start(1000, sc_core::SC_NS);
    EXPECT_EQ(trbe.error, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(trbe.ptr, virt::ram_base + 0x200);
    EXPECT_EQ(b.ram.faults_answered(), 1u);
}

} // namespace
