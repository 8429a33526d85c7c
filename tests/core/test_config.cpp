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

// The byte of a saved state that holds one PE state field: the one byte in which two states
// saved with `a` and `b` differ (the tests below find the layout through the public API).
static size_t state_byte(pmt_pe *pe, const pmt_pe_state &a, const pmt_pe_state &b,
                         std::vector<uint8_t> *blob_a)
{
    std::vector<uint8_t> blob_b(pmt_pe_state_size(pe));
    blob_a->resize(blob_b.size());
    EXPECT_EQ(pmt_pe_set_state(pe, &b), PMT_OK);
    EXPECT_EQ(pmt_pe_save(pe, blob_b.data(), blob_b.size()), PMT_OK);
    EXPECT_EQ(pmt_pe_set_state(pe, &a), PMT_OK);
    EXPECT_EQ(pmt_pe_save(pe, blob_a->data(), blob_a->size()), PMT_OK);
    size_t at = SIZE_MAX, differ = 0;
    for (size_t i = 0; i < blob_b.size(); i++)
        if ((*blob_a)[i] != blob_b[i]) {
            at = i;
            differ++;
        }
    EXPECT_EQ(differ, 1u);
    return at;
}

// Found by fuzz_restore (tests/fuzz): a blob whose bool field holds 10 was restored, and the model
// then loaded it as a _Bool (undefined behaviour, UBSan). A saved state is refused as corrupt
// (PMT_ERR_STATE_BLOB) when a bool of it is neither 0 nor 1.
TEST_F(Config, RestoreRefusesABoolThatIsNeitherFalseNorTrue)
{
    make();
    pmt_pe_state a = pmt_pe_get_state(pe), b = a;
    b.os_lock = true;
    std::vector<uint8_t> blob;
    size_t at = state_byte(pe, a, b, &blob);
    ASSERT_LT(at, blob.size());
    ASSERT_EQ(blob[at], 0u);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK); // the byte as saved
    blob[at] = 10;
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
    EXPECT_FALSE(pmt_pe_get_state(pe).os_lock);
}

// With the same fix: a restored state may not put the PE at an Exception level the
// config does not implement, which pmt_pe_set_state refuses (PMT_ERR_ARG) for the same reason.
TEST_F(Config, RestoreRefusesAStateAtAnExceptionLevelNotImplemented)
{
    cfg.have_el3 = false;
    make();
    pmt_pe_state a = pmt_pe_get_state(pe), b = a;
    a.el = 1;
    b.el = 2;
    std::vector<uint8_t> blob;
    size_t at = state_byte(pe, a, b, &blob);
    ASSERT_LT(at, blob.size());
    ASSERT_EQ(blob[at], 1u);
    blob[at] = 3; // EL3
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
    EXPECT_EQ(pmt_pe_get_state(pe).el, 1u);
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
