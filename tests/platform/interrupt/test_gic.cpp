// The GICv3: Distributor and Redistributor registers, level-sensitive and edge-triggered PPIs,
// the CPU interface (acknowledge, end of interrupt, deactivation), priority masking and
// preemption, SGIs, and the IRQ/FIQ outputs. Expected values from Arm IHI 0069 (GICv3).
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/interrupt/gic.h>
#include <pmtrace/platform/bus/router.h>

#include <vector>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
namespace virt = pmtrace::platform::virt;
// The offset of the tests' own calls: their changes are at sc_time_stamp().
const sc_core::sc_time now;

// Records every level an output delivers.
struct line_probe : level_if {
    std::vector<bool> levels;
    bool level = false;
    void set_level(bool l, const sc_core::sc_time &) override
    {
        levels.push_back(l);
        level = l;
    }
};

constexpr uint64_t gicd = virt::gic_distributor_base;
uint64_t rd_base(unsigned cpu)
{
    return virt::gic_redistributor_base + cpu * virt::gic_redistributor_stride;
}
uint64_t sgi_base(unsigned cpu)
{
    return rd_base(cpu) + 0x10000;
}
// SGI_base offsets.
constexpr uint64_t IGROUPR0 = 0x80, ISENABLER0 = 0x100, ICENABLER0 = 0x180, ISPENDR0 = 0x200,
                   ICPENDR0 = 0x280, ISACTIVER0 = 0x300, IPRIORITYR = 0x400, ICFGR1 = 0xC04;

gic_config two_pes()
{
    gic_config c;
    c.num_cpus = 2;
    return c;
}

struct GicTest : ::testing::Test {
    initiator cpu_bus{"cpu_bus"};
    router bus{"bus"};
    gicv3 gic{"gic", two_pes()};
    line_probe irq0, irq1, fiq0;

    GicTest()
    {
        cpu_bus.socket.bind(bus.target);
        bus.initiator.bind(gic.distributor);
        bus.initiator.bind(gic.redistributors);
        bus.map(0, virt::gic_distributor_base, virt::gic_distributor_size);
        bus.map(1, virt::gic_redistributor_base, 2 * virt::gic_redistributor_stride);
        gic.irq[0].bind(irq0);
        gic.irq[1].bind(irq1);
        gic.fiq[0].bind(fiq0);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }

    // What Linux's gic_dist_init, gic_cpu_init and gic_cpu_sys_reg_init do for one PE: Group 1
    // enabled, the PE awake, every SGI/PPI in Group 1, disabled, at priority 0xa0; PMR 0xf0,
    // BPR1 0 (its minimum), EOImode 0, Group 1 enabled at the CPU interface.
    void linux_init(unsigned cpu)
    {
        ASSERT_TRUE(cpu_bus.wr(gicd + 0x0, 0x2));             // GICD_CTLR.EnableGrp1 (ARE is RAO)
        ASSERT_TRUE(cpu_bus.wr(rd_base(cpu) + 0x14, 0));      // GICR_WAKER.ProcessorSleep = 0
        ASSERT_EQ(cpu_bus.rd(rd_base(cpu) + 0x14) & 0x4, 0u); // ChildrenAsleep = 0
        ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + IGROUPR0, 0xffffffff));
        ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + ICENABLER0, 0xffffffff));
        for (unsigned n = 0; n < 8; n++)
            ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + IPRIORITYR + 4 * n, 0xa0a0a0a0));
        gic_cpu_interface &icc = gic.cpu(cpu);
        icc.set_pmr(0xf0);
        ASSERT_TRUE(icc.write(icc_reg::BPR1, 0));
        ASSERT_TRUE(icc.write(icc_reg::CTLR, 0));
        ASSERT_TRUE(icc.write(icc_reg::IGRPEN1, 1));
    }
    void enable(unsigned cpu, unsigned intid)
    {
        ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + ISENABLER0, 1u << intid));
    }
    void set_priority(unsigned cpu, unsigned intid, uint8_t prio)
    {
        ASSERT_EQ(cpu_bus.write(sgi_base(cpu) + IPRIORITYR + intid, prio, 1), tlm::TLM_OK_RESPONSE);
    }
    uint32_t rd(uint64_t a) { return cpu_bus.rd(a); }
};

