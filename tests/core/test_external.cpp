// The external PMU frame (I5.2 EXT32 and EXT64 layouts, I5.3) and, through PMCCR, the third
// counter range (FEAT_PMUv3_EXTPMN).
#include "pe_fixture.h"

namespace
{

class External : public PeTest
{
  protected:
    uint64_t ext_rd(uint32_t off, unsigned size = 4, pmt_security from = PMT_SS_SECURE)
    {
        uint64_t v = 0xDEAD;
        pmt_ext_status s = pmt_pmu_ext_read(pe, off, size, from, true, &v);
        EXPECT_EQ(s, PMT_EXT_OK) << "read 0x" << std::hex << off << ": " << pmt_ext_status_name(s);
        return v;
    }
    void ext_wr(uint32_t off, uint64_t v, unsigned size = 4, pmt_security from = PMT_SS_SECURE)
    {
        pmt_ext_status s = pmt_pmu_ext_write(pe, off, size, from, true, v);
        EXPECT_EQ(s, PMT_EXT_OK) << "write 0x" << std::hex << off << ": " << pmt_ext_status_name(s);
    }
    // PMCCR.EPMN = epmn (counters >= epmn are the third range) and EPME.
    void pmccr(unsigned epmn, bool epme)
    {
        ext_wr(0xE58, PMT_PUT(PMCCR, EPMN, epmn) | (epme ? PMT_MASK(PMCCR, EPME) : 0));
    }
};

TEST_F(External, IdentificationRegistersOfTheExt32Layout)
{
    make();
    EXPECT_EQ(ext_rd(0xFBC), 0x47702A16u); // PMDEVARCH: Arm, PRESENT, PMUv3, ARCHPART 0xA16
    EXPECT_EQ(ext_rd(0xFCC), 0x16u);       // PMDEVTYPE: processor, performance monitor
    EXPECT_EQ(ext_rd(0xFF0), 0x0Du);       // CIDR0..3: a CoreSight component
    EXPECT_EQ(ext_rd(0xFF4), 0x90u);
    EXPECT_EQ(ext_rd(0xFF8), 0x05u);
    EXPECT_EQ(ext_rd(0xFFC), 0xB1u);
    EXPECT_EQ(ext_rd(0xE08), 0x43Bu); // PMIIDR default: implementer Arm
}

TEST_F(External, Ext64LayoutReportsArchpartA26)
{
    cfg.ext_layout = PMT_EXT64;
    make();
    EXPECT_EQ(ext_rd(0xFBC), 0x47702A26u);
}

TEST_F(External, PmcfgrReportsCountersSizeAndFeatures)
{
    cfg.num_counters = 6;
    make();
    uint64_t v = ext_rd(0xE00);
    EXPECT_EQ(v & 0xFF, 6u);       // N
    EXPECT_EQ(v >> 8 & 0x3F, 63u); // SIZE: 64-bit counters
    EXPECT_EQ(v >> 14 & 1, 1u);    // CC
    EXPECT_EQ(v >> 15 & 1, 1u);    // CCD: PMCR.D exists (AArch32)
    EXPECT_EQ(v >> 21 & 1, 1u);    // FZO with PMUv3p7
}

TEST_F(External, PmcfgrNCountsTheInstructionCounter)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    cfg.num_counters = 6;
    make();
    EXPECT_EQ(ext_rd(0xE00) & 0xFF, 7u);
}

TEST_F(External, Ext32CountersAreTwoWords)
{
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 0x1122334455667788ull, 2);
    EXPECT_EQ(ext_rd(0x010), 0x55667788u);
    EXPECT_EQ(ext_rd(0x014), 0x11223344u);
    ext_wr(0x014, 0xAABBCCDD);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 2), 0xAABBCCDD55667788ull);
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x010, 8, PMT_SS_SECURE, true, &v), PMT_EXT_BAD_SIZE);
}

TEST_F(External, Ext64CountersTakeDoublewordAccesses)
{
    cfg.ext_layout = PMT_EXT64;
    make();
    ext_wr(0x0F8, 0x0123456789ABCDEFull, 8);
    EXPECT_EQ(rd(PMT_REG_PMCCNTR_EL0), 0x0123456789ABCDEFull);
    EXPECT_EQ(ext_rd(0x0F8, 8), 0x0123456789ABCDEFull);
    EXPECT_EQ(ext_rd(0x0FC, 4), 0x01234567u);
}

