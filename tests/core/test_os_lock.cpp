// The OS Lock and the OS Double Lock as the model's System registers
// (pmt_pe_config.os_lock_registers): OSLAR_EL1 (D24.3.27), OSLSR_EL1 (D24.3.28), OSDLR_EL1
// (D24.3.23) and DBGPRCR_EL1 (D24.3.9), row by row: reset values, what a write does, the
// accessibility pseudocode's traps, DoubleLockStatus() (J1.3.1.4), and what reads the locks in
// the PMU (the external frame's error responses, I5.3; snapshots, RTSYTY). The trace unit's side
// is in test_ete_registers.cpp (TRCOSLSR, TRCSTATR) and test_ete_trace.cpp (its trace).
#include "pe_fixture.h"

#include <vector>

namespace
{

class OsLock : public PeTest
{
  protected:
    void SetUp() override { cfg.os_lock_registers = true; }

    // The state the model was told, with `f` applied.
    template <typename F> void change(F f)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        f(s);
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
    bool locked() { return pmt_pe_get_state(pe).os_lock; }
    bool double_locked() { return pmt_pe_get_state(pe).double_lock; }
};

constexpr pmt_reg_id registers[] = {PMT_REG_OSLAR_EL1, PMT_REG_OSLSR_EL1, PMT_REG_OSDLR_EL1,
                                    PMT_REG_DBGPRCR_EL1};

// The access each register has: OSLAR_EL1 is written (MSR only), OSLSR_EL1 read (MRS only), the
// others either.
pmt_access access(pmt_pe *pe, pmt_reg_id id)
{
    uint64_t v = 0;
    const pmt_sysreg e = pmt_sysreg_encode({id, 0});
    return id == PMT_REG_OSLAR_EL1 ? pmt_pe_sysreg_write(pe, e, 0) : pmt_pe_sysreg_read(pe, e, &v);
}

} // namespace

TEST_F(OsLock, EncodingsAreTheArchitectures)
{
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 0, 1, 0, 4)).id, PMT_REG_OSLAR_EL1);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 0, 1, 1, 4)).id, PMT_REG_OSLSR_EL1);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 0, 1, 3, 4)).id, PMT_REG_OSDLR_EL1);
    EXPECT_EQ(pmt_sysreg_decode(PMT_SYSREG(2, 0, 1, 4, 4)).id, PMT_REG_DBGPRCR_EL1);
}

// D24.3.28: OSLSR_EL1.OSLK resets to 1 on a Cold reset; OSLM is 0b10 (the OS Lock implemented,
// the only value Armv8 permits; OSLM[1] is bit 3), nTT RAZ.
TEST_F(OsLock, D24_3_28_OslsrEl1ResetsToLocked)
{
    make();
    EXPECT_EQ(rd(PMT_REG_OSLSR_EL1), 0xAu);
    EXPECT_TRUE(locked()); // OSLockStatus(), as every reader of the lock sees it
    wr(PMT_REG_OSLAR_EL1, 0);
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    at(2);
    EXPECT_EQ(rd(PMT_REG_OSLSR_EL1), 0xAu);
}

