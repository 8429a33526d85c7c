// The GICv3 Distributor's registers (Arm IHI 0069, "The GIC Distributor register map" and each
// register's description), row by row: each row is a register instance, its value out of reset,
// a write and what a read then returns. The platform's GIC: one Security state, affinity routing
// always on, 256 SPIs (INTIDs 32-287, GICD_TYPER.ITLinesNumber 8) as QEMU's virt board.
//   - INTIDs 0-31 live in the Redistributors: with affinity routing their fields here are RAZ/WI.
//   - INTIDs past the last SPI (288 on) are not implemented: RAZ/WI.
//   - GICD_IGRPMODR and GICD_NSACR are RAZ/WI with GICD_CTLR.DS 1; GICD_ITARGETSR, GICD_SGIR,
//     GICD_CPENDSGIR and GICD_SPENDSGIR are RES0 with affinity routing (RAZ/WI here).
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/interrupt/gic.h>

#include <memory>
#include <ostream>
#include <string>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;

struct register_row {
    const char *name;      // the test's name: the register and what the row shows
    uint32_t offset;       // from the Distributor's base
    unsigned size;         // bytes of each access
    uint64_t reset;        // read out of reset
    uint64_t write;        // then written
    uint64_t after;        // then read
    uint32_t setup_offset; // written before (0: nothing) ...
    uint32_t setup_value;  // ... with this 32-bit value
};

constexpr uint64_t all = ~uint64_t{0};
constexpr uint32_t all32 = 0xFFFFFFFF;

