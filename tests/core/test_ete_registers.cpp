// The ETE trace unit's System registers (Arm ARM D24.4): existence with the config, the shared
// accessibility pseudocode (EL0, CPACR_EL1.TTA, CPTR_EL2.TTA, CPTR_EL3.TTA), reset values,
// RES0/RES1 masks, read-only registers, TRCIDR<n> against the config, the enable/Idle state
// machine with the PE OS Lock, writes while not Idle, save and restore.
//
// Expected values are worked out by hand from the field tables of D24.4, not read from the
// model's code.
#include "ete_fixture.h"

#include <cstring>

namespace
{

using Ete = EteTest;

// Every TRC* register the default config implements, with an index for families.
const std::vector<std::pair<pmt_reg_id, unsigned>> all_regs = {
    {PMT_REG_TRCPRGCTLR, 0},    {PMT_REG_TRCSTATR, 0},      {PMT_REG_TRCCONFIGR, 0},
    {PMT_REG_TRCAUXCTLR, 0},    {PMT_REG_TRCEVENTCTL0R, 0}, {PMT_REG_TRCEVENTCTL1R, 0},
    {PMT_REG_TRCRSR, 0},        {PMT_REG_TRCTSCTLR, 0},     {PMT_REG_TRCSYNCPR, 0},
    {PMT_REG_TRCCCCTLR, 0},     {PMT_REG_TRCBBCTLR, 0},     {PMT_REG_TRCTRACEIDR, 0},
    {PMT_REG_TRCVICTLR, 0},     {PMT_REG_TRCVIIECTLR, 0},   {PMT_REG_TRCVISSCTLR, 0},
    {PMT_REG_TRCIDR0, 0},       {PMT_REG_TRCIDR1, 0},       {PMT_REG_TRCIDR2, 0},
    {PMT_REG_TRCIDR3, 0},       {PMT_REG_TRCIDR4, 0},       {PMT_REG_TRCIDR5, 0},
    {PMT_REG_TRCIDR6, 0},       {PMT_REG_TRCIDR7, 0},       {PMT_REG_TRCIDR8, 0},
    {PMT_REG_TRCIDR9, 0},       {PMT_REG_TRCIDR10, 0},      {PMT_REG_TRCIDR11, 0},
    {PMT_REG_TRCIDR12, 0},      {PMT_REG_TRCIDR13, 0},      {PMT_REG_TRCCIDCCTLR0, 0},
    {PMT_REG_TRCVMIDCCTLR0, 0}, {PMT_REG_TRCOSLSR, 0},      {PMT_REG_TRCCLAIMSET, 0},
    {PMT_REG_TRCCLAIMCLR, 0},   {PMT_REG_TRCDEVARCH, 0},    {PMT_REG_TRCDEVID, 0},
    {PMT_REG_TRCAUTHSTATUS, 0}, {PMT_REG_TRCRSCTLR, 2},     {PMT_REG_TRCRSCTLR, 15},
    {PMT_REG_TRCACVR, 0},       {PMT_REG_TRCACVR, 7},       {PMT_REG_TRCACATR, 0},
    {PMT_REG_TRCACATR, 7},      {PMT_REG_TRCCIDCVR, 0},     {PMT_REG_TRCVMIDCVR, 0},
    {PMT_REG_TRCEXTINSELR, 0},  {PMT_REG_TRCEXTINSELR, 3},  {PMT_REG_TRCCNTRLDVR, 0},
    {PMT_REG_TRCCNTRLDVR, 1},   {PMT_REG_TRCCNTCTLR, 0},    {PMT_REG_TRCCNTCTLR, 1},
    {PMT_REG_TRCCNTVR, 0},      {PMT_REG_TRCCNTVR, 1},
};

bool is_read_only(pmt_reg_id id)
{
    return id == PMT_REG_TRCSTATR || id == PMT_REG_TRCOSLSR || id == PMT_REG_TRCDEVARCH ||
           id == PMT_REG_TRCDEVID || id == PMT_REG_TRCAUTHSTATUS ||
           (id >= PMT_REG_TRCIDR0 && id <= PMT_REG_TRCIDR13);
}

// --- Encodings (D24.4 encoding tables) ---

TEST(EteEncoding, D24_4_FamilyEncodingsRoundTrip)
{
    struct Case {
        pmt_reg_id id;
        unsigned n;
        pmt_sysreg enc;
    } cases[] = {
        {PMT_REG_TRCRSCTLR, 2, PMT_SYSREG(2, 1, 1, 2, 0)}, // CRm = m[3:0], op2 = 0b00:m[4]
        {PMT_REG_TRCRSCTLR, 31, PMT_SYSREG(2, 1, 1, 15, 1)},
        {PMT_REG_TRCACVR, 9, PMT_SYSREG(2, 1, 2, 2, 1)},       // CRm = m[2:0]:0, op2 = 0b00:m[3]
        {PMT_REG_TRCACATR, 9, PMT_SYSREG(2, 1, 2, 2, 3)},      // op2 = 0b01:m[3]
        {PMT_REG_TRCCIDCVR, 3, PMT_SYSREG(2, 1, 3, 6, 0)},     // CRm = m[2:0]:0, op2 = 0b000
        {PMT_REG_TRCVMIDCVR, 7, PMT_SYSREG(2, 1, 3, 14, 1)},   // op2 = 0b001
        {PMT_REG_TRCEXTINSELR, 3, PMT_SYSREG(2, 1, 0, 11, 4)}, // CRm = 0b10:m[1:0], op2 = 0b100
        {PMT_REG_TRCCNTRLDVR, 0, PMT_SYSREG(2, 1, 0, 0, 5)},   // CRm = 0b00:m[1:0], op2 = 0b101
        {PMT_REG_TRCCNTRLDVR, 3, PMT_SYSREG(2, 1, 0, 3, 5)},
        {PMT_REG_TRCCNTCTLR, 1, PMT_SYSREG(2, 1, 0, 5, 5)}, // CRm = 0b01:m[1:0], op2 = 0b101
        {PMT_REG_TRCCNTCTLR, 3, PMT_SYSREG(2, 1, 0, 7, 5)},
        {PMT_REG_TRCCNTVR, 0, PMT_SYSREG(2, 1, 0, 8, 5)}, // CRm = 0b10:m[1:0], op2 = 0b101
        {PMT_REG_TRCCNTVR, 2, PMT_SYSREG(2, 1, 0, 10, 5)},
    };
    for (const Case &c : cases) {
        pmt_sysreg e = pmt_sysreg_encode({c.id, c.n});
        EXPECT_TRUE(e.op0 == c.enc.op0 && e.op1 == c.enc.op1 && e.crn == c.enc.crn &&
                    e.crm == c.enc.crm && e.op2 == c.enc.op2)
            << pmt_reg_name(c.id) << c.n;
        pmt_reg_ref r = pmt_sysreg_decode(c.enc);
        EXPECT_EQ(r.id, c.id);
        EXPECT_EQ(r.index, c.n);
    }
    // TRCRSCTLR<m> is m = 2..31: the encodings of m = 0 and 1 are not trace unit registers.
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 1, 0, 0)).id, PMT_REG_NONE);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 1, 1, 0)).id, PMT_REG_NONE);
    // Single registers inside the families' encoding space keep their own identity.
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 1, 1, 4)).id, PMT_REG_TRCOSLSR);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 3, 2, 2)).id, PMT_REG_TRCVMIDCCTLR0);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, 10, 0)).id, PMT_REG_TRCRSR);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, 8, 7)).id, PMT_REG_TRCIDR0);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 1, 0, 5, 6)).id, PMT_REG_TRCIDR13);
}

