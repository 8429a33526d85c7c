// Breakpoint and watchpoint matching (a64_self_hosted_debug.h) against the Arm ARM's tables:
// the Exception levels and Security states each {HMC, SSC, PMC} selects (D2, "Execution
// conditions for which a breakpoint generates Breakpoint exceptions"), the bytes DBGWCR.BAS
// selects for a doubleword- and a word-aligned DBGWVR, MASK, LSC; and every DBGBCR value the
// fields can hold at every Exception level, which must never crash and never match where the
// register says it cannot (E 0, a reserved type).
#include <pmtrace/platform/cpu/a64_self_hosted_debug.h>

#include <gtest/gtest.h>

using namespace pmtrace::platform;

namespace
{
constexpr uint64_t pc = 0x4008'0100;

uint64_t bcr(unsigned bt, unsigned hmc, unsigned ssc, unsigned pmc, unsigned bas = 0xF)
{
    return uint64_t{bt} << 20 | uint64_t{ssc} << 14 | uint64_t{hmc} << 13 | uint64_t{bas} << 5 |
           uint64_t{pmc} << 1 | 1;
}

// Whether breakpoint 0 on `pc` with {HMC, SSC, PMC} matches at `el` in the Security state.
bool matches(unsigned hmc, unsigned ssc, unsigned pmc, unsigned el, bool secure)
{
    a64_self_hosted_debug d;
    d.bvr[0] = pc;
    d.bcr[0] = bcr(0, hmc, ssc, pmc);
    a64_debug_pe pe;
    a64_debug_context c;
    c.el = el;
    c.secure = secure;
    c.el2_enabled = !secure;
    return d.breakpoint(pe, c, pc);
}

struct state_row {
    unsigned hmc, ssc, pmc;
    // Matches at: EL3, Non-secure EL2, Non-secure EL1, Non-secure EL0, Secure EL1, Secure EL0.
    bool el3, ns_el2, ns_el1, ns_el0, s_el1, s_el0;
};
} // namespace

// The {HMC, SSC, PMC} rows of the breakpoint table for a PE with EL3 and EL2 (no Secure EL2):
// each selects these Exception levels and Security states, and no other. {1, 01, 00} is
// reserved without FEAT_SEL2 (CheckValidStateMatch, J1.3): it behaves as disabled.
TEST(A64SelfHostedDebug, StateMatchRowByRow)
{
    const state_row rows[] = {
        {0, 0, 1, false, false, true, false, true, false},   // EL1, both states
        {0, 0, 2, false, false, false, true, false, true},   // EL0, both states
        {0, 0, 3, false, false, true, true, true, true},     // EL1 and EL0, both states
        {0, 1, 1, false, false, true, false, false, false},  // Non-secure EL1
        {0, 1, 2, false, false, false, true, false, false},  // Non-secure EL0
        {0, 1, 3, false, false, true, true, false, false},   // Non-secure EL1 and EL0
        {0, 2, 1, false, false, false, false, true, false},  // Secure EL1
        {0, 2, 3, false, false, false, false, true, true},   // Secure EL1 and EL0
        {1, 0, 1, true, true, true, false, true, false},     // all but EL0
        {1, 0, 3, true, true, true, true, true, true},       // every level
        {1, 1, 0, false, false, false, false, false, false}, // reserved without FEAT_SEL2
        {1, 1, 1, false, true, true, false, false, false},   // Non-secure EL2 and EL1
        {1, 1, 3, false, true, true, true, false, false},    // Non-secure EL2, EL1, EL0
        {1, 2, 0, true, false, false, false, false, false},  // EL3
        {1, 2, 1, true, false, false, false, true, false},   // EL3, Secure EL1
        {1, 2, 3, true, false, false, false, true, true},    // EL3, Secure EL1 and EL0
        {1, 3, 0, false, true, false, false, false, false},  // EL2
    };
    for (const state_row &r : rows) {
        SCOPED_TRACE(testing::Message() << "HMC " << r.hmc << " SSC " << r.ssc << " PMC " << r.pmc);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 3, true), r.el3);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 2, false), r.ns_el2);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 1, false), r.ns_el1);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 0, false), r.ns_el0);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 1, true), r.s_el1);
        EXPECT_EQ(matches(r.hmc, r.ssc, r.pmc, 0, true), r.s_el0);
    }
}

