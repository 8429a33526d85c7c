// trace_source.cpp - the byte stream, the trigger point, the flush handshake.
#include "pmtrace/platform/trace/trace_source.h"

#include <algorithm>

namespace pmtrace::platform
{

trace_source_config trace_source_config::per_ns(uint32_t bytes)
{
    trace_source_config c;
    c.bytes_per_interval = bytes;
    c.interval = sc_core::sc_time(1, sc_core::SC_NS);
    return c;
}

trace_source_config trace_source_config::per_cycle(uint32_t bytes, const sc_core::sc_time &clock)
{
    trace_source_config c;
    c.bytes_per_interval = bytes;
    c.interval = clock;
    return c;
}

trace_source::trace_source(const sc_core::sc_module_name &name, const trace_source_config &config)
    : sc_module(name), sink("sink"), config_(config), running_(config.start_enabled)
{
    if (config_.interval == sc_core::SC_ZERO_TIME) {
        SC_REPORT_WARNING(this->name(), "interval must not be zero: using 1 ns");
        config_.interval = sc_core::sc_time(1, sc_core::SC_NS);
    }
    SC_HAS_PROCESS(trace_source);
    SC_THREAD(run);
    SC_METHOD(flush);
    sensitive << flush_event_;
    dont_initialize();
}

void trace_source::start()
{
    if (!running_) {
        running_ = true;
        start_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

void trace_source::stop()
{
    running_ = false;
}

void trace_source::flush_request()
{
    flushes_++;
    flush_event_.notify(config_.flush_latency); // never within the request
}

uint64_t trace_source::accrued_now() const
{
    if (!running_)
        return delivered_in_interval_;
    const double part = (sc_core::sc_time_stamp() - interval_start_) / config_.interval;
    const uint64_t accrued = static_cast<uint64_t>(part * config_.bytes_per_interval);
    return std::min<uint64_t>(accrued, config_.bytes_per_interval);
}

void trace_source::deliver(uint64_t n)
{
    if (config_.limit)
        n = std::min(n, config_.limit - std::min(config_.limit, sent_));
    while (n) {
        uint64_t chunk = n;
        const bool crosses = config_.trigger_after && !triggered_ &&
                             sent_ < config_.trigger_after && sent_ + n >= config_.trigger_after;
        if (crosses)
            chunk = config_.trigger_after - sent_;
        buffer_.resize(chunk);
        for (uint64_t i = 0; i < chunk; i++)
            buffer_[i] = static_cast<uint8_t>(sent_ + i);
        sent_ += chunk;
        n -= chunk;
        if (trace_sink_if *s = sink.get_interface(0))
            s->trace_bytes(buffer_.data(), buffer_.size());
        if (crosses) {
            triggered_ = true;
            triggers_++;
            if (trace_sink_if *s = sink.get_interface(0))
                s->detected_trigger();
        }
    }
}

void trace_source::flush()
{
    const uint64_t accrued = accrued_now();
    if (accrued > delivered_in_interval_) {
        deliver(accrued - delivered_in_interval_);
        delivered_in_interval_ = accrued;
    }
    if (trace_sink_if *s = sink.get_interface(0))
        s->flush_complete();
}

void trace_source::run()
{
    wait(config_.start_delay);
    for (;;) {
        if (!running_ || (config_.limit && sent_ >= config_.limit)) {
            wait(start_event_);
            continue;
        }
        interval_start_ = sc_core::sc_time_stamp();
        delivered_in_interval_ = 0;
        wait(config_.interval);
        if (!running_)
            continue;
        deliver(config_.bytes_per_interval - delivered_in_interval_);
        delivered_in_interval_ = 0;
    }
}

} // namespace pmtrace::platform
