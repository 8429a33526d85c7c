// sc_gtest_main.cpp - runs GoogleTest from sc_main (libsystemc owns main()).
//
// Every SystemC warning, error or fatal report becomes a test failure: a model that warns is a
// model with a bug or a misuse, and a test must say so. Reports are not thrown, so a test keeps
// running and reports every problem.
#include <gtest/gtest.h>
#include <systemc>

namespace
{

void fail_on_warning(const sc_core::sc_report &report, const sc_core::sc_actions &actions)
{
    if (report.get_severity() >= sc_core::SC_WARNING) {
        ADD_FAILURE() << "SystemC "
                      << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error")
                      << " [" << report.get_msg_type() << "] " << report.get_msg();
        return;
    }
    sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_THROW);
}

} // namespace

int sc_main(int argc, char *argv[])
{
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_report_handler::set_handler(fail_on_warning);
    return RUN_ALL_TESTS();
}
