// Where trace buffer management events are recorded (RBNQRP, Tables D6-5, D6-6, D6-7 row by row)
// and the TRBE Profiling exception and TRBIRQ (RMFMXQ, IMTLSX, RVSCDV, Tables D6-8, D6-9, D6-10
// row by row). FEAT_TRBE_EXC, EL2, EL3 and FEAT_RME (for GPFs); self-hosted trace enabled.
//
// Each row is checked with every combination of the values its cells allow ("don't care" cells
// X, XX, 0b0X, 0b1X, and !=0b00), and with every value of the controls that are not columns of
// the table, all with the one result the row gives: a model whose result depends on a bit the
// table does not care about fails.
#include "trbe_fixture.h"

#include <array>
#include <optional>
#include <string>

namespace
{

// A cell of the left side of a table: the values of its control that it allows (bit v of `set`
// for the value v). A number is that one value; the "don't care" forms are the constants below.
struct Cell {
    constexpr Cell(unsigned v) : set(1u << v) {}
    friend constexpr Cell operator|(Cell a, Cell b)
    {
        a.set |= b.set;
        return a;
    }
    unsigned set;
};
constexpr Cell X = Cell(0b0) | Cell(0b1);                    // a one-bit field, any value
constexpr Cell B0X = Cell(0b00) | Cell(0b01);                // 0b0X
constexpr Cell B1X = Cell(0b10) | Cell(0b11);                // 0b1X
constexpr Cell XX = B0X | B1X;                               // a two-bit field, any value
constexpr Cell NOT00 = Cell(0b01) | Cell(0b10) | Cell(0b11); // !=0b00

template <size_t K> using Values = std::array<unsigned, K>;

// Calls f(v) for every combination v of the values the cells allow (v[k] allowed by cells[k]).
template <size_t K, typename F>
void each(const Cell (&cells)[K], const F &f, Values<K> v = {}, size_t k = 0)
{
    if (k == K) {
        f(v);
        return;
    }
    for (unsigned x = 0; x < 32; x++)
        if (cells[k].set >> x & 1u) {
            v[k] = x;
            each(cells, f, v, k + 1);
        }
}

// "MDCR_EL3.TRBEE = 2, SCR_EL3.GPF = 0, ...": a combination, for failure messages.
template <size_t K> std::string show(const char *const (&names)[K], const Values<K> &v)
{
    std::string s;
    for (size_t k = 0; k < K; k++)
        s += std::string(k ? ", " : "") + names[k] + " = " + std::to_string(v[k]);
    return s;
}

constexpr unsigned N = 9; // "n/a": the PE cannot be at this EL with this HCR_EL2.TGE

class TrbeRouting : public TrbeTest
{
  protected:
    void SetUp() override
    {
        cfg.have_rme = true;
        cfg.trbe.feat_trbe_exc = true;
    }

    // MDCR_EL3.TRBEE, TRFCR_EL2.EE, MDCR_EL2.E2TB, and SCR_EL3.GPF, HCR_EL2.GPF, SCR_EL3.EA,
    // HCR_EL2.TEA; the three TRBSR_ELx cleared.
    void controls(unsigned trbee, unsigned ee2, unsigned e2tb, unsigned scr_gpf = 0,
                  unsigned hcr_gpf = 0, unsigned scr_ea = 0, unsigned hcr_tea = 0)
    {
        wr_el3(PMT_REG_TRBLIMITR_EL1, 0);
        wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, trbee));
        wr_el3(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, e2tb) | PMT_PUT(MDCR_EL2, HPMN, 6));
        wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, ee2));
        for (pmt_reg_id id : {PMT_REG_TRBSR_EL1, PMT_REG_TRBSR_EL2, PMT_REG_TRBSR_EL3})
            wr_el3(id, 0);
        state([&](pmt_pe_state &s) {
            s.scr_gpf = scr_gpf;
            s.hcr_gpf = hcr_gpf;
            s.scr_ea = scr_ea;
            s.hcr_tea = hcr_tea;
        });
    }

    // Raises one event: a fault on the first write (kind, stage, level), or a buffer full event
    // (kind NONE). Returns the EL whose TRBSR recorded it (S = 1, IRQ = 1), 0 if none or several.
    unsigned raise(pmt_trbe_fault_kind kind, unsigned stage, int level)
    {
        faults.clear();
        if (kind != PMT_TRBE_FAULT_NONE)
            faults.push_back({BASE,
                              LIMIT,
                              {kind, static_cast<uint8_t>(stage), static_cast<int8_t>(level), false,
                               false, false, false}});
        at_el(3, [&] {
            wr(PMT_REG_TRBBASER_EL1, BASE);
            wr(PMT_REG_TRBPTR_EL1, kind == PMT_TRBE_FAULT_NONE ? LIMIT - 64 : BASE);
            wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, 3));
        });
        trace(64);
        unsigned where = 0, count = 0;
        for (unsigned el = 1; el <= (cfg.trbe.feat_trbe_exc ? 3u : 1u); el++) {
            uint64_t s = sr(el);
            if (TRBSR_F(s, S) && TRBSR_F(s, IRQ)) {
                where = el;
                count++;
            } else {
                EXPECT_EQ(s, 0u) << "TRBSR_EL" << el << " changed";
            }
        }
        return count == 1 ? where : 0;
    }
};

