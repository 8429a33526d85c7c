// test_snapshot.cpp - PMU snapshots (FEAT_PMUv3_SS, D13.9): Capture events disabled, prohibited
// and allowed (RYWLFL, RTSYTY, RMFJWS, Table D13-10 row by row, also without EL2 and with EL2
// disabled in the current Security state), the external snapshot request and the Core power
// domain (RSCLCQ), the OS Lock and Debug state (RTSYTY), what a Capture event writes (RVLKCZ,
// PMUCaptureEvent), PMU_SNAPSHOT, the BRBE freeze on a Capture event, reset values of PMSSCR_EL1,
// and the accessibility pseudocode of PMSSCR_EL1, PMCCNTSVR_EL1, PMEVCNTSVR<n>_EL1,
// PMICNTSVR_EL1 (D24.5.3, D24.5.11, D24.5.16, D24.5.23) and PMECR_EL1.SSE (D24.5.9), IKGJMV.
// Expected values come from the Arm ARM (DDI0487 M.a); the pseudocode wins over prose.
#include "pe_fixture.h"

#include <array>
#include <ostream>
#include <vector>

namespace
{

constexpr uint64_t kSS = PMT_MASK(PMSSCR, SS);
constexpr uint64_t kNC = PMT_MASK(PMSSCR, NC);
constexpr uint64_t kEnPMSS = PMT_MASK(MDCR_EL3, EnPMSS);
constexpr uint64_t kEnPM2 = PMT_MASK(MDCR_EL3, EnPM2);
constexpr uint64_t kE = PMT_MASK(PMCR, E);
constexpr uint16_t kPmuSnapshot = PMT_EV_PMU_SNAPSHOT;

// Table D13-10 encodings of MDCR_EL3.PMSSE, MDCR_EL2.PMSSE and PMECR_EL1.SSE.
constexpr unsigned kOff = 0b00;    // Capture events disabled
constexpr unsigned kLower = 0b01;  // controlled by the next lower control
constexpr unsigned kProhib = 0b10; // enabled and prohibited
constexpr unsigned kAllow = 0b11;  // enabled and allowed

enum class Capture { Disabled, Prohibited, Allowed };

const char *name(Capture c)
{
    return c == Capture::Disabled     ? "Disabled"
           : c == Capture::Prohibited ? "Prohibited"
                                      : "Allowed";
}

// The saved-value registers: PMEVCNTSVR<n>_EL1 (n < N), PMCCNTSVR_EL1, PMICNTSVR_EL1.
struct Saved {
    std::array<uint64_t, 31> ev{};
    uint64_t cc = 0, ic = 0;
    bool operator==(const Saved &o) const { return ev == o.ev && cc == o.cc && ic == o.ic; }
};

std::ostream &operator<<(std::ostream &os, const Saved &s)
{
    os << std::hex << "{ev:";
    for (uint64_t v : s.ev)
        os << " 0x" << v;
    return os << ", cc: 0x" << s.cc << ", ic: 0x" << s.ic << "}" << std::dec;
}

// A PE state the Capture event is requested from.
struct Where {
    const char *name;
    unsigned el;
    pmt_security ss;
    bool el2_enabled;
};

class Snapshot : public PeTest
{
  protected:
    Snapshot() { cfg.feat_ss = true; }

    // MDCR_EL3 = EnPM2 | EnPMSS | PMSSE, written from EL3.
    void mdcr3(unsigned pmsse, bool enpmss = true)
    {
        wr_high(PMT_REG_MDCR_EL3,
                kEnPM2 | (enpmss ? kEnPMSS : 0) | PMT_PUT(MDCR_EL3, PMSSE, pmsse));
    }
    // MDCR_EL2 = HPMN | PMSSE, written from EL3.
    void mdcr2(unsigned pmsse, unsigned hpmn)
    {
        wr_high(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, hpmn) | PMT_PUT(MDCR_EL2, PMSSE, pmsse));
    }
    void mdcr2(unsigned pmsse) { mdcr2(pmsse, cfg.num_counters); }
    void pmecr_sse(unsigned sse) { wr_high(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, SSE, sse)); }

    // The three controls of Table D13-10 (MDCR_EL2 only when EL2 is implemented), EnPMSS = 1.
    void controls(unsigned el3, unsigned el2, unsigned sse)
    {
        if (cfg.have_el2)
            mdcr2(el2);
        pmecr_sse(sse);
        mdcr3(el3);
    }

    // An MRS from EL3, then back to the state the test had.
    uint64_t rd_high(pmt_reg_id id, unsigned n = 0)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        at(3, PMT_SS_ROOT);
        uint64_t v = rd(id, n);
        EXPECT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
        return v;
    }

    // Gives every implemented counter a distinct 64-bit value derived from base; returns them.
    Saved set_counters(uint64_t base)
    {
        Saved v;
        for (unsigned n = 0; n < cfg.num_counters; n++) {
            v.ev[n] = base + n * 0x10001;
            wr_high(PMT_REG_PMEVCNTR_EL0, v.ev[n], n);
        }
        v.cc = base + 0xCC00;
        wr_high(PMT_REG_PMCCNTR_EL0, v.cc);
        if (cfg.feat_icntr) {
            v.ic = base + 0x1C00;
            wr_high(PMT_REG_PMICNTR_EL0, v.ic);
        }
        return v;
    }

    // The counters as read by MRS from EL3.
    Saved counters()
    {
        Saved v;
        for (unsigned n = 0; n < cfg.num_counters; n++)
            v.ev[n] = rd_high(PMT_REG_PMEVCNTR_EL0, n);
        v.cc = rd_high(PMT_REG_PMCCNTR_EL0);
        if (cfg.feat_icntr)
            v.ic = rd_high(PMT_REG_PMICNTR_EL0);
        return v;
    }

    // The saved-value registers as read by MRS from EL3.
    Saved saved()
    {
        Saved v;
        for (unsigned n = 0; n < cfg.num_counters; n++)
            v.ev[n] = rd_high(PMT_REG_PMEVCNTSVR_EL1, n);
        v.cc = rd_high(PMT_REG_PMCCNTSVR_EL1);
        if (cfg.feat_icntr)
            v.ic = rd_high(PMT_REG_PMICNTSVR_EL1);
        return v;
    }

    // The same through pmt_pmu_snapshot_get (no access checks, no change of PE state), for the
    // tests whose PE state (OS Lock, Debug state, powered down) must not be left.
    pmt_pmu_snapshot tool()
    {
        pmt_pmu_snapshot s{};
        EXPECT_EQ(pmt_pmu_snapshot_get(pe, &s), PMT_OK);
        return s;
    }
    Saved saved_tool()
    {
        pmt_pmu_snapshot s = tool();
        Saved v;
        for (unsigned n = 0; n < cfg.num_counters; n++)
            v.ev[n] = s.pmevcntsvr[n];
        v.cc = s.pmccntsvr;
        if (cfg.feat_icntr)
            v.ic = s.pmicntsvr;
        return v;
    }

    // MSR PMSSCR_EL1 with SS = 1 at the current state: a software Capture event request.
    void request()
    {
        pmt_access a = write(PMT_REG_PMSSCR_EL1, kSS);
        EXPECT_EQ(a, PMT_ACCESS_OK) << "MSR PMSSCR_EL1: " << pmt_access_name(a);
    }

    // A successful Capture event from EL3 with MDCR_EL3.PMSSE = 0b11 (Table D13-10 last row),
    // so that PMSSCR_EL1.{NC, SS} = {0, 0} and the saved-value registers hold the counters
    // set from base, which it returns. Leaves MDCR_EL3.PMSSE = 0b11.
    Saved prime(uint64_t base)
    {
        Saved a = set_counters(base);
        mdcr3(kAllow);
        wr_high(PMT_REG_PMSSCR_EL1, kSS);
        EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u)
            << "priming Capture event with MDCR_EL3.PMSSE = 0b11 (Allowed) did not succeed";
        EXPECT_EQ(saved(), a) << "priming Capture event did not copy the counters";
        return a;
    }

    void set_os_lock(bool locked)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.os_lock = locked;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
    void set_powered_down(bool down)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.powered_down = down;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    static constexpr uint64_t kA = 0x1111000000000000; // counters at the priming capture
    static constexpr uint64_t kB = 0x2222000000000000; // counters at the capture under test
};

