// The Generic Timer (Arm ARM D12 and the register descriptions of CNTFRQ_EL0, CNTPCT_EL0,
// CNTVCT_EL0, CNTVOFF_EL2, CNTKCTL_EL1, CNTHCTL_EL2, CNTP_*_EL0, CNTV_*_EL0, CNTHP_*_EL2): the
// count at exact simulated times, the virtual offset, the TimerValue and CompareValue views, the
// interrupt lines at the exact time of the timer condition, and the accessibility of each
// register at each Exception level. Expected values are worked out from the specification.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/platform/timer/generic_timer.h>
#include <pmtrace/platform/bus/memory_map.h>

#include <memory>
#include <utility>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::SC_SEC;
using sc_core::sc_time;
using sc_core::SC_US;

// The encodings (op0, op1, CRn, CRm, op2) of the register descriptions.
const pmt_sysreg CNTFRQ_EL0 = PMT_SYSREG(3, 3, 14, 0, 0);
const pmt_sysreg CNTPCT_EL0 = PMT_SYSREG(3, 3, 14, 0, 1);
const pmt_sysreg CNTVCT_EL0 = PMT_SYSREG(3, 3, 14, 0, 2);
const pmt_sysreg CNTKCTL_EL1 = PMT_SYSREG(3, 0, 14, 1, 0);
const pmt_sysreg CNTP_TVAL_EL0 = PMT_SYSREG(3, 3, 14, 2, 0);
const pmt_sysreg CNTP_CTL_EL0 = PMT_SYSREG(3, 3, 14, 2, 1);
const pmt_sysreg CNTP_CVAL_EL0 = PMT_SYSREG(3, 3, 14, 2, 2);
const pmt_sysreg CNTV_TVAL_EL0 = PMT_SYSREG(3, 3, 14, 3, 0);
const pmt_sysreg CNTV_CTL_EL0 = PMT_SYSREG(3, 3, 14, 3, 1);
const pmt_sysreg CNTV_CVAL_EL0 = PMT_SYSREG(3, 3, 14, 3, 2);
const pmt_sysreg CNTVOFF_EL2 = PMT_SYSREG(3, 4, 14, 0, 3);
const pmt_sysreg CNTHCTL_EL2 = PMT_SYSREG(3, 4, 14, 1, 0);
const pmt_sysreg CNTHP_TVAL_EL2 = PMT_SYSREG(3, 4, 14, 2, 0);
const pmt_sysreg CNTHP_CTL_EL2 = PMT_SYSREG(3, 4, 14, 2, 1);
const pmt_sysreg CNTHP_CVAL_EL2 = PMT_SYSREG(3, 4, 14, 2, 2);

// CNTx_CTL: ENABLE bit 0, IMASK bit 1, ISTATUS bit 2.
constexpr uint64_t ENABLE = 1, IMASK = 2, ISTATUS = 4;
// CNTKCTL_EL1: EL0PCTEN 0, EL0VCTEN 1, EL0VTEN 8, EL0PTEN 9.
constexpr uint64_t EL0PCTEN = 1u << 0, EL0VCTEN = 1u << 1, EL0VTEN = 1u << 8, EL0PTEN = 1u << 9;
// CNTHCTL_EL2 with E2H = 0: EL1PCTEN 0, EL1PCEN 1. With E2H = 1: EL0PCTEN 0, EL0VCTEN 1,
// EL0VTEN 8, EL0PTEN 9, EL1PCTEN 10, EL1PTEN 11.
constexpr uint64_t EL1PCTEN = 1u << 0, EL1PCEN = 1u << 1;
constexpr uint64_t E2H_EL1PCTEN = 1u << 10, E2H_EL1PTEN = 1u << 11;

// 62.5 MHz: one tick every 16 ns.
const sc_time tick(16, SC_NS);

// Non-secure EL0/EL1 with EL2 enabled, HCR_EL2.{E2H, TGE} as given.
timer_pe_state el2_on(bool e2h = false, bool tge = false)
{
    return timer_pe_state{true, e2h, tge};
}
const timer_pe_state el2_off{};

// Records every level a line delivers, with the time.
struct level_sink : level_if {
    std::vector<std::pair<sc_time, bool>> edges;
    void set_level(bool level, const sc_time &) override
    {
        edges.emplace_back(sc_core::sc_time_stamp(), level);
    }
};
using edge = std::pair<sc_time, bool>;
using edge_list = std::vector<edge>;

void run_to(const sc_time &t)
{
    sc_core::sc_start(t - sc_core::sc_time_stamp());
}

// A timer with its three lines observed, simulation started at time 0.
struct bench {
    level_sink cntp, cntv, cnthp;
    generic_timer timer;

