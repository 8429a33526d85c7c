// The ETE trace unit's filtering decisions: TraceAllowed (J1.3.4.42) with TRFCR_ELx,
// MDCR_EL3.STE/RLTE, the Trace Buffer Unit's owner, Debug state and the authentication
// interface; TRCVICTLR EXLEVEL filters (D24.4.67); the resources of TRCRSCTLR<n> (D24.4.54) with
// resources 0 and 1 fixed FALSE and TRUE; ViewInst include/exclude (TRCVIIECTLR, D24.4.68) and
// start/stop (TRCVISSCTLR, D24.4.70, TRCVICTLR.SSSTATUS) over the instruction ranges the CPU
// reports; branch broadcast regions (TRCBBCTLR, D24.4.15); the options the glue reads
// (TRCCONFIGR, TraceContextIDR2 J1.3.4.43, TraceTimeStamp J1.3.4.45).
#include "ete_fixture.h"

namespace
{

class EteFilter : public EteTest
{
  protected:
    // The trace unit enabled with trace allowed at Non-secure EL0..EL2 and TRCVICTLR =
    // VICTLR_ON | victlr_extra; the PE left at EL1. `program` runs first, while Idle.
    void start(uint64_t victlr_extra = 0, const std::function<void()> &program = {})
    {
        make_ete();
        allow_trace();
        if (program)
            program();
        wr(PMT_REG_TRCVICTLR, VICTLR_ON | victlr_extra);
        enable();
        at(1);
    }
    void set_ssstatus(bool started)
    {
        at(2);
        disable();
        uint64_t v = rd(PMT_REG_TRCVICTLR) & ~PMT_MASK(TRCVICTLR, SSSTATUS);
        wr(PMT_REG_TRCVICTLR, v | PMT_PUT(TRCVICTLR, SSSTATUS, started));
        enable();
        at(1);
    }
    bool ssstatus()
    {
        pmt_pe_state saved = pmt_pe_get_state(pe);
        at(2);
        bool v = PMT_GET(TRCVICTLR, SSSTATUS, rd(PMT_REG_TRCVICTLR));
        EXPECT_EQ(pmt_pe_set_state(pe, &saved), PMT_OK);
        return v;
    }
    static std::vector<uint64_t> span(uint64_t first, uint64_t last)
    {
        std::vector<uint64_t> v;
        for (uint64_t a = first; a <= last; a += 4)
            v.push_back(a);
        return v;
    }
    static std::vector<uint64_t> join(std::vector<uint64_t> a, const std::vector<uint64_t> &b)
    {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
};

// --- TraceAllowed (J1.3.4.42) ---

TEST_F(EteFilter, J1_3_4_42_TrfcrEnablesEachEl)
{
    make_ete();
    enable();
    at(1);
    EXPECT_FALSE(ete_trace_allowed(pe)); // TRFCR_EL1.E1TRE resets to 0 (UNKNOWN as 0)
    at(2);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE));
    at(1);
    EXPECT_TRUE(ete_trace_allowed(pe));
    EXPECT_TRUE(ete_active(pe));
    at(0);
    EXPECT_FALSE(ete_trace_allowed(pe)); // E0TRE 0
    at(2);
    EXPECT_FALSE(ete_trace_allowed(pe)); // E2TRE 0
    wr(PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E2TRE));
    EXPECT_TRUE(ete_trace_allowed(pe));
    at(3, PMT_SS_SECURE);
    EXPECT_FALSE(ete_trace_allowed(pe)); // EL3 in AArch64: never
}

TEST_F(EteFilter, J1_3_4_42_El0UsesE0htreWithTge)
{
    make_ete();
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE));
    at(0, PMT_SS_NONSECURE, true, false);
    EXPECT_TRUE(ete_trace_allowed(pe));
    at(0, PMT_SS_NONSECURE, true, true); // EffectiveTGE = 1: TRFCR_EL2.E0HTRE decides
    EXPECT_FALSE(ete_trace_allowed(pe));
    at(2);
    wr(PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E0HTRE));
    at(0, PMT_SS_NONSECURE, true, true);
    EXPECT_TRUE(ete_trace_allowed(pe));
}

