// pe_model's trace bus initiator (FEAT_TRBE): trace from the trace sink export written into the
// platform's memory through DMI or b_transport, in TRBIDR_EL1.Align units with the targets'
// latencies; DMI grant, use and invalidation; error responses as External aborts (D6.5.5) by
// each choice; faults from the translation port (D6.5.4).
#include "pe_trbe_fixture.h"

namespace
{

using namespace pmtrace_test;
using P = trbe_platform;

// With a memory that grants DMI, the first unit goes by b_transport (its response allows DMI),
// the initiator asks for a DMI pointer once, and the rest of the trace is copied through it.
TEST(TrbeWrite, TraceLandsInMemoryThroughDmi)
{
    P p;
    p.program_fill();
    p.trace(0x1000);
    EXPECT_EQ(p.trbptr(), P::BASE + 0x1000);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1000));
    EXPECT_TRUE(p.untouched(P::BASE + 0x1000, 0x100));
    ASSERT_EQ(p.probe.accesses.size(), 1u);
    EXPECT_EQ(p.probe.accesses[0].address, P::BASE);
    EXPECT_EQ(p.probe.accesses[0].length, 64u);
    EXPECT_EQ(p.ram.writes(), 1u); // b_transport writes the memory served
    const pmtrace::trace_bus_stats &s = p.pe.trace_stats();
    EXPECT_EQ(s.dmi_requests, 1u);
    EXPECT_EQ(s.dmi_grants, 1u);
    EXPECT_EQ(s.transactions, 1u);
    EXPECT_EQ(s.transport_bytes, 64u);
    EXPECT_EQ(s.dmi_bytes, 0x1000u - 64u);
    EXPECT_EQ(s.errors, 0u);
}

// Without DMI every alignment unit is one b_transport of 64 bytes at a 64-byte aligned address,
// Non-secure (the owning regime's physical address space, in an access_extension).
TEST(TrbeWrite, WithoutDmiEachAlignmentUnitIsOneTransaction)
{
    P p(trbe_config(), ram_config(false));
    p.program_fill();
    p.trace(0x1000);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1000));
    ASSERT_EQ(p.probe.accesses.size(), 64u);
    for (size_t i = 0; i < 64; i++) {
        EXPECT_EQ(p.probe.accesses[i].address, P::BASE + 64 * i);
        EXPECT_EQ(p.probe.accesses[i].length, 64u);
        EXPECT_EQ(p.probe.accesses[i].pas, PMT_SS_NONSECURE);
        EXPECT_EQ(p.probe.accesses[i].response, tlm::TLM_OK_RESPONSE);
    }
    EXPECT_EQ(p.ram.writes(), 64u);
    EXPECT_EQ(p.pe.trace_stats().dmi_requests, 0u); // the memory never allowed DMI
    EXPECT_EQ(p.pe.trace_stats().dmi_bytes, 0u);
}

// The physical address space of the owning regime is in each transaction's access_extension:
// with MDCR_EL3.NSTB = 0b01 Secure EL1&0 owns the buffer (Table D6-2); no trap to EL3 there.
TEST(TrbeWrite, TransactionsCarryThePhysicalAddressSpace)
{
    P p(trbe_config(), ram_config(false));
    p.pe.state->set_pe_state(at_el(3, PMT_SS_SECURE));
    wr(p.pe, PMT_REG_MDCR_EL3, 0, PMT_PUT(MDCR_EL3, NSTB, 1));
    pmt_pe_state s1 = at_el(1, PMT_SS_SECURE);
    s1.el2_enabled = false;
    p.pe.state->set_pe_state(s1);
    p.program_fill();
    p.trace(128);
    ASSERT_EQ(p.probe.accesses.size(), 2u);
    EXPECT_EQ(p.probe.accesses[0].pas, PMT_SS_SECURE);
    EXPECT_EQ(p.probe.accesses[1].pas, PMT_SS_SECURE);
    EXPECT_TRUE(p.holds(P::BASE, 0, 128));
}

