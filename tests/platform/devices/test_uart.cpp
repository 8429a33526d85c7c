// The PL011 UART: characters written to UARTDR are collected, UARTFR never makes a driver wait,
// characters received from the input, identification registers, bad accesses.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/devices/uart_pl011.h>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
constexpr uint64_t uart = virt::uart_base;

struct UartTest : ::testing::Test {
    initiator cpu{"cpu"};
    router bus{"bus"};
    uart_pl011 u{"uart"};
    UartTest()
    {
        cpu.socket.bind(bus.target);
        bus.initiator.bind(u.socket);
        bus.map(0, virt::uart_base, virt::uart_size);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST_F(UartTest, CharactersWrittenToTheDataRegisterAreCollected)
{
    for (char c : std::string("pmtrace\n")) {
        ASSERT_EQ(cpu.rd(uart + 0x18) & uartfr_txff, 0u); // a polling putc: wait while TXFF
        ASSERT_TRUE(cpu.wr(uart + 0x0, static_cast<uint8_t>(c)));
    }
    EXPECT_EQ(u.output(), "pmtrace\n");
    EXPECT_EQ(cpu.write(uart + 0x0, 'x', 1), tlm::TLM_OK_RESPONSE); // byte access, as writeb
    EXPECT_EQ(u.output(), "pmtrace\nx");
}

TEST_F(UartTest, FlagsSayTransmitEmptyAndReceiveEmpty)
{
    EXPECT_EQ(cpu.rd(uart + 0x18), uartfr_txfe | uartfr_rxfe);
    EXPECT_EQ(cpu.rd(uart + 0x0), 0u);
}

// The receive side: a waiting character clears UARTFR.RXFE and a read of UARTDR takes it; a
// debug read (a debugger's view) takes nothing.
TEST(UartInput, ReceivedCharactersAreReadInOrderFromTheDataRegister)
{
    std::string typed = "ok";
    uart_config config;
    config.input = [&typed]() {
        if (typed.empty())
            return -1;
        const int c = static_cast<unsigned char>(typed.front());
        typed.erase(0, 1);
        return c;
    };
    initiator cpu{"cpu"};
    uart_pl011 u{"uart", config};
    cpu.socket.bind(u.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.rd(0x18) & uartfr_rxfe, 0u);
    uint32_t peeked = 0;
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0x0, &peeked, 4), 4u);
    EXPECT_EQ(peeked, uint32_t{'o'});
    EXPECT_EQ(cpu.rd(0x0), uint32_t{'o'});
    EXPECT_EQ(cpu.rd(0x0), uint32_t{'k'});
    EXPECT_EQ(cpu.rd(0x18), uartfr_txfe | uartfr_rxfe); // nothing more
    EXPECT_EQ(cpu.rd(0x0), 0u);
}

TEST_F(UartTest, ControlRegistersHoldWhatIsWrittenFromTheirResetValues)
{
    EXPECT_EQ(cpu.rd(uart + 0x30), 0x300u); // UARTCR: TXE, RXE
    ASSERT_TRUE(cpu.wr(uart + 0x30, 0x301));
    EXPECT_EQ(cpu.rd(uart + 0x30), 0x301u);
    ASSERT_TRUE(cpu.wr(uart + 0x24, 13)); // UARTIBRD
    EXPECT_EQ(cpu.rd(uart + 0x24), 13u);
}

TEST_F(UartTest, IdentificationIsAPl011)
{
    const uint32_t expected[8] = {0x11, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1};
    for (unsigned i = 0; i < 4; i++) {
        EXPECT_EQ(cpu.rd(uart + 0xFE0 + 4 * i), expected[i]);
        EXPECT_EQ(cpu.rd(uart + 0xFF0 + 4 * i), expected[4 + i]);
    }
}

TEST_F(UartTest, BadAccessesAreTlmErrors)
{
    uint64_t v;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(uart + 0x100, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no register");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(uart + 0x0, v, 8), tlm::TLM_BURST_ERROR_RESPONSE),
                            "not allowed");
    EXPECT_TRUE(u.output().empty());
}

} // namespace
