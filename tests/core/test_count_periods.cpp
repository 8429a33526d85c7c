// pmt_pmu_count with counts of many overflow periods (pmt_pmu.h: "the cost does not depend on
// n"): the steady-state batching of c-core/src/pmu/pmu_count.c against the architecture.
// Pseudocode: AArch64.IncrementEventCounter (CHAIN, RQZJKS, IFYVTD),
// AArch64.IncrementCycleCounter (PMCR.LC, PMCR.D), ShouldFreeze (PMCR.FZO, MDCR_EL2.HPMFZO);
// PMU_OVFS and PMU_HOVFS (D14.3) through the pmu_event output.
#include "pe_fixture.h"

#include <random>

namespace
{

constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint64_t kD = PMT_MASK(PMCR, D);
constexpr uint64_t kLC = PMT_MASK(PMCR, LC);
constexpr uint64_t kLP = PMT_MASK(PMCR, LP);
constexpr uint64_t kFZO = PMT_MASK(PMCR, FZO);
constexpr uint64_t kHPME = PMT_MASK(MDCR_EL2, HPME);
constexpr uint64_t kHLP = PMT_MASK(MDCR_EL2, HLP);
constexpr uint64_t kHPMFZO = PMT_MASK(MDCR_EL2, HPMFZO);
constexpr uint64_t kAll = ~uint64_t{0};
constexpr uint64_t kTwo32 = uint64_t{1} << 32;

// What a PE's outputs did, in order (the pmu_event counts summed per event).
struct Outputs {
    std::vector<bool> irq, cti, halt;
    std::vector<std::pair<bool, unsigned>> exception;
    int brbe_freezes = 0;
    uint64_t ovfs = 0, hovfs = 0;
    std::vector<std::pair<uint16_t, uint64_t>> events; // every pmu_event call

    pmt_pe_callbacks callbacks()
    {
        pmt_pe_callbacks cb{};
        cb.user = this;
        cb.pmuirq = [](void *u, bool l) { static_cast<Outputs *>(u)->irq.push_back(l); };
        cb.cti_pmu_overflow = [](void *u, bool l) { static_cast<Outputs *>(u)->cti.push_back(l); };
        cb.halt_request = [](void *u, bool l) { static_cast<Outputs *>(u)->halt.push_back(l); };
        cb.brbe_freeze = [](void *u) { static_cast<Outputs *>(u)->brbe_freezes++; };
        cb.pmu_exception = [](void *u, bool pending, unsigned target) {
            static_cast<Outputs *>(u)->exception.emplace_back(pending, target);
        };
        cb.pmu_event = [](void *u, uint16_t e, uint64_t n) {
            Outputs *o = static_cast<Outputs *>(u);
            (e == PMT_EV_PMU_OVFS ? o->ovfs : o->hovfs) += n;
            o->events.emplace_back(e, n);
        };
        return cb;
    }
};

class CountPeriods : public PeTest
{
  protected:
    // pmt_pmu_count(event, n) in pieces that each end at the next overflow of a counter counting
    // the event (pmt_pmu_headroom): at most one overflow step each, as the step path does.
    static void count_in_pieces(pmt_pe *p, uint16_t event, uint64_t n)
    {
        while (n > 0) {
            uint64_t piece = std::min(n, pmt_pmu_headroom(p, event));
            ASSERT_EQ(pmt_pmu_count(p, event, piece), PMT_OK);
            n -= piece;
        }
    }

    static uint64_t read_reg(pmt_pe *p, pmt_reg_id id, unsigned n = 0)
    {
        uint64_t v = 0;
        EXPECT_EQ(pmt_pe_sysreg_read(p, pmt_sysreg_encode({id, n}), &v), PMT_ACCESS_OK);
        return v;
    }

    // A counter value near a 32-bit or a 64-bit overflow, or anywhere.
    static uint64_t random_value(std::mt19937_64 &rng)
    {
        uint64_t small = rng() % 64;
        switch (rng() % 5) {
        case 0: return 0xFFFFFFFFu - small;
        case 1: return rng() & 0xFFFFFFFFu;
        case 2: return kAll - small;
        case 3: return kAll - (uint64_t{1} << (33 + rng() % 8)) + small;
        default: return rng();
        }
    }

