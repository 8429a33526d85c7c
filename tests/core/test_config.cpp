// Configuration, lifecycle, save and restore, and bad input to them.
#include "pe_fixture.h"

#include <cstring>

namespace
{

class Config : public PeTest
{
};

TEST_F(Config, DefaultConfigCreates)
{
    make();
    EXPECT_EQ(pmt_pe_get_config(pe)->num_counters, 6u);
}

TEST_F(Config, TooManyCountersIsRefusedWithAReason)
{
    cfg.num_counters = 32;
    pmt_pe_callbacks cb = callbacks();
    EXPECT_EQ(pmt_pe_create(&cfg, &cb), nullptr);
    ASSERT_EQ(log_lines.size(), 1u);
    EXPECT_NE(log_lines[0].find("num_counters"), std::string::npos);
}

TEST_F(Config, InvalidFeatureCombinationsAreRefused)
{
    pmt_pe_callbacks cb = callbacks();
    pmt_pe_config c = cfg;
    c.feat_icntr = true; // needs PMUv3p9
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c = cfg;
    c.pmu_version = static_cast<pmt_pmu_version>(3);
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c = cfg;
    c.num_counters = 0; // EL2 without FEAT_HPMN0 needs HPMN >= 1
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c.feat_hpmn0 = true;
    pmt_pe *ok = pmt_pe_create(&c, &cb);
    EXPECT_NE(ok, nullptr);
    pmt_pe_destroy(ok);
}

TEST_F(Config, NullArgumentsAreAnsweredNotFatal)
{
    EXPECT_EQ(pmt_pe_create(nullptr, nullptr), nullptr);
    EXPECT_EQ(pmt_pe_reset(nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_pe_set_state(nullptr, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_pmu_count(nullptr, 0x11, 1), PMT_ERR_NULL);
    uint64_t v;
    EXPECT_EQ(pmt_pe_sysreg_read(nullptr, PMT_SYSREG(3, 3, 9, 12, 0), &v), PMT_ACCESS_NOT_MINE);
    make();
    EXPECT_EQ(pmt_pe_sysreg_read(pe, PMT_SYSREG(3, 3, 9, 12, 0), nullptr), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(pmt_pe_set_state(pe, nullptr), PMT_ERR_NULL);
}

TEST_F(Config, StateOfAnUnimplementedExceptionLevelIsRefused)
{
    cfg.have_el3 = false;
    make();
    pmt_pe_state s = pmt_pe_get_state(pe);
    s.el = 3;
    EXPECT_EQ(pmt_pe_set_state(pe, &s), PMT_ERR_ARG);
    s.el = 7;
    EXPECT_EQ(pmt_pe_set_state(pe, &s), PMT_ERR_ARG);
    EXPECT_FALSE(log_lines.empty());
}

TEST_F(Config, SaveAndRestoreIsACopy)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 100);
    wr(PMT_REG_PMCR_EL0, 1);
    count(PMT_EV_INST_RETIRED, 5); // pending in the lazy counter
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    count(PMT_EV_INST_RETIRED, 1000);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 1105u);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 105u);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 106u);
}

TEST_F(Config, RestoringGarbageIsRefusedAndChangesNothing)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 42);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe), 0xA5);
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size() - 1), PMT_ERR_STATE_BLOB);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 42u);
}

TEST_F(Config, ResetClearsCountersAndDropsPmuirq)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFFF);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    wr(PMT_REG_PMCR_EL0, 1);
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_TRUE(pmt_pmu_irq_level(pe));
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    EXPECT_FALSE(pmt_pmu_irq_level(pe));
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMEVCNTR_EL0, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_PMOVSCLR_EL0), 0u);
}

TEST_F(Config, IdRegistersReportThePmuVersionAndFeatures)
{
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_icntr = true;
    cfg.feat_hpmn0 = true;
    make();
    uint64_t dfr0 = 0, dfr1 = 0;
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, PMUVer, dfr0), 9u);
    EXPECT_EQ(PMT_GET(DFR0, HPMN0, dfr0), 1u);
    EXPECT_EQ(PMT_GET(DFR1, PMICNTR, dfr1), 1u);
    EXPECT_EQ(PMT_GET(DFR1, EBEP, dfr1), 0u);
}

} // namespace
