// Event filtering, D13.7 (arm-D13.7.md): filtering by Exception level and Security state
// (D13.7.1) with the P, U, NSK, NSU, NSH, M, SH, RLK, RLU and RLH bits of PMEVTYPER<n>_EL0,
// PMCCFILTR_EL0 and PMICFILTR_EL0; the bits of absent features are RES0 (D24.5.1, D24.5.12,
// D24.5.14); filtering by SVE Streaming mode (RYWWSV, D13.7.2); software increments filtered
// by Exception level (D13.7.3.2). D13.7.1 states no rule identifier in M.a.a; its pseudocode is
// the filter part of CountPMUEvents() (J1.3.1.93), the authority for every expected value:
//   EL0: Non-secure U == NSU, Secure U == 0, Realm U == RLU count
//   EL1: Non-secure P == NSK, Secure P == 0, Realm P == RLK count
//   EL2: Non-secure NSH == 1, Secure NSH != SH, Realm NSH != RLH count
//   EL3: M == P counts
#include "pe_fixture.h"

namespace
{

constexpr uint64_t kEvents = 7;
constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kSpme = PMT_MASK(MDCR_EL3, SPME);
constexpr uint64_t kEnPM2 = PMT_MASK(MDCR_EL3, EnPM2);

constexpr uint64_t P = PMT_MASK(PMEVTYPER, P);
constexpr uint64_t U = PMT_MASK(PMEVTYPER, U);
constexpr uint64_t NSK = PMT_MASK(PMEVTYPER, NSK);
constexpr uint64_t NSU = PMT_MASK(PMEVTYPER, NSU);
constexpr uint64_t NSH = PMT_MASK(PMEVTYPER, NSH);
constexpr uint64_t M = PMT_MASK(PMEVTYPER, M);
constexpr uint64_t SH = PMT_MASK(PMEVTYPER, SH);
constexpr uint64_t RLK = PMT_MASK(PMEVTYPER, RLK);
constexpr uint64_t RLU = PMT_MASK(PMEVTYPER, RLU);
constexpr uint64_t RLH = PMT_MASK(PMEVTYPER, RLH);
constexpr uint64_t kAllFilterBits = P | U | NSK | NSU | NSH | M | SH | RLK | RLU | RLH;

constexpr pmt_security NS = PMT_SS_NONSECURE;
constexpr pmt_security S = PMT_SS_SECURE;
constexpr pmt_security RL = PMT_SS_REALM;
constexpr pmt_security ROOT = PMT_SS_ROOT;

// The filtering register under test.
enum class Kind { EventCounter, CycleCounter, InstructionCounter };

struct FilterRow {
    const char *name;
    unsigned el;
    pmt_security ss;
    uint64_t filter;
    bool counts;
};

// Every Exception level and Security state of a PE with EL2, EL3, FEAT_SEL2 and FEAT_RME, each
// against the bits that decide it and the bits that must not matter.
const FilterRow kEveryStateAndFilter[] = {
    // Non-secure EL0: counts when U == NSU.
    {"NS EL0, U=0 NSU=0", 0, NS, 0, true},
    {"NS EL0, U=1 NSU=0", 0, NS, U, false},
    {"NS EL0, U=0 NSU=1", 0, NS, NSU, false},
    {"NS EL0, U=1 NSU=1", 0, NS, U | NSU, true},
    {"NS EL0, every bit but U, NSU", 0, NS, kAllFilterBits & ~(U | NSU), true},
    {"NS EL0, RLU=1", 0, NS, RLU, true},
    // Non-secure EL1: counts when P == NSK.
    {"NS EL1, P=0 NSK=0", 1, NS, 0, true},
    {"NS EL1, P=1 NSK=0", 1, NS, P, false},
    {"NS EL1, P=0 NSK=1", 1, NS, NSK, false},
    {"NS EL1, P=1 NSK=1", 1, NS, P | NSK, true},
    {"NS EL1, every bit but P, NSK", 1, NS, kAllFilterBits & ~(P | NSK), true},
    {"NS EL1, RLK=1", 1, NS, RLK, true},
    // Non-secure EL2: counts when NSH == 1.
    {"NS EL2, NSH=0", 2, NS, 0, false},
    {"NS EL2, NSH=1", 2, NS, NSH, true},
    {"NS EL2, every bit", 2, NS, kAllFilterBits, true},
    {"NS EL2, every bit but NSH", 2, NS, kAllFilterBits & ~NSH, false},
    // Secure EL0: counts when U == 0.
    {"S EL0, U=0", 0, S, 0, true},
    {"S EL0, U=1", 0, S, U, false},
    {"S EL0, U=0 NSU=1", 0, S, NSU, true},
    {"S EL0, U=1 NSU=1", 0, S, U | NSU, false},
    {"S EL0, every bit but U", 0, S, kAllFilterBits & ~U, true},
    // Secure EL1: counts when P == 0.
    {"S EL1, P=0", 1, S, 0, true},
    {"S EL1, P=1", 1, S, P, false},
    {"S EL1, P=0 NSK=1", 1, S, NSK, true},
    {"S EL1, P=1 NSK=1", 1, S, P | NSK, false},
    {"S EL1, P=1 M=1", 1, S, P | M, false},
    {"S EL1, every bit but P", 1, S, kAllFilterBits & ~P, true},
    // Secure EL2: counts when NSH != SH.
    {"S EL2, NSH=0 SH=0", 2, S, 0, false},
    {"S EL2, NSH=1 SH=0", 2, S, NSH, true},
    {"S EL2, NSH=0 SH=1", 2, S, SH, true},
    {"S EL2, NSH=1 SH=1", 2, S, NSH | SH, false},
    {"S EL2, NSH=1 SH=0, every other bit", 2, S, kAllFilterBits & ~SH, true},
    {"S EL2, NSH=1 SH=1, every other bit", 2, S, kAllFilterBits, false},
    // Realm EL0: counts when U == RLU.
    {"RL EL0, U=0 RLU=0", 0, RL, 0, true},
    {"RL EL0, U=1 RLU=0", 0, RL, U, false},
    {"RL EL0, U=0 RLU=1", 0, RL, RLU, false},
    {"RL EL0, U=1 RLU=1", 0, RL, U | RLU, true},
    {"RL EL0, U=0 NSU=1", 0, RL, NSU, true},
    {"RL EL0, U=1 NSU=1", 0, RL, U | NSU, false},
    {"RL EL0, every bit but U, RLU", 0, RL, kAllFilterBits & ~(U | RLU), true},
    // Realm EL1: counts when P == RLK.
    {"RL EL1, P=0 RLK=0", 1, RL, 0, true},
    {"RL EL1, P=1 RLK=0", 1, RL, P, false},
    {"RL EL1, P=0 RLK=1", 1, RL, RLK, false},
    {"RL EL1, P=1 RLK=1", 1, RL, P | RLK, true},
    {"RL EL1, P=0 NSK=1", 1, RL, NSK, true},
    {"RL EL1, P=1 NSK=1", 1, RL, P | NSK, false},
    {"RL EL1, every bit but P, RLK", 1, RL, kAllFilterBits & ~(P | RLK), true},
    // Realm EL2: counts when NSH != RLH.
    {"RL EL2, NSH=0 RLH=0", 2, RL, 0, false},
    {"RL EL2, NSH=1 RLH=0", 2, RL, NSH, true},
    {"RL EL2, NSH=0 RLH=1", 2, RL, RLH, true},
    {"RL EL2, NSH=1 RLH=1", 2, RL, NSH | RLH, false},
    {"RL EL2, NSH=1 SH=1", 2, RL, NSH | SH, true},
    {"RL EL2, NSH=1 RLH=0, every other bit", 2, RL, kAllFilterBits & ~RLH, true},
    // EL3: counts when M == P.
    {"EL3, P=0 M=0", 3, ROOT, 0, true},
    {"EL3, P=1 M=0", 3, ROOT, P, false},
    {"EL3, P=0 M=1", 3, ROOT, M, false},
    {"EL3, P=1 M=1", 3, ROOT, P | M, true},
    {"EL3, every bit but P, M", 3, ROOT, kAllFilterBits & ~(P | M), true},
    {"EL3, every bit", 3, ROOT, kAllFilterBits, true},
};

class Filter : public PeTest
{
  protected:
    // A PE with every Exception level and Security state, and the instruction counter.
    void full_config()
    {
        cfg.have_sel2 = true;
        cfg.have_rme = true;
        cfg.pmu_version = PMT_PMUV3P9;
        cfg.feat_icntr = true;
    }