TEST(EteEncoding, RegFormatNamesFields)
{
    char buf[160];
    pmt_reg_format({PMT_REG_TRCSTATR, 0}, 3, buf, sizeof buf);
    EXPECT_STREQ(buf, "TRCSTATR = 0x3 {IDLE=1, PMSTABLE=1}");
    pmt_reg_format({PMT_REG_TRCACVR, 5}, 0x40, buf, sizeof buf);
    EXPECT_STREQ(buf, "TRCACVR5 = 0x40");
}

// --- Existence ---

TEST_F(Ete, NoTraceUnitWithoutFeatEte)
{
    make(); // feat_ete false by default
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRCPRGCTLR, &v), PMT_ACCESS_NOT_MINE);
    EXPECT_EQ(write(PMT_REG_TRCPRGCTLR, 1), PMT_ACCESS_NOT_MINE);
    uint64_t dfr0, dfr1;
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, TraceVer, dfr0), 0u);
}

TEST_F(Ete, IdAa64dfr0TraceVerAndTraceFilt)
{
    make_ete();
    uint64_t dfr0, dfr1;
    ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
    EXPECT_EQ(PMT_GET(DFR0, TraceVer, dfr0), 1u);  // trace unit System registers
    EXPECT_EQ(PMT_GET(DFR0, TraceFilt, dfr0), 1u); // FEAT_TRF
    // FEAT_TRF's registers exist without a Trace Buffer Unit.
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE));
    EXPECT_EQ(rd(PMT_REG_TRFCR_EL1), PMT_MASK(TRFCR_EL1, E1TRE));
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRBLIMITR_EL1, &v), PMT_ACCESS_NOT_MINE);
}

// FEAT_TRF with ETE alone: MDCR_EL2.TTRF and MDCR_EL3.TTRF trap TRFCR_EL1 (D24.4.74).
TEST_F(Ete, D24_4_74_TrfcrTrapsWithoutATraceBufferUnit)
{
    make_ete();
    wr(PMT_REG_MDCR_EL2, rd(PMT_REG_MDCR_EL2) | PMT_MASK(MDCR_EL2, TTRF));
    at(1);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRFCR_EL1, &v), PMT_ACCESS_TRAP_EL2);
    at(2);
    wr(PMT_REG_MDCR_EL2, rd(PMT_REG_MDCR_EL2) & ~PMT_MASK(MDCR_EL2, TTRF));
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, TTRF));
    EXPECT_EQ(read(PMT_REG_TRFCR_EL2, &v), PMT_ACCESS_TRAP_EL3);
    // MDCR_EL2.E2TB stays RES0 without FEAT_TRBE.
    wr(PMT_REG_MDCR_EL2, rd(PMT_REG_MDCR_EL2) | PMT_MASK(MDCR_EL2, E2TB));
    EXPECT_EQ(rd(PMT_REG_MDCR_EL2) & PMT_MASK(MDCR_EL2, E2TB), 0u);
}

// "This register is present only when ..." of each register with a condition.
TEST_F(Ete, D24_4_PresentOnlyWithTheirFeatures)
{
    make_ete();
    uint64_t v;
    // Not implemented: stalling, Q elements.
    EXPECT_EQ(read(PMT_REG_TRCSTALLCTLR, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCQCTLR, &v), PMT_ACCESS_UNDEFINED);
    // Beyond the configured comparators and selectors.
    EXPECT_EQ(read(PMT_REG_TRCACVR, &v, 8), PMT_ACCESS_UNDEFINED); // 4 pairs: 0..7
    EXPECT_EQ(read(PMT_REG_TRCACATR, &v, 8), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCRSCTLR, &v, 16), PMT_ACCESS_UNDEFINED); // 8 pairs: 2..15
    EXPECT_EQ(read(PMT_REG_TRCCIDCVR, &v, 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCVMIDCVR, &v, 1), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCCIDCCTLR1, &v), PMT_ACCESS_UNDEFINED); // NUMCIDC <= 4
    EXPECT_EQ(read(PMT_REG_TRCVMIDCCTLR1, &v), PMT_ACCESS_UNDEFINED);
    for (auto [id, n] : all_regs)
        EXPECT_EQ(read(id, &v, n), PMT_ACCESS_OK) << pmt_reg_name(id) << n;
}