    explicit bench(const generic_timer_config &config = generic_timer_config())
        : timer("timer", config)
    {
        timer.cntp_irq.bind(cntp);
        timer.cntv_irq.bind(cntv);
        timer.cnthp_irq.bind(cnthp);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
    // Accesses that must be allowed; by default at EL3, which every register allows.
    uint64_t rd(pmt_sysreg r, unsigned el = 3, const timer_pe_state &pe = el2_off,
                const sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        uint64_t v = 0xBAD;
        EXPECT_EQ(timer.read(r, el, pe, v, offset), PMT_ACCESS_OK);
        return v;
    }
    void wr(pmt_sysreg r, uint64_t v, unsigned el = 3, const timer_pe_state &pe = el2_off,
            const sc_time &offset = sc_core::SC_ZERO_TIME)
    {
        EXPECT_EQ(timer.write(r, el, pe, v, offset), PMT_ACCESS_OK);
    }
    pmt_access read_access(pmt_sysreg r, unsigned el, const timer_pe_state &pe)
    {
        uint64_t v = 0;
        return timer.read(r, el, pe, v);
    }
    pmt_access write_access(pmt_sysreg r, unsigned el, const timer_pe_state &pe, uint64_t v = 0)
    {
        return timer.write(r, el, pe, v);
    }
};

// --- The count ---

TEST(GenericTimer, PhysicalCountIsTheTicksOf62_5MHzElapsed)
{
    bench b;
    // 62.5 MHz is one tick per 16 ns: floor(t / 16 ns).
    EXPECT_EQ(b.timer.physical_count(sc_time(0, SC_NS)), 0u);
    EXPECT_EQ(b.timer.physical_count(sc_time(15, SC_NS)), 0u);
    EXPECT_EQ(b.timer.physical_count(sc_time(16, SC_NS)), 1u);
    EXPECT_EQ(b.timer.physical_count(sc_time(16'000, SC_NS) - sc_time(1, SC_PS)), 999u);
    EXPECT_EQ(b.timer.physical_count(sc_time(16'000, SC_NS)), 1000u);
    EXPECT_EQ(b.timer.physical_count(sc_time(1, SC_US)), 62u); // 62.5 ticks
    // An hour: 62,500,000 x 3600 exactly, no drift.
    EXPECT_EQ(b.timer.physical_count(sc_time(3600, SC_SEC)), 225'000'000'000u);
    EXPECT_EQ(b.timer.physical_count(sc_time(3600, SC_SEC) + sc_time(15, SC_NS)), 225'000'000'000u);
}

TEST(GenericTimer, CntpctReadsTheCountAtTheTimeOfTheAccess)
{
    bench b;
    run_to(sc_time(1, SC_US));
    EXPECT_EQ(b.rd(CNTPCT_EL0), 62u);
    run_to(sc_time(16, SC_US));
    EXPECT_EQ(b.rd(CNTPCT_EL0), 1000u);
    EXPECT_EQ(b.rd(CNTPCT_EL0, 1, el2_off), 1000u); // the same count at every EL
}

TEST(GenericTimer, CntfrqResetsToTheConfiguredFrequencyAndTheCounterTicksAtIt)
{
    generic_timer_config config;
    config.frequency_hz = 1'000'000'000; // 1 GHz, as from Armv8.6
    bench b(config);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 1), 1'000'000'000u);
    run_to(sc_time(1, SC_US));
    EXPECT_EQ(b.rd(CNTPCT_EL0), 1000u);
}

TEST(GenericTimer, DefaultFrequencyIsQemuVirts62_5MHz)
{
    bench b;
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 1), 62'500'000u);
}

TEST(GenericTimer, CntfrqIsNotInterpretedByHardware)
{
    bench b;
    b.wr(CNTFRQ_EL0, 0xFFFF'FFFF'0000'03E8); // bits [63:32] RES0
    EXPECT_EQ(b.rd(CNTFRQ_EL0), 1000u);
    run_to(sc_time(1, SC_US));
    EXPECT_EQ(b.rd(CNTPCT_EL0), 62u); // still 62.5 MHz
}

TEST(GenericTimer, AFrequencyCntfrqCannotHoldIsRefusedWithOneWarning)
{
    generic_timer_config config;
    config.frequency_hz = 0;
    std::unique_ptr<generic_timer> t;
    EXPECT_NONFATAL_FAILURE(t = std::make_unique<generic_timer>("zero", config), "CNTFRQ_EL0");
    config.frequency_hz = 0x1'0000'0000;
    std::unique_ptr<generic_timer> u;
    EXPECT_NONFATAL_FAILURE(u = std::make_unique<generic_timer>("big", config), "CNTFRQ_EL0");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint64_t v = 0;
    EXPECT_EQ(t->read(CNTFRQ_EL0, 3, el2_off, v), PMT_ACCESS_OK);
    EXPECT_EQ(v, 62'500'000u);
    EXPECT_EQ(u->physical_count(sc_time(1, SC_US)), 62u);
}

// --- The virtual count ---

TEST(GenericTimer, CntvctIsCntpctMinusCntvoff)
{
    bench b;
    b.wr(CNTVOFF_EL2, 100, 2);
    run_to(16'000 * sc_time(1, SC_NS));
    EXPECT_EQ(b.rd(CNTPCT_EL0), 1000u);
    EXPECT_EQ(b.rd(CNTVCT_EL0, 1, el2_on()), 900u);
    EXPECT_EQ(b.rd(CNTVCT_EL0, 1, el2_off), 900u); // EL2 implemented: the offset applies
    EXPECT_EQ(b.rd(CNTVCT_EL0, 2, el2_on()), 900u);
    EXPECT_EQ(b.rd(CNTVCT_EL0, 3), 900u);
    EXPECT_EQ(b.rd(CNTVOFF_EL2, 2), 100u);
}

TEST(GenericTimer, CntvctHasAZeroOffsetInTheEl2And0Regime)
{
    bench b;
    b.wr(CNTVOFF_EL2, 100, 2);
    b.wr(CNTHCTL_EL2, EL0VCTEN, 2); // E2H layout: EL0VCTEN is bit 1
    run_to(16'000 * sc_time(1, SC_NS));
    EXPECT_EQ(b.rd(CNTVCT_EL0, 2, el2_on(true, false)), 1000u); // EL2 with E2H
    EXPECT_EQ(b.rd(CNTVCT_EL0, 0, el2_on(true, true)), 1000u);  // EL0 with {E2H, TGE} = {1, 1}
    b.wr(CNTKCTL_EL1, EL0VCTEN, 1);
    EXPECT_EQ(b.rd(CNTVCT_EL0, 0, el2_on(true, false)), 900u); // EL0 of the EL1&0 regime
}

TEST(GenericTimer, WithoutEl2CntvoffIsRes0AndCntvctIsCntpct)
{
    generic_timer_config config;
    config.have_el2 = false;
    bench b(config);
    b.wr(CNTVOFF_EL2, 100, 3); // RES0 from EL3
    EXPECT_EQ(b.rd(CNTVOFF_EL2, 3), 0u);
    run_to(16'000 * sc_time(1, SC_NS));
    EXPECT_EQ(b.rd(CNTVCT_EL0, 1), 1000u);
    EXPECT_EQ(b.read_access(CNTVOFF_EL2, 1, el2_off), PMT_ACCESS_UNDEFINED);
}

// --- TimerValue and CompareValue ---

TEST(GenericTimer, TvalWriteSetsCvalToTheCountPlusTheValue)
{
    bench b;
    run_to(16'000 * sc_time(1, SC_NS)); // count 1000
    b.wr(CNTP_TVAL_EL0, 500);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), 1500u);
    EXPECT_EQ(b.rd(CNTP_TVAL_EL0), 500u);
    run_to(sc_core::sc_time_stamp() + 100 * tick); // 100 ticks later the TimerValue is 400
    EXPECT_EQ(b.rd(CNTP_TVAL_EL0), 400u);
}

TEST(GenericTimer, TvalIsASigned32BitValue)
{
    bench b;
    run_to(16'000 * sc_time(1, SC_NS)); // count 1000
    b.wr(CNTP_TVAL_EL0, 0xFFFF'FFF6);   // -10
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), 990u);
    // A read is (CVAL - count)[31:0]; bits [63:32] are RES0.
    EXPECT_EQ(b.rd(CNTP_TVAL_EL0), 0xFFFF'FFF6u);
    // Bits [63:32] of a write are ignored.
    b.wr(CNTP_TVAL_EL0, 0xABCD'0000'0000'0005);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), 1005u);
    // The largest positive and the most negative TimerValue.
    b.wr(CNTP_TVAL_EL0, 0x7FFF'FFFF);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), uint64_t{1000} + 0x7FFF'FFFF);
    b.wr(CNTP_TVAL_EL0, 0x8000'0000);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), uint64_t{1000} - 0x8000'0000); // below zero: modulo 2^64
}

TEST(GenericTimer, TvalCountsDownPastZeroOnceCvalHasPassed)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 1000);
    run_to(1010 * tick);
    EXPECT_EQ(b.rd(CNTP_TVAL_EL0), 0xFFFF'FFF6u); // -10 as 32 bits
}

TEST(GenericTimer, VirtualTvalUsesTheVirtualCount)
{
    bench b;
    b.wr(CNTVOFF_EL2, 100, 2);
    run_to(1000 * tick); // virtual count 900
    b.wr(CNTV_TVAL_EL0, 50, 1, el2_on());
    EXPECT_EQ(b.rd(CNTV_CVAL_EL0, 1, el2_on()), 950u);
    EXPECT_EQ(b.rd(CNTV_TVAL_EL0, 1, el2_on()), 50u);
}

// --- The interrupt lines ---

TEST(GenericTimer, CntpIrqRisesExactlyWhenTheCountReachesCval)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 1000);
    b.wr(CNTP_CTL_EL0, ENABLE);
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE); // ISTATUS 0
    run_to(sc_time(20, SC_US));
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(16, SC_US), true}})); // 1000 x 16 ns
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE | ISTATUS);
    EXPECT_TRUE(b.timer.cntp_irq.read());
    EXPECT_TRUE(b.cntv.edges.empty());
    EXPECT_TRUE(b.cnthp.edges.empty());
}

TEST(GenericTimer, TheLineRisesAtTheFirstPicosecondOfTheTick)
{
    generic_timer_config config;
    config.frequency_hz = 24'000'000; // a tick every 41666.67 ps
    bench b(config);
    b.wr(CNTP_CVAL_EL0, 1);
    b.wr(CNTP_CTL_EL0, ENABLE);
    run_to(sc_time(1, SC_US));
    // The count is 1 from ceil(10^12 / 24x10^6) = 41667 ps (41666 ps x 24 MHz is 0.99998).
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(41'667, SC_PS), true}}));
    EXPECT_EQ(b.timer.physical_count(sc_time(41'666, SC_PS)), 0u);
}

TEST(GenericTimer, ImaskMasksTheLineButNotIstatus)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 10);
    b.wr(CNTP_CTL_EL0, ENABLE | IMASK);
    run_to(sc_time(1, SC_US));
    EXPECT_TRUE(b.cntp.edges.empty());
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE | IMASK | ISTATUS);
    b.wr(CNTP_CTL_EL0, ENABLE); // unmasked: asserted at once
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(1, SC_US), true}}));
    run_to(sc_time(2, SC_US));
    b.wr(CNTP_CTL_EL0, ENABLE | IMASK);
    EXPECT_EQ(b.cntp.edges.back(), (edge{sc_time(2, SC_US), false}));
}