TEST_F(GicTest, DistributorIdentifiesAGicv3WithOneSecurityStateAnd256Spis)
{
    EXPECT_EQ(rd(gicd + 0xFFE8) >> 4 & 0xF, 3u); // GICD_PIDR2.ArchRev: GICv3
    const uint32_t typer = rd(gicd + 0x4);
    EXPECT_EQ(typer & 0x1F, 8u);        // ITLinesNumber: 32 x 9 = 288 INTIDs, as QEMU's virt
    EXPECT_EQ(typer >> 19 & 0x1F, 15u); // IDbits: 16 bits
    EXPECT_EQ(typer >> 10 & 1, 0u);     // SecurityExtn: one Security state
    EXPECT_EQ(typer >> 17 & 1, 0u);     // LPIS
    EXPECT_EQ(rd(gicd + 0x8), 0x43Bu);  // GICD_IIDR.Implementer: Arm
    EXPECT_EQ(rd(gicd + 0x0), 0x50u);   // GICD_CTLR: DS and ARE read as one
    EXPECT_TRUE(cpu_bus.wr(gicd + 0x0, 0xffffffff));
    EXPECT_EQ(rd(gicd + 0x0), 0x53u); // EnableGrp0, EnableGrp1; RWP reads 0
}

TEST_F(GicTest, RedistributorTyperNamesItsPeAndTheLastFrame)
{
    uint64_t typer = 0;
    ASSERT_EQ(cpu_bus.read(rd_base(0) + 0x8, typer, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(typer, 0u); // affinity 0.0.0.0, Processor_Number 0, not Last
    ASSERT_EQ(cpu_bus.read(rd_base(1) + 0x8, typer, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(typer, (uint64_t{1} << 32) | (1u << 8) | (1u << 4));
    EXPECT_EQ(rd(rd_base(1) + 0xC), 1u);               // the upper half alone: Aff0 = 1
    EXPECT_EQ(rd(rd_base(1) + 0xFFE8) >> 4 & 0xF, 3u); // GICR_PIDR2.ArchRev
}

TEST_F(GicTest, WakerStartsAsleepAndWakes)
{
    EXPECT_EQ(rd(rd_base(0) + 0x14), 0x6u); // ProcessorSleep, ChildrenAsleep
    EXPECT_TRUE(cpu_bus.wr(rd_base(0) + 0x14, 0));
    EXPECT_EQ(rd(rd_base(0) + 0x14), 0u);
    EXPECT_EQ(rd(rd_base(1) + 0x14), 0x6u); // the other PE still asleep
}

TEST_F(GicTest, LevelPpiIsAcknowledgedEndedAndPendingAgainWhileItsLineIsHigh)
{
    linux_init(0);
    enable(0, 23);
    gic.pmuirq(0).set_level(true, now);
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), 23u);
    EXPECT_EQ(rd(sgi_base(0) + ISPENDR0), 1u << 23);

    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
    EXPECT_FALSE(irq0.level); // active: no longer signalled
    EXPECT_EQ(gic.cpu(0).rpr(), 0xa0u);
    EXPECT_EQ(rd(sgi_base(0) + ISACTIVER0), 1u << 23);
    EXPECT_EQ(rd(sgi_base(0) + ISPENDR0), 1u << 23); // active and pending: the line is high

    gic.cpu(0).eoir1(23); // EOImode 0: priority drop and deactivation
    EXPECT_EQ(gic.cpu(0).rpr(), 0xffu);
    EXPECT_EQ(rd(sgi_base(0) + ISACTIVER0), 0u);
    EXPECT_TRUE(irq0.level); // pending again
    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
    gic.pmuirq(0).set_level(false, now); // the handler clears the source
    gic.cpu(0).eoir1(23);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(rd(sgi_base(0) + ISPENDR0), 0u);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    EXPECT_EQ(irq0.levels, (std::vector<bool>{true, false, true, false}));
    EXPECT_TRUE(irq1.levels.empty());
}

TEST_F(GicTest, LevelPpiWhoseLineFallsBeforeAcknowledgeIsNoLongerPending)
{
    linux_init(0);
    enable(0, 22);
    gic.trbirq(0).set_level(true, now);
    gic.trbirq(0).set_level(false, now);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), gic_no_interrupt);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
}

