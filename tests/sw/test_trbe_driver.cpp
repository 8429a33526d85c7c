// The coresight-trbe driver on the core HAL: Linux's sequences (probe, reset, enable, drain,
// disable) and the interrupt handler's classification of each management event (D6.5, D24.4.7).
#include "sw_fixture.h"

#include <algorithm>
#include <functional>

namespace
{

class TrbeDriver : public SwTest
{
  protected:
    sw_gic gic{};
    sw_trbe trbe{};
    std::vector<sw_trbe_irq_info> infos;
    std::function<void(const sw_trbe_irq_info &)> then; // what the handler does next

    static int on_irq(unsigned, void *arg)
    {
        auto *t = static_cast<TrbeDriver *>(arg);
        sw_trbe_irq_info info;
        if (sw_trbe_irq(&t->trbe, &info) == SW_IRQ_NONE)
            return SW_IRQ_NONE;
        t->infos.push_back(info);
        if (t->then)
            t->then(info);
        return SW_IRQ_HANDLED;
    }

    void bring_up()
    {
        make();
        ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
        ASSERT_EQ(sw_trbe_probe(&trbe, h), SW_OK);
        ASSERT_EQ(sw_gic_request_ppi(&gic, SW_TRBE_INTID, on_irq, this), SW_OK);
        // The trace unit's driver allows trace at EL0 and EL1.
        sw_trbe_write_trfcr(&trbe, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    }
    void enable(unsigned fm = PMT_TRBLIMITR_FM_FILL, unsigned tm = PMT_TRBLIMITR_TM_IGNORE,
                uint64_t trg = 0, uint64_t write = BUF)
    {
        sw_trbe_buf b = sw_trbe_linux_buf(BUF, write, BUF + BUF_SIZE);
        b.fill_mode = fm;
        b.trig_mode = tm;
        b.trigger_count = trg;
        ASSERT_EQ(sw_trbe_enable(&trbe, &b), SW_OK);
    }
    // n trace bytes at EL0 (stream positions from `pos`), IRQs unmasked unless told.
    uint64_t pos = 0;
    void trace(size_t n, size_t trigger_at = HAL_NO_TRIGGER, bool unmasked = true)
    {
        std::vector<uint8_t> b(n);
        for (size_t i = 0; i < n; i++)
            b[i] = sw_loop_trace_byte(pos + i);
        pos += n;
        hal_work w{};
        w.trace = b.data();
        w.trace_len = n;
        w.trigger_at = trigger_at;
        if (unmasked)
            hal_irq_enable(h);
        ASSERT_EQ(hal_run(h, &w), HAL_OK);
        hal_irq_disable(h);
    }
    void fault_at(uint64_t lo, uint64_t hi, pmt_trbe_fault_kind kind, uint8_t stage, int8_t level)
    {
        pmt_trbe_fault f{};
        f.kind = kind;
        f.stage = stage;
        f.level = level;
        ASSERT_EQ(hal_core_add_fault(hc, lo, hi, &f), PMT_OK);
    }
};

TEST_F(TrbeDriver, ProbeReadsTrbidrAndResetsTheUnit)
{
    make();
    ASSERT_EQ(sw_trbe_probe(&trbe, h), SW_OK);
    EXPECT_EQ(trbe.hw_align, 64u);
    EXPECT_EQ(trbe.align, 64u);
    EXPECT_TRUE(trbe.flag_update);
    std::vector<std::string> want = {"R ID_AA64DFR0_EL1",
                                     "R TRBIDR_EL1",
                                     "TSB CSYNC",
                                     "DSB",
                                     "R TRBLIMITR_EL1",
                                     "W TRBLIMITR_EL1 0x0",
                                     "ISB",
                                     "W TRBLIMITR_EL1 0x0",
                                     "W TRBPTR_EL1 0x0",
                                     "W TRBBASER_EL1 0x0",
                                     "W TRBSR_EL1 0x0"};
    EXPECT_EQ(seq(), want);
}

TEST_F(TrbeDriver, ProbeWithoutTrbeIsNoDevice)
{
    cfg.pe.trbe.feat_trbe = false;
    make();
    EXPECT_EQ(sw_trbe_probe(&trbe, h), SW_ENODEV);
}

// TRBIDR_EL1.P: the buffer is owned by Secure state (MDCR_EL3.NSTB = 0b01): not programmable.
TEST_F(TrbeDriver, ProbeRefusesAUnitOwnedAbove)
{
    make();
    poke(HAL_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 1));
    EXPECT_EQ(sw_trbe_probe(&trbe, h), SW_EBUSY);
    EXPECT_EQ(PMT_GET(TRBIDR, P, trbe.trbidr), 1u);
}

// MDCR_EL3.NSTB = 0b00 traps Non-secure accesses to the buffer's registers to EL3
// (CheckMDCR_EL3_NSTBTrap): the driver reports the access that failed.
TEST_F(TrbeDriver, ResetReportsATrappedAccess)
{
    make();
    ASSERT_EQ(sw_trbe_probe(&trbe, h), SW_OK);
    poke(HAL_MDCR_EL3, 0);
    EXPECT_EQ(sw_trbe_reset_local(&trbe), SW_EIO);
    EXPECT_EQ(trbe.err, HAL_TRAP_EL3);
    EXPECT_EQ(trbe.err_reg, HAL_TRBLIMITR_EL1);
}

// trbe_enable_hw: E = 0, ISB, clear TRBSR, TRBBASER, TRBPTR, ISB, TRBLIMITR (Fill, trigger
// ignored, E = 1), ISB.
TEST_F(TrbeDriver, EnableSequence)
{
    bring_up();
    size_t m = mark();
    enable();
    std::vector<std::string> want = {"R TRBLIMITR_EL1",
                                     "W TRBLIMITR_EL1 0x0",
                                     "ISB",
                                     "R TRBSR_EL1",
                                     "W TRBSR_EL1 0x0",
                                     "W TRBBASER_EL1 " + hex(BUF),
                                     "W TRBPTR_EL1 " + hex(BUF),
                                     "ISB",
                                     "R TRBLIMITR_EL1",
                                     "W TRBLIMITR_EL1 " + hex(BUF + BUF_SIZE + 0x19),
                                     "ISB"};
    EXPECT_EQ(seq(m), want);
    EXPECT_TRUE(sw_trbe_is_enabled(&trbe));
    EXPECT_EQ(sw_trbe_limit_pointer(&trbe), BUF + BUF_SIZE);
}

TEST_F(TrbeDriver, EnableRefusesBadBuffers)
{
    bring_up();
    sw_trbe_buf b = sw_trbe_linux_buf(BUF, BUF, BUF + 0x100); // limit not page aligned
    EXPECT_EQ(sw_trbe_enable(&trbe, &b), SW_EINVAL);
    b = sw_trbe_linux_buf(BUF, BUF + BUF_SIZE, BUF + BUF_SIZE); // write pointer at the limit
    EXPECT_EQ(sw_trbe_enable(&trbe, &b), SW_EINVAL);
    b = sw_trbe_linux_buf(BUF, BUF, BUF);
    EXPECT_EQ(sw_trbe_enable(&trbe, &b), SW_EINVAL);
}

// RMBSHC: Fill mode reaches the limit: S, WRAP, IRQ, EC 0, BSC buffer full, TRBPTR = TRBBASER.
// The handler prohibits trace, drains, disables, clears IRQ (TRBIRQ falls) and classifies WRAP.
TEST_F(TrbeDriver, FillModeBufferFullIsAWrap)
{
    bring_up();
    enable();
    trace(BUF_SIZE - 64);
    EXPECT_TRUE(infos.empty());
    size_t before = mark();
    trace(64 + 100); // the byte at LIMIT - 1 fills the buffer; the last 100 are discarded
    ASSERT_EQ(infos.size(), 1u);
    const sw_trbe_irq_info &i = infos[0];
    EXPECT_EQ(i.trbsr, PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, IRQ) |
                           PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(i.act, SW_TRBE_ACT_WRAP);
    EXPECT_EQ(i.cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_EQ(i.trbptr, BUF);
    EXPECT_EQ(i.fsc, PMT_TRBSR_BSC_FULL);
    EXPECT_EQ(i.trfcr, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    EXPECT_FALSE(hal_core_line(hc, SW_TRBE_INTID));
    EXPECT_TRUE(holds(BUF, 0, BUF_SIZE));
    // arm_trbe_irq_handler's sequence, between the acknowledge and the classification.
    std::vector<std::string> s = seq(before);
    std::vector<std::string> want = {"R ICC_IAR1_EL1",
                                     "R TRBSR_EL1",
                                     "R TRFCR_EL1",
                                     "W TRFCR_EL1 0x0",
                                     "TSB CSYNC",
                                     "DSB",
                                     "R TRBLIMITR_EL1",
                                     "W TRBLIMITR_EL1 " + hex(BUF + BUF_SIZE + 0x18),
                                     "ISB",
                                     "R TRBSR_EL1",
                                     "W TRBSR_EL1 0x120001",
                                     "ISB"};
    ASSERT_GE(s.size(), want.size());
    EXPECT_EQ(std::vector<std::string>(s.begin(), s.begin() + static_cast<long>(want.size())),
              want);
    EXPECT_EQ(peek(HAL_TRFCR_EL1), 0u); // trace stays prohibited until the caller restores it
    EXPECT_EQ(hal_core_get_stats(hc).irq_storms, 0u);
}

// The perf flow: the handler restarts the buffer after each wrap (trbe_handle_overflow) and
// restores TRFCR; three buffers' worth of trace give three interrupts at the exact byte.
TEST_F(TrbeDriver, RestartAfterEachWrap)
{
    bring_up();
    enable();
    then = [&](const sw_trbe_irq_info &i) {
        ASSERT_EQ(i.act, SW_TRBE_ACT_WRAP);
        EXPECT_TRUE(holds(BUF, (infos.size() - 1) * BUF_SIZE, BUF_SIZE));
        enable();
        sw_trbe_write_trfcr(&trbe, i.trfcr);
    };
    trace(3 * BUF_SIZE + 640, HAL_NO_TRIGGER);
    EXPECT_EQ(infos.size(), 3u);
    EXPECT_EQ(sw_trbe_write_pointer(&trbe), BUF + 640);
    EXPECT_TRUE(holds(BUF, 3 * BUF_SIZE, 640));
}

// A stage 1 Translation fault at level 3 on the second page: EC 0x24, FSC 0x07, TRBPTR at the
// page; Linux's action is FATAL.
TEST_F(TrbeDriver, Stage1FaultIsFatal)
{
    bring_up();
    fault_at(BUF + 0x1000, BUF + 0x2000, PMT_TRBE_FAULT_TRANSLATION, 1, 3);
    enable();
    trace(0x2000);
    ASSERT_EQ(infos.size(), 1u);
    const sw_trbe_irq_info &i = infos[0];
    EXPECT_EQ(i.ec, PMT_TRBSR_EC_STAGE1_ABORT);
    EXPECT_EQ(i.fsc, 0x07u);
    EXPECT_EQ(PMT_GET(TRBSR, S, i.trbsr), 1u);
    EXPECT_EQ(i.trbptr, BUF + 0x1000);
    EXPECT_EQ(i.act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(i.cause, SW_TRBE_CAUSE_FAULT);
    EXPECT_FALSE(hal_core_line(hc, SW_TRBE_INTID));
}

TEST_F(TrbeDriver, Stage2PermissionFaultIsFatal)
{
    bring_up();
    fault_at(BUF, BUF + BUF_SIZE, PMT_TRBE_FAULT_PERMISSION, 2, 2);
    enable();
    trace(64);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].ec, PMT_TRBSR_EC_STAGE2_ABORT);
    EXPECT_EQ(infos[0].fsc, 0x0Eu); // Permission fault, level 2
    EXPECT_EQ(infos[0].act, SW_TRBE_ACT_FATAL);
}

// An External abort reported to the unit (RGQWBF, synchronous): EA set: FATAL.
TEST_F(TrbeDriver, ExternalAbortIsFatal)
{
    cfg.pe.trbe.ext_abort = PMT_TRBE_EA_REPORT_SYNC;
    bring_up();
    ASSERT_EQ(hal_core_add_abort(hc, BUF + 0x800, BUF + 0x1000, PMT_TRBE_WRITE_ABORT_SYNC), PMT_OK);
    enable();
    trace(0x1000);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(PMT_GET(TRBSR, EA, infos[0].trbsr), 1u);
    EXPECT_EQ(infos[0].cause, SW_TRBE_CAUSE_EXTERNAL_ABORT);
    EXPECT_EQ(infos[0].act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(infos[0].trbptr, BUF + 0x800);
}

// RVBDJZ: Wrap mode interrupts without stopping (S = 0): not a WRAP for Linux (it needs a stop
// with BSC buffer full) but SPURIOUS; re-enabled as it was, capture carries on.
TEST_F(TrbeDriver, WrapModeInterruptIsSpuriousForLinux)
{
    bring_up();
    enable(PMT_TRBLIMITR_FM_WRAP);
    then = [&](const sw_trbe_irq_info &i) {
        sw_trbe_reenable(&trbe);
        sw_trbe_write_trfcr(&trbe, i.trfcr);
    };
    trace(BUF_SIZE + 128);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].trbsr, PMT_MASK(TRBSR, WRAP) | PMT_MASK(TRBSR, IRQ));
    EXPECT_EQ(infos[0].act, SW_TRBE_ACT_SPURIOUS);
    EXPECT_EQ(infos[0].cause, SW_TRBE_CAUSE_WRAP);
    EXPECT_EQ(sw_trbe_write_pointer(&trbe), BUF + 128);
    EXPECT_TRUE(holds(BUF, BUF_SIZE, 128));
}

// RXRRWP: Stop on trigger: S, TRG, IRQ, BSC trigger: FATAL for Linux (TRG), cause trigger.
TEST_F(TrbeDriver, StopOnTriggerIsFatal)
{
    bring_up();
    enable(PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_STOP, 0x100);
    trace(0x1000, 0x200); // Detected Trigger after 0x200 bytes, Trigger Event 0x100 later
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].trbsr, PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, IRQ) |
                                  PMT_TRBSR_BSC_TRIGGER);
    EXPECT_EQ(infos[0].act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(infos[0].cause, SW_TRBE_CAUSE_TRIGGER);
    EXPECT_EQ(infos[0].trbptr, BUF + 0x300);
}

