// The reference platform end to end (platform/vp.h): the sw/ drivers on the host-driven CPU
// program the PE model through system registers; PMUIRQ reaches the CPU through GIC INTID 23;
// the PMU overflow trigger reaches the CTI. Each test runs one simulation (one process per test).
#include <gtest/gtest.h>
#include <pmtrace/platform/vp.h>

#include "apps/apps.h"

#include <vector>

namespace
{

using namespace pmtrace::platform;

constexpr uint64_t CTICONTROL = 0x000, CTITRIGOUTSTATUS = 0x134, CTICHOUTSTATUS = 0x13C,
                   CTIGATE = 0x140;
constexpr uint64_t ctiinen(unsigned n)
{
    return 0x020 + 4 * n;
}
constexpr uint64_t ctiouten(unsigned n)
{
    return 0x0A0 + 4 * n;
}

vp_config small_config()
{
    vp_config c;
    c.pe.core.num_counters = 6;
    c.pe.core.pmu_version = PMT_PMUV3P7;
    c.pe.core.common_events[0] = ~uint64_t{0};
    c.pe.core.common_events[1] = ~uint64_t{0};
    c.ram_size = 0x10'0000;
    return c;
}

void write_sysreg(const hal *h, hal_sysreg reg, uint64_t v)
{
    ASSERT_EQ(hal_sysreg_write(h, reg, v), HAL_OK);
}
uint64_t read_sysreg(const hal *h, hal_sysreg reg)
{
    uint64_t v = 0;
    EXPECT_EQ(hal_sysreg_read(h, reg, &v), HAL_OK);
    return v;
}

// Counter 0 counts INST_RETIRED at EL0 and EL1, 32 bits, `before` events short of overflow.
void arm_counter0(const hal *h, uint64_t before)
{
    write_sysreg(h, HAL_PMCR_EL0, PMT_MASK(PMCR, P) | PMT_MASK(PMCR, C));
    write_sysreg(h, hal_pmevtyper(0), PMT_EV_INST_RETIRED);
    write_sysreg(h, hal_pmevcntr(0), 0x1'0000'0000 - before);
    write_sysreg(h, HAL_PMINTENSET_EL1, 1);
    write_sysreg(h, HAL_PMCNTENSET_EL0, 1);
    write_sysreg(h, HAL_PMCR_EL0, PMT_MASK(PMCR, E));
}

hal_work instructions(uint64_t n)
{
    hal_work w{};
    w.el = 0;
    w.instructions = n;
    w.cycles = n;
    w.trigger_at = HAL_NO_TRIGGER;
    return w;
}

// What the handler saw at each interrupt.
struct overflow_log {
    const hal *h = nullptr;
    std::vector<unsigned> intids;
    std::vector<uint64_t> pmovs;
    std::vector<uint64_t> instructions; // retired when the interrupt was taken
    pmtrace::pe_model *pe = nullptr;
    uint64_t period = 0;
};

int on_overflow(unsigned intid, void *arg)
{
    auto *log = static_cast<overflow_log *>(arg);
    uint64_t ovs = 0;
    (void)hal_sysreg_read(log->h, HAL_PMOVSCLR_EL0, &ovs);
    (void)hal_sysreg_write(log->h, HAL_PMOVSCLR_EL0, ovs);
    uint64_t now = 0;
    (void)hal_sysreg_read(log->h, hal_pmevcntr(0), &now);
    (void)hal_sysreg_write(log->h, hal_pmevcntr(0), (now - log->period) & 0xFFFF'FFFF);
    log->intids.push_back(intid);
    log->pmovs.push_back(ovs);
    log->instructions.push_back(now);
    return SW_IRQ_HANDLED;
}

// D13.3.1 (PMUIRQ) through the GIC: every `period` instructions one interrupt on INTID 23,
// taken at the exact count, acknowledged (ICC_IAR1_EL1) and ended (ICC_EOIR1_EL1); the handler
// clears PMOVSCLR_EL0 and re-arms the counter.
TEST(VpEndToEnd, OverflowInterruptsArriveThroughGicIntid23AtExactCounts)
{
    vp platform("vp", small_config());
    overflow_log log;
    log.period = 1000;
    sw_gic gic{};
    platform.run([&](const hal *h) {
        log.h = h;
        ASSERT_EQ(sw_gic_init(&gic, h, virt::gic_distributor_base, virt::gic_redistributor_base),
                  SW_OK);
        ASSERT_EQ(sw_gic_request_ppi(&gic, virt::pmu_intid, on_overflow, &log), SW_OK);
        arm_counter0(h, log.period);
        hal_irq_enable(h);
        hal_work w = instructions(10'500); // one piece: the CPU splits it at each overflow
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        hal_irq_disable(h);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(log.intids.size(), 10u);
    for (size_t i = 0; i < log.intids.size(); i++) {
        EXPECT_EQ(log.intids[i], 23u) << i;
        EXPECT_EQ(log.pmovs[i], 1u) << i;
        // Taken at the overflow: the counter (64 bits with FEAT_PMUv3p5, overflow at bit 31 with
        // PMCR_EL0.LP = 0) has just reached 2^32, not one event more.
        EXPECT_EQ(log.instructions[i], 0x1'0000'0000u) << i;
    }
    EXPECT_EQ(gic.irqs, 10u);
    EXPECT_EQ(gic.spurious, 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 10u);
    EXPECT_EQ(platform.cpu0.stats().irq_storms, 0u);
    // Acknowledged and cleared: nothing active, nothing pending, the line is low.
    EXPECT_EQ(platform.gic.cpu(0).rpr(), 0xFFu);
    EXPECT_EQ(platform.gic.cpu(0).hppir1(), 1023u);
    EXPECT_FALSE(platform.pe.pmuirq.read());
    EXPECT_FALSE(platform.cpu0.irq_level());
    uint64_t cnt = 0;
    ASSERT_EQ(platform.pe.read_sysreg(pmt_sysreg_encode({PMT_REG_PMEVCNTR_EL0, 0}), cnt,
                                      sc_core::SC_ZERO_TIME),
              PMT_ACCESS_OK);
    EXPECT_EQ(cnt, 0x1'0000'0000 - 1000 + 500); // 500 past the last re-arm
}

// PMUIRQ is a level (D13.3.1): held while PMOVSSET_EL0 has a set bit with its interrupt
// enabled, and dropped when software clears it. With PSTATE.I set nothing is taken; the GIC
// shows INTID 23 pending and the CPU's IRQ line follows.
TEST(VpEndToEnd, PmuirqHeldWhilePmovsSetAndDroppedWhenCleared)
{
    vp platform("vp", small_config());
    std::vector<bool> line, cpu_irq;
    std::vector<unsigned> hppir;
    sw_gic gic{};
    platform.run([&](const hal *h) {
        ASSERT_EQ(sw_gic_init(&gic, h, virt::gic_distributor_base, virt::gic_redistributor_base),
                  SW_OK);
        ASSERT_EQ(sw_gic_request_ppi(&gic, virt::pmu_intid, on_overflow, nullptr), SW_OK);
        hal_irq_disable(h);
        arm_counter0(h, 100);
        auto sample = [&] {
            line.push_back(platform.pe.pmuirq.read());
            cpu_irq.push_back(platform.cpu0.irq_level());
            hppir.push_back(platform.gic.cpu(0).hppir1());
        };
        hal_work w = instructions(99);
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        sample(); // 0: one short of the overflow
        w = instructions(1);
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        sample(); // 1: overflowed
        w = instructions(5000);
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        sample(); // 2: still held, time has passed
        EXPECT_EQ(read_sysreg(h, HAL_PMOVSSET_EL0), 1u);
        write_sysreg(h, HAL_PMOVSCLR_EL0, 1);
        sample(); // 3: cleared
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(line.size(), 4u);
    EXPECT_EQ(line, (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ(cpu_irq, (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ(hppir, (std::vector<unsigned>{1023, 23, 23, 1023}));
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u); // PSTATE.I was set throughout
}

// H5.4.4: the PMU overflow is CTI input trigger 1. Software maps it to channel 2 and channel 2
// to the debug request (output trigger 0, Example H5-4's halt on overflow): one overflow, one
// channel event to the matrix, one output event, and the output held until CTIINTACK (H5.4.1).
TEST(VpEndToEnd, CtiRoutesThePmuOverflowTriggerToAChannelAndAnOutput)
{
    vp platform("vp", small_config());
    uint32_t trigout = 0;
    uint64_t out_events = 0;
    platform.run([&](const hal *h) {
        ASSERT_EQ(hal_mmio_write32(h, virt::cti_base + CTICONTROL, 1), HAL_OK);
        ASSERT_EQ(hal_mmio_write32(h, virt::cti_base + ctiinen(cti_in::pmu_overflow), 1u << 2),
                  HAL_OK);
        ASSERT_EQ(hal_mmio_write32(h, virt::cti_base + ctiouten(cti_out::debug_request), 1u << 2),
                  HAL_OK);
        // Channel 2 also passes to the cross-trigger matrix (channel_events counts those).
        ASSERT_EQ(hal_mmio_write32(h, virt::cti_base + CTIGATE, 1u << 2), HAL_OK);
        hal_irq_disable(h);
        arm_counter0(h, 10);
        hal_work w = instructions(10);
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        out_events = platform.cross_trigger.out_event[cti_out::debug_request].count();
        ASSERT_EQ(hal_mmio_read32(h, virt::cti_base + CTITRIGOUTSTATUS, &trigout), HAL_OK);
        uint32_t chout = 0;
        ASSERT_EQ(hal_mmio_read32(h, virt::cti_base + CTICHOUTSTATUS, &chout), HAL_OK);
        (void)chout;
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(platform.cross_trigger.channel_events(2), 1u);
    EXPECT_EQ(out_events, 1u);
    EXPECT_EQ(trigout, 1u << cti_out::debug_request);
    EXPECT_EQ(platform.cross_trigger.channel_events(0), 0u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::cti_interrupt].count(), 0u);
}

// The PL031 where virt has it (0x0901_0000) with the base vp_config::rtc gives, its RTCINTR on
// SPI 2 (INTID 34): a match the software makes (RTCMR = RTCDR, RTCIMSC set) is pending in the
// Distributor (GICD_ISPENDR1 bit 2) until RTCICR clears it.
TEST(VpEndToEnd, TheRtcIsOnVirtsMapWithItsInterruptOnSpi34)
{
    constexpr uint64_t rtc = virt::rtc_base, ispendr1 = virt::gic_distributor_base + 0x204;
    vp_config c = small_config();
    c.rtc.base = 1150560081; // 2006-06-17T16:01:21 UTC
    vp platform("vp", c);
    uint32_t dr = 0, mis = 0, pending_matched = 0, pending_cleared = 0;
    platform.run([&](const hal *h) {
        ASSERT_EQ(hal_mmio_read32(h, rtc + 0x000, &dr), HAL_OK);  // RTCDR
        ASSERT_EQ(hal_mmio_write32(h, rtc + 0x010, 1), HAL_OK);   // RTCIMSC
        ASSERT_EQ(hal_mmio_write32(h, rtc + 0x004, dr), HAL_OK);  // RTCMR
        ASSERT_EQ(hal_mmio_read32(h, rtc + 0x018, &mis), HAL_OK); // RTCMIS
        ASSERT_EQ(hal_mmio_read32(h, ispendr1, &pending_matched), HAL_OK);
        ASSERT_EQ(hal_mmio_write32(h, rtc + 0x01C, 1), HAL_OK); // RTCICR
        ASSERT_EQ(hal_mmio_read32(h, ispendr1, &pending_cleared), HAL_OK);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(dr, 1150560081u);
    EXPECT_EQ(mis, 1u);
    EXPECT_EQ(pending_matched & (1u << (virt::rtc_intid - 32)), 1u << 2);
    EXPECT_EQ(pending_cleared & (1u << (virt::rtc_intid - 32)), 0u);
}

// The apps on the platform: `record` samples exactly every period; `stat` counts exactly.
TEST(VpEndToEnd, RecordAppSamplesEveryPeriodAndStatCountsExactly)
{
    vp platform("vp", small_config());
    sw_loop loop;
    sw_loop_init(&loop);
    loop.iterations = 50;
    loop.instructions = 1000;
    loop.cycles = 1300;
    loop.per_piece = 7;
    sw_workload wl = sw_loop_workload(&loop);
    sw_record_sample samples[64];
    sw_record_config rc{};
    rc.event = PMT_EV_INST_RETIRED;
    rc.period = 5000;
    rc.samples = samples;
    rc.max_samples = 64;
    sw_record_result rr{};
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_record_run(&env, &rc, &wl, &rr), SW_OK);
    });
    EXPECT_EQ(rr.samples, 10u);
    EXPECT_EQ(rr.pmu_irqs, 10u);
    EXPECT_EQ(rr.count, 50'000u);
    ASSERT_EQ(rr.stored, 10u);
    for (unsigned i = 0; i < 10; i++) {
        EXPECT_EQ(samples[i].count, 5000u * (i + 1)) << i;
        EXPECT_EQ(samples[i].period, 5000u) << i;
    }
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 10u);
    EXPECT_EQ(platform.cpu0.stats().cycles, 50u * 1300u);
    // 50 x 1300 ns of work, plus the latency of the GIC's register accesses.
    EXPECT_GE(sc_core::sc_time_stamp(), sc_core::sc_time(65, sc_core::SC_US));
    EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(66, sc_core::SC_US));
}

} // namespace