    // A random state on `pe`: the config, the counters (some counting `event`, odd ones CHAIN),
    // PMCR.{LC, LP, D, FZO}, MDCR_EL2.{HPMN, HLP, HPME, HPMFZO}, PMINTENSET, PMOVSSET.
    void random_state(std::mt19937_64 &rng, uint16_t event)
    {
        static constexpr pmt_pmu_version kVersions[] = {PMT_PMUV3P4, PMT_PMUV3P5, PMT_PMUV3P7};
        cfg = pmt_pe_config_default();
        cfg.pmu_version = kVersions[rng() % 3];
        cfg.chain_across_ranges = rng() % 2;
        remake();
        for (unsigned n = 0; n < cfg.num_counters; n++) {
            switch (rng() % 4) {
            case 0: program(n, event, random_value(rng)); break;
            case 1: program(n, n % 2 ? uint16_t{PMT_EV_CHAIN} : event, random_value(rng)); break;
            case 2: program(n, PMT_EV_BR_RETIRED, random_value(rng)); break;
            default: break; // disabled
            }
        }
        if (rng() % 2)
            cycle_counter(random_value(rng));
        wr(PMT_REG_PMINTENSET_EL1, rng() & (C | 0x3F));
        if (rng() % 2) // overflow flags already set: a later overflow changes no state
            wr(PMT_REG_PMOVSSET_EL0, rng() & (C | 0x3F));
        mdcr(1 + rng() % cfg.num_counters,
             (rng() % 4 ? kHPME : 0) | (rng() % 2 ? kHLP : 0) | (rng() % 4 ? 0 : kHPMFZO));
        pmcr(kE | (rng() % 2 ? kLC : 0) | (rng() % 2 ? kLP : 0) | (rng() % 2 ? kD : 0) |
             (rng() % 4 ? 0 : kFZO));
    }

    // A new PE from cfg with `pe`'s state (pmt_pe_save), recording into `out`.
    pmt_pe *clone(Outputs &out)
    {
        std::vector<uint8_t> blob(pmt_pe_state_size(pe));
        EXPECT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
        pmt_pe_callbacks cb = out.callbacks();
        pmt_pe *p = pmt_pe_create(&cfg, &cb);
        EXPECT_NE(p, nullptr);
        EXPECT_EQ(pmt_pe_restore(p, blob.data(), blob.size()), PMT_OK);
        return p;
    }

    void expect_same(pmt_pe *a, const Outputs &oa, pmt_pe *b, const Outputs &ob)
    {
        for (unsigned n = 0; n < cfg.num_counters; n++)
            EXPECT_EQ(read_reg(a, PMT_REG_PMEVCNTR_EL0, n), read_reg(b, PMT_REG_PMEVCNTR_EL0, n))
                << "PMEVCNTR" << n;
        EXPECT_EQ(read_reg(a, PMT_REG_PMCCNTR_EL0), read_reg(b, PMT_REG_PMCCNTR_EL0));
        EXPECT_EQ(read_reg(a, PMT_REG_PMOVSSET_EL0), read_reg(b, PMT_REG_PMOVSSET_EL0));
        EXPECT_EQ(oa.ovfs, ob.ovfs);
        EXPECT_EQ(oa.hovfs, ob.hovfs);
        EXPECT_EQ(oa.irq, ob.irq);
        EXPECT_EQ(oa.cti, ob.cti);
        EXPECT_EQ(oa.halt, ob.halt);
        EXPECT_EQ(oa.exception, ob.exception);
        EXPECT_EQ(oa.brbe_freezes, ob.brbe_freezes);
    }
};

// Differential: one count of up to 2^40 events (up to 256 periods of a 32-bit counter, 4 of the
// cycle counter divided by 64) against the same count in one-overflow pieces.
TEST_F(CountPeriods, OneCountEqualsTheCountInOneOverflowPieces)
{
    std::mt19937_64 rng(20261127);
    for (int i = 0; i < 400; i++) {
        const uint16_t event = rng() % 2 ? PMT_EV_CPU_CYCLES : PMT_EV_INST_RETIRED;
        random_state(rng, event);
        const uint64_t n = rng() & ((uint64_t{1} << (30 + rng() % 11)) - 1);
        Outputs whole_out, pieces_out;
        pmt_pe *whole = clone(whole_out);
        pmt_pe *pieces = clone(pieces_out);
        ASSERT_EQ(pmt_pmu_count(whole, event, n), PMT_OK);
        count_in_pieces(pieces, event, n);
        SCOPED_TRACE("case " + std::to_string(i) + ", n = " + std::to_string(n));
        expect_same(whole, whole_out, pieces, pieces_out);
        pmt_pe_destroy(whole);
        pmt_pe_destroy(pieces);
        if (HasFailure())
            break;
    }
}

// pmt_pe_restore: the restored model counts as the saved one, pmu_event calls included, though
// the saved one's counters 0 and 4 already overflowed within the current instruction (the
// FEAT_SEBEP bookkeeping, which a save does not hold). Found by fuzz_pe_ops.
TEST_F(CountPeriods, ARestoredModelCountsAsTheSavedOne)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0u);
    program(4, PMT_EV_INST_RETIRED, 0xFFFFFFF8u);
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(4));
    mdcr(4, kHPME); // counter 4 in the second range, HLP = 0
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, 16); // both overflow
    Outputs restored_out;
    pmt_pe *restored = clone(restored_out);
    exported.clear();
    count(PMT_EV_INST_RETIRED, uint64_t{1} << 40);
    ASSERT_EQ(pmt_pmu_count(restored, PMT_EV_INST_RETIRED, uint64_t{1} << 40), PMT_OK);
    EXPECT_EQ(exported, restored_out.events);
    EXPECT_EQ(restored_out.ovfs, uint64_t{1} << 8);
    EXPECT_EQ(restored_out.hovfs, uint64_t{1} << 8);
    pmt_pe_destroy(restored);
}