// Every DBGBCR<n>_EL1 value its fields can hold (BT, LBN, SSC, HMC, BAS, PMC, E), on breakpoint 0
// (not context-aware) and 5 (context-aware), at every Exception level: nothing breaks; with E 0,
// a type reserved without FEAT_VHE and FEAT_Debugv8p1 (0b011x, 0b11xx), or a context type on a
// breakpoint that is not context-aware, it never matches; an address match needs BAS<0>.
TEST(A64SelfHostedDebug, EveryBreakpointControlValue)
{
    a64_debug_pe pe;
    unsigned matched = 0;
    for (unsigned n : {0u, 5u}) {
        for (uint64_t v = 0; v < (uint64_t{1} << 24); v++) {
            if (v & ~dbgbcr_mask)
                continue;
            a64_self_hosted_debug d;
            d.bvr[n] = pc;
            d.bvr[(n + 1) % 6] = 0; // a link target with Context ID 0
            d.bcr[(n + 1) % 6] = bcr(0b0011, 0, 0, 3);
            d.bcr[n] = v;
            const unsigned bt = (v >> 20) & 0xF;
            for (unsigned el = 0; el < 4; el++) {
                a64_debug_context c;
                c.el = el;
                c.secure = el == 3;
                c.el2_enabled = el != 3;
                const bool m = d.breakpoint(pe, c, pc);
                matched += m;
                const bool reserved = (bt & 0b1110) == 0b0110 || (bt & 0b1100) == 0b1100 ||
                                      (n == 0 && (bt & 0b1010) != 0);
                if (!(v & 1) || reserved) {
                    EXPECT_FALSE(m) << std::hex << "DBGBCR " << v << " n " << n << " EL" << el;
                }
                if (bt == 0 && !((v >> 5) & 1)) {
                    EXPECT_FALSE(m) << std::hex << "DBGBCR " << v << " (BAS<0> 0)";
                }
            }
        }
    }
    EXPECT_GT(matched, 0u);
}

// A Context ID breakpoint (BT 0b0010, context-aware breakpoint 4) matches at EL1 and EL0 while
// CONTEXTIDR_EL1 holds DBGBVR<4>[31:0], and an address breakpoint linked to it (BT 0b0001, LBN
// 4) only then; a link to a breakpoint that is not context-aware never matches.
TEST(A64SelfHostedDebug, ContextIdAndLinkedBreakpoints)
{
    a64_debug_pe pe;
    a64_self_hosted_debug d;
    d.bvr[4] = 42;
    d.bcr[4] = bcr(0b0010, 0, 0, 3);
    a64_debug_context c;
    c.el = 0;
    c.contextidr_el1 = 42;
    EXPECT_TRUE(d.breakpoint(pe, c, pc));
    c.contextidr_el1 = 41;
    EXPECT_FALSE(d.breakpoint(pe, c, pc));
    d.bcr[4] = bcr(0b0011, 0, 0, 3); // linking enabled: no match of its own
    c.contextidr_el1 = 42;
    EXPECT_FALSE(d.breakpoint(pe, c, pc));
    d.bvr[0] = pc;
    d.bcr[0] = bcr(0b0001, 0, 0, 2) | uint64_t{4} << 16;
    EXPECT_TRUE(d.breakpoint(pe, c, pc));
    EXPECT_FALSE(d.breakpoint(pe, c, pc + 4));
    c.contextidr_el1 = 41;
    EXPECT_FALSE(d.breakpoint(pe, c, pc));
    d.bcr[0] = bcr(0b0001, 0, 0, 2) | uint64_t{1} << 16; // LBN 1: not context-aware
    c.contextidr_el1 = 42;
    EXPECT_FALSE(d.breakpoint(pe, c, pc));
}

namespace
{
// Watchpoint 0 at `wvr` with BAS, LSC, MASK, EL0 and EL1.
a64_self_hosted_debug watch(uint64_t wvr, unsigned bas, unsigned lsc, unsigned mask = 0)
{
    a64_self_hosted_debug d;
    d.wvr[0] = wvr;
    d.wcr[0] = uint64_t{mask} << 24 | uint64_t{bas} << 5 | uint64_t{lsc} << 3 | 3u << 1 | 1;
    return d;
}
} // namespace

