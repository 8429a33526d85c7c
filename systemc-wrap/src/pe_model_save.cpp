// pe_model_save.cpp - save and restore of the module: the core's blob (pmt_pe_save) and the
// module's own state, at one simulated time (docs/systemc.md "Save and restore").
//
// What the module holds, and what a blob carries of it:
// - state, saved: the core (pmt_pe_save: every register, counter, the TRBE's partly filled
//   alignment unit, a pending flush, the trace unit); the cycle clock (its synchronisation point
//   and the cycles ended at it: the core has counted exactly those); the trace bus initiator's
//   local time (write_time_: where the next write starts); trace sink calls deferred to the next
//   delta (deferred_, from a trace unit calling back inside a callback).
// - derived, rebuilt: the overflow event and overflow_due_ (from the core's headroom and the
//   clock, as after any call); the output levels (pmt_pe_restore re-evaluates PMUIRQ, TRBIRQ,
//   the CTI overflow trigger, the halt request and the Profiling exception requests from the
//   restored registers and calls the ports whose level changes); next_edge_ of the clock.
// - the instance's own, kept: bindings (ports, sockets, the PC sample source), the DMI regions
//   (they describe this instance's bus), statistics (trace_stats(), event counts of the event
//   outputs), the log and its reported-once flags, the counter sampling of trace_counters, the
//   scratch buffers and payloads; the configuration (checked, never restored).
//
// Layout, in host byte order (a blob is for this build on this host): magic, version, the
// configuration's fingerprint, the time resolution (fs), the simulated time of the save, the
// clock, write_time_, the deferred calls, the core's blob, then a 64-bit FNV-1a checksum of all
// that precedes it.
#include "pmtrace/systemc/pe_model.h"

#include <cmath>
#include <cstring>
#include <string>

namespace pmtrace
{

namespace
{

constexpr uint32_t blob_magic = 0x43534D50u; // "PMSC"
constexpr uint32_t blob_version = 1;

// FNV-1a, 64 bits.
struct fnv1a {
    uint64_t h = 0xCBF29CE484222325u;
    void add(const void *data, size_t n)
    {
        const unsigned char *p = static_cast<const unsigned char *>(data);
        for (size_t i = 0; i < n; i++)
            h = (h ^ p[i]) * 0x100000001B3u;
    }
    template <typename T> void add(const T &v) { add(&v, sizeof v); }
};

uint64_t checksum(const unsigned char *data, size_t n)
{
    fnv1a f;
    f.add(data, n);
    return f.h;
}

uint64_t resolution_fs()
{
    return static_cast<uint64_t>(
        std::llround(sc_core::sc_get_time_resolution().to_seconds() * 1e15));
}

class writer
{
  public:
    explicit writer(std::vector<unsigned char> &out) : out_(out) {}
    void bytes(const void *data, size_t n)
    {
        const unsigned char *p = static_cast<const unsigned char *>(data);
        out_.insert(out_.end(), p, p + n);
    }
    template <typename T> void put(const T &v) { bytes(&v, sizeof v); }

  private:
    std::vector<unsigned char> &out_;
};

// Reads in order; any read beyond the end fails and keeps failing.
class reader
{
  public:
    reader(const unsigned char *data, size_t size) : p_(data), left_(size) {}
    bool bytes(void *to, size_t n)
    {
        if (!ok_ || n > left_)
            return ok_ = false;
        std::memcpy(to, p_, n);
        p_ += n;
        left_ -= n;
        return true;
    }
    template <typename T> bool get(T &v) { return bytes(&v, sizeof v); }
    // n bytes in place (valid while the blob lives).
    const unsigned char *take(size_t n)
    {
        if (!ok_ || n > left_) {
            ok_ = false;
            return nullptr;
        }
        const unsigned char *at = p_;
        p_ += n;
        left_ -= n;
        return at;
    }
    bool ok() const { return ok_; }
    size_t left() const { return left_; }