// ---- Table D13-10 (RYWLFL, RTSYTY, RMFJWS) --------------------------------------------------

class SnapshotTable : public Snapshot
{
  protected:
    // The states a Capture event is requested from: the table does not depend on the Exception
    // level, and MDCR_EL2.PMSSE applies even when EL2 is disabled in the current Security state
    // (Secure EL1 without FEAT_SEL2, and EL3).
    std::vector<Where> states() const
    {
        std::vector<Where> w;
        w.push_back({"Non-secure EL1", 1, PMT_SS_NONSECURE, true});
        if (cfg.have_el2)
            w.push_back({"Non-secure EL2", 2, PMT_SS_NONSECURE, true});
        w.push_back({"Secure EL1, EL2 disabled", 1, PMT_SS_SECURE, false});
        w.push_back({"EL3", 3, PMT_SS_ROOT, false});
        return w;
    }

    // One cell: with the controls {el3, el2, sse}, a write of 1 to PMSSCR_EL1.SS from each
    // state. Before it, a successful capture left {NC, SS} = {0, 0} and the saved-value
    // registers = A, and the counters were then changed to B. Then:
    //   Disabled:   SS ignores the write (RMFJWS): PMSSCR_EL1 = 0, saved = A.
    //   Prohibited: {NC, SS} = {1, 0}, saved = A.
    //   Allowed:    {NC, SS} = {0, 0}, saved = B.
    void check(unsigned el3, unsigned el2, unsigned sse, Capture expected)
    {
        for (const Where &w : states()) {
            SCOPED_TRACE(testing::Message() << "MDCR_EL3.PMSSE=" << el3 << " MDCR_EL2.PMSSE=" << el2
                                            << " PMECR_EL1.SSE=" << sse << " from " << w.name
                                            << ": expected " << name(expected));
            remake();
            Saved a = prime(kA);
            Saved b = set_counters(kB);
            controls(el3, el2, sse);
            at(w.el, w.ss, w.el2_enabled);
            request();
            uint64_t pmsscr = rd_high(PMT_REG_PMSSCR_EL1);
            Saved now = saved();
            switch (expected) {
            case Capture::Disabled:
                EXPECT_EQ(pmsscr, 0u) << "RMFJWS: PMSSCR_EL1.SS ignores writes";
                EXPECT_EQ(now, a);
                break;
            case Capture::Prohibited:
                EXPECT_EQ(pmsscr, kNC) << "{NC, SS} = {1, 0}";
                EXPECT_EQ(now, a);
                break;
            case Capture::Allowed:
                EXPECT_EQ(pmsscr, 0u) << "{NC, SS} = {0, 0}";
                EXPECT_EQ(now, b);
                break;
            }
        }
    }
};

TEST_F(SnapshotTable, TableD13_10_Row1_Mdcr3Pmsse00_Disabled)
{
    // RYWLFL: EL3 implemented and MDCR_EL3.PMSSE = 0b00. MDCR_EL2.PMSSE, PMECR_EL1.SSE: xx.
    for (unsigned el2 = 0; el2 < 4; el2++)
        for (unsigned sse = 0; sse < 4; sse++)
            check(kOff, el2, sse, Capture::Disabled);
}

TEST_F(SnapshotTable, TableD13_10_Row2_Mdcr2Pmsse00_Disabled)
{
    // RYWLFL: MDCR_EL3.PMSSE = 0b01, EL2 implemented, MDCR_EL2.PMSSE = 0b00 (even when EL2 is
    // disabled in the current Security state). PMECR_EL1.SSE: xx.
    for (unsigned sse = 0; sse < 4; sse++)
        check(kLower, kOff, sse, Capture::Disabled);
}

TEST_F(SnapshotTable, TableD13_10_Row3_PmecrSse00_Disabled)
{
    // RYWLFL: MDCR_EL3.PMSSE = 0b01, MDCR_EL2.PMSSE = 0b01, PMECR_EL1.SSE = 0b00.
    check(kLower, kLower, kOff, Capture::Disabled);
}

TEST_F(SnapshotTable, TableD13_10_Row4_PmecrSse10_Prohibited)
{
    // RYWLFL/RTSYTY: {0b01, 0b01, 0b10}: enabled, not allowed.
    check(kLower, kLower, kProhib, Capture::Prohibited);
}

// Unpredictable_RESPMSSE: PMECR_EL1.SSE = 0b01 behaves as the reserved_pmecr_sse option says:
// Constraint_DISABLED (0b00), or the non-reserved 0b10 or 0b11 (docs/choices.md); the write is
// logged naming the option.
TEST_F(SnapshotTable, ReservedPmecrSse01_EachOption)
{
    check(kLower, kLower, 1, Capture::Disabled); // the default
    cfg.reserved_pmecr_sse = PMT_RESPMSSE_AS_10;
    check(kLower, kLower, 1, Capture::Prohibited);
    cfg.reserved_pmecr_sse = PMT_RESPMSSE_AS_11;
    check(kLower, kLower, 1, Capture::Allowed);
    bool named = false;
    for (const std::string &l : log_lines)
        named = named || (l.find("Unpredictable_RESPMSSE") != std::string::npos &&
                          l.find("reserved_pmecr_sse") != std::string::npos);
    EXPECT_TRUE(named);
}

TEST_F(SnapshotTable, TableD13_10_Row5_PmecrSse11_Allowed)
{
    // RTSYTY: {0b01, 0b01, 0b11}.
    check(kLower, kLower, kAllow, Capture::Allowed);
}

TEST_F(SnapshotTable, TableD13_10_Row6_Mdcr2Pmsse10_Prohibited)
{
    // RYWLFL/RTSYTY: MDCR_EL3.PMSSE = 0b01, MDCR_EL2.PMSSE = 0b10. PMECR_EL1.SSE: xx.
    for (unsigned sse = 0; sse < 4; sse++)
        check(kLower, kProhib, sse, Capture::Prohibited);
}

TEST_F(SnapshotTable, TableD13_10_Row7_Mdcr2Pmsse11_Allowed)
{
    // RTSYTY: MDCR_EL3.PMSSE = 0b01, MDCR_EL2.PMSSE = 0b11 (even when EL2 is disabled in the
    // current Security state). PMECR_EL1.SSE: xx.
    for (unsigned sse = 0; sse < 4; sse++)
        check(kLower, kAllow, sse, Capture::Allowed);
}

TEST_F(SnapshotTable, TableD13_10_Row8_Mdcr3Pmsse10_Prohibited)
{
    // RYWLFL/RTSYTY: MDCR_EL3.PMSSE = 0b10. MDCR_EL2.PMSSE, PMECR_EL1.SSE: xx.
    for (unsigned el2 = 0; el2 < 4; el2++)
        for (unsigned sse = 0; sse < 4; sse++)
            check(kProhib, el2, sse, Capture::Prohibited);
}

TEST_F(SnapshotTable, TableD13_10_Row9_Mdcr3Pmsse11_Allowed)
{
    // RTSYTY: MDCR_EL3.PMSSE = 0b11. MDCR_EL2.PMSSE, PMECR_EL1.SSE: xx.
    for (unsigned el2 = 0; el2 < 4; el2++)
        for (unsigned sse = 0; sse < 4; sse++)
            check(kAllow, el2, sse, Capture::Allowed);
}

// Without EL2 the Effective value of MDCR_EL2.PMSSE is 0b01 (D24.3 MDCR_EL2.PMSSE): the rows
// with MDCR_EL2.PMSSE = 0b01 apply, the others cannot occur.

TEST_F(SnapshotTable, TableD13_10_NoEl2_Mdcr3Pmsse00_Disabled)
{
    // RYWLFL, EL2 not implemented: MDCR_EL3.PMSSE = 0b00, PMECR_EL1.SSE: xx.
    cfg.have_el2 = false;
    for (unsigned sse = 0; sse < 4; sse++)
        check(kOff, kLower, sse, Capture::Disabled);
}

TEST_F(SnapshotTable, TableD13_10_NoEl2_PmecrSse00_Disabled)
{
    // RYWLFL, EL2 not implemented: {0b01, (0b01), 0b00}.
    cfg.have_el2 = false;
    check(kLower, kLower, kOff, Capture::Disabled);
}

