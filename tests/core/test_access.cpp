// Who may access the PMU registers: the accessibility pseudocode of D24.5 (PMUSERENR_EL0,
// MDCR_EL2.TPM/TPMCR, MDCR_EL3.TPM, HPMN, EL1-only registers).
#include "pe_fixture.h"

namespace
{

class Access : public PeTest
{
};

TEST_F(Access, El0WithoutPmuserenrTrapsToEl1)
{
    make();
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMCCNTR_EL0, &v), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 0), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(write(PMT_REG_PMSWINC_EL0, 1), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(write(PMT_REG_PMCNTENSET_EL0, 1), PMT_ACCESS_TRAP_EL1);
}

TEST_F(Access, El0TrapsToEl2WhenHcrTgeIsSet)
{
    make();
    at(0, PMT_SS_NONSECURE, true, true);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_TRAP_EL2);
}

TEST_F(Access, PmuserenrEnOpensEl0Access)
{
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMCNTENSET_EL0, 1), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMEVCNTR_EL0, 1, 0), PMT_ACCESS_OK);
}

TEST_F(Access, PmuserenrCrAllowsOnlyCycleCounterReads)
{
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, CR));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCCNTR_EL0, &v), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMCCNTR_EL0, 0), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 0), PMT_ACCESS_TRAP_EL1);
}

TEST_F(Access, PmuserenrErAllowsEventCounterReadsAndPmselr)
{
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, ER));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 1), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMSELR_EL0, 1), PMT_ACCESS_OK);
    EXPECT_EQ(read(PMT_REG_PMXEVCNTR_EL0, &v), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMEVCNTR_EL0, 0, 1), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMCCNTR_EL0, &v), PMT_ACCESS_TRAP_EL1);
}

TEST_F(Access, PmuserenrSwAllowsOnlyPmswinc)
{
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, SW));
    at(0);
    uint64_t v;
    EXPECT_EQ(write(PMT_REG_PMSWINC_EL0, 1), PMT_ACCESS_OK);
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_TRAP_EL1);
}

TEST_F(Access, PmuserenrIsReadableButNotWritableAtEl0)
{
    make();
    at(0);
    uint64_t v = 1;
    EXPECT_EQ(read(PMT_REG_PMUSERENR_EL0, &v), PMT_ACCESS_OK);
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(write(PMT_REG_PMUSERENR_EL0, 1), PMT_ACCESS_UNDEFINED);
}

TEST_F(Access, El1RegistersAreUndefinedAtEl0EvenWhenEnabled)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMINTENSET_EL1, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMINTENCLR_EL1, 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_PMMIR_EL1, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_PMUACR_EL1, &v), PMT_ACCESS_UNDEFINED);
}

TEST_F(Access, MdcrEl2TpmTrapsEl1AndEl0ToEl2)
{
    make();
    wr(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, TPM) | PMT_PUT(MDCR_EL2, HPMN, 6));
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCNTENSET_EL0, &v), PMT_ACCESS_OK); // EL2 itself is not trapped
    at(1);
    EXPECT_EQ(read(PMT_REG_PMCNTENSET_EL0, &v), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(write(PMT_REG_PMINTENSET_EL1, 1), PMT_ACCESS_TRAP_EL2);
    at(0);
    EXPECT_EQ(read(PMT_REG_PMCCNTR_EL0, &v), PMT_ACCESS_TRAP_EL2);
}

TEST_F(Access, MdcrEl2TpmcrTrapsOnlyPmcr)
{
    make();
    wr(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, TPMCR) | PMT_PUT(MDCR_EL2, HPMN, 6));
    at(1);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(write(PMT_REG_PMCR_EL0, 0), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(read(PMT_REG_PMCNTENSET_EL0, &v), PMT_ACCESS_OK);
}

TEST_F(Access, El2TrapsDoNotApplyWhenEl2IsDisabled)
{
    make();
    wr(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, TPM) | PMT_PUT(MDCR_EL2, HPMN, 6));
    at(1, PMT_SS_SECURE, false);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK);
}

TEST_F(Access, MdcrEl3TpmTrapsEl2El1AndEl0ToEl3)
{
    make();
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, TPM));
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_TRAP_EL3); // at EL2
    at(1);
    EXPECT_EQ(read(PMT_REG_PMCCNTR_EL0, &v), PMT_ACCESS_TRAP_EL3);
    at(3, PMT_SS_ROOT);
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK);
}