TEST_F(EteFilter, J1_3_4_42_SecureNeedsMdcrEl3Ste)
{
    make_ete();
    at(3, PMT_SS_SECURE);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE));
    at(1, PMT_SS_SECURE, false);
    EXPECT_FALSE(ete_trace_allowed(pe));
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, STE));
    EXPECT_TRUE(ete_trace_allowed(pe));
}

TEST_F(EteFilter, J1_3_4_42_RealmNeedsMdcrEl3Rlte)
{
    ete_config();
    cfg.have_rme = true;
    make();
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE));
    at(1, PMT_SS_REALM);
    EXPECT_FALSE(ete_trace_allowed(pe));
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, RLTE));
    EXPECT_TRUE(ete_trace_allowed(pe));
    at(3, PMT_SS_ROOT);
    EXPECT_FALSE(ete_trace_allowed(pe)); // Root: never
}

TEST_F(EteFilter, J1_3_4_42_NoTraceInDebugState)
{
    make_ete();
    allow_trace();
    at(1);
    EXPECT_TRUE(ete_trace_allowed(pe));
    set_debug(true);
    EXPECT_FALSE(ete_trace_allowed(pe));
}

// The TRBE erratum erratum_ctxt_sync_after_enable (docs/choices.md "Errata"): after the write
// that sets TRBLIMITR_EL1.E at EL1, where TRFCR_EL1 prohibits trace, and a single Context
// synchronization event, the trace unit still sees trace prohibited at EL0; its cached filter
// decisions follow the second one.
TEST_F(EteFilter, CtxtSyncErratumKeepsTheViewOfTheEnablingWrite)
{
    ete_config();
    cfg.trbe.feat_trbe = true;
    cfg.trbe.erratum_ctxt_sync_after_enable = true;
    make();
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    at(2);
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 3));
    wr(PMT_REG_TRCVICTLR, VICTLR_ON);
    enable();
    at(1);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE));
    wr(PMT_REG_TRBBASER_EL1, 0x80000000);
    wr(PMT_REG_TRBPTR_EL1, 0x80000000);
    wr(PMT_REG_TRBLIMITR_EL1, 0x80004000 | PMT_MASK(TRBLIMITR, E));
    ASSERT_EQ(pmt_pe_context_sync(pe), PMT_OK);
    at(0);
    EXPECT_FALSE(ete_trace_allowed(pe));
    EXPECT_FALSE(ete_filter_now(pe)->active);
    ASSERT_EQ(pmt_pe_context_sync(pe), PMT_OK);
    EXPECT_TRUE(ete_trace_allowed(pe));
    EXPECT_TRUE(ete_filter_now(pe)->active);
}

TEST_F(EteFilter, J1_3_4_42_ExternalTraceFollowsTheAuthenticationInterface)
{
    make_ete(); // TRFCR all 0: self-hosted trace would be prohibited everywhere
    at(1);
    state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    EXPECT_TRUE(ete_trace_allowed(pe)); // ExternalNoninvasiveDebugAllowed
    state([](pmt_pe_state &s) { s.noninvasive_debug_prohibited = true; });
    EXPECT_FALSE(ete_trace_allowed(pe));
}

TEST_F(EteFilter, J1_3_4_42_TraceBufferOwnedByALowerElProhibits)
{
    ete_config();
    cfg.trbe.feat_trbe = true;
    make();
    allow_trace();
    // The trace buffer is owned by Non-secure EL1 (MDCR_EL3.NSTB = 0b11, MDCR_EL2.E2TB = 0b11)
    // and enabled.
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    wr(PMT_REG_MDCR_EL2, rd(PMT_REG_MDCR_EL2) | PMT_PUT(MDCR_EL2, E2TB, 3));
    wr(PMT_REG_TRBBASER_EL1, 0x80000000);
    wr(PMT_REG_TRBPTR_EL1, 0x80000000);
    wr(PMT_REG_TRBLIMITR_EL1, 0x80004000 | PMT_MASK(TRBLIMITR, E));
    EXPECT_FALSE(ete_trace_allowed(pe)); // EL2 is above the owning EL1
    at(1);
    EXPECT_TRUE(ete_trace_allowed(pe));
    at(0, PMT_SS_NONSECURE, true, true); // EffectiveTGE with owner EL1
    EXPECT_FALSE(ete_trace_allowed(pe));
}