TEST_F(SnapshotTable, TableD13_10_NoEl2_PmecrSse10_Prohibited)
{
    // RYWLFL/RTSYTY, EL2 not implemented: {0b01, (0b01), 0b10}.
    cfg.have_el2 = false;
    check(kLower, kLower, kProhib, Capture::Prohibited);
}

TEST_F(SnapshotTable, TableD13_10_NoEl2_PmecrSse11_Allowed)
{
    // RTSYTY, EL2 not implemented: {0b01, (0b01), 0b11}.
    cfg.have_el2 = false;
    check(kLower, kLower, kAllow, Capture::Allowed);
}

TEST_F(SnapshotTable, TableD13_10_NoEl2_Mdcr3Pmsse10_Prohibited)
{
    // RYWLFL/RTSYTY, EL2 not implemented: MDCR_EL3.PMSSE = 0b10, PMECR_EL1.SSE: xx.
    cfg.have_el2 = false;
    for (unsigned sse = 0; sse < 4; sse++)
        check(kProhib, kLower, sse, Capture::Prohibited);
}

TEST_F(SnapshotTable, TableD13_10_NoEl2_Mdcr3Pmsse11_Allowed)
{
    // RTSYTY, EL2 not implemented: MDCR_EL3.PMSSE = 0b11, PMECR_EL1.SSE: xx.
    cfg.have_el2 = false;
    for (unsigned sse = 0; sse < 4; sse++)
        check(kAllow, kLower, sse, Capture::Allowed);
}

// ---- RSCLCQ: the external snapshot request --------------------------------------------------

class SnapshotRequest : public Snapshot
{
  protected:
    void SetUp() override
    {
        make();
        at(1);
    }
};

TEST_F(SnapshotRequest, RSCLCQ_ExternalRequestWhenAllowedCaptures)
{
    // RSCLCQ: the external request behaves as a write of 1 to PMSSCR_EL1.SS; allowed
    // (MDCR_EL3.PMSSE = 0b11): the counters are captured and {NC, SS} = {0, 0}.
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    EXPECT_EQ(pmt_pmu_snapshot_request(pe), PMT_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), b);
}

TEST_F(SnapshotRequest, RSCLCQ_ExternalRequestWhenAllowedViaPmecrCaptures)
{
    // RSCLCQ with RTSYTY through PMECR_EL1.SSE = 0b11 ({0b01, 0b01, 0b11}).
    Saved b = set_counters(kB);
    controls(kLower, kLower, kAllow);
    EXPECT_EQ(pmt_pmu_snapshot_request(pe), PMT_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), b);
}

TEST_F(SnapshotRequest, RSCLCQ_ExternalRequestWhenProhibitedSetsNc)
{
    // RSCLCQ: prohibited (MDCR_EL3.PMSSE = 0b10): {NC, SS} = {1, 0}, saved-value registers
    // unchanged.
    Saved a = prime(kA);
    set_counters(kB);
    mdcr3(kProhib);
    EXPECT_EQ(pmt_pmu_snapshot_request(pe), PMT_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(saved(), a);
}

TEST_F(SnapshotRequest, RSCLCQ_ExternalRequestWhenDisabledDoesNothing)
{
    // RSCLCQ: no Capture event unless Capture events are enabled (MDCR_EL3.PMSSE = 0b00):
    // PMSSCR_EL1 keeps {0, 0} from the previous capture, saved-value registers unchanged.
    Saved a = prime(kA);
    set_counters(kB);
    mdcr3(kOff);
    pmt_pmu_snapshot_request(pe);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), a);
}

TEST_F(SnapshotRequest, RSCLCQ_NoCaptureEventWhileCorePoweredDown)
{
    // RSCLCQ: a Capture event needs the Core power domain powered on. Allowed and prohibited
    // controls: PMSSCR_EL1 keeps {0, 0} and the saved-value registers keep A (read with
    // pmt_pmu_snapshot_get, as the PE cannot execute MRS while powered down).
    for (unsigned el3 : {kAllow, kProhib}) {
        SCOPED_TRACE(testing::Message() << "MDCR_EL3.PMSSE=" << el3);
        remake();
        at(1);
        Saved a = prime(kA);
        set_counters(kB);
        mdcr3(el3);
        set_powered_down(true);
        pmt_pmu_snapshot_request(pe);
        EXPECT_EQ(tool().pmsscr, 0u);
        EXPECT_EQ(saved_tool(), a);
    }
}

TEST_F(SnapshotRequest, RSCLCQ_RequestWithoutFeatPmuv3SsIsNotImplemented)
{
    // RSCLCQ: "FEAT_PMUv3_SS is implemented" is the first condition; the API reports it.
    cfg.feat_ss = false;
    remake();
    EXPECT_EQ(pmt_pmu_snapshot_request(pe), PMT_ERR_NOT_IMPLEMENTED);
}

// ---- RTSYTY: the OS Lock and Debug state ----------------------------------------------------

class SnapshotAllowed : public Snapshot
{
  protected:
    // The three control settings Table D13-10 calls Allowed.
    struct Controls {
        unsigned el3, el2, sse;
    };
    static std::vector<Controls> allowed_controls()
    {
        return {{kAllow, kOff, kOff}, {kLower, kAllow, kOff}, {kLower, kLower, kAllow}};
    }
};

TEST_F(SnapshotAllowed, RTSYTY_OsLockLockedMakesCaptureProhibited)
{
    // RTSYTY (PMUCaptureEventAllowed: OSLockStatus() returns FALSE): with each allowed control
    // setting, a write of 1 to PMSSCR_EL1.SS while the OS Lock is locked completes
    // unsuccessfully: {NC, SS} = {1, 0}, saved-value registers unchanged.
    for (const Controls &c : allowed_controls()) {
        SCOPED_TRACE(testing::Message()
                     << "controls {" << c.el3 << ", " << c.el2 << ", " << c.sse << "}");
        remake();
        Saved a = prime(kA);
        set_counters(kB);
        controls(c.el3, c.el2, c.sse);
        at(1);
        set_os_lock(true);
        request();
        EXPECT_EQ(tool().pmsscr, kNC);
        EXPECT_EQ(saved_tool(), a);
    }
}

TEST_F(SnapshotAllowed, RTSYTY_OsLockUnlockedAgainAllowsCapture)
{
    // RTSYTY: the OS Lock only matters while locked: after unlocking, a capture succeeds.
    make();
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    at(1);
    set_os_lock(true);
    set_os_lock(false);
    request();
    EXPECT_EQ(tool().pmsscr, 0u);
    EXPECT_EQ(saved_tool(), b);
}

TEST_F(SnapshotAllowed, RMFJWS_OsLockWithCaptureDisabledIgnoresTheWrite)
{
    // RMFJWS: disabled (MDCR_EL3.PMSSE = 0b00) stays disabled with the OS Lock locked:
    // PMSSCR_EL1.SS ignores the write, PMSSCR_EL1 keeps {0, 0}.
    make();
    Saved a = prime(kA);
    set_counters(kB);
    mdcr3(kOff);
    at(1);
    set_os_lock(true);
    request();
    EXPECT_EQ(tool().pmsscr, 0u);
    EXPECT_EQ(saved_tool(), a);
}

TEST_F(SnapshotAllowed, RTSYTY_DebugStateWithoutCaptureInDebugIsProhibited)
{
    // RTSYTY: the PE is in Debug state and does not allow Capture events in Debug state
    // (capture_in_debug = false, the default): prohibited, {NC, SS} = {1, 0}.
    for (const Controls &c : allowed_controls()) {
        SCOPED_TRACE(testing::Message()
                     << "controls {" << c.el3 << ", " << c.el2 << ", " << c.sse << "}");
        remake();
        Saved a = prime(kA);
        set_counters(kB);
        controls(c.el3, c.el2, c.sse);
        at(1);
        set_debug(true);
        request();
        EXPECT_EQ(tool().pmsscr, kNC);
        EXPECT_EQ(saved_tool(), a);
    }
}

