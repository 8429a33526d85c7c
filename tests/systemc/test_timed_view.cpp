// timed_view.h: a waveform signal changes at the time of each change, sc_time_stamp() + the
// caller's offset, in the order the changes were made.
#include "pe_model_fixture.h"

#include <pmtrace/systemc/timed_view.h>

#include <vector>

namespace
{

using namespace pmtrace_test;

// A caller 200 ns ahead of SystemC time at 100 ns: the change is at 300 ns.
TEST(TimedView, AChangeIsMadeAtTheCallersTime)
{
    pmtrace::timed_view<bool> view("line");
    view_watcher<bool> watcher("watcher", view.signal());
    sc_core::sc_start(ns(100));
    view.write(true, ns(200));
    EXPECT_TRUE(view.latest());
    sc_core::sc_start(ns(150));
    EXPECT_FALSE(view.signal().read()); // 250 ns
    sc_core::sc_start(ns(100));
    EXPECT_EQ(watcher.changes, (view_changes{{ns(300), true}}));
}

// With no offset the signal changes in this time step, as an sc_signal written now.
TEST(TimedView, AChangeNowIsMadeInThisTimeStep)
{
    pmtrace::timed_view<bool> view("line");
    view_watcher<bool> watcher("watcher", view.signal());
    sc_core::sc_start(ns(100));
    view.write(true, sc_core::SC_ZERO_TIME);
    sc_core::sc_start(ns(1));
    EXPECT_TRUE(view.signal().read());
    EXPECT_EQ(watcher.changes, (view_changes{{ns(100), true}}));
}

// Several changes made ahead of time, each at its own time: a pulse and a second rise.
TEST(TimedView, EachChangeAtItsTime)
{
    pmtrace::timed_view<bool> view("line");
    view_watcher<bool> watcher("watcher", view.signal());
    view.write(true, ns(100));
    view.write(false, ns(200));
    view.write(true, ns(300));
    sc_core::sc_start(ns(1000));
    EXPECT_EQ(watcher.changes, (view_changes{{ns(100), true}, {ns(200), false}, {ns(300), true}}));
}

// A change earlier than one still due (a caller behind the one that made that) is made with it,
// after it: the changes keep their order, and the last made is what the signal holds. Sorted by
// time they would have made the line rise at 500 ns.
TEST(TimedView, AnEarlierChangeAfterALaterOneKeepsTheOrder)
{
    pmtrace::timed_view<bool> view("line");
    view_watcher<bool> watcher("watcher", view.signal());
    view.write(true, ns(500));
    view.write(false, ns(300));
    sc_core::sc_start(ns(1000));
    EXPECT_TRUE(watcher.changes.empty());
    EXPECT_FALSE(view.signal().read());
}

// An Exception level view: the value changes at its time too.
TEST(TimedView, AnUnsignedValueAtItsTime)
{
    pmtrace::timed_view<unsigned> view("target_el");
    view_watcher<unsigned> watcher("watcher", view.signal());
    view.write(2u, ns(50));
    sc_core::sc_start(ns(100));
    EXPECT_EQ(view.latest(), 2u);
    EXPECT_EQ(watcher.changes, (std::vector<std::pair<sc_time, unsigned>>{{ns(50), 2u}}));
}

} // namespace
