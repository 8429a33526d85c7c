// pe_model outputs: each port delivers its call at the time of the event, unbound ports are
// fine, the views go to a VCD, and the model reports through SC_REPORT.
#include "pe_model_fixture.h"

#include <fstream>
#include <functional>
#include <sstream>

namespace
{

using namespace pmtrace_test;

// H5.4.4: the Performance Monitors overflow trigger event (CTI input trigger 1) is asserted when
// the PE records the overflow; a CTI stand-in sees one trigger event, at the overflow's time.
TEST(PeOutputs, CtiSeesTheOverflowTriggerEvent)
{
    pmtrace::pe_model pe("pe");
    cti_probe cti;
    pe.cti_pmu_overflow.bind(cti);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(cti.triggers.size(), 1u);
    EXPECT_EQ(cti.triggers[0].number, 1u);
    EXPECT_EQ(cti.triggers[0].at, ns(1000));
    EXPECT_TRUE(pe.cti_pmu_overflow.read()); // the multicycle level stays asserted
}

// H5.4.4: each recorded overflow is a trigger event, also while the trigger stays asserted: the
// cycle counter overflows at 1000 ns, event counter 0 (CPU_CYCLES, 32 bits) at 1500 ns, and
// nothing clears PMOVSCLR_EL0 between them.
TEST(PeOutputs, CtiSeesATriggerEventForEachOverflow)
{
    pmtrace::pe_model pe("pe");
    cti_probe cti;
    pe.cti_pmu_overflow.bind(cti);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFFu - 1499);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(cti.triggers.size(), 2u);
    EXPECT_EQ(cti.triggers[0].at, ns(1000));
    EXPECT_EQ(cti.triggers[1].at, ns(1500));
    EXPECT_EQ(cti.triggers[1].number, 1u);
}

// RKBPMJ (FEAT_EBEP): with MDCR_EL3.PMEE = 0b11 the overflow makes the PMU Profiling exception
// pending, to EL3, instead of asserting PMUIRQ (IPFDLQ).
TEST(PeOutputs, PmuExceptionRequestWithItsTargetEl)
{
    pmtrace::pe_model_config cfg;
    cfg.core.feat_ebep = true;
    pmtrace::pe_model pe("pe", cfg);
    exception_probe cpu;
    level_probe gic;
    pe.pmu_exception.bind(cpu);
    pe.pmuirq.bind(gic);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe, PMT_PUT(MDCR_EL3, PMEE, 3));
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(cpu.requests.size(), 1u);
    EXPECT_TRUE(cpu.requests[0].pending);
    EXPECT_EQ(cpu.requests[0].target_el, 3u);
    EXPECT_EQ(cpu.requests[0].at, ns(1000));
    EXPECT_TRUE(gic.changes.empty());
}

// FEAT_Debugv8p9 with FEAT_PMUv3p9: the PMU overflow external debug request follows the overflow.
TEST(PeOutputs, HaltRequestOnOverflow)
{
    pmtrace::pe_model_config cfg;
    cfg.core.pmu_version = PMT_PMUV3P9;
    cfg.core.feat_debugv8p9 = true;
    pmtrace::pe_model pe("pe", cfg);
    level_probe debug_unit;
    pe.halt_request.bind(debug_unit);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(debug_unit.changes.size(), 1u);
    EXPECT_TRUE(debug_unit.changes[0].level);
    EXPECT_EQ(debug_unit.changes[0].at, ns(1000));
}

// ShouldBRBEFreeze: an event counter overflow (not the cycle counter) is a BRBE freeze event.
// Counter 0 counts CPU_CYCLES from 0xFFFFFFFF - 499: it overflows at 500 ns.
TEST(PeOutputs, BrbeFreezeEventOnAnEventCounterOverflow)
{
    pmtrace::pe_model_config cfg;
    cfg.core.feat_brbe = true;
    pmtrace::pe_model pe("pe", cfg);
    event_probe brbe;
    pe.brbe_freeze.bind(brbe);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_CPU_CYCLES);
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFFu - 499);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    sc_core::sc_start(ns(1000));
    ASSERT_EQ(brbe.events.size(), 1u);
    EXPECT_EQ(brbe.events[0], ns(500));
}

// D14.3: PMU_OVFS, one per overflow of a first-range counter with its PMINTENSET bit set.
TEST(PeOutputs, GeneratedOverflowEventForATraceUnit)
{
    pmtrace::pe_model pe("pe");
    generated_probe trace_unit;
    pe.generated.bind(trace_unit);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    ASSERT_EQ(trace_unit.events.size(), 1u);
    EXPECT_EQ(trace_unit.events[0].number, PMT_EV_PMU_OVFS);
    EXPECT_EQ(trace_unit.events[0].count, 1u);
}