TEST_F(External, Ext32EventTypeHalvesAreApart)
{
    cfg.feat_sebep = false;
    make();
    ext_wr(0x408, PMT_EV_BR_RETIRED | PMT_MASK(PMEVTYPER, P)); // PMEVTYPER2[31:0]
    EXPECT_EQ(rd(PMT_REG_PMEVTYPER_EL0, 2), PMT_EV_BR_RETIRED | PMT_MASK(PMEVTYPER, P));
    ext_wr(0x47C, PMT_MASK(PMEVTYPER, U)); // PMCCFILTR[31:0]
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0), PMT_MASK(PMEVTYPER, U));
}

TEST_F(External, ControlsAndPmcrAtTheirExt32Offsets)
{
    make();
    ext_wr(0xC00, 0x5); // PMCNTENSET
    ext_wr(0xC04, 0x1); // PMCNTENSET[63:32]: F0, RES0 without ICNTR
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0x5u);
    ext_wr(0xC20, 0x1); // PMCNTENCLR
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0x4u);
    ext_wr(0xE04, PMT_MASK(PMCR, E)); // PMCR
    EXPECT_EQ(PMT_GET(PMCR, E, rd(PMT_REG_PMCR_EL0)), 1u);
    EXPECT_EQ(ext_rd(0xC80), 0u); // PMOVSCLR
}

TEST_F(External, PmceidWordsSplitTheTwoRegisters)
{
    cfg.common_events[0] = 0xAAAAAAAA55555555ull;
    cfg.common_events[1] = 0x0000000300000001ull;
    make();
    EXPECT_EQ(ext_rd(0xE24), 0xAAAAAAAAu); // PMCEID1: events 0x20..0x3F
    EXPECT_EQ(ext_rd(0xE2C), 0x3u);        // PMCEID3: events 0x4020..0x403F
    EXPECT_EQ(ext_rd(0xE28) & 1, 1u);      // PMCEID2: 0x4000
}

TEST_F(External, HolesAndBadSizesAreAnswered)
{
    cfg.num_counters = 4;
    make();
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x020, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xD00, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x1000, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x002, 4, PMT_SS_SECURE, true, &v), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x000, 2, PMT_SS_SECURE, true, &v), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(pmt_pmu_ext_write(pe, 0xE58, 4, PMT_SS_SECURE, true, 1), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pmt_pmu_ext_read(nullptr, 0, 4, PMT_SS_SECURE, true, &v), PMT_EXT_ERROR);
}

TEST_F(External, ReadsHaveNoSideEffects)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(1);
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_TRUE(pmt_pmu_irq_level(pe));
    for (uint32_t off = 0; off < 0x1000; off += 4) {
        uint64_t v;
        pmt_pmu_ext_read(pe, off, 4, PMT_SS_SECURE, true, &v);
    }
    EXPECT_TRUE(pmt_pmu_irq_level(pe));
    EXPECT_EQ(ovs(), bit(0));
}

TEST_F(External, SoftwareLockIgnoresMemoryMappedWritesUntilUnlocked)
{
    cfg.ext_software_lock = true;
    make();
    EXPECT_EQ(ext_rd(0xFB4), 0x3u); // PMLSR: SLI, SLK (locked out of reset)
    ext_wr(0xC00, 0x1);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0u);
    ext_wr(0xFB0, 0xC5ACCE55);
    EXPECT_EQ(ext_rd(0xFB4), 0x1u);
    ext_wr(0xC00, 0x1);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 1u);
    // An access through the external debug interface, not memory-mapped, ignores the lock.
    ext_wr(0xFB0, 0);
    EXPECT_EQ(pmt_pmu_ext_write(pe, 0xC00, 4, PMT_SS_SECURE, false, 0x2), PMT_EXT_OK);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 3u);
}

TEST_F(External, WithoutTheSoftwareLockPmlsrReadsZero)
{
    make();
    EXPECT_EQ(ext_rd(0xFB4), 0u);
}