// D24.3.27: "On writes to OSLAR_EL1, bit[0] is copied to the OS Lock"; OSLSR_EL1.OSLK says it.
TEST_F(OsLock, D24_3_27_OslarEl1Bit0IsCopiedToTheOsLock)
{
    make();
    const struct {
        uint64_t written;
        uint64_t oslsr;
    } rows[] = {{0, 0x8}, {1, 0xA}, {1, 0xA}, {~uint64_t{1}, 0x8}, {0xFFFF'FFFF'FFFF'FFFF, 0xA},
                {2, 0x8}};
    for (const auto &r : rows) {
        wr(PMT_REG_OSLAR_EL1, r.written);
        EXPECT_EQ(rd(PMT_REG_OSLSR_EL1), r.oslsr) << std::hex << r.written;
        EXPECT_EQ(locked(), r.oslsr == 0xA) << std::hex << r.written;
    }
}

// D24.3.23: OSDLR_EL1.DLK resets to 0 (Warm reset) and holds what is written; bits [63:1] RES0.
TEST_F(OsLock, D24_3_23_OsdlrEl1HoldsDlk)
{
    make();
    EXPECT_EQ(rd(PMT_REG_OSDLR_EL1), 0u);
    wr(PMT_REG_OSDLR_EL1, ~uint64_t{0});
    EXPECT_EQ(rd(PMT_REG_OSDLR_EL1), 1u);
    wr(PMT_REG_OSDLR_EL1, ~uint64_t{1});
    EXPECT_EQ(rd(PMT_REG_OSDLR_EL1), 0u);
}

// D24.3.9: DBGPRCR_EL1.CORENPDRQ resets to EDPRCR.COREPURQ (0: no debugger asked) and holds what
// is written; bits [63:1] RES0.
TEST_F(OsLock, D24_3_9_DbgprcrEl1HoldsCorenpdrq)
{
    make();
    EXPECT_EQ(rd(PMT_REG_DBGPRCR_EL1), 0u);
    wr(PMT_REG_DBGPRCR_EL1, ~uint64_t{0});
    EXPECT_EQ(rd(PMT_REG_DBGPRCR_EL1), 1u);
    wr(PMT_REG_DBGPRCR_EL1, 0);
    EXPECT_EQ(rd(PMT_REG_DBGPRCR_EL1), 0u);
}

// J1.3.1.4 DoubleLockStatus(): TRUE only with OSDLR_EL1.DLK 1, DBGPRCR_EL1.CORENPDRQ 0 and the
// PE in Non-debug state; the OS Lock has nothing to do with it.
TEST_F(OsLock, J1_3_1_4_DoubleLockStatusRowByRow)
{
    make();
    const struct {
        bool dlk, corenpdrq, halted, status;
    } rows[] = {{false, false, false, false}, {true, false, false, true},
                {true, true, false, false},   {true, false, true, false},
                {false, true, true, false},   {true, true, true, false}};
    for (const auto &r : rows) {
        change([](pmt_pe_state &s) { s.debug = false; });
        wr(PMT_REG_OSDLR_EL1, r.dlk);
        wr(PMT_REG_DBGPRCR_EL1, r.corenpdrq);
        change([&](pmt_pe_state &s) { s.debug = r.halted; });
        EXPECT_EQ(double_locked(), r.status) << r.dlk << r.corenpdrq << r.halted;
    }
}

// MRS of OSLAR_EL1 and MSR of OSLSR_EL1 have no encoding: UNDEFINED at every Exception level.
TEST_F(OsLock, WriteOnlyAndReadOnlyAreUndefinedTheOtherWay)
{
    make();
    for (unsigned el = 1; el <= 3; el++) {
        at(el);
        uint64_t v = 0;
        EXPECT_EQ(read(PMT_REG_OSLAR_EL1, &v), PMT_ACCESS_UNDEFINED) << el;
        EXPECT_EQ(write(PMT_REG_OSLSR_EL1, 0), PMT_ACCESS_UNDEFINED) << el;
    }
    EXPECT_EQ(rd(PMT_REG_OSLSR_EL1), 0xAu); // still locked
}

// The accessibility pseudocode of the four registers, row by row (FEAT_DoubleLock: TDOSA traps
// OSDLR_EL1 too): UNDEFINED at EL0; EL1 trapped to EL2 by MDCR_EL2.TDE or TDOSA where EL2 is
// enabled, else to EL3 by MDCR_EL3.TDOSA; EL2 trapped to EL3 by MDCR_EL3.TDOSA; EL3 never.
TEST_F(OsLock, AccessibilityRowByRow)
{
    make();
    const uint64_t tde = PMT_MASK(MDCR_EL2, TDE), tdosa2 = PMT_MASK(MDCR_EL2, TDOSA);
    const uint64_t tdosa3 = PMT_MASK(MDCR_EL3, TDOSA);
    const struct {
        unsigned el;
        bool el2_enabled;
        uint64_t mdcr_el2, mdcr_el3;
        pmt_access want;
    } rows[] = {
        {0, true, 0, 0, PMT_ACCESS_UNDEFINED},
        {0, true, tdosa2, tdosa3, PMT_ACCESS_UNDEFINED},
        {1, true, 0, 0, PMT_ACCESS_OK},
        {1, true, tdosa2, 0, PMT_ACCESS_TRAP_EL2},
        {1, true, tde, 0, PMT_ACCESS_TRAP_EL2},
        {1, true, tdosa2, tdosa3, PMT_ACCESS_TRAP_EL2}, // EL2's trap first
        {1, true, 0, tdosa3, PMT_ACCESS_TRAP_EL3},
        {1, false, tdosa2, 0, PMT_ACCESS_OK}, // Secure EL1: EL2 not enabled
        {1, false, tde, tdosa3, PMT_ACCESS_TRAP_EL3},
        {2, true, tdosa2 | tde, 0, PMT_ACCESS_OK},
        {2, true, 0, tdosa3, PMT_ACCESS_TRAP_EL3},
        {3, true, tdosa2, tdosa3, PMT_ACCESS_OK},
    };
    for (const auto &r : rows) {
        at(2);
        wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters) | r.mdcr_el2);
        wr_high(PMT_REG_MDCR_EL3, r.mdcr_el3);
        at(r.el, r.el2_enabled ? PMT_SS_NONSECURE : PMT_SS_SECURE, r.el2_enabled);
        for (pmt_reg_id id : registers)
            EXPECT_EQ(access(pe, id), r.want)
                << pmt_reg_name(id) << " at EL" << r.el << (r.el2_enabled ? "" : " Secure")
                << " MDCR_EL2 0x" << std::hex << r.mdcr_el2 << " MDCR_EL3 0x" << r.mdcr_el3;
    }
}