    static pmt_reg_id filter_reg(Kind k)
    {
        switch (k) {
        case Kind::EventCounter: return PMT_REG_PMEVTYPER_EL0;
        case Kind::CycleCounter: return PMT_REG_PMCCFILTR_EL0;
        default: return PMT_REG_PMICFILTR_EL0;
        }
    }

    static pmt_reg_id counter_reg(Kind k)
    {
        switch (k) {
        case Kind::EventCounter: return PMT_REG_PMEVCNTR_EL0;
        case Kind::CycleCounter: return PMT_REG_PMCCNTR_EL0;
        default: return PMT_REG_PMICNTR_EL0;
        }
    }

    static uint64_t enable_bit(Kind k)
    {
        switch (k) {
        case Kind::EventCounter: return bit(0);
        case Kind::CycleCounter: return C;
        default: return F0;
        }
    }

    // Counter k (event counter 0 counting INST_RETIRED, PMCCNTR, or PMICNTR_EL0) enabled from 0
    // with `filter` (plus `extra` register bits), counting allowed everywhere (MDCR_EL3.SPME =
    // 1, MPMX = 0; MDCR_EL2.HPMD = 0, HPMN = N; MDCR_EL3.EnPM2 = 1 when it exists).
    void setup(Kind k, uint64_t filter)
    {
        const pmt_pe_config *c = pmt_pe_get_config(pe);
        if (c->have_el3)
            wr_high(PMT_REG_MDCR_EL3, kSpme | (c->pmu_version >= PMT_PMUV3P9 ? kEnPM2 : 0));
        uint64_t event = k == Kind::EventCounter ? PMT_EV_INST_RETIRED : 0;
        wr(filter_reg(k), filter | event);
        wr(counter_reg(k), 0);
        wr(PMT_REG_PMCNTENSET_EL0, enable_bit(k));
        wr(PMT_REG_PMCR_EL0, kE);
    }

