// The trace source: its rate, the Detected Trigger point, the flush handshake, limit and
// start/stop.
#include <gtest/gtest.h>
#include <pmtrace/platform/trace/trace_source.h>

#include <functional>
#include <utility>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using sc_core::SC_NS;
using sc_core::sc_time;

struct sink_probe : trace_sink_if {
    std::vector<uint8_t> bytes;
    std::vector<sc_time> delivery_times;
    std::vector<uint64_t> trigger_at; // bytes received when each trigger came
    std::vector<sc_time> flush_done;
    std::vector<uint64_t> flush_done_bytes;
    void trace_bytes(const uint8_t *data, size_t n, const sc_core::sc_time &) override
    {
        bytes.insert(bytes.end(), data, data + n);
        delivery_times.push_back(sc_core::sc_time_stamp());
    }
    void detected_trigger(const sc_core::sc_time &) override { trigger_at.push_back(bytes.size()); }
    void flush_complete(const sc_core::sc_time &) override
    {
        flush_done.push_back(sc_core::sc_time_stamp());
        flush_done_bytes.push_back(bytes.size());
    }
};

// Calls f at simulated time t (from a process, as a Trace Buffer Unit would).
struct at_time : sc_core::sc_module {
    sc_time t;
    std::function<void()> f;
    SC_HAS_PROCESS(at_time);
    at_time(const sc_core::sc_module_name &n, sc_time when, std::function<void()> what)
        : sc_module(n), t(when), f(std::move(what))
    {
        SC_THREAD(run);
    }
    void run()
    {
        wait(t);
        f();
    }
};

TEST(TraceSource, DeliversCountingBytesAtTheConfiguredRate)
{
    trace_source src{"src"}; // 16 bytes every 10 ns
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(45, SC_NS);
    ASSERT_EQ(sink.bytes.size(), 64u);
    for (size_t k = 0; k < sink.bytes.size(); k++)
        ASSERT_EQ(sink.bytes[k], static_cast<uint8_t>(k));
    EXPECT_EQ(sink.delivery_times, (std::vector<sc_time>{sc_time(10, SC_NS), sc_time(20, SC_NS),
                                                         sc_time(30, SC_NS), sc_time(40, SC_NS)}));
    EXPECT_EQ(src.bytes_sent(), 64u);
}

TEST(TraceSource, RatePerCycle)
{
    trace_source src{"src", trace_source_config::per_cycle(4, sc_time(2, SC_NS))};
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(11, SC_NS);
    EXPECT_EQ(sink.bytes.size(), 20u); // 5 cycles of 4 bytes
}

TEST(TraceSource, RatePerNanosecond)
{
    trace_source src{"src", trace_source_config::per_ns(8)};
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(sc_time(5.5, SC_NS));
    EXPECT_EQ(sink.bytes.size(), 40u);
}

TEST(TraceSource, DetectedTriggerComesExactlyAfterTheConfiguredByte)
{
    trace_source_config c;
    c.trigger_after = 40; // in the middle of the third delivery of 16
    trace_source src{"src", c};
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(105, SC_NS);
    EXPECT_EQ(sink.trigger_at, std::vector<uint64_t>{40});
    EXPECT_EQ(src.triggers(), 1u);
    EXPECT_EQ(sink.bytes.size(), 160u);
}

TEST(TraceSource, AFlushDeliversWhatHasAccruedThenCompletes)
{
    trace_source src{"src"};
    sink_probe sink;
    src.sink.bind(sink);
    size_t done_in_call = 99;
    at_time request{"request", sc_time(15, SC_NS), [&] {
                        src.flush_request();
                        done_in_call = sink.flush_done.size();
                    }};
    sc_core::sc_start(16, SC_NS);
    EXPECT_EQ(done_in_call, 0u); // never within the request
    ASSERT_EQ(sink.flush_done.size(), 1u);
    EXPECT_EQ(sink.flush_done[0], sc_time(15, SC_NS));
    EXPECT_EQ(sink.flush_done_bytes[0], 16u + 8u); // half of the second interval
    sc_core::sc_start(5, SC_NS);
    EXPECT_EQ(sink.bytes.size(), 32u); // the interval (at 20 ns) delivers the rest
    for (size_t k = 0; k < sink.bytes.size(); k++)
        ASSERT_EQ(sink.bytes[k], static_cast<uint8_t>(k));
}

TEST(TraceSource, AFlushWithLatencyCompletesLater)
{
    trace_source_config c;
    c.flush_latency = sc_time(2, SC_NS);
    trace_source src{"src", c};
    sink_probe sink;
    src.sink.bind(sink);
    at_time request{"request", sc_time(15, SC_NS), [&] { src.flush_request(); }};
    sc_core::sc_start(18, SC_NS);
    ASSERT_EQ(sink.flush_done.size(), 1u);
    EXPECT_EQ(sink.flush_done[0], sc_time(17, SC_NS));
    EXPECT_EQ(sink.flush_done_bytes[0], 16u + 11u); // 7/10 of 16
    EXPECT_EQ(src.flushes(), 1u);
}

TEST(TraceSource, StopsAtTheLimitAndOnRequest)
{
    trace_source_config c;
    c.limit = 40;
    trace_source src{"src", c};
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(100, SC_NS);
    EXPECT_EQ(sink.bytes.size(), 40u);
    EXPECT_EQ(sink.delivery_times.back(), sc_time(30, SC_NS)); // the third delivery, cut to 8
}

TEST(TraceSource, StartAndStopWhileSimulating)
{
    trace_source_config c;
    c.start_enabled = false;
    trace_source src{"src", c};
    sink_probe sink;
    src.sink.bind(sink);
    sc_core::sc_start(50, SC_NS);
    EXPECT_TRUE(sink.bytes.empty());
    src.start();
    sc_core::sc_start(25, SC_NS); // starts at 50 ns: deliveries at 60 and 70 ns
    EXPECT_EQ(sink.bytes.size(), 32u);
    src.stop();
    sc_core::sc_start(50, SC_NS);
    EXPECT_EQ(sink.bytes.size(), 32u);
    EXPECT_FALSE(src.running());
}

} // namespace
