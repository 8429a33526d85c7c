// The ETE packet encoder's non-atom packets, checked by OpenCSD's ETE decoder (ete_decode.h):
// exceptions, contexts, timestamps, cycle counts, events, overflow, periodic re-synchronization
// and bad calls.
#include "ete_decode.h"

#include <gtest/gtest.h>

using namespace ete_test;

namespace
{

pmt_ete_pkt_context context(unsigned el, pmt_ete_security sec = PMT_ETE_NON_SECURE)
{
    pmt_ete_pkt_context c{};
    c.el = el;
    c.security = sec;
    c.aarch64 = true;
    return c;
}

constexpr uint64_t user = 0x400000;           // EL0 code
constexpr uint64_t vbar = 0xFFFF800010000000; // EL1 vectors
constexpr uint64_t lower_sync = vbar + 0x400; // synchronous exception from a lower EL, AArch64
constexpr uint64_t lower_irq = vbar + 0x480;

// EL0: NOP, NOP, SVC #0, NOP, B.NE user (word 4); vectors: NOP, ERET at both entries.
image svc_program()
{
    image img;
    img.word(user, a64_nop);
    img.word(user + 4, a64_nop);
    img.word(user + 8, a64_svc0);
    img.word(user + 12, a64_nop);
    img.word(user + 16, a64_b_ne(user + 16, user));
    img.word(lower_sync, a64_nop);
    img.word(lower_sync + 4, a64_eret);
    img.word(lower_irq, a64_nop);
    img.word(lower_irq + 4, a64_eret);
    return img;
}

// B.NE to itself at `user`.
image loop()
{
    image img;
    img.word(user, a64_b_ne(user, user));
    return img;
}

// The stream after one more E atom on loop(): the decoder outputs timestamps, cycle counts and
// events when a P0 element after them commits them.
std::vector<uint8_t> with_atom(encoder &e)
{
    EXPECT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    return e.bytes();
}

// Starts trace at `user` on loop() and records one E atom.
void start_on_loop(encoder &e, const pmt_ete_pkt_context &ctx)
{
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
}

} // namespace

// SVC at EL0: the instructions up to the SVC, the exception (type Call, preferred return address
// the instruction after the SVC), the EL1 context, the handler up to ERET, EL0 again.
TEST(EtePacketException, SvcAndEretDecodeWithTypeReturnAddressAndContexts)
{
    encoder e;
    const pmt_ete_pkt_context el0 = context(0), el1 = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &el0, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_exception(&e.enc, &e.sink, PMT_ETE_EXC_CALL, user + 12, &el1, lower_sync),
              PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user + 12), PMT_ETE_PKT_OK); // ERET
    ASSERT_EQ(pmt_ete_pkt_context_change(&e.enc, &e.sink, &el0), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_address(&e.enc, &e.sink, user + 12), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, false, user + 20), PMT_ETE_PKT_OK); // B.NE
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);

    const decoded d = decode(e.bytes(), svc_program(), e.config);
    EXPECT_EQ(d.errors, 0u);
    std::vector<element> seq;
    for (const element &x : d.elements)
        if (x.k != kind::trace_on && x.k != kind::no_sync)
            seq.push_back(x);
    ASSERT_EQ(seq.size(), 7u);
    EXPECT_EQ(seq[0].k, kind::context);
    EXPECT_EQ(seq[0].el, 0u);
    EXPECT_EQ(seq[1].k, kind::range); // NOP, NOP, SVC
    EXPECT_EQ(seq[1].a, user);
    EXPECT_EQ(seq[1].b, user + 12);
    EXPECT_EQ(seq[1].n, 3u);
    EXPECT_EQ(seq[2].k, kind::exception);
    EXPECT_EQ(seq[2].n, static_cast<uint32_t>(PMT_ETE_EXC_CALL));
    EXPECT_EQ(seq[2].b, user + 12);
    EXPECT_EQ(seq[3].k, kind::context);
    EXPECT_EQ(seq[3].el, 1u);
    EXPECT_EQ(seq[4].k, kind::range); // NOP, ERET
    EXPECT_EQ(seq[4].a, lower_sync);
    EXPECT_EQ(seq[4].n, 2u);
    EXPECT_TRUE(seq[4].taken);
    EXPECT_EQ(seq[5].k, kind::context);
    EXPECT_EQ(seq[5].el, 0u);
    EXPECT_EQ(seq[6].k, kind::range); // NOP, B.NE not taken
    EXPECT_EQ(seq[6].a, user + 12);
    EXPECT_EQ(seq[6].n, 2u);
    EXPECT_FALSE(seq[6].taken);
}