TEST_F(External, EpmadRefusesNonSecureExternalAccess)
{
    make();
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EPMAD));
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xC00, 4, PMT_SS_NONSECURE, true, &v), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xC00, 4, PMT_SS_SECURE, true, &v), PMT_EXT_OK);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xFBC, 4, PMT_SS_NONSECURE, true, &v), PMT_EXT_OK); // ID
}

class ThirdRange : public External
{
  protected:
    void SetUp() override
    {
        cfg.feat_extpmn = true;
        cfg.num_counters = 6;
    }
};

// RZCCDD: with FEAT_PMUv3_EXTPMN, PMCR_EL0.N reads EPMN at EL2 and EL3, and at EL1 and EL0
// when EL2 is disabled.
TEST_F(ThirdRange, RZCCDD_PmccrEpmnShrinksWhatSelfHostedSoftwareSees)
{
    make();
    pmccr(4, false);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 4u); // at EL2
    EXPECT_EQ(ext_rd(0xE00) & 0xFF, 4u);                   // PMCFGR.N
    at(1, PMT_SS_SECURE, false);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 4u);
    at(2);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 4), PMT_ACCESS_UNDEFINED);
}

// RMFYQC: with FEAT_PMUv3_EXTPMN, an MDCR_EL2.HPMN above EPMN reads as EPMN and behaves as
// EPMN (also in PMCR_EL0.N at EL1); this is defined behaviour, so nothing is logged.
TEST_F(ThirdRange, RMFYQC_HpmnAboveEpmnReadsAndActsAsEpmn)
{
    make();
    pmccr(4, false);
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 5));
    EXPECT_EQ(PMT_GET(MDCR_EL2, HPMN, rd(PMT_REG_MDCR_EL2)), 4u);
    at(1);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 4u);
    EXPECT_TRUE(log_lines.empty());
}

// Table D13-4, rows with PMCCR.EPME: the third range is enabled by EPME and PMCNTENSET alone.
TEST_F(ThirdRange, RKYBQW_Table_D13_4_ThirdRangeFollowsEpmeOnly)
{
    struct Row {
        bool epme, hpme, e, counts;
    } rows[] = {
        {false, false, false, false}, {false, false, true, false}, {false, true, false, false},
        {false, true, true, false},   {true, false, false, true},  {true, false, true, true},
        {true, true, false, true},    {true, true, true, true},
    };
    for (const Row &row : rows) {
        remake();
        wr(PMT_REG_MDCR_EL2,
           PMT_PUT(MDCR_EL2, HPMN, 2) | (row.hpme ? PMT_MASK(MDCR_EL2, HPME) : 0));
        pmccr(4, row.epme);
        ext_wr(0x410, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, NSH)); // PMEVTYPER4
        ext_wr(0xC00, bit(4));
        pmcr(row.e ? 1 : 0);
        count(PMT_EV_INST_RETIRED, 9);
        EXPECT_EQ(ext_rd(0x020), row.counts ? 9u : 0u)
            << "EPME=" << row.epme << " HPME=" << row.hpme << " E=" << row.e;
    }
}

TEST_F(ThirdRange, ThirdRangeCountersAreReachableOnlyByAMostSecureAccess)
{
    make();
    pmccr(4, true);
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x020, 4, PMT_SS_NONSECURE, true, &v), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x020, 4, PMT_SS_SECURE, true, &v), PMT_EXT_OK);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x018, 4, PMT_SS_NONSECURE, true, &v), PMT_EXT_OK);
}

// RQZJKS: a third-range counter overflows at bit 63 whatever PMCR.LP and MDCR_EL2.HLP say, and
// (RMZPBW) its overflow never generates CHAIN.
TEST_F(ThirdRange, RQZJKS_ThirdRangeOverflowsAtBit63AndNeverChains)
{
    make();
    pmccr(4, true);
    ext_wr(0x410, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, NSH)); // PMEVTYPER4
    ext_wr(0x414, PMT_EV_CHAIN | PMT_MASK(PMEVTYPER, NSH));        // PMEVTYPER5
    ext_wr(0x020, 0xFFFFFFFF);                                     // PMEVCNTR4[31:0]
    ext_wr(0xC00, bit(4) | bit(5));
    pmcr(1); // LP = 0
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ext_rd(0x020), 0u);
    EXPECT_EQ(ext_rd(0x024), 1u); // bit 32 set: no overflow at 31
    EXPECT_EQ(ext_rd(0xC80), 0u);
    EXPECT_EQ(ext_rd(0x028), 0u); // no CHAIN
}