// A trapped write has no effect (no side effects before the exception, D24.3.17).
TEST_F(OsLock, ATrappedWriteLeavesTheLock)
{
    make();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters) | PMT_MASK(MDCR_EL2, TDOSA));
    at(1);
    EXPECT_EQ(write(PMT_REG_OSLAR_EL1, 0), PMT_ACCESS_TRAP_EL2);
    EXPECT_TRUE(locked());
}

// MDCR_EL2.{TDE, TDOSA} and MDCR_EL3.TDOSA are stored with the OS Lock registers (they read
// back); without them they stay RES0 here, the CPU's.
TEST_F(OsLock, MdcrTrapControlsAreStoredWithTheRegisters)
{
    make();
    const uint64_t el2 = PMT_MASK(MDCR_EL2, TDE) | PMT_MASK(MDCR_EL2, TDOSA);
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters) | el2);
    EXPECT_EQ(rd(PMT_REG_MDCR_EL2) & el2, el2);
    at(3, PMT_SS_SECURE);
    wr(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, TDOSA));
    EXPECT_EQ(rd(PMT_REG_MDCR_EL3) & PMT_MASK(MDCR_EL3, TDOSA), PMT_MASK(MDCR_EL3, TDOSA));

    cfg.os_lock_registers = false;
    remake();
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters) | el2);
    EXPECT_EQ(rd(PMT_REG_MDCR_EL2) & el2, 0u);
}

// The model holds the locks: a state the CPU reports cannot change them (its os_lock and
// double_lock are not read); pmt_pe_get_state reports the model's.
TEST_F(OsLock, TheCpusStateDoesNotChangeTheLocks)
{
    make();
    change([](pmt_pe_state &s) {
        s.os_lock = false;
        s.double_lock = true;
    });
    EXPECT_TRUE(locked());
    EXPECT_FALSE(double_locked());
    wr(PMT_REG_OSLAR_EL1, 0);
    wr(PMT_REG_OSDLR_EL1, 1);
    change([](pmt_pe_state &s) {
        s.os_lock = true;
        s.double_lock = false;
    });
    EXPECT_FALSE(locked());
    EXPECT_TRUE(double_locked());
}

// Without os_lock_registers the four registers are the CPU's (NOT_MINE), the lock is unlocked at
// reset and the CPU's state gives it.
TEST_F(OsLock, WithoutTheOptionTheRegistersAreTheCpus)
{
    cfg.os_lock_registers = false;
    make();
    for (pmt_reg_id id : registers) {
        uint64_t v = 0;
        EXPECT_EQ(read(id, &v), PMT_ACCESS_NOT_MINE) << pmt_reg_name(id);
        EXPECT_EQ(write(id, 1), PMT_ACCESS_NOT_MINE) << pmt_reg_name(id);
    }
    EXPECT_FALSE(locked());
    change([](pmt_pe_state &s) {
        s.os_lock = true;
        s.double_lock = true;
    });
    EXPECT_TRUE(locked());
    EXPECT_TRUE(double_locked());
}