// Every ETE exception type decodes as itself; an IRQ's preferred return address is the first
// instruction not executed. (PE Reset, type 0, is left out: OpenCSD 1.3.3's decoder drops out of
// synchronization at it, as at a new trace session.)
TEST(EtePacketException, EveryTypeDecodesAsItself)
{
    const pmt_ete_exception types[] = {
        PMT_ETE_EXC_DEBUG_HALT, PMT_ETE_EXC_CALL,
        PMT_ETE_EXC_TRAP,       PMT_ETE_EXC_SERROR,
        PMT_ETE_EXC_INST_DEBUG, PMT_ETE_EXC_DATA_DEBUG,
        PMT_ETE_EXC_ALIGNMENT,  PMT_ETE_EXC_INST_FAULT,
        PMT_ETE_EXC_DATA_FAULT, PMT_ETE_EXC_IRQ,
        PMT_ETE_EXC_FIQ,        static_cast<pmt_ete_exception>(PMT_ETE_EXC_IMPDEF0 + 7)};
    for (pmt_ete_exception t : types) {
        encoder e;
        const pmt_ete_pkt_context el0 = context(0), el1 = context(1);
        ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &el0, user), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_exception(&e.enc, &e.sink, t, user + 4, &el1, lower_irq),
                  PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user + 4), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
        const decoded d = decode(e.bytes(), svc_program(), e.config);
        EXPECT_EQ(d.errors, 0u);
        const auto ex = d.of(kind::exception);
        ASSERT_EQ(ex.size(), 1u) << t;
        EXPECT_EQ(ex[0].n, static_cast<uint32_t>(t));
        EXPECT_EQ(ex[0].b, user + 4);
        const auto r = d.of(kind::range);
        ASSERT_EQ(r.size(), 2u);
        EXPECT_EQ(r[0].a, user); // the one instruction executed before the exception
        EXPECT_EQ(r[0].n, 1u);
        EXPECT_EQ(r[1].a, lower_irq);
    }
}

// Context ID and VMID: carried when TRCCONFIGR.CID/VMID say so, only when they change; with
// VMIDOPT the virtual context ID is CONTEXTIDR_EL2. Security states incl. Root and Realm.
TEST(EtePacketContext, IdentifiersAndSecurityStatesDecode)
{
    pmt_ete_pkt_config c{};
    c.cid = true;
    c.vmid = true;
    encoder e(c);
    pmt_ete_pkt_context ctx = context(1);
    ctx.contextidr_el1 = 0x1234;
    ctx.vmid = 5;
    ctx.contextidr_el2 = 0xE2E2;
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    ctx.contextidr_el1 = 0x5678; // a new process: CID changes, VMID does not
    ASSERT_EQ(pmt_ete_pkt_context_change(&e.enc, &e.sink, &ctx), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    const size_t before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_context_change(&e.enc, &e.sink, &ctx), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.sink.length - before, 2u) << "E atom, F1 of the earlier pending E; no Context";
    const image img = loop();
    const decoded d = decode(e.bytes(), img, e.config);
    EXPECT_EQ(d.errors, 0u);
    const auto cx = d.of(kind::context);
    ASSERT_EQ(cx.size(), 2u);
    EXPECT_TRUE(cx[0].cid_valid);
    EXPECT_EQ(cx[0].cid, 0x1234u);
    EXPECT_TRUE(cx[0].vmid_valid);
    EXPECT_EQ(cx[0].vmid, 5u);
    EXPECT_TRUE(cx[1].cid_valid);
    EXPECT_EQ(cx[1].cid, 0x5678u);
    EXPECT_EQ(cx[1].vmid, 5u) << "VMID unchanged: not carried, the decoder keeps it";
    EXPECT_EQ(d.of(kind::range).size(), 3u);

    c.vmidopt = true;
    for (pmt_ete_security sec : {PMT_ETE_SECURE, PMT_ETE_NON_SECURE, PMT_ETE_ROOT, PMT_ETE_REALM}) {
        encoder f(c);
        pmt_ete_pkt_context x = ctx;
        x.security = sec;
        x.el = sec == PMT_ETE_ROOT ? 3 : 2;
        ASSERT_EQ(pmt_ete_pkt_start(&f.enc, &f.sink, &x, user), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_atom(&f.enc, &f.sink, true, user), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_flush(&f.enc, &f.sink), PMT_ETE_PKT_OK);
        const decoded g = decode(f.bytes(), img, f.config);
        const auto gx = g.of(kind::context);
        ASSERT_EQ(gx.size(), 1u);
        const ocsd_sec_level want[] = {ocsd_sec_secure, ocsd_sec_nonsecure, ocsd_sec_root,
                                       ocsd_sec_realm};
        EXPECT_EQ(gx[0].sec, want[sec]);
        EXPECT_EQ(gx[0].el, x.el);
        EXPECT_EQ(gx[0].vmid, 0xE2E2u) << "VMIDOPT: CONTEXTIDR_EL2";
    }
}

