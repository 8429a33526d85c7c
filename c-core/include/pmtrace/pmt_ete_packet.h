/*
 * pmt_ete_packet.h - the packet encoder of the ETE trace unit (FEAT_ETE): trace-unit-level calls
 * in, the bytes of an ETE instruction trace stream out, in the form OpenCSD and Linux perf decode.
 *
 * Plain data: the caller allocates a pmt_ete_pkt_encoder (no allocation, no I/O) and passes a
 * byte sink to every call. A call appends whole packets to the sink, or nothing: when its bytes
 * do not fit, it answers PMT_ETE_PKT_SINK_FULL and leaves the encoder as it was, so the caller can
 * drain the sink (pmt_trbe_trace on sink.data, then pmt_ete_pkt_sink_consume) and call again.
 *
 * The encoder keeps the protocol's own state:
 *   - the address history (three entries, pushed by every address packet, cleared by Trace Info),
 *     so that an address is sent in its shortest form: exact match, short (A[8:2] or A[16:2]),
 *     long 32-bit (A[63:32] as in the newest entry) or long 64-bit;
 *   - the pending atoms, packed into the densest atom formats (1 to 6) when another packet must
 *     follow, when 24 are pending, or on pmt_ete_pkt_flush;
 *   - the bytes since the last A-Sync: once at least config.sync_period bytes have passed, the end
 *     of a call adds A-Sync, Trace Info and the context with the address of the next instruction;
 *   - the current PE context: a Context packet only when a traced field changed;
 *   - the last timestamp: only the changed low-order bits are sent, all of them after a sync.
 *
 * docs/trace.md describes the packets; docs/choices.md the choices the protocol leaves open.
 */
#ifndef PMTRACE_PMT_ETE_PACKET_H
#define PMTRACE_PMT_ETE_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An address the caller does not know (A64 addresses are 4-byte aligned; this one is not). */
#define PMT_ETE_PKT_NO_ADDRESS        UINT64_MAX
/* A Cycle Count element whose count is UNKNOWN (a value of 0 indicates that, RPFZXK): Cycle
 * Count format 1 with U = 1. */
#define PMT_ETE_PKT_CC_UNKNOWN        0u
/* The most bytes one call appends: a call never refuses a sink with this much room. */
#define PMT_ETE_PKT_MAX_CALL_BYTES    160u
/* The most atoms held before the oldest are packed (one Atom format 6 packet holds 24). */
#define PMT_ETE_PKT_MAX_PENDING_ATOMS 24u

typedef enum pmt_ete_pkt_status {
    PMT_ETE_PKT_OK = 0,
    PMT_ETE_PKT_NULL,         /* a required pointer is NULL */
    PMT_ETE_PKT_BAD_CONFIG,   /* pmt_ete_pkt_init: a configuration field is out of range */
    PMT_ETE_PKT_NOT_STARTED,  /* trace is off: start (or trace_on) first; nothing emitted */
    PMT_ETE_PKT_BAD_ARGUMENT, /* an unaligned address, an EL above 3, an exception type ETE does
                                 not define, a cycle count below the threshold...: nothing emitted
                               */
    PMT_ETE_PKT_NOT_ENABLED,  /* a timestamp or cycle count that TRCCONFIGR did not enable */
    PMT_ETE_PKT_SINK_FULL     /* the packets do not fit in the sink: nothing emitted */
} pmt_ete_pkt_status;

const char *pmt_ete_pkt_status_name(pmt_ete_pkt_status status);

/* The Security state a Context packet states (NS and, with FEAT_RME, NSE). */
typedef enum pmt_ete_security {
    PMT_ETE_SECURE = 0,
    PMT_ETE_NON_SECURE,
    PMT_ETE_ROOT,
    PMT_ETE_REALM
} pmt_ete_security;

/* The PE context. CONTEXTIDR_EL1 is traced when config.cid; with config.vmid the Virtual context
 * identifier is CONTEXTIDR_EL2 when config.vmidopt, else the VMID. */
typedef struct pmt_ete_pkt_context {
    unsigned el; /* Exception level, 0..3 */
    pmt_ete_security security;
    bool aarch64; /* SF: the PE is in AArch64 state */
    uint32_t contextidr_el1;
    uint32_t contextidr_el2;
    uint32_t vmid;
} pmt_ete_pkt_context;

/* What the trace unit's registers say about the stream (the trace unit decodes its registers
 * into these fields; pmt_regs.h has the layouts). */