  private:
    const unsigned char *p_;
    size_t left_;
    bool ok_ = true;
};

} // namespace

// Two models whose fingerprints match behave alike from the same state: the core's
// configuration (its bytes: a config built from pmt_pe_config_default(), which zeroes it, has
// its padding zero) and the module's settings that change behaviour or timing. The logging
// settings do not count.
uint64_t pe_model::config_fingerprint() const
{
    fnv1a f;
    f.add(&config_.core, sizeof config_.core);
    f.add(config_.clock_period.value());
    f.add(config_.frame_latency.value());
    f.add(static_cast<uint32_t>(config_.trace_write_error));
    f.add(config_.trace_dmi);
    return f.h;
}

std::vector<unsigned char> pe_model::save()
{
    std::vector<unsigned char> blob;
    if (in_callback_) {
        core_log("pe_model::save: called from inside a call out of the model (a callback of the "
                 "Trace Buffer Unit): refused, the core is in the middle of an operation");
        return blob;
    }
    std::vector<unsigned char> core(pmt_pe_state_size(pe_));
    if (pmt_pe_save(pe_, core.data(), core.size()) != PMT_OK)
        return blob;
    writer w(blob);
    w.put(blob_magic);
    w.put(blob_version);
    w.put(config_fingerprint());
    w.put(resolution_fs());
    w.put(static_cast<uint64_t>(simcontext_->time_stamp().value()));
    const cycle_clock::state clock = clock_.saved();
    w.put(clock.synced);
    w.put(clock.cycles);
    w.put(static_cast<uint64_t>(write_time_.value()));
    w.put(static_cast<uint32_t>(deferred_.size()));
    for (const deferred_call &call : deferred_) {
        w.put(static_cast<uint32_t>(call.what));
        w.put(static_cast<uint64_t>(call.offset.value()));
        w.put(static_cast<uint64_t>(call.bytes.size()));
        w.bytes(call.bytes.data(), call.bytes.size());
    }
    w.put(static_cast<uint64_t>(core.size()));
    w.bytes(core.data(), core.size());
    w.put(checksum(blob.data(), blob.size()));
    return blob;
}

pmt_status pe_model::refuse_restore(const char *why, pmt_status status)
{
    core_log((std::string("pe_model::restore: ") + why + ": refused, nothing changed").c_str());
    return status;
}

pmt_status pe_model::restore(const std::vector<unsigned char> &blob)
{
    if (in_callback_)
        return refuse_restore("called from inside a call out of the model (a callback of the "
                              "Trace Buffer Unit)",
                              PMT_ERR_ARG);
    // Everything is checked before anything changes.
    uint64_t sum = 0;
    if (blob.size() < sizeof sum)
        return refuse_restore("not a saved pe_model state (too short)", PMT_ERR_STATE_BLOB);
    const size_t body = blob.size() - sizeof sum;
    std::memcpy(&sum, blob.data() + body, sizeof sum);
    if (sum != checksum(blob.data(), body))
        return refuse_restore("the checksum does not match: a corrupt or truncated blob",
                              PMT_ERR_STATE_BLOB);
    reader r(blob.data(), body);
    uint32_t magic = 0, version = 0;
    uint64_t fingerprint = 0, resolution = 0, saved_at = 0, write_time = 0;
    if (!r.get(magic) || magic != blob_magic || !r.get(version))
        return refuse_restore("not a saved pe_model state", PMT_ERR_STATE_BLOB);
    if (version != blob_version)
        return refuse_restore("a blob of another version", PMT_ERR_STATE_BLOB);
    if (!r.get(fingerprint) || fingerprint != config_fingerprint())
        return refuse_restore("saved by a model of another configuration", PMT_ERR_STATE_BLOB);
    if (!r.get(resolution) || resolution != resolution_fs())
        return refuse_restore("saved with another time resolution", PMT_ERR_STATE_BLOB);
    if (!r.get(saved_at) || saved_at != simcontext_->time_stamp().value())
        return refuse_restore(("saved at " + sc_core::sc_time::from_value(saved_at).to_string() +
                               ", now is " + simcontext_->time_stamp().to_string())
                                  .c_str(),
                              PMT_ERR_STATE_BLOB);
    cycle_clock::state clock;
    if (!r.get(clock.synced) || !r.get(clock.cycles) || !clock_.valid(clock))
        return refuse_restore("the clock's cycles do not match its time", PMT_ERR_STATE_BLOB);
    uint32_t ndeferred = 0;
    if (!r.get(write_time) || !r.get(ndeferred))
        return refuse_restore("not a saved pe_model state (too short)", PMT_ERR_STATE_BLOB);
    std::vector<deferred_call> deferred;
    for (uint32_t i = 0; i < ndeferred; i++) {
        uint32_t what = 0;
        uint64_t offset = 0, n = 0;
        if (!r.get(what) || what >= DEFER_KINDS || !r.get(offset) || !r.get(n) || n > r.left())
            return refuse_restore("a malformed deferred trace sink call", PMT_ERR_STATE_BLOB);
        const unsigned char *bytes = r.take(static_cast<size_t>(n));
        deferred.push_back({static_cast<int>(what), std::vector<uint8_t>(bytes, bytes + n),
                            sc_core::sc_time::from_value(offset)});
    }
    uint64_t core_size = 0;
    if (!r.get(core_size) || core_size != pmt_pe_state_size(pe_) || r.left() != core_size)
        return refuse_restore("the core's state has the wrong size", PMT_ERR_STATE_BLOB);
    const unsigned char *core = r.take(static_cast<size_t>(core_size));

    // The core checks its blob and changes nothing if it refuses (it says why). Its restore
    // calls the output callbacks, and may call the write callback: the module's clock and
    // initiator time are the saved ones meanwhile, and go back if the core refuses.
    const cycle_clock::state old_clock = clock_.saved();
    const sc_core::sc_time old_write_time = write_time_;
    call_offset_ = sc_core::SC_ZERO_TIME; // the outputs change at T
    clock_.restore(clock);
    write_time_ = sc_core::sc_time::from_value(write_time);
    if (pmt_pe_restore(pe_, core, static_cast<size_t>(core_size)) != PMT_OK) {
        clock_.restore(old_clock);
        write_time_ = old_write_time;
        return PMT_ERR_STATE_BLOB; // the core's line says why
    }
    deferred_ = std::move(deferred);
    if (!deferred_.empty())
        deferred_event_.notify(sc_core::SC_ZERO_TIME);
    // The overflow event from the restored counters and clock.
    overflow_due_ = cycle_clock::never;
    overflow_time_ = sc_core::sc_max_time();
    overflow_event_.cancel();
    rearm();
    return PMT_OK;
}

} // namespace pmtrace