TEST_F(Ete, D24_4_FeatureRegistersFollowTheConfig)
{
    ete_config();
    cfg.ete.timestamps = false; // TRCTSCTLR: TRCIDR0.TSSIZE != 0
    cfg.ete.num_rs_pairs = 0;   // TRCEVENTCTL0R: NUMRSPAIR != 0
    cfg.ete.num_ext_in_sel = 0; // TRCEXTINSELR<n>: n < NUMEXTINSEL
    cfg.ete.num_counters = 0;   // TRCCNT*<n>: n < NUMCNTR
    cfg.ete.num_ac_pairs = 0;   // TRCVIIECTLR, TRCVISSCTLR, TRCBBCTLR: NUMACPAIRS > 0
    cfg.ete.num_cid_comps = 0;  // TRCCIDCCTLR0: NUMCIDC > 0
    cfg.have_el2 = false;       // TRCVMIDCCTLR0: VMIDSIZE > 0 needs EL2
    cfg.ete.num_vmid_comps = 0;
    make();
    uint64_t v;
    for (pmt_reg_id id :
         {PMT_REG_TRCTSCTLR, PMT_REG_TRCEVENTCTL0R, PMT_REG_TRCVIIECTLR, PMT_REG_TRCVISSCTLR,
          PMT_REG_TRCBBCTLR, PMT_REG_TRCCIDCCTLR0, PMT_REG_TRCVMIDCCTLR0})
        EXPECT_EQ(read(id, &v), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id);
    // TRCCCCTLR is there in every configuration: TRCIDR0.TRCCCI reads as 1 in ETE.
    EXPECT_EQ(read(PMT_REG_TRCCCCTLR, &v), PMT_ACCESS_OK);
    EXPECT_EQ(read(PMT_REG_TRCRSCTLR, &v, 2), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCACVR, &v, 0), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(read(PMT_REG_TRCEXTINSELR, &v, 0), PMT_ACCESS_UNDEFINED);
    for (pmt_reg_id id : {PMT_REG_TRCCNTRLDVR, PMT_REG_TRCCNTCTLR, PMT_REG_TRCCNTVR})
        EXPECT_EQ(read(id, &v, 0), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id);
    // TRCVICTLR.SSSTATUS is RES1 with NUMACPAIRS and NUMPC 0; EVENT is RES0 without selectors.
    EXPECT_EQ(rd(PMT_REG_TRCVICTLR), PMT_MASK(TRCVICTLR, SSSTATUS));
    wr(PMT_REG_TRCVICTLR, 0);
    EXPECT_EQ(rd(PMT_REG_TRCVICTLR), PMT_MASK(TRCVICTLR, SSSTATUS));
    // Without EL2, TRCCONFIGR.VMIDOPT is RES0 (TRCIDR2.VMIDOPT = 0b00).
    EXPECT_EQ(rd(PMT_REG_TRCCONFIGR), 1u);
}

// --- Access (the accessibility pseudocode of D24.4.11 to D24.4.73) ---

TEST_F(Ete, D24_4_UndefinedAtEl0)
{
    make_ete();
    at(0);
    uint64_t v;
    for (auto [id, n] : all_regs) {
        EXPECT_EQ(read(id, &v, n), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id) << n;
        EXPECT_EQ(write(id, 0, n), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id) << n;
    }
}

TEST_F(Ete, D24_4_ReadOnlyRegistersHaveNoMsr)
{
    make_ete();
    for (auto [id, n] : all_regs) {
        if (is_read_only(id))
            EXPECT_EQ(write(id, 0, n), PMT_ACCESS_UNDEFINED) << pmt_reg_name(id);
        else
            EXPECT_EQ(write(id, 0, n), PMT_ACCESS_OK) << pmt_reg_name(id);
    }
}

TEST_F(Ete, D24_4_CpacrEl1TtaTrapsEl1ToEl1)
{
    make_ete();
    at(1);
    state([](pmt_pe_state &s) { s.cpacr_tta = true; });
    uint64_t v;
    for (auto [id, n] : all_regs)
        EXPECT_EQ(read(id, &v, n), PMT_ACCESS_TRAP_EL1) << pmt_reg_name(id);
    EXPECT_EQ(write(PMT_REG_TRCPRGCTLR, 1), PMT_ACCESS_TRAP_EL1);
    // CPACR_EL1.TTA does not apply at EL2.
    at(2);
    state([](pmt_pe_state &s) { s.cpacr_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCPRGCTLR, &v), PMT_ACCESS_OK);
}

TEST_F(Ete, D24_4_CptrEl2TtaTrapsEl1AndEl2ToEl2)
{
    make_ete();
    uint64_t v;
    at(1);
    state([](pmt_pe_state &s) { s.cptr_el2_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCCONFIGR, &v), PMT_ACCESS_TRAP_EL2);
    EXPECT_EQ(write(PMT_REG_TRCCONFIGR, 0), PMT_ACCESS_TRAP_EL2);
    at(2);
    state([](pmt_pe_state &s) { s.cptr_el2_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCIDR0, &v), PMT_ACCESS_TRAP_EL2);
    // EL1 where EL2 is not enabled (Secure EL1 without Secure EL2): no EL2 trap.
    at(1, PMT_SS_SECURE, false);
    state([](pmt_pe_state &s) { s.cptr_el2_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCCONFIGR, &v), PMT_ACCESS_OK);
    // CPACR_EL1.TTA comes first at EL1.
    at(1);
    state([](pmt_pe_state &s) { s.cptr_el2_tta = s.cpacr_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCCONFIGR, &v), PMT_ACCESS_TRAP_EL1);
}