// Table D6-5, GPC faults. Columns: MDCR_EL3.TRBEE, SCR_EL3.GPF, TRFCR_EL2.EE, MDCR_EL2.E2TB,
// HCR_EL2.GPF | GPF stage 1, GPF stage 2, GPC fault. SCR_EL3.EA and HCR_EL2.TEA (not columns)
// take every value.
TEST_F(TrbeRouting, RBNQRP_TableD6_5GranuleProtectionChecksRowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "SCR_EL3.GPF", "TRFCR_EL2.EE",
                                          "MDCR_EL2.E2TB", "HCR_EL2.GPF"};
    static const char *const others[] = {"SCR_EL3.EA", "HCR_EL2.TEA"};
    const Cell other_cells[] = {X, X};
    struct Row {
        Cell in[5];
        unsigned gpf1, gpf2, gpc;
    } rows[] = {
        // clang-format off
        // TRBEE  SCR.GPF  TRFCR_EL2.EE  E2TB   HCR.GPF   GPF s1  GPF s2  GPC
        {{0b00,   X,       XX,           XX,    X},       1,      1,      1},
        {{0b01,   X,       B0X,          XX,    X},       1,      1,      1},
        {{0b01,   X,       0b10,         0b00,  X},       2,      2,      2},
        {{0b01,   X,       0b10,         B1X,   0b0},     1,      2,      2},
        {{0b01,   X,       0b10,         B1X,   0b1},     2,      2,      2},
        {{0b01,   X,       0b11,         XX,    X},       2,      2,      2},
        {{0b10,   0b0,     B0X,          XX,    X},       1,      1,      3},
        {{0b10,   0b0,     0b10,         0b00,  X},       2,      2,      3},
        {{0b10,   0b0,     0b10,         B1X,   0b0},     1,      2,      3},
        {{0b10,   0b0,     0b10,         B1X,   0b1},     2,      2,      3},
        {{0b10,   0b0,     0b11,         XX,    X},       2,      2,      3},
        {{0b10,   0b1,     XX,           XX,    X},       3,      3,      3},
        {{0b11,   X,       XX,           XX,    X},       3,      3,      3},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-5 row " + std::to_string(++i));
        each(r.in, [&](const Values<5> &v) {
            each(other_cells, [&](const Values<2> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                auto set = [&] { controls(v[0], v[2], v[3], v[1], v[4], o[0], o[1]); };
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_GPF, 1, 0), r.gpf1) << "GPF stage 1";
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_GPF_WALK, 2, 3), r.gpf2) << "GPF stage 2";
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_GPC, 1, 0), r.gpc) << "GPC fault";
            });
        });
    }
}