// --- TRCVICTLR Exception level filters (D24.4.67) ---

TEST_F(EteFilter, D24_4_67_ExlevelNsFiltersEachEl)
{
    start(PMT_PUT(TRCVICTLR, EXLEVEL_NS, 0x1)); // EXLEVEL_NS_EL0: no trace at EL0
    EXPECT_TRUE(ete_exlevel_traced(pe));
    EXPECT_EQ(traced(0x1000, 0x1008), span(0x1000, 0x1008));
    at(0);
    EXPECT_FALSE(ete_exlevel_traced(pe));
    EXPECT_TRUE(traced(0x1000, 0x1008).empty());
    EXPECT_TRUE(ete_active(pe)); // the unit is active, the EL is filtered
}

TEST_F(EteFilter, D24_4_67_ExlevelSFiltersSecureEls)
{
    start(PMT_PUT(TRCVICTLR, EXLEVEL_S, 0x2)); // EXLEVEL_S_EL1
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, STE));
    at(1, PMT_SS_SECURE, false);
    EXPECT_FALSE(ete_exlevel_traced(pe));
    at(1);
    EXPECT_TRUE(ete_exlevel_traced(pe)); // Non-secure EL1 is not filtered
}

TEST_F(EteFilter, D24_4_67_RealmTracedWhenRlEqualsNs)
{
    ete_config();
    cfg.have_rme = true;
    make();
    at(1, PMT_SS_REALM);
    struct Case {
        unsigned ns, rl;
        bool traced;
    } cases[] = {{0, 0, true}, {1, 0, false}, {0, 1, false}, {1, 1, true}};
    for (const Case &c : cases) {
        at(2);
        wr(PMT_REG_TRCVICTLR,
           PMT_PUT(TRCVICTLR, EXLEVEL_NS, c.ns << 1) | PMT_PUT(TRCVICTLR, EXLEVEL_RL, c.rl << 1));
        at(1, PMT_SS_REALM);
        EXPECT_EQ(ete_exlevel_traced(pe), c.traced) << c.ns << c.rl;
    }
}

// --- Resources (D24.4.54) and TRCVICTLR.EVENT ---

TEST_F(EteFilter, D24_4_54_ResourcesZeroAndOneAreFalseAndTrue)
{
    start();
    EXPECT_TRUE(ete_resource_event(pe, 1, 0x1000, 0));
    EXPECT_FALSE(ete_resource_event(pe, 0, 0x1000, 0));
    // TRCVICTLR.EVENT selecting resource 0: nothing traced.
    at(2);
    disable();
    wr(PMT_REG_TRCVICTLR, PMT_MASK(TRCVICTLR, SSSTATUS));
    enable();
    at(1);
    EXPECT_TRUE(traced(0x1000, 0x1010).empty());
}

TEST_F(EteFilter, D24_4_54_ContextIdComparatorWithByteMask)
{
    start(0, [&] {
        wr(PMT_REG_TRCCIDCVR, 0x12345678, 0);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 6) | 1, 2); // CID comparator 0
    });
    ete_set_context(pe, 0x12345678, 0);
    EXPECT_TRUE(ete_resource_event(pe, 2, 0, 0));
    ete_set_context(pe, 0x123456FF, 0);
    EXPECT_FALSE(ete_resource_event(pe, 2, 0, 0));
    // TRCCIDCCTLR0.COMP0[0] = 1: byte 0 is ignored.
    at(2);
    disable();
    wr(PMT_REG_TRCCIDCCTLR0, 1);
    at(1);
    EXPECT_TRUE(ete_resource_event(pe, 2, 0, 0));
}