TEST_F(Ete, D24_4_CptrEl3TtaTrapsToEl3)
{
    make_ete();
    uint64_t v;
    for (unsigned el : {1u, 2u, 3u}) {
        at(el, el == 3 ? PMT_SS_SECURE : PMT_SS_NONSECURE);
        state([](pmt_pe_state &s) { s.cptr_el3_tta = true; });
        EXPECT_EQ(read(PMT_REG_TRCSTATR, &v), PMT_ACCESS_TRAP_EL3) << "EL" << el;
        EXPECT_EQ(write(PMT_REG_TRCVICTLR, 0), PMT_ACCESS_TRAP_EL3) << "EL" << el;
    }
    // CPTR_EL2.TTA comes before CPTR_EL3.TTA.
    at(2);
    state([](pmt_pe_state &s) { s.cptr_el2_tta = s.cptr_el3_tta = true; });
    EXPECT_EQ(read(PMT_REG_TRCSTATR, &v), PMT_ACCESS_TRAP_EL2);
}

TEST_F(Ete, D24_4_CptrEl3TtaWithoutEl3DoesNotTrap)
{
    ete_config();
    cfg.have_el3 = false;
    make();
    state([](pmt_pe_state &s) { s.cptr_el3_tta = true; });
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRCSTATR, &v), PMT_ACCESS_OK);
}

// --- Reset values ---

TEST_F(Ete, D24_4_ResetValues)
{
    make_ete();
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 0u);    // EN resets to 0 (D24.4.52)
    EXPECT_EQ(rd(PMT_REG_TRCAUXCTLR), 0u);    // resets to 0x00000000 (D24.4.14)
    EXPECT_EQ(rd(PMT_REG_TRCEVENTCTL1R), 0u); // OE resets to 0; the rest UNKNOWN (0)
    // TRCCONFIGR: bit 0 RES1, VMIDOPT RES1 with EL2; UNKNOWN fields 0.
    EXPECT_EQ(rd(PMT_REG_TRCCONFIGR), 0x8001u);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 0x3u); // Idle and stable
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 0u);
    for (pmt_reg_id id : {PMT_REG_TRCVICTLR, PMT_REG_TRCVIIECTLR, PMT_REG_TRCVISSCTLR,
                          PMT_REG_TRCSYNCPR, PMT_REG_TRCTRACEIDR, PMT_REG_TRCRSR})
        EXPECT_EQ(rd(id), 0u) << pmt_reg_name(id); // UNKNOWN, documented as 0
}

TEST_F(Ete, D24_4_64_FixedSyncPeriodIsReadOnly)
{
    ete_config();
    cfg.ete.fixed_sync_period = true;
    cfg.ete.sync_period = 12;
    make();
    EXPECT_EQ(PMT_GET(TRCIDR3, SYNCPR, rd(PMT_REG_TRCIDR3)), 1u);
    EXPECT_EQ(rd(PMT_REG_TRCSYNCPR), 12u);
    wr(PMT_REG_TRCSYNCPR, 8);
    EXPECT_EQ(rd(PMT_REG_TRCSYNCPR), 12u);
}

// --- Masks: every writable bit of each register, from the field tables ---

TEST_F(Ete, D24_4_WriteMasks)
{
    make_ete();
    const uint64_t ones = ~uint64_t{0};
    struct Case {
        pmt_reg_id id;
        unsigned n;
        uint64_t expect;
    } cases[] = {
        {PMT_REG_TRCPRGCTLR, 0, 0x1},
        // RES1 bit 0; BB 3, CCI 4, CID 6, VMID 7, TS 11; VMIDOPT 15 RES1; RS (no RETSTACK),
        // QE (no QSUPP), ITO (no ITE) RES0.
        {PMT_REG_TRCCONFIGR, 0, 0x88D9},
        {PMT_REG_TRCAUXCTLR, 0, 0xFFFFFFFF},
        {PMT_REG_TRCEVENTCTL0R, 0, 0x9F9F9F9F}, // four events: SEL[4:0], TYPE
        {PMT_REG_TRCEVENTCTL1R, 0, 0xF},        // INSTEN[3:0]; ATB, LPOVERRIDE, OE RES0
        {PMT_REG_TRCRSR, 0, 0x1F0F},            // TA, EVENT[3:0], EXTIN[3:0]
        {PMT_REG_TRCEXTINSELR, 2, 0xFFFF},      // evtCount
        {PMT_REG_TRCTSCTLR, 0, 0x9F},
        {PMT_REG_TRCCCCTLR, 0, 0xFFF},
        {PMT_REG_TRCBBCTLR, 0, 0x10F}, // MODE, RANGE[3:0]
        {PMT_REG_TRCTRACEIDR, 0, 0x7F},
        // EVENT, SSSTATUS, TRCRESET, TRCERR, EXLEVEL_S_EL{0,1,3} (no Secure EL2),
        // EXLEVEL_NS_EL{0,1,2}; no RL without FEAT_RME.
        {PMT_REG_TRCVICTLR, 0, 0x7B0E9F},
        {PMT_REG_TRCVIIECTLR, 0, 0x000F000F},
        {PMT_REG_TRCVISSCTLR, 0, 0x00FF00FF},
        {PMT_REG_TRCCIDCCTLR0, 0, 0x0F}, // one comparator, 4 bytes
        {PMT_REG_TRCVMIDCCTLR0, 0, 0x0F},
        {PMT_REG_TRCCIDCVR, 0, 0xFFFFFFFF}, // CIDSIZE 32 bits
        {PMT_REG_TRCVMIDCVR, 0, 0xFFFFFFFF},
        {PMT_REG_TRCACVR, 3, ones},
        // TYPE, CONTEXTTYPE; CONTEXT RES0 with one comparator each; EXLEVEL as TRCVICTLR.
        {PMT_REG_TRCACATR, 3, 0x7B0F},
        // Reserved GROUP 0xF selects nothing: PAIRINV, INV, GROUP kept.
        {PMT_REG_TRCRSCTLR, 2, 0x3F0000},
    };
    for (const Case &c : cases) {
        wr(c.id, ones, c.n);
        EXPECT_EQ(rd(c.id, c.n), c.expect) << pmt_reg_name(c.id) << c.n;
    }
    // TRCRSCTLR<n>: SELECT bits of the group's implemented resources; PAIRINV only in even n.
    wr(PMT_REG_TRCRSCTLR, 0x0034FFFF, 4); // Single Address Comparators 0..7
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 4), 0x003400FFu);
    wr(PMT_REG_TRCRSCTLR, 0x0035FFFF, 5); // Address Range Comparators 0..3, odd n
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 5), 0x0015000Fu);
    wr(PMT_REG_TRCRSCTLR, 0x0006FFFF, 6); // Context comparator 0
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 6), 0x00060001u);
    wr(PMT_REG_TRCRSCTLR, 0x0000FFFF, 7); // External Input Selectors 0..3
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 7), 0xFu);
    wr(PMT_REG_TRCRSCTLR, 0x0001FFFF, 8); // PE Comparator Inputs: none
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 8), 0x10000u);
}