TEST_F(SnapshotAllowed, RTSYTY_DebugStateWithCaptureInDebugIsAllowed)
{
    // RTSYTY: the PE allows Capture events in Debug state (IMPLEMENTATION DEFINED,
    // capture_in_debug = true): the capture succeeds in Debug state.
    cfg.capture_in_debug = true;
    for (const Controls &c : allowed_controls()) {
        SCOPED_TRACE(testing::Message()
                     << "controls {" << c.el3 << ", " << c.el2 << ", " << c.sse << "}");
        remake();
        prime(kA);
        Saved b = set_counters(kB);
        controls(c.el3, c.el2, c.sse);
        at(1);
        set_debug(true);
        request();
        EXPECT_EQ(tool().pmsscr, 0u);
        EXPECT_EQ(saved_tool(), b);
    }
}

TEST_F(SnapshotAllowed, RTSYTY_NonDebugStateWithoutCaptureInDebugIsAllowed)
{
    // RTSYTY: capture_in_debug = false only matters in Debug state.
    make();
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    at(1);
    request();
    EXPECT_EQ(tool().pmsscr, 0u);
    EXPECT_EQ(saved_tool(), b);
}

// ---- What a successful Capture event writes (PMUCaptureEvent, RVLKCZ) -----------------------

class SnapshotCapture : public Snapshot
{
};

TEST_F(SnapshotCapture, RVLKCZ_EveryImplementedEventCounterIsCaptured)
{
    // RVLKCZ, PMUCaptureEvent: PMEVCNTSVR<n>_EL1 = PMEVCNTR<n>_EL0 for n = 0 .. N - 1 (64-bit
    // values), for N = 1, 6 and 31.
    for (unsigned n_counters : {1u, 6u, 31u}) {
        SCOPED_TRACE(testing::Message() << "N = " << n_counters);
        cfg.num_counters = n_counters;
        remake();
        Saved b = set_counters(0xFEDC000000000000);
        mdcr3(kAllow);
        at(1);
        request();
        at(2);
        for (unsigned n = 0; n < n_counters; n++)
            EXPECT_EQ(rd(PMT_REG_PMEVCNTSVR_EL1, n), b.ev[n]) << "PMEVCNTSVR" << n << "_EL1";
    }
}

TEST_F(SnapshotCapture, CountersReservedForEl2AreCapturedFromEl1)
{
    // PMUCaptureEvent: "for idx = 0 to NUM_PMU_COUNTERS - 1": a capture requested at EL1 with
    // MDCR_EL2.HPMN = 2 also captures counters 2 .. N - 1 (read at EL2).
    make();
    mdcr2(kLower, 2);
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    at(1);
    request();
    at(2);
    for (unsigned n = 0; n < cfg.num_counters; n++)
        EXPECT_EQ(rd(PMT_REG_PMEVCNTSVR_EL1, n), b.ev[n]) << "PMEVCNTSVR" << n << "_EL1";
}

TEST_F(SnapshotCapture, CountersAtOrAboveEpmnAreCaptured)
{
    // PMUCaptureEvent captures NUM_PMU_COUNTERS counters, not EffectiveEPMN: with
    // FEAT_PMUv3_EXTPMN and PMCCR.EPMN = 4 of N = 6, PMEVCNTSVR4/5_EL1 also take the counters
    // (seen through pmt_pmu_snapshot_get, as MRS of them is UNDEFINED).
    cfg.feat_extpmn = true;
    make();
    Saved b = set_counters(kB);
    ASSERT_EQ(pmt_pmu_ext_write(pe, 0xE58, 4, PMT_SS_SECURE, true, PMT_PUT(PMCCR, EPMN, 4)),
              PMT_EXT_OK); // PMCCR (I5.3.47, offset 0xE58)
    mdcr2(kLower, 2);
    mdcr3(kAllow);
    at(1);
    request();
    EXPECT_EQ(tool().pmsscr, 0u);
    EXPECT_EQ(saved_tool(), b);
}

TEST_F(SnapshotCapture, PmsscrRes0BitsReadAsZero)
{
    // D24.5.23: bits [63:33] and [31:1] are RES0. MSR PMSSCR_EL1 with all ones while Capture
    // events are disabled (MDCR_EL3.PMSSE = 0b00): NC is written 1, SS ignores the write, the
    // RES0 bits read 0: PMSSCR_EL1 = 1 << 32.
    make();
    mdcr3(kOff);
    at(1);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, ~uint64_t{0}), PMT_ACCESS_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
}

TEST_F(SnapshotCapture, AllOnesWriteWhenAllowedCapturesAndClearsNc)
{
    // D24.5.23 + D13.9: MSR PMSSCR_EL1 with all ones while allowed requests a Capture event,
    // which completes with {NC, SS} = {0, 0}; the RES0 bits read 0.
    make();
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    at(1);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, ~uint64_t{0}), PMT_ACCESS_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), b);
}

TEST_F(SnapshotCapture, CycleCounterIsCaptured)
{
    // PMUCaptureEvent: PMCCNTSVR_EL1 = PMCCNTR_EL0 (all 64 bits).
    make();
    wr(PMT_REG_PMCCNTR_EL0, 0x8765432112345678);
    mdcr3(kAllow);
    at(1);
    request();
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMCCNTSVR_EL1), 0x8765432112345678u);
}

TEST_F(SnapshotCapture, InstructionCounterIsCapturedWithIcntr)
{
    // PMUCaptureEvent: with FEAT_PMUv3_ICNTR, PMICNTSVR_EL1 = PMICNTR_EL0.
    use_icntr();
    make();
    wr(PMT_REG_PMICNTR_EL0, 0x0123456789ABCDEF);
    mdcr3(kAllow);
    at(1);
    request();
    at(2);
    EXPECT_EQ(rd(PMT_REG_PMICNTSVR_EL1), 0x0123456789ABCDEFu);
}

TEST_F(SnapshotCapture, ProhibitedCaptureLeavesEverySavedValueRegisterUnchanged)
{
    // D13.9 RMPZSB (ID inferred from its place in the text): a prohibited Capture event.
    // D13.9 "If a Capture event occurs when prohibited": PMCCNTSVR_EL1, PMICNTSVR_EL1 and
    // PMEVCNTSVR<n>_EL1 are unchanged, {NC, SS} = {1, 0}. With FEAT_PMUv3_ICNTR.
    use_icntr();
    make();
    Saved a = prime(kA);
    set_counters(kB);
    mdcr3(kProhib);
    at(1);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(saved(), a);
}

TEST_F(SnapshotCapture, PendingCountsAreCaptured)
{
    // PMUCaptureEvent copies the counters' current values: events counted (pmt_pmu_count,
    // pmt_pmu_cycles) just before the Capture event, with no read of the counters in between,
    // are in the captured values.
    use_icntr();
    make();
    mdcr2(kLower);
    for (unsigned n = 0; n < cfg.num_counters; n++)
        program(n, PMT_EV_INST_RETIRED, 100 * n);
    cycle_counter(5000);
    instruction_counter(7000);
    pmcr(kE);
    mdcr3(kAllow);
    at(1);
    count(PMT_EV_INST_RETIRED, 1234);
    cycles(4321);
    request();
    at(2);
    for (unsigned n = 0; n < cfg.num_counters; n++)
        EXPECT_EQ(rd(PMT_REG_PMEVCNTSVR_EL1, n), 100 * n + 1234) << "PMEVCNTSVR" << n << "_EL1";
    EXPECT_EQ(rd(PMT_REG_PMCCNTSVR_EL1), 5000u + 4321);
    EXPECT_EQ(rd(PMT_REG_PMICNTSVR_EL1), 7000u + 1234);
}

TEST_F(SnapshotCapture, WriteOfZeroToSsIsIgnored)
{
    // D24.5.23 PMSSCR_EL1.SS: "A write of 0 to this field is ignored": with capture allowed,
    // MSR PMSSCR_EL1 with {NC, SS} = {1, 0} requests no Capture event (a successful one would
    // leave {0, 0}): PMSSCR_EL1 reads {1, 0}, the saved-value registers are unchanged. (NC has
    // no field-specific access, so the MSR pseudocode "PMSSCR_EL1 = X[t, 64]" writes it; the
    // value written keeps it 1.)
    make();
    Saved before = saved();
    set_counters(kB);
    mdcr3(kAllow);
    at(1);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, kNC), PMT_ACCESS_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(saved(), before);
}

