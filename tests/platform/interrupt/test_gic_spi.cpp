// Shared Peripheral Interrupts end to end in the GICv3 (Arm IHI 0069): a device's line raises an
// SPI, the Distributor routes it (GICD_IROUTER<n>) to a PE's CPU interface, ICC_IAR1_EL1 returns
// it against the PE's PPIs by priority, and end of interrupt, deactivation, level and edge
// behave as for PPIs. Also the sequences Linux's irq-gic-v3 and kvm-unit-tests' GICv3 library
// program, as register accesses that are all answered.
#include "platform/initiator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/interrupt/gic.h>

#include <vector>

namespace
{

using namespace pmtrace::platform;
using pmtrace::test::initiator;
namespace virt = pmtrace::platform::virt;

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
// GICD offsets.
constexpr uint64_t CTLR = 0x0, IGROUPR = 0x80, ISENABLER = 0x100, ICENABLER = 0x180,
                   ISPENDR = 0x200, ICPENDR = 0x280, ICACTIVER = 0x380, IPRIORITYR = 0x400,
                   ICFGR = 0xC00, IROUTER = 0x6000;
constexpr unsigned uart = virt::uart_intid; // SPI 1

gic_config two_pes()
{
    gic_config c;
    c.num_cpus = 2;
    return c;
}

struct GicSpi : ::testing::Test {
    initiator cpu_bus{"cpu_bus"};
    router bus{"bus"};
    gicv3 gic{"gic", two_pes()};
    line_probe irq0, irq1, fiq0;

    GicSpi()
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

    // What Linux's irq-gic-v3 does for a PE: on the boot PE (0) first gic_dist_init (GICD_CTLR
    // 0, every SPI Group 1, level-sensitive, priority 0xa0, inactive and disabled; GICD_CTLR
    // ARE | EnableGrp1 | EnableGrp0, Linux's ARE_NS, ENABLE_G1A, ENABLE_G1 with one Security
    // state; every GICD_IROUTER<n> the boot PE's affinity, by 64-bit writes); then gic_cpu_init
    // and gic_cpu_sys_reg_init.
    void linux_init(unsigned cpu)
    {
        if (cpu == 0)
            linux_dist_init();
        ASSERT_TRUE(cpu_bus.wr(rd_base(cpu) + 0x14, 0)); // GICR_WAKER: awake
        ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + 0x80, 0xFFFFFFFF));
        ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + 0x180, 0xFFFFFFFF));
        for (unsigned n = 0; n < 8; n++)
            ASSERT_TRUE(cpu_bus.wr(sgi_base(cpu) + 0x400 + 4 * n, 0xa0a0a0a0));
        gic_cpu_interface &icc = gic.cpu(cpu);
        icc.set_pmr(0xf0);
        ASSERT_TRUE(icc.write(icc_reg::BPR1, 0));
        ASSERT_TRUE(icc.write(icc_reg::CTLR, 0));
        ASSERT_TRUE(icc.write(icc_reg::IGRPEN1, 1));
    }
    void linux_dist_init()
    {
        ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0));
        const unsigned lines = ((cpu_bus.rd(gicd + 0x4) & 0x1F) + 1) * 32;
        for (unsigned i = 32; i < lines; i += 32)
            ASSERT_TRUE(cpu_bus.wr(gicd + IGROUPR + i / 8, 0xFFFFFFFF));
        for (unsigned i = 32; i < lines; i += 16)
            ASSERT_TRUE(cpu_bus.wr(gicd + ICFGR + i / 4, 0));
        for (unsigned i = 32; i < lines; i += 4)
            ASSERT_TRUE(cpu_bus.wr(gicd + IPRIORITYR + i, 0xa0a0a0a0));
        for (unsigned i = 32; i < lines; i += 32) {
            ASSERT_TRUE(cpu_bus.wr(gicd + ICACTIVER + i / 8, 0xFFFFFFFF));
            ASSERT_TRUE(cpu_bus.wr(gicd + ICENABLER + i / 8, 0xFFFFFFFF));
        }
        ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0x13));
        ASSERT_EQ(cpu_bus.rd(gicd + CTLR) >> 31, 0u); // RWP
        for (unsigned i = 32; i < lines; i++)         // the boot PE, 0.0.0.0
            ASSERT_EQ(cpu_bus.write(gicd + IROUTER + 8 * i, 0, 8), tlm::TLM_OK_RESPONSE);
    }
    void enable_spi(unsigned intid)
    {
        ASSERT_TRUE(cpu_bus.wr(gicd + ISENABLER + 4 * (intid / 32), 1u << (intid % 32)));
    }
    void set_priority(unsigned intid, uint8_t prio)
    {
        ASSERT_EQ(cpu_bus.write(gicd + IPRIORITYR + intid, prio, 1), tlm::TLM_OK_RESPONSE);
    }
    void route(unsigned intid, uint64_t irouter)
    {
        ASSERT_EQ(cpu_bus.write(gicd + IROUTER + 8 * intid, irouter, 8), tlm::TLM_OK_RESPONSE);
    }
    uint32_t rd(uint64_t a) { return cpu_bus.rd(a); }
};

