// Faults and External aborts on writes to the trace buffer (D6.5.4, D6.5.5, D6.5.6): every fault
// kind with its TRBSR_ELx syndrome, every External abort choice, IMPLEMENTATION DEFINED events,
// prioritization.
#include "trbe_fixture.h"

namespace
{

class TrbeFaults : public TrbeTest
{
  protected:
    // A fault on the second page of the buffer; 0x1800 bytes of trace in Wrap mode from BASE.
    static constexpr uint64_t PAGE2 = BASE + 0x1000;
    void fault_on_page2(pmt_trbe_fault f) { faults.push_back({PAGE2, PAGE2 + 0x1000, f}); }
    static pmt_trbe_fault fault(pmt_trbe_fault_kind k, unsigned stage, int level)
    {
        return {k,    static_cast<uint8_t>(stage), static_cast<int8_t>(level), false, false, false,
                false};
    }
    void run()
    {
        program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
        trace(0x1800);
    }
};

// RQKLXR, RFSPBK: each MMU fault kind gives S = 1, IRQ = 1, EC 0x24 or 0x25 by stage, the FSC of
// the kind and level; TRBPTR_EL1 is the faulting address; the bytes before it are written, the
// rest is discarded.
TEST_F(TrbeFaults, RQKLXR_RFSPBK_EachFaultKindAndItsSyndrome)
{
    struct Case {
        pmt_trbe_fault_kind kind;
        unsigned stage;
        int level;
        unsigned ec, fsc;
    } cases[] = {
        {PMT_TRBE_FAULT_TRANSLATION, 1, 0, 0x24, 0x04},
        {PMT_TRBE_FAULT_TRANSLATION, 1, 3, 0x24, 0x07},
        {PMT_TRBE_FAULT_TRANSLATION, 2, -1, 0x25, 0x2B},
        {PMT_TRBE_FAULT_TRANSLATION, 1, -2, 0x24, 0x2A},
        {PMT_TRBE_FAULT_ADDRESS_SIZE, 1, 1, 0x24, 0x01},
        {PMT_TRBE_FAULT_ADDRESS_SIZE, 2, -1, 0x25, 0x29},
        {PMT_TRBE_FAULT_ADDRESS_SIZE, 1, -2, 0x24, 0x2C},
        {PMT_TRBE_FAULT_ACCESS_FLAG, 1, 3, 0x24, 0x0B},
        {PMT_TRBE_FAULT_ACCESS_FLAG, 2, 0, 0x25, 0x08},
        {PMT_TRBE_FAULT_PERMISSION, 1, 2, 0x24, 0x0E},
        {PMT_TRBE_FAULT_PERMISSION, 2, 3, 0x25, 0x0F},
        {PMT_TRBE_FAULT_ALIGNMENT, 1, 0, 0x24, 0x21},
        {PMT_TRBE_FAULT_ALIGNMENT, 2, 0, 0x25, 0x21},
        {PMT_TRBE_FAULT_TLB_CONFLICT, 1, 0, 0x24, 0x30},
        {PMT_TRBE_FAULT_UNSUPPORTED_ATOMIC, 2, 0, 0x25, 0x31},
        {PMT_TRBE_FAULT_EXTERNAL_WALK, 1, 2, 0x24, 0x16},
        {PMT_TRBE_FAULT_EXTERNAL_WALK, 2, -1, 0x25, 0x13},
        {PMT_TRBE_FAULT_EXTERNAL_WALK, 1, -2, 0x24, 0x12},
        {PMT_TRBE_FAULT_GPF, 1, 0, 0x24, 0x28},
        {PMT_TRBE_FAULT_GPF_WALK, 1, 1, 0x24, 0x25},
        {PMT_TRBE_FAULT_GPF_WALK, 2, -1, 0x25, 0x23},
        {PMT_TRBE_FAULT_GPF_WALK, 2, -2, 0x25, 0x22},
        {PMT_TRBE_FAULT_GPC, 1, 0, 0x1E, 0x00}, // EC 0x1E: MSS is RES0
    };
    cfg.have_rme = true;
    for (const Case &c : cases) {
        SCOPED_TRACE(testing::Message()
                     << "kind " << c.kind << " stage " << c.stage << " level " << c.level);
        faults.clear();
        remake_trbe();
        std::fill(ram.begin(), ram.end(), 0xEE);
        stream_pos = 0;
        fault_on_page2(fault(c.kind, c.stage, c.level));
        run();
        uint64_t s = sr();
        EXPECT_EQ(TRBSR_F(s, S), 1u);
        EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
        EXPECT_EQ(TRBSR_F(s, EC), c.ec);
        EXPECT_EQ(TRBSR_F(s, MSS), c.fsc);
        EXPECT_EQ(TRBSR_F(s, MSS2), 0u);
        EXPECT_EQ(TRBSR_F(s, EA), 0u);
        EXPECT_EQ(TRBSR_F(s, WRAP), 0u);
        EXPECT_EQ(ptr(), PAGE2); // IGVGPB: TRBPTR_EL1 is the Fault Address
        EXPECT_TRUE(holds(BASE, 0, 0x1000));
        EXPECT_TRUE(untouched(PAGE2, 0x1000));
        EXPECT_FALSE(status().running);
        EXPECT_TRUE(exceptions.empty()); // IDTKGB: no Data Abort exception
        EXPECT_EQ(serrors, 0);
    }
}

// RLYHGV, RYCPZX: a stage 2 Permission fault records TopLevel and AssuredOnly in MSS2 (with the
// Overlay and DirtyBit flags of DebugWriteFault).
TEST_F(TrbeFaults, RLYHGV_RYCPZX_PermissionFaultFlagsInMss2)
{
    make_trbe();
    pmt_trbe_fault f = fault(PMT_TRBE_FAULT_PERMISSION, 2, 3);
    f.toplevel = true;
    f.assuredonly = true;
    fault_on_page2(f);
    run();
    uint64_t mss2 = TRBSR_F(sr(), MSS2);
    EXPECT_EQ(mss2, (1u << 8) | (1u << 7)); // TopLevel, AssuredOnly
    faults.clear();
    remake_trbe();
    f = fault(PMT_TRBE_FAULT_PERMISSION, 1, 3);
    f.overlay = true;
    f.dirtybit = true;
    fault_on_page2(f);
    run();
    EXPECT_EQ(TRBSR_F(sr(), MSS2), (1u << 6) | (1u << 5));
    // Other stage 2 faults record 0.
    faults.clear();
    remake_trbe();
    fault_on_page2(fault(PMT_TRBE_FAULT_TRANSLATION, 2, 3));
    run();
    EXPECT_EQ(TRBSR_F(sr(), MSS2), 0u);
}

// RFSPBK: whether a walk abort reported as an MMU fault sets TRBSR_ELx.EA is IMPLEMENTATION
// DEFINED (walk_abort_sets_ea).
TEST_F(TrbeFaults, RFSPBK_WalkAbortFaultSetsEaWhenConfigured)
{
    cfg.trbe.walk_abort_sets_ea = true;
    make_trbe();
    fault_on_page2(fault(PMT_TRBE_FAULT_EXTERNAL_WALK, 1, 3));
    run();
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EA), 1u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0x17u);
}

