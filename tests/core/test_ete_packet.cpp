// The ETE packet encoder (pmt_ete_packet.h), checked by OpenCSD's ETE decoder (ete_decode.h):
// every expected value comes from the traced program's semantics or from the packet formats,
// never from the encoder's own output.
#include "ete_decode.h"

#include <gtest/gtest.h>

#include <random>

using namespace ete_test;

namespace
{

constexpr uint64_t base = 0x80000; // a chain of B.NE: word k branches to base (see chain())

pmt_ete_pkt_context el1_ns()
{
    pmt_ete_pkt_context c{};
    c.el = 1;
    c.security = PMT_ETE_NON_SECURE;
    c.aarch64 = true;
    return c;
}

// words: B.NE base at base + 4k, k < n: an E atom goes back to base, an N atom to the next word.
image chain(unsigned n, uint64_t at = base)
{
    image img;
    for (unsigned k = 0; k < n; k++)
        img.word(at + 4 * k, a64_b_ne(at + 4 * k, at));
    return img;
}

// The ranges the chain program executes for `atoms` (one instruction each).
std::vector<element> chain_ranges(const std::vector<bool> &atoms, uint64_t at = base)
{
    std::vector<element> r;
    uint64_t cur = at;
    for (bool e : atoms) {
        r.push_back(range_of(cur, 1, e));
        cur = e ? at : cur + 4;
    }
    return r;
}

// Runs `atoms` on the chain program; returns the bytes the atoms took (after start, flushed).
size_t run_chain(encoder &e, const std::vector<bool> &atoms, uint64_t at = base)
{
    EXPECT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, nullptr, at), PMT_ETE_PKT_NULL);
    const pmt_ete_pkt_context ctx = el1_ns();
    EXPECT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, at), PMT_ETE_PKT_OK);
    const size_t before = e.sink.length;
    uint64_t cur = at;
    for (bool a : atoms) {
        cur = a ? at : cur + 4;
        EXPECT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, a, cur), PMT_ETE_PKT_OK);
    }
    EXPECT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    return e.sink.length - before;
}

std::vector<bool> atoms_of(const std::string &s)
{
    std::vector<bool> r;
    for (char c : s)
        r.push_back(c == 'E');
    return r;
}

} // namespace

TEST(EtePacket, StartThenAtomsDecodeToTheProgramsRanges)
{
    encoder e;
    const std::vector<bool> atoms = atoms_of("ENNEENNNE");
    run_chain(e, atoms);
    const decoded d = decode(e.bytes(), chain(16), e.config);
    EXPECT_EQ(d.errors, 0u);
    ASSERT_EQ(d.of(kind::trace_on).size(), 1u);
    const auto ctx = d.of(kind::context);
    ASSERT_EQ(ctx.size(), 1u);
    EXPECT_EQ(ctx[0].el, 1u);
    EXPECT_EQ(ctx[0].sec, ocsd_sec_nonsecure);
    EXPECT_TRUE(ctx[0].sf);
    expect_ranges(d.of(kind::range), chain_ranges(atoms));
}

// Each atom format holds what its definition says: one byte for each of these sequences.
TEST(EtePacket, EveryAtomFormatIsOneByteAndDecodes)
{
    const char *one_packet[] = {"E",
                                "N", // format 1
                                "EN",
                                "NE", // format 2
                                "ENN",
                                "NNE",
                                "NEN", // format 3
                                "NEEE",
                                "NNNN",
                                "NENE",
                                "ENEN", // format 4
                                "NEEEE",
                                "NNNNN",
                                "NENEN",
                                "ENENE", // format 5
                                "EEEN",
                                "EEEE",
                                "EEEEEEEEEEEEEEEEEEEEEEEN", // format 6 (3 + COUNT E, then N or E)
                                "EEEEEEEEEEEEEEEEEEEEEEEE"};
    for (const char *s : one_packet) {
        encoder e;
        const std::vector<bool> atoms = atoms_of(s);
        EXPECT_EQ(run_chain(e, atoms), 1u) << s;
        const decoded d = decode(e.bytes(), chain(32), e.config);
        EXPECT_EQ(d.errors, 0u) << s;
        expect_ranges(d.of(kind::range), chain_ranges(atoms));
    }
}