TEST_F(Access, CountersAtOrAboveHpmnTrapToEl2FromEl1)
{
    cfg.num_counters = 6;
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 4));
    at(1);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 3), PMT_ACCESS_OK);
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 4), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(write(PMT_REG_PMEVTYPER_EL0, 0, 5), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(read(PMT_REG_PMEVCNTR_EL0, &v, 6), PMT_ACCESS_UNDEFINED); // not implemented
}

TEST_F(Access, BitsOfCountersReservedForEl2AreHiddenFromEl1)
{
    cfg.num_counters = 6;
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 4));
    wr(PMT_REG_PMCNTENSET_EL0, 0x3F);
    at(1);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0xFu);
    wr(PMT_REG_PMCNTENCLR_EL0, 0x3F); // clears only what EL1 can see
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMCNTENSET_EL0), 0x30u);
}

TEST_F(Access, MdcrEl2IsUndefinedBelowEl2AndMdcrEl3BelowEl3)
{
    make();
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_MDCR_EL3, &v), PMT_ACCESS_UNDEFINED);
    at(1);
    EXPECT_EQ(read(PMT_REG_MDCR_EL2, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_MDCR_EL2, 0), PMT_ACCESS_UNDEFINED);
}

TEST_F(Access, UenWithPmuacrGivesPerCounterAccess)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 11, 0);
    wr(PMT_REG_PMEVCNTR_EL0, 22, 1);
    wr(PMT_REG_PMUACR_EL1, bit(1));
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, UEN));
    at(0);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u); // not granted: reads as zero
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 22u);
    wr(PMT_REG_PMEVCNTR_EL0, 5, 0); // ignored
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 11u);
}

TEST_F(Access, UenWithErMakesEventCountersReadOnlyAtEl0)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 22, 1);
    wr(PMT_REG_PMUACR_EL1, bit(1));
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, UEN) | PMT_MASK(PMUSERENR, ER));
    at(0);
    wr(PMT_REG_PMEVCNTR_EL0, 5, 1);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 1), 22u);
}

TEST_F(Access, PmceidReadsTrapAtEl0WithTid)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN) | PMT_MASK(PMUSERENR, TID));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMCEID0_EL0, &v), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK);
}

} // namespace

namespace
{

class AccessEnPM2 : public PeTest
{
};

// MDCR_EL3.EnPM2 == 0 traps EL2, EL1 and EL0 accesses to the FEAT_PMUv3p9 registers to EL3,
// after the EL2 traps and before MDCR_EL3.TPM (D24.5, PMUACR_EL1, PMZR_EL0, PMICNTR_EL0,
// PMICFILTR_EL0 accessibility).
TEST_F(AccessEnPM2, ZeroTrapsThePmuv3p9RegistersToEl3)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr_high(PMT_REG_MDCR_EL3, 0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMUACR_EL1, &v), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(write(PMT_REG_PMZR_EL0, 1), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(read(PMT_REG_PMICNTR_EL0, &v), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(write(PMT_REG_PMICFILTR_EL0, 0), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(read(PMT_REG_PMCR_EL0, &v), PMT_ACCESS_OK); // not a PMUv3p9 register
    at(3, PMT_SS_ROOT);
    EXPECT_EQ(read(PMT_REG_PMUACR_EL1, &v), PMT_ACCESS_OK); // EL3 itself is not trapped
}

TEST_F(AccessEnPM2, El2TpmTakesPriorityOverEnPM2)
{
    cfg.pmu_version = PMT_PMUV3P9;
    make();
    wr_high(PMT_REG_MDCR_EL3, 0);
    wr(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, TPM) | PMT_PUT(MDCR_EL2, HPMN, 6));
    at(1);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMUACR_EL1, &v), PMT_ACCESS_TRAP_EL2);
}

// PMICNTR_EL0 and PMICFILTR_EL0 at EL0 are gated by PMUSERENR_EL0.UEN alone, not EN.
TEST_F(AccessEnPM2, InstructionCounterAtEl0NeedsUenNotEn)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    make();
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
    at(0);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMICNTR_EL0, &v), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(read(PMT_REG_PMICFILTR_EL0, &v), PMT_ACCESS_TRAP_EL1);
    at(2);
    wr(PMT_REG_PMUSERENR_EL0, PMT_MASK(PMUSERENR, UEN));
    at(0);
    EXPECT_EQ(read(PMT_REG_PMICNTR_EL0, &v), PMT_ACCESS_OK);
}

} // namespace