// ICRSGP: an MMU fault leaves a restart value: once software fixes the mapping and clears S,
// trace resumes at the faulting address.
TEST_F(TrbeFaults, ICRSGP_SoftwareFixesTheFaultAndRestarts)
{
    make_trbe();
    fault_on_page2(fault(PMT_TRBE_FAULT_ACCESS_FLAG, 1, 3));
    run();
    faults.clear();
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_PUT(TRBLIMITR, FM, 1) | PMT_PUT(TRBLIMITR, TM, 3));
    wr(PMT_REG_TRBSR_EL1, 0);
    wr(PMT_REG_TRBPTR_EL1, rd(PMT_REG_TRBPTR_EL1));
    wr(PMT_REG_TRBLIMITR_EL1,
       LIMIT | PMT_PUT(TRBLIMITR, FM, 1) | PMT_PUT(TRBLIMITR, TM, 3) | PMT_MASK(TRBLIMITR, E));
    stream_pos = 0x1000;
    trace(0x100);
    EXPECT_TRUE(holds(PAGE2, 0x1000, 0x100));
    EXPECT_EQ(sr(), 0u);
}

// RQKLXR: in External mode only Granule Protection Check faults exist; another MMU fault the
// platform reports is a description the model refuses (pmt_trbe.h): not written, no event.
TEST_F(TrbeFaults, RQKLXR_ExternalModeHasOnlyGpcFaults)
{
    cfg.trbe.feat_trbe_ext = true;
    cfg.have_rme = true;
    make_trbe();
    state([](pmt_pe_state &s) {
        s.self_hosted_trace_disabled = true;
        s.os_lock = true;
    });
    fault_on_page2(fault(PMT_TRBE_FAULT_TRANSLATION, 1, 3));
    wr_el3(PMT_REG_TRBMAR_EL1, PMT_PUT(TRBMAR, PAS, 1));
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE,
            PMT_MASK(TRBLIMITR, XE));
    std::vector<uint8_t> b = next_bytes(0x1800);
    EXPECT_EQ(pmt_trbe_trace(pe, b.data(), b.size(), nullptr), PMT_ERR_ARG);
    EXPECT_TRUE(logged("RQKLXR"));
    EXPECT_EQ(sr(), 0u);
    EXPECT_TRUE(holds(BASE, 0, 0x1000));
    EXPECT_TRUE(untouched(PAGE2, 0x800));
    EXPECT_EQ(ptr(), BASE + 0x1800);
    ASSERT_FALSE(regimes.empty());
    EXPECT_TRUE(regimes.back().external);
    EXPECT_EQ(regimes.back().ss, PMT_SS_NONSECURE);
    faults.clear();
    fault_on_page2(fault(PMT_TRBE_FAULT_GPC, 1, 0));
    wr(PMT_REG_TRBPTR_EL1, BASE);
    trace(0x1800);
    EXPECT_EQ(TRBSR_F(sr(), EC), PMT_TRBSR_EC_GPC);
}