// Table D6-6, External aborts reported as MMU faults (on a translation table walk). Columns:
// MDCR_EL3.TRBEE, SCR_EL3.EA, TRFCR_EL2.EE, MDCR_EL2.E2TB, HCR_EL2.TEA | stage 1, stage 2.
// SCR_EL3.GPF and HCR_EL2.GPF (not columns) take every value.
TEST_F(TrbeRouting, RBNQRP_TableD6_6ExternalAbortsRowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "SCR_EL3.EA", "TRFCR_EL2.EE",
                                          "MDCR_EL2.E2TB", "HCR_EL2.TEA"};
    static const char *const others[] = {"SCR_EL3.GPF", "HCR_EL2.GPF"};
    const Cell other_cells[] = {X, X};
    struct Row {
        Cell in[5];
        unsigned s1, s2;
    } rows[] = {
        // clang-format off
        // TRBEE  SCR.EA  TRFCR_EL2.EE  E2TB   HCR.TEA   Stage 1  Stage 2
        {{0b00,   X,      XX,           XX,    X},       1,       1},
        {{0b01,   X,      B0X,          XX,    X},       1,       1},
        {{0b01,   X,      0b10,         0b00,  X},       2,       2},
        {{0b01,   X,      0b10,         B1X,   0b0},     1,       2},
        {{0b01,   X,      0b10,         B1X,   0b1},     2,       2},
        {{0b01,   X,      0b11,         XX,    X},       2,       2},
        {{0b10,   0b0,    B0X,          XX,    X},       1,       1},
        {{0b10,   0b0,    0b10,         0b00,  X},       2,       2},
        {{0b10,   0b0,    0b10,         B1X,   0b0},     1,       2},
        {{0b10,   0b0,    0b10,         B1X,   0b1},     2,       2},
        {{0b10,   0b0,    0b11,         XX,    X},       2,       2},
        {{0b10,   0b1,    XX,           XX,    X},       3,       3},
        {{0b11,   X,      XX,           XX,    X},       3,       3},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-6 row " + std::to_string(++i));
        each(r.in, [&](const Values<5> &v) {
            each(other_cells, [&](const Values<2> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                auto set = [&] { controls(v[0], v[2], v[3], o[0], o[1], v[1], v[4]); };
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_EXTERNAL_WALK, 1, 1), r.s1) << "stage 1";
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_EXTERNAL_WALK, 2, 2), r.s2) << "stage 2";
            });
        });
    }
}

// Table D6-7, all other management events. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE,
// MDCR_EL2.E2TB | Other abort stage 1, Other abort stage 2, Other event (a buffer full event).
// SCR_EL3.GPF, HCR_EL2.GPF, SCR_EL3.EA and HCR_EL2.TEA (not columns) take every value.
TEST_F(TrbeRouting, RBNQRP_TableD6_7OtherEventsRowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "TRFCR_EL2.EE", "MDCR_EL2.E2TB"};
    static const char *const others[] = {"SCR_EL3.GPF", "HCR_EL2.GPF", "SCR_EL3.EA", "HCR_EL2.TEA"};
    const Cell other_cells[] = {X, X, X, X};
    struct Row {
        Cell in[3];
        unsigned s1, s2, other;
    } rows[] = {
        // clang-format off
        // TRBEE  TRFCR_EL2.EE  E2TB      Stage 1  Stage 2  Other event
        {{0b00,   XX,           XX},      1,       1,       1},
        {{0b01,   B0X,          XX},      1,       1,       1},
        {{0b01,   0b10,         0b00},    2,       2,       1},
        {{0b01,   0b10,         B1X},     1,       2,       1},
        {{0b01,   0b11,         XX},      2,       2,       2},
        {{0b10,   B0X,          XX},      1,       1,       1},
        {{0b10,   0b10,         0b00},    2,       2,       1},
        {{0b10,   0b10,         B1X},     1,       2,       1},
        {{0b10,   0b11,         XX},      2,       2,       2},
        {{0b11,   XX,           XX},      3,       3,       3},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-7 row " + std::to_string(++i));
        each(r.in, [&](const Values<3> &v) {
            each(other_cells, [&](const Values<4> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                auto set = [&] { controls(v[0], v[1], v[2], o[0], o[1], o[2], o[3]); };
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_TRANSLATION, 1, 3), r.s1) << "Other abort stage 1";
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_PERMISSION, 2, 3), r.s2) << "Other abort stage 2";
                set();
                EXPECT_EQ(raise(PMT_TRBE_FAULT_NONE, 0, 0), r.other) << "Other event";
            });
        });
    }
}

// RBNQRP: without FEAT_TRBE_EXC, or with self-hosted trace disabled, every event is recorded in
// TRBSR_EL1.
TEST_F(TrbeRouting, RBNQRP_WithoutFeatTrbeExcEverythingGoesToTrbsrEl1)
{
    cfg.trbe.feat_trbe_exc = false;
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 3));
    EXPECT_EQ(raise(PMT_TRBE_FAULT_TRANSLATION, 2, 3), 1u);
}