// RMZPBW: freezing controls and the Secure-state prohibition do not affect the third range.
TEST_F(ThirdRange, RMZPBW_ThirdRangeIgnoresFreezeAndProhibition)
{
    make();
    pmccr(4, true);
    ext_wr(0x410, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, NSH));
    ext_wr(0xC00, bit(4) | bit(0));
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    pmcr(PMT_MASK(PMCR, E) | PMT_MASK(PMCR, FZO));
    count(PMT_EV_INST_RETIRED, 1); // counter 0 overflows: the first range freezes
    count(PMT_EV_INST_RETIRED, 4);
    EXPECT_EQ(cnt(0), 0x100000000u); // frozen right after its overflow (IFYVTD: bit 32 carries)
    EXPECT_EQ(ext_rd(0x020), 5u);
    at(1, PMT_SS_SECURE, false); // Secure EL1 with MDCR_EL3.SPME = 0: prohibited
    wr(PMT_REG_PMOVSCLR_EL0, bit(0));
    ext_wr(0x410, PMT_EV_INST_RETIRED);
    count(PMT_EV_INST_RETIRED, 3);
    EXPECT_EQ(ext_rd(0x020), 8u);
}

TEST_F(ThirdRange, AReservedEpmnBehavesAsNAndIsLogged)
{
    make();
    pmccr(9, false);
    EXPECT_EQ(PMT_GET(PMCR, N, rd(PMT_REG_PMCR_EL0)), 6u);
    ASSERT_FALSE(log_lines.empty());
    EXPECT_NE(log_lines.back().find("EPMN"), std::string::npos);
}

} // namespace

namespace
{

class External64 : public PeTest
{
  protected:
    void SetUp() override
    {
        cfg.ext_layout = PMT_EXT64;
        cfg.num_counters = 6;
    }
    uint64_t ext_rd(uint32_t off, unsigned size = 8)
    {
        uint64_t v = 0xDEAD;
        EXPECT_EQ(pmt_pmu_ext_read(pe, off, size, PMT_SS_SECURE, true, &v), PMT_EXT_OK);
        return v;
    }
    void ext_wr(uint32_t off, uint64_t v, unsigned size = 8)
    {
        EXPECT_EQ(pmt_pmu_ext_write(pe, off, size, PMT_SS_SECURE, true, v), PMT_EXT_OK);
    }
};

// PMCNTEN, PMINTEN and PMOVS (FEAT_PMUv3_EXT64, I5.3.18, I5.3.37, I5.3.44) read and write the
// whole enable, interrupt-enable and overflow state at once.
TEST_F(External64, PmcntenWritesTheWholeEnableState)
{
    make();
    wr(PMT_REG_PMCNTENSET_EL0, 0x3F);
    ext_wr(0xC10, 0x5 | C);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0x5 | C);
    EXPECT_EQ(ext_rd(0xC10), 0x5 | C);
}

TEST_F(External64, PmintenAndPmovsAreTheirStates)
{
    make();
    ext_wr(0xC50, 0x2);
    EXPECT_EQ(rd(PMT_REG_PMINTENSET_EL1), 0x2u);
    wr(PMT_REG_PMOVSSET_EL0, 0x1);
    ext_wr(0xC90, 0x4, 4); // lower half only: bit 0 cleared, bit 2 set
    EXPECT_EQ(rd(PMT_REG_PMOVSSET_EL0), 0x4u);
    EXPECT_EQ(ext_rd(0xC90), 0x4u);
}

TEST_F(External64, WholeRegistersAreNotInTheExt32Layout)
{
    cfg.ext_layout = PMT_EXT32;
    make();
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xC10, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
}

