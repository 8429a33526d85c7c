// pe_model_trbe.cpp - the Trace Buffer Unit's connections: the trace bus initiator (the core's
// write callback), the trace sink a trace unit calls, and what the CPU calls (TSB CSYNC, ...).
//
// The trace bus initiator is loosely timed and never waits. The core's write callback runs
// synchronously inside the call that delivered the trace (pmt_trbe_trace, TSB CSYNC, a flush),
// so each write is done at once: a memcpy through a DMI pointer that covers it with write
// access, else one b_transport per TRBIDR_EL1.Align unit (or the part of one the write covers),
// with a local delay that starts at the time of the call - or when the previous write ended, if
// that is later - and accumulates the targets' latencies (b_transport's annotated delay; the
// DMI write latency once per unit). trace_write_time() is where it ends. A target must not call
// wait() in b_transport (the model warns once if simulated time moved during one).
//
// DMI: after a b_transport whose response allows DMI (the DMI hint), the initiator asks for a
// DMI pointer for the address and remembers what it got - a range with write access, or a range
// where DMI is refused - until the target invalidates it. Every response is checked: anything
// but TLM_OK_RESPONSE ends the write with an External abort (config.trace_write_error) after the
// units written before it.
#include "pmtrace/systemc/log.h"
#include "pmtrace/systemc/pe_model.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace pmtrace
{

namespace
{

constexpr size_t max_dmi_regions = 16;

// The alignment units [address, address + n) touches.
uint64_t units(uint64_t address, size_t n, unsigned align)
{
    return ((address + n - 1) >> align) - (address >> align) + 1;
}

} // namespace

// --- The trace bus initiator ---

pmt_trbe_write_result pe_model::trace_write(uint64_t pa, pmt_security pas, const uint8_t *bytes,
                                            size_t n, size_t *done)
{
    *done = 0;
    if (trace_bus.size() == 0) { // no memory bound: the bytes are dropped
        *done = n;
        return PMT_TRBE_WRITE_OK;
    }
    const unsigned align = config_.core.trbe.align;
    const uint64_t unit = uint64_t{1} << align;
    const sc_core::sc_time now = simcontext_->time_stamp();
    // The local time of the initiator: the time of the call (the clock's synchronisation
    // point), or the end of the previous write.
    const sc_core::sc_time start = std::max({now, clock_.now(), write_time_});
    sc_core::sc_time delay = start - now;
    pmt_trbe_write_result result = PMT_TRBE_WRITE_OK;
    size_t pos = 0;
    while (pos < n) {
        const uint64_t address = pa + pos;
        const dmi_region *r = config_.trace_dmi ? find_dmi(address, pas) : nullptr;
        if (r && r->ptr) {
            // Up to the end of the range (which may be the end of the address space).
            const uint64_t room = r->end - address; // bytes after the first one
            size_t len = room >= n - pos - 1 ? n - pos : static_cast<size_t>(room + 1);
            std::memcpy(r->ptr + (address - r->start), bytes + pos, len);
            if (r->write_latency != sc_core::SC_ZERO_TIME)
                delay += sc_core::sc_time::from_value(r->write_latency.value() *
                                                      units(address, len, align));
            trace_stats_.dmi_bytes += len;
            pos += len;
            continue;
        }
        size_t len =
            static_cast<size_t>(std::min<uint64_t>(n - pos, unit - (address & (unit - 1))));
        if (!transport_unit(address, pas, bytes + pos, len, delay)) {
            result = config_.trace_write_error == trace_write_abort::asynchronous
                         ? PMT_TRBE_WRITE_ABORT_ASYNC
                         : PMT_TRBE_WRITE_ABORT_SYNC;
            break;
        }
        pos += len;
    }
    *done = pos;
    write_time_ = now + delay;
    return result;
}

bool pe_model::transport_unit(uint64_t address, pmt_security pas, const uint8_t *bytes, size_t n,
                              sc_core::sc_time &delay)
{
    // The payload's data array is not const: the target gets a copy.
    std::memcpy(unit_.data(), bytes, n);
    tlm::tlm_generic_payload &tx = trace_tx_;
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(address);
    tx.set_data_ptr(unit_.data());
    tx.set_data_length(static_cast<unsigned>(n));
    tx.set_streaming_width(static_cast<unsigned>(n));
    tx.set_byte_enable_ptr(nullptr);
    tx.set_byte_enable_length(0);
    tx.set_dmi_allowed(false);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trace_ext_->security = pas;
    const sc_core::sc_time before = simcontext_->time_stamp();
    trace_bus->b_transport(tx, delay);
    trace_stats_.transactions++;
    if (simcontext_->time_stamp() != before && !wait_warned_) {
        wait_warned_ = true;
        SC_REPORT_WARNING(name(), "the trace bus target waited in b_transport: the trace buffer "
                                  "writes are made inside the model's calls, and a target must "
                                  "not wait (reported once)");
    }
    if (!tx.is_response_ok()) {
        trace_stats_.errors++;
        if (log_.enabled(config_.access_verbosity)) {
            char buf[160];
            std::snprintf(
                buf, sizeof buf,
                "trace_bus: %zu-byte write at 0x%llx answered %s: %s External abort", n,
                static_cast<unsigned long long>(address), tx.get_response_string().c_str(),
                config_.trace_write_error == trace_write_abort::asynchronous ? "an asynchronous"
                                                                             : "a synchronous");
            log_.info(buf, config_.access_verbosity);
        }
        return false;
    }
    trace_stats_.transport_bytes += n;
    if (config_.trace_dmi && tx.is_dmi_allowed() && !find_dmi(address, pas))
        request_dmi(address, pas);
    return true;
}

const pe_model::dmi_region *pe_model::find_dmi(uint64_t address, pmt_security pas)
{
    if (dmi_hit_ < dmi_.size()) {
        const dmi_region &r = dmi_[dmi_hit_];
        if (address >= r.start && address <= r.end && r.pas == pas)
            return &r;
    }
    for (size_t i = dmi_.size(); i-- > 0;) {
        const dmi_region &r = dmi_[i];
        if (address >= r.start && address <= r.end && r.pas == pas) {
            dmi_hit_ = i;
            return &r;
        }
    }
    return nullptr;
}

void pe_model::request_dmi(uint64_t address, pmt_security pas)
{
    tlm::tlm_dmi dmi;
    dmi_tx_.set_command(tlm::TLM_WRITE_COMMAND);
    dmi_tx_.set_address(address);
    dmi_tx_.set_data_ptr(nullptr);
    dmi_tx_.set_data_length(0);
    dmi_tx_.set_streaming_width(0);
    dmi_tx_.set_byte_enable_ptr(nullptr);
    dmi_tx_.set_byte_enable_length(0);
    dmi_tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    dmi_ext_->security = pas;
    trace_stats_.dmi_requests++;
    bool granted = trace_bus->get_direct_mem_ptr(dmi_tx_, dmi);
    dmi_region r{dmi.get_start_address(), dmi.get_end_address(), nullptr, dmi.get_write_latency(),
                 pas};
    if (granted && dmi.is_write_allowed() && dmi.get_dmi_ptr()) {
        r.ptr = dmi.get_dmi_ptr();
        trace_stats_.dmi_grants++;
    }
    // A range that does not hold the address (a target that says nothing): this unit only.
    if (r.start > address || r.end < address) {
        if (r.ptr)
            return;
        const uint64_t unit = uint64_t{1} << config_.core.trbe.align;
        r.start = address & ~(unit - 1);
        r.end = r.start + unit - 1;
    }
    if (dmi_.size() >= max_dmi_regions)
        dmi_.erase(dmi_.begin());
    dmi_.push_back(r);
    dmi_hit_ = dmi_.size() - 1;
}

void pe_model::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end)
{
    trace_stats_.invalidations++;
    dmi_.erase(
        std::remove_if(dmi_.begin(), dmi_.end(),
                       [&](const dmi_region &r) { return r.start <= end && start <= r.end; }),
        dmi_.end());
    dmi_hit_ = 0;
}