// The configuration can turn DMI off (a memory that grants it is then written by b_transport).
TEST(TrbeWrite, DmiCanBeTurnedOff)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.trace_dmi = false;
    P p(cfg);
    p.program_fill();
    p.trace(0x400);
    EXPECT_EQ(p.probe.accesses.size(), 16u);
    EXPECT_EQ(p.pe.trace_stats().dmi_requests, 0u);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x400));
}

// TRBIDR_EL1.Align = 4 (16-byte units): transactions of 16 bytes.
TEST(TrbeWrite, UnitsFollowTrbidrAlign)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.align = 4;
    P p(cfg, ram_config(false));
    EXPECT_EQ(PMT_GET(TRBIDR, Align, rd(p.pe, PMT_REG_TRBIDR_EL1)), 4u);
    p.program_fill();
    p.trace(100); // six whole units; 4 bytes stay in the unit being filled
    ASSERT_EQ(p.probe.accesses.size(), 6u);
    for (size_t i = 0; i < 6; i++) {
        EXPECT_EQ(p.probe.accesses[i].address, P::BASE + 16 * i);
        EXPECT_EQ(p.probe.accesses[i].length, 16u);
    }
    EXPECT_EQ(p.trbptr(), P::BASE + 96);
}

// TSB CSYNC through the CPU export writes the partial unit (D6.6.1); TRBPTR_EL1 is then
// misaligned (RHXZZM, no padding by default) and the next writes end at the unit boundary
// first, so no transaction crosses an alignment unit.
TEST(TrbeWrite, TsbCsyncWritesThePartialUnitAndLaterWritesStayInUnits)
{
    P p(trbe_config(), ram_config(false));
    p.program_fill();
    p.trace(16);
    EXPECT_TRUE(p.probe.accesses.empty());
    EXPECT_EQ(p.pe.trbe_status().buffered, 16u);
    EXPECT_EQ(p.pe.trbe->tsb_csync(), PMT_OK);
    EXPECT_EQ(p.pe.trbe_status().buffered, 0u);
    ASSERT_EQ(p.probe.accesses.size(), 1u);
    EXPECT_EQ(p.probe.accesses[0].address, P::BASE);
    EXPECT_EQ(p.probe.accesses[0].length, 16u);
    EXPECT_EQ(p.trbptr(), P::BASE + 16);
    p.trace(64 + 48); // to the end of the first unit, then one whole unit
    ASSERT_EQ(p.probe.accesses.size(), 3u);
    EXPECT_EQ(p.probe.accesses[1].address, P::BASE + 16);
    EXPECT_EQ(p.probe.accesses[1].length, 48u);
    EXPECT_EQ(p.probe.accesses[2].address, P::BASE + 64);
    EXPECT_EQ(p.probe.accesses[2].length, 64u);
    EXPECT_TRUE(p.holds(P::BASE, 0, 128));
}

// The write latency is added to the initiator's time, per unit, for b_transport and DMI alike:
// 4 units at 5 ns from a call at 100 ns end at 120 ns. The writes never wait.
TEST(TrbeWrite, WriteLatencyIsAddedToTheInitiatorsTime)
{
    P p(trbe_config(), ram_config(false, ns(5)));
    p.program_fill();
    sc_core::sc_start(ns(100));
    p.trace(256);
    ASSERT_EQ(p.probe.accesses.size(), 4u);
    for (size_t i = 0; i < 4; i++) {
        EXPECT_EQ(p.probe.accesses[i].delay_in, ns(5.0 * i));
        EXPECT_EQ(p.probe.accesses[i].delay_out, ns(5.0 * (i + 1)));
    }
    EXPECT_EQ(p.pe.trace_write_time(), ns(120));
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(100));
    // The next write starts where the previous one ended.
    p.trace(64);
    EXPECT_EQ(p.probe.accesses.back().delay_in, ns(20));
    EXPECT_EQ(p.pe.trace_write_time(), ns(125));
    // Once that time has passed, a write starts at the time of its call.
    sc_core::sc_start(ns(100));
    p.trace(64);
    EXPECT_EQ(p.probe.accesses.back().delay_in, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(p.pe.trace_write_time(), ns(205));
}