// pmt_trbe.h "What each fault kind needs": a fault description that is incomplete or
// contradictory is refused, never turned into another fault: TRBSR_ELx is unchanged, the page is
// not written, TRBPTR_EL1 advances as after an ignored External abort (D6.5.5.1), the call
// returns PMT_ERR_ARG and one log line names what is wrong.
TEST_F(TrbeFaults, RefusesAFaultDescriptionThatIsIncompleteOrContradictory)
{
    struct Case {
        pmt_trbe_fault f;
        const char *why;
    } cases[] = {
        {{PMT_TRBE_FAULT_GPC, 0, 0, false, false, false, false}, "stage must be 1 or 2"},
        {{PMT_TRBE_FAULT_GPF, 0, 0, false, false, false, false}, "stage must be 1 or 2"},
        {{PMT_TRBE_FAULT_GPF_WALK, 3, 1, false, false, false, false}, "stage must be 1 or 2"},
        {{PMT_TRBE_FAULT_PERMISSION, 0, 0, false, false, false, false}, "stage must be 1 or 2"},
        {{PMT_TRBE_FAULT_NONE, 1, 3, false, false, false, false}, "other fault fields"},
        {{PMT_TRBE_FAULT_NONE, 0, 0, false, false, true, false}, "other fault fields"},
        {{static_cast<pmt_trbe_fault_kind>(99), 1, 3, false, false, false, false},
         "not a pmt_trbe_fault_kind"},
        {{PMT_TRBE_FAULT_TRANSLATION, 1, 4, false, false, false, false}, "level -2..3"},
        {{PMT_TRBE_FAULT_ACCESS_FLAG, 1, -1, false, false, false, false}, "level 0..3"},
        {{PMT_TRBE_FAULT_TLB_CONFLICT, 1, 2, false, false, false, false}, "has no level"},
        {{PMT_TRBE_FAULT_GPF, 2, 0, false, false, false, false}, "RFSPBK"},
        {{PMT_TRBE_FAULT_TRANSLATION, 2, 3, true, false, false, false}, "Permission fault"},
        {{PMT_TRBE_FAULT_PERMISSION, 1, 3, true, false, false, false}, "RLYHGV"},
        {{PMT_TRBE_FAULT_PERMISSION, 1, 3, false, true, false, false}, "RYCPZX"},
    };
    cfg.have_rme = true;
    for (const Case &c : cases) {
        SCOPED_TRACE(c.why);
        faults.clear();
        remake_trbe();
        log_lines.clear();
        std::fill(ram.begin(), ram.end(), 0xEE);
        stream_pos = 0;
        fault_on_page2(c.f);
        program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
        std::vector<uint8_t> b = next_bytes(0x1800);
        size_t accepted = 0;
        EXPECT_EQ(pmt_trbe_trace(pe, b.data(), b.size(), &accepted), PMT_ERR_ARG);
        EXPECT_EQ(accepted, b.size());
        EXPECT_TRUE(logged(c.why));
        EXPECT_TRUE(logged("refuses"));
        EXPECT_EQ(sr(), 0u); // no event of any kind
        EXPECT_TRUE(status().running);
        EXPECT_TRUE(holds(BASE, 0, 0x1000));
        EXPECT_TRUE(untouched(PAGE2, 0x800));
        EXPECT_EQ(ptr(), BASE + 0x1800);
        EXPECT_EQ(serrors, 0);
    }
}