// Long runs: 24 E atoms fill one format 6 packet; runs longer than that take more.
TEST(EtePacket, LongRunsOfEAndNAtomsDecode)
{
    for (const std::string &s :
         {std::string(100, 'E'), std::string(25, 'E') + "N", std::string(40, 'N') + "E",
          std::string(24, 'E') + std::string(7, 'N')}) {
        encoder e;
        const std::vector<bool> atoms = atoms_of(s);
        run_chain(e, atoms);
        const decoded d = decode(e.bytes(), chain(64), e.config);
        EXPECT_EQ(d.errors, 0u) << s;
        expect_ranges(d.of(kind::range), chain_ranges(atoms));
    }
    encoder e;
    EXPECT_EQ(run_chain(e, atoms_of(std::string(48, 'E'))), 2u);
}

// pmt_ete_pkt_atoms: a run of identical atoms in one call is the same trace as one call per
// atom (E runs: one format 6 byte per 24 atoms), with periodic synchronization inside the run
// and a small sink taken chunk by chunk.
TEST(EtePacket, RunsOfIdenticalAtomsInOneCall)
{
    for (const auto &[taken, count] : std::vector<std::pair<bool, uint64_t>>{
             {true, 1}, {true, 24}, {true, 25}, {true, 1000}, {false, 1}, {false, 77}}) {
        pmt_ete_pkt_config c{};
        encoder one(c), run(c);
        const pmt_ete_pkt_context ctx = el1_ns();
        ASSERT_EQ(pmt_ete_pkt_start(&one.enc, &one.sink, &ctx, base), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_start(&run.enc, &run.sink, &ctx, base), PMT_ETE_PKT_OK);
        const uint64_t next = taken ? base : base + 4;
        // N atoms walk down the chain: one call per word, each a run of one.
        if (taken) {
            for (uint64_t n = 0; n < count; n++)
                ASSERT_EQ(pmt_ete_pkt_atom(&one.enc, &one.sink, true, next), PMT_ETE_PKT_OK);
            uint64_t done = 0;
            ASSERT_EQ(pmt_ete_pkt_atoms(&run.enc, &run.sink, true, count, next, &done),
                      PMT_ETE_PKT_OK);
            EXPECT_EQ(done, count);
        } else {
            for (uint64_t n = 0; n < count; n++) {
                ASSERT_EQ(pmt_ete_pkt_atom(&one.enc, &one.sink, false, base + 4 * (n + 1)),
                          PMT_ETE_PKT_OK);
                uint64_t done = 0;
                ASSERT_EQ(
                    pmt_ete_pkt_atoms(&run.enc, &run.sink, false, 1, base + 4 * (n + 1), &done),
                    PMT_ETE_PKT_OK);
                EXPECT_EQ(done, 1u);
            }
        }
        ASSERT_EQ(pmt_ete_pkt_flush(&one.enc, &one.sink), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_flush(&run.enc, &run.sink), PMT_ETE_PKT_OK);
        EXPECT_EQ(run.bytes(), one.bytes()) << count;
        const decoded d = decode(run.bytes(), chain(80), run.config);
        EXPECT_EQ(d.errors, 0u);
        expect_ranges(d.of(kind::range), chain_ranges(std::vector<bool>(count, taken)));
    }
    // A sync period of 256 bytes: 100000 E atoms (about 4200 bytes) bring A-Syncs; a sink of 40
    // bytes takes them in chunks, drained between calls.
    pmt_ete_pkt_config c{};
    c.sync_period = 256;
    encoder e(c);
    const pmt_ete_pkt_context ctx = el1_ns();
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, base), PMT_ETE_PKT_OK);
    std::vector<uint8_t> stream = e.bytes();
    uint8_t small[200];
    pmt_ete_pkt_sink sink{small, sizeof small, 0};
    uint64_t left = 100000, calls = 0;
    while (left) {
        uint64_t done = 0;
        ASSERT_EQ(pmt_ete_pkt_atoms(&e.enc, &sink, true, left, base, &done), PMT_ETE_PKT_OK);
        left -= done;
        stream.insert(stream.end(), small, small + sink.length);
        pmt_ete_pkt_sink_consume(&sink, sink.length);
        calls++;
    }
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &sink), PMT_ETE_PKT_OK);
    stream.insert(stream.end(), small, small + sink.length);
    EXPECT_GT(calls, 1u);
    EXPECT_GE(e.enc.syncs, 4200u / 256u);
    const decoded d = decode(stream, chain(1), c);
    EXPECT_EQ(d.errors, 0u);
    expect_ranges(d.of(kind::range), chain_ranges(std::vector<bool>(100000, true)));
    uint64_t none = 0;
    EXPECT_EQ(pmt_ete_pkt_atoms(&e.enc, &sink, true, 1, base, nullptr), PMT_ETE_PKT_NULL);
    EXPECT_EQ(pmt_ete_pkt_atoms(&e.enc, &sink, true, 1, base + 2, &none), PMT_ETE_PKT_BAD_ARGUMENT);
}

