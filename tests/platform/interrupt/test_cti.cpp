// The Cross-Trigger Interface: the trigger allocation of H5.4, channel mapping (CTIINEN,
// CTIOUTEN), application triggers, acknowledge, gating, status registers and identification
// (H9.5), and the examples of H5.6.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/interrupt/cti.h>
#include <pmtrace/platform/interrupt/gic.h>

#include <vector>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
// The offset of the tests' own calls: their changes are at sc_time_stamp().
const sc_core::sc_time now;

// CTI register offsets (H9.5).
constexpr uint64_t CTICONTROL = 0x000, CTIINTACK = 0x010, CTIAPPSET = 0x014, CTIAPPCLEAR = 0x018,
                   CTIAPPPULSE = 0x01C, CTITRIGINSTATUS = 0x130, CTITRIGOUTSTATUS = 0x134,
                   CTICHINSTATUS = 0x138, CTICHOUTSTATUS = 0x13C, CTIGATE = 0x140;
constexpr uint64_t CTIINEN(unsigned n)
{
    return 0x020 + 4 * n;
}
constexpr uint64_t CTIOUTEN(unsigned n)
{
    return 0x0A0 + 4 * n;
}

struct trigger_probe : cti_trigger_if {
    std::vector<unsigned> events;
    void trigger_event(unsigned n, const sc_core::sc_time &) override { events.push_back(n); }
};

struct CtiTest : ::testing::Test {
    initiator dbg{"dbg"};
    cti c{"cti"};
    trigger_probe trace_unit;

    CtiTest()
    {
        dbg.socket.bind(c.socket);
        c.out_event[cti_out::trace_in0].bind(trace_unit);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
    void wr(uint64_t offset, uint32_t v) { ASSERT_TRUE(dbg.wr(offset, v)); }
    uint32_t rd(uint64_t offset) { return dbg.rd(offset); }
};

TEST_F(CtiTest, PmuOverflowOnInput1ThroughChannel2RaisesTheDebugRequestUntilAcknowledged)
{
    wr(CTICONTROL, 1);
    wr(CTIINEN(cti_in::pmu_overflow), 1u << 2);
    wr(CTIOUTEN(cti_out::debug_request), 1u << 2);
    c.trigger_event(cti_in::pmu_overflow, now);
    EXPECT_EQ(c.out_event[0].count(), 1u);
    EXPECT_TRUE(c.out_level[0].read()); // H5.4.1: asserted until acknowledged
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u);
    EXPECT_EQ(c.out_event[1].count(), 0u);
    wr(CTIINTACK, 1);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
    EXPECT_FALSE(c.out_level[0].read());
}

TEST_F(CtiTest, ExampleH5_4_HaltOnOverflowKeepsTheChannelOffTheMatrix)
{
    wr(CTICONTROL, 1);
    wr(CTIGATE, 0);           // GATE[3] = 0
    wr(CTIINEN(1), 1u << 3);  // CTIINEN1[3]
    wr(CTIOUTEN(0), 1u << 3); // CTIOUTEN0[3]
    c.trigger_event(1, now);
    EXPECT_EQ(c.out_event[0].count(), 1u);
    EXPECT_EQ(c.channel_events(3), 0u); // not passed to the CTM
    wr(CTIGATE, 1u << 3);
    c.trigger_event(1, now);
    EXPECT_EQ(c.channel_events(3), 1u);
}

TEST_F(CtiTest, ExampleH5_1_AnApplicationPulseHaltsOnePe)
{
    wr(CTICONTROL, 1);
    wr(CTIGATE, 0);
    wr(CTIOUTEN(0), 1u << 0);
    wr(CTIAPPPULSE, 1u << 0);
    EXPECT_EQ(c.out_event[0].count(), 1u);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u);
    EXPECT_EQ(rd(CTIAPPSET), 0u); // a pulse leaves the application trigger alone
    wr(CTIINTACK, 1);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
}