// PMCGCR0 (I5.3.10): CG0NC is the event counters plus the cycle counter, CG1NC the instruction
// counter; present only with FEAT_PMUv3_ICNTR.
TEST_F(External64, PmcgcrCountsTheCounterGroups)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    EXPECT_EQ(ext_rd(0xCE0), 0x107u);
}

TEST_F(External64, PmcgcrNeedsTheInstructionCounter)
{
    make();
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xCE0, 8, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
}

} // namespace

// The PMU snapshot registers in the frame (I5.3.5, I5.3.29, I5.3.34, I5.3.54): PMEVCNTSVR<n> at
// 0x600 + 8n, PMCCNTSVR at 0x6F8, PMICNTSVR at 0x700, PMSSCR at 0xE30; read-only but PMSSCR.
class ExternalSnapshot : public External
{
  protected:
    void SetUp() override
    {
        cfg.feat_ss = true;
        use_icntr();
        cfg.ext_layout = PMT_EXT64;
        make();
        // Capture events allowed by EL3; EPMSSAD = 0b11: every external access allowed.
        wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMSSE, 3) | PMT_PUT(MDCR_EL3, EPMSSAD, 3) |
                                      PMT_MASK(MDCR_EL3, EnPM2) | PMT_MASK(MDCR_EL3, EnPMSS));
        program(2, PMT_EV_INST_RETIRED, 0x1234);
        cycle_counter(0x5678);
        instruction_counter(0x9ABC);
        pmcr(PMT_MASK(PMCR, E));
    }
    void set_pe_state(bool os_lock, bool double_lock, bool powered_down)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.os_lock = os_lock;
        s.double_lock = double_lock;
        s.powered_down = powered_down;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
};

// An external write of PMSSCR.SS = 1 is a Capture event (RSCLCQ); the saved values are then in
// the frame, 64-bit and as 32-bit halves.
TEST_F(ExternalSnapshot, RSCLCQ_ExternalPmsscrWriteCaptures)
{
    EXPECT_EQ(ext_rd(0xE30, 8), PMT_MASK(PMSSCR, NC)); // no capture yet
    ext_wr(0xE30, 1, 8);
    EXPECT_EQ(ext_rd(0xE30, 8), 0u); // {NC, SS} = {0, 0}
    EXPECT_EQ(ext_rd(0x600 + 8 * 2, 8), 0x1234u);
    EXPECT_EQ(ext_rd(0x6F8, 8), 0x5678u);
    EXPECT_EQ(ext_rd(0x700, 8), 0x9ABCu);
    EXPECT_EQ(ext_rd(0x6F8, 4), 0x5678u);
    EXPECT_EQ(ext_rd(0x6FC, 4), 0u);
}

// The saved-value registers are read-only in the frame: a write changes nothing.
TEST_F(ExternalSnapshot, SavedValueRegistersAreReadOnly)
{
    ext_wr(0xE30, 1, 8);
    ext_wr(0x6F8, 0xFFFF, 8);
    EXPECT_EQ(ext_rd(0x6F8, 8), 0x5678u);
}

// IKGJMV: the OS Lock does not affect the snapshot registers; the OS Double Lock and a powered
// down core give an error response (I5.3.5 "Accessing").
TEST_F(ExternalSnapshot, IKGJMV_OsLockDoesNotApplyDoubleLockAndPowerDo)
{
    ext_wr(0xE30, 1, 8);
    set_pe_state(true, false, false);
    EXPECT_EQ(ext_rd(0x6F8, 8), 0x5678u);
    uint64_t v;
    set_pe_state(false, true, false);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x6F8, 8, PMT_SS_SECURE, true, &v), PMT_EXT_ERROR);
    set_pe_state(false, false, true);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xE30, 8, PMT_SS_SECURE, true, &v), PMT_EXT_ERROR);
}