TEST_F(SnapshotCapture, WriteOfZeroToSsAfterCaptureIsIgnored)
{
    // D24.5.23 PMSSCR_EL1.SS: after a successful capture ({NC, SS} = {0, 0}, saved = A), with
    // capture still allowed and the counters changed to B, MSR PMSSCR_EL1 with 0 requests no
    // Capture event: PMSSCR_EL1 stays 0 and the saved-value registers keep A.
    make();
    Saved a = prime(kA);
    set_counters(kB);
    at(1);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, 0), PMT_ACCESS_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), a);
}

TEST_F(SnapshotCapture, SnapshotGetReportsTheArchitecturalRegisters)
{
    // pmt_pmu_snapshot_get (tool view) agrees with MRS of the snapshot registers after a
    // successful capture, and reports Capture events enabled and allowed (RYWLFL, RTSYTY).
    use_icntr();
    make();
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    at(1);
    request();
    EXPECT_EQ(saved_tool(), b);
    EXPECT_EQ(saved(), b);
    pmt_pmu_snapshot s = tool();
    EXPECT_EQ(s.pmsscr, rd_high(PMT_REG_PMSSCR_EL1));
    EXPECT_TRUE(s.enabled);
    EXPECT_TRUE(s.allowed);
}

// ---- PMU_SNAPSHOT (0x8127) ------------------------------------------------------------------

class SnapshotEvent : public Snapshot
{
  protected:
    // Counter 0 counts PMU_SNAPSHOT from `start` (Non-secure EL0..EL2), PMCR_EL0.E = 1; the
    // other counters hold distinct values. The PE ends at Non-secure EL1.
    void setup(uint64_t start)
    {
        make();
        mdcr2(kLower);
        set_counters(kB);
        program(0, kPmuSnapshot, start);
        pmcr(kE);
        at(1);
    }
};

TEST_F(SnapshotEvent, PmuSnapshotCountsOnceAndIsCapturedBeforeItsIncrement)
{
    // D13.9 RPLPCY (ID inferred from its place in the text): on a successful Capture event,
    // PMU_SNAPSHOT is generated after the counters are
    // captured: PMEVCNTSVR0_EL1 holds the value before the increment, PMEVCNTR0_EL0 is one more.
    setup(41);
    mdcr3(kAllow);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTSVR_EL1, 0), 41u);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 42u);
}

TEST_F(SnapshotEvent, PmuSnapshotCountsOncePerSuccessfulCapture)
{
    // D13.9: three successful Capture events generate PMU_SNAPSHOT three times; the last
    // capture saw the two before it.
    setup(0);
    mdcr3(kAllow);
    for (int i = 0; i < 3; i++)
        request();
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTSVR_EL1, 0), 2u);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 3u);
}

TEST_F(SnapshotEvent, PmuSnapshotOnExternalRequest)
{
    // RSCLCQ + D13.9: an external request that captures successfully also generates
    // PMU_SNAPSHOT after capturing.
    setup(7);
    mdcr3(kAllow);
    EXPECT_EQ(pmt_pmu_snapshot_request(pe), PMT_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTSVR_EL1, 0), 7u);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 8u);
}

TEST_F(SnapshotEvent, PmuSnapshotNotGeneratedOnProhibitedCapture)
{
    // D13.9: PMU_SNAPSHOT is generated when {NC, SS} is set to {0, 0} on a successful Capture
    // event; a prohibited one (MDCR_EL3.PMSSE = 0b10) does not generate it.
    setup(41);
    mdcr3(kProhib);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 41u);
}

TEST_F(SnapshotEvent, PmuSnapshotNotGeneratedWhenDisabled)
{
    // RMFJWS: with Capture events disabled there is no Capture event, so no PMU_SNAPSHOT.
    setup(41);
    mdcr3(kOff);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 41u);
}

TEST_F(SnapshotEvent, PmuSnapshotNotGeneratedWithOsLock)
{
    // RTSYTY: with the OS Lock locked the Capture event is prohibited: no PMU_SNAPSHOT.
    setup(41);
    mdcr3(kAllow);
    set_os_lock(true);
    request();
    set_os_lock(false);
    EXPECT_EQ(rd_high(PMT_REG_PMEVCNTR_EL0, 0), 41u);
}

// ---- The BRBE freeze on a Capture event (PMUCaptureEvent, RLBQZR) ---------------------------

class SnapshotBrbe : public Snapshot
{
};

TEST_F(SnapshotBrbe, BrbeCaptureFreezeOnSuccessfulCapture)
{
    // PMUCaptureEvent: with FEAT_BRBE a successful Capture event calls BRBEFreeze() (subject to
    // the BRBE's own FZPSS and BranchRecordAllowed, applied outside the model).
    cfg.feat_brbe = true;
    make();
    mdcr3(kAllow);
    at(1);
    request();
    EXPECT_EQ(brbe_capture_freezes, 1);
}

TEST_F(SnapshotBrbe, NoBrbeCaptureFreezeOnProhibitedCapture)
{
    // D13.9: a prohibited Capture event leaves "Generation of Branch records ... unaffected";
    // PMUCaptureEvent returns before BRBEFreeze().
    cfg.feat_brbe = true;
    make();
    mdcr3(kProhib);
    at(1);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(brbe_capture_freezes, 0);
}

TEST_F(SnapshotBrbe, NoBrbeCaptureFreezeWhenDisabled)
{
    // RMFJWS: disabled, no Capture event, no BRBE freeze.
    cfg.feat_brbe = true;
    make();
    mdcr3(kOff);
    at(1);
    request();
    EXPECT_EQ(brbe_capture_freezes, 0);
}

TEST_F(SnapshotBrbe, NoBrbeCaptureFreezeWithOsLock)
{
    // RTSYTY: OS Lock locked, the Capture event is prohibited: no BRBE freeze.
    cfg.feat_brbe = true;
    make();
    mdcr3(kAllow);
    at(1);
    set_os_lock(true);
    request();
    EXPECT_EQ(brbe_capture_freezes, 0);
}

TEST_F(SnapshotBrbe, NoBrbeCaptureFreezeWithoutFeatBrbe)
{
    // PMUCaptureEvent: BRBEFreeze() only when FEAT_BRBE is implemented.
    make();
    mdcr3(kAllow);
    at(1);
    request();
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(brbe_capture_freezes, 0);
}

// ---- Reset values --------------------------------------------------------------------------

class SnapshotReset : public Snapshot
{
};

TEST_F(SnapshotReset, PmsscrResetsToNc1Ss0)
{
    // D24.5.23: PMSSCR_EL1.NC resets to 1, SS to 0 (bits [63:33] and [31:1] RES0).
    make();
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
}

TEST_F(SnapshotReset, ResetAfterCaptureRestoresNc1Ss0)
{
    // D24.5.23: after a successful capture left {NC, SS} = {0, 0}, a reset sets {1, 0} again.
    make();
    prime(kA);
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
}

TEST_F(SnapshotReset, Mdcr3PmsseResetsTo00SoCaptureEventsAreDisabled)
{
    // D24.3 MDCR_EL3.PMSSE: Cold reset value 0b00, so out of reset Capture events are
    // disabled (RYWLFL) and SS ignores a write of 1 from EL3 (RMFJWS). MSR PMSSCR_EL1 with
    // {NC, SS} = {0, 1}: disabled writes NC = 0 and ignores SS (reads 0, saved-value registers
    // unchanged); a prohibited capture would read {1, 0}, an allowed one would change the
    // saved-value registers.
    make();
    EXPECT_EQ(PMT_GET(MDCR_EL3, PMSSE, rd_high(PMT_REG_MDCR_EL3)), 0u);
    Saved before = saved();
    set_counters(kB);
    at(3, PMT_SS_ROOT);
    request();
    EXPECT_EQ(rd(PMT_REG_PMSSCR_EL1), 0u);
    EXPECT_EQ(saved(), before);
    EXPECT_FALSE(tool().enabled);
}

// ---- Access to the snapshot registers (D24.5.3, D24.5.11, D24.5.16, D24.5.23) --------------

// One access to a snapshot register.
struct Acc {
    const char *name;
    bool is_write;
    pmt_reg_id id;
    unsigned n;
};