// A level-sensitive SPI: pending while the device holds its line high, acknowledged (active and
// pending), ended, pending again, and gone once the device lets go.
TEST_F(GicSpi, ADeviceLineReachesIar1AndTheIrqOutput)
{
    linux_init(0);
    enable_spi(uart);
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(irq0.level);
    EXPECT_FALSE(irq1.level); // routed to PE 0
    EXPECT_EQ(rd(gicd + ISPENDR + 4), 1u << 1);
    EXPECT_EQ(gic.cpu(0).hppir1(), uart);
    EXPECT_EQ(gic.cpu(0).iar1(), uart);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).rpr(), 0xa0u);
    EXPECT_EQ(rd(gicd + 0x300 + 4), 1u << 1);   // GICD_ISACTIVER1
    EXPECT_EQ(rd(gicd + ISPENDR + 4), 1u << 1); // active and pending: the line is high
    gic.cpu(0).eoir1(uart);
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), uart);
    gic.spi(uart).set_level(false, sc_core::SC_ZERO_TIME);
    gic.cpu(0).eoir1(uart);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    EXPECT_EQ(gic.cpu(0).acknowledged(uart), 2u);
    EXPECT_EQ(irq0.levels, (std::vector<bool>{true, false, true, false}));
    EXPECT_TRUE(irq1.levels.empty());
}

// An SPI and a PPI pending together: the higher priority first whatever its kind; at equal
// priority the lower INTID (the PPI); the SPI preempts a PPI of lower priority.
TEST_F(GicSpi, PriorityOrdersAnSpiAgainstAPpi)
{
    linux_init(0);
    enable_spi(uart);
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + 0x100, 1u << virt::pmu_intid));
    set_priority(uart, 0x80);
    gic.pmuirq(0).set_level(true, sc_core::SC_ZERO_TIME);
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(gic.cpu(0).hppir1(), uart);
    EXPECT_EQ(gic.cpu(0).iar1(), uart); // 0x80 before the PMU's 0xa0
    EXPECT_FALSE(irq0.level);           // 0xa0 does not preempt 0x80
    gic.spi(uart).set_level(false, sc_core::SC_ZERO_TIME);
    gic.cpu(0).eoir1(uart);
    EXPECT_EQ(gic.cpu(0).iar1(), virt::pmu_intid);
    EXPECT_EQ(gic.cpu(0).rpr(), 0xa0u);
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME); // 0x80 preempts the running 0xa0
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), uart);
    EXPECT_EQ(gic.cpu(0).rpr(), 0x80u);
    gic.spi(uart).set_level(false, sc_core::SC_ZERO_TIME);
    gic.cpu(0).eoir1(uart);
    gic.cpu(0).eoir1(virt::pmu_intid);

    set_priority(uart, 0xa0); // equal priorities: the lower INTID first
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(gic.cpu(0).iar1(), virt::pmu_intid);
    set_priority(uart, 0xc0);
    gic.pmuirq(0).set_level(false, sc_core::SC_ZERO_TIME);
    gic.cpu(0).eoir1(virt::pmu_intid);
    EXPECT_EQ(gic.cpu(0).iar1(), uart);
}

