// Register encodings, read-back, reserved bits, write-only and read-only registers, and the
// side effects of PMCR, PMSWINC, PMZR and the selector registers (D24.5).
#include "pe_fixture.h"

namespace
{

class Registers : public PeTest
{
};

TEST_F(Registers, EncodingsRoundTripAndFamiliesDecodeTheirIndex)
{
    for (unsigned n = 0; n < 31; n++) {
        pmt_reg_ref cnt = pmt_sysreg_decode(enc(PMT_REG_PMEVCNTR_EL0, n));
        EXPECT_EQ(cnt.id, PMT_REG_PMEVCNTR_EL0);
        EXPECT_EQ(cnt.index, n);
        pmt_reg_ref typer = pmt_sysreg_decode(enc(PMT_REG_PMEVTYPER_EL0, n));
        EXPECT_EQ(typer.id, PMT_REG_PMEVTYPER_EL0);
        EXPECT_EQ(typer.index, n);
    }
    // PMEVCNTR<n>: CRm = 0b10:n[4:3], op2 = n[2:0]; n = 13 -> CRm 0b1001, op2 0b101.
    pmt_sysreg e = enc(PMT_REG_PMEVCNTR_EL0, 13);
    EXPECT_EQ(e.crn, 14);
    EXPECT_EQ(e.crm, 0b1001);
    EXPECT_EQ(e.op2, 0b101);
}

TEST_F(Registers, PmevtyperThirtyOneIsPmccfiltrAndPmevcntrThirtyOneIsNotARegister)
{
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(3, 3, 14, 15, 7)).id, PMT_REG_PMCCFILTR_EL0);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(3, 3, 14, 11, 7)).id, PMT_REG_NONE);
}

TEST_F(Registers, AnEncodingThatIsNotOursIsNotMine)
{
    make();
    uint64_t v = 0;
    EXPECT_EQ(pmt_pe_sysreg_read(pe, PMT_SYSREG(3, 0, 1, 0, 0), &v), PMT_ACCESS_NOT_MINE); // SCTLR
    EXPECT_EQ(pmt_pe_sysreg_write(pe, PMT_SYSREG(3, 0, 1, 0, 0), 1), PMT_ACCESS_NOT_MINE);
}

TEST_F(Registers, PmcrReadBackKeepsWritableFieldsAndReportsN)
{
    cfg.num_counters = 11;
    make();
    wr(PMT_REG_PMCR_EL0, ~uint64_t{0});
    uint64_t pmcr = rd(PMT_REG_PMCR_EL0);
    // PMUv3p7 with AArch32: E, D, DP, LC, LP, FZO writable; P, C write-only (RAZ); X RAZ/WI
    // (no export bus); FZS RES0 without FEAT_SPEv1p2; IMP and IDCODE RAZ from PMUv3p7.
    uint64_t expect = PMT_MASK(PMCR, E) | PMT_MASK(PMCR, D) | PMT_MASK(PMCR, DP) |
                      PMT_MASK(PMCR, LC) | PMT_MASK(PMCR, LP) | PMT_MASK(PMCR, FZO) |
                      PMT_PUT(PMCR, N, 11);
    EXPECT_EQ(pmcr, expect);
}

TEST_F(Registers, PmcrLcIsResOneAndDResZeroWithoutAArch32)
{
    cfg.have_aarch32 = false;
    make();
    wr(PMT_REG_PMCR_EL0, 0);
    uint64_t pmcr = rd(PMT_REG_PMCR_EL0);
    EXPECT_EQ(PMT_GET(PMCR, LC, pmcr), 1u);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, D));
    EXPECT_EQ(PMT_GET(PMCR, D, rd(PMT_REG_PMCR_EL0)), 0u);
}

TEST_F(Registers, PmcrImpAndIdcodeReadBeforePmuv3p7)
{
    cfg.pmu_version = PMT_PMUV3P5;
    cfg.pmcr_imp = 0x41;
    cfg.pmcr_idcode = 0x12;
    make();
    uint64_t pmcr = rd(PMT_REG_PMCR_EL0);
    EXPECT_EQ(PMT_GET(PMCR, IMP, pmcr), 0x41u);
    EXPECT_EQ(PMT_GET(PMCR, IDCODE, pmcr), 0x12u);
    EXPECT_EQ(PMT_GET(PMCR, FZO, pmcr), 0u);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, FZO)); // RES0 before PMUv3p7
    EXPECT_EQ(PMT_GET(PMCR, FZO, rd(PMT_REG_PMCR_EL0)), 0u);
}

