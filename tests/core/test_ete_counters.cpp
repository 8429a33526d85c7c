// The trace unit's Counters (TRCIDR5.NUMCNTR, ete.num_counters): TRCCNTRLDVR<n>, TRCCNTCTLR<n>,
// TRCCNTVR<n> (Arm ARM D24.4.22 to D24.4.24) and the "Counter <n> is zero" resources of
// TRCRSCTLR<m> group 0b0010 (D24.4.54). Their fields, their existence per NUMCNTR, and how a
// counter decrements, stays at zero, reloads (RLDEVENT, RLDSELF) and chains (CNTCHAIN) at the
// trace unit's evaluation points of resource events (docs/choices.md, "Counters").
//
// Expected values are worked out by hand from D24.4's field tables (bit positions written out
// here, not taken from pmt_regs.h) and from the counter rules docs/choices.md cites.
#include "ete_fixture.h"

#include <cstring>
#include <vector>

namespace
{

// TRCCNTCTLR<n> (D24.4.22): CNTEVENT.SEL [4:0], CNTEVENT.TYPE [7], RLDEVENT.SEL [12:8],
// RLDEVENT.TYPE [15], RLDSELF [16], CNTCHAIN [17] (odd n only).
constexpr uint64_t cnt_sel(unsigned s)
{
    return s;
}
constexpr uint64_t cnt_pair(unsigned p)
{
    return uint64_t{1} << 7 | p;
}
constexpr uint64_t rld_sel(unsigned s)
{
    return uint64_t{s} << 8;
}
constexpr uint64_t RLDSELF = uint64_t{1} << 16;
constexpr uint64_t CNTCHAIN = uint64_t{1} << 17;
// TRCRSCTLR<m> (D24.4.54): GROUP [19:16] 0b0010 Counters and Sequencer, SELECT [15:0] with
// COUNTERS[n] at bit n; INV [20].
constexpr uint64_t counter_at_zero(unsigned select)
{
    return uint64_t{2} << 16 | select;
}
constexpr uint64_t RS_INV = uint64_t{1} << 20;
// TRCRSCTLR<m> group 0b0000: External Input Selectors, EXTIN[n] at bit n.
constexpr uint64_t extin_resource(unsigned select)
{
    return select;
}

class EteCounters : public EteTest
{
  protected:
    // One evaluation point of the resource events at an instruction (ete_trace.c calls it at
    // each traced P0 element and External Input event), with the External Inputs `extin`.
    void step(unsigned extin = 0) { ete_counters_step(pe, 0x40001000, extin); }
    std::vector<uint64_t> steps(unsigned n, unsigned extin = 0)
    {
        std::vector<uint64_t> v;
        for (unsigned i = 0; i < n; i++) {
            step(extin);
            v.push_back(rd(PMT_REG_TRCCNTVR, 0));
        }
        return v;
    }
    // Counter n programmed: reload value, control, value.
    void counter(unsigned n, uint64_t rldvr, uint64_t ctlr, uint64_t value)
    {
        wr(PMT_REG_TRCCNTRLDVR, rldvr, n);
        wr(PMT_REG_TRCCNTCTLR, ctlr, n);
        wr(PMT_REG_TRCCNTVR, value, n);
    }
    // A fresh model with `num` counters.
    void remake_with(unsigned num)
    {
        cfg.ete.num_counters = num;
        remake();
    }
    // The resource selector m's value now (an 8-bit resource event selecting it alone).
    bool resource(unsigned m, unsigned extin = 0)
    {
        return ete_resource_event(pe, m, 0x40001000, extin);
    }
};

// --- TRCIDR5.NUMCNTR and existence ---

// D24.4.40: NUMCNTR [30:28] is the number of Counters, 0b000..0b100; each register of counter n
// is "present only when ... UInt(TRCIDR5.NUMCNTR) > n. Otherwise, direct accesses ... are
// UNDEFINED" (D24.4.22 to D24.4.24), for MRS and MSR alike.
TEST_F(EteCounters, D24_4_40_NumcntrAndEachCounterRegisterPresentBelowIt)
{
    for (unsigned num = 0; num <= 4; num++) {
        SCOPED_TRACE(::testing::Message() << "num_counters " << num);
        cfg = pmt_pe_config_default();
        cfg.ete.feat_ete = true;
        cfg.ete.num_counters = num;
        remake();
        EXPECT_EQ(rd(PMT_REG_TRCIDR5) >> 28 & 7, num);
        for (pmt_reg_id id : {PMT_REG_TRCCNTRLDVR, PMT_REG_TRCCNTCTLR, PMT_REG_TRCCNTVR})
            for (unsigned n = 0; n < 4; n++) {
                uint64_t v = 0;
                const pmt_access want = n < num ? PMT_ACCESS_OK : PMT_ACCESS_UNDEFINED;
                EXPECT_EQ(read(id, &v, n), want) << pmt_reg_name(id) << n;
                EXPECT_EQ(write(id, 0, n), want) << pmt_reg_name(id) << n;
            }
    }
}

TEST_F(EteCounters, DefaultIsTwoCounters)
{
    cfg.ete.feat_ete = true; // pmt_pe_config_default's trace unit
    make();
    EXPECT_EQ(cfg.ete.num_counters, 2u);
    EXPECT_EQ(rd(PMT_REG_TRCIDR5) >> 28 & 7, 2u);
    EXPECT_EQ(rd(PMT_REG_TRCIDR5) >> 25 & 7, 0u); // NUMSEQSTATE: no Sequencer
}

// The accessibility pseudocode of the three registers is every trace register's
// (for_each_trace_access_row).
TEST_F(EteCounters, D24_4_22_AccessIsTheTraceRegistersAccess)
{
    make_ete();
    for_each_trace_access_row([&](pmt_access access, unsigned el) {
        for (pmt_reg_id id : {PMT_REG_TRCCNTRLDVR, PMT_REG_TRCCNTCTLR, PMT_REG_TRCCNTVR}) {
            uint64_t v = 0;
            EXPECT_EQ(read(id, &v, 1), access) << pmt_reg_name(id) << " EL" << el;
            EXPECT_EQ(write(id, 1, 1), access) << pmt_reg_name(id) << " EL" << el;
        }
    });
}

// --- Fields ---

TEST(EteCountersEncoding, D24_4_22_To_24_Encodings)
{
    // MRS/MSR TRCCNTRLDVR<m>: op0 0b10, op1 0b001, CRn 0b0000, CRm 0b00:m[1:0], op2 0b101;
    // TRCCNTCTLR<m>: CRm 0b01:m[1:0]; TRCCNTVR<m>: CRm 0b10:m[1:0].
    for (unsigned m = 0; m < 4; m++) {
        const pmt_reg_ref rldvr = pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, m, 5));
        const pmt_reg_ref ctlr = pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, 4 + m, 5));
        const pmt_reg_ref vr = pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, 8 + m, 5));
        EXPECT_EQ(rldvr.id, PMT_REG_TRCCNTRLDVR);
        EXPECT_EQ(ctlr.id, PMT_REG_TRCCNTCTLR);
        EXPECT_EQ(vr.id, PMT_REG_TRCCNTVR);
        EXPECT_EQ(rldvr.index, m);
        EXPECT_EQ(ctlr.index, m);
        EXPECT_EQ(vr.index, m);
    }
    char buf[160];
    pmt_reg_format({PMT_REG_TRCCNTCTLR, 1}, 0x30201, buf, sizeof buf);
    EXPECT_STREQ(buf, "TRCCNTCTLR1 = 0x30201 {CNTEVENT_SEL=1, RLDEVENT_SEL=2, RLDSELF=1, "
                      "CNTCHAIN=1}");
    pmt_reg_format({PMT_REG_TRCCNTVR, 3}, 0x10, buf, sizeof buf);
    EXPECT_STREQ(buf, "TRCCNTVR3 = 0x10 {VALUE=0x10}");
}