TEST(EtePacketTimestamp, ValuesDecodeFullAndCompressed)
{
    pmt_ete_pkt_config c{};
    c.ts = true;
    c.cci = true;
    c.cc_threshold = 4;
    c.cc_size_bits = 20;
    encoder e(c);
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    size_t before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x0123456789ABCDEFull, false, 0),
              PMT_ETE_PKT_OK);
    EXPECT_EQ(e.sink.length - before, 10u) << "the first after a sync: all 64 bits";
    before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x0123456789ABCDF0ull, false, 0),
              PMT_ETE_PKT_OK);
    EXPECT_EQ(e.sink.length - before, 2u) << "only bits [6:0]... changed: one 7-bit group";
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x0123456800000000ull, true, 777),
              PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x7123456800000000ull, false, 0),
              PMT_ETE_PKT_OK);
    const decoded d = decode(with_atom(e), loop(), e.config);
    const auto ts = d.of(kind::timestamp);
    ASSERT_EQ(ts.size(), 4u);
    EXPECT_EQ(ts[0].a, 0x0123456789ABCDEFull);
    EXPECT_EQ(ts[1].a, 0x0123456789ABCDF0ull);
    EXPECT_EQ(ts[2].a, 0x0123456800000000ull);
    EXPECT_TRUE(ts[2].has_cc);
    EXPECT_EQ(ts[2].n, 777u);
    EXPECT_EQ(ts[3].a, 0x7123456800000000ull);
}

TEST(EtePacketCycleCount, CountsDecodeAboveTheThreshold)
{
    pmt_ete_pkt_config c{};
    c.cci = true;
    c.cc_threshold = 4;
    c.cc_size_bits = 20;
    encoder e(c);
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    for (uint32_t n : {4u, 5u, 100u, 0xFFFFFu})
        ASSERT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, n), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, 3), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, 0x100000), PMT_ETE_PKT_BAD_ARGUMENT);
    const decoded d = decode(with_atom(e), loop(), e.config);
    const auto cc = d.of(kind::cycle_count);
    ASSERT_EQ(cc.size(), 4u);
    EXPECT_EQ(cc[0].n, 4u);
    EXPECT_EQ(cc[1].n, 5u);
    EXPECT_EQ(cc[2].n, 100u);
    EXPECT_EQ(cc[3].n, 0xFFFFFu);
}

// RPFZXK: a Cycle Count element of value 0 is an UNKNOWN count: Cycle Count format 1 with U = 1,
// one byte (TRCIDR0.COMMOPT 1: no commit field), which OpenCSD decodes as a count of 0.
TEST(EtePacketCycleCount, AnUnknownCountIsOneByteAndDecodesAsZero)
{
    pmt_ete_pkt_config c{};
    c.cci = true;
    c.cc_threshold = 4;
    c.cc_size_bits = 12;
    encoder e(c);
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    const size_t before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, PMT_ETE_PKT_CC_UNKNOWN), PMT_ETE_PKT_OK);
    ASSERT_EQ(e.sink.length - before, 1u);
    EXPECT_EQ(e.buffer[before], 0x0F);
    ASSERT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, 0xFFF), PMT_ETE_PKT_OK); // the 12-bit max
    EXPECT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, 0x1000), PMT_ETE_PKT_BAD_ARGUMENT);
    const decoded d = decode(with_atom(e), loop(), e.config);
    const auto cc = d.of(kind::cycle_count);
    ASSERT_EQ(cc.size(), 2u);
    EXPECT_EQ(cc[0].n, 0u);
    EXPECT_EQ(cc[1].n, 0xFFFu);
}

