// The PL031 real-time clock (Arm DDI 0224C): its registers row by row (Table 3-1), the count in
// seconds of simulated time from its base, a load (RTCLR) that the counter's own edges go on
// from, the match interrupt (RTCMR == RTCDR) at its exact time, raised, masked and cleared
// (RTCIMSC, RTCRIS, RTCMIS, RTCICR), the RTCINTR output, and the TLM answers to bad accesses.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/devices/rtc_pl031.h>

#include <ctime>
#include <ostream>
#include <string>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
using sc_core::SC_MS;
using sc_core::SC_PS;
using sc_core::SC_SEC;
using sc_core::sc_time;

// Register offsets (Table 3-1).
constexpr uint64_t DR = 0x000, MR = 0x004, LR = 0x008, CR = 0x00C, IMSC = 0x010, RIS = 0x014,
                   MIS = 0x018, ICR = 0x01C;

// 2006-06-17T16:01:21 UTC, QEMU's example of -rtc base=.
constexpr uint32_t base_2006 = 1150560081;

rtc_config at(int64_t base)
{
    rtc_config c;
    c.base = base;
    return c;
}

// RTCINTR as the interrupt controller sees it: the level, and when it last changed (the time of
// the call plus its offset).
struct line_probe : level_if {
    bool level = false;
    unsigned rises = 0;
    sc_time changed;
    void set_level(bool l, const sc_time &offset) override
    {
        rises += l && !level;
        level = l;
        changed = sc_core::sc_time_stamp() + offset;
    }
};

