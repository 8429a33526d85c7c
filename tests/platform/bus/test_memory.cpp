// The memory: accesses with latency, byte enables, transport_dbg, DMI and the fault table.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory.h>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
using sc_core::SC_NS;
using sc_core::sc_time;

struct MemoryTest : ::testing::Test {
    initiator cpu{"cpu"};
    memory ram{"ram", [] {
                   memory_config c;
                   c.size = 0x10000;
                   c.read_latency = sc_time(3, SC_NS);
                   c.write_latency = sc_time(4, SC_NS);
                   return c;
               }()};

    MemoryTest()
    {
        cpu.socket.bind(ram.socket);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST_F(MemoryTest, ReadsBackWhatWasWrittenWithItsLatencies)
{
    EXPECT_EQ(cpu.write(0x100, 0x0123456789abcdefull, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu.delay, sc_time(4, SC_NS));
    uint64_t v = 0;
    EXPECT_EQ(cpu.read(0x104, v, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x01234567u);
    EXPECT_EQ(cpu.delay, sc_time(3, SC_NS));
    EXPECT_TRUE(cpu.dmi_hint);
    EXPECT_EQ(ram.writes(), 1u);
    EXPECT_EQ(ram.reads(), 1u);
}

TEST_F(MemoryTest, ByteEnablesWriteOnlyTheEnabledBytes)
{
    uint32_t v = 0xaabbccdd;
    unsigned char be[4] = {0xff, 0, 0xff, 0};
    EXPECT_EQ(cpu.access(tlm::TLM_WRITE_COMMAND, 0x10, &v, 4, be, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu.rd(0x10), 0x00bb00ddu);
}

TEST_F(MemoryTest, AnAccessOutsideIsAnAddressError)
{
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(cpu.write(0xfffe, 0x1234, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE),
        "outside the memory at 0xfffe");
    // Again: counted, and reported once with the number at the end (module_log).
    uint64_t v;
    EXPECT_EQ(cpu.read(0x10000, v, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_NONFATAL_FAILURE(ram.log().report_repeats(),
                            "access outside the memory: 1 more since the first (the last: access "
                            "outside the memory at 0x10000 (1 bytes))");
}

TEST_F(MemoryTest, DebugAccessesSeeTheContentsAndIgnoreFaults)
{
    ram.data()[0x2000] = 0x5a;
    EXPECT_NE(ram.add_fault(0x2000, 0x1000, tlm::TLM_GENERIC_ERROR_RESPONSE), 0u);
    uint8_t b = 0;
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0x2000, &b, 1), 1u);
    EXPECT_EQ(b, 0x5a);
    uint8_t buf[16] = {};
    EXPECT_EQ(cpu.debug(tlm::TLM_READ_COMMAND, 0xfff8, buf, 16), 8u); // cut at the end
    EXPECT_EQ(ram.reads(), 0u);                                       // no b_transport
}

TEST_F(MemoryTest, DmiIsGrantedReadWriteWithTheLatencies)
{
    tlm::tlm_dmi d;
    ASSERT_TRUE(cpu.dmi(0x1234, d));
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), 0xffffu);
    EXPECT_EQ(d.get_dmi_ptr(), ram.data());
    EXPECT_TRUE(d.is_read_write_allowed());
    EXPECT_EQ(d.get_read_latency(), sc_time(3, SC_NS));
    EXPECT_EQ(d.get_write_latency(), sc_time(4, SC_NS));
}

TEST_F(MemoryTest, AFaultRangeAnswersItsStatusRefusesDmiAndRemovingItRestores)
{
    unsigned id = ram.add_fault(0x3000, 0x1000, tlm::TLM_GENERIC_ERROR_RESPONSE);
    ASSERT_NE(id, 0u);
    // Adding it invalidated DMI pointers over exactly that range.
    ASSERT_EQ(cpu.invalidations.size(), 1u);
    EXPECT_EQ(cpu.invalidations[0], std::make_pair(uint64_t{0x3000}, uint64_t{0x3fff}));

    EXPECT_EQ(cpu.write(0x3800, 0x77, 4), tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_FALSE(cpu.dmi_hint);
    EXPECT_EQ(ram.data()[0x3800], 0); // not written
    // An access that only touches the range is answered by it too.
    EXPECT_EQ(cpu.write(0x2ffe, 0xffff'ffff, 4), tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(ram.faults_answered(), 2u);

    tlm::tlm_dmi d;
    EXPECT_FALSE(cpu.dmi(0x3800, d)); // refused over the fault's range
    EXPECT_EQ(d.get_start_address(), 0x3000u);
    EXPECT_EQ(d.get_end_address(), 0x3fffu);
    ASSERT_TRUE(cpu.dmi(0x1000, d)); // granted below it, trimmed
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), 0x2fffu);
    ASSERT_TRUE(cpu.dmi(0x8000, d)); // and above it
    EXPECT_EQ(d.get_start_address(), 0x4000u);
    EXPECT_EQ(d.get_end_address(), 0xffffu);
    EXPECT_EQ(d.get_dmi_ptr(), ram.data() + 0x4000);

    EXPECT_TRUE(ram.remove_fault(id));
    EXPECT_FALSE(ram.remove_fault(id));
    EXPECT_EQ(cpu.write(0x3800, 0x77, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(ram.data()[0x3800], 0x77);
    ASSERT_TRUE(cpu.dmi(0x3800, d));
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), 0xffffu);
}

TEST_F(MemoryTest, AWriteOnlyFaultLetsReadsThrough)
{
    ram.data()[0x500] = 0x42;
    ASSERT_NE(ram.add_fault(0x500, 4, tlm::TLM_ADDRESS_ERROR_RESPONSE, fault_access::write), 0u);
    EXPECT_EQ(cpu.write(0x500, 1, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(cpu.rd(0x500), 0x42u);
    EXPECT_FALSE(cpu.dmi_hint); // DMI would bypass the write fault
}

TEST(MemorySimulating, FaultsCanBeAddedAndRemovedWhileSimulating)
{
    struct writer : sc_core::sc_module {
        tlm_utils::simple_initiator_socket<writer> socket{"socket"};
        std::vector<tlm::tlm_response_status> results;
        explicit writer(const sc_core::sc_module_name &n) : sc_module(n) { SC_THREAD(run); }
        SC_HAS_PROCESS(writer);
        void run()
        {
            for (int i = 0; i < 4; i++) {
                uint32_t v = 0x1000u + static_cast<uint32_t>(i);
                tlm::tlm_generic_payload tx;
                tx.set_command(tlm::TLM_WRITE_COMMAND);
                tx.set_address(0x40);
                tx.set_data_ptr(reinterpret_cast<unsigned char *>(&v));
                tx.set_data_length(4);
                tx.set_streaming_width(4);
                sc_time delay;
                socket->b_transport(tx, delay);
                results.push_back(tx.get_response_status());
                wait(10, SC_NS);
            }
        }
    };
    memory m{"m", memory_config{}};
    writer w{"w"};
    w.socket.bind(m.socket);
    unsigned id = 0;
    sc_core::sc_start(5, SC_NS); // write 0 done
    id = m.add_fault(0x40, 4, tlm::TLM_COMMAND_ERROR_RESPONSE);
    sc_core::sc_start(20, SC_NS); // writes 1 and 2 refused
    m.remove_fault(id);
    sc_core::sc_start(20, SC_NS); // write 3 done
    ASSERT_EQ(w.results.size(), 4u);
    EXPECT_EQ(w.results[0], tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(w.results[1], tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(w.results[2], tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(w.results[3], tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(m.data()[0x40], 0x03);
}

TEST_F(MemoryTest, BadFaultRangesAreRefused)
{
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(ram.add_fault(0xff00, 0x200, tlm::TLM_GENERIC_ERROR_RESPONSE), 0u), "refused");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(ram.add_fault(0x100, 0x10, tlm::TLM_OK_RESPONSE), 0u),
                            "refused");
    EXPECT_TRUE(ram.faults().empty());
}

} // namespace
