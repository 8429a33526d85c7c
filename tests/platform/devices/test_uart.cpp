// The PL011 UART (Arm DDI 0183): its registers row by row, transmit at once, the receive FIFO and
// holding register, UARTFR, the receive, receive timeout and transmit interrupts and their
// masking and clearing (UARTIMSC, UARTRIS, UARTMIS, UARTICR), the UARTIFLS trigger levels, the
// UARTINTR output, and the input polled while software waits for it by interrupt.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/devices/uart_pl011.h>

#include <memory>
#include <ostream>
#include <string>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
constexpr uint64_t uart = virt::uart_base;

// Register offsets.
constexpr uint64_t DR = 0x000, FR = 0x018, IBRD = 0x024, FBRD = 0x028, LCR_H = 0x02C, IFLS = 0x034,
                   IMSC = 0x038, RIS = 0x03C, MIS = 0x040, ICR = 0x044;

// UARTINTR as the interrupt controller sees it.
struct line_probe : level_if {
    bool level = false;
    unsigned rises = 0;
    void set_level(bool l, const sc_core::sc_time &) override
    {
        rises += l && !level;
        level = l;
    }
};

// Characters "typed" by the test: the input hands them out one by one, then says none is
// waiting (or, once `end` is set, that the input ended). `calls` counts the questions.
struct typed_input {
    std::string text;
    bool end = false;
    unsigned calls = 0;
    int next()
    {
        calls++;
        if (text.empty())
            return end ? uart_input_ended : uart_input_none;
        const int c = static_cast<unsigned char>(text.front());
        text.erase(0, 1);
        return c;
    }
};

uart_config with_input(typed_input &in)
{
    uart_config c;
    c.input = [&in] { return in.next(); };
    return c;
}

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