// No port bound: the overflow happens and the levels are kept.
TEST(PeOutputs, UnboundPortsAreFine)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    EXPECT_TRUE(pe.pmuirq.read());
    EXPECT_TRUE(pe.cti_pmu_overflow.read());
}

// A level that rose before simulation started reaches the target when it starts.
TEST(PeOutputs, LevelRaisedDuringElaborationIsDelivered)
{
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(gic);
    enter_el1(pe);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMOVSSET_EL0, 0, 1); // RDKCTL: a PMOVSSET write asserts the interrupt
    sc_core::sc_start(ns(10));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_TRUE(gic.changes[0].level);
}

// Bound through the port of an enclosing module, the target is only known when elaboration
// ends: a level raised before that reaches it, once, when simulation starts.
struct cluster : sc_core::sc_module {
    sc_core::sc_port<pmtrace::level_if> pmuirq_out{"pmuirq_out"};
    explicit cluster(const sc_core::sc_module_name &name) : sc_module(name) {}
};

TEST(PeOutputs, LevelRaisedBeforeAHierarchicalBindingResolvesIsDeliveredOnce)
{
    cluster c("cluster");
    pmtrace::pe_model pe("pe");
    level_probe gic;
    pe.pmuirq.bind(c.pmuirq_out);
    c.pmuirq_out.bind(gic);
    enter_el1(pe);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMOVSSET_EL0, 0, 1);
    EXPECT_TRUE(gic.changes.empty());
    sc_core::sc_start(ns(10));
    ASSERT_EQ(gic.changes.size(), 1u);
    EXPECT_TRUE(gic.changes[0].level);
    EXPECT_EQ(gic.changes[0].at, sc_core::SC_ZERO_TIME);
}

// The views go to a VCD: scope "pe", PMUIRQ rising at 1000 ns (the VCD's unit is 1 ps).
TEST(PeOutputs, ViewsAreTracedIntoAVcd)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_trace_file *vcd = sc_core::sc_create_vcd_trace_file("pe_outputs_test");
    pe.trace(vcd);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, ~uint64_t(0) - 999);
    sc_core::sc_start(ns(2000));
    sc_core::sc_close_vcd_trace_file(vcd);
    std::ifstream in("pe_outputs_test.vcd");
    std::stringstream text;
    text << in.rdbuf();
    std::string vcd_text = text.str();
    EXPECT_NE(vcd_text.find("$scope module pe $end"), std::string::npos);
    // The identifier of the pmuirq wire, then its change at #1000000.
    std::string::size_type var = vcd_text.find(" pmuirq ");
    ASSERT_NE(var, std::string::npos);
    std::istringstream line(vcd_text.substr(vcd_text.rfind("$var", var)));
    std::string word, id;
    line >> word >> word >> word >> id; // $var wire 1 <id> pmuirq $end
    std::string::size_type at = vcd_text.find("#1000000\n");
    ASSERT_NE(at, std::string::npos);
    std::string step = vcd_text.substr(at, vcd_text.find('#', at + 1) - at);
    EXPECT_NE(step.find("1" + id + "\n"), std::string::npos) << step;
}

// On request the counters go to the VCD too, sampled at an interval: PMCCNTR is 100 at 100 ns.
TEST(PeOutputs, CountersAreTracedOnRequest)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_trace_file *vcd = sc_core::sc_create_vcd_trace_file("pe_counters_test");
    pe.trace_counters(vcd, ns(100));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    arm_cycle_counter(pe, 0);
    sc_core::sc_start(ns(250));
    sc_core::sc_close_vcd_trace_file(vcd);
    std::ifstream in("pe_counters_test.vcd");
    std::stringstream text;
    text << in.rdbuf();
    std::string vcd_text = text.str();
    std::string::size_type var = vcd_text.find(" PMCCNTR ");
    ASSERT_NE(var, std::string::npos);
    std::istringstream line(vcd_text.substr(vcd_text.rfind("$var", var)));
    std::string word, id;
    line >> word >> word >> word >> id; // $var wire 64 <id> PMCCNTR [63:0] $end
    std::string::size_type at = vcd_text.find("#100000\n");
    ASSERT_NE(at, std::string::npos);
    std::string step = vcd_text.substr(at, vcd_text.find('#', at + 1) - at);
    EXPECT_NE(step.find("b1100100 " + id + "\n"), std::string::npos) << step;
}