// D24.4.23, D24.4.24: VALUE [15:0], bits [63:16] RES0.
TEST_F(EteCounters, D24_4_23_ValueRegistersAreSixteenBits)
{
    make_ete();
    for (unsigned n = 0; n < 2; n++) {
        wr(PMT_REG_TRCCNTRLDVR, ~uint64_t{0}, n);
        wr(PMT_REG_TRCCNTVR, ~uint64_t{0}, n);
        EXPECT_EQ(rd(PMT_REG_TRCCNTRLDVR, n), 0xFFFFu);
        EXPECT_EQ(rd(PMT_REG_TRCCNTVR, n), 0xFFFFu);
        wr(PMT_REG_TRCCNTRLDVR, 0x12345, n);
        wr(PMT_REG_TRCCNTVR, 0xABCDE, n);
        EXPECT_EQ(rd(PMT_REG_TRCCNTRLDVR, n), 0x2345u);
        EXPECT_EQ(rd(PMT_REG_TRCCNTVR, n), 0xBCDEu);
    }
}

// D24.4.22: [63:18] RES0; CNTCHAIN [17] "When (n MOD 2) != 0", else RES0; RLDSELF [16];
// RLDEVENT.TYPE [15]; [14:13] RES0; RLDEVENT.SEL [12:8]; CNTEVENT.TYPE [7]; [6:5] RES0;
// CNTEVENT.SEL [4:0].
TEST_F(EteCounters, D24_4_22_CntctlrFieldsAndChainOnlyInOddCounters)
{
    cfg.ete.num_counters = 4;
    make_ete();
    const uint64_t fields = 0x1F | 1u << 7 | 0x1Fu << 8 | 1u << 15 | 1u << 16;
    for (unsigned n = 0; n < 4; n++) {
        wr(PMT_REG_TRCCNTCTLR, ~uint64_t{0}, n);
        EXPECT_EQ(rd(PMT_REG_TRCCNTCTLR, n), n % 2 ? fields | 1u << 17 : fields) << n;
        // Linux's etm4_config_timestamp_event value: RLDSELF, CNTEVENT resource 1.
        wr(PMT_REG_TRCCNTCTLR, 0x10001, n);
        EXPECT_EQ(rd(PMT_REG_TRCCNTCTLR, n), 0x10001u) << n;
    }
}

