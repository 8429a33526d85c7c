// ete_encoder.h - the ETE packet encoder of the C core (pmtrace/pmt_ete_packet.h) for an
// instruction trace of waypoints: the bytes a trace unit hands a Trace Buffer Unit, in the form
// Linux perf and OpenCSD decode. A thin C++ wrapper: one encoder remains, in the C core.
//
// A waypoint trace does not list instructions: it says where execution starts (an address), and
// then for every branch (a waypoint) whether it was taken (an E atom) or not (an N atom); a
// decoder walks the program image from that address and follows the branches. So the encoder
// emits, in this order:
//
//   start()    A-Sync, Trace Info, Trace On, Address with Context (or Context and a shorter
//              Address: the core encoder picks the shortest address form)
//   atom()     one Atom format 1 packet per waypoint: 0xF7 taken (E), 0xF6 not taken (N)
//   address()  an Address packet: where execution continues after a discontinuity (the target of
//              an indirect branch the last E atom named), compressed against the address history
//
// The core encoder packs atoms into the densest atom formats; this wrapper flushes it after every
// call, so each call's bytes are in pending() when it returns and every waypoint is one byte:
// its producers (synthetic_trace_stream, ete_loop) budget bytes per waypoint and roll back whole
// iterations (docs/choices.md).
//
// A decoder can only start at an A-Sync, and after it needs a Trace Info, the PE context and an
// address before atoms mean anything. A buffer that wraps keeps only the newest bytes, so the
// encoder re-synchronizes periodically, as TRCSYNCPR asks a trace unit to: once at least
// `resync_period` bytes have been emitted since the last A-Sync, at the end of the call it emits
// A-Sync, Trace Info, and the context with the address of the instruction executed next. That is
// why it tracks the current address: atom() asks the program (a waypoint_map) where execution
// goes.
//
// Bad calls (an atom before start(), an address that is not 4-byte aligned, an Exception level
// above 3) are answered with a status and one log line; nothing is emitted for them.
#ifndef PMTRACE_PLATFORM_ETE_ENCODER_H
#define PMTRACE_PLATFORM_ETE_ENCODER_H

#include <pmtrace/platform/trace/trace_types.h>
#include <pmtrace/pmt_ete_packet.h>
#include <pmtrace/platform/trace/trace_log.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace pmtrace::platform
{

// Packet headers and lengths (ETE; the same encodings as ETMv4 for these packets), as this
// wrapper's configuration emits them (no cycle counting, context ID or VMID).
namespace ete_packet
{
constexpr size_t async_zeros = 11;  // A-Sync: eleven 0x00 bytes ...
constexpr uint8_t async_end = 0x80; // ... then 0x80
constexpr size_t async_size = 12;
constexpr uint8_t trace_info = 0x01; // + PLCTL 0x00: no sections (all values 0)
constexpr size_t trace_info_size = 2;
constexpr uint8_t trace_on = 0x04;
constexpr uint8_t context = 0x81; // + one info byte: EL [1:0], SF [4], NS [5]
constexpr size_t context_size = 2;
constexpr uint8_t context_sf = 1u << 4;
constexpr uint8_t context_ns = 1u << 5;
constexpr uint8_t address_context_32_is0 = 0x82; // + 4 address bytes + the info byte
constexpr size_t address_context_32_size = 6;
constexpr uint8_t address_context_64_is0 = 0x85; // + 8 address bytes + the info byte
constexpr size_t address_context_64_size = 10;
constexpr uint8_t address_long_64_is0 = 0x9D; // + 8 bytes: A[8:2], A[15:9], A[23:16] ... A[63:56]
constexpr size_t address_long_64_size = 9;
constexpr uint8_t atom_f1_e = 0xF7;
constexpr uint8_t atom_f1_n = 0xF6;
constexpr uint8_t ignore = 0x70;
// The most a restart point takes (its address with context in the 64-bit form; 6 bytes fewer
// when A[63:32] of the address are 0: the 32-bit form).
constexpr size_t resync_size = async_size + trace_info_size + address_context_64_size;
constexpr size_t start_size = resync_size + 1; // + Trace On
} // namespace ete_packet

// The PE state a Context packet states.
struct ete_context {
    unsigned el = 1;     // Exception level, 0..3
    bool ns = true;      // Non-secure
    bool aarch64 = true; // SF: the PE is in AArch64 state
};

struct ete_encoder_config {
    uint8_t trace_id = 0x10; // TRCTRACEIDR: not in the (unformatted) stream, but in registers()
    uint32_t resync_period = 1024; // bytes between A-Syncs (at least); 0: only the one of start()
    trace_log log;
};

enum class ete_status {
    ok,
    not_started,     // atom() or address() before start(): nothing emitted
    bad_argument,    // an unaligned address or an Exception level above 3: nothing emitted
    address_unknown, // the atom was emitted, but the program does not say where execution went:
                     // re-synchronization waits for the next address()
};

class ete_encoder
{
  public:
    // Where execution continues after the waypoint that ends the run starting at `from`, given
    // whether that branch was taken; nullopt when the program does not know.
    using waypoint_map = std::function<std::optional<uint64_t>(uint64_t from, bool taken)>;

    explicit ete_encoder(const ete_encoder_config &config = ete_encoder_config(),
                         waypoint_map program = waypoint_map());

    // Trace starts at `address` (the next instruction executed) in PE state `ctx`. Calling it
    // again restarts the trace (a new Trace On: a discontinuity).
    ete_status start(const ete_context &ctx, uint64_t address);
    // One waypoint: taken or not. The program map gives the next address; the second form states
    // it (for callers without a map).
    ete_status atom(bool taken);
    ete_status atom(bool taken, uint64_t next_address);
    // Execution continues at `address` (an indirect branch target, or any discontinuity).
    ete_status address(uint64_t address);

    // Appends the bytes emitted since the last take() to `out`.
    void take(std::vector<uint8_t> &out);
    const std::vector<uint8_t> &pending() const { return pending_; }

    // A point to come back to: rollback() undoes every packet emitted after mark() (for a
    // producer that tries whether a piece fits a budget). It refuses (false, one log line) when
    // take() has handed out bytes emitted after the mark.
    struct position {
        uint64_t emitted = 0, last_sync = 0;
        size_t syncs = 0;
        std::optional<uint64_t> current;
        ete_context ctx;
        bool started = false;
        pmt_ete_pkt_encoder state{}; // the core encoder's state at the mark
    };
    position mark() const;
    bool rollback(const position &p);

    bool started() const { return enc_.on; }
    uint64_t bytes_emitted() const { return enc_.emitted; }
    // The address of the next instruction executed, when known.
    std::optional<uint64_t> current_address() const;
    // Stream offsets of every A-Sync emitted (start()'s and the periodic ones), in order.
    const std::vector<uint64_t> &sync_offsets() const { return sync_offsets_; }
    // The trace unit registers that describe this stream (for the snapshot and the decoder).
    ete_registers registers() const;

  private:
    // Runs one core encoder call and flushes it into pending_; logs and maps its status.
    template <typename Call> ete_status run(const char *what, Call call);
    ete_status refuse_unstarted(const char *what);

    ete_encoder_config config_;
    waypoint_map program_;
    pmt_ete_pkt_encoder enc_{};
    std::vector<uint8_t> pending_;
    std::vector<uint64_t> sync_offsets_;
    ete_context ctx_;
    bool resync_waiting_logged_ = false;
};

} // namespace pmtrace::platform

#endif
