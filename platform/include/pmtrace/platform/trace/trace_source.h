// trace_source.h - a trace unit stand-in: feeds a trace sink a stream of bytes at a configured
// rate, raises Detected Trigger after a configured number of bytes, and answers flush requests.
//
// Every `interval` it delivers `bytes_per_interval` bytes, whose values count up from 0
// (byte k of the stream is k mod 256) so tests can check memory. Bytes accrue evenly over an
// interval: a flush request delivers what has accrued since the last delivery (after
// flush_latency), then calls flush_complete(). With trigger_after = N > 0 the delivery that
// crosses byte N is split so detected_trigger() comes exactly after byte N. With limit > 0 the
// source stops after that many bytes. It runs from start_delay unless start_enabled is false;
// start() and stop() control it while simulating.
#ifndef PMTRACE_PLATFORM_TRACE_SOURCE_H
#define PMTRACE_PLATFORM_TRACE_SOURCE_H

#include <pmtrace/platform/bus/signal_if.h>
#include <pmtrace/platform/bus/trace_sink_if.h>

#include <cstdint>
#include <systemc>
#include <vector>

namespace pmtrace::platform
{

struct trace_source_config {
    uint32_t bytes_per_interval = 16;
    sc_core::sc_time interval = sc_core::sc_time(10, sc_core::SC_NS);
    uint64_t trigger_after = 0; // bytes; 0: never
    uint64_t limit = 0;         // bytes; 0: no limit
    sc_core::sc_time start_delay = sc_core::SC_ZERO_TIME;
    sc_core::sc_time flush_latency = sc_core::SC_ZERO_TIME;
    bool start_enabled = true;

    // `bytes` per nanosecond (bytes every 1 ns), or per cycle of `clock`.
    static trace_source_config per_ns(uint32_t bytes);
    static trace_source_config per_cycle(uint32_t bytes, const sc_core::sc_time &clock);
};

class trace_source : public sc_core::sc_module, public trace_flush_if
{
  public:
    optional_port<trace_sink_if> sink;

    trace_source(const sc_core::sc_module_name &name,
                 const trace_source_config &config = trace_source_config());

    void flush_request() override;
    void start();
    void stop();
    bool running() const { return running_; }

    uint64_t bytes_sent() const { return sent_; }
    uint64_t triggers() const { return triggers_; }
    uint64_t flushes() const { return flushes_; }

  private:
    void run();
    void flush();
    // Delivers n bytes (split at the trigger point, cut at the limit).
    void deliver(uint64_t n);
    uint64_t accrued_now() const;

    trace_source_config config_;
    bool running_;
    sc_core::sc_event start_event_, flush_event_;
    sc_core::sc_time interval_start_;
    uint64_t delivered_in_interval_ = 0;
    uint64_t sent_ = 0, triggers_ = 0, flushes_ = 0;
    bool triggered_ = false;
    std::vector<uint8_t> buffer_;
};

} // namespace pmtrace::platform

#endif