// I5.3: the external PMU frame's counters and controls answer an error response while
// OSLockStatus() (as the lock is out of reset), and answer once software unlocks it; the
// OS Double Lock (DoubleLockStatus()) refuses them too.
TEST_F(OsLock, I5_3_ThePmuFrameFollowsTheLocks)
{
    make();
    auto status = [&] {
        uint64_t v = 0;
        return pmt_pmu_ext_read(pe, 0xE04, 4, PMT_SS_SECURE, true, &v); // PMCR_EL0
    };
    EXPECT_EQ(status(), PMT_EXT_ERROR);
    wr(PMT_REG_OSLAR_EL1, 0);
    EXPECT_EQ(status(), PMT_EXT_OK);
    wr(PMT_REG_OSDLR_EL1, 1);
    EXPECT_EQ(status(), PMT_EXT_ERROR);
    wr(PMT_REG_DBGPRCR_EL1, 1); // CORENPDRQ: no Double Lock
    EXPECT_EQ(status(), PMT_EXT_OK);
}

// pmt_pmu_ext_peek, a tool's view (pmtrace-vp's summary, the waveforms' counters): the same
// registers through the same frame, not refused while the OS Lock is locked (out of reset) or the
// OS Double Lock; the values are the counters'.
TEST_F(OsLock, APeekSeesTheCountersWhateverTheLocks)
{
    make();
    wr(PMT_REG_PMEVCNTR_EL0, 1234, 0);
    wr(PMT_REG_PMCNTENSET_EL0, 1);
    uint64_t v = 0;
    EXPECT_EQ(pmt_pmu_ext_read(pe, 0x000, 4, PMT_SS_SECURE, false, &v), PMT_EXT_ERROR);
    ASSERT_EQ(pmt_pmu_ext_peek(pe, 0x000, 4, &v), PMT_EXT_OK); // PMEVCNTR0
    EXPECT_EQ(v, 1234u);
    ASSERT_EQ(pmt_pmu_ext_peek(pe, 0xC00, 4, &v), PMT_EXT_OK); // PMCNTENSET
    EXPECT_EQ(v, 1u);
    wr(PMT_REG_OSLAR_EL1, 0);
    wr(PMT_REG_OSDLR_EL1, 1);
    ASSERT_EQ(pmt_pmu_ext_peek(pe, 0x000, 4, &v), PMT_EXT_OK);
    EXPECT_EQ(v, 1234u);
    EXPECT_EQ(pmt_pmu_ext_peek(pe, 0x1000, 4, &v), PMT_EXT_NO_REGISTER);
}

// The locks are saved and restored with the rest; a blob whose double_lock is not
// DoubleLockStatus() of its registers is refused.
TEST_F(OsLock, SavedAndRestored)
{
    make();
    wr(PMT_REG_OSLAR_EL1, 0);
    wr(PMT_REG_OSDLR_EL1, 1);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    EXPECT_TRUE(locked());
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    at(2);
    EXPECT_FALSE(locked());
    EXPECT_TRUE(double_locked());
    EXPECT_EQ(rd(PMT_REG_OSDLR_EL1), 1u);
    EXPECT_EQ(rd(PMT_REG_OSLSR_EL1), 0x8u);

    // The same blob with DBGPRCR_EL1.CORENPDRQ set: DoubleLockStatus() would be FALSE.
    wr(PMT_REG_DBGPRCR_EL1, 1);
    std::vector<uint8_t> other(blob.size());
    ASSERT_EQ(pmt_pe_save(pe, other.data(), other.size()), PMT_OK);
    size_t diff = 0, at_byte = 0;
    for (size_t i = 0; i < blob.size(); i++)
        if (blob[i] != other[i]) {
            diff++;
            at_byte = i;
        }
    ASSERT_EQ(diff, 2u); // corenpdrq and pe.double_lock
    std::vector<uint8_t> bad = blob;
    bad[at_byte] = other[at_byte]; // the last differing byte: oslock.corenpdrq (described last)
    log_lines.clear();
    EXPECT_EQ(pmt_pe_restore(pe, bad.data(), bad.size()), PMT_ERR_STATE_BLOB);
    ASSERT_FALSE(log_lines.empty());
    EXPECT_NE(log_lines.back().find("DoubleLockStatus"), std::string::npos) << log_lines.back();
}

// The same blob cannot carry OSDLR_EL1 into a model without the registers.
TEST_F(OsLock, ADoubleLockRegisterIsRefusedWithoutTheOption)
{
    make();
    wr(PMT_REG_OSDLR_EL1, 1);
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    cfg.os_lock_registers = false;
    remake();
    EXPECT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_ERR_STATE_BLOB);
}