    // The one action: kEvents of what counter k counts, at the current state.
    void occur(Kind k)
    {
        if (k == Kind::CycleCounter)
            ASSERT_EQ(pmt_pmu_cycles(pe, kEvents), PMT_OK);
        else
            count(PMT_EV_INST_RETIRED, kEvents);
    }

    // Runs each row on a fresh model: filter, move to the row's state, count, read back at
    // Non-secure EL2 (or EL1 without EL2).
    template <size_t N> void run(Kind k, const FilterRow (&rows)[N])
    {
        for (const FilterRow &row : rows) {
            SCOPED_TRACE(row.name);
            remake();
            setup(k, row.filter);
            pmt_pe_state home = pmt_pe_get_state(pe);
            at(row.el, row.ss, row.el != 3);
            occur(k);
            ASSERT_EQ(pmt_pe_set_state(pe, &home), PMT_OK);
            EXPECT_EQ(rd(counter_reg(k)), row.counts ? kEvents : 0u);
        }
    }

    void set_streaming(bool sm)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.streaming = sm;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
};

// ---- Every Exception level and Security state against every filter bit (D13.7.1) -----------

TEST_F(Filter, D13_7_1_PmevtyperFiltersEveryStateAsCountPMUEventsSays)
{
    // D13.7.1: PMEVTYPER<n>_EL0 specifies the Exception levels in which the counter counts.
    full_config();
    run(Kind::EventCounter, kEveryStateAndFilter);
}

TEST_F(Filter, D13_7_1_PmccfiltrFiltersEveryStateAsCountPMUEventsSays)
{
    // D13.7.1: PMCCFILTR_EL0 specifies the Exception levels in which the cycle counter counts.
    full_config();
    run(Kind::CycleCounter, kEveryStateAndFilter);
}

TEST_F(Filter, D13_7_1_PmicfiltrFiltersEveryStateAsCountPMUEventsSays)
{
    // D13.7.1: with FEAT_PMUv3_ICNTR, PMICFILTR_EL0 specifies the Exception levels in which the
    // instruction counter counts.
    full_config();
    run(Kind::InstructionCounter, kEveryStateAndFilter);
}

TEST_F(Filter, D13_7_1_SecureStatesWithoutRme)
{
    // D13.7.1 on a PE with Secure EL2 and no FEAT_RME: EL3 is in Secure state, and the Secure
    // rows do not depend on RME being present.
    cfg.have_sel2 = true;
    const FilterRow rows[] = {
        {"S EL1, P=0", 1, S, 0, true},          {"S EL1, P=1", 1, S, P, false},
        {"S EL2, NSH=1 SH=0", 2, S, NSH, true}, {"S EL2, NSH=1 SH=1", 2, S, NSH | SH, false},
        {"EL3, P=1 M=1", 3, S, P | M, true},    {"EL3, P=1 M=0", 3, S, P, false},
    };
    run(Kind::EventCounter, rows);
}

// ---- RES0 bits of absent features ----------------------------------------------------------

TEST_F(Filter, Res0_WithoutEl3NskNsuAndMReadAsZero)
{
    // D24.5.12 / D24.5.1 / D24.5.14: NSK, NSU and M are RES0 when EL3 is not implemented (and
    // SH, RLK, RLU, RLH with it, as FEAT_SEL2 and FEAT_RME need EL3). PMICFILTR_EL0.evtCount
    // reads as 0x0008.
    cfg.have_el3 = false;
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr(PMT_REG_PMEVTYPER_EL0, kAllFilterBits | PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMCCFILTR_EL0, kAllFilterBits);
    wr(PMT_REG_PMICFILTR_EL0, kAllFilterBits);
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), P | U | NSH | PMT_EV_INST_RETIRED);
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), P | U | NSH);
    EXPECT_EQ(rd(PMT_REG_PMICFILTR_EL0), P | U | NSH | 0x0008u);
}

