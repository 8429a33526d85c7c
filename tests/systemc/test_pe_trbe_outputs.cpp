// pe_model's Trace Buffer Unit outputs and trace inputs: TRBIRQ (RLRTBP, RVSCDV), the TRBE
// Profiling exception request (RMFMXQ), CTI trigger events 8, 9 and 10 (H5.4.9 to H5.4.11),
// TRB_WRAP for a trace unit, and the trace sink export with Detected Trigger and the flush
// handshake (RXRRWP, RWMPMV) - with the platform's trace source as the trace unit.
#include "pe_trbe_fixture.h"

#include <fstream>
#include <pmtrace/platform/trace/trace_source.h>
#include <sstream>

namespace
{

using namespace pmtrace_test;
using P = trbe_platform;

// RLRTBP, RMBSHC: Fill mode, the buffer fills at 50 ns: TRBIRQ rises then (TRBSR_EL1: S, IRQ,
// WRAP, BSC buffer full), and falls at 80 ns when the driver clears TRBSR_EL1.IRQ through the
// CPU export.
TEST(TrbeOutputs, TrbirqRisesOnBufferFullAndFallsWhenSoftwareClearsIrq)
{
    P p;
    p.program_fill();
    sc_core::sc_start(ns(50));
    p.trace(0x4000);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, WRAP, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), 0u);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(p.trbptr(), P::BASE);
    ASSERT_EQ(p.irq.changes.size(), 1u);
    EXPECT_TRUE(p.irq.changes[0].level);
    EXPECT_EQ(p.irq.changes[0].at, ns(50));
    EXPECT_TRUE(p.pe.trbirq.read());
    sc_core::sc_start(ns(30));
    EXPECT_TRUE(p.pe.trbirq.view().read());
    // The handler: disable, then clear IRQ.
    wr(p.pe, PMT_REG_TRBLIMITR_EL1, 0, P::LIMIT);
    wr(p.pe, PMT_REG_TRBSR_EL1, 0, s & ~PMT_MASK(TRBSR, IRQ));
    ASSERT_EQ(p.irq.changes.size(), 2u);
    EXPECT_FALSE(p.irq.changes[1].level);
    EXPECT_EQ(p.irq.changes[1].at, ns(80));
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x4000));
}

// H5.4.9 to H5.4.11: a CTI stand-in sees trigger 10 (wrap) on each wrap in Circular Buffer mode,
// and on a Fill mode buffer full 10, 9 (management: IRQ 0 -> 1) and 8 (stopped: S 0 -> 1).
TEST(TrbeOutputs, CtiSeesTraceBufferTriggers8To10)
{
    P p;
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    p.trace(2 * 0x4000);
    ASSERT_EQ(p.cti.triggers.size(), 2u);
    EXPECT_EQ(p.cti.triggers[0].number, PMT_CTI_TRBE_WRAP);
    EXPECT_EQ(p.cti.triggers[1].number, PMT_CTI_TRBE_WRAP);
    p.cti.triggers.clear();
    p.program_fill();
    sc_core::sc_start(ns(10));
    p.trace(0x4000);
    ASSERT_EQ(p.cti.triggers.size(), 3u);
    EXPECT_EQ(p.cti.triggers[0].number, PMT_CTI_TRBE_WRAP);
    EXPECT_EQ(p.cti.triggers[1].number, PMT_CTI_TRBE_MANAGEMENT);
    EXPECT_EQ(p.cti.triggers[2].number, PMT_CTI_TRBE_STOPPED);
    EXPECT_EQ(p.cti.triggers[2].at, ns(10));
    EXPECT_EQ(p.pe.cti_trbe_wrap.count(), 3u);
    EXPECT_EQ(p.pe.cti_trbe_management.count(), 1u);
    EXPECT_EQ(p.pe.cti_trbe_stopped.count(), 1u);
}

// Without FEAT_TRBE_EXT there are no trace buffer triggers.
TEST(TrbeOutputs, NoCtiTriggersWithoutTrbeExt)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.feat_trbe_ext = false;
    P p(cfg);
    p.program_fill();
    p.trace(0x4000);
    EXPECT_TRUE(p.cti.triggers.empty());
    EXPECT_EQ(p.irq.changes.size(), 1u);
}

