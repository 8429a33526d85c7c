// The router: address decode, holes, debug accesses, DMI ranges and invalidation.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/router.h>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
using sc_core::SC_NS;
using sc_core::sc_time;

memory_config mem(uint64_t size)
{
    memory_config c;
    c.size = size;
    c.read_latency = sc_time(5, SC_NS);
    c.write_latency = sc_time(7, SC_NS);
    return c;
}

// A RAM window at 0x4000_0000 showing the second 4 KiB of an 8 KiB memory (local_base 0x1000),
// and a 4 KiB device at 0x0900_0000.
struct RouterTest : ::testing::Test {
    initiator cpu{"cpu"};
    router bus{"bus", sc_time(2, SC_NS)};
    memory ram{"ram", mem(0x2000)};
    memory dev{"dev", mem(0x1000)};

    RouterTest()
    {
        cpu.socket.bind(bus.target);
        bus.initiator.bind(ram.socket); // port 0
        bus.initiator.bind(dev.socket); // port 1
        EXPECT_TRUE(bus.map(0, 0x4000'0000, 0x1000, 0x1000));
        EXPECT_TRUE(bus.map(1, 0x0900'0000, 0x1000));
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST_F(RouterTest, DecodesToTheMappedTargetAtItsLocalAddress)
{
    EXPECT_EQ(cpu.write(0x4000'0010, 0x11223344), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(ram.data()[0x1010], 0x44);
    EXPECT_EQ(ram.data()[0x1013], 0x11);
    EXPECT_EQ(cpu.last_address, 0x4000'0010u);   // the initiator's address is restored
    EXPECT_EQ(cpu.delay, sc_time(2 + 7, SC_NS)); // bus latency + write latency
    EXPECT_EQ(cpu.write(0x0900'0ffc, 0xa5, 1), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(dev.data()[0xffc], 0xa5);
    EXPECT_EQ(cpu.rd(0x4000'0010), 0x11223344u);
    EXPECT_EQ(cpu.delay, sc_time(2 + 5, SC_NS));
}

TEST_F(RouterTest, AHoleIsAnAddressError)
{
    uint64_t v = 0;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x5000'0000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no target at 0x50000000");
}

// A warning repeated (a driver writing trace into a hole, thousands of times) is one warning and
// a count: the first is reported, the others counted and reported once, with their number and
// the last one, at the end of simulation (module_log).
TEST_F(RouterTest, RepeatedHolesAreReportedOnceWithACount)
{
    uint64_t v = 0;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x5000'0000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no target at 0x50000000");
    EXPECT_EQ(cpu.write(0x08ff'fffc, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu.write(0x08ff'fff8, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bus.log().repeats("no target"), 2u);
    EXPECT_NONFATAL_FAILURE(
        bus.log().report_repeats(),
        "no target: 2 more since the first (the last: no target at 0x8fffff8 (4 bytes))");
    EXPECT_EQ(bus.log().repeats("no target"), 0u); // reported: not again at the end
}

TEST_F(RouterTest, AnAccessRunningPastItsMappingIsAnAddressError)
{
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(cpu.write(0x4000'0ffe, 0xffff'ffff), tlm::TLM_ADDRESS_ERROR_RESPONSE),
        "no target at 0x40000ffe");
    EXPECT_EQ(ram.data()[0x1ffe], 0); // nothing written
}

TEST_F(RouterTest, DebugAccessesAreRoutedAndCutAtTheMapping)
{
    uint32_t v = 0xcafef00d;
    EXPECT_EQ(cpu.debug(tlm::TLM_WRITE_COMMAND, 0x0900'0004, &v, 4), 4u);
    EXPECT_EQ(dev.data()[4], 0x0d);
    uint8_t buf[8] = {};
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0x4000'0ffc, buf, 8), 4u);
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0x5000'0000, buf, 4), 0u);
}

TEST_F(RouterTest, DmiRangeIsTrimmedToTheMappingAndTranslated)
{
    tlm::tlm_dmi d;
    ASSERT_TRUE(cpu.dmi(0x4000'0010, d));
    // The memory grants its whole 8 KiB; the window shows local 0x1000..0x1fff.
    EXPECT_EQ(d.get_start_address(), 0x4000'0000u);
    EXPECT_EQ(d.get_end_address(), 0x4000'0fffu);
    EXPECT_EQ(d.get_dmi_ptr(), ram.data() + 0x1000);
    EXPECT_EQ(d.get_read_latency(), sc_time(5, SC_NS));
    EXPECT_EQ(d.get_write_latency(), sc_time(7, SC_NS));
    EXPECT_TRUE(d.is_read_write_allowed());
}

TEST_F(RouterTest, DmiInAHoleIsRefusedOverTheHole)
{
    tlm::tlm_dmi d;
    EXPECT_FALSE(cpu.dmi(0x5000'0000, d));
    EXPECT_EQ(d.get_start_address(), 0x4000'1000u);
    EXPECT_EQ(d.get_end_address(), ~uint64_t{0});
    EXPECT_FALSE(cpu.dmi(0x0800'0000, d));
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), 0x08ff'ffffu);
}

TEST_F(RouterTest, InvalidationReachesTheInitiatorInBusAddresses)
{
    ram.add_fault(0x1010, 0x10, tlm::TLM_GENERIC_ERROR_RESPONSE);
    ASSERT_EQ(cpu.invalidations.size(), 1u);
    EXPECT_EQ(cpu.invalidations[0].first, 0x4000'0010u);
    EXPECT_EQ(cpu.invalidations[0].second, 0x4000'001fu);
    // A range the window does not show is not the initiator's business.
    ram.add_fault(0x10, 0x10, tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(cpu.invalidations.size(), 1u);
    // A range straddling the window is cut to it.
    ram.add_fault(0xff0, 0x20, tlm::TLM_GENERIC_ERROR_RESPONSE);
    ASSERT_EQ(cpu.invalidations.size(), 2u);
    EXPECT_EQ(cpu.invalidations[1].first, 0x4000'0000u);
    EXPECT_EQ(cpu.invalidations[1].second, 0x4000'000fu);
}

TEST_F(RouterTest, OverlappingOrEmptyMappingsAreRefused)
{
    EXPECT_NONFATAL_FAILURE(EXPECT_FALSE(bus.map(1, 0x4000'0800, 0x1000)), "overlapping");
    EXPECT_NONFATAL_FAILURE(EXPECT_FALSE(bus.map(1, 0x6000'0000, 0)), "refused");
    EXPECT_EQ(bus.mappings().size(), 2u);
    ASSERT_NE(bus.decode(0x0900'0fff), nullptr);
    EXPECT_EQ(bus.decode(0x0900'0fff)->port, 1u);
    EXPECT_EQ(bus.decode(0x0900'1000), nullptr);
}

} // namespace