TEST_F(Filter, Res0_WithoutEl2NshReadsAsZero)
{
    // D24.5.12 / D24.5.1: NSH is RES0 when EL2 is not implemented (SH too: FEAT_SEL2 needs
    // EL2). The PE is at Non-secure EL1.
    cfg.have_el2 = false;
    make();
    wr(PMT_REG_PMEVTYPER_EL0, kAllFilterBits | PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMCCFILTR_EL0, kAllFilterBits);
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), P | U | NSK | NSU | M | PMT_EV_INST_RETIRED);
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), P | U | NSK | NSU | M);
}

TEST_F(Filter, Res0_WithoutSel2AndRmeShAndRealmBitsReadAsZero)
{
    // D24.5.12 / D24.5.1 / D24.5.14: SH needs EL3 and FEAT_SEL2; RLK, RLU, RLH need FEAT_RME.
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr_high(PMT_REG_MDCR_EL3, kEnPM2);
    wr(PMT_REG_PMEVTYPER_EL0, kAllFilterBits | PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMCCFILTR_EL0, kAllFilterBits);
    wr(PMT_REG_PMICFILTR_EL0, kAllFilterBits);
    const uint64_t kept = P | U | NSK | NSU | NSH | M;
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), kept | PMT_EV_INST_RETIRED);
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), kept);
    EXPECT_EQ(rd(PMT_REG_PMICFILTR_EL0), kept | 0x0008u);
}

TEST_F(Filter, Res0_WithEveryFeatureEveryFilterBitIsKept)
{
    // The counterpart of the RES0 tests: with EL2, EL3, FEAT_SEL2 and FEAT_RME, all ten filter
    // bits are writable in the three registers.
    full_config();
    make();
    wr_high(PMT_REG_MDCR_EL3, kEnPM2);
    wr(PMT_REG_PMEVTYPER_EL0, kAllFilterBits | PMT_EV_INST_RETIRED, 0);
    wr(PMT_REG_PMCCFILTR_EL0, kAllFilterBits);
    wr(PMT_REG_PMICFILTR_EL0, kAllFilterBits);
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), kAllFilterBits | PMT_EV_INST_RETIRED);
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), kAllFilterBits);
    EXPECT_EQ(rd(PMT_REG_PMICFILTR_EL0), kAllFilterBits | 0x0008u);
}

TEST_F(Filter, Res0_WithoutEl3NskAndNsuDoNotFilter)
{
    // CountPMUEvents: "nsk = if HaveEL(EL3) then filter<29> else '0'" (NSU likewise), so without
    // EL3 Non-secure EL1 counts when P == 0 and EL0 when U == 0, whatever NSK/NSU were written.
    cfg.have_el3 = false;
    const FilterRow rows[] = {
        {"NS EL1, P=1 NSK=1", 1, NS, P | NSK, false},
        {"NS EL1, P=0 NSK=1", 1, NS, NSK, true},
        {"NS EL0, U=1 NSU=1", 0, NS, U | NSU, false},
        {"NS EL0, U=0 NSU=1", 0, NS, NSU, true},
    };
    run(Kind::EventCounter, rows);
}