// TRB_WRAP for a trace unit on the generated port (D6.1.2); the PMU counts it too.
TEST(TrbeOutputs, TrbWrapIsGivenToTheTraceUnitAndCounted)
{
    P p;
    p.pe.state->set_pe_state(at_el(2));
    wr(p.pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_TRB_WRAP | PMT_MASK(PMEVTYPER, NSH));
    wr(p.pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(p.pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    p.pe.state->set_pe_state(el1_ns());
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    p.trace(3 * 0x4000);
    ASSERT_EQ(p.generated.events.size(), 3u);
    EXPECT_EQ(p.generated.events[0].number, PMT_EV_TRB_WRAP);
    EXPECT_EQ(p.generated.events[0].count, 1u);
    p.pe.state->set_pe_state(at_el(2));
    EXPECT_EQ(rd(p.pe, PMT_REG_PMEVCNTR_EL0), 3u);
}

// RMFMXQ, IMTLSX: with FEAT_TRBE_EXC, MDCR_EL3.TRBEE = 1, TRFCR_EL2.EE = 0b01 and
// TRFCR_EL1.EE = 0b11 the buffer full event is a TRBE Profiling exception taken from EL0 to EL1
// (Table D6-8) instead of TRBIRQ; the request falls when TRBSR_EL1.IRQ is cleared.
TEST(TrbeOutputs, RMFMXQ_TrbeProfilingExceptionRequestWithItsTargetEl)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.feat_trbe_exc = true;
    P p(cfg);
    p.pe.state->set_pe_state(at_el(3, PMT_SS_SECURE));
    wr(p.pe, PMT_REG_MDCR_EL3, 0, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 1));
    wr(p.pe, PMT_REG_TRFCR_EL2, 0, PMT_PUT(TRFCR_EL2, EE, 1));
    wr(p.pe, PMT_REG_TRFCR_EL1, 0, PMT_PUT(TRFCR_EL1, EE, 3));
    p.pe.state->set_pe_state(el1_ns());
    p.program_fill();
    p.pe.state->set_pe_state(at_el(0)); // an application runs
    sc_core::sc_start(ns(20));
    p.trace(0x4000);
    ASSERT_EQ(p.exception.requests.size(), 1u);
    EXPECT_TRUE(p.exception.requests[0].pending);
    EXPECT_EQ(p.exception.requests[0].target_el, 1u);
    EXPECT_EQ(p.exception.requests[0].at, ns(20));
    EXPECT_TRUE(p.irq.changes.empty()); // the interrupt request is disabled (RVSCDV)
    // The CPU takes the exception to EL1; the handler disables the unit and clears
    // TRBSR_EL1.IRQ.
    p.pe.state->set_pe_state(el1_ns());
    wr(p.pe, PMT_REG_TRBLIMITR_EL1, 0, 0);
    wr(p.pe, PMT_REG_TRBSR_EL1, 0, 0);
    ASSERT_EQ(p.exception.requests.size(), 2u);
    EXPECT_FALSE(p.exception.requests[1].pending);
}

// --- The trace sink and the flush handshake -------------------------------------------------

// RXRRWP with the platform's trace source as the trace unit: 16 bytes every 10 ns, a Detected
// Trigger after byte 256 (at 160 ns), Stop on trigger with TRBTRG_EL1 = 64. The unit written at
// 200 ns brings the Trigger Counter to zero: a Trigger Event, so the model asks the trace unit
// to flush (trace_flush port); when the flush completes the unit stops: TRBSR_EL1 S, IRQ, TRG,
// BSC Trigger Event; TRBPTR_EL1 after the last accepted byte; later trace is discarded.
TEST(TrbeSink, RXRRWP_StopOnTriggerWithTheTraceSource)
{
    plat::trace_source_config sc;
    sc.trigger_after = 256;
    plat::trace_source src("src", sc);
    P p(trbe_config(), ram_config(true), true, [&](P &platform) {
        src.sink.bind(platform.pe.trace_sink);
        platform.pe.trace_flush.bind(src);
    });
    wr(p.pe, PMT_REG_TRBTRG_EL1, 0, 64);
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_STOP);
    sc_core::sc_start(ns(400));
    EXPECT_EQ(src.triggers(), 1u);
    EXPECT_EQ(src.flushes(), 1u);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, TRG, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), 0u);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), PMT_TRBSR_BSC_TRIGGER);
    EXPECT_EQ(p.trbptr(), P::BASE + 320);
    ASSERT_EQ(p.irq.changes.size(), 1u);
    EXPECT_EQ(p.irq.changes[0].at, ns(200));
    for (unsigned k = 0; k < 320; k++)
        ASSERT_EQ(p.ram.data()[P::BASE - P::RAM + k], static_cast<uint8_t>(k)) << k;
    EXPECT_EQ(p.ram.data()[P::BASE - P::RAM + 320], 0u); // discarded after the stop
    EXPECT_GT(src.bytes_sent(), 320u);
}