// RNNBYQ (and the D13.5 note on PMCR.N): HPMN changes what EL1 and EL0 see, not what EL2 and
// EL3 see.
TEST_F(Registers, RNNBYQ_PmcrNReadsHpmnAtEl1AndEl0OnlyWhenEl2IsEnabled)
{
    cfg.num_counters = 8;
    make();
    wr_high(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 3));
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 8u); // EL2
    at(1);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 3u);
    at(1, PMT_SS_SECURE, false); // Secure EL1, Secure EL2 not enabled
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 8u);
    at(3, PMT_SS_ROOT);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 8u);
}

TEST_F(Registers, PmcrPAtEl1ZeroesOnlyTheFirstRangeAndLeavesOverflowFlags)
{
    cfg.num_counters = 4;
    make();
    wr_high(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 2));
    for (unsigned n = 0; n < 4; n++)
        wr(PMT_REG_PMEVCNTR_EL0, 100 + n, n);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    at(1);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, P));
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 2), 102u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 103u);
    EXPECT_EQ(rd(PMT_REG_PMOVSSET_EL0), bit(0));
}

TEST_F(Registers, PmcrPAtEl2ZeroesBothRangesAndCZeroesTheCycleCounter)
{
    cfg.num_counters = 4;
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 2));
    for (unsigned n = 0; n < 4; n++)
        wr(PMT_REG_PMEVCNTR_EL0, 100 + n, n);
    wr(PMT_REG_PMCCNTR_EL0, 555);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, P));
    for (unsigned n = 0; n < 4; n++)
        EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, n), 0u) << n;
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 555u);
    wr(PMT_REG_PMCR_EL0, PMT_MASK(PMCR, C));
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
}

TEST_F(Registers, SetAndClearRegistersShareOneStateAndIgnoreUnimplementedCounters)
{
    cfg.num_counters = 4;
    make();
    wr(PMT_REG_PMCNTENSET_EL0, ~uint64_t{0});
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0xFu | C);
    EXPECT_EQ(rd(PMT_REG_PMCNTENCLR_EL0), 0xFu | C);
    wr(PMT_REG_PMCNTENCLR_EL0, bit(1) | C);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0xDu);
    wr(PMT_REG_PMINTENSET_EL1, bit(3) | bit(7));
    EXPECT_EQ(rd(PMT_REG_PMINTENCLR_EL1), bit(3));
    wr(PMT_REG_PMOVSSET_EL0, bit(2) | F0); // F0 without FEAT_PMUv3_ICNTR is RES0
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), bit(2));
}

TEST_F(Registers, PmevtyperKeepsOnlyFieldsOfImplementedFeatures)
{
    cfg.have_el3 = false;
    make();
    wr(PMT_REG_PMEVTYPER_EL0, ~uint64_t{0}, 0);
    // No EL3: NSK, NSU, M are RES0; no SEL2, RME, SME, SEBEP, MTPMU, threshold: RES0.
    uint64_t expect = PMT_MASK(PMEVTYPER, P) | PMT_MASK(PMEVTYPER, U) | PMT_MASK(PMEVTYPER, NSH) |
                      PMT_MASK(PMEVTYPER, evtCount);
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 0), expect);
}

TEST_F(Registers, EventNumbersAreTenBitsWithoutPmuv3p1)
{
    cfg.pmu_version = PMT_PMUV3;
    make();
    wr(PMT_REG_PMEVTYPER_EL0, 0x4011, 0);
    EXPECT_EQ(PMT_GET(PMEVTYPER, evtCount, rd(PMT_REG_PMEVTYPER_EL0, 0)), 0x11u);
}

TEST_F(Registers, EventCountersAreThirtyTwoBitsWithoutPmuv3p5)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 0x123456789ull, 0);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0x23456789u);
    wr(PMT_REG_PMCCNTR_EL0, 0x123456789ull); // the cycle counter is always 64 bits
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0x123456789u);
}

TEST_F(Registers, WriteOnlyAndReadOnlyRegistersAreUndefinedTheOtherWay)
{
    make();
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMSWINC_EL0, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMCEID0_EL0, 0), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMCEID1_EL0, 0), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMMIR_EL1, 0), PMT_ACCESS_UNDEFINED);
}

TEST_F(Registers, RegistersOfAbsentFeaturesAreUndefined)
{
    cfg.pmu_version = PMT_PMUV3P1;
    make();
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMMIR_EL1, &v), PMT_ACCESS_UNDEFINED);   // PMUv3p4
    EXPECT_EQ(read(PMT_REG_PMUACR_EL1, &v), PMT_ACCESS_UNDEFINED);  // PMUv3p9
    EXPECT_EQ(write(PMT_REG_PMZR_EL0, 1), PMT_ACCESS_UNDEFINED);    // PMUv3p9
    EXPECT_EQ(read(PMT_REG_PMICNTR_EL0, &v), PMT_ACCESS_UNDEFINED); // ICNTR
}