// DBGWCR.BAS selects bytes of the doubleword at DBGWVR (bit 2 clear) or of the word at DBGWVR
// (bit 2 set: BAS[3:0]); LSC selects loads, stores or both; MASK 3..31 watches the 2^MASK bytes
// around DBGWVR, MASK 1 and 2 are reserved (no match); FAR is an address of the access inside
// the watched bytes, and WnR says which kind matched.
TEST(A64SelfHostedDebug, WatchpointBytesKindsAndMasks)
{
    a64_debug_pe pe;
    a64_debug_context c;
    c.el = 0;
    const uint64_t base = 0x4010'0000;
    for (unsigned byte = 0; byte < 8; byte++) {
        SCOPED_TRACE(byte);
        EXPECT_TRUE(watch(base, 0xFF, 3).watchpoint(pe, c, base + byte, 1, true, false).hit);
        EXPECT_EQ(watch(base, 0x0F, 3).watchpoint(pe, c, base + byte, 1, true, false).hit,
                  byte < 4);
        EXPECT_EQ(watch(base, 0xF0, 3).watchpoint(pe, c, base + byte, 1, true, false).hit,
                  byte >= 4);
        EXPECT_EQ(watch(base + 4, 0x0F, 3).watchpoint(pe, c, base + byte, 1, true, false).hit,
                  byte >= 4);
    }
    EXPECT_FALSE(watch(base, 0xFF, 3).watchpoint(pe, c, base + 8, 1, true, false).hit);
    // LSC.
    EXPECT_TRUE(watch(base, 0xFF, 1).watchpoint(pe, c, base, 8, true, false).hit);
    EXPECT_FALSE(watch(base, 0xFF, 1).watchpoint(pe, c, base, 8, false, true).hit);
    EXPECT_FALSE(watch(base, 0xFF, 2).watchpoint(pe, c, base, 8, true, false).hit);
    const a64_watchpoint_hit st = watch(base, 0xFF, 2).watchpoint(pe, c, base, 8, false, true);
    EXPECT_TRUE(st.hit);
    EXPECT_TRUE(st.write);
    const a64_watchpoint_hit ld = watch(base, 0xFF, 3).watchpoint(pe, c, base, 8, true, false);
    EXPECT_FALSE(ld.write);
    // An access that starts below the watched bytes: FAR inside them.
    const a64_watchpoint_hit far =
        watch(base + 4, 0x0F, 3).watchpoint(pe, c, base, 16, true, false);
    EXPECT_TRUE(far.hit);
    EXPECT_EQ(far.address, base + 4);
    // MASK 12: the 4 KiB block.
    EXPECT_TRUE(watch(base, 0xFF, 3, 12).watchpoint(pe, c, base + 0xFF8, 8, true, false).hit);
    EXPECT_FALSE(watch(base, 0xFF, 3, 12).watchpoint(pe, c, base + 0x1000, 8, true, false).hit);
    // MASK 1 and 2 are reserved.
    EXPECT_FALSE(watch(base, 0xFF, 3, 1).watchpoint(pe, c, base, 8, true, false).hit);
    EXPECT_FALSE(watch(base, 0xFF, 3, 2).watchpoint(pe, c, base, 8, true, false).hit);
    // PAC: EL0 and EL1 (3); at EL2 it does not match.
    c.el = 2;
    EXPECT_FALSE(watch(base, 0xFF, 3).watchpoint(pe, c, base, 8, true, false).hit);
}

// AArch64.GenerateDebugExceptionsFrom: none while the OS Lock is locked; to a higher level
// whatever PSTATE.D; to the same level only with MDSCR_EL1.KDE and PSTATE.D clear; never to a
// lower one; MDCR_EL3.SDD disables them in Secure state.
TEST(A64SelfHostedDebug, GenerateDebugExceptionsFrom)
{
    EXPECT_TRUE(a64_generate_debug_exceptions_from(0, false, true, false, false, true, false, 0));
    EXPECT_FALSE(a64_generate_debug_exceptions_from(0, false, false, true, false, true, false, 0));
    EXPECT_FALSE(a64_generate_debug_exceptions_from(1, false, false, false, false, true, false, 0));
    EXPECT_TRUE(
        a64_generate_debug_exceptions_from(1, false, false, false, false, true, false, mdscr_kde));
    EXPECT_FALSE(
        a64_generate_debug_exceptions_from(1, false, true, false, false, true, false, mdscr_kde));
    EXPECT_TRUE(a64_generate_debug_exceptions_from(1, false, true, false, true, true, false, 0));
    EXPECT_FALSE(
        a64_generate_debug_exceptions_from(2, false, false, false, false, true, false, mdscr_kde));
    EXPECT_TRUE(
        a64_generate_debug_exceptions_from(2, false, false, false, true, true, false, mdscr_kde));
    EXPECT_FALSE(
        a64_generate_debug_exceptions_from(3, true, false, false, false, true, false, mdscr_kde));
    EXPECT_FALSE(a64_generate_debug_exceptions_from(0, true, false, false, false, true, true, 0));
    EXPECT_TRUE(a64_generate_debug_exceptions_from(0, true, false, false, false, true, false, 0));
}