TEST_F(Filter, Res0_WithoutEl3CycleCounterNskAndNsuDoNotFilter)
{
    // As above for PMCCFILTR_EL0.
    cfg.have_el3 = false;
    const FilterRow rows[] = {
        {"NS EL1, P=1 NSK=1", 1, NS, P | NSK, false},
        {"NS EL1, P=0 NSK=1", 1, NS, NSK, true},
        {"NS EL0, U=1 NSU=1", 0, NS, U | NSU, false},
        {"NS EL0, U=0 NSU=1", 0, NS, NSU, true},
    };
    run(Kind::CycleCounter, rows);
}

// ---- RYWWSV: SVE Streaming mode filtering (D13.7.2) ----------------------------------------

TEST_F(Filter, RYWWSV_VsFiltersStreamingAndNonStreamingMode)
{
    // RYWWSV: with FEAT_PMUv3_SME, VS of PMEVTYPER<n>_EL0, PMCCFILTR_EL0 and PMICFILTR_EL0:
    // 0b00 no effect, 0b01 no counting in Streaming SVE mode, 0b10 none in Non-streaming mode
    // (0b11 is reserved and not tested).
    cfg.feat_pmuv3_sme = true;
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    struct Row {
        const char *name;
        unsigned vs;
        bool streaming, counts;
    };
    const Row rows[] = {
        {"VS=00, non-streaming", 0, false, true},  {"VS=00, streaming", 0, true, true},
        {"VS=01, non-streaming", 1, false, true},  {"VS=01, streaming", 1, true, false},
        {"VS=10, non-streaming", 2, false, false}, {"VS=10, streaming", 2, true, true},
    };
    for (Kind k : {Kind::EventCounter, Kind::CycleCounter, Kind::InstructionCounter}) {
        for (const Row &row : rows) {
            SCOPED_TRACE(std::string(pmt_reg_name(filter_reg(k))) + ", " + row.name);
            remake();
            setup(k, NSH | PMT_PUT(PMEVTYPER, VS, row.vs));
            set_streaming(row.streaming);
            occur(k);
            set_streaming(false);
            EXPECT_EQ(rd(counter_reg(k)), row.counts ? kEvents : 0u);
        }
    }
}

TEST_F(Filter, RYWWSV_WithoutPmuv3SmeVsIsRes0AndDoesNotFilter)
{
    // RYWWSV applies only with FEAT_PMUv3_SME; otherwise VS is RES0 (D24.5.12): it reads as 0
    // and the counter counts in Streaming mode.
    make();
    setup(Kind::EventCounter, NSH | PMT_PUT(PMEVTYPER, VS, 1));
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), NSH | PMT_EV_INST_RETIRED);
    set_streaming(true);
    occur(Kind::EventCounter);
    set_streaming(false);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), kEvents);
}

// ---- Software increments are filtered by Exception level (D13.7.3.2) ------------------------

TEST_F(Filter, D13_7_3_2_SoftwareIncrementIsFilteredByTheExceptionLevelOfTheWrite)
{
    // D13.7.3.2: "The PMU must filter software increment events according to the Exception
    // level in which the software increment occurred." Counter 0 counts SW_INCR with U = 1
    // (not at Non-secure EL0, NSU = 0) and P = 0; PMUSERENR_EL0.EN = 1 lets EL0 write PMSWINC.
    struct Row {
        const char *name;
        unsigned el;
        uint64_t expected;
    };
    const Row rows[] = {{"write at NS EL0", 0, 0}, {"write at NS EL1", 1, 1}};
    for (const Row &row : rows) {
        SCOPED_TRACE(row.name);
        remake();
        wr(PMT_REG_PMEVTYPER_EL0, PMT_EV_SW_INCR | U | NSH, 0);
        wr(PMT_REG_PMEVCNTR_EL0, 0, 0);
        wr(PMT_REG_PMCNTENSET_EL0, bit(0));
        wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
        wr(PMT_REG_PMCR_EL0, kE);
        at(row.el);
        wr(PMT_REG_PMSWINC_EL0, bit(0));
        at(2);
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), row.expected);
    }
}

} // namespace