// RHLKSG: the event sets IRQ and the syndrome; the other fields of that TRBSR_ELx (WRAP, TRG)
// and the other TRBSR_ELx are unchanged.
TEST_F(TrbeRouting, RHLKSG_AnEventChangesOnlyItsOwnFields)
{
    make_trbe();
    controls(3, 0, 3);
    wr_el3(PMT_REG_TRBSR_EL3, PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, TRG));
    wr_el3(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, TRG));
    faults = {{BASE, LIMIT, {PMT_TRBE_FAULT_TRANSLATION, 1, 2, false, false, false, false}}};
    at_el(3, [&] {
        wr(PMT_REG_TRBBASER_EL1, BASE);
        wr(PMT_REG_TRBPTR_EL1, BASE);
        wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_MASK(TRBLIMITR, E) | PMT_PUT(TRBLIMITR, TM, 3));
    });
    trace(64);
    EXPECT_EQ(sr(3), PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, S) |
                         PMT_MASK(TRBSR, IRQ) | PMT_PUT(TRBSR, EC, 0x24) | 0x06);
    EXPECT_EQ(sr(1), PMT_MASK(TRBSR, TRG));
    EXPECT_EQ(sr(2), 0u);
}

// --- The TRBE Profiling exception and TRBIRQ ------------------------------------------------

class TrbeException : public TrbeRouting
{
  protected:
    // Sets TRBSR_EL<source>.IRQ = 1 (the others 0) and the controls of a table row.
    void row(unsigned source, unsigned trbee, unsigned ee2, unsigned ke2, unsigned ee1,
             unsigned ke1)
    {
        wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, trbee));
        wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, ee2) | PMT_PUT(TRFCR_EL2, KE, ke2));
        wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, ee1) | PMT_PUT(TRFCR_EL1, KE, ke1));
        static const pmt_reg_id ids[4] = {PMT_REG_NONE, PMT_REG_TRBSR_EL1, PMT_REG_TRBSR_EL2,
                                          PMT_REG_TRBSR_EL3};
        for (unsigned el = 1; el <= 3; el++)
            wr_el3(ids[el], el == source ? PMT_MASK(TRBSR, IRQ) : 0);
    }
    // The cell for "taken from" EL `from` with HCR_EL2.TGE and PSTATE.PM: 0 None, 'B', 'C', or
    // the target EL.
    unsigned cell(unsigned source, unsigned from, unsigned tge, unsigned pm)
    {
        state([&](pmt_pe_state &s) {
            s.el = static_cast<uint8_t>(from);
            s.ss = from == 3 ? PMT_SS_ROOT : PMT_SS_NONSECURE;
            s.scr_ns = true;
            s.el2_enabled = true;
            s.hcr_tge = tge;
            s.pm = pm;
        });
        unsigned target = 0;
        switch (pmt_trbe_exception_state(pe, source, &target)) {
        case PMT_TRBE_EXC_NONE: return 0;
        case PMT_TRBE_EXC_MASKED_PM: return 'B';
        case PMT_TRBE_EXC_MASKED: return 'C';
        default: return target;
        }
    }
    // The cells of a row, from each EL that is not n/a; with irq, also TRBIRQ at each of them.
    void check_row(unsigned source, unsigned tge, unsigned pm, const unsigned (&cells)[4],
                   std::optional<bool> irq = std::nullopt)
    {
        for (unsigned from = 0; from <= 3; from++) {
            if (cells[from] == N)
                continue;
            EXPECT_EQ(cell(source, from, tge, pm), cells[from]) << "taken from EL" << from;
            if (irq) {
                EXPECT_EQ(pmt_trbe_irq_level(pe), *irq) << "TRBIRQ at EL" << from;
            }
        }
    }
};

// The right side of Tables D6-8, D6-9, D6-10: None, masked by PSTATE.PM ("B"), masked ("C"); a
// number is the target EL. The IRQ column of Table D6-8: TRBIRQ HIGH or LOW.
constexpr unsigned NONE = 0, MB = 'B', MC = 'C';
constexpr bool HIGH = true, LOW = false;