TEST_F(Ete, D24_4_VictlrRealmFiltersWithRme)
{
    ete_config();
    cfg.have_rme = true;
    cfg.have_sel2 = true;
    make();
    wr(PMT_REG_TRCVICTLR, ~uint64_t{0});
    // EXLEVEL_RL_EL{0,1,2} (bits 24..26) and EXLEVEL_S_EL2 (bit 18) exist now.
    EXPECT_EQ(rd(PMT_REG_TRCVICTLR), 0x77F0E9Fu);
    EXPECT_EQ(rd(PMT_REG_TRCIDR6), 0x7u);
    EXPECT_EQ(PMT_GET(TRCIDR3, EXLEVEL_S, rd(PMT_REG_TRCIDR3)), 0xFu);
}

TEST_F(Ete, D24_4_21_ClaimTags)
{
    make_ete();
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMSET), 0xFu); // RAO for the four implemented tags
    wr(PMT_REG_TRCCLAIMSET, 0xFFFF0005);      // bits beyond the tags are ignored
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 0x5u);
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMSET), 0xFu);
    wr(PMT_REG_TRCCLAIMCLR, 0x1);
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 0x4u);
}

// --- Identification ---

TEST_F(Ete, D24_4_TrcidrValuesFromTheDefaultConfig)
{
    cfg.ete.feat_ete = true; // pmt_pe_config_default's trace unit, as it is
    make();
    // TRCIDR0: RES1, TRCBB, TRCCCI (it reads as 1 in ETE), NUMEVENT 0b11, TSSIZE 0b01000,
    // COMMOPT (RAO with TRCCCI and MAXSPEC 0).
    EXPECT_EQ(rd(PMT_REG_TRCIDR0), 0x28000CA1u);
    // TRCIDR1: DESIGNER 0x41, RES1 [15:12], TRCARCHMAJ/MIN 0xF (see TRCDEVARCH).
    EXPECT_EQ(rd(PMT_REG_TRCIDR1), 0x4100FFF0u);
    // TRCIDR2: WFXMODE, VMIDOPT 0b10, VMIDSIZE 32-bit, CIDSIZE 32-bit, IASIZE 64-bit.
    EXPECT_EQ(rd(PMT_REG_TRCIDR2), 0xC0001088u);
    // TRCIDR3: TRCERR, EXLEVEL_NS 0b111, EXLEVEL_S 0b1011, CCITMIN 4 (`ccitmin`).
    EXPECT_EQ(rd(PMT_REG_TRCIDR3), 0x017B0004u);
    // TRCIDR4: NUMVMIDC 1, NUMCIDC 1, NUMRSPAIR 7 (8 pairs), NUMACPAIRS 4.
    EXPECT_EQ(rd(PMT_REG_TRCIDR4), 0x11070004u);
    // TRCIDR5: NUMCNTR 2 [30:28]; TRACEIDSIZE 7 bits; NUMEXTINSEL 4; NUMEXTIN 0x1FF (unified
    // PMU event selection); no sequencer.
    EXPECT_EQ(rd(PMT_REG_TRCIDR5), 0x200709FFu);
    for (pmt_reg_id id :
         {PMT_REG_TRCIDR6, PMT_REG_TRCIDR7, PMT_REG_TRCIDR8, PMT_REG_TRCIDR9, PMT_REG_TRCIDR10,
          PMT_REG_TRCIDR11, PMT_REG_TRCIDR12, PMT_REG_TRCIDR13, PMT_REG_TRCDEVID})
        EXPECT_EQ(rd(id), 0u) << pmt_reg_name(id);
    // TRCDEVARCH: ARCHITECT 0x23B, PRESENT, REVISION 0, ARCHVER 5, ARCHPART 0xA13.
    EXPECT_EQ(rd(PMT_REG_TRCDEVARCH), 0x47705A13u);
    // TRCAUTHSTATUS: NSNID 0b11, SNID 0b11 (Secure state implemented, debug allowed).
    EXPECT_EQ(rd(PMT_REG_TRCAUTHSTATUS), 0xCCu);
}