// Register accesses at SC_HIGH verbosity, with register and field names, under the module name.
std::vector<std::string> infos;
void keep_infos(const sc_core::sc_report &report, const sc_core::sc_actions &)
{
    if (report.get_severity() == sc_core::SC_INFO)
        infos.push_back(std::string(report.get_msg_type()) + ": " + report.get_msg());
}

// The info lines `accesses` makes at SC_HIGH verbosity.
std::vector<std::string> infos_of(const std::function<void()> &accesses)
{
    infos.clear();
    sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_HIGH);
    sc_core::sc_report_handler::set_handler(keep_infos);
    accesses();
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    return infos;
}

TEST(PeOutputs, RegisterAccessesAreLoggedWithFieldNames)
{
    pmtrace::pe_model pe("pe");
    frame_initiator pmu("pmu_master");
    pmu.socket.bind(pe.pmu_frame);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    const std::vector<std::string> lines = infos_of([&] {
        wr(pe, PMT_REG_PMCR_EL0, 0, 0x41);
        pmu.write(0xE04, 4, 0x41);
    });
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "pe: PMCR_EL0 <= 0x41 {E=1, LC=1}");
    EXPECT_EQ(lines[1], "pe: pmu_frame: PMCR_EL0 <= 0x41 {E=1, LC=1}");
}

// The frame's own registers by name; the upper half of a 64-bit register (EXT32, I5.2) as
// NAME[63:32], without fields.
TEST(PeOutputs, FrameOnlyRegistersAndUpperHalvesAreLoggedByName)
{
    pmtrace::pe_model pe("pe");
    frame_initiator pmu("pmu_master");
    pmu.socket.bind(pe.pmu_frame);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe);
    const std::vector<std::string> lines = infos_of([&] {
        uint64_t v = 0;
        pmu.read(0xFBC, 4, v);
        pmu.write(0x0FC, 4, 0x1);
    });
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "pe: pmu_frame: PMDEVARCH => 0x47702a16"); // ARCHPART 0xA16: EXT32
    EXPECT_EQ(lines[1], "pe: pmu_frame: PMCCNTR_EL0[63:32] <= 0x1");
}

// An access the frame refuses says why, at the same verbosity.
TEST(PeOutputs, RefusedFrameAccessIsLoggedWithTheReason)
{
    pmtrace::pe_model pe("pe");
    frame_initiator pmu("pmu_master");
    pmu.socket.bind(pe.pmu_frame);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe, PMT_MASK(MDCR_EL3, EPMAD));
    const std::vector<std::string> lines = infos_of([&] {
        uint64_t v = 0;
        pmu.read(0xE04, 4, v);
    });
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "pe: pmu_frame: 4-byte read at 0xe04 refused: access not permitted");
}

// UNPREDICTABLE programming: the core's line is a warning naming the rule (RGNGCW).
TEST(PeOutputs, UnpredictableProgrammingIsAWarningNamingTheRule)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    pe.state->set_pe_state(at_el(2));
    EXPECT_NONFATAL_FAILURE(wr(pe, PMT_REG_MDCR_EL2, 0, 7), "RGNGCW");
}

TEST(PeOutputs, CoreLinesCanBeInfos)
{
    pmtrace::pe_model_config cfg;
    cfg.core_log_severity = sc_core::SC_INFO;
    pmtrace::pe_model pe("pe", cfg);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    pe.state->set_pe_state(at_el(2));
    wr(pe, PMT_REG_MDCR_EL2, 0, 7); // no warning: the harness would fail the test
}

// A configuration the core refuses is an error report naming the reason; the model goes on with
// the default configuration (PMCR_EL0.N = 6).
TEST(PeOutputs, BadConfigIsAnErrorAndTheDefaultIsUsed)
{
    pmtrace::pe_model_config cfg;
    cfg.core.num_counters = 40;
    std::unique_ptr<pmtrace::pe_model> pe;
    EXPECT_NONFATAL_FAILURE(pe = std::make_unique<pmtrace::pe_model>("pe", cfg),
                            "num_counters must be 0..31");
    ASSERT_TRUE(pe);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(*pe, PMT_REG_PMCR_EL0)), 6u);
}

TEST(PeOutputs, ZeroClockPeriodIsAnError)
{
    pmtrace::pe_model_config cfg;
    cfg.clock_period = sc_core::SC_ZERO_TIME;
    std::unique_ptr<pmtrace::pe_model> pe;
    EXPECT_NONFATAL_FAILURE(pe = std::make_unique<pmtrace::pe_model>("pe", cfg),
                            "clock_period must not be zero");
    ASSERT_TRUE(pe);
    EXPECT_EQ(pe->config().clock_period, ns(1));
}

} // namespace