// IRQ set by software while running: neither a wrap nor a fault: SPURIOUS.
TEST_F(TrbeDriver, AnInterruptWithNoEventIsSpurious)
{
    bring_up();
    enable();
    then = [&](const sw_trbe_irq_info &i) {
        sw_trbe_reenable(&trbe);
        sw_trbe_write_trfcr(&trbe, i.trfcr);
    };
    log_expected = true; // RDJMDD: TRBSR_EL1 written while enabled
    ASSERT_EQ(hal_sysreg_write(h, HAL_TRBSR_EL1, PMT_MASK(TRBSR, IRQ)), HAL_OK);
    hal_irq_enable(h);
    hal_irq_disable(h);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].act, SW_TRBE_ACT_SPURIOUS);
    EXPECT_EQ(infos[0].cause, SW_TRBE_CAUSE_OTHER);
    EXPECT_TRUE(sw_trbe_is_enabled(&trbe));
    trace(64);
    EXPECT_EQ(sw_trbe_write_pointer(&trbe), BUF + 64);
}

// arm_trbe_update_buffer: the buffer filled while IRQs were masked; the end of the session finds
// the pending interrupt, clears it and classifies it; the handler then has nothing to do.
TEST_F(TrbeDriver, UpdateBufferHandlesThePendingInterrupt)
{
    bring_up();
    enable();
    trace(BUF_SIZE, HAL_NO_TRIGGER, false);
    EXPECT_TRUE(hal_core_line(hc, SW_TRBE_INTID));
    sw_trbe_irq_info i;
    ASSERT_EQ(sw_trbe_update_buffer(&trbe, &i), SW_OK);
    EXPECT_TRUE(i.was_enabled);
    EXPECT_TRUE(i.irq);
    EXPECT_EQ(i.act, SW_TRBE_ACT_WRAP);
    EXPECT_FALSE(hal_core_line(hc, SW_TRBE_INTID));
    hal_irq_enable(h);
    EXPECT_TRUE(infos.empty());
    sw_trbe_irq_info none;
    EXPECT_EQ(sw_trbe_irq(&trbe, &none), SW_IRQ_NONE); // IRQ_NONE
    EXPECT_EQ(trbe.irqs_none, 1u);
    // A second update finds the unit disabled: truncated, nothing pending.
    ASSERT_EQ(sw_trbe_update_buffer(&trbe, &i), SW_OK);
    EXPECT_FALSE(i.was_enabled);
    EXPECT_FALSE(i.irq);
}

