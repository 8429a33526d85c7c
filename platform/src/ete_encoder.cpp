// ete_encoder.cpp - the packets of a waypoint trace, and periodic re-synchronization.
#include "pmtrace/platform/ete_encoder.h"

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
}

ete_registers ete_encoder::registers() const
{
    ete_registers r;
    r.trctraceidr = config_.trace_id;
    return r;
}

void ete_encoder::emit(uint8_t byte)
{
    pending_.push_back(byte);
    emitted_++;
}

void ete_encoder::emit_async()
{
    sync_offsets_.push_back(emitted_);
    last_sync_ = emitted_;
    for (size_t i = 0; i < ete_packet::async_zeros; i++)
        emit(0x00);
    emit(ete_packet::async_end);
}

void ete_encoder::emit_trace_info()
{
    // PLCTL = 0: no INFO, KEY, SPEC or CYCT section. Every value they would carry is 0, which is
    // what this trace unit has: no cycle counting, no conditional or load/store P0 elements.
    emit(ete_packet::trace_info);
    emit(0x00);
}

void ete_encoder::emit_context()
{
    // No V or C bit: TRCCONFIGR.VMID and .CID are 0, so no VMID or context ID bytes follow.
    uint8_t info = static_cast<uint8_t>(ctx_.el & 0x3u);
    if (ctx_.aarch64)
        info |= ete_packet::context_sf;
    if (ctx_.ns)
        info |= ete_packet::context_ns;
    emit(ete_packet::context);
    emit(info);
}

void ete_encoder::emit_address(uint64_t a)
{
    // Instruction set 0 (A64) addresses are word aligned: the packet carries A[63:2], seven bits
    // in each of the first two bytes and eight in each of the other six.
    emit(ete_packet::address_long_64_is0);
    emit(static_cast<uint8_t>((a >> 2) & 0x7F));
    emit(static_cast<uint8_t>((a >> 9) & 0x7F));
    for (unsigned shift = 16; shift < 64; shift += 8)
        emit(static_cast<uint8_t>(a >> shift));
}

void ete_encoder::maybe_resync()
{
    if (config_.resync_period == 0 || emitted_ - last_sync_ < config_.resync_period)
        return;
    if (!current_) {
        // A restart point without an address would leave a decoder that starts here with atoms
        // it cannot place; wait for address() instead.
        if (!resync_waiting_logged_)
            log_line(config_.log, "ete_encoder: re-synchronization postponed until the current "
                                  "address is known (call address())");
        resync_waiting_logged_ = true;
        return;
    }
    resync_waiting_logged_ = false;
    emit_async();
    emit_trace_info();
    emit_context();
    emit_address(*current_);
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
    ctx_ = ctx;
    current_ = address;
    started_ = true;
    emit_async();
    emit_trace_info();
    emit(ete_packet::trace_on);
    emit_context();
    emit_address(address);
    return ete_status::ok;
}

ete_status ete_encoder::atom(bool taken)
{
    if (!started_)
        return refuse_unstarted("atom()");
    const std::optional<uint64_t> from = current_;
    std::optional<uint64_t> next;
    if (from && program_)
        next = program_(*from, taken);
    if (next && (*next & 0x3))
        next.reset(); // a map that answers an unaligned address does not know the program
    emit(taken ? ete_packet::atom_f1_e : ete_packet::atom_f1_n);
    current_ = next;
    if (from && !next)
        log_line(config_.log, "ete_encoder: the program does not say where execution goes after "
                              "the waypoint of the run from " +
                                  hex(*from) + "; the address is unknown until address()");
    maybe_resync();
    return next ? ete_status::ok : ete_status::address_unknown;
}

ete_status ete_encoder::atom(bool taken, uint64_t next_address)
{
    if (!started_)
        return refuse_unstarted("atom()");
    if (next_address & 0x3) {
        log_line(config_.log, "ete_encoder: atom() continuing at " + hex(next_address) +
                                  ", not a 4-byte aligned A64 instruction address: not emitted");
        return ete_status::bad_argument;
    }
    emit(taken ? ete_packet::atom_f1_e : ete_packet::atom_f1_n);
    current_ = next_address;
    maybe_resync();
    return ete_status::ok;
}

ete_status ete_encoder::address(uint64_t a)
{
    if (!started_)
        return refuse_unstarted("address()");
    if (a & 0x3) {
        log_line(config_.log, "ete_encoder: address " + hex(a) +
                                  " is not a 4-byte aligned A64 instruction address: not emitted");
        return ete_status::bad_argument;
    }
    emit_address(a);
    current_ = a;
    maybe_resync();
    return ete_status::ok;
}

ete_encoder::position ete_encoder::mark() const
{
    return position{emitted_, last_sync_, sync_offsets_.size(), current_, ctx_, started_};
}

bool ete_encoder::rollback(const position &p)
{
    if (p.emitted > emitted_ || emitted_ - p.emitted > pending_.size() ||
        p.syncs > sync_offsets_.size()) {
        log_line(config_.log, "ete_encoder: rollback() to a position whose bytes were already "
                              "taken (or that is not from this stream): refused");
        return false;
    }
    pending_.resize(pending_.size() - static_cast<size_t>(emitted_ - p.emitted));
    emitted_ = p.emitted;
    last_sync_ = p.last_sync;
    sync_offsets_.resize(p.syncs);
    current_ = p.current;
    ctx_ = p.ctx;
    started_ = p.started;
    return true;
}

void ete_encoder::take(std::vector<uint8_t> &out)
{
    out.insert(out.end(), pending_.begin(), pending_.end());
    pending_.clear();
}

} // namespace pmtrace::platform