TEST(GenericTimer, DisablingTheTimerDropsTheLineAndIstatus)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 10);
    b.wr(CNTP_CTL_EL0, ENABLE);
    run_to(sc_time(1, SC_US));
    b.wr(CNTP_CTL_EL0, 0);
    EXPECT_EQ(b.cntp.edges, (edge_list{{10 * tick, true}, {sc_time(1, SC_US), false}}));
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), 0u); // ISTATUS is UNKNOWN while disabled: reads 0
    run_to(sc_time(2, SC_US));
    EXPECT_EQ(b.cntp.edges.size(), 2u);
}

TEST(GenericTimer, MovingCvalForwardDropsTheLineUntilTheNewCval)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 1000);
    b.wr(CNTP_CTL_EL0, ENABLE);
    run_to(sc_time(20, SC_US));
    b.wr(CNTP_CVAL_EL0, 2000);
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE);
    run_to(sc_time(40, SC_US));
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(16, SC_US), true},
                                       {sc_time(20, SC_US), false},
                                       {sc_time(32, SC_US), true}}));
}

TEST(GenericTimer, ACvalInThePastFiresAtOnce)
{
    bench b;
    run_to(sc_time(16, SC_US));
    b.wr(CNTP_CVAL_EL0, 10);
    b.wr(CNTP_CTL_EL0, ENABLE);
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(16, SC_US), true}})); // in the write
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE | ISTATUS);
}