TEST(TrbeWrite, DmiWriteLatencyIsAddedPerUnit)
{
    P p(trbe_config(), ram_config(true, ns(5)));
    p.program_fill();
    sc_core::sc_start(ns(100));
    p.trace(256); // one unit by b_transport, three through DMI
    EXPECT_EQ(p.probe.accesses.size(), 1u);
    EXPECT_EQ(p.pe.trace_stats().dmi_bytes, 192u);
    EXPECT_EQ(p.pe.trace_write_time(), ns(120));
}

// TSB CSYNC at the CPU's local time: the write starts at sc_time_stamp() + offset.
TEST(TrbeWrite, TsbCsyncWritesAtTheCpusLocalTime)
{
    P p(trbe_config(), ram_config(false, ns(5)));
    p.program_fill();
    p.trace(16);
    EXPECT_EQ(p.pe.trbe->tsb_csync(ns(40)), PMT_OK);
    ASSERT_EQ(p.probe.accesses.size(), 1u);
    EXPECT_EQ(p.probe.accesses[0].delay_in, ns(40));
    EXPECT_EQ(p.pe.trace_write_time(), ns(45));
}

// invalidate_direct_mem_ptr is honoured: a fault added to the memory invalidates the pointer,
// the next write falls back to b_transport and DMI is granted again (over the fault-free range,
// which ends before the fault); removing the fault invalidates only the fault's range, which the
// new pointer does not cover: DMI goes on. A fault in the buffer itself ends DMI there.
TEST(TrbeWrite, DmiInvalidationFallsBackToTransportThenGrantsAgain)
{
    P p;
    p.program_fill();
    p.trace(0x400);
    ASSERT_EQ(p.pe.trace_stats().dmi_grants, 1u);
    ASSERT_EQ(p.probe.accesses.size(), 1u);
    // A fault far from the buffer, in the range the pointer covered.
    unsigned id = p.ram.add_fault(0x8'0000, 0x1000, tlm::TLM_GENERIC_ERROR_RESPONSE);
    ASSERT_NE(id, 0u);
    EXPECT_EQ(p.pe.trace_stats().invalidations, 1u);
    p.trace(0x400);
    EXPECT_EQ(p.probe.accesses.size(), 2u); // one b_transport after the invalidation
    EXPECT_EQ(p.probe.accesses[1].address, P::BASE + 0x400);
    EXPECT_EQ(p.pe.trace_stats().dmi_grants, 2u);
    p.trace(0x400);
    EXPECT_EQ(p.probe.accesses.size(), 2u); // DMI again
    ASSERT_TRUE(p.ram.remove_fault(id));
    EXPECT_EQ(p.pe.trace_stats().invalidations, 2u);
    p.trace(0x400);
    EXPECT_EQ(p.probe.accesses.size(), 2u);
    EXPECT_EQ(p.pe.trace_stats().dmi_grants, 2u);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1000));
    EXPECT_EQ(p.pe.trace_stats().dmi_bytes + p.pe.trace_stats().transport_bytes, 0x1000u);
    // A read fault where the trace goes next: invalidated, and the writes there go by
    // b_transport (DMI refused over the fault), then DMI again after it.
    p.ram.add_fault(P::BASE - P::RAM + 0x1000, 0x80, tlm::TLM_GENERIC_ERROR_RESPONSE,
                    plat::fault_access::read);
    EXPECT_EQ(p.pe.trace_stats().invalidations, 3u);
    p.trace(0x400);
    EXPECT_EQ(p.probe.accesses.size(), 5u); // 2 units in the fault, 1 after it
    EXPECT_EQ(p.pe.trace_stats().dmi_grants, 3u);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1400));
}