class SnapshotAccess : public Snapshot
{
  protected:
    pmt_access access(const Acc &a)
    {
        uint64_t v = 0;
        return a.is_write ? write(a.id, 0, a.n) : read(a.id, &v, a.n);
    }

    // Every MRS/MSR of the snapshot registers the architecture defines; PMEVCNTSVR<n> with
    // n < n_limit only.
    std::vector<Acc> all(unsigned n_limit) const
    {
        std::vector<Acc> v = {{"MRS PMSSCR_EL1", false, PMT_REG_PMSSCR_EL1, 0},
                              {"MSR PMSSCR_EL1", true, PMT_REG_PMSSCR_EL1, 0},
                              {"MRS PMCCNTSVR_EL1", false, PMT_REG_PMCCNTSVR_EL1, 0}};
        for (unsigned n = 0; n < n_limit; n++)
            v.push_back({"MRS PMEVCNTSVR<n>_EL1", false, PMT_REG_PMEVCNTSVR_EL1, n});
        if (cfg.feat_icntr)
            v.push_back({"MRS PMICNTSVR_EL1", false, PMT_REG_PMICNTSVR_EL1, 0});
        return v;
    }

    void expect_all(const std::vector<Acc> &accs, pmt_access expected)
    {
        for (const Acc &a : accs) {
            pmt_access got = access(a);
            EXPECT_EQ(got, expected) << a.name << " n=" << a.n << ": got " << pmt_access_name(got)
                                     << ", expected " << pmt_access_name(expected);
        }
    }
};

TEST_F(SnapshotAccess, UndefinedWithoutFeatPmuv3Ss)
{
    // D24.5.3/11/16/23: "!IsFeatureImplemented(FEAT_PMUv3_SS) ... then UNDEFINED", at every
    // Exception level (FEAT_PMUv3_ICNTR implemented, so only FEAT_PMUv3_SS is missing).
    cfg.feat_ss = false;
    use_icntr();
    make();
    wr_high(PMT_REG_MDCR_EL3, kEnPM2 | kEnPMSS); // EnPMSS is RES0 here; it must not matter
    const Where where[] = {{"EL0", 0, PMT_SS_NONSECURE, true},
                           {"EL1", 1, PMT_SS_NONSECURE, true},
                           {"EL2", 2, PMT_SS_NONSECURE, true},
                           {"EL3", 3, PMT_SS_ROOT, false}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        expect_all(all(cfg.num_counters), PMT_ACCESS_UNDEFINED);
    }
}

TEST_F(SnapshotAccess, UndefinedAtEl0)
{
    // D24.5.3/11/16/23: "elsif PSTATE.EL == EL0 then UNDEFINED", whatever MDCR_EL3.EnPMSS,
    // HCR_EL2.TGE, the Security state or PMUSERENR_EL0 (all EL0 enables set).
    use_icntr();
    make();
    wr(PMT_REG_PMUSERENR_EL0, 0x4F);
    const Where where[] = {{"Non-secure EL0", 0, PMT_SS_NONSECURE, true},
                           {"Secure EL0, EL2 disabled", 0, PMT_SS_SECURE, false}};
    for (bool enpmss : {false, true}) {
        mdcr3(kAllow, enpmss);
        for (const Where &w : where) {
            for (bool tge : {false, true}) {
                if (tge && !w.el2_enabled)
                    continue;
                SCOPED_TRACE(testing::Message()
                             << w.name << " TGE=" << tge << " EnPMSS=" << enpmss);
                at(w.el, w.ss, w.el2_enabled, tge);
                expect_all(all(cfg.num_counters), PMT_ACCESS_UNDEFINED);
            }
        }
    }
}

TEST_F(SnapshotAccess, EnPmss0TrapsEl1AndEl2ToEl3)
{
    // D24.5.3/11/16/23: "HaveEL(EL3) && MDCR_EL3.EnPMSS == '0' then
    // AArch64.SystemAccessTrap(EL3, 0x18)" at EL1 and EL2 (PMEVCNTSVR<n> with n < HPMN, so the
    // EL2 trap of higher priority does not apply).
    use_icntr();
    make();
    mdcr2(kLower); // HPMN = N
    mdcr3(kAllow, false);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                           {"Secure EL1, EL2 disabled", 1, PMT_SS_SECURE, false}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        expect_all(all(cfg.num_counters), PMT_ACCESS_TRAP_EL3);
    }
}

TEST_F(SnapshotAccess, EnPmss0DoesNotTrapEl3)
{
    // D24.5.3/11/16/23: "elsif PSTATE.EL == EL3 then X[t, 64] = ..." (no EnPMSS check).
    use_icntr();
    make();
    mdcr3(kAllow, false);
    at(3, PMT_SS_ROOT);
    expect_all(all(cfg.num_counters), PMT_ACCESS_OK);
}

TEST_F(SnapshotAccess, TrappedPmsscrWriteRequestsNoCapture)
{
    // A write trapped to EL3 by MDCR_EL3.EnPMSS = 0 is not performed: no Capture event,
    // PMSSCR_EL1 keeps {1, 0} and the saved-value registers are unchanged.
    make();
    Saved before = saved();
    set_counters(kB);
    mdcr3(kAllow, false);
    at(1);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, kSS), PMT_ACCESS_TRAP_EL3);
    EXPECT_EQ(rd_high(PMT_REG_PMSSCR_EL1), kNC);
    EXPECT_EQ(saved(), before);
}

TEST_F(SnapshotAccess, EnPmss1AccessibleAtEl1El2El3)
{
    // D24.5.3/11/16/23: with MDCR_EL3.EnPMSS = 1 every access is performed at EL1, EL2, EL3.
    use_icntr();
    make();
    mdcr2(kLower);
    mdcr3(kAllow);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                           {"Secure EL1, EL2 disabled", 1, PMT_SS_SECURE, false},
                           {"EL3", 3, PMT_SS_ROOT, false}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        expect_all(all(cfg.num_counters), PMT_ACCESS_OK);
    }
}

TEST_F(SnapshotAccess, PmevcntsvrAboveImplementedCountersUndefined)
{
    // D24.5.11: "elsif m >= GetNumEventCountersSelfHosted() then UNDEFINED" (N without
    // FEAT_PMUv3_EXTPMN; RVLKCZ): n = N .. 30 at every Exception level, before the EL0, EL2
    // and EnPMSS checks.
    make();
    mdcr2(kLower, 2);
    for (bool enpmss : {false, true}) {
        mdcr3(kAllow, enpmss);
        const Where where[] = {{"Non-secure EL0", 0, PMT_SS_NONSECURE, true},
                               {"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                               {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                               {"EL3", 3, PMT_SS_ROOT, false}};
        for (const Where &w : where) {
            at(w.el, w.ss, w.el2_enabled);
            for (unsigned n = cfg.num_counters; n < 31; n++) {
                uint64_t v;
                EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_UNDEFINED)
                    << w.name << " EnPMSS=" << enpmss << " n=" << n;
            }
        }
    }
}

TEST_F(SnapshotAccess, PmevcntsvrAtOrAboveEpmnUndefinedWithExtpmn)
{
    // D24.5.11: with FEAT_PMUv3_EXTPMN, GetNumEventCountersSelfHosted() is the Effective
    // PMCCR.EPMN: EPMN = 4 of N = 6 makes PMEVCNTSVR4/5 UNDEFINED at EL1 (before the EL2 trap),
    // EL2 and EL3; PMEVCNTSVR3 stays accessible at EL2 and EL3.
    cfg.feat_extpmn = true;
    make();
    ASSERT_EQ(pmt_pmu_ext_write(pe, 0xE58, 4, PMT_SS_SECURE, true, PMT_PUT(PMCCR, EPMN, 4)),
              PMT_EXT_OK); // PMCCR (I5.3.47, offset 0xE58)
    mdcr2(kLower, 2);
    mdcr3(kAllow);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                           {"EL3", 3, PMT_SS_ROOT, false}};
    for (const Where &w : where) {
        at(w.el, w.ss, w.el2_enabled);
        uint64_t v;
        for (unsigned n : {4u, 5u}) {
            EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_UNDEFINED)
                << w.name << " n=" << n;
        }
        if (w.el >= 2) {
            EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, 3), PMT_ACCESS_OK) << w.name;
        }
    }
}