// Table D6-8: TRBSR_EL1.IRQ = 1. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE, HCR_EL2.TGE,
// TRFCR_EL1.EE, TRFCR_EL1.KE, PSTATE.PM | TRBIRQ, taken from EL0, EL1, EL2, EL3. TRFCR_EL2.KE
// (not a column) takes every value. TRFCR_EL1.EE 0b01 and 0b10 are reserved: the model treats
// them as 0b00 and 0b11 (ee<0> = ee<1>, EffectiveTRFCR_EL1_EE with FEAT_NV), which is what makes
// them fall in the 0b0X and 0b1X rows.
TEST_F(TrbeException, RMFMXQ_TableD6_8RowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "TRFCR_EL2.EE", "HCR_EL2.TGE",
                                          "TRFCR_EL1.EE",   "TRFCR_EL1.KE", "PSTATE.PM"};
    static const char *const others[] = {"TRFCR_EL2.KE"};
    const Cell other_cells[] = {X};
    struct Row {
        Cell in[6];
        bool irq;
        unsigned cells[4];
    } rows[] = {
        // clang-format off
        // TRBEE   TRFCR_EL2.EE  TGE   TRFCR_EL1.EE  KE    PM       IRQ    EL0   EL1   EL2   EL3
        {{0b00,    XX,           0b0,  XX,           X,    X},      HIGH, {NONE, NONE, NONE, NONE}},
        {{0b00,    XX,           0b1,  XX,           X,    X},      HIGH, {NONE, N,    NONE, NONE}},
        {{NOT00,   0b00,         0b0,  XX,           X,    X},      HIGH, {NONE, NONE, NONE, NONE}},
        {{NOT00,   0b00,         0b1,  XX,           X,    X},      HIGH, {NONE, N,    NONE, NONE}},
        {{NOT00,   NOT00,        0b0,  B0X,          X,    X},      HIGH, {NONE, NONE, NONE, NONE}},
        {{NOT00,   NOT00,        0b0,  B1X,          0b0,  X},      LOW,  {1,    MC,   MC,   MC}},
        {{NOT00,   NOT00,        0b0,  B1X,          0b1,  0b0},    LOW,  {1,    1,    MC,   MC}},
        {{NOT00,   NOT00,        0b0,  B1X,          0b1,  0b1},    LOW,  {1,    MB,   MC,   MC}},
        {{NOT00,   NOT00,        0b1,  B0X,          X,    X},      HIGH, {NONE, N,    NONE, NONE}},
        {{NOT00,   NOT00,        0b1,  B1X,          X,    X},      LOW,  {2,    N,    MC,   MC}},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-8 row " + std::to_string(++i));
        each(r.in, [&](const Values<6> &v) {
            each(other_cells, [&](const Values<1> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                row(1, v[0], v[1], o[0], v[3], v[4]);
                check_row(1, v[2], v[5], r.cells, r.irq);
            });
        });
    }
}

// Table D6-9: TRBSR_EL2.IRQ = 1. Columns: MDCR_EL3.TRBEE, TRFCR_EL2.EE, TRFCR_EL2.KE,
// HCR_EL2.TGE, PSTATE.PM | taken from EL0, EL1, EL2, EL3. TRFCR_EL1.EE and TRFCR_EL1.KE (not
// columns) take every value.
TEST_F(TrbeException, RMFMXQ_TableD6_9RowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "TRFCR_EL2.EE", "TRFCR_EL2.KE",
                                          "HCR_EL2.TGE", "PSTATE.PM"};
    static const char *const others[] = {"TRFCR_EL1.EE", "TRFCR_EL1.KE"};
    const Cell other_cells[] = {XX, X};
    struct Row {
        Cell in[5];
        unsigned cells[4];
    } rows[] = {
        // clang-format off
        // TRBEE   TRFCR_EL2.EE  KE    TGE   PM        EL0   EL1   EL2   EL3
        {{0b00,    XX,           X,    0b0,  X},      {NONE, NONE, NONE, NONE}},
        {{0b00,    XX,           X,    0b1,  X},      {NONE, N,    NONE, NONE}},
        {{NOT00,   B0X,          X,    0b0,  X},      {NONE, NONE, NONE, NONE}},
        {{NOT00,   B0X,          X,    0b1,  X},      {NONE, N,    NONE, NONE}},
        {{NOT00,   0b10,         X,    0b0,  X},      {2,    2,    MC,   MC}},
        {{NOT00,   0b10,         X,    0b1,  X},      {2,    N,    MC,   MC}},
        {{NOT00,   0b11,         0b0,  0b0,  X},      {2,    2,    MC,   MC}},
        {{NOT00,   0b11,         0b0,  0b1,  X},      {2,    N,    MC,   MC}},
        {{NOT00,   0b11,         0b1,  0b0,  0b0},    {2,    2,    2,    MC}},
        {{NOT00,   0b11,         0b1,  0b0,  0b1},    {2,    2,    MB,   MC}},
        {{NOT00,   0b11,         0b1,  0b1,  0b0},    {2,    N,    2,    MC}},
        {{NOT00,   0b11,         0b1,  0b1,  0b1},    {2,    N,    MB,   MC}},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-9 row " + std::to_string(++i));
        each(r.in, [&](const Values<5> &v) {
            each(other_cells, [&](const Values<2> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                row(2, v[0], v[1], v[2], o[0], o[1]);
                check_row(2, v[3], v[4], r.cells);
            });
        });
    }
}