typedef struct pmt_ete_pkt_config {
    bool cci;              /* TRCCONFIGR.CCI: cycle counting */
    bool cid;              /* TRCCONFIGR.CID: context ID tracing */
    bool vmid;             /* TRCCONFIGR.VMID: virtual context ID tracing */
    bool ts;               /* TRCCONFIGR.TS: global timestamps */
    bool rs;               /* TRCCONFIGR.RS: return stack (no packet of its own: see trace.md) */
    bool vmidopt;          /* TRCCONFIGR.VMIDOPT: CONTEXTIDR_EL2 as the virtual context ID */
    uint32_t sync_period;  /* bytes between A-Syncs (2^TRCSYNCPR.PERIOD); 0: none periodic */
    uint32_t cc_threshold; /* TRCCCCTLR.THRESHOLD, 1..0xFFF when cci */
    unsigned cc_size_bits; /* TRCIDR2.CCSIZE as a width, 12..20: cycle counts must fit */
} pmt_ete_pkt_config;

/* ETE exception types (the Exception packet's TYPE field, A-profile). */
typedef enum pmt_ete_exception {
    PMT_ETE_EXC_RESET = 0x0,
    PMT_ETE_EXC_DEBUG_HALT = 0x1,
    PMT_ETE_EXC_CALL = 0x2, /* SVC, HVC, SMC */
    PMT_ETE_EXC_TRAP = 0x3,
    PMT_ETE_EXC_SERROR = 0x4,
    PMT_ETE_EXC_INST_DEBUG = 0x6,
    PMT_ETE_EXC_DATA_DEBUG = 0x7,
    PMT_ETE_EXC_ALIGNMENT = 0xA,
    PMT_ETE_EXC_INST_FAULT = 0xB,
    PMT_ETE_EXC_DATA_FAULT = 0xC,
    PMT_ETE_EXC_IRQ = 0xE,
    PMT_ETE_EXC_FIQ = 0xF,
    PMT_ETE_EXC_IMPDEF0 = 0x10 /* ... PMT_ETE_EXC_IMPDEF0 + 7 */
} pmt_ete_exception;

/* Whether ETE defines the exception type (the values above). */
bool pmt_ete_pkt_exception_defined(pmt_ete_exception type);

/* Where packets go: data[length..capacity) is free. */
typedef struct pmt_ete_pkt_sink {
    uint8_t *data;
    size_t capacity;
    size_t length;
} pmt_ete_pkt_sink;

/* Drops the first n bytes (those the Trace Buffer Unit accepted); n above length drops all. */
void pmt_ete_pkt_sink_consume(pmt_ete_pkt_sink *sink, size_t n);

/* The encoder's state. Plain data: copying it is a checkpoint. Read-only for callers. */
typedef struct pmt_ete_pkt_encoder {
    pmt_ete_pkt_config config;
    bool on;                 /* trace is on (start or trace_on, until trace_off/discard/overflow) */
    bool need_sync;          /* the next start must begin with A-Sync and Trace Info */
    bool ctx_valid;          /* a context has been stated in the stream since the last sync */
    bool ts_valid;           /* last_ts has been stated since the last sync */
    pmt_ete_pkt_context ctx; /* the PE's context */
    pmt_ete_pkt_context stated; /* the context the stream last stated */
    uint64_t history[3];        /* address history, [0] the newest */
    uint64_t current;           /* address of the next instruction, or PMT_ETE_PKT_NO_ADDRESS */
    uint32_t atoms;             /* pending atoms, bit i = the i-th oldest, 1 = E */
    unsigned atom_count;
    uint64_t last_ts;
    uint64_t emitted;   /* bytes emitted since init */
    uint64_t last_sync; /* stream offset of the last A-Sync */
    uint64_t syncs;     /* A-Syncs emitted */
} pmt_ete_pkt_encoder;

/* Sets up an encoder (trace off, no sync yet). */
pmt_ete_pkt_status pmt_ete_pkt_init(pmt_ete_pkt_encoder *enc, const pmt_ete_pkt_config *config);

/* Trace starts at `address` (the next instruction) in context `ctx`: A-Sync, Trace Info, Trace On,
 * Context and Address. Called while trace is on, it restarts (pending atoms are emitted first). */
pmt_ete_pkt_status pmt_ete_pkt_start(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                     const pmt_ete_pkt_context *ctx, uint64_t address);
/* Trace resumes after trace_off (a filter let the PE's execution be traced again): Trace On,
 * Context when it changed, Address. After an overflow or a discard it is a start. */