TEST_F(SnapshotAccess, PmevcntsvrAtOrAboveHpmnTrapsEl1ToEl2)
{
    // D24.5.11: at EL1 with EL2 enabled, "EL2Enabled() && m >= GetNumEventCountersAccessible()
    // then AArch64.SystemAccessTrap(EL2, 0x18)" (accessible = HPMN), before the EnPMSS trap to
    // EL3. n < HPMN: performed with EnPMSS = 1, trapped to EL3 with EnPMSS = 0.
    make();
    for (unsigned hpmn : {1u, 3u, 5u}) {
        for (bool enpmss : {false, true}) {
            SCOPED_TRACE(testing::Message() << "HPMN=" << hpmn << " EnPMSS=" << enpmss);
            mdcr2(kLower, hpmn);
            mdcr3(kAllow, enpmss);
            at(1);
            uint64_t v;
            for (unsigned n = 0; n < cfg.num_counters; n++) {
                pmt_access expected = n >= hpmn ? PMT_ACCESS_TRAP_EL2
                                      : enpmss  ? PMT_ACCESS_OK
                                                : PMT_ACCESS_TRAP_EL3;
                EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), expected) << "n=" << n;
            }
        }
    }
}

TEST_F(SnapshotAccess, PmevcntsvrWithHpmn0TrapsEveryCounterAtEl1)
{
    // D24.5.11 with FEAT_HPMN0 and MDCR_EL2.HPMN = 0: every PMEVCNTSVR<n> traps to EL2 from
    // EL1; PMSSCR_EL1 and PMCCNTSVR_EL1 have no HPMN check and are performed.
    cfg.feat_hpmn0 = true;
    make();
    mdcr2(kLower, 0);
    mdcr3(kAllow);
    at(1);
    uint64_t v;
    for (unsigned n = 0; n < cfg.num_counters; n++)
        EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_TRAP_EL2) << "n=" << n;
    EXPECT_EQ(read(PMT_REG_PMCCNTSVR_EL1, &v), PMT_ACCESS_OK);
    EXPECT_EQ(read(PMT_REG_PMSSCR_EL1, &v), PMT_ACCESS_OK);
}

TEST_F(SnapshotAccess, PmevcntsvrAboveHpmnAccessibleWhereEl2DoesNotApply)
{
    // D24.5.11: the HPMN check is only at EL1 with EL2Enabled(): at EL2, at Secure EL1 with
    // EL2 disabled and at EL3 every implemented PMEVCNTSVR<n> is accessible.
    make();
    mdcr2(kLower, 2);
    mdcr3(kAllow);
    const Where where[] = {{"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                           {"Secure EL1, EL2 disabled", 1, PMT_SS_SECURE, false},
                           {"EL3", 3, PMT_SS_ROOT, false}};
    for (const Where &w : where) {
        at(w.el, w.ss, w.el2_enabled);
        uint64_t v;
        for (unsigned n = 0; n < cfg.num_counters; n++)
            EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_OK) << w.name << " n=" << n;
    }
}

TEST_F(SnapshotAccess, PmevcntsvrAccessibleAtEl1WithoutEl2)
{
    // D24.5.11: without EL2, EL2Enabled() is FALSE: every implemented PMEVCNTSVR<n> is
    // accessible at EL1.
    cfg.have_el2 = false;
    make();
    mdcr3(kAllow);
    at(1);
    uint64_t v;
    for (unsigned n = 0; n < cfg.num_counters; n++)
        EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_OK) << "n=" << n;
}

TEST_F(SnapshotAccess, PmicntsvrUndefinedWithoutIcntr)
{
    // D24.5.16: "!(FEAT_PMUv3_ICNTR && FEAT_PMUv3_SS ...) then UNDEFINED", also before the
    // EnPMSS trap.
    make();
    for (bool enpmss : {false, true}) {
        mdcr3(kAllow, enpmss);
        const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                               {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                               {"EL3", 3, PMT_SS_ROOT, false}};
        for (const Where &w : where) {
            at(w.el, w.ss, w.el2_enabled);
            uint64_t v;
            EXPECT_EQ(read(PMT_REG_PMICNTSVR_EL1, &v), PMT_ACCESS_UNDEFINED)
                << w.name << " EnPMSS=" << enpmss;
        }
    }
}

TEST_F(SnapshotAccess, MsrToSavedValueRegistersUndefined)
{
    // D24.5.3/11/16 define only MRS for PMCCNTSVR_EL1, PMEVCNTSVR<n>_EL1 and PMICNTSVR_EL1:
    // an MSR to them is UNDEFINED at EL1, EL2 and EL3 (MDCR_EL3.EnPMSS = 1), and the value is
    // unchanged.
    use_icntr();
    make();
    Saved b = set_counters(kB);
    mdcr3(kAllow);
    wr_high(PMT_REG_PMSSCR_EL1, kSS);
    ASSERT_EQ(saved(), b);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true},
                           {"EL3", 3, PMT_SS_ROOT, false}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        EXPECT_EQ(write(PMT_REG_PMCCNTSVR_EL1, 1), PMT_ACCESS_UNDEFINED);
        EXPECT_EQ(write(PMT_REG_PMICNTSVR_EL1, 1), PMT_ACCESS_UNDEFINED);
        for (unsigned n = 0; n < cfg.num_counters; n++)
            EXPECT_EQ(write(PMT_REG_PMEVCNTSVR_EL1, 1, n), PMT_ACCESS_UNDEFINED) << "n=" << n;
    }
    EXPECT_EQ(saved(), b);
}

TEST_F(SnapshotAccess, MsrToSavedValueRegistersUndefinedAlsoWithEnPmss0)
{
    // D24.5.3/11/16: no MSR encoding exists, so there is no EnPMSS trap to apply: UNDEFINED at
    // EL1 and EL2 also with MDCR_EL3.EnPMSS = 0 (the EnPMSS field text lists "MRS and MSR
    // accesses to PMCCNTSVR_EL1, PMEVCNTSVR<n>_EL1", but the registers have no MSR form).
    use_icntr();
    make();
    mdcr2(kLower);
    mdcr3(kAllow, false);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        EXPECT_EQ(write(PMT_REG_PMCCNTSVR_EL1, 1), PMT_ACCESS_UNDEFINED);
        EXPECT_EQ(write(PMT_REG_PMICNTSVR_EL1, 1), PMT_ACCESS_UNDEFINED);
        EXPECT_EQ(write(PMT_REG_PMEVCNTSVR_EL1, 1, 0), PMT_ACCESS_UNDEFINED);
    }
}

TEST_F(SnapshotAccess, IKGJMV_OsLockDoesNotAffectAccess)
{
    // IKGJMV: accesses to the snapshot registers are not affected by the OS Lock: with the OS
    // Lock locked, at EL1 and EL2 every access is performed and the reads return the captured
    // values.
    use_icntr();
    make();
    mdcr2(kLower);
    Saved a = prime(kA);
    const Where where[] = {{"Non-secure EL1", 1, PMT_SS_NONSECURE, true},
                           {"Non-secure EL2", 2, PMT_SS_NONSECURE, true}};
    for (const Where &w : where) {
        SCOPED_TRACE(w.name);
        at(w.el, w.ss, w.el2_enabled);
        set_os_lock(true);
        expect_all(all(cfg.num_counters), PMT_ACCESS_OK);
        uint64_t v = 0;
        EXPECT_EQ(read(PMT_REG_PMCCNTSVR_EL1, &v), PMT_ACCESS_OK);
        EXPECT_EQ(v, a.cc);
        EXPECT_EQ(read(PMT_REG_PMICNTSVR_EL1, &v), PMT_ACCESS_OK);
        EXPECT_EQ(v, a.ic);
        for (unsigned n = 0; n < cfg.num_counters; n++) {
            EXPECT_EQ(read(PMT_REG_PMEVCNTSVR_EL1, &v, n), PMT_ACCESS_OK);
            EXPECT_EQ(v, a.ev[n]) << "n=" << n;
        }
        EXPECT_EQ(read(PMT_REG_PMSSCR_EL1, &v), PMT_ACCESS_OK);
        EXPECT_EQ(v, 0u);
    }
}

