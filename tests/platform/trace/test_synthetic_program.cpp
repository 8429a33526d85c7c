// The synthetic program: its A64 encodings worked out by hand from the Arm ARM encoding tables,
// what it executes (waypoints and instruction ranges), and its ETE trace whole and in pieces.
#include <gtest/gtest.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/trace/synthetic_program.h>

#include <string>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;

TEST(SyntheticProgram, EncodingsFromTheArmArmTables)
{
    const synthetic_program p;
    // ADD (immediate), 64-bit: sf=1 op=0 S=0 100010 sh=0 imm12 Rn Rd.
    //   add x0, x0, #1: 1001 0001 00 000000000001 00000 00000 = 0x91000400
    // SUBS (immediate), 64-bit: sf=1 op=1 S=1 100010 sh=0 imm12 Rn Rd; CMP x0, #0 has Rd = XZR
    // (31).
    //   cmp x0, #0: 1111 0001 00 000000000000 00000 11111 = 0xF100001F
    // B.cond: 0101010 0 imm19 0 cond; b.eq from 0x08 to 0x10: imm19 = 2, cond EQ = 0000.
    //   = 0x54000000 | 2 << 5 = 0x54000040
    //   add x1, x1, #1: 0x91000000 | 1 << 10 | 1 << 5 | 1 = 0x91000421
    // CBNZ, 64-bit: sf=1 011010 op=1 imm19 Rt; from 0x10 to 0x00: imm19 = -4 = 0x7FFFC.
    //   = 0xB5000000 | 0x7FFFC << 5 = 0xB5FFFF80
    EXPECT_EQ(p.instructions(),
              (std::vector<uint32_t>{0x91000400, 0xF100001F, 0x54000040, 0x91000421, 0xB5FFFF80}));
    EXPECT_EQ(p.size(), 20u);
}