TEST_F(Ete, D24_4_TrcidrValuesFollowTheOptions)
{
    ete_config();
    cfg.ete.num_ac_pairs = 8;
    cfg.ete.num_cid_comps = 8;
    cfg.ete.num_vmid_comps = 2;
    cfg.ete.num_rs_pairs = 16;
    cfg.ete.wfx_p0 = false;
    cfg.ete.ccitmin = 0x100;
    cfg.ete.cc_size = 8;
    cfg.ete.return_stack = true;
    cfg.ete.branch_broadcast = false;
    cfg.ete.trace_id = false;
    cfg.ete.designer = 0x51;
    cfg.ete.revision = 2;
    make();
    EXPECT_EQ(rd(PMT_REG_TRCIDR0), 0x28000E81u); // RETSTACK, no TRCBB
    EXPECT_EQ(rd(PMT_REG_TRCIDR1), 0x5100FFF2u);
    EXPECT_EQ(rd(PMT_REG_TRCIDR2), 0x50001088u); // CCSIZE 8, no WFXMODE
    EXPECT_EQ(rd(PMT_REG_TRCIDR3), 0x017B0100u);
    EXPECT_EQ(rd(PMT_REG_TRCIDR4), 0x280F0008u); // NUMVMIDC 2, NUMCIDC 8, NUMRSPAIR 15, 8 pairs
    EXPECT_EQ(rd(PMT_REG_TRCIDR5), 0x200009FFu); // NUMCNTR 2, no trace ID
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRCBBCTLR, &v), PMT_ACCESS_UNDEFINED);
    wr(PMT_REG_TRCTRACEIDR, 0x7F); // RES0 without a trace ID
    EXPECT_EQ(rd(PMT_REG_TRCTRACEIDR), 0u);
}

TEST_F(Ete, D24_4_TrcidrWithoutTimestampsOrSelectors)
{
    ete_config();
    cfg.ete.timestamps = false;
    cfg.ete.num_rs_pairs = 0;
    cfg.ete.num_ext_in_sel = 0;
    cfg.ete.num_counters = 0;
    make();
    // NUMEVENT 0 without selectors, TSSIZE 0; TRCCCI and COMMOPT as always.
    EXPECT_EQ(rd(PMT_REG_TRCIDR0), 0x200000A1u);
    EXPECT_EQ(PMT_GET(TRCIDR3, CCITMIN, rd(PMT_REG_TRCIDR3)), 4u);
    EXPECT_EQ(PMT_GET(TRCIDR4, NUMRSPAIR, rd(PMT_REG_TRCIDR4)), 0u);
}

// TRCIDR0.TRCCCI "reads as 1" (D24.4.31): no configuration of an ETE trace unit is without cycle
// counting. With it COMMOPT is RAO (MAXSPEC is 0), TRCIDR3.CCITMIN is the configured minimum
// threshold (0x001..0xFFF) and TRCIDR2.CCSIZE the counter's size; TRCCCCTLR exists
// (D24.4.16: present when TRCIDR0.TRCCCI == '1'). Row by row: a configuration, what it changes.
TEST_F(Ete, D24_4_31_TrccciReadsAsOneInEveryConfiguration)
{
    struct Row {
        const char *config;
        std::function<void(pmt_pe_config &)> set;
        unsigned ccitmin, ccsize;
    } rows[] = {
        {"default", [](pmt_pe_config &) {}, 4, 0},
        {"no timestamps, selectors or comparators",
         [](pmt_pe_config &c) {
             c.ete.timestamps = false;
             c.ete.num_rs_pairs = 0;
             c.ete.num_ext_in_sel = 0;
             c.ete.num_counters = 0;
             c.ete.num_ac_pairs = 0;
         },
         4, 0},
        {"CCITMIN 1, 20-bit counter",
         [](pmt_pe_config &c) {
             c.ete.ccitmin = 1;
             c.ete.cc_size = 8;
         },
         1, 8},
        {"CCITMIN 0xFFF, 16-bit counter",
         [](pmt_pe_config &c) {
             c.ete.ccitmin = 0xFFF;
             c.ete.cc_size = 4;
         },
         0xFFF, 4},
        {"cycle counts not traced below CCITMIN",
         [](pmt_pe_config &c) { c.ete.cc_below_min = PMT_ETE_CC_BELOW_MIN_NO_COUNTS; }, 4, 0},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(row.config);
        cfg = pmt_pe_config_default();
        ete_config();
        row.set(cfg);
        make();
        const uint64_t idr0 = rd(PMT_REG_TRCIDR0);
        EXPECT_EQ(PMT_GET(TRCIDR0, TRCCCI, idr0), 1u);
        EXPECT_EQ(PMT_GET(TRCIDR0, COMMOPT, idr0), 1u);
        EXPECT_EQ(PMT_GET(TRCIDR3, CCITMIN, rd(PMT_REG_TRCIDR3)), row.ccitmin);
        EXPECT_EQ(PMT_GET(TRCIDR2, CCSIZE, rd(PMT_REG_TRCIDR2)), row.ccsize);
        EXPECT_EQ(rd(PMT_REG_TRCIDR8), 0u); // MAXSPEC 0
        // TRCCCCTLR: THRESHOLD [11:0], the rest RES0; TRCCONFIGR.CCI writable.
        wr(PMT_REG_TRCCCCTLR, ~uint64_t{0});
        EXPECT_EQ(rd(PMT_REG_TRCCCCTLR), 0xFFFu);
        wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, CCI));
        EXPECT_EQ(PMT_GET(TRCCONFIGR, CCI, rd(PMT_REG_TRCCONFIGR)), 1u);
        pmt_pe_destroy(pe);
        pe = nullptr;
    }
}