TEST_F(SnapshotAccess, IKGJMV_OsLockedMsrPmsscrIsPerformedAndProhibited)
{
    // IKGJMV + RTSYTY: MSR PMSSCR_EL1 with SS = 1 while the OS Lock is locked is performed
    // (not trapped, not UNDEFINED) and the Capture event is prohibited: {NC, SS} = {1, 0}.
    make();
    prime(kA);
    at(1);
    set_os_lock(true);
    EXPECT_EQ(write(PMT_REG_PMSSCR_EL1, kSS), PMT_ACCESS_OK);
    uint64_t v = 0;
    EXPECT_EQ(read(PMT_REG_PMSSCR_EL1, &v), PMT_ACCESS_OK);
    EXPECT_EQ(v, kNC);
}

// ---- PMECR_EL1.SSE (D24.5.9) ---------------------------------------------------------------

TEST_F(SnapshotAccess, PmecrSseWritableWithFeatPmuv3Ss)
{
    // D24.5.9: with FEAT_PMUv3_SS, PMECR_EL1.SSE holds 0b00, 0b10 and 0b11 (written at EL1
    // with MDCR_EL3.EnPM2 = 1 and MDCR_EL2.TPM = 0, read back at EL1).
    make();
    mdcr2(kLower);
    mdcr3(kAllow);
    at(1);
    for (unsigned sse : {kAllow, kProhib, kOff}) {
        wr(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, SSE, sse));
        EXPECT_EQ(PMT_GET(PMECR, SSE, rd(PMT_REG_PMECR_EL1)), sse);
    }
}

TEST_F(SnapshotAccess, PmecrSseIsRes0WithoutFeatPmuv3Ss)
{
    // D24.5.9: without FEAT_PMUv3_SS (PMECR_EL1 present through FEAT_EBEP), SSE is RES0.
    cfg.feat_ss = false;
    cfg.feat_ebep = true;
    make();
    at(3, PMT_SS_ROOT);
    wr(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, SSE, kAllow));
    EXPECT_EQ(PMT_GET(PMECR, SSE, rd(PMT_REG_PMECR_EL1)), 0u);
}

TEST_F(SnapshotAccess, PmecrUndefinedWithoutEbepAndSs)
{
    // D24.5.9: "!((FEAT_EBEP || FEAT_PMUv3_SS) && FEAT_AA64) then UNDEFINED".
    cfg.feat_ss = false;
    make();
    at(3, PMT_SS_ROOT);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_UNDEFINED);
    EXPECT_EQ(write(PMT_REG_PMECR_EL1, 0), PMT_ACCESS_UNDEFINED);
}

TEST_F(SnapshotAccess, PmecrWithFeatPmuv3SsAloneIsPresent)
{
    // D24.5.9: PMECR_EL1 is present with FEAT_PMUv3_SS alone (no FEAT_EBEP).
    make();
    at(3, PMT_SS_ROOT);
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_PMECR_EL1, &v), PMT_ACCESS_OK);
    EXPECT_EQ(write(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, SSE, kAllow)), PMT_ACCESS_OK);
}

// ---- Identification and the EL2/EL3 controls (D24.2.80, D24.3) ------------------------------

TEST_F(SnapshotAccess, IdAa64dfr0PmssReportsFeatPmuv3Ss)
{
    // D24.2.80: ID_AA64DFR0_EL1.PMSS, bits [19:16]: 0b0001 with FEAT_PMUv3_SS, else 0b0000.
    for (bool ss : {false, true}) {
        SCOPED_TRACE(testing::Message() << "feat_ss=" << ss);
        cfg.feat_ss = ss;
        remake();
        uint64_t dfr0 = 0, dfr1 = 0;
        ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
        EXPECT_EQ(dfr0 >> 16 & 0xF, ss ? 1u : 0u);
    }
}

TEST_F(SnapshotAccess, MdcrSnapshotFieldsWritableOnlyWithFeatPmuv3Ss)
{
    // D24.3: MDCR_EL3.PMSSE, MDCR_EL3.EnPMSS and MDCR_EL2.PMSSE exist "When FEAT_PMUv3_SS is
    // implemented", otherwise RES0: written with all ones from EL3, they read back 0b11, 1 and
    // 0b11 with the feature and 0 without.
    for (bool ss : {false, true}) {
        SCOPED_TRACE(testing::Message() << "feat_ss=" << ss);
        cfg.feat_ss = ss;
        remake();
        at(3, PMT_SS_ROOT);
        wr(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, PMSSE) | kEnPMSS | kEnPM2);
        wr(PMT_REG_MDCR_EL2, PMT_MASK(MDCR_EL2, PMSSE) | PMT_PUT(MDCR_EL2, HPMN, 6));
        uint64_t m3 = rd(PMT_REG_MDCR_EL3), m2 = rd(PMT_REG_MDCR_EL2);
        EXPECT_EQ(PMT_GET(MDCR_EL3, PMSSE, m3), ss ? 3u : 0u);
        EXPECT_EQ(PMT_GET(MDCR_EL3, EnPMSS, m3), ss ? 1u : 0u);
        EXPECT_EQ(PMT_GET(MDCR_EL2, PMSSE, m2), ss ? 3u : 0u);
    }
}

// D13.9 RDBRSV and RVPZHN (IDs inferred from their place in the text), end to end through
// PMSSCR_EL1.SS: with FEAT_PCSRv8p9 and PMPCSCTL.SS a successful Capture event writes the PC
// sample to PMPCSR, then sets {NC, SS} = {0, 0}.
class SnapshotPcSample : public PeTest
{
  protected:
    void SetUp() override
    {
        cfg.feat_ss = true;
        cfg.feat_pcsrv8p9 = true;
        cfg.pcsr = PMT_PCSR_PMU_FRAME;
        make();
        wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMSSE, 3) | PMT_MASK(MDCR_EL3, EnPMSS));
        ext_wr(0xE50, PMT_MASK(PMPCSCTL, EN) | PMT_MASK(PMPCSCTL, SS)); // PMPCSCTL
        pmt_pc_sample s{};
        s.pc = 0xFFFF800000401234;
        s.el = 1;
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = true;
        s.contextidr_el1 = 42;
        ASSERT_EQ(pmt_pe_pc_sample(pe, &s), PMT_OK);
    }
    void ext_wr(uint32_t off, uint64_t v)
    {
        ASSERT_EQ(pmt_pmu_ext_write(pe, off, 4, PMT_SS_SECURE, false, v), PMT_EXT_OK);
    }
    uint64_t ext_rd(uint32_t off)
    {
        uint64_t v = 0;
        EXPECT_EQ(pmt_pmu_ext_read(pe, off, 4, PMT_SS_SECURE, false, &v), PMT_EXT_OK);
        return v;
    }
};

TEST_F(SnapshotPcSample, RVPZHN_CaptureWritesThePcSampleThenRDBRSV_NcSsClear)
{
    at(1);
    wr(PMT_REG_PMSSCR_EL1, PMT_MASK(PMSSCR, SS));
    EXPECT_EQ(rd(PMT_REG_PMSSCR_EL1), 0u);          // RDBRSV: {NC, SS} = {0, 0}
    EXPECT_EQ(ext_rd(0x204) & 0xFFFFFF, 0xFF8000u); // PMPCSR[55:32] (SS = 1: no new sample)
    EXPECT_EQ(ext_rd(0x200), 0x00401234u);
    EXPECT_EQ(ext_rd(0x208), 42u); // PMCID1SR
}

TEST_F(SnapshotPcSample, RMPZSB_ProhibitedCaptureLeavesThePcSampleRegistersUnchanged)
{
    wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMSSE, 2) | PMT_MASK(MDCR_EL3, EnPMSS));
    uint64_t before = ext_rd(0x200);
    at(1);
    wr(PMT_REG_PMSSCR_EL1, PMT_MASK(PMSSCR, SS));
    EXPECT_EQ(rd(PMT_REG_PMSSCR_EL1), PMT_MASK(PMSSCR, NC));
    EXPECT_EQ(ext_rd(0x200), before);
    EXPECT_NE(before, 0x00401234u);
}

} // namespace