TEST_F(CtiTest, ApplicationSetHoldsTheChannelAndAnAcknowledgeWaitsForItToClear)
{
    wr(CTICONTROL, 1);
    wr(CTIGATE, 0xF);
    wr(CTIOUTEN(0), 1u << 1);
    wr(CTIAPPSET, 1u << 1);
    EXPECT_EQ(rd(CTIAPPSET), 2u);
    EXPECT_EQ(rd(CTICHOUTSTATUS), 2u);
    EXPECT_EQ(rd(CTICHINSTATUS), 0u); // no Cross-Trigger Matrix
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u);
    wr(CTIINTACK, 1); // ignored: the mapping still asserts output trigger 0 (H9.5.25)
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u);
    wr(CTIAPPCLEAR, 1u << 1);
    EXPECT_EQ(rd(CTIAPPSET), 0u);
    EXPECT_EQ(rd(CTICHOUTSTATUS), 0u);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u); // still waiting for its acknowledge
    wr(CTIINTACK, 1);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
    EXPECT_EQ(c.out_event[0].count(), 1u);
}

TEST_F(CtiTest, TraceBufferStoppedReachesATraceUnitInputAsOneEvent)
{
    wr(CTICONTROL, 1);
    wr(CTIINEN(cti_in::trbe_stopped), 1u << 0);
    wr(CTIOUTEN(cti_out::trace_in0), 1u << 0);
    c.trigger_event(cti_in::trbe_stopped, now);
    EXPECT_EQ(trace_unit.events, std::vector<unsigned>{4}); // output trigger 4
    EXPECT_FALSE(c.out_level[4].read());                    // self-acknowledging: no level held
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
    c.trigger_event(cti_in::trbe_wrap, now); // not mapped
    EXPECT_EQ(trace_unit.events.size(), 1u);
}

TEST_F(CtiTest, WithGlbenZeroNothingIsMapped)
{
    wr(CTIINEN(1), 1u << 0);
    wr(CTIOUTEN(0), 1u << 0);
    c.trigger_event(1, now);
    EXPECT_EQ(c.out_event[0].count(), 0u);
    wr(CTIAPPSET, 1);
    EXPECT_EQ(rd(CTIAPPSET), 0u);
    EXPECT_NONFATAL_FAILURE(wr(CTIAPPPULSE, 1), "GLBEN 0");
    EXPECT_EQ(c.out_event[0].count(), 0u);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
}

TEST_F(CtiTest, AMulticycleInputHoldsItsChannelsWhileAsserted)
{
    wr(CTICONTROL, 1);
    wr(CTIGATE, 0xF);
    wr(CTIINEN(1), 1u << 2);
    wr(CTIOUTEN(5), 1u << 2); // a self-acknowledging trace unit input
    c.set_trigger_level(1, true, now);
    EXPECT_EQ(rd(CTITRIGINSTATUS), 2u);
    EXPECT_EQ(rd(CTICHOUTSTATUS), 4u);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 1u << 5); // asserted while the channel is active
    EXPECT_TRUE(c.out_level[5].read());
    EXPECT_EQ(c.out_event[5].count(), 1u);
    c.set_trigger_level(1, true, now); // no new event while it stays asserted
    EXPECT_EQ(c.out_event[5].count(), 1u);
    c.set_trigger_level(1, false, now);
    EXPECT_EQ(rd(CTITRIGINSTATUS), 0u);
    EXPECT_EQ(rd(CTICHOUTSTATUS), 0u);
    EXPECT_EQ(rd(CTITRIGOUTSTATUS), 0u);
    EXPECT_FALSE(c.out_level[5].read());
}

TEST_F(CtiTest, MappingRegistersHoldOnlyImplementedChannelsAndConnectedTriggers)
{
    wr(CTIINEN(1), 0xFFFFFFFF);
    EXPECT_EQ(rd(CTIINEN(1)), 0xFu); // NUMCHAN 4: the rest RAZ/WI
    wr(CTIINEN(3), 0xF);
    EXPECT_EQ(rd(CTIINEN(3)), 0u); // input 3 is reserved: RES0
    wr(CTIOUTEN(3), 0xF);
    EXPECT_EQ(rd(CTIOUTEN(3)), 0u);
    wr(CTIINEN(20), 0xF);
    EXPECT_EQ(rd(CTIINEN(20)), 0u); // beyond NUMTRIG
    wr(CTIGATE, 0xFFFFFFFF);
    EXPECT_EQ(rd(CTIGATE), 0xFu);
}