TEST(GenericTimer, ACvalOfAllOnesNeverFires)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, ~uint64_t{0});
    b.wr(CNTP_CTL_EL0, ENABLE);
    EXPECT_FALSE(sc_core::sc_pending_activity_at_future_time()); // nothing scheduled
    run_to(sc_time(10, SC_SEC));
    EXPECT_TRUE(b.cntp.edges.empty());
    EXPECT_EQ(b.rd(CNTP_CTL_EL0), ENABLE);
}

TEST(GenericTimer, VirtualTimerComparesCvalWithTheVirtualCount)
{
    bench b;
    run_to(1000 * tick);
    b.wr(CNTVOFF_EL2, 400, 2); // virtual count 600
    b.wr(CNTV_CVAL_EL0, 700, 1, el2_on());
    b.wr(CNTV_CTL_EL0, ENABLE, 1, el2_on());
    run_to(2000 * tick);
    EXPECT_EQ(b.cntv.edges, (edge_list{{1100 * tick, true}})); // virtual 700 at physical 1100
    EXPECT_TRUE(b.cntp.edges.empty());
    // A larger offset moves the virtual count back below CVAL: the line drops at once.
    b.wr(CNTVOFF_EL2, 1500, 2); // virtual count 500
    EXPECT_EQ(b.cntv.edges.back(), (edge{2000 * tick, false}));
    run_to(2300 * tick);
    EXPECT_EQ(b.cntv.edges.back(), (edge{2200 * tick, true}));
}

TEST(GenericTimer, TheVirtualCountWrapsWhenThePhysicalCountReachesCntvoff)
{
    bench b;
    // At count 0 the virtual count is 2^64 - 1000, above CVAL: the condition is met at once;
    // at physical 1000 the virtual count wraps to 0; at virtual 500 it is met again.
    b.wr(CNTVOFF_EL2, 1000, 2);
    b.wr(CNTV_CVAL_EL0, 500, 2);
    b.wr(CNTV_CTL_EL0, ENABLE, 2);
    run_to(2000 * tick);
    EXPECT_EQ(b.cntv.edges,
              (edge_list{{sc_time(0, SC_NS), true}, {1000 * tick, false}, {1500 * tick, true}}));
}

