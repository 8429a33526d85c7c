// The PL011's receive interrupts end to end on the AArch64 CPU (tests/platform/cpu/a64/
// uart_rx_irq.S): characters from the UART's input reach its receive FIFO while the program
// waits in WFI, UARTINTR raises SPI 33 in the GIC, the CPU takes the IRQ (VBAR_EL1 + 0x280),
// ICC_IAR1_EL1 returns 33, and the handler reads the characters from UARTDR.
#include "a64_program.h"

#include <gtest/gtest.h>

#include <string>

using namespace pmtrace::platform;
using namespace a64_test;

namespace
{

// The platform with `typed` as the PL011's input, handed out one character at a time.
vp_config typing(std::string &typed)
{
    vp_config c;
    c.uart.input = [&typed] {
        if (typed.empty())
            return uart_input_none;
        const int ch = static_cast<unsigned char>(typed.front());
        typed.erase(0, 1);
        return ch;
    };
    return c;
}

uint64_t packed(const std::string &s)
{
    uint64_t v = 0;
    for (size_t i = 0; i < s.size() && i < 8; i++)
        v |= uint64_t{static_cast<unsigned char>(s[i])} << (8 * i);
    return v;
}

} // namespace

// Eight characters reach the 1/2-full trigger level: the receive interrupt (UARTMIS.RXMIS).
TEST(A64Uart, ReceiveInterruptAtTheTriggerLevelIsSpi33)
{
    std::string typed = "abcdefgh";
    run_result r = run("uart_rx_irq", typing(typed));
    EXPECT_EQ(r.x[19], 1u);
    EXPECT_EQ(r.x[20], virt::uart_intid);
    EXPECT_EQ(r.x[21], uart_int_rx);
    EXPECT_EQ(r.x[22], packed("abcdefgh"));
    EXPECT_EQ(r.x[28], 5u); // entry 5: current EL with SPx, IRQ
    EXPECT_EQ(r.platform->a64->stats().irqs, 1u);
    EXPECT_EQ(r.platform->gic.cpu(0).acknowledged(virt::uart_intid), 1u);
}

// Seven characters stay below the level: 32 bit periods later the receive timeout interrupt
// (UARTMIS.RTMIS) brings them.
TEST(A64Uart, ReceiveTimeoutInterruptBringsFewerCharacters)
{
    std::string typed = "pmtrace";
    run_result r = run("uart_rx_irq", typing(typed));
    EXPECT_EQ(r.x[19], 1u);
    EXPECT_EQ(r.x[20], virt::uart_intid);
    EXPECT_EQ(r.x[21], uart_int_rt);
    EXPECT_EQ(r.x[22], packed("pmtrace"));
    EXPECT_EQ(r.platform->gic.cpu(0).acknowledged(virt::uart_intid), 1u);
    EXPECT_TRUE(typed.empty());
}