// The end of a session without an event: the trace is at [base, TRBPTR) after the drain.
TEST_F(TrbeDriver, UpdateBufferDrainsThePartialUnit)
{
    bring_up();
    enable();
    trace(100);
    sw_trbe_irq_info i;
    ASSERT_EQ(sw_trbe_update_buffer(&trbe, &i), SW_OK);
    EXPECT_FALSE(i.irq);
    EXPECT_EQ(i.trbptr, BUF + 100); // TSB CSYNC wrote the partly filled unit
    EXPECT_TRUE(holds(BUF, 0, 100));
    EXPECT_FALSE(sw_trbe_is_enabled(&trbe));
}

// The drain-after-disable erratum (pmt_trbe_config.erratum_drain_after_disable, Cortex-A510
// erratum 2064142): trbe_reset_local drains and then disables; on an affected unit the writes
// that follow the disable are ignored unless the driver drains after disabling too
// (TRBE_NEEDS_DRAIN_AFTER_DISABLE). Without the workaround the reset leaves TRBPTR_EL1 as it was.
TEST_F(TrbeDriver, DrainAfterDisableErratumWithoutTheWorkaround)
{
    cfg.pe.trbe.erratum_drain_after_disable = true;
    bring_up();
    enable();
    trace(0x100);
    log_expected = true;
    ASSERT_EQ(sw_trbe_reset_local(&trbe), SW_OK);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF + 0x100); // the reset's writes were ignored
    bool named = false;
    for (const std::string &l : log_lines)
        named = named || l.find("ARM64_WORKAROUND_2064142") != std::string::npos;
    EXPECT_TRUE(named);
}