// RFYBCG: trace buffer writes never generate watchpoints (nor any Data Abort, IDTKGB): a fault
// only changes TRBSR_ELx and TRBPTR_EL1.
TEST_F(TrbeFaults, RFYBCG_WritesNeverGenerateWatchpointsOrDataAborts)
{
    make_trbe();
    program_fill();
    trace(0x4000);
    EXPECT_TRUE(exceptions.empty());
    EXPECT_EQ(serrors, 0);
    EXPECT_TRUE(halt_changes.empty());
}

// --- External aborts (RGQWBF, D6.5.5) --------------------------------------------------------

class TrbeAborts : public TrbeFaults
{
  protected:
    // A synchronous External abort at PAGE2 + 0x100 (the write of the second page aborts after
    // 0x100 bytes).
    void abort_in_page2(pmt_trbe_write_result r = PMT_TRBE_WRITE_ABORT_SYNC)
    {
        aborts.push_back({PAGE2 + 0x100, PAGE2 + 0x200, r});
    }
};

// IFBNFC: an ignored External abort has the visible behavior of no abort; TRBSR is unchanged.
TEST_F(TrbeAborts, RGQWBF_IFBNFC_IgnoredAbort)
{
    cfg.trbe.ext_abort = PMT_TRBE_EA_IGNORE;
    make_trbe();
    abort_in_page2();
    run();
    EXPECT_EQ(sr(), 0u);
    EXPECT_EQ(ptr(), BASE + 0x1800);
    EXPECT_EQ(serrors, 0);
    EXPECT_TRUE(status().running);
}

// RVKWPM: an External abort taken as an SError: the PE takes it; TRBSR is not modified.
TEST_F(TrbeAborts, RGQWBF_RVKWPM_AbortAsSError)
{
    make_trbe(); // ext_abort = SError: the default
    abort_in_page2();
    run();
    EXPECT_EQ(serrors, 1);
    EXPECT_EQ(sr(), 0u);
    EXPECT_TRUE(status().running);
}

// RXRLSC, RNZTKV: reported to the Trace Buffer Unit and handled synchronously: EA = 1, S = 1,
// IRQ = 1, EC 0x24, FSC 0x10; TRBPTR_EL1 is the address that generated the abort.
TEST_F(TrbeAborts, RGQWBF_RXRLSC_ReportedSynchronously)
{
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    make_trbe();
    abort_in_page2();
    run();
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EA), 1u);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0x24u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0x10u);
    EXPECT_EQ(ptr(), PAGE2 + 0x100);
    EXPECT_TRUE(holds(PAGE2, 0x1000, 0x100));
    EXPECT_EQ(serrors, 0);
}

// ITVKJR, RNZTKV: handled asynchronously: the unit goes on writing the data it collected, then
// EA = 1, S = 1, EC 0x24, FSC 0x11 (asynchronous); TRBPTR_EL1 is not the faulting address.
TEST_F(TrbeAborts, RGQWBF_ITVKJR_ReportedAsynchronously)
{
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_ASYNC;
    make_trbe();
    abort_in_page2();
    run();
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EA), 1u);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0x24u);
    EXPECT_EQ(TRBSR_F(s, MSS), 0x11u);
    EXPECT_EQ(ptr(), BASE + 0x1800);
}

