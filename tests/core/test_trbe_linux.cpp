// Real clients: the Linux coresight-trbe driver (drivers/hwtracing/coresight/coresight-trbe.c)
// and Arm's bare-metal compliance flow, replayed register access by register access. Expected
// values are what those clients need from the architecture (D6.5, D24.4).
#include "trbe_fixture.h"

namespace
{

class TrbeLinux : public TrbeTest
{
  protected:
    // The driver's view of one CPU: the AUX buffer is [BASE, LIMIT), identity mapped.
    uint64_t trbe_align = 0;

    uint64_t read_sysreg(pmt_reg_id id) { return rd(id); }
    void write_sysreg(pmt_reg_id id, uint64_t v) { wr(id, v); }
    void isb() {}
    void tsb_csync() { csync(); }
    void dsb() {}

    // arm_trbe_probe_cpu: TRBIDR_EL1.P must be 0, Align gives the alignment, F the flag updates.
    bool probe()
    {
        uint64_t trbidr = read_sysreg(PMT_REG_TRBIDR_EL1);
        if (PMT_GET(TRBIDR, P, trbidr))
            return false; // "TRBE is owned in higher exception level"
        trbe_align = uint64_t{1} << PMT_GET(TRBIDR, Align, trbidr);
        return trbe_align <= 2048;
    }
    // set_trbe_disabled
    void set_trbe_disabled()
    {
        uint64_t trblimitr = read_sysreg(PMT_REG_TRBLIMITR_EL1);
        trblimitr &= ~PMT_MASK(TRBLIMITR, E);
        write_sysreg(PMT_REG_TRBLIMITR_EL1, trblimitr);
        isb();
    }
    // trbe_drain_and_disable_local
    void drain_and_disable()
    {
        tsb_csync();
        dsb();
        set_trbe_disabled();
    }
    // trbe_reset_local
    void reset_local()
    {
        drain_and_disable();
        write_sysreg(PMT_REG_TRBLIMITR_EL1, 0);
        write_sysreg(PMT_REG_TRBPTR_EL1, 0);
        write_sysreg(PMT_REG_TRBBASER_EL1, 0);
        write_sysreg(PMT_REG_TRBSR_EL1, 0);
    }
    // clr_trbe_status
    void clr_trbe_status()
    {
        uint64_t trbsr = read_sysreg(PMT_REG_TRBSR_EL1);
        EXPECT_FALSE(PMT_GET(TRBLIMITR, E, read_sysreg(PMT_REG_TRBLIMITR_EL1)));
        trbsr &= ~(PMT_MASK(TRBSR, IRQ) | PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, WRAP) |
                   PMT_MASK(TRBSR, EC) | uint64_t{0x3F} /* BSC */ | PMT_MASK(TRBSR, S));
        write_sysreg(PMT_REG_TRBSR_EL1, trbsr);
    }
    // clr_trbe_irq
    void clr_trbe_irq()
    {
        uint64_t trbsr = read_sysreg(PMT_REG_TRBSR_EL1);
        trbsr &= ~PMT_MASK(TRBSR, IRQ);
        write_sysreg(PMT_REG_TRBSR_EL1, trbsr);
    }
    // trbe_enable_hw: disable, clear status, base, write pointer, ISB, then the limit with
    // Fill mode, Ignore trigger and E = 1 (set_trbe_limit_pointer_enabled).
    void enable_hw(uint64_t base, uint64_t write, uint64_t limit)
    {
        set_trbe_disabled();
        clr_trbe_status();
        write_sysreg(PMT_REG_TRBBASER_EL1, base);
        write_sysreg(PMT_REG_TRBPTR_EL1, write);
        isb();
        uint64_t trblimitr = read_sysreg(PMT_REG_TRBLIMITR_EL1);
        trblimitr &= ~(PMT_MASK(TRBLIMITR, nVM) | PMT_MASK(TRBLIMITR, FM) |
                       PMT_MASK(TRBLIMITR, TM) | PMT_MASK(TRBLIMITR, LIMIT));
        trblimitr |= PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_FILL);
        trblimitr |= PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE);
        trblimitr |= limit & PMT_MASK(TRBLIMITR, LIMIT);
        trblimitr |= PMT_MASK(TRBLIMITR, E);
        write_sysreg(PMT_REG_TRBLIMITR_EL1, trblimitr);
        isb();
    }

    enum Act { WRAP, SPURIOUS, FATAL };
    // trbe_get_fault_act
    Act fault_act(uint64_t trbsr)
    {
        EXPECT_TRUE(PMT_GET(TRBSR, S, trbsr)) << "WARN_ON(is_trbe_running(trbsr))";
        if (PMT_GET(TRBSR, TRG, trbsr) || PMT_GET(TRBSR, EA, trbsr))
            return FATAL;
        unsigned ec = static_cast<unsigned>(PMT_GET(TRBSR, EC, trbsr));
        if (ec == PMT_TRBSR_EC_STAGE1_ABORT || ec == PMT_TRBSR_EC_STAGE2_ABORT)
            return FATAL;
        if (PMT_GET(TRBSR, WRAP, trbsr) && ec == 0 && (trbsr & 0x3F) == PMT_TRBSR_BSC_FULL &&
            read_sysreg(PMT_REG_TRBPTR_EL1) == read_sysreg(PMT_REG_TRBBASER_EL1))
            return WRAP;
        return SPURIOUS;
    }
    // arm_trbe_irq_handler up to the classification.
    bool irq_handler(Act *act)
    {
        uint64_t status = read_sysreg(PMT_REG_TRBSR_EL1);
        if (!PMT_GET(TRBSR, IRQ, status))
            return false;                                // IRQ_NONE
        uint64_t trfcr = read_sysreg(PMT_REG_TRFCR_EL1); // cpu_prohibit_trace
        write_sysreg(PMT_REG_TRFCR_EL1, trfcr & ~uint64_t{3});
        drain_and_disable();
        clr_trbe_irq();
        isb();
        *act = fault_act(status);
        write_sysreg(PMT_REG_TRFCR_EL1, trfcr);
        return true;
    }
};