TEST_F(TrbeDriver, DrainAfterDisableErratumWithTheWorkaround)
{
    cfg.pe.trbe.erratum_drain_after_disable = true;
    bring_up();
    trbe.erratum_drain_after_disable = true;
    enable();
    trace(0x100);
    ASSERT_EQ(sw_trbe_reset_local(&trbe), SW_OK);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), 0u);
    EXPECT_EQ(peek(HAL_TRBLIMITR_EL1), 0u);
}

// The context-synchronization-after-enable erratum (pmt_trbe_config.
// erratum_ctxt_sync_after_enable, Cortex-A510 erratum 2038923): the enable's single ISB
// (set_trbe_enabled) is followed by the exception return to EL0, and the PE keeps the view of
// the prohibited regions it had at EL1 while EL0 runs. Architecturally the trace of EL0 follows
// TRFCR_EL1.E0TRE (D6.6 SYPWVJ); the driver's workaround (TRBE_NEEDS_CTXT_SYNC_AFTER_ENABLE) is
// a second ISB after the enable.
class TrbeDriverCtxtSync : public TrbeDriver
{
  protected:
    // The session: trace allowed at EL0 only (or at EL1 only), the unit enabled at EL1, then
    // n bytes of trace at EL0.
    void session(uint64_t trfcr, bool workaround, size_t n)
    {
        cfg.pe.trbe.erratum_ctxt_sync_after_enable = true;
        bring_up();
        trbe.erratum_ctxt_sync_after_enable = workaround;
        sw_trbe_write_trfcr(&trbe, trfcr);
        enable();
        trace(n);
    }
    bool named()
    {
        for (const std::string &l : log_lines)
            if (l.find("ARM64_WORKAROUND_2038923") != std::string::npos)
                return true;
        return false;
    }
};

