// ete_encoder.cpp - the waypoint trace's packets through the C core's ETE packet encoder
// (pmt_ete_packet.h), flushed after every call, with log lines for refused calls.
#include "pmtrace/platform/trace/ete_encoder.h"

#include <sstream>
#include <utility>

namespace pmtrace::platform
{

namespace
{
std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

pmt_ete_pkt_context core_context(const ete_context &c)
{
    pmt_ete_pkt_context x{};
    x.el = c.el;
    x.security = c.ns ? PMT_ETE_NON_SECURE : PMT_ETE_SECURE;
    x.aarch64 = c.aarch64;
    return x;
}
} // namespace

ete_encoder::ete_encoder(const ete_encoder_config &config, waypoint_map program)
    : config_(config), program_(std::move(program))
{
    if (config_.trace_id < ete_fields::trace_id_min ||
        config_.trace_id > ete_fields::trace_id_max) {
        log_line(config_.log, "ete_encoder: trace ID " + hex(config_.trace_id) +
                                  " is not a usable CoreSight trace ID (0x1..0x6f): using 0x10");
        config_.trace_id = 0x10;
    }
    // Instruction trace only: no cycle counting, timestamps, context ID or VMID (registers()).
    pmt_ete_pkt_config c{};
    c.sync_period = config_.resync_period;
    pmt_ete_pkt_init(&enc_, &c); // cannot fail: cycle counting is off
}

ete_registers ete_encoder::registers() const
{
    ete_registers r;
    r.trctraceidr = config_.trace_id;
    return r;
}

std::optional<uint64_t> ete_encoder::current_address() const
{
    if (enc_.current == PMT_ETE_PKT_NO_ADDRESS)
        return std::nullopt;
    return enc_.current;
}

template <typename Call> ete_status ete_encoder::run(const char *what, Call call)
{
    // Room for one call and the flush after it: the core encoder never needs more.
    uint8_t buf[2 * PMT_ETE_PKT_MAX_CALL_BYTES];
    pmt_ete_pkt_sink sink{buf, sizeof buf, 0};
    const uint64_t syncs = enc_.syncs;
    const pmt_ete_pkt_status st = call(&sink);
    if (st == PMT_ETE_PKT_NOT_STARTED)
        return refuse_unstarted(what);
    if (st != PMT_ETE_PKT_OK) {
        log_line(config_.log, std::string("ete_encoder: ") + what + " refused (" +
                                  pmt_ete_pkt_status_name(st) + "): not emitted");
        return ete_status::bad_argument;
    }
    pmt_ete_pkt_flush(&enc_, &sink);
    if (enc_.syncs != syncs)
        sync_offsets_.push_back(enc_.last_sync);
    pending_.insert(pending_.end(), buf, buf + sink.length);
    // A restart point is due but cannot state where execution continues.
    if (config_.resync_period != 0 && enc_.on && enc_.current == PMT_ETE_PKT_NO_ADDRESS &&
        enc_.emitted - enc_.last_sync >= config_.resync_period) {
        if (!resync_waiting_logged_)
            log_line(config_.log, "ete_encoder: re-synchronization postponed until the current "
                                  "address is known (call address())");
        resync_waiting_logged_ = true;
    } else {
        resync_waiting_logged_ = false;
    }
    return ete_status::ok;
}

ete_status ete_encoder::refuse_unstarted(const char *what)
{
    log_line(config_.log, std::string("ete_encoder: ") + what + " before start(): not emitted");
    return ete_status::not_started;
}

ete_status ete_encoder::start(const ete_context &ctx, uint64_t address)
{
    if (ctx.el > 3) {
        log_line(config_.log, "ete_encoder: start() with Exception level " +
                                  std::to_string(ctx.el) + ": not emitted");
        return ete_status::bad_argument;
    }
    if (address & 0x3) {
        log_line(config_.log, "ete_encoder: start() at " + hex(address) +
                                  ", not a 4-byte aligned A64 instruction address: not emitted");
        return ete_status::bad_argument;
    }
    const pmt_ete_pkt_context c = core_context(ctx);
    const ete_status st = run("start()", [&](pmt_ete_pkt_sink *sink) {
        return pmt_ete_pkt_start(&enc_, sink, &c, address);
    });
    if (st == ete_status::ok)
        ctx_ = ctx;
    return st;
}

ete_status ete_encoder::atom(bool taken)
{
    if (!enc_.on)
        return refuse_unstarted("atom()");
    const std::optional<uint64_t> from = current_address();
    std::optional<uint64_t> next;
    if (from && program_)
        next = program_(*from, taken);
    if (next && (*next & 0x3))
        next.reset(); // a map that answers an unaligned address does not know the program
    const uint64_t to = next ? *next : PMT_ETE_PKT_NO_ADDRESS;
    if (from && !next)
        log_line(config_.log, "ete_encoder: the program does not say where execution goes after "
                              "the waypoint of the run from " +
                                  hex(*from) + "; the address is unknown until address()");
    const ete_status st = run(
        "atom()", [&](pmt_ete_pkt_sink *sink) { return pmt_ete_pkt_atom(&enc_, sink, taken, to); });
    if (st != ete_status::ok)
        return st;
    return next ? ete_status::ok : ete_status::address_unknown;
}

ete_status ete_encoder::atom(bool taken, uint64_t next_address)
{
    if (!enc_.on)
        return refuse_unstarted("atom()");
    if (next_address & 0x3) {
        log_line(config_.log, "ete_encoder: atom() continuing at " + hex(next_address) +
                                  ", not a 4-byte aligned A64 instruction address: not emitted");
        return ete_status::bad_argument;
    }
    return run("atom()", [&](pmt_ete_pkt_sink *sink) {
        return pmt_ete_pkt_atom(&enc_, sink, taken, next_address);
    });
}

ete_status ete_encoder::address(uint64_t a)
{
    if (!enc_.on)
        return refuse_unstarted("address()");
    if (a & 0x3) {
        log_line(config_.log, "ete_encoder: address " + hex(a) +
                                  " is not a 4-byte aligned A64 instruction address: not emitted");
        return ete_status::bad_argument;
    }
    return run("address()",
               [&](pmt_ete_pkt_sink *sink) { return pmt_ete_pkt_address(&enc_, sink, a); });
}

ete_encoder::position ete_encoder::mark() const
{
    return position{
        enc_.emitted, enc_.last_sync, sync_offsets_.size(), current_address(), ctx_, enc_.on, enc_};
}

bool ete_encoder::rollback(const position &p)
{
    if (p.emitted > enc_.emitted || enc_.emitted - p.emitted > pending_.size() ||
        p.syncs > sync_offsets_.size()) {
        log_line(config_.log, "ete_encoder: rollback() to a position whose bytes were already "
                              "taken (or that is not from this stream): refused");
        return false;
    }
    pending_.resize(pending_.size() - static_cast<size_t>(enc_.emitted - p.emitted));
    sync_offsets_.resize(p.syncs);
    enc_ = p.state;
    ctx_ = p.ctx;
    return true;
}

void ete_encoder::take(std::vector<uint8_t> &out)
{
    out.insert(out.end(), pending_.begin(), pending_.end());
    pending_.clear();
}

} // namespace pmtrace::platform