TEST_F(Registers, PmmirReadsTheConfiguredValue)
{
    cfg.pmmir = PMT_PUT(PMMIR, SLOTS, 8) | PMT_PUT(PMMIR, BUS_WIDTH, 6);
    make();
    EXPECT_EQ(rd(PMT_REG_PMMIR_EL1), cfg.pmmir);
}

TEST_F(Registers, SelectorReachesEventCountersAndPmccfiltr)
{
    make();
    wr(PMT_REG_PMSELR_EL0, 3);
    wr(PMT_REG_PMXEVTYPER_EL0, PMT_EV_BR_RETIRED);
    wr(PMT_REG_PMXEVCNTR_EL0, 77);
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 3), PMT_EV_BR_RETIRED);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 77u);
    wr(PMT_REG_PMSELR_EL0, 31); // SEL = 31 selects PMCCFILTR_EL0 through PMXEVTYPER_EL0
    wr(PMT_REG_PMXEVTYPER_EL0, PMT_MASK(PMEVTYPER, U));
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), PMT_MASK(PMEVTYPER, U));
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMXEVCNTR_EL0, &v), PMT_ACCESS_UNDEFINED);
}

TEST_F(Registers, SelectingAnUnimplementedCounterIsUndefined)
{
    cfg.num_counters = 4;
    make();
    wr(PMT_REG_PMSELR_EL0, 4);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMXEVCNTR_EL0, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMXEVTYPER_EL0, 0), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 4), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMEVTYPER_EL0, 0, 30), PMT_ACCESS_UNDEFINED);
}

TEST_F(Registers, PmswincIncrementsCountersCountingSwIncr)
{
    make();
    program(0, PMT_EV_SW_INCR);
    program(1, PMT_EV_SW_INCR);
    program(2, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMCR_EL0, 1);
    at(1);
    wr(PMT_REG_PMSWINC_EL0, bit(0) | bit(2));
    wr(PMT_REG_PMSWINC_EL0, bit(0));
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 2u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 0u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 2), 0u); // not counting SW_INCR
}

TEST_F(Registers, PmswincAtEl1IgnoresCountersReservedForEl2)
{
    cfg.num_counters = 4;
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 2) | PMT_MASK(MDCR_EL2, HPME));
    program(3, PMT_EV_SW_INCR);
    wr(PMT_REG_PMCR_EL0, 1);
    at(1);
    wr(PMT_REG_PMSWINC_EL0, bit(3));
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 0u);
    wr(PMT_REG_PMSWINC_EL0, bit(3));
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 3), 1u);
}

TEST_F(Registers, PmzrZeroesSelectedCounters)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 5, 0);
    wr(PMT_REG_PMEVCNTR_EL0, 6, 1);
    wr(PMT_REG_PMCCNTR_EL0, 7);
    wr(PMT_REG_PMZR_EL0, bit(1) | C);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 5u);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 0u);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0u);
}

TEST_F(Registers, PmicfiltrReadsInstRetiredAsItsFixedEvent)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr(PMT_REG_PMICFILTR_EL0, 0);
    EXPECT_EQ(PMT_GET(PMEVTYPER, evtCount, rd(PMT_REG_PMICFILTR_EL0)), 0x0008u);
}

TEST_F(Registers, MdcrEl2KeepsPmuFieldsAndWarnsOnAnOutOfRangeHpmn)
{
    cfg.num_counters = 6;
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 9));
    EXPECT_EQ(PMT_GET(MDCR_EL2, HPMN, rd(PMT_REG_MDCR_EL2)), 9u);
    ASSERT_FALSE(log_lines.empty());
    EXPECT_NE(log_lines.back().find("HPMN"), std::string::npos);
    at(1);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 6u); // behaves as N
}

TEST_F(Registers, FormatNamesFields)
{
    char buf[128];
    pmt_reg_format({PMT_REG_MDCR_EL2, 0}, PMT_PUT(MDCR_EL2, HPMN, 4) | PMT_MASK(MDCR_EL2, HPME),
                   buf, sizeof buf);
    EXPECT_STREQ(buf, "MDCR_EL2 = 0x84 {HPMN=4, HPME=1}");
    char tiny[8];
    size_t want = pmt_reg_format({PMT_REG_PMCR_EL0, 0}, 1, tiny, sizeof tiny);
    EXPECT_EQ(want, std::string("PMCR_EL0 = 0x1 {E=1}").size());
    EXPECT_STREQ(tiny, "PMCR_EL");
}

} // namespace