// An RTC at `base` with its interrupt probed, reached at offset 0; built at the test's start
// (the tests share one simulation: its time goes on from test to test).
struct Rtc : ::testing::Test {
    initiator cpu{"cpu"};
    rtc_pl031 rtc;
    line_probe intr;
    sc_time built;
    explicit Rtc(int64_t base = base_2006) : rtc("rtc", at(base)), built(sc_core::sc_time_stamp())
    {
        cpu.socket.bind(rtc.socket);
        rtc.intr.bind(intr);
        if (sc_core::sc_pending_activity_at_current_time())
            sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
    uint32_t rd(uint64_t a) { return cpu.rd(a); }
    void wr(uint64_t a, uint32_t v) { ASSERT_TRUE(cpu.wr(a, v)); }
    // Runs the simulation to `t` after the RTC was built, and what is due then (sc_start stops
    // before the processes of its end time).
    void run_to(const sc_time &t)
    {
        sc_core::sc_start(built + t - sc_core::sc_time_stamp());
        if (sc_core::sc_pending_activity_at_current_time())
            sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

// A read at sc_time_stamp() + delay, as a decoupled CPU makes it.
uint32_t read_at(initiator &cpu, uint64_t address, const sc_time &delay)
{
    uint32_t v = 0;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(address);
    tx.set_data_ptr(reinterpret_cast<unsigned char *>(&v));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time d = delay;
    cpu.socket->b_transport(tx, d);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
    return v;
}

// ---------------------------------------------------------------------------------------------
// The registers, row by row (Table 3-1): reset value, a write of every bit, the read after (at
// the same simulated time: RTCDR does not move).
struct register_row {
    const char *name;
    uint32_t offset;
    uint32_t reset;
    uint32_t write;
    uint32_t after;
};

const register_row rows[] = {
    {"DrIsTheBaseAndReadOnly", 0x000, base_2006, 0xFFFFFFFF, base_2006},
    {"MrHoldsThirtyTwoBits", 0x004, 0, 0xFFFFFFFF, 0xFFFFFFFF},
    {"LrReadsWhatWasWritten", 0x008, 0, 0x12345678, 0x12345678},
    {"CrSaysStartedAndStaysSo", 0x00C, 1, 0, 1},
    {"ImscHoldsOneBit", 0x010, 0, 0xFFFFFFFF, 1},
    {"RisIsReadOnly", 0x014, 0, 0xFFFFFFFF, 0},
    {"MisIsReadOnly", 0x018, 0, 0xFFFFFFFF, 0},
    {"IcrIsWriteOnly", 0x01C, 0, 0xFFFFFFFF, 0},
    {"PeriphId0", 0xFE0, 0x31, 0xFFFFFFFF, 0x31},
    {"PeriphId1", 0xFE4, 0x10, 0xFFFFFFFF, 0x10},
    {"PeriphId2", 0xFE8, 0x04, 0xFFFFFFFF, 0x04},
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

class RtcRegister : public Rtc, public ::testing::WithParamInterface<register_row>
{
};

TEST_P(RtcRegister, ResetValueAndWhatAWriteLeaves)
{
    const register_row &r = GetParam();
    EXPECT_EQ(rd(r.offset), r.reset);
    wr(r.offset, r.write);
    EXPECT_EQ(rd(r.offset), r.after);
}

INSTANTIATE_TEST_SUITE_P(Pl031, RtcRegister, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<register_row> &p) {
                             return std::string(p.param.name);
                         });

// Tables 3-10 to 3-18 read as two 32-bit values: PeriphID 0x00041031 (part 0x031, designer 0x41,
// revision 0), which Linux's AMBA bus matches to rtc-pl031, and PCellID 0xB105F00D.
TEST_F(Rtc, IdentificationRegistersSayPl031AndPrimeCell)
{
    uint32_t periph = 0, pcell = 0;
    for (unsigned n = 0; n < 4; n++) {
        periph |= (rd(0xFE0 + 4 * n) & 0xFF) << (8 * n);
        pcell |= (rd(0xFF0 + 4 * n) & 0xFF) << (8 * n);
    }
    EXPECT_EQ(periph, 0x00041031u);
    EXPECT_EQ(pcell, 0xB105F00Du);
}

// ---------------------------------------------------------------------------------------------
// The count.

// The counter steps at each whole second of simulated time after the RTC is built (its CLK1HZ),
// and only then.
TEST_F(Rtc, CountsSecondsOfSimulatedTime)
{
    EXPECT_EQ(rd(DR), base_2006);
    run_to(sc_time(1, SC_SEC) - sc_time(1, SC_PS));
    EXPECT_EQ(rd(DR), base_2006);
    run_to(sc_time(1, SC_SEC));
    EXPECT_EQ(rd(DR), base_2006 + 1);
    run_to(sc_time(3600, SC_SEC) + sc_time(500, SC_MS));
    EXPECT_EQ(rd(DR), base_2006 + 3600);
    EXPECT_EQ(rtc.value(built + sc_time(7200, SC_SEC)), base_2006 + 7200);
    uint32_t peeked = 0; // a debugger's read sees the same
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, DR, &peeked, 4), 4u);
    EXPECT_EQ(peeked, base_2006 + 3600);
}

// An access carries its initiator's local time (sc_time_stamp() + delay): a CPU running ahead
// reads the count of its own time.
TEST_F(Rtc, AReadSeesTheCountAtItsLocalTime)
{
    run_to(sc_time(900, SC_MS));
    EXPECT_EQ(read_at(cpu, DR, sc_time(99, SC_MS)), base_2006);
    EXPECT_EQ(read_at(cpu, DR, sc_time(100, SC_MS)), base_2006 + 1);
}

// TRM 2.2.4: a load sets the RTC value at once; the counter goes on at its own edges (the next
// whole second of its clock, not a second after the load); RTCLR reads what was written.
TEST_F(Rtc, ALoadSetsTheValueAndTheCountGoesOnAtItsEdges)
{
    run_to(sc_time(2500, SC_MS));
    wr(LR, 1000);
    EXPECT_EQ(rd(DR), 1000u);
    EXPECT_EQ(rd(LR), 1000u);
    run_to(sc_time(3, SC_SEC) - sc_time(1, SC_PS));
    EXPECT_EQ(rd(DR), 1000u);
    run_to(sc_time(3, SC_SEC));
    EXPECT_EQ(rd(DR), 1001u);
    run_to(sc_time(13, SC_SEC));
    EXPECT_EQ(rd(DR), 1011u);
    EXPECT_EQ(rd(LR), 1000u);
}

// TRM 2.2.6: the counter wraps from 0xFFFFFFFF to 0 and goes on.
struct RtcAtTheEndOfItsCount : Rtc {
    RtcAtTheEndOfItsCount() : Rtc(0xFFFF'FFFF) {}
};

TEST_F(RtcAtTheEndOfItsCount, WrapsToZero)
{
    EXPECT_EQ(rd(DR), 0xFFFFFFFFu);
    wr(MR, 0);
    wr(IMSC, rtc_int);
    run_to(sc_time(1, SC_SEC));
    EXPECT_EQ(rd(DR), 0u);
    EXPECT_TRUE(intr.level); // the match at the wrap
    EXPECT_EQ(intr.changed, built + sc_time(1, SC_SEC));
    run_to(sc_time(2, SC_SEC));
    EXPECT_EQ(rd(DR), 1u);
}

// Out of 32 bits, the base's low 32 bits (the counter's width).
TEST(RtcBase, OnlyTheLowThirtyTwoBitsOfTheBaseCount)
{
    rtc_pl031 rtc("rtc", at((int64_t{1} << 32) + 5));
    EXPECT_EQ(rtc.base(), 5u);
}

// Without a base, the host's clock when the RTC is built (QEMU's -rtc base=utc).
TEST(RtcBase, TheHostsClockByDefault)
{
    const int64_t before = static_cast<int64_t>(std::time(nullptr));
    rtc_pl031 rtc("rtc");
    const int64_t after = static_cast<int64_t>(std::time(nullptr));
    EXPECT_GE(rtc.base(), static_cast<uint32_t>(before));
    EXPECT_LE(rtc.base(), static_cast<uint32_t>(after));
}

// ---------------------------------------------------------------------------------------------
// The match interrupt (TRM 2.1, 2.3.3, 3.6).

// Unmasked, RTCINTR rises at the exact second RTCDR becomes RTCMR (a scheduled event, not a
// poll), RTCRIS and RTCMIS say so, and a write of 1 to RTCICR clears it.
TEST_F(Rtc, MatchRaisesTheInterruptAtItsSecondAndIcrClearsIt)
{
    run_to(sc_time(250, SC_MS));
    wr(MR, base_2006 + 2);
    wr(IMSC, rtc_int);
    EXPECT_TRUE(sc_core::sc_pending_activity()); // the match is scheduled
    EXPECT_EQ(sc_core::sc_time_to_pending_activity(), sc_time(1750, SC_MS));
    run_to(sc_time(2, SC_SEC) - sc_time(1, SC_PS));
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(rd(RIS), 0u);
    run_to(sc_time(2, SC_SEC));
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(intr.changed, built + sc_time(2, SC_SEC));
    EXPECT_EQ(rd(DR), base_2006 + 2);
    EXPECT_EQ(rd(RIS), rtc_int);
    EXPECT_EQ(rd(MIS), rtc_int);
    wr(ICR, 0); // "Writing 0 has no effect"
    EXPECT_TRUE(intr.level);
    wr(ICR, rtc_int);
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(rd(RIS), 0u);
    EXPECT_EQ(rd(MIS), 0u);
    // Cleared within the matching second: it is not raised again (the match was an event).
    run_to(sc_time(2900, SC_MS));
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(intr.rises, 1u);
    // The next match of the same RTCMR is 2^32 seconds away: nothing is scheduled.
    EXPECT_FALSE(sc_core::sc_pending_activity());
}

// Masked (RTCIMSC 0): the raw status rises at the match and RTCINTR stays low; nothing is
// scheduled for it. Unmasking raises the line at once; masking again drops it.
TEST_F(Rtc, AMaskedMatchIsRawOnly)
{
    wr(MR, base_2006 + 1);
    EXPECT_FALSE(sc_core::sc_pending_activity());
    run_to(sc_time(1500, SC_MS));
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(rd(RIS), rtc_int);
    EXPECT_EQ(rd(MIS), 0u);
    wr(IMSC, rtc_int);
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(rd(MIS), rtc_int);
    wr(IMSC, 0);
    EXPECT_FALSE(intr.level);
    EXPECT_EQ(rd(RIS), rtc_int);
}

// A CPU ahead of SystemC's time that reads RTCRIS after the match's time sees it, and RTCINTR
// changes at the match's time, not at the read's.
TEST_F(Rtc, AReadAfterTheMatchInLocalTimeSeesIt)
{
    wr(MR, base_2006 + 1);
    wr(IMSC, rtc_int);
    run_to(sc_time(900, SC_MS));
    EXPECT_EQ(read_at(cpu, RIS, sc_time(50, SC_MS)), 0u);
    EXPECT_EQ(read_at(cpu, RIS, sc_time(200, SC_MS)), rtc_int);
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(intr.changed, built + sc_time(1, SC_SEC));
    run_to(sc_time(1200, SC_MS)); // the scheduled event finds it taken
    EXPECT_EQ(intr.rises, 1u);
}

// A write that makes RTCDR and RTCMR equal is a match at once: of RTCMR, or of RTCLR.
TEST_F(Rtc, AWriteThatMakesThemEqualMatchesAtOnce)
{
    wr(IMSC, rtc_int);
    wr(MR, base_2006);
    EXPECT_TRUE(intr.level);
    wr(ICR, rtc_int);
    EXPECT_FALSE(intr.level);
    wr(LR, base_2006 + 100);
    EXPECT_FALSE(intr.level);
    wr(LR, base_2006); // RTCMR's value again
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(intr.rises, 2u);
}

// A load moves the match: the scheduled event follows RTCDR's new value.
TEST_F(Rtc, ALoadMovesTheScheduledMatch)
{
    wr(MR, 5000);
    wr(IMSC, rtc_int);
    wr(LR, 4990); // 10 edges to go
    run_to(sc_time(10, SC_SEC) - sc_time(1, SC_PS));
    EXPECT_FALSE(intr.level);
    run_to(sc_time(10, SC_SEC));
    EXPECT_TRUE(intr.level);
    EXPECT_EQ(intr.changed, built + sc_time(10, SC_SEC));
}

// ---------------------------------------------------------------------------------------------

// Only 32-bit accesses (an APB slave: PWDATA[31:0], PADDR[11:2]); the reserved offsets and the
// test registers (Table 4-1, "must not be accessed during normal operation") are not registers.
TEST_F(Rtc, BadAccessesAreTlmErrors)
{
    uint64_t v = 0;
    for (unsigned size : {1u, 2u, 8u})
        EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(DR, v, size), tlm::TLM_BURST_ERROR_RESPONSE),
                                "not allowed");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.write(LR, 7, 2), tlm::TLM_BURST_ERROR_RESPONSE),
                            "not allowed");
    EXPECT_EQ(rd(LR), 0u);
    for (uint64_t offset : {0x020u, 0x07Cu, 0x080u, 0x090u, 0x094u, 0xFCCu, 0xFD0u, 0xFDCu})
        EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(offset, v), tlm::TLM_ADDRESS_ERROR_RESPONSE)
                                    << offset,
                                "no register");
    EXPECT_EQ(rd(DR), base_2006);
}

// The frame on the virt map: RTCDR at 0x0901_0000.
TEST(RtcOnTheBus, AtVirtsAddress)
{
    initiator cpu{"cpu"};
    router bus{"bus"};
    rtc_pl031 rtc{"rtc", at(base_2006)};
    cpu.socket.bind(bus.target);
    bus.initiator.bind(rtc.socket);
    bus.map(0, virt::rtc_base, virt::rtc_size);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.rd(virt::rtc_base + DR), base_2006);
    EXPECT_EQ(cpu.rd(virt::rtc_base + CR), rtccr_start);
    EXPECT_EQ(cpu.rd(virt::rtc_base + 0xFFC), 0xB1u);
}

} // namespace
