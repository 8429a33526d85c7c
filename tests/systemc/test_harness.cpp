// The SystemC test harness itself: simulation runs, and warnings fail a test.
#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>
#include <systemc>

namespace
{

SC_MODULE(ticker)
{
    int ticks = 0;
    void run()
    {
        for (int i = 0; i < 3; i++) {
            wait(10, sc_core::SC_NS);
            ticks++;
        }
    }
    SC_CTOR(ticker)
    {
        SC_THREAD(run);
    }
};

TEST(Harness, SimulationRunsInTheTestProcess)
{
    ticker t("t");
    sc_core::sc_start(100, sc_core::SC_NS);
    EXPECT_EQ(t.ticks, 3);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(100, sc_core::SC_NS));
}

TEST(Harness, AWarningFailsTheTest)
{
    EXPECT_NONFATAL_FAILURE(SC_REPORT_WARNING("pmtrace/test", "a deliberate warning"),
                            "a deliberate warning");
}

} // namespace