// Without the workaround, EL1 prohibited and EL0 allowed: the PE still sees trace prohibited at
// EL0, and the session's trace is missing.
TEST_F(TrbeDriverCtxtSync, WithoutTheWorkaroundTheTraceOfEl0IsMissing)
{
    log_expected = true;
    session(PMT_MASK(TRFCR_EL1, E0TRE), false, 0x100);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF);
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 0x100u);
    EXPECT_TRUE(named());
}

// Without the workaround, EL1 allowed and EL0 prohibited: trace the architecture prohibits
// reaches the buffer.
TEST_F(TrbeDriverCtxtSync, WithoutTheWorkaroundProhibitedTraceIsWritten)
{
    log_expected = true;
    session(PMT_MASK(TRFCR_EL1, E1TRE), false, 0x100);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF + 0x100);
    EXPECT_TRUE(holds(BUF, 0, 0x100));
    EXPECT_TRUE(named());
}

// With the workaround: the architectural result both ways, and nothing logged.
TEST_F(TrbeDriverCtxtSync, WithTheWorkaroundTheTraceOfEl0IsWritten)
{
    session(PMT_MASK(TRFCR_EL1, E0TRE), true, 0x100);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF + 0x100);
    EXPECT_TRUE(holds(BUF, 0, 0x100));
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 0u);
}