// A UART with input from `in` and its interrupt output probed, at offset 0.
struct UartInput : ::testing::Test {
    typed_input in;
    initiator cpu{"cpu"};
    uart_pl011 u{"uart", with_input(in)};
    line_probe intr;
    UartInput()
    {
        cpu.socket.bind(u.socket);
        u.intr.bind(intr);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
    uint32_t rd(uint64_t a) { return cpu.rd(a); }
    void wr(uint64_t a, uint32_t v) { ASSERT_TRUE(cpu.wr(a, v)); }
    void fifos_on() { wr(LCR_H, uartlcr_h_fen | 0x60); } // FEN, 8 bits
};

// ---------------------------------------------------------------------------------------------
// The registers, row by row: reset value, a write of every bit, the read after.
struct register_row {
    const char *name;
    uint32_t offset;
    uint32_t reset;
    uint32_t write;
    uint32_t after;
};

const register_row rows[] = {
    {"RsrIsZeroAndAWriteClearsNothing", 0x004, 0, 0xFFFFFFFF, 0},
    {"FrSaysBothFifosEmpty", 0x018, 0x90, 0xFFFFFFFF, 0x90},
    {"IlprHoldsEightBits", 0x020, 0, 0xFFFFFFFF, 0xFF},
    {"IbrdHoldsSixteenBits", 0x024, 0, 0xFFFFFFFF, 0xFFFF},
    {"FbrdHoldsSixBits", 0x028, 0, 0xFFFFFFFF, 0x3F},
    {"LcrHHoldsEightBits", 0x02C, 0, 0xFFFFFFFF, 0xFF},
    {"CrResetsWithTxeAndRxe", 0x030, 0x300, 0xFFFFFFFF, 0xFF87},
    {"IflsResetsAtHalfFull", 0x034, 0x12, 0xFFFFFFFF, 0x3F},
    {"ImscHoldsElevenMasks", 0x038, 0, 0xFFFFFFFF, 0x7FF},
    {"RisIsReadOnly", 0x03C, 0, 0xFFFFFFFF, 0},
    {"MisIsReadOnly", 0x040, 0, 0xFFFFFFFF, 0},
    {"IcrIsWriteOnly", 0x044, 0, 0xFFFFFFFF, 0},
    {"DmacrHoldsThreeBits", 0x048, 0, 0xFFFFFFFF, 0x7},
    {"PeriphId0", 0xFE0, 0x11, 0xFFFFFFFF, 0x11},
    {"PeriphId1", 0xFE4, 0x10, 0xFFFFFFFF, 0x10},
    {"PeriphId2SaysRevision1", 0xFE8, 0x14, 0xFFFFFFFF, 0x14},
    {"PeriphId3", 0xFEC, 0x00, 0xFFFFFFFF, 0x00},
    {"PCellId0", 0xFF0, 0x0D, 0xFFFFFFFF, 0x0D},
    {"PCellId1", 0xFF4, 0xF0, 0xFFFFFFFF, 0xF0},
    {"PCellId2", 0xFF8, 0x05, 0xFFFFFFFF, 0x05},
    {"PCellId3", 0xFFC, 0xB1, 0xFFFFFFFF, 0xB1},
};

void PrintTo(const register_row &r, std::ostream *os)
{
    *os << "offset 0x" << std::hex << r.offset << ", " << r.name;
}

class UartRegister : public ::testing::TestWithParam<register_row>
{
  protected:
    initiator cpu{"cpu"};
    uart_pl011 u{"uart"};
    UartRegister()
    {
        cpu.socket.bind(u.socket);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST_P(UartRegister, ResetValueAndWhatAWriteLeaves)
{
    const register_row &r = GetParam();
    EXPECT_EQ(cpu.rd(r.offset), r.reset);
    ASSERT_TRUE(cpu.wr(r.offset, r.write));
    EXPECT_EQ(cpu.rd(r.offset), r.after);
    EXPECT_TRUE(u.output().empty());
}

INSTANTIATE_TEST_SUITE_P(Pl011, UartRegister, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<register_row> &p) {
                             return std::string(p.param.name);
                         });

// ---------------------------------------------------------------------------------------------
// Transmit.

TEST_F(UartTest, CharactersWrittenToTheDataRegisterAreCollected)
{
    for (char c : std::string("pmtrace\n")) {
        ASSERT_EQ(cpu.rd(uart + FR) & uartfr_txff, 0u); // a polling putc: wait while TXFF
        ASSERT_TRUE(cpu.wr(uart + DR, static_cast<uint8_t>(c)));
    }
    EXPECT_EQ(u.output(), "pmtrace\n");
    EXPECT_EQ(cpu.write(uart + DR, 'x', 1), tlm::TLM_OK_RESPONSE); // byte access, as writeb
    EXPECT_EQ(u.output(), "pmtrace\nx");
    EXPECT_EQ(cpu.write(uart + DR + 1, 'y', 1), tlm::TLM_OK_RESPONSE); // not the data byte
    EXPECT_EQ(u.output(), "pmtrace\nx");
    // Sent at once: the transmit FIFO is empty again, nothing is busy.
    EXPECT_EQ(cpu.rd(uart + FR) & (uartfr_txfe | uartfr_txff | uartfr_busy), uartfr_txfe);
}

TEST_F(UartTest, FlagsSayTransmitEmptyAndReceiveEmpty)
{
    EXPECT_EQ(cpu.rd(uart + FR), uartfr_txfe | uartfr_rxfe);
    EXPECT_EQ(cpu.rd(uart + DR), 0u);
}

// UARTTXINTR "is based on a transition through a level": not set out of reset, nor when it is
// unmasked before anything was written; set when a written character leaves (at once here), in
// both FIFO modes; cleared by UARTICR.
TEST_F(UartInput, TransmitInterruptFollowsEachCharacterSent)
{
    wr(IMSC, uart_int_tx);
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_FALSE(intr.level);
    wr(DR, 'a');
    EXPECT_EQ(rd(RIS), uart_int_tx);
    EXPECT_EQ(rd(MIS), uart_int_tx);
    EXPECT_TRUE(intr.level);
    wr(ICR, uart_int_tx);
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_FALSE(intr.level);
    fifos_on();
    wr(DR, 'b');
    EXPECT_TRUE(intr.level);
    wr(IMSC, 0); // masked: still raw, no longer signalled
    EXPECT_EQ(rd(RIS), uart_int_tx);
    EXPECT_EQ(rd(MIS), 0u);
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(u.output(), "ab");
}

// ---------------------------------------------------------------------------------------------
// Receive.

// Without FIFOs (UARTLCR_H.FEN 0, the reset value) the receive side holds one character: it is
// full with one, and the next stays with the input until the first is read.
TEST_F(UartInput, WithoutFifosOneCharacterFillsTheHoldingRegister)
{
    in.text = "ok";
    EXPECT_EQ(rd(FR), uartfr_txfe | uartfr_rxff);
    EXPECT_EQ(u.received(), 1u);
    EXPECT_EQ(rd(RIS), uart_int_rx); // "data is received thereby filling the location"
    uint32_t peeked = 0;
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, DR, &peeked, 4), 4u); // a debugger takes nothing
    EXPECT_EQ(peeked, uint32_t{'o'});
    EXPECT_EQ(rd(DR), uint32_t{'o'});
    EXPECT_EQ(rd(RIS), 0u); // one read clears it
    EXPECT_EQ(rd(DR), uint32_t{'k'});
    EXPECT_EQ(rd(FR), uartfr_txfe | uartfr_rxfe); // nothing more
    EXPECT_EQ(rd(DR), 0u);
}