// Mid-run: the platform's trace source streams 64 bytes every 10 ns into a memory that grants
// DMI; at 205 ns a process adds a fault elsewhere in the memory, which invalidates the pointer.
// The delivery at 210 ns goes by b_transport, whose response allows DMI: granted again.
TEST(TrbeWrite, InvalidationWhileTraceStreamsFallsBackThenGrantsAgain)
{
    plat::trace_source_config sc;
    sc.bytes_per_interval = 64;
    sc.interval = ns(10);
    plat::trace_source src("src", sc);
    caller memory_change("memory_change", ns(205));
    P p(trbe_config(), ram_config(true), true,
        [&](P &platform) { src.sink.bind(platform.pe.trace_sink); });
    p.program(P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    memory_change.f = [&] { p.ram.add_fault(0x8'0000, 0x1000, tlm::TLM_GENERIC_ERROR_RESPONSE); };
    sc_core::sc_start(ns(405)); // deliveries at 10, 20, ..., 400 ns
    ASSERT_EQ(src.bytes_sent(), 40u * 64u);
    ASSERT_EQ(p.probe.accesses.size(), 2u);
    EXPECT_EQ(p.probe.accesses[0].address, P::BASE);
    EXPECT_EQ(p.probe.accesses[1].address, P::BASE + 20 * 64); // the delivery at 210 ns
    const pmtrace::trace_bus_stats &s = p.pe.trace_stats();
    EXPECT_EQ(s.invalidations, 1u);
    EXPECT_EQ(s.dmi_grants, 2u);
    EXPECT_EQ(s.dmi_bytes, 38u * 64u);
    for (unsigned k = 0; k < 40 * 64; k++)
        ASSERT_EQ(p.ram.data()[P::BASE - P::RAM + k], static_cast<uint8_t>(k)) << k;
}

// DMI refused where a fault is: the write goes by b_transport there, with DMI on either side.
TEST(TrbeWrite, DmiRefusedOverAFaultRangeIsRemembered)
{
    P p;
    // A fault that answers reads only: writes succeed, but the memory refuses DMI over it.
    p.ram.add_fault(P::BASE - P::RAM + 0x400, 0x400, tlm::TLM_GENERIC_ERROR_RESPONSE,
                    plat::fault_access::read);
    p.program_fill();
    p.trace(0x1000);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1000));
    // [BASE, BASE+0x400): 1 b_transport then DMI; the fault range: 16 b_transport, each
    // without the DMI hint; after it: 1 b_transport then DMI.
    EXPECT_EQ(p.probe.accesses.size(), 18u);
    EXPECT_EQ(p.pe.trace_stats().dmi_grants, 2u);
}

// An unbound trace bus drops the bytes; the Trace Buffer Unit carries on.
TEST(TrbeWrite, UnboundTraceBusDropsTheBytes)
{
    pmtrace::pe_model pe("pe", trbe_config());
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    give_buffer_to_el1(pe);
    program_buffer(pe, P::BASE, P::LIMIT, P::BASE, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    std::vector<uint8_t> bytes(256, 0x5A);
    pe.trace_sink->trace_bytes(bytes.data(), bytes.size());
    EXPECT_EQ(rd(pe, PMT_REG_TRBPTR_EL1), P::BASE + 256);
    EXPECT_EQ(pe.trace_stats().transactions, 0u);
}

// --- Error responses: External aborts (D6.5.5) ------------------------------------------

// A memory that answers a write with an error, in the second unit of page 2 of the buffer.
struct abort_case : P {
    static constexpr uint64_t AT = P::BASE + 0x1000 + 0x100;
    explicit abort_case(const pmtrace::pe_model_config &cfg, bool dmi = true)
        : P(cfg, ram_config(dmi))
    {
        ram.add_fault(AT - P::RAM, 0x40, tlm::TLM_GENERIC_ERROR_RESPONSE,
                      plat::fault_access::write);
        program_fill();
    }
};

pmtrace::pe_model_config
with_abort(pmt_trbe_ext_abort choice,
           pmtrace::trace_write_abort kind = pmtrace::trace_write_abort::synchronous)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.ext_abort = choice;
    cfg.trace_write_error = kind;
    return cfg;
}

// RXRLSC, RNZTKV: reported to the Trace Buffer Unit and handled synchronously: TRBSR_EL1 S = 1,
// IRQ = 1, EA = 1, EC 0x24, FSC 0x10 (synchronous External abort); TRBPTR_EL1 is the address
// that generated the abort; the bytes before it are in memory. TRBIRQ rises.
TEST(TrbeAbort, RGQWBF_RXRLSC_ErrorResponseReportedSynchronously)
{
    abort_case p(with_abort(PMT_TRBE_EA_REPORT_SYNC));
    p.trace(0x2000);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EA, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x10u);
    EXPECT_EQ(p.trbptr(), abort_case::AT);
    EXPECT_TRUE(p.holds(P::BASE, 0, abort_case::AT - P::BASE));
    EXPECT_TRUE(p.untouched(abort_case::AT, 0x40));
    EXPECT_EQ(p.pe.trace_stats().errors, 1u);
    EXPECT_EQ(p.ram.faults_answered(), 1u);
    ASSERT_EQ(p.irq.changes.size(), 1u);
    EXPECT_TRUE(p.irq.changes[0].level);
    EXPECT_TRUE(p.serror.events.empty());
    EXPECT_FALSE(p.pe.trbe_status().running);
}