TEST_F(EteFilter, D24_4_54_VmidComparatorComparesContextidrEl2)
{
    start(0, [&] {
        wr(PMT_REG_TRCVMIDCVR, 0xC2, 0);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 7) | 1, 3);
    });
    ete_set_context(pe, 0xC2, 0x1);
    EXPECT_FALSE(ete_resource_event(pe, 3, 0, 0));
    ete_set_context(pe, 0x1, 0xC2);
    EXPECT_TRUE(ete_resource_event(pe, 3, 0, 0));
}

TEST_F(EteFilter, D24_4_54_InvAndPairCombinations)
{
    // Resource 2 TRUE (CID 0 matches), resource 3 FALSE (VMID 0 does not).
    auto prog = [&](uint64_t a_bits, uint64_t b_bits) {
        at(2);
        disable();
        wr(PMT_REG_TRCCIDCVR, 0xAA, 0);
        wr(PMT_REG_TRCVMIDCVR, 0xBB, 0);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 6) | 1 | a_bits, 2);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 7) | 1 | b_bits, 3);
        at(1);
        ete_set_context(pe, 0xAA, 0);
    };
    start();
    const unsigned pair1 = PMT_MASK(TRCEVENT, TYPE) | 1; // resource selector pair 1
    const uint64_t INV = PMT_MASK(TRCRSCTLR, INV), PAIRINV = PMT_MASK(TRCRSCTLR, PAIRINV);
    // (A.PAIRINV, A.INV, B.INV) with A = TRUE, B = FALSE, from the table of D24.4.54:
    prog(0, 0); // A and B
    EXPECT_FALSE(ete_resource_event(pe, pair1, 0, 0));
    prog(INV, 0); // not(A) and B
    EXPECT_FALSE(ete_resource_event(pe, pair1, 0, 0));
    prog(INV, INV); // not(A) and not(B)
    EXPECT_FALSE(ete_resource_event(pe, pair1, 0, 0));
    prog(PAIRINV, 0); // not(A) or not(B)
    EXPECT_TRUE(ete_resource_event(pe, pair1, 0, 0));
    prog(PAIRINV, INV); // not(A) or B
    EXPECT_FALSE(ete_resource_event(pe, pair1, 0, 0));
    prog(PAIRINV | INV, INV); // A or B
    EXPECT_TRUE(ete_resource_event(pe, pair1, 0, 0));
    // A single selector with INV.
    prog(INV, 0);
    EXPECT_FALSE(ete_resource_event(pe, 2, 0, 0));
    // Pair 0 is UNPREDICTABLE: the model's choice is FALSE.
    EXPECT_FALSE(ete_resource_event(pe, PMT_MASK(TRCEVENT, TYPE), 0, 0));
}

TEST_F(EteFilter, D24_4_30_ExternalInputsArePmuEvents)
{
    start(0, [&] {
        wr(PMT_REG_TRCEXTINSELR, PMT_EV_PMU_OVFS, 1);
        wr(PMT_REG_TRCEXTINSELR, PMT_EV_PMU_HOVFS, 3);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 0) | 0x2, 2); // EXTIN[1]
    });
    EXPECT_EQ(ete_extin_selected(pe, PMT_EV_PMU_OVFS), 0x2u);
    EXPECT_EQ(ete_extin_selected(pe, PMT_EV_PMU_HOVFS), 0x8u);
    EXPECT_EQ(ete_extin_selected(pe, PMT_EV_CPU_CYCLES), 0u);
    EXPECT_TRUE(ete_resource_event(pe, 2, 0, ete_extin_selected(pe, PMT_EV_PMU_OVFS)));
    EXPECT_FALSE(ete_resource_event(pe, 2, 0, ete_extin_selected(pe, PMT_EV_PMU_HOVFS)));
    EXPECT_FALSE(ete_resource_event(pe, 2, 0, 0)); // no event now
}