TEST_F(GicTest, PriorityMaskPassesOnlyHigherPriorities)
{
    linux_init(0);
    enable(0, 23);
    gic.cpu(0).set_pmr(0xa0); // priority 0xa0 is not higher than the mask
    gic.pmuirq(0).set_level(true, now);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), 23u); // HPPIR ignores the mask
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    gic.cpu(0).set_pmr(0xa8);
    EXPECT_TRUE(irq0.level);
    gic.cpu(0).set_pmr(0);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).pmr(), 0u);
    gic.cpu(0).set_pmr(0xff);
    EXPECT_EQ(gic.cpu(0).pmr(), 0xf8u); // 5 priority bits
    EXPECT_TRUE(irq0.level);
}

TEST_F(GicTest, EnablesAtEveryLevelGateTheInterrupt)
{
    linux_init(0);
    gic.pmuirq(0).set_level(true, now);
    EXPECT_FALSE(irq0.level); // not enabled
    enable(0, 23);
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN1, 0));
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN1, 1));
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(gicd + 0x0, 0)); // GICD_CTLR.EnableGrp1 = 0
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), gic_no_interrupt);
    ASSERT_TRUE(cpu_bus.wr(gicd + 0x0, 2));
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + ICENABLER0, 1u << 23));
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(rd(sgi_base(0) + ISENABLER0), 0u);
}

TEST_F(GicTest, HigherPriorityIsAcknowledgedFirstAndPreempts)
{
    linux_init(0);
    enable(0, 22);
    enable(0, 23);
    set_priority(0, 22, 0x80);
    gic.trbirq(0).set_level(true, now);
    gic.pmuirq(0).set_level(true, now);
    EXPECT_EQ(gic.cpu(0).iar1(), 22u);
    EXPECT_FALSE(irq0.level); // 0xa0 cannot preempt running priority 0x80
    gic.cpu(0).eoir1(22);
    gic.trbirq(0).set_level(false, now);
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
    EXPECT_EQ(gic.cpu(0).rpr(), 0xa0u);
    gic.trbirq(0).set_level(true, now); // 0x80 preempts 0xa0
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), 22u);
    EXPECT_EQ(gic.cpu(0).rpr(), 0x80u);
    uint64_t ap = 0;
    ASSERT_TRUE(gic.cpu(0).read(icc_reg::AP1R0, ap));
    EXPECT_EQ(ap, (1u << (0x80 >> 3)) | (1u << (0xa0 >> 3)));
    gic.cpu(0).eoir1(22); // drops 0x80: running priority back to 0xa0
    EXPECT_EQ(gic.cpu(0).rpr(), 0xa0u);
}

TEST_F(GicTest, BinaryPointGroupsPrioritiesForPreemption)
{
    linux_init(0);
    enable(0, 22);
    enable(0, 23);
    set_priority(0, 22, 0x80);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::BPR1, 6)); // group priority bits [7:6]
    gic.pmuirq(0).set_level(true, now);
    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
    EXPECT_EQ(gic.cpu(0).rpr(), 0x80u); // the group priority of 0xa0
    gic.trbirq(0).set_level(true, now); // 0x80 is in the same group priority: no preemption
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    EXPECT_EQ(gic.cpu(0).hppir1(), 22u);
}

TEST_F(GicTest, EdgeTriggeredPpiLatchesOnARisingEdge)
{
    linux_init(0);
    enable(0, 22);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + ICFGR1, 2u << (2 * (22 - 16)))); // Int_config[1]: edge
    EXPECT_EQ(rd(sgi_base(0) + ICFGR1), 2u << 12);
    gic.trbirq(0).set_level(true, now);
    gic.trbirq(0).set_level(false, now);
    EXPECT_TRUE(irq0.level); // latched
    EXPECT_EQ(gic.cpu(0).iar1(), 22u);
    EXPECT_EQ(rd(sgi_base(0) + ISPENDR0), 0u); // acknowledged: no longer pending
    gic.cpu(0).eoir1(22);
    EXPECT_FALSE(irq0.level);
    gic.trbirq(0).set_level(true, now);
    EXPECT_TRUE(irq0.level);
}