// The same with a memory without DMI: every unit by b_transport up to the one answered with
// the error.
TEST(TrbeAbort, RGQWBF_RXRLSC_ErrorResponseReportedSynchronouslyWithoutDmi)
{
    abort_case p(with_abort(PMT_TRBE_EA_REPORT_SYNC), false);
    p.trace(0x2000);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, EA, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x10u);
    EXPECT_EQ(p.trbptr(), abort_case::AT);
    EXPECT_TRUE(p.holds(P::BASE, 0, abort_case::AT - P::BASE));
    // Every unit up to the faulting one by b_transport; the faulting one answered the error.
    EXPECT_EQ(p.probe.accesses.size(), (abort_case::AT - P::BASE) / 64 + 1);
    EXPECT_EQ(p.probe.accesses.back().response, tlm::TLM_GENERIC_ERROR_RESPONSE);
}

// RVKWPM: the choice SError: the serror output gets one event; TRBSR is not modified and the
// unit goes on.
TEST(TrbeAbort, RGQWBF_RVKWPM_ErrorResponseAsSError)
{
    abort_case p(with_abort(PMT_TRBE_EA_SERROR));
    p.trace(0x2000);
    EXPECT_EQ(p.serror.events.size(), 1u);
    EXPECT_EQ(p.pe.serror.count(), 1u);
    EXPECT_EQ(p.trbsr(), 0u);
    EXPECT_TRUE(p.pe.trbe_status().running);
    EXPECT_TRUE(p.irq.changes.empty());
}

// IFBNFC: an ignored External abort: no visible effect, TRBSR unchanged, TRBPTR_EL1 moves on.
TEST(TrbeAbort, RGQWBF_IFBNFC_ErrorResponseIgnored)
{
    abort_case p(with_abort(PMT_TRBE_EA_IGNORE));
    p.trace(0x2000);
    EXPECT_EQ(p.trbsr(), 0u);
    EXPECT_EQ(p.trbptr(), P::BASE + 0x2000);
    EXPECT_TRUE(p.serror.events.empty());
}

// ITVKJR: reported asynchronously: the rest of the data is written, then EA = 1, S = 1, EC 0x24,
// FSC 0x11; TRBPTR_EL1 is not the faulting address.
TEST(TrbeAbort, RGQWBF_ITVKJR_ErrorResponseReportedAsynchronously)
{
    abort_case p(with_abort(PMT_TRBE_EA_REPORT_ASYNC));
    p.trace(0x2000);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, EA, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x11u);
    EXPECT_NE(p.trbptr(), abort_case::AT);
}