TEST(GenericTimer, El2PhysicalTimerDrivesCnthpIrq)
{
    bench b;
    b.wr(CNTHP_TVAL_EL2, 100, 2);
    EXPECT_EQ(b.rd(CNTHP_CVAL_EL2, 2), 100u);
    b.wr(CNTHP_CTL_EL2, ENABLE, 2);
    run_to(sc_time(10, SC_US));
    EXPECT_EQ(b.cnthp.edges, (edge_list{{100 * tick, true}}));
    EXPECT_EQ(b.rd(CNTHP_CTL_EL2, 2), ENABLE | ISTATUS);
    EXPECT_TRUE(b.cntp.edges.empty());
    EXPECT_TRUE(b.cntv.edges.empty());
}

TEST(GenericTimer, TheLinesAreThePpisOfQemuVirt)
{
    EXPECT_EQ(virt::timer_el1_physical_intid, 30u);
    EXPECT_EQ(virt::timer_virtual_intid, 27u);
    EXPECT_EQ(virt::timer_el2_physical_intid, 26u);
}

// --- Local time offsets ---

TEST(GenericTimer, AWriteAtALocalTimeOffsetActsAtThatTime)
{
    bench b;
    const sc_time offset(1, SC_US); // the count is 62 there
    EXPECT_EQ(b.rd(CNTPCT_EL0, 3, el2_off, offset), 62u);
    b.wr(CNTP_TVAL_EL0, 10, 3, el2_off, offset);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), 72u);
    b.wr(CNTP_CTL_EL0, ENABLE, 3, el2_off, offset);
    run_to(sc_time(2, SC_US));
    EXPECT_EQ(b.cntp.edges, (edge_list{{72 * tick, true}})); // 1152 ns
}

TEST(GenericTimer, AnExpiredTimerEnabledAtALocalTimeOffsetFiresAtThatTime)
{
    bench b;
    b.wr(CNTP_CVAL_EL0, 0);
    b.wr(CNTP_CTL_EL0, ENABLE, 3, el2_off, sc_time(1, SC_US));
    EXPECT_TRUE(b.cntp.edges.empty()); // not yet: the global time is 0
    run_to(sc_time(2, SC_US));
    EXPECT_EQ(b.cntp.edges, (edge_list{{sc_time(1, SC_US), true}}));
}

// next_event (what a decoupled CPU syncs at): the time of the next change of any line, the
// earliest of the timers; nothing scheduled: sc_max_time().
TEST(GenericTimer, NextEventIsTheNextChangeOfAnyLine)
{
    bench b;
    EXPECT_EQ(b.timer.next_event(), sc_core::sc_max_time()); // every timer disabled
    b.wr(CNTP_CVAL_EL0, 1000);
    b.wr(CNTP_CTL_EL0, ENABLE);
    EXPECT_EQ(b.timer.next_event(), sc_time(16, SC_US)); // 1000 x 16 ns
    b.wr(CNTV_CVAL_EL0, 500);
    b.wr(CNTV_CTL_EL0, ENABLE);
    EXPECT_EQ(b.timer.next_event(), sc_time(8, SC_US));
    run_to(sc_time(10, SC_US));
    EXPECT_EQ(b.timer.next_event(), sc_time(16, SC_US)); // CNTV's line is up, for good
    b.wr(CNTP_CTL_EL0, 0);
    EXPECT_EQ(b.timer.next_event(), sc_core::sc_max_time());
}

// --- Accessibility: EL0 and CNTKCTL_EL1 ---

struct el0_control {
    const char *name;
    pmt_sysreg reg;
    uint64_t enable; // the CNTKCTL_EL1 bit that allows EL0 access
};

const el0_control el0_controls[] = {
    {"CNTPCT_EL0", CNTPCT_EL0, EL0PCTEN},      {"CNTVCT_EL0", CNTVCT_EL0, EL0VCTEN},
    {"CNTP_TVAL_EL0", CNTP_TVAL_EL0, EL0PTEN}, {"CNTP_CTL_EL0", CNTP_CTL_EL0, EL0PTEN},
    {"CNTP_CVAL_EL0", CNTP_CVAL_EL0, EL0PTEN}, {"CNTV_TVAL_EL0", CNTV_TVAL_EL0, EL0VTEN},
    {"CNTV_CTL_EL0", CNTV_CTL_EL0, EL0VTEN},   {"CNTV_CVAL_EL0", CNTV_CVAL_EL0, EL0VTEN},
};