// --- trace_sink_if ---

pmt_status pe_model::trace_input(pmt_status status)
{
    if (status == PMT_ERR_NOT_IMPLEMENTED && !trace_warned_) {
        trace_warned_ = true;
        SC_REPORT_WARNING(name(), "trace sink called on a model without FEAT_TRBE "
                                  "(core.trbe.feat_trbe): ignored (reported once)");
    }
    return status;
}

void pe_model::defer(int what, const uint8_t *data, size_t n, const sc_core::sc_time &offset)
{
    deferred_.push_back({what, std::vector<uint8_t>(data, data + n), offset});
    deferred_event_.notify(sc_core::SC_ZERO_TIME);
}

// One delta after a trace sink call came from inside a callback: the calls in their order
// (also those deferred while these run).
void pe_model::run_deferred()
{
    while (!deferred_.empty()) {
        deferred_call call = std::move(deferred_.front());
        deferred_.erase(deferred_.begin());
        perform(call.what, call.bytes.data(), call.bytes.size(), call.offset);
    }
}

void pe_model::perform(int what, const uint8_t *data, size_t n, const sc_core::sc_time &offset)
{
    advance(offset);
    switch (what) {
    case DEFER_BYTES: trace_input(pmt_trbe_trace(pe_, data, n, nullptr)); break;
    case DEFER_TRIGGER: trace_input(pmt_trbe_detected_trigger(pe_)); break;
    default: trace_input(pmt_trbe_flush_complete(pe_)); break;
    }
    rearm();
}

// In order, after the calls already deferred.
void pe_model::trace_bytes(const uint8_t *data, size_t n, const sc_core::sc_time &offset)
{
    if (in_callback_ || !deferred_.empty())
        defer(DEFER_BYTES, data, n, offset);
    else
        perform(DEFER_BYTES, data, n, offset);
}

void pe_model::detected_trigger(const sc_core::sc_time &offset)
{
    if (in_callback_ || !deferred_.empty())
        defer(DEFER_TRIGGER, nullptr, 0, offset);
    else
        perform(DEFER_TRIGGER, nullptr, 0, offset);
}

void pe_model::flush_complete(const sc_core::sc_time &offset)
{
    if (in_callback_ || !deferred_.empty())
        defer(DEFER_FLUSH_COMPLETE, nullptr, 0, offset);
    else
        perform(DEFER_FLUSH_COMPLETE, nullptr, 0, offset);
}

// --- trbe_cpu_if ---

pmt_status pe_model::tsb_csync(const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_trbe_tsb_csync(pe_);
    rearm();
    return status;
}

pmt_status pe_model::external_abort(unsigned stage, const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_trbe_external_abort(pe_, stage);
    rearm();
    return status;
}

pmt_status pe_model::impdef_event(uint16_t mss, uint32_t mss2, const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_trbe_impdef_event(pe_, mss, mss2);
    rearm();
    return status;
}

pmt_trbe_status pe_model::trbe_status() const
{
    pmt_trbe_status status{};
    pmt_trbe_get_status(pe_, &status);
    return status;
}

} // namespace pmtrace