const register_row rows[] = {
    // GICD_CTLR with DS 1: EnableGrp0 [0] and EnableGrp1 [1] RW, ARE [4] RAO/WI (no legacy
    // operation), DS [6] RAO/WI, E1NWF [7] RAZ/WI, RWP [31] 0 (writes take effect at once).
    {"CtlrEnablesBothGroups", 0x0000, 4, 0x50, all32, 0x53, 0, 0},
    {"CtlrAreAndDsAreRaoWi", 0x0000, 4, 0x50, 0, 0x50, 0, 0},
    // GICD_TYPER: ITLinesNumber 8 (288 INTIDs), IDbits 15; read-only.
    {"TyperSays288Intids", 0x0004, 4, 0x780008, all32, 0x780008, 0, 0},
    {"IidrIsArm", 0x0008, 4, 0x43B, all32, 0x43B, 0, 0},
    {"Typer2IsZero", 0x000C, 4, 0, all32, 0, 0, 0},
    // GICD_IGROUPR<n>: n = 0 (SGIs, PPIs) RAZ/WI; 1..8 the SPIs; 9..31 unimplemented.
    {"Igroupr0IsRazWi", 0x0080, 4, 0, all32, 0, 0, 0},
    {"Igroupr1HoldsGroups", 0x0084, 4, 0, all32, all32, 0, 0},
    {"Igroupr8HoldsTheLastSpis", 0x00A0, 4, 0, 0x80000001, 0x80000001, 0, 0},
    {"Igroupr9IsRazWi", 0x00A4, 4, 0, all32, 0, 0, 0},
    {"Igroupr31IsRazWi", 0x00FC, 4, 0, all32, 0, 0, 0},
    // Set-enable and clear-enable: write 1 to set or clear, read the enables.
    {"Isenabler0IsRazWi", 0x0100, 4, 0, all32, 0, 0, 0},
    {"Isenabler1Sets", 0x0104, 4, 0, 0x5, 0x5, 0, 0},
    {"Icenabler1Clears", 0x0184, 4, 0xF, 0x5, 0xA, 0x0104, 0xF},
    {"Isenabler9IsRazWi", 0x0124, 4, 0, all32, 0, 0, 0},
    // Set-pending and clear-pending (no line high: only the latch).
    {"Ispendr1Sets", 0x0204, 4, 0, 0x3, 0x3, 0, 0},
    {"Icpendr1Clears", 0x0284, 4, 0x3, 0x1, 0x2, 0x0204, 0x3},
    {"Ispendr0IsRazWi", 0x0200, 4, 0, all32, 0, 0, 0},
    // Set-active and clear-active.
    {"Isactiver8Sets", 0x0320, 4, 0, all32, all32, 0, 0},
    {"Icactiver8Clears", 0x03A0, 4, all32, 0xFFFF, 0xFFFF0000, 0x0320, all32},
    {"Icactiver0IsRazWi", 0x0380, 4, 0, all32, 0, 0, 0},
    // GICD_IPRIORITYR<n>: a byte per INTID, 5 priority bits; n = 0..7 RAZ/WI; 8..71 the SPIs.
    {"Ipriorityr0IsRazWi", 0x0400, 4, 0, all32, 0, 0, 0},
    {"Ipriorityr7IsRazWi", 0x041C, 4, 0, all32, 0, 0, 0},
    {"Ipriorityr8KeepsFiveBits", 0x0420, 4, 0, all32, 0xF8F8F8F8, 0, 0},
    {"Ipriorityr8ByteAccess", 0x0421, 1, 0, 0xA5, 0xA0, 0, 0},
    {"Ipriorityr71HoldsTheLastSpis", 0x051C, 4, 0, 0x10203040, 0x10203040, 0, 0},
    {"Ipriorityr72IsRazWi", 0x0520, 4, 0, all32, 0, 0, 0},
    {"Ipriorityr254IsRazWi", 0x07F8, 4, 0, all32, 0, 0, 0},
    // GICD_ITARGETSR<n>: RES0 with affinity routing.
    {"Itargetsr8IsRazWi", 0x0820, 4, 0, all32, 0, 0, 0},
    {"Itargetsr8ByteIsRazWi", 0x0821, 1, 0, 0xFF, 0, 0, 0},
    // GICD_ICFGR<n>: 2 bits per INTID, Int_config[1] edge (RW for SPIs), Int_config[0] RES0;
    // n = 0, 1 (SGIs, PPIs) RAZ/WI; 2..17 the SPIs, level-sensitive out of reset.
    {"Icfgr0IsRazWi", 0x0C00, 4, 0, all32, 0, 0, 0},
    {"Icfgr1IsRazWi", 0x0C04, 4, 0, all32, 0, 0, 0},
    {"Icfgr2MakesSpisEdgeTriggered", 0x0C08, 4, 0, all32, 0xAAAAAAAA, 0, 0},
    {"Icfgr17HoldsTheLastSpis", 0x0C44, 4, 0, 0x80000002, 0x80000002, 0, 0},
    {"Icfgr18IsRazWi", 0x0C48, 4, 0, all32, 0, 0, 0},
    // GICD_IGRPMODR<n> and GICD_NSACR<n>: RAZ/WI with one Security state.
    {"Igrpmodr1IsRazWi", 0x0D04, 4, 0, all32, 0, 0, 0},
    {"Nsacr2IsRazWi", 0x0E08, 4, 0, all32, 0, 0, 0},
    // GICD_SGIR, GICD_CPENDSGIR<n>, GICD_SPENDSGIR<n>: RES0 with affinity routing.
    {"SgirIsRazWi", 0x0F00, 4, 0, all32, 0, 0, 0},
    {"Cpendsgir0IsRazWi", 0x0F10, 4, 0, all32, 0, 0, 0},
    {"Spendsgir3IsRazWi", 0x0F2C, 4, 0, all32, 0, 0, 0},
    // GICD_IROUTER<n>, n = 32..287: Aff3 [39:32], Interrupt_Routing_Mode [31], Aff2, Aff1, Aff0;
    // the rest RES0. 0 out of reset (PE 0). n = 0..31 reserved, 288.. unimplemented: RAZ/WI.
    {"Irouter32HoldsItsFields", 0x6100, 8, 0, all, 0xFF80FFFFFF, 0, 0},
    {"Irouter287HoldsItsFields", 0x68F8, 8, 0, 0x0000000100000201, 0x0000000100000201, 0, 0},
    {"Irouter32LowHalf", 0x6100, 4, 0, all32, 0x80FFFFFF, 0, 0},
    {"Irouter32HighHalf", 0x6104, 4, 0, all32, 0xFF, 0, 0},
    {"Irouter31IsRazWi", 0x60F8, 8, 0, all, 0, 0, 0},
    {"Irouter288IsRazWi", 0x6900, 8, 0, all, 0, 0, 0},
    {"Irouter1019IsRazWi", 0x7FD8, 8, 0, all, 0, 0, 0},
    // GICD_PIDR2: ArchRev 3 (GICv3); read-only.
    {"Pidr2IsGicv3", 0xFFE8, 4, 0x3B, all32, 0x3B, 0, 0},
};

// How the test's parameter shows in its name: the row's offset and name.
void PrintTo(const register_row &r, std::ostream *os)
{
    *os << "offset 0x" << std::hex << r.offset << ", " << r.name;
}

