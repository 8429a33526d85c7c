// The coresight-etm4x driver for an ETE (sw/drivers/ete) on the core HAL: probe, a perf session's
// enable and disable as Linux makes them, and the trace the unit then writes through the
// coresight-trbe driver's buffer (D24.4; the trace itself is decoded in EteTrace.* and A64Ete.*).
#include "sw_fixture.h"

#include <drivers/ete/ete.h>
#include <drivers/trbe/trbe.h>

namespace
{

class EteDriver : public SwTest
{
  protected:
    sw_ete ete{};
    uint64_t rd(pmt_reg_id id)
    {
        uint64_t v = 0;
        EXPECT_EQ(pmt_pe_sysreg_read(pe(), pmt_sysreg_encode({id, 0}), &v), PMT_ACCESS_OK);
        return v;
    }
};

TEST_F(EteDriver, NoTraceUnitIsNoDevice)
{
    make(); // FEAT_ETE off: ID_AA64DFR0_EL1.TraceVer 0
    EXPECT_EQ(sw_ete_probe(&ete, h), -SW_ENODEV);
}

TEST_F(EteDriver, ProbeReadsWhatTheUnitImplements)
{
    cfg.pe.ete.feat_ete = true;
    make();
    ASSERT_EQ(sw_ete_probe(&ete, h), SW_OK);
    EXPECT_TRUE(ete.cci);
    EXPECT_EQ(ete.devarch & 0xFFF0FFFFu, 0x47705A13u); // an ETE (TRCDEVARCH)
    EXPECT_EQ(ete.nr_addr_cmp, cfg.pe.ete.num_ac_pairs);
    EXPECT_EQ(ete.nr_resource, cfg.pe.ete.num_rs_pairs);
    EXPECT_TRUE(ete.ts);
    EXPECT_EQ(ete.ccitmin, cfg.pe.ete.ccitmin);
    EXPECT_EQ(ete.ns_ex_level, 0x7u); // EL0, EL1, EL2
}

// etm_detect_os_lock and etm4_os_unlock_csa: an ETE is controlled by the PE's OS Lock
// (TRCOSLSR.OSLM = 0b100), locked out of reset (OSLSR_EL1.OSLK, D24.3.28); the probe releases it
// with OSLAR_EL1 = 0.
TEST_F(EteDriver, ProbeReleasesThePeOsLock)
{
    cfg.pe.ete.feat_ete = true;
    make();
    EXPECT_EQ(peek(HAL_OSLSR_EL1), 0xAu);
    ASSERT_EQ(sw_ete_probe(&ete, h), SW_OK);
    EXPECT_EQ(ete.os_lock, 4u);
    EXPECT_EQ(peek(HAL_OSLSR_EL1), 0x8u);
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x10u);
}

// etm4_os_lock, as the power-down save path takes it (__etm4_cpu_save): the lock disables the
// enabled unit, PMSTABLE is polled and found; released, the unit is enabled again.
TEST_F(EteDriver, TheOsLockStopsASessionAndReleasingItResumes)
{
    cfg.pe.ete.feat_ete = true;
    make();
    ASSERT_EQ(sw_ete_probe(&ete, h), SW_OK);
    sw_ete_config c{};
    c.trace_id = 0x10;
    ASSERT_EQ(sw_ete_enable(&ete, &c), SW_OK);
    ASSERT_EQ(sw_ete_os_lock(&ete, true), SW_OK);
    EXPECT_EQ(peek(HAL_OSLSR_EL1), 0xAu);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR) & 3u, 3u); // IDLE, PMSTABLE
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 1u);
    ASSERT_EQ(sw_ete_os_lock(&ete, false), SW_OK);
    EXPECT_EQ(PMT_GET(TRCSTATR, IDLE, rd(PMT_REG_TRCSTATR)), 0u);
}