TEST_F(GicTest, SoftwarePendingIsSetAndClearedButALevelLineHoldsIt)
{
    linux_init(0);
    enable(0, 20);
    enable(0, 23);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + ISPENDR0, 1u << 20));
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + ICPENDR0, 1u << 20));
    EXPECT_FALSE(irq0.level);
    gic.pmuirq(0).set_level(true, now);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + ICPENDR0, 1u << 23));
    EXPECT_EQ(rd(sgi_base(0) + ISPENDR0), 1u << 23); // the line still asserts it
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(rd(sgi_base(0) + 0xC00), 0xAAAAAAAAu); // GICR_ICFGR0: SGIs are edge-triggered
}

TEST_F(GicTest, EoiModeOneSplitsPriorityDropFromDeactivation)
{
    linux_init(0);
    enable(0, 23);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::CTLR, icc_ctlr_eoimode));
    gic.pmuirq(0).set_level(true, now);
    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
    gic.cpu(0).eoir1(23); // priority drop only
    EXPECT_EQ(gic.cpu(0).rpr(), 0xffu);
    EXPECT_EQ(rd(sgi_base(0) + ISACTIVER0), 1u << 23);
    EXPECT_FALSE(irq0.level); // still active
    gic.cpu(0).dir(23);
    EXPECT_EQ(rd(sgi_base(0) + ISACTIVER0), 0u);
    EXPECT_TRUE(irq0.level);
}

TEST_F(GicTest, Sgi1rTargetsTheListedPesOrAllOthers)
{
    linux_init(0);
    linux_init(1);
    enable(0, 5);
    enable(1, 5);
    gic.cpu(0).sgi1r(uint64_t{5} << 24 | 0x2); // INTID 5 to Aff0 = 1
    EXPECT_FALSE(irq0.level);
    EXPECT_TRUE(irq1.level);
    EXPECT_EQ(gic.cpu(1).iar1(), 5u);
    gic.cpu(1).eoir1(5);
    EXPECT_FALSE(irq1.level); // an SGI is edge-triggered: gone once acknowledged
    ASSERT_TRUE(
        gic.cpu(1).write(PMT_SYSREG(3, 0, 12, 11, 5), uint64_t{1} << 40 | uint64_t{5} << 24, now));
    EXPECT_TRUE(irq0.level); // IRM: every PE but the sender
    EXPECT_FALSE(irq1.level);
}

TEST_F(GicTest, ASleepingPeGetsNoInterrupt)
{
    linux_init(0);
    enable(0, 23);
    ASSERT_TRUE(cpu_bus.wr(rd_base(0) + 0x14, 0x2)); // ProcessorSleep
    gic.pmuirq(0).set_level(true, now);
    EXPECT_FALSE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(rd_base(0) + 0x14, 0));
    EXPECT_TRUE(irq0.level);
}

TEST_F(GicTest, Group0InterruptsAreSignalledAsFiq)
{
    linux_init(0);
    enable(0, 23);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + IGROUPR0, ~(1u << 23)));
    ASSERT_TRUE(cpu_bus.wr(gicd + 0x0, 0x3));
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN0, 1));
    gic.pmuirq(0).set_level(true, now);
    EXPECT_TRUE(fiq0.level);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    EXPECT_EQ(gic.cpu(0).hppir0(), 23u);
    EXPECT_EQ(gic.cpu(0).iar0(), 23u);
    EXPECT_FALSE(fiq0.level);
}

TEST_F(GicTest, CpuInterfaceByEncoding)
{
    uint64_t v = 0;
    ASSERT_TRUE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 12, 4), v, now)); // ICC_CTLR_EL1
    EXPECT_EQ(v, 4u << 8);                                             // PRIbits: 5 bits, IDbits 16
    ASSERT_TRUE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 12, 5), v, now)); // ICC_SRE_EL1
    EXPECT_EQ(v, 7u);
    ASSERT_TRUE(gic.cpu(0).write(PMT_SYSREG(3, 0, 12, 12, 3), 0, now)); // ICC_BPR1_EL1
    ASSERT_TRUE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 12, 3), v, now));
    EXPECT_EQ(v, 3u); // below the minimum: the minimum
    ASSERT_TRUE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 11, 3), v, now)); // ICC_RPR_EL1
    EXPECT_EQ(v, 0xffu);
    ASSERT_TRUE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 12, 0), v, now)); // ICC_IAR1_EL1
    EXPECT_EQ(v, 1023u);
    EXPECT_FALSE(gic.cpu(0).write(PMT_SYSREG(3, 0, 12, 12, 0), 0, now)); // IAR1 is read-only
    EXPECT_FALSE(gic.cpu(0).read(PMT_SYSREG(3, 0, 12, 12, 1), v, now));  // EOIR1 is write-only
    EXPECT_EQ(icc_decode(PMT_SYSREG(3, 0, 4, 6, 0)), icc_reg::PMR);
    EXPECT_EQ(icc_decode(PMT_SYSREG(3, 0, 9, 12, 0)), icc_reg::none); // PMCR_EL0
    EXPECT_STREQ(icc_name(icc_reg::EOIR1), "ICC_EOIR1_EL1");
}