TEST_F(UartInput, WithFifosSixteenCharactersFillTheFifo)
{
    fifos_on();
    in.text = "0123456789abcdefXYZ";
    EXPECT_EQ(rd(FR), uartfr_txfe | uartfr_rxff);
    EXPECT_EQ(u.received(), 16u);
    EXPECT_EQ(in.text, "XYZ"); // waiting with the input: no overrun
    std::string got;
    for (int i = 0; i < 16; i++)
        got.push_back(static_cast<char>(rd(DR)));
    EXPECT_EQ(got, "0123456789abcdef");
    EXPECT_EQ(rd(FR), uartfr_txfe); // the rest arrived at this look
    EXPECT_EQ(u.received(), 3u);
}

// UARTRXINTR with FIFOs: set when the FIFO reaches the UARTIFLS.RXIFLSEL level, cleared when
// reads take it below the level or by UARTICR.
struct level_row {
    unsigned rxiflsel;
    unsigned characters; // the FIFO's fill at which RXRIS rises
};

class UartReceiveLevel : public UartInput, public ::testing::WithParamInterface<level_row>
{
};

TEST_P(UartReceiveLevel, ReceiveInterruptAtTheTriggerLevel)
{
    const level_row r = GetParam();
    fifos_on();
    wr(IFLS, r.rxiflsel << 3);
    wr(IMSC, uart_int_rx);
    for (unsigned n = 1; n <= 16; n++) {
        in.text = "x";
        (void)rd(FR); // the UART takes it
        ASSERT_EQ(u.received(), n);
        EXPECT_EQ(rd(RIS) & uart_int_rx, n >= r.characters ? uart_int_rx : 0u) << n;
        EXPECT_EQ(intr.level, n >= r.characters) << n;
    }
    for (unsigned n = 16; n > 0; n--) {
        EXPECT_EQ(rd(RIS) & uart_int_rx, n >= r.characters ? uart_int_rx : 0u) << n;
        (void)rd(DR);
    }
    EXPECT_FALSE(intr.level);
}

std::string level_name(const ::testing::TestParamInfo<level_row> &p)
{
    static const char *const names[] = {"OneEighth",     "OneQuarter",   "OneHalf",
                                        "ThreeQuarters", "SevenEighths", "ReservedAsOneHalf"};
    return names[p.param.rxiflsel];
}

INSTANTIATE_TEST_SUITE_P(Pl011, UartReceiveLevel,
                         ::testing::Values(level_row{0, 2}, level_row{1, 4}, level_row{2, 8},
                                           level_row{3, 12}, level_row{4, 14}, level_row{5, 8}),
                         level_name);

TEST_F(UartInput, IcrClearsTheReceiveInterruptUntilTheLevelIsReachedAgain)
{
    fifos_on();
    wr(IFLS, 0); // 1/8: 2 characters
    wr(IMSC, uart_int_rx);
    in.text = "ab";
    (void)rd(FR);
    EXPECT_TRUE(intr.level);
    wr(ICR, uart_int_rx);
    EXPECT_FALSE(intr.level);
    in.text = "c"; // above the level already: no new transition
    (void)rd(FR);
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_EQ(rd(DR), uint32_t{'a'});
    EXPECT_EQ(rd(DR), uint32_t{'b'}); // below the level
    in.text = "d";                    // and up to it again
    (void)rd(FR);
    EXPECT_EQ(rd(RIS), uart_int_rx);
}

