// Counter poll loops (a64_poll_loop.h): which loops are, and one iteration's outcome for a count,
// by the Arm ARM's definitions of the instructions (encodings as the GNU assembler makes them).
#include <pmtrace/platform/cpu/a64_poll_loop.h>

#include <gtest/gtest.h>

#include <vector>

using namespace pmtrace::platform;

namespace
{

constexpr uint64_t head = 0x40080000;
constexpr uint32_t mrs_x1_cntvct = 0xD53BE041, mrs_x1_cntpct = 0xD53BE021;
constexpr uint32_t sub_x2_x1_x0 = 0xCB000022, cmp_x2_x3 = 0xEB03005F;
constexpr uint32_t b_lo_minus_12 = 0x54FFFFA3; // b.lo three instructions back
constexpr uint32_t add_x9_x9_1 = 0x91000529, sub_w7_w11_w6 = 0x4B060167;
constexpr uint32_t tbz_w7_12_minus_4 = 0x3667FFE7; // tbz w7, #12, one instruction back
constexpr uint32_t str_x1_sp = 0xF90003E1, isb = 0xD5033FDF;

std::optional<a64_poll_loop> find(const std::vector<uint32_t> &code)
{
    return a64_find_poll_loop(head, code.data(), code.size());
}

} // namespace

TEST(A64PollLoop, AReadSubtractCompareAndBranchBackIsOne)
{
    const auto loop = find({mrs_x1_cntvct, sub_x2_x1_x0, cmp_x2_x3, b_lo_minus_12, str_x1_sp});
    ASSERT_TRUE(loop);
    EXPECT_EQ(loop->insns, 4u);
    EXPECT_EQ(loop->mrs_index, 0u);
    EXPECT_FALSE(loop->physical);
    a64_poll_regs regs;
    regs.x[0] = 100; // the first count
    regs.x[3] = 50;  // ticks to wait
    EXPECT_TRUE(a64_poll_goes_on(*loop, regs, 149));
    EXPECT_FALSE(a64_poll_goes_on(*loop, regs, 150));
    EXPECT_FALSE(a64_poll_goes_on(*loop, regs, 151));
    // SUB wraps: a count below the first reads as far past it (LO is unsigned).
    EXPECT_FALSE(a64_poll_goes_on(*loop, regs, 99));
}

TEST(A64PollLoop, AnIsbFirstAndThePhysicalCount)
{
    const auto isb_loop = find({isb, mrs_x1_cntpct, 0xEB03003F /* cmp x1, x3 */, b_lo_minus_12});
    ASSERT_TRUE(isb_loop);
    EXPECT_TRUE(isb_loop->physical);
    EXPECT_EQ(isb_loop->mrs_index, 1u);
    a64_poll_regs regs;
    regs.x[3] = 1000;
    EXPECT_TRUE(a64_poll_goes_on(*isb_loop, regs, 999));
    EXPECT_FALSE(a64_poll_goes_on(*isb_loop, regs, 1000));
}

TEST(A64PollLoop, ThirtyTwoBitSubtractAndTestBit)
{
    // 3: mrs x11, cntvct_el0 (0xD53BE04B); sub w7, w11, w6; tbz w7, #12, 3b (two back: 0x3667FFC7)
    const auto loop = find({0xD53BE04B, sub_w7_w11_w6, 0x3667FFC7});
    ASSERT_TRUE(loop);
    a64_poll_regs regs;
    regs.x[6] = 0xFFFF'FFFF'0000'0010; // only W6 is read
    EXPECT_TRUE(a64_poll_goes_on(*loop, regs, 0x10 + 4095));
    EXPECT_FALSE(a64_poll_goes_on(*loop, regs, 0x10 + 4096));
    EXPECT_TRUE(a64_poll_goes_on(*loop, regs, 0x1'0000'0010)); // W7 = 0: the upper half is not read
}