// The whole perf session: probe, reset, enable in Fill mode, the buffer fills, the interrupt is
// a WRAP (S=1, WRAP=1, EC=0, BSC=1, IRQ=1, TRBPTR == TRBBASER), TRBIRQ falls when IRQ is
// cleared, the driver restarts on the next part of the AUX buffer, and at the end reads the
// amount of trace from TRBPTR_EL1.
TEST_F(TrbeLinux, PerfSessionWithBufferFullInterrupt)
{
    make_trbe();
    ASSERT_TRUE(probe());
    EXPECT_EQ(trbe_align, 64u);
    reset_local();
    write_sysreg(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    enable_hw(BASE, BASE, BASE + 0x2000);
    EXPECT_TRUE(status().running);
    trace_in_chunks(0x2000, 4096);
    ASSERT_TRUE(pmt_trbe_irq_level(pe));
    // Exactly what trbe_get_fault_act needs to see.
    uint64_t s = read_sysreg(PMT_REG_TRBSR_EL1);
    EXPECT_EQ(s, PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, IRQ) |
                     PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(read_sysreg(PMT_REG_TRBPTR_EL1), BASE);
    Act act;
    ASSERT_TRUE(irq_handler(&act));
    EXPECT_EQ(act, WRAP);
    EXPECT_FALSE(pmt_trbe_irq_level(pe)); // else: an interrupt loop
    EXPECT_EQ(trbirq, (std::vector<bool>{true, false}));
    EXPECT_TRUE(holds(BASE, 0, 0x2000));
    // trbe_handle_overflow: the next part of the AUX buffer.
    enable_hw(BASE + 0x2000, BASE + 0x2000, LIMIT);
    trace(0x1000 + 100);
    // arm_trbe_update_buffer at the end of the session.
    drain_and_disable();
    uint64_t status_end = read_sysreg(PMT_REG_TRBSR_EL1);
    EXPECT_FALSE(PMT_GET(TRBSR, IRQ, status_end));
    EXPECT_EQ(read_sysreg(PMT_REG_TRBPTR_EL1) - (BASE + 0x2000), 0x1000u + 100);
    EXPECT_TRUE(holds(BASE + 0x2000, 0x2000, 0x1000 + 100));
    Act none;
    EXPECT_FALSE(irq_handler(&none)); // IRQ_NONE
}

// A fault on a page of the AUX buffer: EC 0x24 with S = 1 and IRQ = 1: FATAL (the event is
// truncated), never SPURIOUS (a re-enable that would loop).
TEST_F(TrbeLinux, FaultIsFatalNotSpurious)
{
    make_trbe();
    ASSERT_TRUE(probe());
    reset_local();
    faults.push_back({BASE + 0x1000,
                      BASE + 0x2000,
                      {PMT_TRBE_FAULT_TRANSLATION, 1, 3, false, false, false, false}});
    enable_hw(BASE, BASE, LIMIT);
    trace_in_chunks(0x2000, 4096);
    uint64_t s = read_sysreg(PMT_REG_TRBSR_EL1);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(PMT_GET(TRBSR, S, s), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, IRQ, s), 1u);
    Act act;
    ASSERT_TRUE(irq_handler(&act));
    EXPECT_EQ(act, FATAL);
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
}