// Table D6-10: TRBSR_EL3.IRQ = 1. Columns: MDCR_EL3.TRBEE, HCR_EL2.TGE | taken from EL0..EL3.
// TRFCR_EL2.EE, TRFCR_EL2.KE, TRFCR_EL1.EE, TRFCR_EL1.KE and PSTATE.PM (not columns) take every
// value.
TEST_F(TrbeException, RMFMXQ_TableD6_10RowByRow)
{
    make_trbe();
    static const char *const columns[] = {"MDCR_EL3.TRBEE", "HCR_EL2.TGE"};
    static const char *const others[] = {"TRFCR_EL2.EE", "TRFCR_EL2.KE", "TRFCR_EL1.EE",
                                         "TRFCR_EL1.KE", "PSTATE.PM"};
    const Cell other_cells[] = {XX, X, XX, X, X};
    struct Row {
        Cell in[2];
        unsigned cells[4];
    } rows[] = {
        // clang-format off
        // TRBEE  TGE        EL0   EL1   EL2   EL3
        {{B0X,    0b0},     {NONE, NONE, NONE, NONE}},
        {{B0X,    0b1},     {NONE, N,    NONE, NONE}},
        {{0b10,   0b0},     {3,    3,    3,    MC}},
        {{0b10,   0b1},     {3,    N,    3,    MC}},
        {{0b11,   0b0},     {3,    3,    3,    MC}},
        {{0b11,   0b1},     {3,    N,    3,    MC}},
        // clang-format on
    };
    int i = 0;
    for (const Row &r : rows) {
        SCOPED_TRACE("Table D6-10 row " + std::to_string(++i));
        each(r.in, [&](const Values<2> &v) {
            each(other_cells, [&](const Values<5> &o) {
                SCOPED_TRACE(show(columns, v) + ", " + show(others, o));
                row(3, v[0], o[0], o[1], o[2], o[3]);
                check_row(3, v[1], o[4], r.cells);
            });
        });
    }
}

// IMTLSX, RYXTTY: an enabled and unmasked exception is reported as soon as the event that sets
// the IRQ bit is recorded, to the target EL; it goes away when the IRQ bit is cleared.
TEST_F(TrbeException, IMTLSX_TheExceptionOutputFollowsTheEvent)
{
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 1));
    wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, 1));
    wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, 3));
    exceptions.clear();
    go(0);
    program_fill_at_el3();
    trace(0x4000); // buffer full, recorded in TRBSR_EL1
    ASSERT_EQ(exceptions.size(), 1u);
    EXPECT_EQ(exceptions[0], std::make_pair(true, 1u));
    EXPECT_FALSE(pmt_trbe_irq_level(pe)); // the interrupt request is disabled
    wr_el3(PMT_REG_TRBSR_EL1, 0);
    EXPECT_EQ(exceptions.back(), std::make_pair(false, 0u));
}

// IMTLSX: masked exceptions stay pending and are taken when the PE moves where they are not.
TEST_F(TrbeException, IMTLSX_AMaskedExceptionIsTakenWhenUnmasked)
{
    make_trbe();
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, 1));
    wr_el3(PMT_REG_TRFCR_EL2, PMT_PUT(TRFCR_EL2, EE, 1));
    wr_el3(PMT_REG_TRFCR_EL1, PMT_PUT(TRFCR_EL1, EE, 3)); // KE = 0: masked at EL1
    wr_el3(PMT_REG_TRBSR_EL1, PMT_MASK(TRBSR, IRQ));
    go(1);
    exceptions.clear();
    go(0);
    EXPECT_EQ(exceptions, (std::vector<std::pair<bool, unsigned>>{{true, 1u}}));
}

