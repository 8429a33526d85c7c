// What an offset of an external frame names (pmt_pmu_ext_name, pmt_debug_ext_name,
// pmt_trbe_ext_name): the PMU frame in its EXT32 and EXT64 layouts (I5.2, Tables I5-1 and
// I5-2), the PC sample registers of the debug frame (H9.2), the Trace Buffer frame (H9.4,
// Table D6-4).
#include "trbe_fixture.h"

#include <string>

namespace
{

class ExtNames : public TrbeTest
{
  protected:
    // "REG#index[half]" for a register of the PE's view, the frame's own name, or "" for nothing.
    static std::string text(const pmt_ext_name &n)
    {
        if (n.reg.id != PMT_REG_NONE)
            return std::string(pmt_reg_name(n.reg.id)) + "#" + std::to_string(n.reg.index) +
                   (n.half ? "[63:32]" : "");
        return n.own ? n.own : "";
    }
    static std::string reg(pmt_reg_id id, unsigned index = 0, bool upper = false)
    {
        return std::string(pmt_reg_name(id)) + "#" + std::to_string(index) +
               (upper ? "[63:32]" : "");
    }
    std::string pmu(uint32_t off) { return text(pmt_pmu_ext_name(pe, off)); }
    std::string debug(uint32_t off) { return text(pmt_debug_ext_name(pe, off)); }
    std::string trbe(uint32_t off) { return text(pmt_trbe_ext_name(pe, off)); }
};

// Table I5-2: the EXT32 layout holds 64-bit registers as two words.
TEST_F(ExtNames, Ext32RegistersOfThePeView)
{
    make();
    EXPECT_EQ(pmu(0x010), reg(PMT_REG_PMEVCNTR_EL0, 2));
    EXPECT_EQ(pmu(0x014), reg(PMT_REG_PMEVCNTR_EL0, 2, true));
    EXPECT_EQ(pmu(0x0FC), reg(PMT_REG_PMCCNTR_EL0, 0, true));
    EXPECT_EQ(pmu(0x40C), reg(PMT_REG_PMEVTYPER_EL0, 3));
    EXPECT_EQ(pmu(0xA0C), reg(PMT_REG_PMEVTYPER_EL0, 3, true)); // 0xA00 + 4n: bits [63:32]
    EXPECT_EQ(pmu(0x47C), reg(PMT_REG_PMCCFILTR_EL0));
    EXPECT_EQ(pmu(0xE04), reg(PMT_REG_PMCR_EL0));
    EXPECT_EQ(pmu(0xC00), reg(PMT_REG_PMCNTENSET_EL0));
}

// Table I5-1: the EXT64 layout.
TEST_F(ExtNames, Ext64RegistersOfThePeView)
{
    cfg.ext_layout = PMT_EXT64;
    make();
    EXPECT_EQ(pmu(0x418), reg(PMT_REG_PMEVTYPER_EL0, 3));
    EXPECT_EQ(pmu(0x4F8), reg(PMT_REG_PMCCFILTR_EL0));
    EXPECT_EQ(pmu(0x4FC), reg(PMT_REG_PMCCFILTR_EL0, 0, true));
    EXPECT_EQ(pmu(0xE10), reg(PMT_REG_PMCR_EL0));
    EXPECT_EQ(pmu(0xE04), ""); // PMCR_EL0 of EXT32 is not here
}

TEST_F(ExtNames, RegistersOfTheFrameOnly)
{
    make();
    EXPECT_EQ(pmu(0xE00), "PMCFGR");
    EXPECT_EQ(pmu(0xFBC), "PMDEVARCH");
    EXPECT_EQ(pmu(0xFE0), "PMPIDR0");
    EXPECT_EQ(pmu(0xFFC), "PMCIDR3");
    EXPECT_EQ(pmt_pmu_ext_name(pe, 0xFBC).reg.id, PMT_REG_NONE);
}

TEST_F(ExtNames, Ext64OnlyRegistersOfTheFrame)
{
    cfg.ext_layout = PMT_EXT64;
    make();
    EXPECT_EQ(pmu(0xC10), "PMCNTEN");
    EXPECT_EQ(pmu(0xC90), "PMOVS");
}

// FEAT_PCSRv8p2 in the PMU frame: PMCID1SR at 0x208 in EXT32, PMVCIDSR in EXT64.
TEST_F(ExtNames, PcSampleRegistersByLayout)
{
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    make();
    EXPECT_EQ(pmu(0x208), "PMCID1SR");
    EXPECT_EQ(pmu(0x20C), "PMVIDSR");
    cfg.ext_layout = PMT_EXT64;
    remake();
    EXPECT_EQ(pmu(0x208), "PMVCIDSR");
    EXPECT_EQ(pmu(0x228), "PMCCIDSR");
}

TEST_F(ExtNames, NothingWhereNoRegisterIs)
{
    cfg.num_counters = 4;
    make();
    EXPECT_EQ(pmu(0x028), "");  // PMEVCNTR5: beyond N
    EXPECT_EQ(pmu(0x300), "");  // reserved
    EXPECT_EQ(pmu(0x208), "");  // no PC sampling in this frame
    EXPECT_EQ(pmu(0x1000), ""); // beyond the frame
    EXPECT_EQ(text(pmt_pmu_ext_name(nullptr, 0xFBC)), "");
}

// The name says nothing exactly where an access finds no register, at every offset.
TEST_F(ExtNames, NothingExactlyWhereAnAccessHasNoRegister)
{
    for (pmt_ext_layout layout : {PMT_EXT32, PMT_EXT64}) {
        cfg.ext_layout = layout;
        cfg.pcsr = PMT_PCSR_PMU_FRAME;
        cfg.feat_pcsrv8p9 = cfg.feat_ss = cfg.feat_extpmn = true;
        use_icntr();
        remake();
        for (uint32_t off = 0; off < 0x1000; off += 4) {
            uint64_t v;
            bool none =
                pmt_pmu_ext_read(pe, off, 4, PMT_SS_SECURE, false, &v) == PMT_EXT_NO_REGISTER;
            EXPECT_EQ(pmu(off).empty(), none)
                << "layout " << layout << " offset 0x" << std::hex << off << ": " << pmu(off);
        }
    }
}

// H9.2: the sample registers when they live in the debug frame.
TEST_F(ExtNames, DebugFrameSampleRegisters)
{
    cfg.pcsr = PMT_PCSR_DEBUG_FRAME;
    make();
    EXPECT_EQ(debug(0x0A0), "EDPCSRlo");
    EXPECT_EQ(debug(0x0AC), "EDPCSRhi");
    EXPECT_EQ(debug(0x0B0), "");
    EXPECT_EQ(debug(0xFB0), ""); // EDLAR only with the software lock
}

TEST_F(ExtNames, DebugFrameWithoutItsSampleRegisters)
{
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    make();
    EXPECT_EQ(debug(0x0A0), "");
}

// Table D6-4: the TRB*_EL1 registers of the PE's view, then the frame's own.
TEST_F(ExtNames, TraceBufferFrame)
{
    cfg.trbe.feat_trbe_ext = true;
    make_trbe();
    EXPECT_EQ(trbe(0x010), reg(PMT_REG_TRBLIMITR_EL1));
    EXPECT_EQ(trbe(0x01C), reg(PMT_REG_TRBSR_EL1, 0, true));
    EXPECT_EQ(trbe(0x038), "TRBCR");
    EXPECT_EQ(trbe(0xFBC), "TRBDEVARCH");
    EXPECT_EQ(trbe(0xFC4), "TRBDEVID1");
    EXPECT_EQ(trbe(0x040), ""); // TRBMPAM_EL1 without FEAT_TRBE_MPAM: reserved
}

TEST_F(ExtNames, NoTraceBufferFrameWithoutFeatTrbeExt)
{
    make_trbe();
    EXPECT_EQ(trbe(0x010), "");
}

} // namespace