TEST(GenericTimer, El0AccessesAreTrappedToEl1UnlessCntkctlAllowsThem)
{
    bench b;
    const uint64_t all = EL0PCTEN | EL0VCTEN | EL0VTEN | EL0PTEN;
    for (const el0_control &c : el0_controls) {
        SCOPED_TRACE(c.name);
        b.wr(CNTKCTL_EL1, all & ~c.enable, 1);
        EXPECT_EQ(b.read_access(c.reg, 0, el2_off), PMT_ACCESS_TRAP_EL1);
        b.wr(CNTKCTL_EL1, c.enable, 1);
        EXPECT_EQ(b.read_access(c.reg, 0, el2_off), PMT_ACCESS_OK);
    }
}

TEST(GenericTimer, El0TrapsOfCntkctlGoToEl2WhenHcrTgeIsSet)
{
    bench b;
    b.wr(CNTHCTL_EL2, EL1PCTEN | EL1PCEN, 2);
    b.wr(CNTKCTL_EL1, 0, 1);
    for (const el0_control &c : el0_controls) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(b.read_access(c.reg, 0, el2_on(false, true)), PMT_ACCESS_TRAP_EL2);
        EXPECT_EQ(b.read_access(c.reg, 0, el2_on(false, false)), PMT_ACCESS_TRAP_EL1);
    }
}

TEST(GenericTimer, El0WritesToTheTimersFollowTheSameControls)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0VTEN, 1);
    EXPECT_EQ(b.write_access(CNTV_CVAL_EL0, 0, el2_off, 5), PMT_ACCESS_OK);
    EXPECT_EQ(b.rd(CNTV_CVAL_EL0), 5u);
    EXPECT_EQ(b.write_access(CNTP_CVAL_EL0, 0, el2_off, 5), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(b.rd(CNTP_CVAL_EL0), 0u); // not written
}

TEST(GenericTimer, El0ReadsCntfrqWhenEitherCounterIsAccessible)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0VTEN | EL0PTEN, 1);
    EXPECT_EQ(b.read_access(CNTFRQ_EL0, 0, el2_off), PMT_ACCESS_TRAP_EL1);
    b.wr(CNTKCTL_EL1, EL0PCTEN, 1);
    EXPECT_EQ(b.read_access(CNTFRQ_EL0, 0, el2_off), PMT_ACCESS_OK);
    b.wr(CNTKCTL_EL1, EL0VCTEN, 1);
    EXPECT_EQ(b.read_access(CNTFRQ_EL0, 0, el2_off), PMT_ACCESS_OK);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 0, el2_off), 62'500'000u);
}

TEST(GenericTimer, CntkctlHoldsItsFieldsAndIsUndefinedAtEl0)
{
    bench b;
    b.wr(CNTKCTL_EL1, ~uint64_t{0}, 1);
    EXPECT_EQ(b.rd(CNTKCTL_EL1, 1), 0x3FFu); // bits [9:0]; the rest RES0 without FEAT_ECV
    EXPECT_EQ(b.read_access(CNTKCTL_EL1, 0, el2_off), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTKCTL_EL1, 0, el2_off), PMT_ACCESS_UNDEFINED);
}

// --- Accessibility: EL1 (and EL0) and CNTHCTL_EL2 ---

TEST(GenericTimer, El1PhysicalCounterIsTrappedToEl2UnlessCnthctlEl1pcten)
{
    bench b;
    b.wr(CNTHCTL_EL2, EL1PCEN, 2);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 1, el2_on()), PMT_ACCESS_TRAP_EL2);
    b.wr(CNTHCTL_EL2, EL1PCTEN, 2);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 1, el2_on()), PMT_ACCESS_OK);
}

TEST(GenericTimer, El1PhysicalTimerIsTrappedToEl2UnlessCnthctlEl1pcen)
{
    bench b;
    b.wr(CNTHCTL_EL2, EL1PCTEN, 2);
    for (pmt_sysreg r : {CNTP_TVAL_EL0, CNTP_CTL_EL0, CNTP_CVAL_EL0}) {
        EXPECT_EQ(b.read_access(r, 1, el2_on()), PMT_ACCESS_TRAP_EL2);
        EXPECT_EQ(b.write_access(r, 1, el2_on()), PMT_ACCESS_TRAP_EL2);
    }
    b.wr(CNTHCTL_EL2, EL1PCEN, 2);
    for (pmt_sysreg r : {CNTP_TVAL_EL0, CNTP_CTL_EL0, CNTP_CVAL_EL0}) {
        EXPECT_EQ(b.read_access(r, 1, el2_on()), PMT_ACCESS_OK);
        EXPECT_EQ(b.write_access(r, 1, el2_on()), PMT_ACCESS_OK);
    }
}

TEST(GenericTimer, CnthctlDoesNotTrapTheVirtualCounterAndTimer)
{
    bench b; // CNTHCTL_EL2 = 0
    for (pmt_sysreg r : {CNTVCT_EL0, CNTV_TVAL_EL0, CNTV_CTL_EL0, CNTV_CVAL_EL0, CNTFRQ_EL0})
        EXPECT_EQ(b.read_access(r, 1, el2_on()), PMT_ACCESS_OK);
}