TEST(A64PollLoop, SignedComparisonsSetVAsAddWithCarrySays)
{
    // mrs x1; cmp x1, x3; b.lt back 2 (0x54FFFFCB)
    const auto loop = find({mrs_x1_cntvct, 0xEB03003F, 0x54FFFFCB});
    ASSERT_TRUE(loop);
    a64_poll_regs regs;
    regs.x[3] = 0x7FFF'FFFF'FFFF'FFFF;
    // 0x8000... - 0x7FFF...: signed overflow (V = 1, N = 0): LT holds (N != V).
    EXPECT_TRUE(a64_poll_goes_on(*loop, regs, 0x8000'0000'0000'0000));
    EXPECT_FALSE(a64_poll_goes_on(*loop, regs, 0x7FFF'FFFF'FFFF'FFFF));
    EXPECT_TRUE(a64_poll_goes_on(*loop, regs, 5));
}

TEST(A64PollLoop, LoopsThatAreNotPollsAreRefused)
{
    // A register carried from one iteration to the next.
    EXPECT_FALSE(find({add_x9_x9_1, mrs_x1_cntvct, cmp_x2_x3, b_lo_minus_12}));
    // A store in it.
    EXPECT_FALSE(find({mrs_x1_cntvct, str_x1_sp, cmp_x2_x3, b_lo_minus_12}));
    // No read of the counter; two reads of it.
    EXPECT_FALSE(find({sub_x2_x1_x0, sub_x2_x1_x0, cmp_x2_x3, b_lo_minus_12}));
    EXPECT_FALSE(find({mrs_x1_cntvct, mrs_x1_cntvct, cmp_x2_x3, b_lo_minus_12}));
    // The branch goes elsewhere (b.lo two back from index 3), or there is none in reach.
    EXPECT_FALSE(find({mrs_x1_cntvct, sub_x2_x1_x0, cmp_x2_x3, 0x54FFFFC3}));
    EXPECT_FALSE(find({mrs_x1_cntvct, sub_x2_x1_x0, cmp_x2_x3}));
    // Another system register (MRS CNTFRQ_EL0: op2 0).
    EXPECT_FALSE(find({0xD53BE001, sub_x2_x1_x0, cmp_x2_x3, b_lo_minus_12}));
}

namespace
{

// Over counts from `from` to `to`: each span a64_poll_same_until gives goes the same way
// throughout, and a count that goes otherwise than the one before it starts a span.
void spans_hold(const a64_poll_loop &loop, const a64_poll_regs &regs, uint64_t from, uint64_t to)
{
    uint64_t c = from;
    unsigned spans = 0;
    while (c < to) {
        const bool on = a64_poll_goes_on(loop, regs, c);
        const uint64_t until = a64_poll_same_until(loop, regs, c);
        ASSERT_GT(until, c);
        for (uint64_t x = c; x < until && x < to; x++)
            ASSERT_EQ(a64_poll_goes_on(loop, regs, x), on)
                << "count " << x << " in [" << c << ", " << until << ")";
        c = until;
        spans++;
    }
    EXPECT_LT(spans, 16u); // few evaluations, not one per count
}

} // namespace

TEST(A64PollLoop, CountsGoTheSameWayUpToTheNextDecision)
{
    const auto sub_cmp = find({mrs_x1_cntvct, sub_x2_x1_x0, cmp_x2_x3, b_lo_minus_12});
    ASSERT_TRUE(sub_cmp);
    a64_poll_regs regs;
    regs.x[0] = 100;
    regs.x[3] = 5000;
    spans_hold(*sub_cmp, regs, 100, 20000);
    EXPECT_LE(a64_poll_same_until(*sub_cmp, regs, 120), 5100u); // not past the exit
    // Near the wrap of the 64-bit count.
    regs.x[0] = ~uint64_t{0} - 2000;
    spans_hold(*sub_cmp, regs, ~uint64_t{0} - 2000, ~uint64_t{0});
    // A 32-bit subtract and a bit test: a span per 4096 counts.
    const auto tbz = find({0xD53BE04B, sub_w7_w11_w6, 0x3667FFC7});
    ASSERT_TRUE(tbz);
    regs.x[6] = 0x10;
    spans_hold(*tbz, regs, 0x10, 0x10 + 3 * 4096 + 7);
    // Signed: cmp x1, x3; b.lt, across the sign boundary.
    const auto lt = find({mrs_x1_cntvct, 0xEB03003F, 0x54FFFFCB});
    ASSERT_TRUE(lt);
    regs.x[3] = 0x8000'0000'0000'0100;
    spans_hold(*lt, regs, 0x7FFF'FFFF'FFFF'F000, 0x8000'0000'0000'0200);
}
