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

// Per-instance verbosity (module_log, as VCML's loglvl): pe_model "loud" logs its register
// accesses at SC_HIGH although SystemC's global level (SC_MEDIUM) hides them, and "quiet",
// following the global level, logs nothing.
#include "pe_model_fixture.h"

#include <string>
#include <vector>

namespace
{

std::vector<std::string> info_lines;

void record_info(const sc_core::sc_report &report, const sc_core::sc_actions &)
{
    if (report.get_severity() == sc_core::SC_INFO)
        info_lines.push_back(std::string(report.get_msg_type()) + ": " + report.get_msg());
}

TEST(Log, OneInstanceLogsItsAccessesWhileAnotherStaysQuiet)
{
    pmtrace::pe_model loud("loud"), quiet("quiet");
    loud.log().set_verbosity(sc_core::SC_HIGH);
    EXPECT_EQ(sc_core::sc_report_handler::get_verbosity_level(), sc_core::SC_MEDIUM);
    const sc_core::sc_report_handler_proc previous = sc_core::sc_report_handler::get_handler();
    sc_core::sc_report_handler::set_handler(record_info);
    pmtrace_test::enter_el1(loud);
    pmtrace_test::enter_el1(quiet);
    pmtrace_test::wr(loud, PMT_REG_PMCR_EL0, 0, 0x41);
    pmtrace_test::wr(quiet, PMT_REG_PMCR_EL0, 0, 0x41);
    sc_core::sc_report_handler::set_handler(previous);
    EXPECT_EQ(info_lines, std::vector<std::string>{"loud: PMCR_EL0 <= 0x41 {E=1, LC=1}"});
}

} // namespace