TEST_F(EteFilter, D24_4_54_AddressComparatorResources)
{
    start(0, [&] {
        comparator(0, 0x2000);
        comparator(1, 0x2010);
        comparator(2, 0x3000);
        comparator(3, 0x3FFC);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 4) | 0x2, 2); // SAC 1
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 5) | 0x2, 3); // ARC 1
    });
    EXPECT_TRUE(ete_resource_event(pe, 2, 0x2010, 0));
    EXPECT_FALSE(ete_resource_event(pe, 2, 0x2000, 0));
    EXPECT_TRUE(ete_resource_event(pe, 3, 0x3000, 0));
    EXPECT_TRUE(ete_resource_event(pe, 3, 0x3FFC, 0));
    EXPECT_FALSE(ete_resource_event(pe, 3, 0x4000, 0));
}

TEST_F(EteFilter, D24_4_67_ViewInstEventSelectsAResource)
{
    // TRCVICTLR.EVENT = resource 2 = Address Range Comparator 0 [0x1008, 0x1010].
    start(0, [&] {
        comparator(0, 0x1008);
        comparator(1, 0x1010);
        wr(PMT_REG_TRCRSCTLR, PMT_PUT(TRCRSCTLR, GROUP, 5) | 1, 2);
    });
    at(2);
    disable();
    wr(PMT_REG_TRCVICTLR, 2 | PMT_MASK(TRCVICTLR, SSSTATUS));
    enable();
    at(1);
    EXPECT_EQ(traced(0x1000, 0x1020), span(0x1008, 0x1010));
}

// --- ViewInst include/exclude (D24.4.68) ---

TEST_F(EteFilter, D24_4_68_IncludeRange)
{
    start(0, [&] {
        comparator(0, 0x1000);
        comparator(1, 0x100C);
        wr(PMT_REG_TRCVIIECTLR, 0x1); // INCLUDE[0]
    });
    std::vector<EteRun> expect = {
        {0xFF0, 0xFFC, false}, {0x1000, 0x100C, true}, {0x1010, 0x1020, false}};
    EXPECT_EQ(runs(0xFF0, 0x1020), expect);
}

TEST_F(EteFilter, D24_4_68_ExcludeRange)
{
    start(0, [&] {
        comparator(2, 0x1004);
        comparator(3, 0x1008);
        wr(PMT_REG_TRCVIIECTLR, 0x2u << 16); // EXCLUDE[1]
    });
    EXPECT_EQ(traced(0x1000, 0x1010), join(span(0x1000, 0x1000), span(0x100C, 0x1010)));
}

TEST_F(EteFilter, D24_4_68_ExcludeWinsOverInclude)
{
    start(0, [&] {
        comparator(0, 0x1000);
        comparator(1, 0x10FC);
        comparator(2, 0x1010);
        comparator(3, 0x101C);
        wr(PMT_REG_TRCVIIECTLR, 0x1 | (0x2u << 16));
    });
    EXPECT_EQ(traced(0x1008, 0x1024), join(span(0x1008, 0x100C), span(0x1020, 0x1024)));
}

TEST_F(EteFilter, D24_4_11_ComparatorExlevelAndContext)
{
    // Include range 0 compares only where TRCACATR allows: not at Non-secure EL1 (bit 13), and
    // only when Context comparator 0 matches (CONTEXTTYPE 0b01).
    start(0, [&] {
        uint64_t acatr = PMT_PUT(TRCACATR, EXLEVEL_NS, 0x2);
        comparator(0, 0x1000, acatr);
        comparator(1, 0x1FFC, acatr);
        wr(PMT_REG_TRCVIIECTLR, 0x1);
    });
    EXPECT_TRUE(traced(0x1000, 0x1008).empty()); // the range never matches at EL1
    at(0);
    EXPECT_EQ(traced(0x1000, 0x1008), span(0x1000, 0x1008));
    at(2);
    disable();
    wr(PMT_REG_TRCCIDCVR, 0x77, 0);
    wr(PMT_REG_TRCACATR, PMT_PUT(TRCACATR, CONTEXTTYPE, 1), 0);
    enable();
    at(1);
    ete_set_context(pe, 0x76, 0);
    EXPECT_TRUE(traced(0x1000, 0x1008).empty());
    ete_set_context(pe, 0x77, 0);
    EXPECT_EQ(traced(0x1000, 0x1008), span(0x1000, 0x1008));
}