TEST_F(TrbeDriverCtxtSync, WithTheWorkaroundProhibitedTraceIsNotWritten)
{
    session(PMT_MASK(TRFCR_EL1, E1TRE), true, 0x100);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF);
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 0x100u);
}

// The workaround is one more ISB right after the enabling write.
TEST_F(TrbeDriverCtxtSync, TheWorkaroundIsASecondIsbAfterTheEnable)
{
    cfg.pe.trbe.erratum_ctxt_sync_after_enable = true;
    bring_up();
    trbe.erratum_ctxt_sync_after_enable = true;
    const size_t from = accesses.size();
    enable();
    std::vector<std::string> s = seq(from, false);
    auto last = std::find(s.rbegin(), s.rend(), "W TRBLIMITR_EL1"); // the write that sets E
    ASSERT_NE(last, s.rend());
    std::vector<std::string> after(last.base(), s.end());
    EXPECT_EQ(after, (std::vector<std::string>{"ISB", "ISB"}));
}

} // namespace

namespace
{

// The write path errata of real Trace Buffer Units (pmt_trbe_config.erratum_*) and the
// coresight-trbe workarounds (trbe_apply_work_around_before_enable). The model's errata act only
// when one handover of trace crosses the Limit pointer, which the core HAL's run never does (it
// stops at the unit's headroom): these tests hand the trace to the model as a trace unit would,
// in one piece.
class TrbeDriverErrata : public TrbeDriver
{
  protected:
    // Byte k of the stream: no period of 256 (sw_loop_trace_byte's), so that bytes a buffer's
    // length apart differ.
    static uint8_t byte(uint64_t k) { return static_cast<uint8_t>(k ^ (k >> 8) ^ 0x5A); }
    // n bytes of the stream in one pmt_trbe_trace call.
    void trace_at_once(size_t n)
    {
        std::vector<uint8_t> b(n);
        for (size_t i = 0; i < n; i++)
            b[i] = byte(pos + i);
        pos += n;
        ASSERT_EQ(pmt_trbe_trace(hal_core_pe(hc), b.data(), b.size(), nullptr), PMT_OK);
    }
    // RAM [va, va + n) holds stream bytes from `from` on.
    bool holds(uint64_t va, uint64_t from, size_t n)
    {
        std::vector<uint8_t> got(n);
        if (hal_mem_read(h, va, got.data(), n) != HAL_OK)
            return false;
        for (size_t i = 0; i < n; i++)
            if (got[i] != byte(from + i))
                return false;
        return true;
    }
    uint8_t ram_byte(uint64_t va)
    {
        uint8_t v = 0;
        EXPECT_EQ(hal_mem_read(h, va, &v, 1), HAL_OK);
        return v;
    }
};

// Overwrite in Fill mode: without the workaround the unit's extra bytes overwrite the start of
// the session's trace at TRBBASER_EL1.
TEST_F(TrbeDriverErrata, OverwriteFillModeWithoutTheWorkaroundCorruptsTheStart)
{
    cfg.pe.trbe.erratum_fill_overwrite = true;
    log_expected = true;
    bring_up();
    enable();
    trace_at_once(BUF_SIZE + 0x100);
    EXPECT_FALSE(holds(BUF, 0, 0x100)); // the session's first bytes are gone
    EXPECT_TRUE(holds(BUF, BUF_SIZE, 0x100));
}

// With the workaround the session starts 256 bytes after TRBBASER_EL1 (the page-aligned write
// pointer): what the unit overwrites is not trace of the session, which is whole.
TEST_F(TrbeDriverErrata, OverwriteFillModeWorkaroundKeepsTheSessionWhole)
{
    cfg.pe.trbe.erratum_fill_overwrite = true;
    log_expected = true;
    bring_up();
    trbe.erratum_overwrite_fill_mode = true;
    enable();
    EXPECT_EQ(peek(HAL_TRBBASER_EL1), BUF);
    EXPECT_EQ(peek(HAL_TRBPTR_EL1), BUF + 256);
    EXPECT_EQ(trbe.session_start, BUF + 256);
    trace_at_once(BUF_SIZE - 256 + 0x100);
    EXPECT_TRUE(holds(BUF + 256, 0, BUF_SIZE - 256));
    // A write pointer that is not page aligned cannot be moved so: refused.
    sw_trbe_buf b = sw_trbe_linux_buf(BUF, BUF + 0x40, BUF + BUF_SIZE);
    EXPECT_EQ(sw_trbe_enable(&trbe, &b), SW_EINVAL);
}

// Write out of range: without the workaround a wrap writes up to 64 bytes at the Limit pointer,
// past the end of the buffer.
TEST_F(TrbeDriverErrata, WriteOutOfRangeWithoutTheWorkaroundWritesPastTheBuffer)
{
    cfg.pe.trbe.erratum_write_out_of_range = true;
    log_expected = true;
    bring_up();
    const uint8_t before = ram_byte(BUF + BUF_SIZE);
    enable(PMT_TRBLIMITR_FM_WRAP);
    trace_at_once(BUF_SIZE + 0x40);
    EXPECT_TRUE(holds(BUF + BUF_SIZE, BUF_SIZE, 0x40)); // outside the buffer
    EXPECT_NE(ram_byte(BUF + BUF_SIZE), before);
}

// With the workaround TRBLIMITR_EL1.LIMIT is a page lower: the stray bytes land in the buffer's
// last page, and nothing past the buffer is written.
TEST_F(TrbeDriverErrata, WriteOutOfRangeWorkaroundKeepsTheWritesInTheBuffer)
{
    cfg.pe.trbe.erratum_write_out_of_range = true;
    log_expected = true;
    bring_up();
    trbe.erratum_write_out_of_range = true;
    const uint8_t before = ram_byte(BUF + BUF_SIZE);
    enable(PMT_TRBLIMITR_FM_WRAP);
    EXPECT_EQ(peek(HAL_TRBLIMITR_EL1) & PMT_MASK(TRBLIMITR, LIMIT), BUF + BUF_SIZE - 0x1000);
    EXPECT_EQ(trbe.session_limit, BUF + BUF_SIZE - 0x1000);
    trace_at_once(BUF_SIZE - 0x1000 + 0x40);
    EXPECT_TRUE(holds(BUF + BUF_SIZE - 0x1000, BUF_SIZE - 0x1000, 0x40)); // the spare page
    EXPECT_EQ(ram_byte(BUF + BUF_SIZE), before);
    // A buffer of one page leaves no room for the spare one: refused.
    sw_trbe_buf b = sw_trbe_linux_buf(BUF, BUF, BUF + 0x1000);
    EXPECT_EQ(sw_trbe_enable(&trbe, &b), SW_EINVAL);
}

} // namespace