// ITVKJR: an asynchronous report after a first event has set S only sets EA; the input reports
// one at any time.
TEST_F(TrbeAborts, ITVKJR_AsyncAbortAfterAnotherEventOnlySetsEa)
{
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_ASYNC;
    make_trbe();
    program_fill();
    trace(0x4000); // buffer full
    ASSERT_EQ(pmt_trbe_external_abort(pe, 2), PMT_OK);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EA), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL);
    // Stage 2 when S is 0.
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    wr(PMT_REG_TRBSR_EL1, 0);
    ASSERT_EQ(pmt_trbe_external_abort(pe, 2), PMT_OK);
    EXPECT_EQ(TRBSR_F(sr(), EC), 0x25u);
}

TEST_F(TrbeAborts, TheAsyncInputNeedsTheAsyncChoice)
{
    make_trbe();
    EXPECT_EQ(pmt_trbe_external_abort(pe, 1), PMT_ERR_NOT_IMPLEMENTED);
}

// D6.5.5: an asynchronous External abort from memory is an SError whatever the reporting choice.
TEST_F(TrbeAborts, RGQWBF_AnAsynchronousAbortFromMemoryIsAnSError)
{
    cfg.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    make_trbe();
    abort_in_page2(PMT_TRBE_WRITE_ABORT_ASYNC);
    run();
    EXPECT_EQ(serrors, 1);
    EXPECT_EQ(sr(), 0u);
}

// ILNXGR, RYQMQK: an External abort on a translation table walk is a synchronous MMU fault
// (walk_abort_as_fault, the default) or follows the External abort choice.
TEST_F(TrbeAborts, RGQWBF_ILNXGR_WalkAbortsFollowTheChoice)
{
    struct Case {
        bool as_fault;
        pmt_trbe_ext_abort choice;
        uint64_t sr_expected;
        int serrors;
    } cases[] = {
        {true, PMT_TRBE_EA_IGNORE,
         PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, IRQ) | PMT_PUT(TRBSR, EC, 0x25) | 0x15, 0},
        {false, PMT_TRBE_EA_IGNORE, 0, 0},
        {false, PMT_TRBE_EA_SERROR, 0, 1},
        {false, PMT_TRBE_EA_REPORT_SYNC,
         PMT_MASK(TRBSR, EA) | PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, IRQ) |
             PMT_PUT(TRBSR, EC, 0x25) | 0x15,
         0},
        {false, PMT_TRBE_EA_REPORT_ASYNC,
         PMT_MASK(TRBSR, EA) | PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, IRQ) |
             PMT_PUT(TRBSR, EC, 0x25) | 0x11,
         0},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(testing::Message() << "as_fault " << c.as_fault << " choice " << c.choice);
        cfg.trbe.walk_abort_as_fault = c.as_fault;
        cfg.trbe.ext_abort = c.choice;
        faults.clear();
        serrors = 0;
        remake_trbe();
        fault_on_page2(fault(PMT_TRBE_FAULT_EXTERNAL_WALK, 2, 1));
        run();
        EXPECT_EQ(sr(), c.sr_expected);
        EXPECT_EQ(serrors, c.serrors);
        if (c.choice == PMT_TRBE_EA_REPORT_SYNC) {
            EXPECT_EQ(ptr(), PAGE2);
        }
    }
}

// IFRNZK: from Armv9.3 External aborts are not reported to the Trace Buffer Unit (the
// configuration refuses it); TRBSR_ELx.EA is RES0.
TEST_F(TrbeAborts, IFRNZK_Armv9p3AbortsAreNotReportedToTheUnit)
{
    cfg.trbe.armv9p3 = true;
    make_trbe();
    abort_in_page2();
    run();
    EXPECT_EQ(serrors, 1);
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    wr(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, EA));
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), 0u);
}

// --- IMPLEMENTATION DEFINED events and prioritization ---------------------------------------