// The wrapper's choice "asynchronous": a TLM error is an asynchronous External abort, which the
// PE takes as an SError whatever the reporting choice (D6.5.5).
TEST(TrbeAbort, AnAsynchronousErrorResponseIsAnSError)
{
    abort_case p(with_abort(PMT_TRBE_EA_REPORT_SYNC, pmtrace::trace_write_abort::asynchronous));
    p.trace(0x2000);
    EXPECT_EQ(p.serror.events.size(), 1u);
    EXPECT_EQ(p.trbsr(), 0u);
}

// The asynchronous report input of the CPU export (pmt_trbe_external_abort): stage 2 with S = 0.
TEST(TrbeAbort, ITVKJR_AsynchronousReportThroughTheExport)
{
    P p(with_abort(PMT_TRBE_EA_REPORT_ASYNC));
    p.program_fill();
    EXPECT_EQ(p.pe.trbe->external_abort(2), PMT_OK);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, EA, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE2_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x11u);
}

// --- The translation port (D6.5.4) --------------------------------------------------------

// A stage 1 Permission fault at level 3 injected by the MMU model on the buffer's second page:
// S = 1, IRQ = 1, EC 0x24, FSC 0x0F; TRBPTR_EL1 is the faulting address (IGVGPB); the first page
// is written at the physical address the translation gave.
TEST(TrbeTranslation, RQKLXR_InjectedPermissionFault)
{
    constexpr uint64_t VA = 0xFFFF'8000'0010'0000;
    P p;
    p.mmu.map(VA, P::BASE, 0x4000);
    p.mmu.inject(VA + 0x1000, 0x1000, plat::make_fault(PMT_TRBE_FAULT_PERMISSION, 1, 3));
    p.program(VA, VA + 0x4000, VA, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    p.trace(0x2000);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EA, s), 0u);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x0Fu);
    EXPECT_EQ(p.trbptr(), VA + 0x1000);
    EXPECT_TRUE(p.holds(P::BASE, 0, 0x1000));
    EXPECT_TRUE(p.untouched(P::BASE + 0x1000, 0x1000));
    EXPECT_EQ(p.mmu.faults_reported(), 1u);
    ASSERT_FALSE(p.irq.changes.empty());
    EXPECT_TRUE(p.irq.changes.back().level);
}

// A stage 2 Translation fault at level 1: EC 0x25, FSC 0x05.
TEST(TrbeTranslation, RQKLXR_InjectedStage2TranslationFault)
{
    P p;
    p.mmu.inject(P::BASE, 0x1000, plat::make_fault(PMT_TRBE_FAULT_TRANSLATION, 2, 1));
    p.program_fill();
    p.trace(64);
    uint64_t s = p.trbsr();
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE2_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, MSS, s), 0x05u);
    EXPECT_EQ(p.trbptr(), P::BASE);
    EXPECT_TRUE(p.probe.accesses.empty());
}

// Unbound, the translation is the identity.
TEST(TrbeTranslation, UnboundPortIsTheIdentity)
{
    P p(trbe_config(), ram_config(false), false);
    p.program_fill();
    p.trace(128);
    ASSERT_EQ(p.probe.accesses.size(), 2u);
    EXPECT_EQ(p.probe.accesses[0].address, P::BASE);
    EXPECT_TRUE(p.holds(P::BASE, 0, 128));
}

// --- Time and misbehaving targets ------------------------------------------------------------

// A target that waits in b_transport is reported (once): the model's writes are made inside
// its calls and never wait.
TEST(TrbeWrite, ATargetThatWaitsIsReported)
{
    caller c("caller");
    P p(trbe_config(), ram_config(false));
    p.program_fill();
    p.probe.wait_in_transport = ns(1);
    c.f = [&] { p.trace(128); };
    EXPECT_NONFATAL_FAILURE(sc_core::sc_start(ns(10)), "must not wait");
    EXPECT_TRUE(p.holds(P::BASE, 0, 128));
}

} // namespace
