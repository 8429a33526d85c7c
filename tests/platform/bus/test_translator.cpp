// Address translation for the TRBE: identity, page mappings, injected faults of every kind, the
// regime deciding which stages apply, and the core's translate callback served through the
// interface.
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/translator.h>

namespace
{

using namespace pmtrace::platform;

pmt_trbe_regime el1_ns()
{
    pmt_trbe_regime r{};
    r.ss = PMT_SS_NONSECURE;
    r.el = 1;
    return r;
}

TEST(Translator, IdentityByDefault)
{
    translator t{"t"};
    pmt_trbe_translation x = t.translate(0x1234'5678, el1_ns());
    EXPECT_EQ(x.pa, 0x1234'5678u);
    EXPECT_EQ(x.pas, PMT_SS_NONSECURE);
    EXPECT_EQ(x.fault.kind, PMT_TRBE_FAULT_NONE);
    pmt_trbe_regime realm = el1_ns();
    realm.ss = PMT_SS_REALM;
    EXPECT_EQ(t.translate(0x1000, realm).pas, PMT_SS_REALM);
    EXPECT_EQ(t.translations(), 2u);
}

TEST(Translator, MappedPagesKeepTheOffsetInThePage)
{
    translator t{"t"};
    t.map(0xffff'8000'0000'0000, 0x4010'0000, 0x2000);
    EXPECT_EQ(t.translate(0xffff'8000'0000'0010, el1_ns()).pa, 0x4010'0010u);
    EXPECT_EQ(t.translate(0xffff'8000'0000'1abc, el1_ns()).pa, 0x4010'1abcu);
    EXPECT_EQ(t.translate(0xffff'8000'0000'2000, el1_ns()).pa, 0xffff'8000'0000'2000u); // past it
    t.map(0x5000, 0x9000, 0x1000, PMT_SS_SECURE);
    pmt_trbe_translation x = t.translate(0x5008, el1_ns());
    EXPECT_EQ(x.pa, 0x9008u);
    EXPECT_EQ(x.pas, PMT_SS_SECURE);
    t.unmap(0x5000, 0x1000);
    EXPECT_EQ(t.translate(0x5008, el1_ns()).pa, 0x5008u);
}

TEST(Translator, AnInjectedFaultHoldsForItsPagesUntilCleared)
{
    translator t{"t"};
    t.map(0x8000'0000, 0x4000'0000, 0x10000);
    t.inject(0x8000'1000, 0x1000, make_fault(PMT_TRBE_FAULT_PERMISSION, 1, 3));
    pmt_trbe_translation x = t.translate(0x8000'1ff0, el1_ns());
    EXPECT_EQ(x.fault.kind, PMT_TRBE_FAULT_PERMISSION);
    EXPECT_EQ(x.fault.stage, 1u);
    EXPECT_EQ(x.fault.level, 3);
    EXPECT_EQ(t.translate(0x8000'0ff0, el1_ns()).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.translate(0x8000'2000, el1_ns()).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.faults_reported(), 1u);
    t.clear(0x8000'1000, 0x1000);
    x = t.translate(0x8000'1ff0, el1_ns());
    EXPECT_EQ(x.fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(x.pa, 0x4000'1ff0u); // the mapping shows through again
}

TEST(Translator, ClearingPartOfARangeKeepsTheRest)
{
    translator t{"t"};
    t.inject(0x10000, 0x4000, make_fault(PMT_TRBE_FAULT_ACCESS_FLAG, 1, 3));
    t.clear(0x11000, 0x1000);
    EXPECT_EQ(t.translate(0x10000, el1_ns()).fault.kind, PMT_TRBE_FAULT_ACCESS_FLAG);
    EXPECT_EQ(t.translate(0x11000, el1_ns()).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.translate(0x12000, el1_ns()).fault.kind, PMT_TRBE_FAULT_ACCESS_FLAG);
    EXPECT_EQ(t.translate(0x13fff, el1_ns()).fault.kind, PMT_TRBE_FAULT_ACCESS_FLAG);
}

TEST(Translator, EveryKindStageAndLevelIsReportedAsInjected)
{
    struct {
        pmt_trbe_fault_kind kind;
        unsigned stage;
        int level;
    } cases[] = {
        {PMT_TRBE_FAULT_TRANSLATION, 1, 0},   {PMT_TRBE_FAULT_TRANSLATION, 2, -1},
        {PMT_TRBE_FAULT_ACCESS_FLAG, 1, 2},   {PMT_TRBE_FAULT_ADDRESS_SIZE, 1, -2},
        {PMT_TRBE_FAULT_PERMISSION, 2, 1},    {PMT_TRBE_FAULT_EXTERNAL_WALK, 1, 1},
        {PMT_TRBE_FAULT_EXTERNAL_WALK, 2, 3}, {PMT_TRBE_FAULT_GPF, 1, 0},
        {PMT_TRBE_FAULT_GPF_WALK, 2, 2},      {PMT_TRBE_FAULT_GPC, 1, 0},
    };
    translator t{"t"};
    uint64_t va = 0x100000;
    for (const auto &c : cases) {
        t.inject(va, 1, make_fault(c.kind, c.stage, c.level));
        pmt_trbe_translation x = t.translate(va + 0x800, el1_ns());
        EXPECT_EQ(x.fault.kind, c.kind) << fault_kind_name(c.kind);
        EXPECT_EQ(x.fault.stage, c.stage) << fault_kind_name(c.kind);
        EXPECT_EQ(x.fault.level, c.level) << fault_kind_name(c.kind);
        va += page_size;
    }
    pmt_trbe_fault perm = make_fault(PMT_TRBE_FAULT_PERMISSION, 1, 3);
    perm.overlay = true;
    perm.dirtybit = true;
    t.inject(va, 1, perm);
    pmt_trbe_translation x = t.translate(va, el1_ns());
    EXPECT_TRUE(x.fault.overlay);
    EXPECT_TRUE(x.fault.dirtybit);
    EXPECT_FALSE(x.fault.toplevel);
}

TEST(Translator, TheRegimeDecidesWhichStagesApply)
{
    translator t{"t"};
    t.map(0x0, 0x4000'0000, 0x1000);
    t.inject(0x0, 0x1000, make_fault(PMT_TRBE_FAULT_TRANSLATION, 1, 3));
    t.inject(0x1000, 0x1000, make_fault(PMT_TRBE_FAULT_PERMISSION, 2, 3));
    t.inject(0x2000, 0x1000, make_fault(PMT_TRBE_FAULT_GPF, 1, 0));

    pmt_trbe_regime nvm = el1_ns(); // the address is an IPA: no stage 1
    nvm.nvm = true;
    pmt_trbe_translation x = t.translate(0x10, nvm);
    EXPECT_EQ(x.fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(x.pa, 0x10u); // no stage 1 mapping either
    EXPECT_EQ(t.translate(0x1010, nvm).fault.kind, PMT_TRBE_FAULT_PERMISSION); // stage 2 applies

    pmt_trbe_regime el2 = el1_ns(); // EL2 has no stage 2
    el2.el = 2;
    EXPECT_EQ(t.translate(0x1010, el2).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.translate(0x10, el2).fault.kind, PMT_TRBE_FAULT_TRANSLATION);

    pmt_trbe_regime ext{}; // External mode: only Granule Protection Checks
    ext.external = true;
    ext.ss = PMT_SS_REALM;
    EXPECT_EQ(t.translate(0x10, ext).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.translate(0x1010, ext).fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(t.translate(0x2010, ext).fault.kind, PMT_TRBE_FAULT_GPF);
    EXPECT_EQ(t.translate(0x2010, ext).pas, PMT_SS_REALM);
}

TEST(Translator, UnmappedPagesCanBeTranslationFaults)
{
    translator t{"t", true};
    t.map(0x8000, 0x4000'8000, 0x1000);
    EXPECT_EQ(t.translate(0x8010, el1_ns()).pa, 0x4000'8010u);
    pmt_trbe_translation x = t.translate(0x9010, el1_ns());
    EXPECT_EQ(x.fault.kind, PMT_TRBE_FAULT_TRANSLATION);
    EXPECT_EQ(x.fault.stage, 1u);
    EXPECT_EQ(x.fault.level, 3);
}

// The core's translate callback (pmt_trbe_callbacks.translate) served through the interface.
struct port_holder : sc_core::sc_module {
    sc_core::sc_port<trbe_translation_if> mmu{"mmu"};
    explicit port_holder(const sc_core::sc_module_name &n) : sc_module(n) {}
    static void translate(void *user, uint64_t va, const pmt_trbe_regime *regime,
                          pmt_trbe_translation *out)
    {
        *out = static_cast<port_holder *>(user)->mmu->translate(va, *regime);
    }
};

TEST(Translator, ServesTheCoreTranslateCallbackThroughAPort)
{
    translator t{"t"};
    port_holder pe{"pe"};
    pe.mmu.bind(t);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    t.inject(0x3000, 0x1000, make_fault(PMT_TRBE_FAULT_PERMISSION, 1, 3));
    pmt_trbe_callbacks cb{};
    cb.user = &pe;
    cb.translate = &port_holder::translate;
    pmt_trbe_regime r = el1_ns();
    pmt_trbe_translation out{};
    out.pa = 0x3abc; // the core's identity prefill
    cb.translate(cb.user, 0x3abc, &r, &out);
    EXPECT_EQ(out.fault.kind, PMT_TRBE_FAULT_PERMISSION);
    cb.translate(cb.user, 0x4abc, &r, &out);
    EXPECT_EQ(out.fault.kind, PMT_TRBE_FAULT_NONE);
    EXPECT_EQ(out.pa, 0x4abcu);
}

} // namespace