// The Cycle Count element of a P0 element's commit comes right after it: pmt_ete_pkt_atom_cc
// packs the pending atoms and this one, then the Cycle Count packet, and a periodic
// synchronization due after them, so a decoder that starts at that A-Sync sees no count of the
// commits before it. The ranges and the counts decode in that order.
TEST(EtePacketCycleCount, ACountFollowsItsAtomBeforeThePeriodicSync)
{
    pmt_ete_pkt_config c{};
    c.cci = true;
    c.cc_threshold = 1;
    c.cc_size_bits = 20;
    c.sync_period = 26;
    encoder e(c);
    const pmt_ete_pkt_context ctx = context(1);
    // A-Sync, Trace Info with INFO and CYCT (4 bytes), Trace On, Address with Context: 23 bytes.
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(e.sink.length, 23u);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK); // held
    EXPECT_EQ(e.sink.length, 23u);
    const size_t before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_atom_cc(&e.enc, &e.sink, true, user, 1000), PMT_ETE_PKT_OK);
    // Atom format 2 (E E), Cycle Count format 1 (1000 - 1 = 999: 0xE7 0x07), then the sync.
    ASSERT_GE(e.sink.length - before, 5u);
    EXPECT_EQ(e.buffer[before], 0xDB);
    EXPECT_EQ(e.buffer[before + 1], 0x0E);
    EXPECT_EQ(e.buffer[before + 2], 0xE7);
    EXPECT_EQ(e.buffer[before + 3], 0x07);
    EXPECT_EQ(e.buffer[before + 4], 0x00) << "A-Sync after the count";
    EXPECT_EQ(e.enc.syncs, 2u);
    ASSERT_EQ(pmt_ete_pkt_atom_cc(&e.enc, &e.sink, true, user, 2), PMT_ETE_PKT_OK);
    const decoded d = decode(with_atom(e), loop(), e.config);
    EXPECT_EQ(d.errors, 0u);
    std::string order;
    for (const element &x : d.elements)
        if (x.k == kind::range || x.k == kind::cycle_count)
            order += x.k == kind::range ? "r" : "c" + std::to_string(x.n);
    EXPECT_EQ(order, "rrc1000rc2r");
}

// An Exception element's count follows the Exception packet and its target address (the
// Exception element is a P0 element); with the vector not traced it ends the trace after them.
TEST(EtePacketCycleCount, AnExceptionsCountFollowsItsElement)
{
    pmt_ete_pkt_config c{};
    c.cci = true;
    c.cc_threshold = 4;
    c.cc_size_bits = 20;
    encoder e(c);
    const pmt_ete_pkt_context el0 = context(0), el1 = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &el0, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_exception_cc(&e.enc, &e.sink, PMT_ETE_EXC_CALL, user + 12, &el1,
                                       lower_sync, 25),
              PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom_cc(&e.enc, &e.sink, true, user + 12, 4), PMT_ETE_PKT_OK); // ERET
    ASSERT_EQ(pmt_ete_pkt_context_change(&e.enc, &e.sink, &el0), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_address(&e.enc, &e.sink, user + 12), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_exception_cc(&e.enc, &e.sink, PMT_ETE_EXC_IRQ, user + 16, &el1,
                                       PMT_ETE_PKT_NO_ADDRESS, PMT_ETE_PKT_CC_UNKNOWN),
              PMT_ETE_PKT_OK);
    EXPECT_FALSE(e.enc.on);
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    const decoded d = decode(e.bytes(), svc_program(), e.config);
    EXPECT_EQ(d.errors, 0u);
    std::string order;
    for (const element &x : d.elements)
        if (x.k == kind::range || x.k == kind::cycle_count || x.k == kind::exception)
            order += x.k == kind::range       ? "r"
                     : x.k == kind::exception ? "x"
                                              : "c" + std::to_string(x.n);
    EXPECT_EQ(order, "rxc25rc4rxc0");
}