// Reset: every field of the three registers "resets to an architecturally UNKNOWN value",
// which the model makes 0 as for the other trace unit registers.
TEST_F(EteCounters, D24_4_22_ResetValuesAreZero)
{
    make_ete();
    for (unsigned n = 0; n < 2; n++)
        for (pmt_reg_id id : {PMT_REG_TRCCNTRLDVR, PMT_REG_TRCCNTCTLR, PMT_REG_TRCCNTVR})
            EXPECT_EQ(rd(id, n), 0u) << pmt_reg_name(id) << n;
}

// D24.4.54: group 0b0010 SELECT: COUNTERS[m], bit m, "RES0 if m >= TRCIDR5.NUMCNTR";
// SEQUENCER[m], bits [7:4], RES0 with NUMSEQSTATE 0; [15:8] RES0.
TEST_F(EteCounters, D24_4_54_CounterGroupSelectsImplementedCounters)
{
    make_ete(); // two counters
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(0xFFFF), 2);
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 2), counter_at_zero(0x3));
    remake_with(4);
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(0xFFFF), 3);
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 3), counter_at_zero(0xF));
    remake_with(0);
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(0xFFFF), 2);
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 2), counter_at_zero(0));
}

// Writes "are CONSTRAINED UNPREDICTABLE if the trace unit is not in the Idle state": logged,
// and they take effect (ete.busy_write's default), as for the other registers.
TEST_F(EteCounters, D24_4_24_WritesWhileNotIdleAreLogged)
{
    make_ete();
    allow_trace();
    enable();
    for (pmt_reg_id id : {PMT_REG_TRCCNTRLDVR, PMT_REG_TRCCNTCTLR, PMT_REG_TRCCNTVR}) {
        log_lines.clear();
        wr(id, 5, 1);
        ASSERT_EQ(log_lines.size(), 1u) << pmt_reg_name(id);
        EXPECT_NE(log_lines[0].find(std::string(pmt_reg_name(id)).substr(0, 8)), std::string::npos);
        EXPECT_NE(log_lines[0].find("not Idle"), std::string::npos);
        EXPECT_EQ(rd(id, 1), 5u);
    }
}

// --- Behaviour ---

// CNTEVENT: "Selects an event, that when it occurs causes Counter <n> to decrement" (D24.4.22).
// Resource 1 (TRUE) occurs at each evaluation point; in Normal mode (RLDSELF 0) the counter stays
// at zero once there (IHI0014 2.2.3: "When the counter reaches zero it remains at zero").
TEST_F(EteCounters, CntEventDecrementsAndTheCounterStaysAtZero)
{
    make_ete();
    counter(0, 9, cnt_sel(1), 3);
    EXPECT_EQ(steps(5), (std::vector<uint64_t>{2, 1, 0, 0, 0}));
    // Resource 0 (FALSE) never occurs: the counter does not move.
    counter(0, 9, cnt_sel(0), 3);
    EXPECT_EQ(steps(3), (std::vector<uint64_t>{3, 3, 3}));
}