// UARTRTINTR: the FIFO is not empty and nothing more arrived for 32 bit periods. At 115200 baud
// from 24 MHz (UARTIBRD 13, UARTFBRD 1: BAUDDIV 13.015625) a bit is 8.677 us, 32 bits
// 277.667 us. A character that arrives meanwhile starts the period again; reading the FIFO
// empty clears it.
TEST_F(UartInput, ReceiveTimeoutAfter32BitPeriodsWithoutACharacter)
{
    using sc_core::SC_NS;
    using sc_core::sc_time;
    fifos_on();
    wr(IBRD, 13);
    wr(FBRD, 1);
    wr(IMSC, uart_int_rt);
    in.text = "abc"; // below the 1/2 level: no receive interrupt
    (void)rd(FR);
    sc_core::sc_start(sc_time(277666, SC_NS));
    EXPECT_EQ(rd(RIS), 0u);
    sc_core::sc_start(sc_time(1, SC_NS));
    EXPECT_EQ(rd(RIS), uart_int_rt);
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(rd(DR), uint32_t{'a'});
    EXPECT_TRUE(intr.level); // not empty yet
    in.text = "d";
    (void)rd(FR);
    EXPECT_TRUE(intr.level); // still set: only reading the FIFO empty or UARTICR clears it
    for (char c : std::string("bcd"))
        EXPECT_EQ(rd(DR), uint32_t(c));
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_FALSE(intr.level);

    in.text = "e";
    (void)rd(FR);
    sc_core::sc_start(sc_time(200000, SC_NS));
    in.text = "f"; // 200 us later: the period starts again
    (void)rd(FR);
    sc_core::sc_start(sc_time(200000, SC_NS));
    EXPECT_EQ(rd(RIS), 0u);
    sc_core::sc_start(sc_time(78000, SC_NS));
    EXPECT_EQ(rd(RIS), uart_int_rt);
    wr(ICR, uart_int_rt);
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_EQ(u.received(), 2u);
}

// While software waits for characters by interrupt (UARTIMSC.RXIM or RTIM), the UART asks the
// input every input_poll (1 ms) with no register read; otherwise it asks only when software
// reads UARTFR or UARTDR. An input that ended is not asked again.
TEST_F(UartInput, TheInputIsPolledOnlyWhileSoftwareWaitsByInterrupt)
{
    using sc_core::SC_MS;
    using sc_core::sc_time;
    in.text = "a";
    sc_core::sc_start(sc_time(5, SC_MS));
    EXPECT_EQ(in.calls, 0u);
    EXPECT_EQ(u.received(), 0u);
    wr(IMSC, uart_int_rx | uart_int_rt);
    sc_core::sc_start(sc_time(1, sc_core::SC_NS));
    EXPECT_EQ(u.received(), 1u); // at once
    EXPECT_TRUE(intr.level);     // RXRIS: the holding register is full
    EXPECT_EQ(rd(DR), uint32_t{'a'});
    EXPECT_FALSE(intr.level);
    in.text = "b";
    sc_core::sc_start(sc_time(2, SC_MS));
    EXPECT_TRUE(intr.level); // taken at a poll
    EXPECT_EQ(rd(DR), uint32_t{'b'});
    in.end = true;
    sc_core::sc_start(sc_time(1, SC_MS));
    const unsigned calls = in.calls;
    sc_core::sc_start(sc_time(10, SC_MS));
    EXPECT_EQ(in.calls, calls);
    EXPECT_FALSE(sc_core::sc_pending_activity());
}

TEST_F(UartInput, MaskedInterruptsLeaveTheLineLow)
{
    in.text = "a";
    (void)rd(FR);
    EXPECT_EQ(rd(RIS), uart_int_rx);
    EXPECT_EQ(rd(MIS), 0u);
    EXPECT_FALSE(intr.level);
    wr(IMSC, uart_int_rx);
    EXPECT_EQ(rd(MIS), uart_int_rx);
    EXPECT_TRUE(intr.level);
    wr(IMSC, uart_int_tx | uart_int_rt);
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(intr.rises, 1u);
}

TEST(UartConfig, APollPeriodOfZeroIsRefusedForTheDefault)
{
    uart_config c;
    c.input_poll = sc_core::SC_ZERO_TIME;
    std::unique_ptr<uart_pl011> u;
    EXPECT_NONFATAL_FAILURE(u = std::make_unique<uart_pl011>("uart", c), "input_poll of 0");
}

// ---------------------------------------------------------------------------------------------

TEST_F(UartTest, ControlRegistersHoldWhatIsWrittenFromTheirResetValues)
{
    EXPECT_EQ(cpu.rd(uart + 0x30), 0x300u); // UARTCR: TXE, RXE
    ASSERT_TRUE(cpu.wr(uart + 0x30, 0x301));
    EXPECT_EQ(cpu.rd(uart + 0x30), 0x301u);
    ASSERT_TRUE(cpu.wr(uart + IBRD, 13));
    EXPECT_EQ(cpu.rd(uart + IBRD), 13u);
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