// D24.4.16: "Must be programmed if TRCCONFIGR.CCI == 1": the Linux driver's enable writes it
// whatever its options (etm4_enable_hw). Its accessibility is every trace register's: UNDEFINED
// at EL0, trapped by CPACR_EL1.TTA to EL1, by CPTR_EL2.TTA to EL2, by CPTR_EL3.TTA to EL3.
TEST_F(Ete, D24_4_16_TrcccctlrAccessibility)
{
    make_ete();
    const pmt_sysreg enc = pmt_sysreg_encode({PMT_REG_TRCCCCTLR, 0});
    EXPECT_EQ(enc.op0, 2u); // MRS/MSR TRCCCCTLR: op0 0b10, op1 0b001, CRn 0b0000, CRm 0b1110
    EXPECT_EQ(enc.op1, 1u);
    EXPECT_EQ(enc.crn, 0u);
    EXPECT_EQ(enc.crm, 14u);
    EXPECT_EQ(enc.op2, 0u);
    for_each_trace_access_row([&](pmt_access access, unsigned el) {
        uint64_t v = 0;
        EXPECT_EQ(pmt_pe_sysreg_read(pe, enc, &v), access) << "EL" << el;
        EXPECT_EQ(pmt_pe_sysreg_write(pe, enc, 0x100), access) << "EL" << el;
    });
}

// D24.4.16: a THRESHOLD below TRCIDR3.CCITMIN, and 0 with TRCCONFIGR.CCI, are CONSTRAINED
// UNPREDICTABLE ("cycle counts might or might not be included in the trace and the cycle count
// threshold is not known"; RKJXDK). The model's answer is ete.cc_below_min, row by row: the
// threshold the stream uses (Trace Info states it) or no cycle counts; a line in the log when
// the unit is enabled so.
TEST_F(Ete, D24_4_16_ThresholdBelowCcitminIsAChoice)
{
    struct Row {
        pmt_ete_cc_below_min choice;
        uint64_t threshold;
        bool counts;
        unsigned used;
        size_t logged;
    } rows[] = {
        {PMT_ETE_CC_BELOW_MIN_USE_CCITMIN, 0x100, true, 0x100, 0}, // at or above: as programmed
        {PMT_ETE_CC_BELOW_MIN_USE_CCITMIN, 0x20, true, 0x20, 0},
        {PMT_ETE_CC_BELOW_MIN_USE_CCITMIN, 0x1F, true, 0x20, 1},
        {PMT_ETE_CC_BELOW_MIN_USE_CCITMIN, 0, true, 0x20, 1},
        {PMT_ETE_CC_BELOW_MIN_NO_COUNTS, 0x20, true, 0x20, 0},
        {PMT_ETE_CC_BELOW_MIN_NO_COUNTS, 0x1F, false, 0x20, 1},
        {PMT_ETE_CC_BELOW_MIN_NO_COUNTS, 0, false, 0x20, 1},
    };
    for (const Row &row : rows) {
        SCOPED_TRACE(::testing::Message()
                     << "choice " << row.choice << ", THRESHOLD 0x" << std::hex << row.threshold);
        cfg = pmt_pe_config_default();
        ete_config();
        cfg.ete.ccitmin = 0x20;
        cfg.ete.cc_below_min = row.choice;
        make();
        wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, CCI));
        log_lines.clear();
        wr(PMT_REG_TRCCCCTLR, row.threshold);
        EXPECT_EQ(rd(PMT_REG_TRCCCCTLR), row.threshold); // the value written reads back
        enable();
        EXPECT_EQ(log_lines.size(), row.logged);
        ete_options o;
        ete_get_options(pe, &o);
        EXPECT_EQ(o.cycle_counting, row.counts);
        EXPECT_EQ(o.cc_threshold, row.used);
        pmt_pe_destroy(pe);
        pe = nullptr;
    }
}

TEST_F(Ete, D24_4_13_AuthstatusFollowsTheAuthenticationInterface)
{
    ete_config();
    cfg.have_rme = true;
    make();
    state([](pmt_pe_state &s) {
        s.ext_invasive_prohibited = (1u << PMT_SS_SECURE) | (1u << PMT_SS_ROOT);
    });
    // SNID 0b10, RLID/RLNID 0b11, RTID/RTNID 0b10, NSNID 0b11.
    EXPECT_EQ(rd(PMT_REG_TRCAUTHSTATUS), 0x0A00F08Cu);
}

TEST_F(Ete, BadConfigsAreRefused)
{
    auto refused = [&](const std::function<void(pmt_ete_config &)> &f) {
        pmt_pe_config c = pmt_pe_config_default();
        c.ete.feat_ete = true;
        f(c.ete);
        pmt_pe_callbacks cb = callbacks();
        pmt_pe *p = pmt_pe_create(&c, &cb);
        pmt_pe_destroy(p);
        return p == nullptr;
    };
    EXPECT_FALSE(refused([](pmt_ete_config &) {}));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_ac_pairs = 9; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_rs_pairs = 1; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_rs_pairs = 17; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_cid_comps = 9; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.ccitmin = 0; })); // 0x001..0xFFF
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.cc_size = 9; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) {
        e.fixed_sync_period = true;
        e.sync_period = 7;
    }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_claim_tags = 33; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_ext_in_sel = 5; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) {
        e.num_rs_pairs = 0; // with 4 External Input Selectors
        e.num_counters = 0;
    }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.num_counters = 5; })); // NUMCNTR 0..4
    EXPECT_TRUE(refused([](pmt_ete_config &e) {
        e.num_rs_pairs = 0; // NUMCNTR is 0 when NUMRSPAIR is 0 (D24.4.40)
        e.num_ext_in_sel = 0;
    }));
    EXPECT_FALSE(refused([](pmt_ete_config &e) {
        e.num_rs_pairs = 0;
        e.num_ext_in_sel = 0;
        e.num_counters = 0;
    }));
    EXPECT_FALSE(refused([](pmt_ete_config &e) { e.num_counters = 4; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.busy_write = (pmt_ete_busy_write)2; }));
    EXPECT_TRUE(refused([](pmt_ete_config &e) { e.cc_below_min = (pmt_ete_cc_below_min)2; }));
}