// Without a trace unit on the flush port, the flush completes at once: the Trigger Event stops
// the unit in the same call.
TEST(TrbeSink, UnboundFlushPortCompletesTheFlushAtOnce)
{
    P p;
    wr(p.pe, PMT_REG_TRBTRG_EL1, 0, 0);
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_STOP);
    p.trace(64);
    p.pe.trace_sink->detected_trigger();
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), PMT_TRBSR_BSC_TRIGGER);
    EXPECT_FALSE(p.pe.trbe_status().flush_pending);
}

// RJQDJD: the flush request reaches the trace unit; until it completes a TSB CSYNC is not
// finished (trbe_status().flush_pending); flush_complete through the export ends it.
TEST(TrbeSink, RJQDJD_FlushRequestAndCompletion)
{
    flush_probe unit;
    P p(trbe_config(), ram_config(true), true,
        [&](P &platform) { platform.pe.trace_flush.bind(unit); });
    wr(p.pe, PMT_REG_TRBTRG_EL1, 0, 0);
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_STOP);
    sc_core::sc_start(ns(5));
    p.pe.trace_sink->detected_trigger();
    ASSERT_EQ(unit.requests, 1);
    EXPECT_EQ(unit.at[0], ns(5));
    EXPECT_EQ(p.pe.trbe->tsb_csync(), PMT_OK);
    EXPECT_TRUE(p.pe.trbe_status().flush_pending);
    p.trace(64); // the trace unit's pending trace, then the completion
    p.pe.trace_sink->flush_complete();
    EXPECT_FALSE(p.pe.trbe_status().flush_pending);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, p.trbsr()), PMT_TRBSR_BSC_TRIGGER);
    EXPECT_EQ(p.trbptr(), P::BASE + 64);
}

// A trace unit that delivers its trace and completes the flush inside flush_request (eager_unit):
// the calls are performed one delta later, in order, and the result is the same.
TEST(TrbeSink, CallsFromInsideTheFlushRequestArePerformedOneDeltaLater)
{
    eager_unit unit;
    caller trace_unit("trace_unit");
    P p(trbe_config(), ram_config(true), true, [&](P &platform) {
        unit.sink = &platform.pe;
        platform.pe.trace_flush.bind(unit);
    });
    wr(p.pe, PMT_REG_TRBTRG_EL1, 0, 0);
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_STOP);
    bool pending_in_the_call = false, pending_one_delta_later = true;
    trace_unit.f = [&] {
        p.trace(64);
        p.pe.trace_sink->detected_trigger();
        pending_in_the_call = p.pe.trbe_status().flush_pending;
        sc_core::wait(sc_core::SC_ZERO_TIME);
        pending_one_delta_later = p.pe.trbe_status().flush_pending;
    };
    sc_core::sc_start(ns(2));
    EXPECT_TRUE(pending_in_the_call);
    EXPECT_FALSE(pending_one_delta_later);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, p.trbsr()), PMT_TRBSR_BSC_TRIGGER);
    EXPECT_EQ(p.trbptr(), P::BASE + 96); // the 32 bytes of the flush were written (RRWJNN)
    EXPECT_EQ(p.ram.data()[P::BASE - P::RAM + 95], 0xAB);
}

