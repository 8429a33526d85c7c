// Register-access log lines name the register and every nonzero field.
#include <gtest/gtest.h>
#include <pmtrace/systemc/log.h>

namespace
{

TEST(Log, PmcrWriteNamesItsFields)
{
    pmt_reg_ref pmcr{PMT_REG_PMCR_EL0, 0};
    EXPECT_EQ(pmtrace::format_access(pmcr, 0x41, true), "PMCR_EL0 <= 0x41 {E=1, LC=1}");
}

TEST(Log, IndexedRegisterReadShowsItsIndex)
{
    pmt_reg_ref typer{PMT_REG_PMEVTYPER_EL0, 5};
    EXPECT_EQ(pmtrace::format_access(typer, 0x80000011, false),
              "PMEVTYPER5_EL0 => 0x80000011 {evtCount=0x11, P=1}");
}

TEST(Log, RegisterWithoutLayoutShowsOnlyTheValue)
{
    pmt_reg_ref cnt{PMT_REG_PMCCNTR_EL0, 0};
    EXPECT_EQ(pmtrace::format_access(cnt, 0x1234, false), "PMCCNTR_EL0 => 0x1234");
}

} // namespace