TEST_F(CtiTest, IdentificationRegisters)
{
    EXPECT_EQ(rd(0xFC8), (4u << 16) | (11u << 8)); // CTIDEVID: NUMCHAN 4, NUMTRIG 11
    EXPECT_EQ(rd(0xFBC), 0x47701A14u);             // CTIDEVARCH: Arm, present, CTIv2
    EXPECT_EQ(rd(0xFCC), 0x14u);                   // CTIDEVTYPE: cross-trigger within a PE
    EXPECT_EQ(rd(0xFA8), 0xC0000000u);             // CTIDEVAFF0: RAO bit, U, Aff0 0
    EXPECT_EQ(rd(0xFF0), 0x0Du);                   // CTICIDR0..3
    EXPECT_EQ(rd(0xFF4), 0x90u);
    EXPECT_EQ(rd(0xFF8), 0x05u);
    EXPECT_EQ(rd(0xFFC), 0xB1u);
    EXPECT_EQ(rd(0xFE8), 0x0Bu); // CTIPIDR2: JEDEC, DES_1 0b011
    EXPECT_EQ(rd(0xFE4) >> 4, 0xBu);
    EXPECT_EQ(rd(0xFD0), 0x04u);
    EXPECT_EQ(rd(0xFB4), 0u);   // CTILSR: no Software Lock
    EXPECT_EQ(rd(0xFA0), 0xFu); // four claim tags
    wr(0xFA0, 0x5);
    EXPECT_EQ(rd(0xFA4), 0x5u);
    wr(0xFA4, 0x1);
    EXPECT_EQ(rd(0xFA4), 0x4u);
}

TEST_F(CtiTest, BadAccessesAndUnconnectedInputsAreReported)
{
    uint64_t v;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(dbg.read(0x200, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no register");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(dbg.read(CTICONTROL, v, 1), tlm::TLM_BURST_ERROR_RESPONSE),
                            "not allowed");
    EXPECT_NONFATAL_FAILURE(c.trigger_event(3, now), "input trigger 3 is not connected");
    c.trigger_event(40, now); // the same kind: counted, reported once at the end (module_log)
    EXPECT_NONFATAL_FAILURE(c.log().report_repeats(),
                            "input trigger not connected: 1 more since the first (the last: input "
                            "trigger 40 is not connected: ignored)");
}

// A PE's CTI trigger port (one call per event) drives the CTI, whose generic CTI interrupt
// (output trigger 2, acknowledged, so level-sensitive: H5.4.8) reaches the GIC as PPI 24.
struct pe_triggers : sc_core::sc_module {
    optional_port<cti_trigger_if> cti{"cti"};
    SC_HAS_PROCESS(pe_triggers);
    explicit pe_triggers(const sc_core::sc_module_name &n) : sc_module(n) { SC_THREAD(run); }
    void run()
    {
        wait(5, sc_core::SC_NS);
        cti->trigger_event(cti_in::pmu_overflow, now);
    }
};

TEST(CtiToGic, PmuOverflowThroughAChannelBecomesTheCtiInterrupt)
{
    cti_config cfg;
    cfg.acknowledged = 1u << cti_out::debug_request | 1u << cti_out::cti_interrupt;
    cti c{"cti", cfg};
    gicv3 gic{"gic"};
    pe_triggers pe{"pe"};
    initiator dbg{"dbg"}, gicr{"gicr"}, gicd{"gicd"};
    pe.cti.bind(c);
    c.out_level[cti_out::cti_interrupt].bind(gic.ppi(0, virt::cti_intid));
    dbg.socket.bind(c.socket);
    gicr.socket.bind(gic.redistributors);
    gicd.socket.bind(gic.distributor);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    ASSERT_TRUE(gicd.wr(0x0, 2));
    ASSERT_TRUE(gicr.wr(0x14, 0));
    ASSERT_TRUE(gicr.wr(0x10080, 1u << 24));
    ASSERT_TRUE(gicr.wr(0x10100, 1u << 24));
    gic.cpu(0).set_pmr(0xf0);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN1, 1));
    ASSERT_TRUE(dbg.wr(CTICONTROL, 1));
    ASSERT_TRUE(dbg.wr(CTIINEN(1), 1u << 0));
    ASSERT_TRUE(dbg.wr(CTIOUTEN(2), 1u << 0));
    sc_core::sc_start(10, sc_core::SC_NS);
    EXPECT_TRUE(gic.irq[0].read());
    EXPECT_EQ(gic.cpu(0).iar1(), 24u);
    ASSERT_TRUE(dbg.wr(CTIINTACK, 1u << 2)); // the handler acknowledges at the CTI
    gic.cpu(0).eoir1(24);
    EXPECT_FALSE(gic.irq[0].read());
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
}

} // namespace