// AllowExternalPMSSAccess: MDCR_EL3.EPMSSAD = 0b00 lets only Secure accesses through (no RME);
// MDCR_EL3.EPMAD does not apply to the snapshot registers.
TEST_F(ExternalSnapshot, EpmssadDecidesNotEpmad)
{
    uint64_t v;
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMSSE, 3) | PMT_MASK(MDCR_EL3, EPMAD) |
                                  PMT_PUT(MDCR_EL3, EPMSSAD, 3) | PMT_MASK(MDCR_EL3, EnPMSS));
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x6F8, 8, PMT_SS_NONSECURE, true, &v), PMT_EXT_OK);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x0F8, 8, PMT_SS_NONSECURE, true, &v), PMT_EXT_ERROR);
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMSSE, 3) | PMT_MASK(MDCR_EL3, EnPMSS));
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x6F8, 8, PMT_SS_NONSECURE, true, &v), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x6F8, 8, PMT_SS_SECURE, true, &v), PMT_EXT_OK);
}

// Without FEAT_PMUv3_SS the offsets are holes.
TEST_F(External, SnapshotOffsetsAreHolesWithoutFeatSs)
{
    make();
    uint64_t v;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x6F8, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0xE30, 4, PMT_SS_SECURE, true, &v), PMT_EXT_NO_REGISTER);
}

// PMDEVID (I5.3.26): PMSS [7:4] = 1 with FEAT_PMUv3_SS, EXTPMN [11:8] = 1 with EXTPMN.
TEST_F(External, PmdevidReportsSnapshotsAndExtpmn)
{
    cfg.feat_ss = true;
    cfg.feat_extpmn = true;
    make();
    EXPECT_EQ(ext_rd(0xFC8) & 0xFF0, 0x110u);
}

// I5.3 "Accessing" of the counters and controls: the OS Double Lock or a powered-down core give
// the error response, and so does the OS Lock.
class ExternalLocks : public External
{
  protected:
    void locks(bool os_lock, bool double_lock, bool powered_down)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.os_lock = os_lock;
        s.double_lock = double_lock;
        s.powered_down = powered_down;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
    pmt_ext_status read_status(uint32_t off, pmt_security from = PMT_SS_SECURE)
    {
        uint64_t v;
        return pmt_pmu_ext_read(pe, off, 4, from, true, &v);
    }
};

TEST_F(ExternalLocks, CountersRefusedUnderEachLockAndPowerDown)
{
    make();
    for (int which = 0; which < 3; which++) {
        locks(which == 0, which == 1, which == 2);
        EXPECT_EQ(read_status(0x000), PMT_EXT_ERROR) << which; // PMEVCNTR0
        EXPECT_EQ(read_status(0xE04), PMT_EXT_ERROR) << which; // PMCR
        EXPECT_EQ(read_status(0xE00), PMT_EXT_ERROR) << which; // PMCFGR
    }
    locks(false, false, false);
    EXPECT_EQ(read_status(0x000), PMT_EXT_OK);
}

// The identification registers answer whatever the locks (no FEAT_DoPD).
TEST_F(ExternalLocks, IdentificationRegistersIgnoreLocks)
{
    make();
    locks(true, true, true);
    EXPECT_EQ(read_status(0xFBC), PMT_EXT_OK); // PMDEVARCH
    EXPECT_EQ(read_status(0xFA8), PMT_EXT_OK); // PMDEVAFF
    EXPECT_EQ(read_status(0xFF0), PMT_EXT_OK); // CIDR0
}

// PMCCR.OSLO (FEAT_PMUv3_EXTPMN): a Most secure access passes the OS Lock; others do not. PMCCR
// itself is not subject to the OS Lock (only the Double Lock and power).
TEST_F(ExternalLocks, PmccrOsloLetsMostSecureThroughTheOsLock)
{
    cfg.feat_extpmn = true;
    make();
    locks(true, false, false);
    EXPECT_EQ(read_status(0x000), PMT_EXT_ERROR);
    ext_wr(0xE58, PMT_MASK(PMCCR, OSLO) | PMT_PUT(PMCCR, EPMN, cfg.num_counters));
    EXPECT_EQ(read_status(0x000, PMT_SS_SECURE), PMT_EXT_OK);
    EXPECT_EQ(read_status(0x000, PMT_SS_NONSECURE), PMT_EXT_ERROR);
    locks(false, true, false);
    EXPECT_EQ(read_status(0xE58), PMT_EXT_ERROR);
}