TEST(GenericTimer, CnthctlHasNoEffectWhenEl2IsNotEnabled)
{
    bench b; // CNTHCTL_EL2 = 0: Secure EL1 without Secure EL2, say
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 1, el2_off), PMT_ACCESS_OK);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 1, el2_off), PMT_ACCESS_OK);
}

TEST(GenericTimer, El0AllowedByCntkctlIsStillTrappedToEl2ByCnthctl)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0PCTEN | EL0PTEN, 1);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 0, el2_on()), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 0, el2_on()), PMT_ACCESS_TRAP_EL2);
    b.wr(CNTHCTL_EL2, EL1PCTEN | EL1PCEN, 2);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 0, el2_on()), PMT_ACCESS_OK);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 0, el2_on()), PMT_ACCESS_OK);
}

TEST(GenericTimer, WithHcrE2hCnthctlEl1pctenAndEl1ptenAreBits10And11)
{
    bench b;
    b.wr(CNTHCTL_EL2, EL1PCTEN | EL1PCEN, 2); // bits 0 and 1 mean EL0 controls with E2H
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 1, el2_on(true)), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 1, el2_on(true)), PMT_ACCESS_TRAP_EL2);
    b.wr(CNTHCTL_EL2, E2H_EL1PCTEN, 2);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 1, el2_on(true)), PMT_ACCESS_OK);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 1, el2_on(true)), PMT_ACCESS_TRAP_EL2);
    b.wr(CNTHCTL_EL2, E2H_EL1PTEN, 2);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 1, el2_on(true)), PMT_ACCESS_OK);
}

TEST(GenericTimer, InTheHostRegimeEl0CountersAreControlledByCnthctlNotCntkctl)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0PCTEN | EL0VCTEN | EL0VTEN | EL0PTEN, 1);
    const timer_pe_state host = el2_on(true, true);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTVCT_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTFRQ_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTP_CTL_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTV_CTL_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    b.wr(CNTHCTL_EL2, EL0PCTEN, 2); // E2H layout: EL0PCTEN is bit 0
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 0, host), PMT_ACCESS_OK);
    EXPECT_EQ(b.read_access(CNTVCT_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(b.read_access(CNTFRQ_EL0, 0, host), PMT_ACCESS_OK);
    b.wr(CNTHCTL_EL2, EL0VCTEN, 2); // bit 1
    EXPECT_EQ(b.read_access(CNTVCT_EL0, 0, host), PMT_ACCESS_OK);
    EXPECT_EQ(b.read_access(CNTPCT_EL0, 0, host), PMT_ACCESS_TRAP_EL2);
}

TEST(GenericTimer, CnthctlHoldsBothLayouts)
{
    bench b;
    b.wr(CNTHCTL_EL2, ~uint64_t{0}, 2);
    EXPECT_EQ(b.rd(CNTHCTL_EL2, 2), 0xFFFu); // bits [11:0]; the rest RES0 without FEAT_ECV
}

// --- Accessibility: EL2 registers and CNTFRQ_EL0 writes ---

TEST(GenericTimer, El2RegistersAreUndefinedAtEl0AndEl1)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0PCTEN | EL0VCTEN | EL0VTEN | EL0PTEN, 1);
    for (pmt_sysreg r : {CNTVOFF_EL2, CNTHCTL_EL2, CNTHP_TVAL_EL2, CNTHP_CTL_EL2, CNTHP_CVAL_EL2}) {
        for (unsigned el : {0u, 1u}) {
            EXPECT_EQ(b.read_access(r, el, el2_on()), PMT_ACCESS_UNDEFINED);
            EXPECT_EQ(b.write_access(r, el, el2_on()), PMT_ACCESS_UNDEFINED);
        }
        EXPECT_EQ(b.read_access(r, 2, el2_on()), PMT_ACCESS_OK);
        EXPECT_EQ(b.read_access(r, 3, el2_off), PMT_ACCESS_OK);
    }
}

TEST(GenericTimer, CntfrqIsWritableOnlyAtEl3WhenEl3IsImplemented)
{
    bench b;
    b.wr(CNTKCTL_EL1, EL0PCTEN, 1); // EL0 may read it
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 0, el2_on(), 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 1, el2_on(), 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 2, el2_on(), 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 1), 62'500'000u);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 3, el2_off, 24'000'000), PMT_ACCESS_OK);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 0), 24'000'000u);
}

TEST(GenericTimer, CntfrqIsWritableAtEl2WithoutEl3)
{
    generic_timer_config config;
    config.have_el3 = false;
    bench b(config);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 1, el2_on(), 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 2, el2_on(), 24'000'000), PMT_ACCESS_OK);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 1, el2_on()), 24'000'000u);
}