// RWMPMV: TRBCR.ManStop through the Trace Buffer frame asks the trace unit to flush; when it
// completes, a Manual Stop event: S, IRQ, BSC 0b000011; CTI triggers 9 and 8.
TEST(TrbeSink, RWMPMV_ManualStopThroughTheFrameFlushesFirst)
{
    flush_probe unit;
    P p(trbe_config(), ram_config(true), true,
        [&](P &platform) { platform.pe.trace_flush.bind(unit); });
    p.program_fill();
    p.trace(128);
    EXPECT_EQ(p.dbg.write(0x038, 8, 1, &p.secure), tlm::TLM_OK_RESPONSE); // TRBCR.ManStop
    EXPECT_EQ(unit.requests, 1);
    EXPECT_EQ(p.trbsr(), 0u);
    p.pe.trace_sink->flush_complete();
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), PMT_TRBSR_BSC_MANUAL_STOP);
    ASSERT_EQ(p.cti.triggers.size(), 2u);
    EXPECT_EQ(p.cti.triggers[0].number, PMT_CTI_TRBE_MANAGEMENT);
    EXPECT_EQ(p.cti.triggers[1].number, PMT_CTI_TRBE_STOPPED);
}

// A trace sink call to a model without FEAT_TRBE is a misuse: one warning.
TEST(TrbeSink, TraceToAModelWithoutTrbeIsAWarning)
{
    pmtrace::pe_model pe("pe");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint8_t b[4] = {};
    EXPECT_NONFATAL_FAILURE(pe.trace_sink->trace_bytes(b, 4), "without FEAT_TRBE");
    pe.trace_sink->trace_bytes(b, 4); // reported once
}

// An IMPLEMENTATION DEFINED management event through the export (RCHNSL, EC 0x1F).
TEST(TrbeOutputs, RCHNSL_ImplementationDefinedEventThroughTheExport)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.impdef_events = true;
    P p(cfg);
    p.program_fill();
    EXPECT_EQ(p.pe.trbe->impdef_event(0x1234, 0x56), PMT_OK);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_IMPDEF);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x1234u);
    EXPECT_EQ(PMT_GET(TRBSR, MSS2, s), 0x56u);
    EXPECT_EQ(p.irq.changes.size(), 1u);
}

// Cold reset: TRBIRQ falls with the reset values.
TEST(TrbeOutputs, ResetLowersTrbirq)
{
    P p;
    p.program_fill();
    p.trace(0x4000);
    ASSERT_EQ(p.irq.changes.size(), 1u);
    p.pe.reset();
    ASSERT_EQ(p.irq.changes.size(), 2u);
    EXPECT_FALSE(p.irq.changes[1].level);
}

// The TRBE lines go to the VCD with the PMU's: trbirq rises at 50 ns (the VCD unit is 1 ps).
TEST(TrbeOutputs, ViewsAreTracedIntoAVcd)
{
    pmtrace::pe_model pe("pe", trbe_config());
    sc_core::sc_trace_file *vcd = sc_core::sc_create_vcd_trace_file("pe_trbe_outputs_test");
    pe.trace(vcd);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    give_buffer_to_el1(pe);
    program_buffer(pe, P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    sc_core::sc_start(ns(50));
    std::vector<uint8_t> bytes(0x4000, 0x5A); // fills the buffer; the unbound bus drops them
    pe.trace_sink->trace_bytes(bytes.data(), bytes.size());
    sc_core::sc_start(ns(50));
    sc_core::sc_close_vcd_trace_file(vcd);
    std::ifstream in("pe_trbe_outputs_test.vcd");
    std::stringstream text;
    text << in.rdbuf();
    std::string vcd_text = text.str();
    for (const char *line : {" trbirq ", " trbe_exception ", " serror ", " cti_trbe_stopped ",
                             " cti_trbe_management ", " cti_trbe_wrap "})
        EXPECT_NE(vcd_text.find(line), std::string::npos) << line;
    std::string::size_type var = vcd_text.find(" trbirq ");
    ASSERT_NE(var, std::string::npos);
    std::istringstream line(vcd_text.substr(vcd_text.rfind("$var", var)));
    std::string word, id;
    line >> word >> word >> word >> id; // $var wire 1 <id> trbirq $end
    std::string::size_type at = vcd_text.find("#50000\n");
    ASSERT_NE(at, std::string::npos);
    std::string step = vcd_text.substr(at, vcd_text.find('#', at + 1) - at);
    EXPECT_NE(step.find("1" + id + "\n"), std::string::npos) << step;
}

} // namespace