// The "Counter <n> is zero" resource (TRCRSCTLR group 0b0010, COUNTERS[n]) is active exactly
// while TRCCNTVR<n> is 0; several selected counters are ORed; INV inverts (D24.4.54).
TEST_F(EteCounters, D24_4_54_CounterAtZeroResource)
{
    make_ete();
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(1), 2); // counter 0
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(2), 3); // counter 1
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(3), 4); // either
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(1) | RS_INV, 5);
    counter(0, 0, 0, 1);
    counter(1, 0, 0, 0);
    EXPECT_FALSE(resource(2));
    EXPECT_TRUE(resource(3));
    EXPECT_TRUE(resource(4));
    EXPECT_TRUE(resource(5));
    wr(PMT_REG_TRCCNTVR, 0, 0);
    wr(PMT_REG_TRCCNTVR, 0x8000, 1);
    EXPECT_TRUE(resource(2));
    EXPECT_FALSE(resource(3));
    EXPECT_TRUE(resource(4));
    EXPECT_FALSE(resource(5));
    wr(PMT_REG_TRCCNTVR, 7, 0);
    EXPECT_FALSE(resource(4));
}

// RLDEVENT: a reload event copies TRCCNTRLDVR<n>.VALUE into the counter (D24.4.23); it takes
// priority over a decrement at the same point (IHI0014 2.2.3).
TEST_F(EteCounters, RldEventReloadsAndTakesPriorityOverTheDecrement)
{
    make_ete();
    wr(PMT_REG_TRCRSCTLR, extin_resource(1), 2); // External Input Selector 0
    // CNTEVENT TRUE, RLDEVENT resource 2.
    counter(0, 7, cnt_sel(1) | rld_sel(2), 5);
    step();
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 4u);
    step(1); // EXTIN 0 active: the reload event, and CNTEVENT too
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 7u);
    // A reload event also moves a counter at zero in Normal mode.
    counter(0, 3, rld_sel(2), 0);
    step();
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 0u);
    step(1);
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 3u);
}

// RLDSELF, Self-reload mode: "a reload event occurs for the Counter, when the Counter reaches
// zero" (D24.4.22): the counter reloads when it is zero and its CNTEVENT occurs (the ETMv4
// TRMs: "The counter reloads when it is zero and the resource selected by CNTTYPE and CNTSEL is
// also active"). So with reload value R and CNTEVENT TRUE the counter is at zero at one point in
// R + 1: Linux's counter (value 1, reload 1) is at zero at every second point.
TEST_F(EteCounters, RldSelfReloadsAtZeroWhenTheCountEventOccurs)
{
    make_ete();
    counter(0, 1, RLDSELF | cnt_sel(1), 1);
    EXPECT_EQ(steps(6), (std::vector<uint64_t>{0, 1, 0, 1, 0, 1}));
    counter(0, 3, RLDSELF | cnt_sel(1), 1);
    EXPECT_EQ(steps(8), (std::vector<uint64_t>{0, 3, 2, 1, 0, 3, 2, 1}));
    // At zero without its CNTEVENT: no reload, the counter waits at zero.
    wr(PMT_REG_TRCRSCTLR, extin_resource(1), 2);
    counter(0, 4, RLDSELF | cnt_sel(2), 1);
    EXPECT_EQ(steps(1, 1), (std::vector<uint64_t>{0}));
    EXPECT_EQ(steps(3, 0), (std::vector<uint64_t>{0, 0, 0}));
    EXPECT_EQ(steps(2, 1), (std::vector<uint64_t>{4, 3}));
}

// A pair of resource selectors as CNTEVENT (TYPE 1: pair SEL[3:0], A AND B unless PAIRINV).
TEST_F(EteCounters, CntEventOfAResourcePair)
{
    make_ete();
    wr(PMT_REG_TRCRSCTLR, extin_resource(1), 2); // A: EXTIN 0
    wr(PMT_REG_TRCRSCTLR, extin_resource(2), 3); // B: EXTIN 1
    counter(0, 0, cnt_pair(1), 10);
    step(1);
    step(2);
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 10u);
    step(3);
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 9u);
}