TEST_F(TrbeLinux, Stage2FaultIsFatal)
{
    make_trbe();
    ASSERT_TRUE(probe());
    reset_local();
    faults.push_back({BASE, LIMIT, {PMT_TRBE_FAULT_PERMISSION, 2, 3, false, false, false, false}});
    enable_hw(BASE, BASE, LIMIT);
    trace(64);
    uint64_t s = read_sysreg(PMT_REG_TRBSR_EL1);
    EXPECT_EQ(PMT_GET(TRBSR, EC, s), PMT_TRBSR_EC_STAGE2_ABORT);
    Act act;
    ASSERT_TRUE(irq_handler(&act));
    EXPECT_EQ(act, FATAL);
}

// The probe refuses a unit owned by a higher Exception level (TRBIDR_EL1.P = 1).
TEST_F(TrbeLinux, ProbeRefusesAUnitOwnedAbove)
{
    make_trbe();
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, 6));
    wr_el3(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1)); // Secure owner
    uint64_t v;
    EXPECT_EQ(read(PMT_REG_TRBIDR_EL1, &v), PMT_ACCESS_OK);
    EXPECT_EQ(PMT_GET(TRBIDR, P, v), 1u);
}

// The host kernel at EL2 with VHE (E2TB = 0b00: EL2&0 owns the buffer) runs the same driver.
TEST_F(TrbeLinux, VheHostOwnsTheBuffer)
{
    make_trbe();
    wr_el(2, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6)); // E2TB = 0b00
    go(2);
    state([](pmt_pe_state &s) { s.hcr_e2h = true; });
    ASSERT_TRUE(probe());
    reset_local();
    enable_hw(BASE, BASE, BASE + 0x1000);
    trace(0x1000);
    EXPECT_EQ(regimes.back().el, 2u);
    EXPECT_TRUE(regimes.back().e2h);
    Act act;
    ASSERT_TRUE(irq_handler(&act));
    EXPECT_EQ(act, WRAP);
}

// Arm's bare-metal compliance flow: Circular Buffer mode, TRBSR written after enabling, then
// disable by TSB CSYNC, TRBSR.S = 1, TRBLIMITR = 0.
TEST_F(TrbeLinux, BareMetalComplianceFlow)
{
    make_trbe();
    go(2);
    wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 0) | PMT_PUT(MDCR_EL2, HPMN, 6));
    wr(PMT_REG_TRBBASER_EL1, BASE);
    wr(PMT_REG_TRBPTR_EL1, BASE);
    wr(PMT_REG_TRBLIMITR_EL1, LIMIT | PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_CIRCULAR) |
                                  PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE) |
                                  PMT_MASK(TRBLIMITR, E));
    wr(PMT_REG_TRBSR_EL1, 0); // after enabling (RDJMDD: takes effect, logged)
    EXPECT_EQ(rd(PMT_REG_TRBSR_EL1), 0u);
    EXPECT_TRUE(status().running);
    trace(0x4000 + 0x230); // wraps once, 0x230 bytes after
    // Disable: TSB CSYNC, stop collection, TRBLIMITR = 0.
    csync();
    wr(PMT_REG_TRBSR_EL1, rd(PMT_REG_TRBSR_EL1) | PMT_MASK(TRBSR, S));
    wr(PMT_REG_TRBLIMITR_EL1, 0);
    EXPECT_FALSE(status().enabled);
    uint64_t s = rd(PMT_REG_TRBSR_EL1);
    EXPECT_EQ(s, PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, WRAP)); // no IRQ in Circular Buffer mode
    EXPECT_EQ(rd(PMT_REG_TRBPTR_EL1), BASE + 0x230);
    EXPECT_EQ(rd(PMT_REG_TRBLIMITR_EL1), 0u);
    EXPECT_TRUE(holds(BASE, 0x4000, 0x230));
    EXPECT_TRUE(holds(BASE + 0x230, 0x230, 0x4000 - 0x230));
    EXPECT_FALSE(pmt_trbe_irq_level(pe));
    EXPECT_FALSE(logged("ITRWFM")); // nothing was lost
}

} // namespace