TEST(GenericTimer, CntfrqIsWritableAtEl1WithoutEl2AndEl3)
{
    generic_timer_config config;
    config.have_el2 = false;
    config.have_el3 = false;
    bench b(config);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 0, el2_off, 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTFRQ_EL0, 1, el2_off, 24'000'000), PMT_ACCESS_OK);
    EXPECT_EQ(b.rd(CNTFRQ_EL0, 1), 24'000'000u);
}

TEST(GenericTimer, TheCountersAreReadOnly)
{
    bench b;
    EXPECT_EQ(b.write_access(CNTPCT_EL0, 3, el2_off, 5), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(b.write_access(CNTVCT_EL0, 3, el2_off, 5), PMT_ACCESS_UNDEFINED);
}

// --- Other encodings and bad input ---

TEST(GenericTimer, OtherEncodingsAreNotMine)
{
    bench b;
    const pmt_sysreg others[] = {
        PMT_SYSREG(3, 3, 9, 13, 0), // PMCCNTR_EL0
        PMT_SYSREG(3, 0, 4, 6, 0),  // ICC_PMR_EL1
        PMT_SYSREG(3, 7, 14, 2, 1), // CNTPS_CTL_EL1 (Secure timer, not modelled)
        PMT_SYSREG(3, 5, 14, 2, 1), // CNTP_CTL_EL02 (FEAT_VHE alias, not modelled)
        PMT_SYSREG(3, 4, 14, 3, 1), // CNTHV_CTL_EL2 (FEAT_VHE timer, not modelled)
        PMT_SYSREG(3, 3, 14, 0, 5), // CNTPCTSS_EL0 (FEAT_ECV, not modelled)
        PMT_SYSREG(3, 4, 14, 0, 6), // CNTPOFF_EL2 (FEAT_ECV, not modelled)
        PMT_SYSREG(2, 3, 14, 0, 1), // CNTPCT_EL0's fields with op0 = 2
    };
    for (const pmt_sysreg &r : others) {
        uint64_t v = 0x1234;
        EXPECT_EQ(b.timer.read(r, 1, el2_on(), v), PMT_ACCESS_NOT_MINE);
        EXPECT_EQ(v, 0x1234u);
        EXPECT_EQ(b.timer.write(r, 1, el2_on(), 0), PMT_ACCESS_NOT_MINE);
    }
}

TEST(GenericTimer, AnAccessFromAnUnimplementedExceptionLevelIsUndefinedWithAWarning)
{
    generic_timer_config config;
    config.have_el3 = false;
    bench b(config);
    EXPECT_NONFATAL_FAILURE(EXPECT_EQ(b.read_access(CNTPCT_EL0, 3, el2_off), PMT_ACCESS_UNDEFINED),
                            "EL3");
    // The same kind again: counted, reported once at the end (module_log).
    EXPECT_EQ(b.write_access(CNTP_CTL_EL0, 7, el2_off, 1), PMT_ACCESS_UNDEFINED);
    EXPECT_NONFATAL_FAILURE(b.timer.log().report_repeats(), "1 more since the first (the last: "
                                                            "CNTP_CTL_EL0 accessed from EL7");
}

// --- Reset ---

TEST(GenericTimer, ResetDisablesTheTimersAndDropsTheLines)
{
    bench b;
    b.wr(CNTFRQ_EL0, 1000);
    b.wr(CNTKCTL_EL1, EL0PCTEN, 1);
    b.wr(CNTHCTL_EL2, EL1PCTEN, 2);
    b.wr(CNTVOFF_EL2, 7, 2);
    for (pmt_sysreg cval : {CNTP_CVAL_EL0, CNTV_CVAL_EL0, CNTHP_CVAL_EL2})
        b.wr(cval, 1);
    for (pmt_sysreg ctl : {CNTP_CTL_EL0, CNTV_CTL_EL0, CNTHP_CTL_EL2})
        b.wr(ctl, ENABLE);
    run_to(sc_time(1, SC_US));
    ASSERT_TRUE(b.timer.cntp_irq.read());
    ASSERT_TRUE(b.timer.cntv_irq.read());
    ASSERT_TRUE(b.timer.cnthp_irq.read());
    b.timer.reset();
    for (level_sink *s : {&b.cntp, &b.cntv, &b.cnthp})
        EXPECT_EQ(s->edges.back(), (edge{sc_time(1, SC_US), false}));
    for (pmt_sysreg ctl : {CNTP_CTL_EL0, CNTV_CTL_EL0, CNTHP_CTL_EL2})
        EXPECT_EQ(b.rd(ctl), 0u);
    EXPECT_EQ(b.rd(CNTFRQ_EL0), 62'500'000u);
    EXPECT_EQ(b.rd(CNTKCTL_EL1), 0u);
    EXPECT_EQ(b.rd(CNTHCTL_EL2), 0u);
    EXPECT_EQ(b.rd(CNTVOFF_EL2), 0u);
    EXPECT_EQ(b.rd(CNTPCT_EL0), 62u); // the count goes on
    run_to(sc_time(2, SC_US));
    EXPECT_FALSE(b.timer.cntp_irq.read());
}

} // namespace