// --- ViewInst start/stop (D24.4.70, TRCVICTLR.SSSTATUS) ---

TEST_F(EteFilter, D24_4_70_StartAndStopPointsAreTraced)
{
    start(0, [&] {
        comparator(0, 0x1008); // start
        comparator(1, 0x1018); // stop
        wr(PMT_REG_TRCVISSCTLR, 0x1 | (0x2u << 16));
    });
    set_ssstatus(false);
    EXPECT_EQ(traced(0x1000, 0x1020), span(0x1008, 0x1018));
    EXPECT_FALSE(ssstatus());
}

TEST_F(EteFilter, D24_4_67_SsstatusCarriesAcrossRanges)
{
    start(0, [&] {
        comparator(0, 0x1008);
        wr(PMT_REG_TRCVISSCTLR, 0x1); // start only
    });
    set_ssstatus(false);
    EXPECT_TRUE(traced(0x1000, 0x1004).empty());
    EXPECT_FALSE(ssstatus());
    EXPECT_EQ(traced(0x1008, 0x100C), span(0x1008, 0x100C)); // the start point
    EXPECT_TRUE(ssstatus());
    EXPECT_EQ(traced(0x5000, 0x5004), span(0x5000, 0x5004)); // a later range: still started
}

TEST_F(EteFilter, D24_4_70_StopWithoutStartStaysStopped)
{
    start(0, [&] {
        comparator(1, 0x1004);
        wr(PMT_REG_TRCVISSCTLR, 0x2u << 16);
    });
    EXPECT_TRUE(ssstatus());
    EXPECT_EQ(traced(0x1000, 0x1010), span(0x1000, 0x1004));
    EXPECT_FALSE(ssstatus());
    EXPECT_TRUE(traced(0x1000, 0x1010).empty());
}

TEST_F(EteFilter, D24_4_70_ComparatorsDoNotMatchWhileProhibited)
{
    start(0, [&] {
        comparator(0, 0x1008);
        wr(PMT_REG_TRCVISSCTLR, 0x1);
    });
    set_ssstatus(false);
    at(2); // E2TRE set by allow_trace: clear it so trace is prohibited at EL2
    wr(PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E0HTRE));
    EXPECT_FALSE(ete_active(pe));
    EXPECT_TRUE(traced(0x1000, 0x1010).empty());
    EXPECT_FALSE(ssstatus()); // the start point was not seen
}

TEST_F(EteFilter, ViewInstRunsAreMaximal)
{
    start(0, [&] {
        comparator(0, 0x2000); // unused by the filters: a boundary that changes nothing
        comparator(1, 0x3000);
    });
    std::vector<EteRun> expect = {{0x1000, 0x4000, true}};
    EXPECT_EQ(runs(0x1000, 0x4000), expect);
}

TEST_F(EteFilter, ViewInstRunAtTheTopOfTheAddressSpace)
{
    const uint64_t top = ~uint64_t{3};
    start(0, [&] {
        comparator(0, top - 8);
        comparator(1, ~uint64_t{0});
        wr(PMT_REG_TRCVIIECTLR, 0x1u << 16); // exclude the last three instructions
    });
    std::vector<EteRun> expect = {{top - 16, top - 12, true}, {top - 8, top, false}};
    EXPECT_EQ(runs(top - 16, top), expect);
}

TEST_F(EteFilter, AnEmptyRangeIsNotTraced)
{
    start();
    uint64_t end = 0;
    EXPECT_FALSE(ete_viewinst_run(pe, 0x1010, 0x1000, &end));
    EXPECT_EQ(end, 0x1000u);
}

TEST_F(EteFilter, NoTraceUnitNothingActive)
{
    make(); // feat_ete off
    at(1);
    EXPECT_FALSE(ete_active(pe));
    EXPECT_FALSE(ete_trace_allowed(pe));
    EXPECT_FALSE(ete_active(nullptr));
}

TEST_F(EteFilter, NothingTracedWhileDisabled)
{
    start();
    at(2);
    disable();
    at(1);
    EXPECT_FALSE(ete_active(pe));
    EXPECT_TRUE(traced(0x1000, 0x1010).empty());
}