TEST_F(GicSpi, EdgeTriggeredSpiLatchesARisingEdge)
{
    linux_init(0);
    enable_spi(40);
    ASSERT_TRUE(cpu_bus.wr(gicd + ICFGR + 8, 2u << 16)); // INTID 40: Int_config[1]
    gic.spi(40).set_level(true, sc_core::SC_ZERO_TIME);
    gic.spi(40).set_level(false, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(irq0.level); // latched
    EXPECT_EQ(gic.cpu(0).iar1(), 40u);
    EXPECT_EQ(rd(gicd + ISPENDR + 4), 0u);
    gic.cpu(0).eoir1(40);
    EXPECT_FALSE(irq0.level);
    gic.spi(40).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(irq0.level);
    gic.spi(40).set_level(true, sc_core::SC_ZERO_TIME); // no edge: still one
    EXPECT_EQ(gic.cpu(0).iar1(), 40u);
    gic.cpu(0).eoir1(40);
    EXPECT_FALSE(irq0.level);
}

// GICD_ISPENDR sets a level-sensitive SPI's latch, which acknowledging clears; GICD_ICPENDR
// clears it, but not the pending state a high line gives.
TEST_F(GicSpi, SoftwarePendingIsALatchTheLineDoesNotNeed)
{
    linux_init(0);
    enable_spi(50);
    ASSERT_TRUE(cpu_bus.wr(gicd + ISPENDR + 4, 1u << (50 - 32)));
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), 50u);
    gic.cpu(0).eoir1(50);
    EXPECT_FALSE(irq0.level);
    gic.spi(50).set_level(true, sc_core::SC_ZERO_TIME);
    ASSERT_TRUE(cpu_bus.wr(gicd + ICPENDR + 4, 1u << (50 - 32)));
    EXPECT_TRUE(irq0.level);
    EXPECT_EQ(rd(gicd + ISPENDR + 4), 1u << (50 - 32));
}

// GICD_IROUTER<n>: the PE of the affinity (PE n is 0.0.0.n); an affinity no PE has: not
// forwarded, and the register reads as written; Interrupt_Routing_Mode 1: an awake PE.
TEST_F(GicSpi, IrouterChoosesThePe)
{
    linux_init(0);
    linux_init(1);
    enable_spi(uart);
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(irq0.level);
    route(uart, 1);
    EXPECT_FALSE(irq0.level);
    EXPECT_TRUE(irq1.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    route(uart, 0x100); // affinity 0.0.1.0: nobody
    EXPECT_FALSE(irq0.level);
    EXPECT_FALSE(irq1.level);
    uint64_t v = 0;
    ASSERT_EQ(cpu_bus.read(gicd + IROUTER + 8 * uart, v, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x100u);
    EXPECT_EQ(rd(gicd + ISPENDR + 4), 1u << 1); // still pending
    route(uart, gicd_irouter_irm);              // 1 of N: the lowest awake PE
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(rd_base(0) + 0x14, 0x2)); // PE 0 goes to sleep
    EXPECT_FALSE(irq0.level);
    EXPECT_TRUE(irq1.level);
    EXPECT_EQ(gic.cpu(1).iar1(), uart);
    EXPECT_FALSE(irq1.level);
}

TEST_F(GicSpi, TheDistributorsGroupEnablesGateSpis)
{
    linux_init(0);
    enable_spi(uart);
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0x1)); // EnableGrp1 = 0
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), gic_no_interrupt);
    ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0x3));
    EXPECT_TRUE(irq0.level);
    ASSERT_TRUE(cpu_bus.wr(gicd + ICENABLER + 4, 1u << 1));
    EXPECT_FALSE(irq0.level);
}

