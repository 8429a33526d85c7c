// Configuration, lifecycle, save and restore, and bad input to them.
#include "pe_fixture.h"

#include <cstring>
#include <functional>

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

// Issue 27: every field of the config is checked against its documented range whether or not
// the feature it belongs to is implemented (pmt_pe.h): a field of an absent feature that some code
// reads anyway (a restore computed 1 << trbe.align without FEAT_TRBE: "shift exponent 130 is too
// large") must not be out of range either. Such a config is refused (pmt_pe_create answers NULL)
// with a log line that names the field. One test per class of field; each row changes one field
// of the default config, where FEAT_TRBE and FEAT_ETE are absent.
class ConfigRange : public Config
{
  protected:
    void expect_refused(const std::function<void(pmt_pe_config &)> &change, const char *field)
    {
        pmt_pe_config c = pmt_pe_config_default();
        change(c);
        log_lines.clear();
        pmt_pe_callbacks cb = callbacks();
        pmt_pe *p = pmt_pe_create(&c, &cb);
        EXPECT_EQ(p, nullptr) << field;
        pmt_pe_destroy(p);
        ASSERT_EQ(log_lines.size(), 1u) << field;
        EXPECT_NE(log_lines[0].find(std::string("bad config: ") + field), std::string::npos)
            << log_lines[0];
    }
    // An enum field set to a value outside the enumeration, as C code can.
    template <typename E> static void set(E &field, unsigned v)
    {
        static_assert(sizeof(E) == sizeof v, "an enum of the C API is an unsigned int");
        std::memcpy(&field, &v, sizeof v);
    }
};

TEST_F(ConfigRange, TraceBufferUnitNumbersWithoutFeatTrbe)
{
    ASSERT_FALSE(cfg.trbe.feat_trbe);
    expect_refused([](pmt_pe_config &c) { c.trbe.align = 130; }, "trbe.align");
    expect_refused([](pmt_pe_config &c) { c.trbe.align = 12; }, "trbe.align");
    expect_refused([](pmt_pe_config &c) { c.trbe.pa_bits = 0; }, "trbe.pa_bits");
    expect_refused([](pmt_pe_config &c) { c.trbe.pa_bits = 57; }, "trbe.pa_bits");
    expect_refused([](pmt_pe_config &c) { c.trbe.erratum_fill_overwrite_bytes = 0; },
                   "trbe.erratum_fill_overwrite_bytes");
    expect_refused([](pmt_pe_config &c) { c.trbe.erratum_fill_overwrite_bytes = 257; },
                   "trbe.erratum_fill_overwrite_bytes");
    expect_refused([](pmt_pe_config &c) { c.trbe.part_number = 0x1000; }, "trbe.part_number");
    expect_refused([](pmt_pe_config &c) { c.trbe.revision = 0x10; }, "trbe.revision");
}

TEST_F(ConfigRange, TraceBufferUnitEnumsWithoutFeatTrbe)
{
    expect_refused([](pmt_pe_config &c) { set(c.trbe.ext_abort, 4); }, "trbe.ext_abort");
    expect_refused([](pmt_pe_config &c) { set(c.trbe.reserved_e2tb, 3); }, "trbe.reserved_e2tb");
    expect_refused([](pmt_pe_config &c) { set(c.trbe.reserved_trfcr_ee, 0xFFFFFFFF); },
                   "trbe.reserved_trfcr_ee");
}

TEST_F(ConfigRange, TraceUnitCountsWithoutFeatEte)
{
    ASSERT_FALSE(cfg.ete.feat_ete);
    expect_refused([](pmt_pe_config &c) { c.ete.num_ac_pairs = 9; }, "ete.num_ac_pairs");
    expect_refused([](pmt_pe_config &c) { c.ete.num_cid_comps = 9; }, "ete.num_cid_comps");
    expect_refused([](pmt_pe_config &c) { c.ete.num_vmid_comps = 100; }, "ete.num_vmid_comps");
    expect_refused([](pmt_pe_config &c) { c.ete.num_rs_pairs = 17; }, "ete.num_rs_pairs");
    expect_refused([](pmt_pe_config &c) { c.ete.num_rs_pairs = 1; }, "ete.num_rs_pairs");
    expect_refused([](pmt_pe_config &c) { c.ete.num_ext_in_sel = 5; }, "ete.num_ext_in_sel");
    expect_refused([](pmt_pe_config &c) { c.ete.num_claim_tags = 33; }, "ete.num_claim_tags");
    expect_refused([](pmt_pe_config &c) { c.ete.unit_buffer = 5000; }, "ete.unit_buffer");
    expect_refused([](pmt_pe_config &c) { c.ete.unit_buffer = 100; }, "ete.unit_buffer");
}