// The calls with a cycle count need TRCCONFIGR.CCI and a count the threshold and the counter
// allow; a refused call emits nothing.
TEST(EtePacketCycleCount, BadCountsAreRefused)
{
    encoder off;
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&off.enc, &off.sink, &ctx, user), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_atom_cc(&off.enc, &off.sink, true, user, 100), PMT_ETE_PKT_NOT_ENABLED);
    EXPECT_EQ(pmt_ete_pkt_exception_cc(&off.enc, &off.sink, PMT_ETE_EXC_IRQ, user, &ctx, user, 100),
              PMT_ETE_PKT_NOT_ENABLED);
    pmt_ete_pkt_config c{};
    c.cci = true;
    c.cc_threshold = 4;
    c.cc_size_bits = 12;
    encoder e(c);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    const size_t before = e.sink.length;
    EXPECT_EQ(pmt_ete_pkt_atom_cc(&e.enc, &e.sink, true, user, 3), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_atom_cc(&e.enc, &e.sink, true, user, 0x1000), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_exception_cc(&e.enc, &e.sink, PMT_ETE_EXC_IRQ, user, &ctx, user, 3),
              PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(e.sink.length, before);
    EXPECT_EQ(e.enc.atom_count, 0u);
}

TEST(EtePacketEvent, EventsDecodeWithTheirNumbers)
{
    encoder e;
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_event(&e.enc, &e.sink, 0x1), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_event(&e.enc, &e.sink, 0xA), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_event(&e.enc, &e.sink, 0), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_event(&e.enc, &e.sink, 0x10), PMT_ETE_PKT_BAD_ARGUMENT);
    const decoded d = decode(with_atom(e), loop(), e.config);
    const auto ev = d.of(kind::event);
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].n, 0x1u);
    EXPECT_EQ(ev[1].n, 0xAu);
}