TEST_F(GicSpi, AGroup0SpiIsAFiq)
{
    linux_init(0);
    enable_spi(uart);
    ASSERT_TRUE(cpu_bus.wr(gicd + IGROUPR + 4, ~(1u << 1)));
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::IGRPEN0, 1));
    gic.spi(uart).set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(fiq0.level);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).iar1(), gic_no_interrupt);
    EXPECT_EQ(gic.cpu(0).iar0(), uart);
    gic.cpu(0).eoir0(uart);
    EXPECT_EQ(gic.cpu(0).rpr(), 0xffu);
}

// EOImode 1 (Linux at EL2): ICC_EOIR1_EL1 drops the priority, ICC_DIR_EL1 deactivates the SPI.
TEST_F(GicSpi, EoiModeOneDeactivatesAnSpiWithDir)
{
    linux_init(0);
    enable_spi(uart);
    ASSERT_TRUE(gic.cpu(0).write(icc_reg::CTLR, icc_ctlr_eoimode));
    ASSERT_TRUE(cpu_bus.wr(gicd + ISPENDR + 4, 1u << 1));
    EXPECT_EQ(gic.cpu(0).iar1(), uart);
    gic.cpu(0).eoir1(uart);
    EXPECT_EQ(gic.cpu(0).rpr(), 0xffu);
    EXPECT_EQ(rd(gicd + 0x300 + 4), 1u << 1);
    gic.cpu(0).dir(uart);
    EXPECT_EQ(rd(gicd + 0x300 + 4), 0u);
    EXPECT_NONFATAL_FAILURE(gic.cpu(0).dir(uart), "INTID 33 that is not active");
}

// A line asked for an INTID that is no SPI of this GIC goes nowhere, with one warning.
TEST_F(GicSpi, ALineOfNoSpiGoesNowhere)
{
    linux_init(0);
    level_if *line = nullptr;
    EXPECT_NONFATAL_FAILURE(line = &gic.spi(288), "no SPI 288 (SPIs are INTIDs 32..287)");
    EXPECT_NONFATAL_FAILURE(line = &gic.spi(23), "no SPI 23");
    line->set_level(true, sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(irq0.level);
    EXPECT_EQ(gic.cpu(0).hppir1(), gic_no_interrupt);
}

// kvm-unit-tests' gicv3_enable_defaults (lib/arm/gic-v3.c), which its PMU overflow-interrupt test
// runs: every access is answered. Its loop writes ~0 from GICD_IGROUPR on, 4 bytes for each
// INTID, so it reaches every GICD_ISENABLER<n> and GICD_ICENABLER0-7 too: the SPIs end in Group
// 1, disabled but for INTIDs 256-287.
TEST_F(GicSpi, KvmUnitTestsEnableDefaultsIsAnswered)
{
    const unsigned irq_nr = ((rd(gicd + 0x4) & 0x1F) + 1) * 32;
    EXPECT_EQ(irq_nr, 288u);
    ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0));
    ASSERT_TRUE(cpu_bus.wr(gicd + CTLR, 0x13));
    for (unsigned i = 0; i < irq_nr; i += 4)
        ASSERT_TRUE(cpu_bus.wr(gicd + IGROUPR + i, 0xFFFFFFFF)) << i;
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + 0x80, 0xFFFFFFFF));
    for (unsigned i = 0; i < 16; i += 4)
        ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + 0x400 + i, 0xa0a0a0a0));
    ASSERT_TRUE(cpu_bus.wr(sgi_base(0) + 0x100, 0xFFFF));
    EXPECT_EQ(rd(gicd + IGROUPR + 4), 0xFFFFFFFFu);
    EXPECT_EQ(rd(gicd + ISENABLER + 4), 0u);           // set, then cleared by the ICENABLER writes
    EXPECT_EQ(rd(gicd + ISENABLER + 32), 0xFFFFFFFFu); // beyond the last ICENABLER written
    EXPECT_EQ(rd(gicd + CTLR), 0x53u);
}

} // namespace