// Without FEAT_PMUv3p5 an event counter is 32 bits wide and overflows at 2^32 (RQZJKS):
// 0x10 + (2^64 - 1) events leave 0xF after 2^32 overflows, each a PMU_OVFS (PMINTENSET).
TEST_F(CountPeriods, RQZJKS_AllOf2To64Minus1EventsOnA32BitCounter)
{
    cfg.pmu_version = PMT_PMUV3P4;
    make();
    program(0, PMT_EV_INST_RETIRED, 0x10);
    wr(PMT_REG_PMINTENSET_EL1, bit(0));
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, kAll);
    EXPECT_EQ(cnt(0), 0xFu);
    EXPECT_EQ(ovs(), bit(0));
    uint64_t ovfs = 0;
    for (auto &e : exported)
        ovfs += e.first == PMT_EV_PMU_OVFS ? e.second : 0;
    EXPECT_EQ(ovfs, kTwo32);
}

// IFYVTD: with PMCR.LP = 0 the counter increments all 64 bits and overflows at each wrap of
// [31:0]; CHAIN counts each of those 2^32 - 1 overflows, and the odd counter (32-bit overflow
// too) overflows once.
TEST_F(CountPeriods, IFYVTD_ChainedPairOver2To64Minus1Events)
{
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_CHAIN, 0xFFFFFFF0u);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, kAll);
    EXPECT_EQ(cnt(0), kAll);
    EXPECT_EQ(cnt(1), 0xFFFFFFF0u + (kTwo32 - 1));
    EXPECT_EQ(ovs(), bit(0) | bit(1));
}

// RBHFSF: the CHAIN counter in the second range (HPMN = 1, CHAIN across ranges) overflows after
// 16 overflows of counter 0 and, with MDCR_EL2.HPMFZO = 1, freezes itself: it stays at 2^32
// while counter 0 keeps counting (the first range does not freeze: PMCR.FZO = 0).
TEST_F(CountPeriods, RBHFSF_ChainCounterFreezesItsRangeOnItsOwnOverflow)
{
    cfg.chain_across_ranges = true;
    make();
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_CHAIN, 0xFFFFFFF0u);
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(1));
    mdcr(1, kHPME | kHPMFZO); // HLP = 0
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, kAll);
    EXPECT_EQ(cnt(0), kAll);
    EXPECT_EQ(cnt(1), kTwo32);
    EXPECT_EQ(ovs(), bit(0) | bit(1));
    std::pair<uint64_t, uint64_t> sums{0, 0};
    for (auto &e : exported)
        (e.first == PMT_EV_PMU_OVFS ? sums.first : sums.second) += e.second;
    EXPECT_EQ(sums, std::make_pair(kTwo32 - 1, uint64_t{1}));
}