// --- The enable/Idle state machine (TRCPRGCTLR, TRCSTATR, TRCOSLSR) ---

TEST_F(Ete, D24_4_63_IdleClearsOnEnableAndSetsOnDisable)
{
    make_ete();
    EXPECT_TRUE(idle());
    enable();
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 0u); // IDLE 0; PMSTABLE UNKNOWN while enabled (0)
    disable();
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 3u); // the trace went out with the write: Idle at once
}

TEST_F(Ete, D24_4_51_OsLockDisablesTheTraceUnit)
{
    make_ete();
    enable();
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x10u); // OSLM = 0b100 (PE OS Lock), OSLK 0
    os_lock(true);
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x12u); // OSLK follows OSLSR_EL1.OSLK
    EXPECT_TRUE(idle());                    // disabled although TRCPRGCTLR.EN is 1
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 1u);
    EXPECT_FALSE(ete_active(pe));
    os_lock(false);
    EXPECT_FALSE(idle());
}

// With the OS Lock registers in the model (os_lock_registers, as the platform's CPUs use it):
// the PE OS Lock is locked out of reset (OSLSR_EL1.OSLK), so a unit enabled then is disabled,
// Idle, until OSLAR_EL1 unlocks it (etm4x's probe and enable: etm4_os_unlock); locking it again
// (etm4x's save path: etm4_os_lock) disables the unit, Idle and stable at the first poll.
TEST_F(Ete, D24_4_51_ThePeOsLockOfOslarEl1ControlsTheUnit)
{
    cfg.os_lock_registers = true;
    make_ete();
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x12u); // OSLM 0b100, OSLK 1
    enable();
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 3u); // IDLE, PMSTABLE
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 1u);
    wr(PMT_REG_OSLAR_EL1, 0);
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x10u);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 0u); // enabled: not Idle
    wr(PMT_REG_OSLAR_EL1, 1);
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x12u);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 3u);
    EXPECT_FALSE(ete_active(pe));
}

TEST_F(Ete, D24_4_WritesWhileNotIdleAreLoggedAndApply)
{
    make_ete();
    enable();
    log_lines.clear();
    wr(PMT_REG_TRCCONFIGR, 0x41); // CID
    EXPECT_EQ(rd(PMT_REG_TRCCONFIGR), 0x8041u);
    ASSERT_EQ(log_lines.size(), 1u);
    EXPECT_NE(log_lines[0].find("TRCCONFIGR"), std::string::npos);
    EXPECT_NE(log_lines[0].find("not Idle"), std::string::npos);
    EXPECT_NE(log_lines[0].find("CONSTRAINED UNPREDICTABLE"), std::string::npos);
    // TRCVICTLR, TRCPRGCTLR, TRCAUXCTLR and the claim tags have no such rule.
    log_lines.clear();
    wr(PMT_REG_TRCVICTLR, VICTLR_ON);
    wr(PMT_REG_TRCCLAIMSET, 2);
    EXPECT_TRUE(log_lines.empty());
}

TEST_F(Ete, D24_4_WritesWhileNotIdleIgnoredByChoice)
{
    ete_config();
    cfg.ete.busy_write = PMT_ETE_BUSY_WRITE_IGNORED;
    make();
    enable();
    wr(PMT_REG_TRCACVR, 0x1234, 0);
    EXPECT_EQ(rd(PMT_REG_TRCACVR, 0), 0u);
    EXPECT_FALSE(log_lines.empty());
    disable();
    wr(PMT_REG_TRCACVR, 0x1234, 0);
    EXPECT_EQ(rd(PMT_REG_TRCACVR, 0), 0x1234u);
}

TEST_F(Ete, ReservedValuesAreLogged)
{
    make_ete();
    log_lines.clear();
    wr(PMT_REG_TRCSYNCPR, 3);          // reserved PERIOD
    wr(PMT_REG_TRCACATR, 1, 0);        // TYPE data address
    wr(PMT_REG_TRCRSCTLR, 0x80000, 2); // GROUP 8
    wr(PMT_REG_TRCBBCTLR, 0x100);      // Include mode with no range
    EXPECT_EQ(log_lines.size(), 4u);
    // A THRESHOLD below CCITMIN (Linux writes 0 without cycle counting): logged when the unit is
    // enabled with TRCCONFIGR.CCI (D24_4_16_ThresholdBelowCcitminIsAChoice), not before.
    wr(PMT_REG_TRCCCCTLR, 1);
    EXPECT_EQ(log_lines.size(), 4u);
}

// --- Save and restore ---

TEST_F(Ete, SaveRestoreKeepsTheTraceUnit)
{
    make_ete();
    wr(PMT_REG_TRCCONFIGR, 0x841);
    wr(PMT_REG_TRCVICTLR, VICTLR_ON | (uint64_t{1} << 20));
    wr(PMT_REG_TRCACVR, 0xFFFF800000001000, 5);
    wr(PMT_REG_TRCRSCTLR, 0x60001, 3);
    wr(PMT_REG_TRCCLAIMSET, 2);
    enable();
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    at(2);
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 0u);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_TRCCONFIGR), 0x8841u);
    EXPECT_EQ(rd(PMT_REG_TRCVICTLR), VICTLR_ON | (uint64_t{1} << 20));
    EXPECT_EQ(rd(PMT_REG_TRCACVR, 5), 0xFFFF800000001000u);
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 3), 0x60001u);
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 2u);
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 1u);
    EXPECT_FALSE(idle());
}

} // namespace