// --- Branch broadcast regions (D24.4.15) ---

TEST_F(EteFilter, D24_4_15_BranchBroadcastRegions)
{
    start(0, [&] {
        comparator(0, 0x1000);
        comparator(1, 0x10FC);
        wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, BB));
        wr(PMT_REG_TRCBBCTLR, 0); // Exclude mode, no ranges: everywhere
    });
    EXPECT_TRUE(ete_branch_broadcast(pe, 0x5000));
    at(2);
    disable();
    wr(PMT_REG_TRCBBCTLR, PMT_MASK(TRCBBCTLR, MODE) | 1); // Include range 0
    at(1);
    EXPECT_TRUE(ete_branch_broadcast(pe, 0x1010));
    EXPECT_FALSE(ete_branch_broadcast(pe, 0x5000));
    at(2);
    wr(PMT_REG_TRCBBCTLR, 1); // Exclude range 0
    at(1);
    EXPECT_FALSE(ete_branch_broadcast(pe, 0x1010));
    EXPECT_TRUE(ete_branch_broadcast(pe, 0x5000));
}

// --- Options for the glue ---

TEST_F(EteFilter, J1_3_4_43_VmidNeedsTrfcrEl2Cx)
{
    start(0,
          [&] { wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, VMID) | PMT_MASK(TRCCONFIGR, CID)); });
    ete_options o;
    ete_get_options(pe, &o);
    EXPECT_TRUE(o.context_id);
    EXPECT_FALSE(o.vmid); // TRFCR_EL2.CX = 0
    at(2);
    wr(PMT_REG_TRFCR_EL2, rd(PMT_REG_TRFCR_EL2) | PMT_MASK(TRFCR_EL2, CX));
    at(1);
    ete_get_options(pe, &o);
    EXPECT_TRUE(o.vmid);
}

TEST_F(EteFilter, J1_3_4_45_TimestampSource)
{
    start(0, [&] { wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, TS)); });
    ete_options o;
    at(2);
    wr(PMT_REG_TRFCR_EL1, rd(PMT_REG_TRFCR_EL1) | PMT_PUT(TRFCR_EL1, TS, 1));
    ete_get_options(pe, &o);
    EXPECT_EQ(o.timestamp, ETE_TS_VIRTUAL);
    wr(PMT_REG_TRFCR_EL2, rd(PMT_REG_TRFCR_EL2) | PMT_PUT(TRFCR_EL2, TS, 3));
    ete_get_options(pe, &o);
    EXPECT_EQ(o.timestamp, ETE_TS_PHYSICAL); // TRFCR_EL2.TS overrides
    state([](pmt_pe_state &s) { s.self_hosted_trace_disabled = true; });
    ete_get_options(pe, &o);
    EXPECT_EQ(o.timestamp, ETE_TS_CORESIGHT);
}

TEST_F(EteFilter, OptionsReportTheProgramming)
{
    start(0, [&] {
        wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, CCI));
        wr(PMT_REG_TRCCCCTLR, 0x40);
        wr(PMT_REG_TRCSYNCPR, 0xC);
        wr(PMT_REG_TRCTRACEIDR, 0x10);
        wr(PMT_REG_TRCTSCTLR, 0x3);
        wr(PMT_REG_TRCEVENTCTL1R, 0x5);
    });
    ete_options o;
    ete_get_options(pe, &o);
    EXPECT_TRUE(o.cycle_counting);
    EXPECT_EQ(o.cc_threshold, 0x40u);
    EXPECT_EQ(o.sync_period_log2, 12u); // 2^12 bytes
    EXPECT_EQ(o.trace_id, 0x10u);
    EXPECT_EQ(o.ts_event, 0x3u);
    EXPECT_EQ(o.event_insten, 0x5u);
    EXPECT_TRUE(o.wfx_p0);
    EXPECT_EQ(o.timestamp, ETE_TS_NONE);
    EXPECT_FALSE(o.return_stack);
}

} // namespace