// CNTCHAIN (odd n): "Counter <n> decrements when a reload event for Counter <n-1> occurs. This
// concatenates Counter <n> and Counter <n-1>" (D24.4.22). Counter 0 self-reloads every third
// point (reload value 2); counter 1, chained, with no CNTEVENT of its own, counts those reloads.
TEST_F(EteCounters, D24_4_22_CntChainCountsTheReloadsOfTheCounterBelow)
{
    make_ete();
    counter(0, 2, RLDSELF | cnt_sel(1), 0);
    counter(1, 0, CNTCHAIN, 3);
    std::vector<uint64_t> c0, c1;
    for (int i = 0; i < 10; i++) {
        step();
        c0.push_back(rd(PMT_REG_TRCCNTVR, 0));
        c1.push_back(rd(PMT_REG_TRCCNTVR, 1));
    }
    EXPECT_EQ(c0, (std::vector<uint64_t>{2, 1, 0, 2, 1, 0, 2, 1, 0, 2}));
    EXPECT_EQ(c1, (std::vector<uint64_t>{2, 2, 2, 1, 1, 1, 0, 0, 0, 0}));
    // An explicit reload event of counter 0 (RLDEVENT TRUE) is a reload event too.
    counter(0, 5, rld_sel(1), 0);
    counter(1, 0, CNTCHAIN, 2);
    step();
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 1), 1u);
    // Without CNTCHAIN counter 1 does not see counter 0's reloads.
    counter(1, 0, 0, 2);
    step();
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 1), 2u);
}

// One decrement at a point, whether CNTEVENT, the chain or both cause it (docs/choices.md).
TEST_F(EteCounters, CntChainAndCntEventAtOnePointAreOneDecrement)
{
    make_ete();
    counter(0, 0, rld_sel(1), 0); // a reload event at every point
    counter(1, 0, CNTCHAIN | cnt_sel(1), 5);
    step();
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 1), 4u);
}

// At one point every resource event is evaluated with the counters as they were before it: a
// counter whose CNTEVENT is another's "at zero" sees that counter's value from before the point
// (docs/choices.md: the counters are a synchronous machine).
TEST_F(EteCounters, EventsAtAPointSeeTheCountersBeforeIt)
{
    make_ete();
    wr(PMT_REG_TRCRSCTLR, counter_at_zero(1), 2); // counter 0 is zero
    counter(0, 0, cnt_sel(1), 1);
    counter(1, 0, cnt_sel(2), 5);
    step(); // counter 0 goes 1 -> 0; counter 1's event saw it at 1
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 0u);
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 1), 5u);
    step(); // now counter 1's event sees counter 0 at zero
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 1), 4u);
}

// A counter that cannot move (both events resource 0, FALSE: what Linux writes for a counter it
// does not use) costs nothing: no evaluation point needs it.
TEST_F(EteCounters, CountersProgrammedWithFalseAreNotLive)
{
    make_ete();
    for (unsigned n = 0; n < 2; n++)
        counter(n, 0, 0, 0);
    EXPECT_FALSE(ete_counters_live(pe));
    wr(PMT_REG_TRCCNTCTLR, RLDSELF | CNTCHAIN, 1); // no event of its own: still nothing moves
    EXPECT_FALSE(ete_counters_live(pe));
    wr(PMT_REG_TRCCNTCTLR, rld_sel(1), 1);
    EXPECT_TRUE(ete_counters_live(pe));
}

// Counters are architectural state: a saved model restores its counters' registers and
// values; the blob is of layout "PMT7".
TEST_F(EteCounters, CountersAreSavedAndRestored)
{
    cfg.ete.num_counters = 4;
    make_ete();
    for (unsigned n = 0; n < 4; n++)
        counter(n, 0x100 + n, RLDSELF | cnt_sel(1) | (n % 2 ? CNTCHAIN : 0), 0x200 + n);
    step();
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    uint32_t magic = 0;
    std::memcpy(&magic, blob.data(), sizeof magic); // host byte order (docs/pmu.md)
    EXPECT_EQ(magic, uint32_t{'P'} << 24 | uint32_t{'M'} << 16 | uint32_t{'T'} << 8 | '7');
    pmt_pe_callbacks cb = callbacks();
    pmt_pe *other = pmt_pe_create(&cfg, &cb);
    ASSERT_NE(other, nullptr);
    ASSERT_EQ(pmt_pe_restore(other, blob.data(), blob.size()), PMT_OK);
    std::swap(pe, other);
    pmt_pe_destroy(other);
    at(2);
    for (unsigned n = 0; n < 4; n++) {
        EXPECT_EQ(rd(PMT_REG_TRCCNTRLDVR, n), 0x100u + n);
        EXPECT_EQ(rd(PMT_REG_TRCCNTCTLR, n), 0x10001u | (n % 2 ? CNTCHAIN : 0));
        EXPECT_EQ(rd(PMT_REG_TRCCNTVR, n), 0x200u + n - 1);
    }
}

} // namespace