// IWKGWP, CheckForTRBEException: never with self-hosted trace disabled, nor in Debug state.
TEST_F(TrbeException, IWKGWP_NoExceptionWithSelfHostedTraceDisabledOrInDebugState)
{
    make_trbe();
    row(1, 1, 1, 0, 3, 1);
    EXPECT_EQ(cell(1, 0, 0, 0), 1u);
    state([](pmt_pe_state &s) { s.debug = true; });
    EXPECT_EQ(pmt_trbe_exception_state(pe, 1, nullptr), PMT_TRBE_EXC_NONE);
    state([](pmt_pe_state &s) {
        s.debug = false;
        s.self_hosted_trace_disabled = true;
    });
    EXPECT_EQ(pmt_trbe_exception_state(pe, 1, nullptr), PMT_TRBE_EXC_NONE);
    EXPECT_TRUE(pmt_trbe_irq_level(pe)); // RVSCDV: TRBIRQ is used instead
}

// RVSCDV: TRBIRQ is enabled when MDCR_EL3.TRBEE is 0b00, or TRFCR_EL2.EE is 0b00 in a state
// where EL2 applies (even at EL3), or TRFCR_EL1.EE is 0b00.
TEST_F(TrbeException, RVSCDV_TrbirqEnableConditions)
{
    make_trbe();
    row(1, 0, 3, 0, 3, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    row(1, 1, 0, 0, 3, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    at_el(3, [&] { EXPECT_TRUE(pmt_trbe_irq_level(pe)); }); // SCR_EL3.NS = 1 at EL3
    row(1, 1, 1, 0, 0, 0);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    row(1, 1, 1, 0, 3, 0);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
    // Secure state without Secure EL2: TRFCR_EL2.EE does not apply (Effective value 0b01).
    wr_el3(PMT_REG_TRFCR_EL2, 0);
    go(1, PMT_SS_SECURE, false);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
}

// EffectiveTRFCR_EL1_EE, Unpredictable_RESTRFEE: without FEAT_NV, TRFCR_EL1.EE = 0b01 and 0b10
// behave as trbe.reserved_trfcr_ee says (docs/choices.md); TRBIRQ is enabled exactly when the
// Effective value is 0b00 (RVSCDV). With FEAT_NV they behave as ee<0> = ee<1>, and no other
// option is accepted.
TEST_F(TrbeException, ReservedTrfcrEl1Ee_EachOption)
{
    struct Case {
        pmt_reserved_trfcr_ee option;
        bool irq_for_01, irq_for_10;
    } cases[] = {
        {PMT_RESTRFEE_AS_EE1, true, false},
        {PMT_RESTRFEE_DISABLED, true, true},
        {PMT_RESTRFEE_AS_11, false, false},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(testing::Message() << "option " << c.option);
        cfg.trbe.reserved_trfcr_ee = c.option;
        remake_trbe();
        log_lines.clear();
        row(1, 1, 1, 0, 1, 0);
        EXPECT_EQ(pmt_trbe_irq_level(pe), c.irq_for_01);
        row(1, 1, 1, 0, 2, 0);
        EXPECT_EQ(pmt_trbe_irq_level(pe), c.irq_for_10);
        EXPECT_TRUE(logged("Unpredictable_RESTRFEE"));
    }
    cfg.trbe.reserved_trfcr_ee = PMT_RESTRFEE_AS_EE1;
    cfg.feat_nv = true;
    remake_trbe();
    log_lines.clear();
    row(1, 1, 1, 0, 2, 0);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
    EXPECT_TRUE(logged("with FEAT_NV"));
    EXPECT_FALSE(logged("Unpredictable_RESTRFEE"));
    pmt_pe_config c = cfg;
    c.trbe.reserved_trfcr_ee = PMT_RESTRFEE_DISABLED;
    EXPECT_EQ(pmt_pe_create(&c, nullptr), nullptr);
}

// RTPPCF: TRBIRQ is signalled by the PE that implements the Trace Buffer Unit: each pmt_pe has
// its own.
TEST_F(TrbeException, RTPPCF_EachPeHasItsOwnTrbirq)
{
    cfg.trbe.feat_trbe_exc = false;
    make_trbe();
    pmt_pe_config c2 = cfg;
    pmt_pe *other = pmt_pe_create(&c2, nullptr);
    ASSERT_NE(other, nullptr);
    program_fill();
    trace(0x4000);
    EXPECT_TRUE(pmt_trbe_irq_level(pe));
    EXPECT_FALSE(pmt_trbe_irq_level(other));
    pmt_pe_destroy(other);
}

} // namespace