// After an Overflow the decoder loses synchronization; the next start re-synchronizes and the
// decoder reports a Trace On caused by the overflow.
TEST(EtePacketOverflow, OverflowThenStartDecodesAsTraceOnAfterOverflow)
{
    encoder e;
    const pmt_ete_pkt_context ctx = context(1);
    start_on_loop(e, ctx);
    ASSERT_EQ(pmt_ete_pkt_overflow(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_NOT_STARTED);
    ASSERT_EQ(pmt_ete_pkt_trace_on(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.enc.syncs, 2u);
    const decoded d = decode(e.bytes(), loop(), e.config);
    EXPECT_EQ(d.errors, 0u);
    const auto on = d.of(kind::trace_on);
    ASSERT_EQ(on.size(), 2u);
    EXPECT_FALSE(on[0].overflow);
    EXPECT_TRUE(on[1].overflow);
    EXPECT_EQ(d.of(kind::range).size(), 2u);
}

// Trace off and on again (a filter): no A-Sync, a Trace On and the address; Discard needs a sync.
TEST(EtePacketOverflow, TraceOffThenOnAndDiscard)
{
    encoder e;
    const pmt_ete_pkt_context ctx = context(1);
    start_on_loop(e, ctx);
    ASSERT_EQ(pmt_ete_pkt_trace_off(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_trace_on(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.enc.syncs, 1u);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_discard(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_trace_on(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.enc.syncs, 2u);
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    const decoded d = decode(e.bytes(), loop(), e.config);
    EXPECT_EQ(d.errors, 0u);
    EXPECT_EQ(d.of(kind::trace_on).size(), 3u);
    EXPECT_EQ(d.of(kind::range).size(), 3u);
}

// TRCSYNCPR: a stream cut at any byte decodes from the next A-Sync into the tail of the whole
// stream's ranges.
TEST(EtePacketSync, StreamCutAnywhereResumesAtTheNextSync)
{
    pmt_ete_pkt_config c{};
    c.sync_period = 128;
    encoder e(c);
    image img;
    for (unsigned k = 0; k < 8; k++)
        img.word(user + 4 * k, a64_b_ne(user + 4 * k, user));
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    uint64_t cur = user;
    for (unsigned i = 0; i < 4000; i++) {
        const bool taken = (i % 7) != 3 && (cur - user) < 28;
        cur = taken ? user : cur + 4;
        ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, taken, cur), PMT_ETE_PKT_OK);
    }
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    EXPECT_GE(e.enc.syncs, 4u);
    const std::vector<uint8_t> all = e.bytes();
    const auto whole = decode(all, img, c).of(kind::range);
    for (size_t cut : {size_t(1), size_t(97), all.size() / 3, all.size() / 2 + 5}) {
        const std::vector<uint8_t> tail(all.begin() + static_cast<long>(cut), all.end());
        const decoded d = decode(tail, img, c);
        EXPECT_EQ(d.errors, 0u) << cut;
        const auto r = d.of(kind::range);
        ASSERT_FALSE(r.empty()) << cut;
        ASSERT_LE(r.size(), whole.size());
        const size_t off = whole.size() - r.size();
        for (size_t i = 0; i < r.size(); i++) {
            ASSERT_EQ(r[i].a, whole[off + i].a) << cut << " " << i;
            ASSERT_EQ(r[i].taken, whole[off + i].taken) << cut << " " << i;
        }
    }
}

TEST(EtePacketRobust, BadCallsAreAnsweredWithAStatus)
{
    encoder e;
    pmt_ete_pkt_context ctx = context(1);
    EXPECT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_NOT_STARTED);
    EXPECT_EQ(pmt_ete_pkt_address(&e.enc, &e.sink, user), PMT_ETE_PKT_NOT_STARTED);
    EXPECT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user + 2), PMT_ETE_PKT_BAD_ARGUMENT);
    ctx.el = 4;
    EXPECT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(e.sink.length, 0u) << "nothing emitted for refused calls";
    ctx.el = 1;
    EXPECT_EQ(pmt_ete_pkt_start(nullptr, &e.sink, &ctx, user), PMT_ETE_PKT_NULL);
    EXPECT_EQ(pmt_ete_pkt_start(&e.enc, nullptr, &ctx, user), PMT_ETE_PKT_NULL);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user + 1), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_address(&e.enc, &e.sink, user + 3), PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_exception(&e.enc, &e.sink, static_cast<pmt_ete_exception>(5), user, &ctx,
                                    lower_sync),
              PMT_ETE_PKT_BAD_ARGUMENT);
    EXPECT_EQ(pmt_ete_pkt_exception(&e.enc, &e.sink, PMT_ETE_EXC_IRQ, user, nullptr, lower_sync),
              PMT_ETE_PKT_NULL);
    EXPECT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 1, false, 0), PMT_ETE_PKT_NOT_ENABLED);
    EXPECT_EQ(pmt_ete_pkt_cycle_count(&e.enc, &e.sink, 100), PMT_ETE_PKT_NOT_ENABLED);

    pmt_ete_pkt_config bad{};
    bad.cci = true; // threshold 0
    pmt_ete_pkt_encoder x;
    EXPECT_EQ(pmt_ete_pkt_init(&x, &bad), PMT_ETE_PKT_BAD_CONFIG);
    bad.cc_threshold = 0x1000; // TRCCCCTLR.THRESHOLD is 12 bits
    bad.cc_size_bits = 20;
    EXPECT_EQ(pmt_ete_pkt_init(&x, &bad), PMT_ETE_PKT_BAD_CONFIG);
    pmt_ete_pkt_config rs{};
    rs.rs = true; // no return stack
    EXPECT_EQ(pmt_ete_pkt_init(&x, &rs), PMT_ETE_PKT_BAD_CONFIG);
    EXPECT_EQ(pmt_ete_pkt_init(nullptr, &rs), PMT_ETE_PKT_NULL);
    EXPECT_STREQ(pmt_ete_pkt_status_name(PMT_ETE_PKT_SINK_FULL), "sink_full");
}