TEST(EtePacket, RandomAtomsDecode)
{
    std::mt19937 rng(14);
    std::vector<bool> atoms;
    for (int i = 0; i < 5000; i++)
        atoms.push_back((rng() % 3) != 0);
    encoder e;
    const size_t n = run_chain(e, atoms);
    EXPECT_LT(n, atoms.size() / 2) << "packed atoms take less than a byte per two";
    const decoded d = decode(e.bytes(), chain(64), e.config);
    EXPECT_EQ(d.errors, 0u);
    expect_ranges(d.of(kind::range), chain_ranges(atoms));
}

TEST(EtePacket, PendingBytesSayWhatAFlushAdds)
{
    encoder e;
    const pmt_ete_pkt_context ctx = el1_ns();
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, base), PMT_ETE_PKT_OK);
    EXPECT_EQ(pmt_ete_pkt_pending_bytes(&e.enc), 0u);
    for (int i = 0; i < 7; i++)
        ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, false, base + 4 * (i + 1)), PMT_ETE_PKT_OK);
    const size_t before = e.sink.length;
    const size_t pending = pmt_ete_pkt_pending_bytes(&e.enc);
    EXPECT_EQ(pending, 2u); // NNNNN (format 5) + NN (format 2)
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    EXPECT_EQ(e.sink.length - before, pending);
    EXPECT_EQ(pmt_ete_pkt_pending_bytes(&e.enc), 0u);
}

// An indirect branch (BR X0) at `from`, its target given by an address packet in every form:
// exact match of each history entry, short with one and two bytes, long.
TEST(EtePacket, CompressedAddressesOfEveryFormDecode)
{
    const uint64_t hi = 0xFFFF800010000000;
    // Targets, each holding a BR X0; the trace jumps among them.
    // The address history starts as {hi, 0, 0} (Trace Info clears it, start pushes hi).
    const std::vector<std::pair<uint64_t, size_t>> jumps = {
        {hi + 0x40000, 5},       // long, 32-bit: differs from hi in A[31:17] only
        {hi + 0x40040, 2},       // short, one byte: only A[8:2] differ
        {hi + 0x48040, 3},       // short, two bytes: A[16:9] differ
        {hi + 0x40000, 1},       // exact match, history entry 2
        {hi + 0x48040, 1},       // exact match, entry 1 (history {0x40000, 0x48040, 0x40040})
        {hi + 0x48040, 1},       // exact match, entry 0
        {0xFFFF900020000000, 9}, // long, 64-bit: A[63:32] differ
        {0xFFFF900020000000 + 0x7000000, 5}, // long, 32-bit
    };
    image img;
    std::vector<uint64_t> all = {hi};
    for (const auto &j : jumps)
        all.push_back(j.first);
    for (uint64_t a : all)
        if (img.blocks.find(a) == img.blocks.end())
            img.word(a, a64_br_x0);
    encoder e;
    const pmt_ete_pkt_context ctx = el1_ns();
    ASSERT_EQ(pmt_ete_pkt_start(&e.enc, &e.sink, &ctx, hi), PMT_ETE_PKT_OK);
    std::vector<element> want;
    uint64_t cur = hi;
    for (const auto &[target, size] : jumps) {
        ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, target), PMT_ETE_PKT_OK);
        ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
        const size_t before = e.sink.length;
        ASSERT_EQ(pmt_ete_pkt_address(&e.enc, &e.sink, target), PMT_ETE_PKT_OK);
        EXPECT_EQ(e.sink.length - before, size) << std::hex << target;
        want.push_back(range_of(cur, 1, true));
        cur = target;
    }
    // One more E atom so that the last target's range is decoded.
    ASSERT_EQ(pmt_ete_pkt_atom(&e.enc, &e.sink, true, PMT_ETE_PKT_NO_ADDRESS), PMT_ETE_PKT_OK);
    ASSERT_EQ(pmt_ete_pkt_flush(&e.enc, &e.sink), PMT_ETE_PKT_OK);
    want.push_back(range_of(cur, 1, true));
    const decoded d = decode(e.bytes(), img, e.config);
    EXPECT_EQ(d.errors, 0u);
    expect_ranges(d.of(kind::range), want);
}