TEST_F(ConfigRange, TraceUnitValuesWithoutTheirFeature)
{
    // TRCIDR3.CCITMIN (cycle counting is always there in ETE: 1..0xFFF, whether FEAT_ETE is
    // or not), TRCSYNCPR.PERIOD without a fixed period.
    expect_refused([](pmt_pe_config &c) { c.ete.ccitmin = 0; }, "ete.ccitmin");
    expect_refused([](pmt_pe_config &c) { c.ete.ccitmin = 0x1000; }, "ete.ccitmin");
    expect_refused([](pmt_pe_config &c) { c.ete.cc_size = 9; }, "ete.cc_size");
    expect_refused(
        [](pmt_pe_config &c) {
            c.ete.fixed_sync_period = false;
            c.ete.sync_period = 64;
        },
        "ete.sync_period");
    expect_refused([](pmt_pe_config &c) { c.ete.revision = 0x10; }, "ete.revision");
    expect_refused([](pmt_pe_config &c) { set(c.ete.busy_write, 2); }, "ete.busy_write");
}

TEST_F(ConfigRange, PmuFieldsOfAbsentFeatures)
{
    ASSERT_FALSE(cfg.feat_ebep || cfg.feat_sebep || cfg.feat_ss);
    expect_refused([](pmt_pe_config &c) { set(c.reserved_mdcr_el2_pmee, 4); },
                   "reserved_mdcr_el2_pmee");
    expect_refused([](pmt_pe_config &c) { set(c.reserved_pmecr_sse, 3); }, "reserved_pmecr_sse");
    expect_refused([](pmt_pe_config &c) { set(c.sync_events, 2); }, "sync_events");
    expect_refused([](pmt_pe_config &c) { c.num_sync_events = 17; }, "num_sync_events");
    expect_refused([](pmt_pe_config &c) { set(c.sync_values, 7); }, "sync_values");
    expect_refused([](pmt_pe_config &c) { set(c.pcsr, 3); }, "pcsr");
    expect_refused([](pmt_pe_config &c) { c.va_bits = 47; }, "va_bits");
    expect_refused([](pmt_pe_config &c) { c.va_bits = 64; }, "va_bits");
    expect_refused([](pmt_pe_config &c) { c.num_counters = 130; }, "num_counters");
    expect_refused([](pmt_pe_config &c) { set(c.pmu_version, 130); }, "pmu_version");
}

// A bool of the config whose byte is neither 0 nor 1 (C code can make one with memset or
// memcpy) is refused; it is read as a byte, never as a bool.
TEST_F(ConfigRange, ABoolThatIsNeitherFalseNorTrue)
{
    const unsigned char b175 = 175;
    expect_refused([&](pmt_pe_config &c) { std::memcpy(&c.have_el2, &b175, 1); }, "have_el2");
    expect_refused([&](pmt_pe_config &c) { std::memcpy(&c.trbe.feat_trbe, &b175, 1); },
                   "trbe.feat_trbe");
    expect_refused([&](pmt_pe_config &c) { std::memcpy(&c.ete.feat_ete, &b175, 1); },
                   "ete.feat_ete");
    expect_refused([&](pmt_pe_config &c) { std::memcpy(&c.trbe.flush_pad, &b175, 1); },
                   "trbe.flush_pad");
}

// The defaults of every field, and a config with every feature, are in range.
TEST_F(ConfigRange, TheDefaultsAndEveryFeatureAreAccepted)
{
    cfg.trbe.feat_trbe = cfg.trbe.feat_trbe_exc = cfg.trbe.feat_trbe_ext = true;
    cfg.ete.feat_ete = true;
    cfg.ete.unit_buffer = PMT_ETE_UNIT_BUFFER_MAX;
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_ebep = cfg.feat_sebep = cfg.feat_ss = cfg.feat_icntr = true;
    make();
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