TEST(SyntheticProgram, ImageIsLittleEndianWords)
{
    const synthetic_program p;
    EXPECT_EQ(p.image_bytes(), (bytes{0x00, 0x04, 0x00, 0x91, 0x1F, 0x00, 0x00, 0xF1, 0x40, 0x00,
                                      0x00, 0x54, 0x21, 0x04, 0x00, 0x91, 0x80, 0xFF, 0xFF, 0xB5}));
    const memory_image m = p.image();
    EXPECT_EQ(m.address, 0x4008'0000u);
    EXPECT_EQ(m.bytes, p.image_bytes());
}

TEST(SyntheticProgram, DefaultBaseIsInsideThePlatformRam)
{
    const synthetic_program p;
    EXPECT_EQ(p.base(), 0x4008'0000u);
    EXPECT_GE(p.base(), virt::ram_base);
    EXPECT_LE(p.base() + p.size(), virt::ram_base + virt::ram_default_size);
}

TEST(SyntheticProgram, WalkOfOneIteration)
{
    const synthetic_program p;
    const std::vector<waypoint> w = p.walk(1);
    ASSERT_EQ(w.size(), 2u);
    // b.eq at 0x08 not taken: on to 0x0C; cbnz at 0x10 taken: back to 0x00.
    EXPECT_EQ(w[0].address, 0x4008'0008u);
    EXPECT_FALSE(w[0].taken);
    EXPECT_EQ(w[0].next, 0x4008'000Cu);
    EXPECT_EQ(w[1].address, 0x4008'0010u);
    EXPECT_TRUE(w[1].taken);
    EXPECT_EQ(w[1].next, 0x4008'0000u);
}

TEST(SyntheticProgram, RangesOfOneIteration)
{
    const synthetic_program p;
    const std::vector<instruction_range> expected = {
        {0x4008'0000, 0x4008'000C, 3, instr_kind::branch, false}, // add, cmp, b.eq (N)
        {0x4008'000C, 0x4008'0014, 2, instr_kind::branch, true},  // add, cbnz (E)
    };
    EXPECT_EQ(p.ranges(1), expected);
}

TEST(SyntheticProgram, RangesOfThreeIterations)
{
    const synthetic_program p;
    const instruction_range a{0x4008'0000, 0x4008'000C, 3, instr_kind::branch, false};
    const instruction_range b{0x4008'000C, 0x4008'0014, 2, instr_kind::branch, true};
    EXPECT_EQ(p.ranges(3), (std::vector<instruction_range>{a, b, a, b, a, b}));
    EXPECT_TRUE(p.ranges(0).empty());
}

TEST(SyntheticProgram, BaseIsAParameter)
{
    const synthetic_program p(0x4010'0000);
    EXPECT_EQ(p.ranges(1), (std::vector<instruction_range>{
                               {0x4010'0000, 0x4010'000C, 3, instr_kind::branch, false},
                               {0x4010'000C, 0x4010'0014, 2, instr_kind::branch, true}}));
    // The code does not move with the base: the branches are PC-relative.
    EXPECT_EQ(p.instructions(), synthetic_program().instructions());
}

TEST(SyntheticProgram, BadBaseFallsBackToTheDefaultWithALogLine)
{
    std::vector<std::string> lines;
    const trace_log log = [&](const std::string &l) { lines.push_back(l); };
    EXPECT_EQ(synthetic_program(0x4008'0002, log).base(), synthetic_program::default_base);
    EXPECT_EQ(synthetic_program(0xFFFF'FFFF'FFFF'FFF0, log).base(),
              synthetic_program::default_base);
    EXPECT_EQ(lines.size(), 2u);
}

TEST(SyntheticProgram, NextAddressFollowsTheFirstBranchAtOrAfterTheRunStart)
{
    const synthetic_program p;
    EXPECT_EQ(p.next_address(0x4008'0000, false), std::optional<uint64_t>(0x4008'000C));
    EXPECT_EQ(p.next_address(0x4008'0000, true), std::optional<uint64_t>(0x4008'0010));
    EXPECT_EQ(p.next_address(0x4008'000C, true), std::optional<uint64_t>(0x4008'0000));
    EXPECT_EQ(p.next_address(0x4008'0010, false), std::optional<uint64_t>(0x4008'0014));
    EXPECT_EQ(p.next_address(0x4008'0014, true), std::nullopt); // past the program
    EXPECT_EQ(p.next_address(0x4007'FFFC, true), std::nullopt);
    EXPECT_EQ(p.next_address(0x4008'0002, true), std::nullopt);
}

// The start sequence for EL1 Non-secure AArch64 at 0x4008_0000 (see test_ete_encoder.cpp):
// A-Sync, Trace Info, Trace On, Address with Context (32-bit form).
const bytes start_sequence = {0,    0,    0,    0,    0,    0,    0,    0,    0,    0,   0,
                              0x80, 0x01, 0x00, 0x04, 0x82, 0x00, 0x00, 0x08, 0x40, 0x31};

TEST(SyntheticProgram, TraceOfThreeIterations)
{
    ete_encoder_config c;
    c.resync_period = 0;
    bytes expected = start_sequence;
    for (int i = 0; i < 3; i++) {
        expected.push_back(0xF6); // b.eq: N
        expected.push_back(0xF7); // cbnz: E
    }
    EXPECT_EQ(synthetic_trace(synthetic_program(), 3, c), expected);
}

TEST(SyntheticProgram, TraceForABudgetHoldsWholeIterations)
{
    ete_encoder_config c;
    c.resync_period = 0;
    const synthetic_program p;
    // 21 bytes of start sequence, then 2 bytes an iteration: 32 bytes hold 5 iterations.
    budget_trace t = synthetic_trace_for_budget(p, 32, c);
    EXPECT_EQ(t.iterations, 5u);
    EXPECT_EQ(t.bytes, synthetic_trace(p, 5, c));
    // Less than the start sequence: nothing.
    t = synthetic_trace_for_budget(p, 20, c);
    EXPECT_EQ(t.iterations, 0u);
    EXPECT_TRUE(t.bytes.empty());
    // Exactly the start sequence: the start alone.
    t = synthetic_trace_for_budget(p, 21, c);
    EXPECT_EQ(t.iterations, 0u);
    EXPECT_EQ(t.bytes, start_sequence);
}

TEST(SyntheticProgram, TraceInPiecesIsTheWholeTrace)
{
    // A short period puts restart points inside pieces and at their edges.
    ete_encoder_config c;
    c.resync_period = 64;
    const synthetic_program p;
    synthetic_trace_stream stream(p, c);
    bytes pieces;
    const size_t budgets[] = {26, 30, 7, 64, 1, 100, 41, 3, 256, 29};
    for (int round = 0; round < 20; round++)
        for (size_t b : budgets) {
            const size_t before = pieces.size();
            stream.next(b, pieces);
            EXPECT_LE(pieces.size() - before, b);
        }
    ASSERT_GT(stream.iterations(), 100u);
    EXPECT_EQ(pieces, synthetic_trace(p, stream.iterations(), c));
    EXPECT_EQ(stream.bytes(), pieces.size());
}

TEST(SyntheticProgram, HugeBudgetIsCutWithALogLine)
{
    std::vector<std::string> lines;
    ete_encoder_config c;
    c.log = [&](const std::string &l) { lines.push_back(l); };
    synthetic_trace_stream stream(synthetic_program(), c);
    bytes out;
    stream.next(synthetic_trace_stream::max_budget + 1, out);
    EXPECT_EQ(lines.size(), 1u);
    EXPECT_LE(out.size(), synthetic_trace_stream::max_budget);
}

} // namespace