// A session excluding the kernel (perf's :u): TRCVICTLR's filters, the trace ID and the sync
// period as written; the unit leaves Idle, and after the disable is Idle and stable again.
TEST_F(EteDriver, EnableProgramsTheSessionAndDisableWaitsForStable)
{
    cfg.pe.ete.feat_ete = true;
    make();
    ASSERT_EQ(sw_ete_probe(&ete, h), SW_OK);
    sw_ete_config c{};
    c.trace_id = 0x10;
    c.exclude_kernel = true;
    c.timestamp = true;
    ASSERT_EQ(sw_ete_enable(&ete, &c), SW_OK);
    EXPECT_EQ(rd(PMT_REG_TRCPRGCTLR), 1u);
    EXPECT_EQ(PMT_GET(TRCSTATR, IDLE, rd(PMT_REG_TRCSTATR)), 0u);
    EXPECT_EQ(rd(PMT_REG_TRCTRACEIDR), 0x10u);
    EXPECT_EQ(rd(PMT_REG_TRCSYNCPR), 0xCu);
    EXPECT_EQ(PMT_GET(TRCCONFIGR, TS, rd(PMT_REG_TRCCONFIGR)), 1u);
    const uint64_t v = rd(PMT_REG_TRCVICTLR);
    EXPECT_EQ(PMT_GET(TRCVICTLR, EVENT_SEL, v), 1u); // always TRUE
    EXPECT_EQ(PMT_GET(TRCVICTLR, SSSTATUS, v), 1u);
    EXPECT_EQ(PMT_GET(TRCVICTLR, EXLEVEL_NS, v), 0x6u); // EL1 and EL2 excluded, EL0 traced
    ASSERT_EQ(sw_ete_disable(&ete), SW_OK);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR) & 3u, 3u); // IDLE, PMSTABLE
}

// The session end to end: the trbe driver's buffer, the trace unit enabled, the CPU's report of
// a loop, the disable: the buffer starts with the trace's synchronization (A-Sync: eleven 0x00
// then 0x80, Trace Info 0x01) and TRBPTR_EL1 moved past it.
TEST_F(EteDriver, TheSessionsTraceReachesTheBuffer)
{
    cfg.pe.ete.feat_ete = true;
    make();
    sw_trbe trbe{};
    ASSERT_EQ(sw_trbe_probe(&trbe, h), SW_OK);
    sw_trbe_write_trfcr(&trbe, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    const sw_trbe_buf b = sw_trbe_linux_buf(BUF, BUF, BUF + BUF_SIZE);
    ASSERT_EQ(sw_trbe_enable(&trbe, &b), SW_OK);
    ASSERT_EQ(sw_ete_probe(&ete, h), SW_OK);
    sw_ete_config c{};
    c.trace_id = 0x10;
    ASSERT_EQ(sw_ete_enable(&ete, &c), SW_OK);
    const pmt_ete_range ran{RAM + 0x80000, RAM + 0x80008, PMT_ETE_P0_DIRECT,
                            true,          RAM + 0x80000, 100};
    ASSERT_EQ(pmt_ete_report_range(pe(), &ran), PMT_OK);
    ASSERT_EQ(sw_ete_disable(&ete), SW_OK);
    sw_trbe_drain_and_disable(&trbe);
    uint64_t ptr = rd(PMT_REG_TRBPTR_EL1);
    ASSERT_GT(ptr, BUF + 13);
    const uint8_t *ram = hal_core_ram(hc) + (BUF - RAM);
    for (unsigned i = 0; i < 11; i++)
        EXPECT_EQ(ram[i], 0x00u) << i;
    EXPECT_EQ(ram[11], 0x80u);
    EXPECT_EQ(ram[12], 0x01u);
}

} // namespace

// etm4x_allow_trace: the session's TRFCR_EL1 allows EL0 unless :k, EL1 unless :u.
TEST(EteDriverFilter, TrfcrEl1FollowsTheSessionsExclusions)
{
    const uint64_t e0 = PMT_MASK(TRFCR_EL1, E0TRE), e1 = PMT_MASK(TRFCR_EL1, E1TRE);
    sw_ete_config c{};
    EXPECT_EQ(sw_ete_trfcr_el1(&c), e0 | e1);
    c.exclude_user = true;
    EXPECT_EQ(sw_ete_trfcr_el1(&c), e1);
    c.exclude_kernel = true;
    EXPECT_EQ(sw_ete_trfcr_el1(&c), 0u);
    c.exclude_user = false;
    EXPECT_EQ(sw_ete_trfcr_el1(&c), e0);
}