// RQZJKS: counter 2 in the second range with MDCR_EL2.HLP = 1 overflows once, at bit 63 after
// 2^33 + 2^31 + 2^30 events, among the 16 overflows of each of counters 0 and 1 (LP = 0, half a
// period apart). With every flag already set no overflow changes the state, yet counter 2's is one
// PMU_HOVFS, not one per period.
TEST_F(CountPeriods, RQZJKS_A64BitOverflowAmongPeriodsIsOneOverflow)
{
    make();
    const uint64_t to_wrap = (uint64_t{1} << 33) + (uint64_t{1} << 31) + (uint64_t{1} << 30);
    program(0, PMT_EV_INST_RETIRED, 0);
    program(1, PMT_EV_INST_RETIRED, uint64_t{1} << 31);
    program(2, PMT_EV_INST_RETIRED, 0 - to_wrap);
    wr(PMT_REG_PMOVSSET_EL0, bit(0) | bit(1) | bit(2));
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(1) | bit(2));
    mdcr(2, kHPME | kHLP);
    pmcr(kE);
    count(PMT_EV_INST_RETIRED, uint64_t{1} << 36);
    EXPECT_EQ(cnt(0), uint64_t{1} << 36);
    EXPECT_EQ(cnt(1), (uint64_t{1} << 36) + (uint64_t{1} << 31));
    EXPECT_EQ(cnt(2), (uint64_t{1} << 36) - to_wrap);
    std::pair<uint64_t, uint64_t> sums{0, 0};
    for (auto &e : exported)
        (e.first == PMT_EV_PMU_OVFS ? sums.first : sums.second) += e.second;
    EXPECT_EQ(sums, std::make_pair(uint64_t{32}, uint64_t{1}));
}

// AArch64.IncrementCycleCounter: with PMCR.{LC, D} = {0, 1}, 2^64 - 1 cycles make 2^58 - 1
// increments of PMCCNTR_EL0 (63 cycles left towards the next), 2^26 - 1 overflows at bit 31.
TEST_F(CountPeriods, PmcrDCycleCounterOver2To64Minus1Cycles)
{
    make();
    cycle_counter(0);
    wr(PMT_REG_PMINTENSET_EL1, C);
    pmcr(kE | kD);
    cycles(kAll);
    EXPECT_EQ(ccnt(), (uint64_t{1} << 58) - 1);
    EXPECT_EQ(ovs(), C);
    uint64_t ovfs = 0;
    for (auto &e : exported)
        ovfs += e.second;
    EXPECT_EQ(ovfs, (uint64_t{1} << 26) - 1);
    cycles(1); // the 64th cycle
    EXPECT_EQ(ccnt(), uint64_t{1} << 58);
}

// The divided cycle counter (PMCR.{LC, D} = {0, 1}) and an event counter counting CPU_CYCLES
// that overflows 18 cycles after a multiple of 2^32, out of step with the cycle counter's
// overflows (every 2^38 cycles): their common period is 2^38 cycles, found whichever of the two
// overflows comes first (the prescale is part of the phase, not of the state; found by
// fuzz_pe_ops, where the step path took every period). 18 + (2^64 - 1) leaves counter 0 at 17
// after 2^32 overflows; the cycle counter at 2^58 - 1 after 2^26 - 1.
TEST_F(CountPeriods, PmcrDCycleCounterAndAnEventCounterOutOfStep)
{
    make();
    program(0, PMT_EV_CPU_CYCLES, 18);
    cycle_counter(0);
    wr(PMT_REG_PMINTENSET_EL1, bit(0) | C);
    pmcr(kE | kD);
    cycles(kAll);
    EXPECT_EQ(cnt(0), 17u);
    EXPECT_EQ(ccnt(), (uint64_t{1} << 58) - 1);
    EXPECT_EQ(ovs(), bit(0) | C);
    uint64_t ovfs = 0;
    for (auto &e : exported)
        ovfs += e.second;
    EXPECT_EQ(ovfs, kTwo32 + (uint64_t{1} << 26) - 1);
}

} // namespace