pmt_ete_pkt_status pmt_ete_pkt_trace_on(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                        const pmt_ete_pkt_context *ctx, uint64_t address);
/* A waypoint: the branch was taken (E) or not (N). `next` is the address of the instruction
 * executed after it (PMT_ETE_PKT_NO_ADDRESS when unknown: periodic sync then waits). */
pmt_ete_pkt_status pmt_ete_pkt_atom(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                    uint64_t next);
/* A waypoint and the Cycle Count element of its commit (needs config.cci): the pending atoms and
 * this one, then a Cycle Count packet of `cycles` (at least config.cc_threshold and within
 * config.cc_size_bits, or PMT_ETE_PKT_CC_UNKNOWN), before a periodic synchronization. */
pmt_ete_pkt_status pmt_ete_pkt_atom_cc(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                       uint64_t next, uint32_t cycles);
/* `count` identical waypoints in succession (a loop of one range), each followed by execution at
 * `next`: the atoms of `count` pmt_ete_pkt_atom calls, E runs packed 24 to an Atom format 6
 * packet, with the periodic synchronization every sync_period bytes. *done says how many went
 * out: fewer than count when the sink filled up (PMT_ETE_PKT_SINK_FULL when none did: drain it)
 * or right after a periodic synchronization (a Timestamp may follow it); call again for the
 * rest. */
pmt_ete_pkt_status pmt_ete_pkt_atoms(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink, bool taken,
                                     uint64_t count, uint64_t next, uint64_t *done);
/* Execution continues at `target`: after an indirect branch's E atom, or any discontinuity. */
pmt_ete_pkt_status pmt_ete_pkt_address(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                       uint64_t target);
/* An exception: Exception packet with its preferred return address, then the target context and
 * the vector address `target`. With target PMT_ETE_PKT_NO_ADDRESS (the vector is not traced) the
 * Exception packet ends the trace, as trace_off: trace_on resumes it. */
pmt_ete_pkt_status pmt_ete_pkt_exception(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                         pmt_ete_exception type, uint64_t preferred_return,
                                         const pmt_ete_pkt_context *target_ctx, uint64_t target);
/* The same, then the Cycle Count element of its commit (as pmt_ete_pkt_atom_cc). */
pmt_ete_pkt_status pmt_ete_pkt_exception_cc(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                            pmt_ete_exception type, uint64_t preferred_return,
                                            const pmt_ete_pkt_context *target_ctx, uint64_t target,
                                            uint32_t cycles);
/* The PE context changed: pending atoms are emitted (they belong to the old context); a Context
 * packet follows, with the next address packet when one comes first. */
pmt_ete_pkt_status pmt_ete_pkt_context_change(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                              const pmt_ete_pkt_context *ctx);
/* A Timestamp packet: `value` is the generic counter; with_cc adds `cycles` (needs config.cci;
 * any value within the counter, 0 included: RMWJHD). */
pmt_ete_pkt_status pmt_ete_pkt_timestamp(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                         uint64_t value, bool with_cc, uint32_t cycles);
/* A Cycle Count packet: `cycles` since the last one (at least config.cc_threshold), or
 * PMT_ETE_PKT_CC_UNKNOWN. */
pmt_ete_pkt_status pmt_ete_pkt_cycle_count(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                           uint32_t cycles);
/* An Event packet: bit n of `events` (1..0xF) is TRCEVENTCTL0R event n. */
pmt_ete_pkt_status pmt_ete_pkt_event(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink,
                                     unsigned events);
/* The trace unit lost trace: an Overflow packet; trace is off until the next start/trace_on,
 * which re-synchronizes. */
pmt_ete_pkt_status pmt_ete_pkt_overflow(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink);
/* Trace stops with a Discard packet; the next start/trace_on re-synchronizes. */
pmt_ete_pkt_status pmt_ete_pkt_discard(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink);
/* Trace stops (a filter, or the trace unit is disabled): pending atoms are emitted; no packet. */
pmt_ete_pkt_status pmt_ete_pkt_trace_off(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink);
/* Emits the pending atoms (and a pending Context). */
pmt_ete_pkt_status pmt_ete_pkt_flush(pmt_ete_pkt_encoder *enc, pmt_ete_pkt_sink *sink);

/* Bytes pmt_ete_pkt_flush would append now (0: nothing is pending inside the encoder). */
size_t pmt_ete_pkt_pending_bytes(const pmt_ete_pkt_encoder *enc);

#ifdef __cplusplus
}
#endif

#endif