TEST_F(GicTest, BadAccessesAreTlmErrorsAndByteAccessReachesPriorities)
{
    uint64_t v = 0;
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(cpu_bus.read(gicd + 0xC000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE),
        "no register at offset 0xc000");
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(cpu_bus.read(rd_base(0) + 0x14, v, 8), tlm::TLM_BURST_ERROR_RESPONSE),
        "8-byte access to GICR_WAKER not allowed");
    EXPECT_NONFATAL_FAILURE(
        EXPECT_EQ(cpu_bus.read(rd_base(0) + 0x16, v, 2), tlm::TLM_BURST_ERROR_RESPONSE),
        "not allowed");
    set_priority(0, 23, 0xa5);
    EXPECT_EQ(rd(sgi_base(0) + IPRIORITYR + 20), 0xa0u << 24); // 5 bits kept
    EXPECT_EQ(cpu_bus.delay, sc_core::sc_time(10, sc_core::SC_NS));
}

TEST_F(GicTest, EndOfInterruptWithoutAnActiveInterruptWarns)
{
    linux_init(0);
    EXPECT_NONFATAL_FAILURE(gic.cpu(0).eoir1(23), "no active priority");
    gic.cpu(0).eoir1(1023); // a special INTID: ignored, silently
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::CTLR, 0));
    EXPECT_NONFATAL_FAILURE(gic.cpu(0).dir(23), "EOImode 0");
}

// A PE model's PMUIRQ port (an optional port of level_if) binds to the PPI line.
struct pmu_source : sc_core::sc_module {
    optional_port<level_if> pmuirq{"pmuirq"};
    SC_HAS_PROCESS(pmu_source);
    explicit pmu_source(const sc_core::sc_module_name &n) : sc_module(n) { SC_THREAD(run); }
    void run()
    {
        wait(10, sc_core::SC_NS);
        pmuirq->set_level(true, sc_core::SC_ZERO_TIME);
    }
};

struct irq_time : level_if {
    sc_core::sc_time when;
    void set_level(bool l, const sc_core::sc_time &) override
    {
        if (l)
            when = sc_core::sc_time_stamp();
    }
};

TEST(GicBinding, APmuirqPortDrivesPpi23AndTheIrqOutput)
{
    gicv3 gic{"gic"};
    pmu_source pe{"pe"};
    initiator bus{"bus"};
    irq_time cpu;
    pe.pmuirq.bind(gic.pmuirq(0));
    gic.irq[0].bind(cpu);
    initiator dbus{"dbus"};
    bus.socket.bind(gic.redistributors); // the GICR frames at offset 0
    dbus.socket.bind(gic.distributor);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    ASSERT_TRUE(dbus.wr(0x0, 2));                      // GICD_CTLR.EnableGrp1
    ASSERT_TRUE(bus.wr(0x14, 0));                      // awake
    ASSERT_TRUE(bus.wr(0x10080, 1u << 23));            // Group 1
    ASSERT_TRUE(bus.wr(0x10100, 1u << 23));            // enabled
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::PMR, 0xf0)); // priority 0 passes
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN1, 1));
    sc_core::sc_start(20, sc_core::SC_NS);
    EXPECT_EQ(cpu.when, sc_core::sc_time(10, sc_core::SC_NS));
    EXPECT_TRUE(gic.irq[0].read());
    EXPECT_TRUE(gic.irq[0].view().read());
    EXPECT_EQ(gic.cpu(0).iar1(), 23u);
}

} // namespace