// RCHNSL: IRQ = 1, S = 1, EC 0x1F, MSS and MSS2 IMPLEMENTATION DEFINED.
TEST_F(TrbeFaults, RCHNSL_ImplementationDefinedEvent)
{
    cfg.trbe.impdef_events = true;
    make_trbe();
    program_fill();
    ASSERT_EQ(pmt_trbe_impdef_event(pe, 0xBEEF, 0x123456), PMT_OK);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(TRBSR_F(s, IRQ), 1u);
    EXPECT_EQ(TRBSR_F(s, EC), 0x1Fu);
    EXPECT_EQ(TRBSR_F(s, MSS), 0xBEEFu);
    EXPECT_EQ(TRBSR_F(s, MSS2), 0x123456u);
    EXPECT_EQ(pmt_trbe_impdef_event(pe, 0, 0x1000000), PMT_ERR_ARG);
}

TEST_F(TrbeFaults, RCHNSL_ImplementationDefinedEventsNeedTheOption)
{
    make_trbe();
    EXPECT_EQ(pmt_trbe_impdef_event(pe, 1, 0), PMT_ERR_NOT_IMPLEMENTED);
}

// RMKCHT: two synchronous events on one write are prioritized; in the order of CollectTrace a
// Trigger Event completed at once (Stop on trigger) on the last byte before the Limit pointer is
// reported, and the buffer full event that follows only finds S = 1 (WRAP is still set).
TEST_F(TrbeFaults, RMKCHT_TriggerEventBeforeBufferFullOnTheSameWrite)
{
    make_trbe();
    program(BASE, LIMIT, LIMIT - 64, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_STOP);
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    wr(PMT_REG_TRBTRG_EL1, 64);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_PUT(TRBLIMITR, TM, 0) | PMT_MASK(TRBLIMITR, E));
    ASSERT_EQ(pmt_trbe_detected_trigger(pe), PMT_OK);
    trace(64);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_TRIGGER);
    EXPECT_EQ(TRBSR_F(s, WRAP), 1u);
    EXPECT_EQ(TRBSR_F(s, S), 1u);
    EXPECT_EQ(ptr(), BASE);
}

// RGTMJD: an IMPLEMENTATION DEFINED or asynchronous event is not prioritized against a
// synchronous one: raised after a buffer full event it finds S = 1 and records nothing more.
TEST_F(TrbeFaults, RGTMJD_LaterAsynchronousEventsDoNotReplaceTheFirst)
{
    cfg.trbe.impdef_events = true;
    make_trbe();
    program_fill();
    trace(0x4000);
    ASSERT_EQ(pmt_trbe_impdef_event(pe, 0x77, 0), PMT_OK);
    uint64_t s = sr();
    EXPECT_EQ(TRBSR_F(s, EC), 0u);
    EXPECT_EQ(TRBSR_F(s, MSS), PMT_TRBSR_BSC_FULL);
}

// RLYHGV, RYCPZX: TopLevel and AssuredOnly are stage 2 Permission fault information (D24.4.7:
// RES0 unless EC 0x25); a stage 1 Permission fault records Overlay and DirtyBit only, and one
// that claims TopLevel or AssuredOnly is refused.
TEST_F(TrbeFaults, RYCPZX_Stage1PermissionFaultLeavesTopLevelAndAssuredOnlyZero)
{
    make_trbe();
    pmt_trbe_fault f{PMT_TRBE_FAULT_PERMISSION, 1, 3, false, false, true, true};
    faults.push_back({BASE, LIMIT, f});
    program_fill();
    trace(64);
    EXPECT_EQ(TRBSR_F(sr(), EC), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(TRBSR_F(sr(), MSS2), (1u << 6) | (1u << 5)); // Overlay, DirtyBit only
    // A stage 1 fault that claims TopLevel or AssuredOnly contradicts itself: refused
    // (pmt_trbe.h), not recorded with the flags dropped.
    remake_trbe();
    faults.clear();
    faults.push_back({BASE, LIMIT, {PMT_TRBE_FAULT_PERMISSION, 1, 3, true, true, false, false}});
    program_fill();
    std::vector<uint8_t> b = next_bytes(64);
    EXPECT_EQ(pmt_trbe_trace(pe, b.data(), b.size(), nullptr), PMT_ERR_ARG);
    EXPECT_EQ(sr(), 0u);
}

} // namespace