class GicdRegister : public ::testing::TestWithParam<register_row>
{
  protected:
    initiator cpu{"cpu"};
    initiator redistributors{"redistributors"};
    gicv3 gic{"gic"};
    GicdRegister()
    {
        cpu.socket.bind(gic.distributor);
        redistributors.socket.bind(gic.redistributors);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

TEST_P(GicdRegister, ResetValueAndWhatAWriteLeaves)
{
    const register_row &r = GetParam();
    if (r.setup_offset) {
        ASSERT_TRUE(cpu.wr(r.setup_offset, r.setup_value));
    }
    uint64_t v = 0;
    ASSERT_EQ(cpu.read(r.offset, v, r.size), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, r.reset) << std::hex << "reset value of " << r.name;
    ASSERT_EQ(cpu.write(r.offset, r.write, r.size), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(cpu.read(r.offset, v, r.size), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, r.after) << std::hex << "after writing 0x" << r.write;
}

INSTANTIATE_TEST_SUITE_P(Gicd, GicdRegister, ::testing::ValuesIn(rows),
                         [](const ::testing::TestParamInfo<register_row> &p) {
                             return std::string(p.param.name);
                         });

// The SPI count is an option (gic_config::num_spis): ITLinesNumber covers it in blocks of 32, and
// the INTIDs of the last block past it are RAZ/WI.
TEST(GicdSpis, FortySpisAreThreeBlocksAndTheRestIsRazWi)
{
    initiator cpu{"cpu"};
    gic_config c;
    c.num_spis = 40; // INTIDs 32-71
    gicv3 gic{"gic", c};
    initiator gicr{"gicr"};
    cpu.socket.bind(gic.distributor);
    gicr.socket.bind(gic.redistributors);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.rd(0x0004) & 0x1F, 2u);    // 96 INTIDs
    ASSERT_TRUE(cpu.wr(0x0088, all32));      // GICD_IGROUPR2: INTIDs 64-95
    EXPECT_EQ(cpu.rd(0x0088), 0xFFu);        // 64-71 implemented
    ASSERT_TRUE(cpu.wr(0x0400 + 68, all32)); // GICD_IPRIORITYR17: INTIDs 68-71
    EXPECT_EQ(cpu.rd(0x0400 + 68), 0xF8F8F8F8u);
    ASSERT_TRUE(cpu.wr(0x0400 + 72, all32)); // INTIDs 72-75
    EXPECT_EQ(cpu.rd(0x0400 + 72), 0u);
    EXPECT_EQ(gic.gicd().num_spis(), 40u);
}

TEST(GicdSpis, NoSpisIsOneBlock)
{
    initiator cpu{"cpu"};
    gic_config c;
    c.num_spis = 0;
    gicv3 gic{"gic", c};
    initiator gicr{"gicr"};
    cpu.socket.bind(gic.distributor);
    gicr.socket.bind(gic.redistributors);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.rd(0x0004) & 0x1F, 0u);
    ASSERT_TRUE(cpu.wr(0x0084, all32));
    EXPECT_EQ(cpu.rd(0x0084), 0u);
}

// More than the architecture's 988 SPIs (INTIDs up to 1019) is a bad configuration: one warning,
// and the most there can be (ITLinesNumber 31).
TEST(GicdSpis, TooManySpisAreRefusedForTheMost)
{
    initiator cpu{"cpu"};
    gic_config c;
    c.num_spis = 2000;
    std::unique_ptr<gicv3> gic;
    EXPECT_NONFATAL_FAILURE(gic = std::make_unique<gicv3>("gic", c), "num_spis must be 0..988");
    initiator gicr{"gicr"};
    cpu.socket.bind(gic->distributor);
    gicr.socket.bind(gic->redistributors);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(cpu.rd(0x0004) & 0x1F, 31u);
    EXPECT_EQ(gic->config().num_spis, 988u);
    uint64_t v = 0;
    ASSERT_EQ(cpu.write(0x6000 + 8 * 1019, all, 8), tlm::TLM_OK_RESPONSE); // the last SPI
    ASSERT_EQ(cpu.read(0x6000 + 8 * 1019, v, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0xFF80FFFFFFu);
}

// Registers the Distributor does not have, and accesses its registers do not allow.
TEST(GicdSpis, BadAccessesAreTlmErrors)
{
    initiator cpu{"cpu"};
    gicv3 gic{"gic"};
    initiator gicr{"gicr"};
    cpu.socket.bind(gic.distributor);
    gicr.socket.bind(gic.redistributors);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint64_t v = 0;
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x0C08, v, 1), tlm::TLM_BURST_ERROR_RESPONSE),
                            "1-byte access to GICD_ICFGR2 not allowed");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x0084, v, 8), tlm::TLM_BURST_ERROR_RESPONSE),
                            "8-byte access to GICD_IGROUPR1 not allowed");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x6102, v, 2), tlm::TLM_BURST_ERROR_RESPONSE),
                            "2-byte access to GICD_IROUTER32 not allowed");
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(cpu.read(0x8000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
                            "no register at offset 0x8000");
}

} // namespace