// A sink without room: nothing is appended and the encoder is unchanged, so the same call after
// draining gives the bytes an encoder with a large sink gives.
TEST(EtePacketRobust, AFullSinkRefusesWholeCallsAndLosesNothing)
{
    encoder big;
    const pmt_ete_pkt_context ctx = context(1);
    pmt_ete_pkt_encoder enc;
    pmt_ete_pkt_config cfg{};
    ASSERT_EQ(pmt_ete_pkt_init(&enc, &cfg), PMT_ETE_PKT_OK);
    uint8_t small[8];
    pmt_ete_pkt_sink sink{small, sizeof small, 0};
    std::vector<uint8_t> out;
    auto drain = [&] {
        out.insert(out.end(), small, small + sink.length);
        pmt_ete_pkt_sink_consume(&sink, sink.length);
    };
    EXPECT_EQ(pmt_ete_pkt_start(&enc, &sink, &ctx, user), PMT_ETE_PKT_SINK_FULL);
    EXPECT_EQ(sink.length, 0u);
    EXPECT_EQ(enc.syncs, 0u);
    uint8_t room[64];
    pmt_ete_pkt_sink wide{room, sizeof room, 0};
    ASSERT_EQ(pmt_ete_pkt_start(&enc, &wide, &ctx, user), PMT_ETE_PKT_OK);
    out.insert(out.end(), room, room + wide.length);
    ASSERT_EQ(pmt_ete_pkt_start(&big.enc, &big.sink, &ctx, user), PMT_ETE_PKT_OK);
    for (int i = 0; i < 200; i++) {
        const bool taken = (i % 3) != 0;
        pmt_ete_pkt_status st = pmt_ete_pkt_atom(&enc, &sink, taken, user);
        if (st == PMT_ETE_PKT_SINK_FULL) {
            drain();
            st = pmt_ete_pkt_atom(&enc, &sink, taken, user);
        }
        ASSERT_EQ(st, PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_atom(&big.enc, &big.sink, taken, user), PMT_ETE_PKT_OK);
    }
    drain();
    sink.length = sizeof small; // full of bytes already taken
    EXPECT_EQ(pmt_ete_pkt_flush(&enc, &sink), PMT_ETE_PKT_SINK_FULL);
    sink.length = 0;
    ASSERT_EQ(pmt_ete_pkt_flush(&enc, &sink), PMT_ETE_PKT_OK);
    drain();
    ASSERT_EQ(pmt_ete_pkt_flush(&big.enc, &big.sink), PMT_ETE_PKT_OK);
    EXPECT_EQ(out, big.bytes());
}

// The sink drops what the Trace Buffer Unit took and keeps the rest, oldest first.
TEST(EtePacketRobust, SinkConsumeKeepsTheBytesNotTaken)
{
    uint8_t data[6] = {1, 2, 3, 4, 5, 6};
    pmt_ete_pkt_sink sink{data, sizeof data, 5};
    pmt_ete_pkt_sink_consume(&sink, 2);
    ASSERT_EQ(sink.length, 3u);
    EXPECT_EQ(data[0], 3);
    EXPECT_EQ(data[2], 5);
    pmt_ete_pkt_sink_consume(&sink, 10);
    EXPECT_EQ(sink.length, 0u);
    pmt_ete_pkt_sink_consume(nullptr, 1); // nothing happens
}

// A decoder that starts at a restart point knows no timestamp: the first one after it carries
// all 64 bits (nine bytes after the header), and it decodes from the restart point alone.
TEST(EtePacketTimestamp, FirstAfterARestartPointIsFull)
{
    pmt_ete_pkt_config c{};
    c.ts = true;
    c.sync_period = 64;
    encoder e(c);
    const pmt_ete_pkt_context ctx = context(1);
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, user), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x123456789, false, 0), PMT_ETE_PKT_OK);
    while (e.enc.syncs < 2)
        ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, user), PMT_ETE_PKT_OK);
    const uint64_t sync = e.enc.last_sync;
    const size_t before = e.sink.length;
    ASSERT_EQ(pmt_ete_pkt_timestamp(&e.enc, &e.sink, 0x12345678A, false, 0), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.sink.length - before, 10u);
    const std::vector<uint8_t> all = with_atom(e);
    const std::vector<uint8_t> tail(all.begin() + static_cast<long>(sync), all.end());
    const auto ts = decode(tail, loop(), c).of(kind::timestamp);
    ASSERT_EQ(ts.size(), 1u);
    EXPECT_EQ(ts[0].a, 0x12345678Au);
}
