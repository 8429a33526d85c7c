// The Trace Buffer Extension end to end on the reference platform (platform/vp.h): the sw/
// drivers and apps on the host-driven CPU program the Trace Buffer Unit through system
// registers, the CPU stands in for the trace unit and feeds the work's trace bytes, the unit
// writes them through the translator and the router into RAM, TRBIRQ reaches the CPU through
// GIC INTID 22, and the trace buffer triggers reach the CTI. Each test runs one simulation (one
// process per test).
//
// Expected values come from the Arm ARM (DDI0487 M.a): D6.5 (trace buffer management), D6.3.5
// (prohibited regions), D24.4 (TRBSR_EL1, TRBLIMITR_EL1, TRBPTR_EL1, TRBTRG_EL1, TRFCR_EL1),
// H5.4 (CTI trigger allocation) and H9.5 (CTI registers). The TRBSR_EL1 layout below is typed in
// from D24.4.7, not taken from the model's headers.
#include <gtest/gtest.h>
#include <pmtrace/platform/vp.h>

#include "apps/apps.h"

#include <cstring>
#include <functional>
#include <vector>

namespace
{

using namespace pmtrace::platform;

// ---- TRBSR_EL1 (D24.4.7) and TRBLIMITR_EL1 (D24.4.3), from the register descriptions --------

constexpr uint64_t SR_IRQ = uint64_t{1} << 22;  // a trace buffer management event recorded
constexpr uint64_t SR_TRG = uint64_t{1} << 21;  // a Detected Trigger observed
constexpr uint64_t SR_WRAP = uint64_t{1} << 20; // the current write pointer wrapped
constexpr uint64_t SR_EA = uint64_t{1} << 18;   // External abort
constexpr uint64_t SR_S = uint64_t{1} << 17;    // collection stopped
constexpr uint64_t sr_ec(uint64_t ec)           // EC, bits [31:26]
{
    return ec << 26;
}
constexpr uint64_t EC_OTHER = 0x00, EC_STAGE1_ABORT = 0x24;
// MSS[5:0]: BSC for EC 0x00, FSC for EC 0x24/0x25.
constexpr uint64_t BSC_FULL = 0b000001, BSC_TRIGGER = 0b000010;
constexpr uint64_t FSC_PERMISSION_L3 = 0b001111, FSC_SYNC_EXTERNAL = 0b010000;

constexpr uint64_t LIMITR_E = 1;
constexpr uint64_t LIMITR_TM_IGNORE = 0b11u << 3;

// ---- the platform -----------------------------------------------------------------------------

constexpr uint64_t RAM = virt::ram_base;
constexpr uint64_t BUF = RAM + 0x1'0000; // a 16 KiB trace buffer, identity-translated
constexpr uint64_t BUF_SIZE = 0x4000;
constexpr uint64_t LIMIT = BUF + BUF_SIZE;
constexpr unsigned TRBE_INTID = virt::trbe_default_intid; // 22

// H9.5 register offsets in the CTI frame.
constexpr uint64_t CTICONTROL = 0x000, CTIINTACK = 0x010, CTITRIGOUTSTATUS = 0x134, CTIGATE = 0x140;
constexpr uint64_t ctiinen(unsigned n)
{
    return 0x020 + 4 * n;
}
constexpr uint64_t ctiouten(unsigned n)
{
    return 0x0A0 + 4 * n;
}

vp_config trace_vp_config()
{
    vp_config c;
    c.pe.core.num_counters = 6;
    c.pe.core.pmu_version = PMT_PMUV3P7;
    c.pe.core.common_events[0] = ~uint64_t{0};
    c.pe.core.common_events[1] = ~uint64_t{0};
    c.ram_size = 0x10'0000;
    return c;
}

// The RAM behind a physical address (the TRBE translates the buffer to itself by default).
const uint8_t *ram_at(vp &platform, uint64_t pa)
{
    return platform.ram.data() + (pa - RAM);
}

// [pa, pa + n) holds trace bytes k, k + 1, ... of the workload (sw_loop_trace_byte).
::testing::AssertionResult holds(vp &platform, uint64_t pa, uint64_t k, uint64_t n)
{
    const uint8_t *m = ram_at(platform, pa);
    for (uint64_t i = 0; i < n; i++)
        if (m[i] != sw_loop_trace_byte(k + i))
            return ::testing::AssertionFailure()
                   << "at 0x" << std::hex << pa + i << ": 0x" << unsigned{m[i]}
                   << ", expected trace byte " << std::dec << k + i;
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult zero(vp &platform, uint64_t pa, uint64_t n)
{
    const uint8_t *m = ram_at(platform, pa);
    for (uint64_t i = 0; i < n; i++)
        if (m[i] != 0)
            return ::testing::AssertionFailure()
                   << "at 0x" << std::hex << pa + i << ": 0x" << unsigned{m[i]} << ", expected 0";
    return ::testing::AssertionSuccess();
}

// A copy out of the app: bytes k, k + 1, ... of the workload.
::testing::AssertionResult stream(const std::vector<uint8_t> &b, size_t len, uint64_t k)
{
    for (size_t i = 0; i < len; i++)
        if (b[i] != sw_loop_trace_byte(k + i))
            return ::testing::AssertionFailure() << "byte " << i << " is not trace byte " << k + i;
    return ::testing::AssertionSuccess();
}

uint64_t read_sysreg(const hal *h, hal_sysreg reg)
{
    uint64_t v = 0;
    EXPECT_EQ(hal_sysreg_read(h, reg, &v), HAL_OK);
    return v;
}

// PMU counter n counts `event` at EL0 and EL1 (PMEVTYPER<n>_EL0 filters all zero).
void count_event(const hal *h, unsigned n, uint16_t event)
{
    EXPECT_EQ(hal_sysreg_write(h, hal_pmevtyper(n), event), HAL_OK);
    EXPECT_EQ(hal_sysreg_write(h, hal_pmevcntr(n), 0), HAL_OK);
    EXPECT_EQ(hal_sysreg_write(h, HAL_PMCNTENSET_EL0, uint64_t{1} << n), HAL_OK);
    EXPECT_EQ(hal_sysreg_write(h, HAL_PMCR_EL0, PMT_MASK(PMCR, E)), HAL_OK);
}

void cti_write(const hal *h, uint64_t offset, uint32_t v)
{
    EXPECT_EQ(hal_mmio_write32(h, virt::cti_base + offset, v), HAL_OK);
}
uint32_t cti_read(const hal *h, uint64_t offset)
{
    uint32_t v = 0;
    EXPECT_EQ(hal_mmio_read32(h, virt::cti_base + offset, &v), HAL_OK);
    return v;
}

// A loop of `iterations` pieces of `bytes` trace bytes each at EL0 (one iteration per piece).
void trace_loop(sw_loop &loop, uint64_t iterations, size_t bytes)
{
    sw_loop_init(&loop);
    loop.iterations = iterations;
    loop.instructions = 1000;
    loop.cycles = 1000;
    loop.trace_bytes = bytes;
}

// ---- a capture driven directly: the coresight-trbe driver calls, our own TRBIRQ handler -------

// What the handler saw at one TRBIRQ, read before it touched anything.
struct irq_record {
    unsigned intid = 0;
    bool trbirq = false; // the PE's TRBIRQ line
    uint64_t trbsr = 0, trbptr = 0, trblimitr = 0, trbtrg = 0;
    sw_trbe_cause cause = SW_TRBE_CAUSE_NONE;
    sw_trbe_act act = SW_TRBE_ACT_SPURIOUS;
};

struct capture {
    vp *platform = nullptr;
    const hal *h = nullptr;
    sw_gic gic{};
    sw_trbe trbe{};
    sw_trbe_buf buf{};
    // After an event: a buffer-full restarts at the base (Linux's perf flow), a wrap or an IRQ on
    // trigger carries on (status cleared, unit re-enabled); anything else ends the capture.
    bool restart = false;
    // Run the workload with PSTATE.I set (TRBIRQ is never taken); `before_end` runs after the
    // workload, before the end of the session.
    bool masked = false;
    std::function<void()> before_end;
    std::vector<irq_record> irqs;
    // At the end, after the driver drained and disabled the unit (and, when masked, handled the
    // pending event: `end`).
    sw_trbe_irq_info end{};
    uint64_t end_trbsr = 0, end_trbptr = 0, end_trbtrg = 0;
};

uint64_t raw(capture *c, hal_sysreg reg)
{
    uint64_t v = 0;
    (void)hal_sysreg_read(c->h, reg, &v);
    return v;
}

int on_trbirq(unsigned intid, void *arg)
{
    auto *c = static_cast<capture *>(arg);
    irq_record r;
    r.intid = intid;
    r.trbirq = c->platform->pe.trbirq.read();
    r.trbsr = raw(c, HAL_TRBSR_EL1);
    r.trbptr = raw(c, HAL_TRBPTR_EL1);
    r.trblimitr = raw(c, HAL_TRBLIMITR_EL1);
    r.trbtrg = raw(c, HAL_TRBTRG_EL1);
    // arm_trbe_irq_handler: prohibit trace, drain, disable, clear IRQ.
    sw_trbe_irq_info info;
    if (sw_trbe_irq(&c->trbe, &info) == SW_IRQ_NONE)
        return SW_IRQ_NONE;
    r.cause = info.cause;
    r.act = info.act;
    c->irqs.push_back(r);
    bool resume = false;
    if (c->restart && info.cause == SW_TRBE_CAUSE_BUFFER_FULL) {
        sw_trbe_buf b = c->buf;
        b.write = b.base;
        resume = sw_trbe_enable(&c->trbe, &b) == SW_OK;
    } else if (c->restart &&
               (info.cause == SW_TRBE_CAUSE_WRAP ||
                (info.cause == SW_TRBE_CAUSE_TRIGGER && !PMT_GET(TRBSR, S, info.trbsr)))) {
        sw_trbe_clear_status(&c->trbe);
        sw_trbe_reenable(&c->trbe);
        resume = true;
    }
    if (resume)
        sw_trbe_write_trfcr(&c->trbe, info.trfcr);
    return SW_IRQ_HANDLED;
}

// Brings up the GIC and the driver, enables the buffer [BUF, LIMIT) in `fill_mode` and
// `trig_mode` with TRBPTR_EL1 at the base, allows trace at EL0 and EL1, runs the workload with
// IRQs unmasked, then prohibits trace and drains and disables the unit as perf does at the end
// of a session.
void run_capture(capture &c, const hal *h, sw_workload &w, unsigned fill_mode, unsigned trig_mode,
                 uint64_t trigger_count = 0)
{
    c.h = h;
    ASSERT_EQ(sw_gic_init(&c.gic, h, virt::gic_distributor_base, virt::gic_redistributor_base),
              SW_OK);
    ASSERT_EQ(sw_trbe_probe(&c.trbe, h), SW_OK);
    ASSERT_EQ(sw_gic_request_ppi(&c.gic, TRBE_INTID, on_trbirq, &c), SW_OK);
    c.buf = sw_trbe_linux_buf(BUF, BUF, LIMIT);
    c.buf.fill_mode = fill_mode;
    c.buf.trig_mode = trig_mode;
    c.buf.trigger_count = trigger_count;
    ASSERT_EQ(sw_trbe_enable(&c.trbe, &c.buf), SW_OK);
    sw_trbe_write_trfcr(&c.trbe, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    if (!c.masked)
        hal_irq_enable(h);
    hal_work piece;
    while (w.next(w.arg, &piece))
        ASSERT_EQ(hal_run(h, &piece), HAL_OK);
    hal_irq_disable(h);
    if (c.before_end)
        c.before_end();
    sw_trbe_write_trfcr(&c.trbe, 0);
    ASSERT_EQ(sw_trbe_update_buffer(&c.trbe, &c.end), SW_OK);
    if (!c.masked) {
        EXPECT_FALSE(c.end.irq) << "an event was left for the end of the session";
    }
    c.end_trbsr = read_sysreg(h, HAL_TRBSR_EL1);
    c.end_trbptr = read_sysreg(h, HAL_TRBPTR_EL1);
    c.end_trbtrg = read_sysreg(h, HAL_TRBTRG_EL1);
}

// After the last interrupt: nothing pending or active, TRBIRQ and the CPU's IRQ low.
void expect_quiet(vp &platform)
{
    EXPECT_FALSE(platform.pe.trbirq.read());
    EXPECT_FALSE(platform.cpu0.irq_level());
    EXPECT_EQ(platform.gic.cpu(0).hppir1(), 1023u);
    EXPECT_EQ(platform.gic.cpu(0).rpr(), 0xFFu);
    EXPECT_EQ(platform.cpu0.stats().irq_storms, 0u);
}

// ---- 1. Fill mode ------------------------------------------------------------------------------

// D6.5.2 RMBSHC (Fill mode): when the current write pointer wraps, a management event sets
// TRBSR_EL1.IRQ and WRAP, TRB_WRAP is generated, and as S was 0: S = 1 (collection stopped),
// EC = 0x00 (other buffer management event), BSC = 0b000001 (buffer filled); "the current write
// pointer will point to the Base pointer". RVHNTF/D24.4.7 WRAP: the wrap happens on the byte at
// Limit - 1, so exactly BUF_SIZE bytes are written. RVSCDV, RLRTBP: without FEAT_TRBE_EXC TRBIRQ
// is TRBSR_EL1.IRQ, a level-sensitive PPI (RTPPCF), here INTID 22, high until software clears
// IRQ. RYMVZL: once stopped, trace is discarded (the handler also prohibits it, as Linux does).
//
// The brief asked for TRBPTR_EL1 = TRBLIMITR_EL1.LIMIT here; RMBSHC says the pointer is the Base
// pointer after a buffer full event (and Linux's trbe_get_fault_act relies on it), so the test
// checks the Base pointer.
TEST(VpTrace, RMBSHC_FillModeStopsAtTheLimitWithBufferFullThroughIntid22)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024); // 20 KiB into a 16 KiB buffer
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    uint64_t trb_wrap = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_WRAP);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
        trb_wrap = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    const irq_record &r = c.irqs[0];
    EXPECT_EQ(r.intid, 22u);
    EXPECT_TRUE(r.trbirq);
    EXPECT_EQ(r.trbsr, SR_IRQ | SR_WRAP | SR_S | sr_ec(EC_OTHER) | BSC_FULL); // 0x520001
    EXPECT_EQ(r.trbptr, BUF);                                                 // the Base pointer
    EXPECT_EQ(r.trblimitr, LIMIT | LIMITR_TM_IGNORE | LIMITR_E);
    EXPECT_EQ(r.cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_EQ(r.act, SW_TRBE_ACT_WRAP);
    EXPECT_EQ(trb_wrap, 1u);
    // Taken once, acknowledged (ICC_IAR1_EL1) and ended (ICC_EOIR1_EL1).
    EXPECT_EQ(c.gic.irqs, 1u);
    EXPECT_EQ(c.gic.spurious, 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 1u);
    expect_quiet(platform);
    // Clearing IRQ leaves the rest of the syndrome; the pointer stays at the base.
    EXPECT_EQ(c.end_trbsr, SR_WRAP | SR_S | BSC_FULL);
    EXPECT_EQ(c.end_trbptr, BUF);
    // The buffer holds the first 16 KiB in order; nothing before or after it was written.
    EXPECT_TRUE(holds(platform, BUF, 0, BUF_SIZE));
    EXPECT_TRUE(zero(platform, BUF - 0x1000, 0x1000));
    EXPECT_TRUE(zero(platform, LIMIT, 0x1000));
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, BUF_SIZE);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 20u * 1024 - BUF_SIZE);
}

// RMBSHC with the `trace` app (Linux's perf AUX flow): each buffer-full interrupt collects the
// 16 KiB and restarts at the base, so 50,000 bytes cost three interrupts and none is lost; the
// interrupt is taken at the byte that filled the buffer (mid-piece: pieces are 1,000 bytes).
// RJQDJD: the TSB CSYNC at the end writes the last partial alignment unit, so TRBPTR_EL1 is
// 50,000 - 3 x 16,384 past the base.
TEST(VpTrace, RMBSHC_FillModeAppCollectsEveryByteAcrossBufferFullInterrupts)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 50, 1000);
    sw_workload w = sw_loop_workload(&loop);
    std::vector<uint8_t> out(0x10000, 0);
    sw_trace_config tc{};
    tc.base = BUF;
    tc.size = BUF_SIZE;
    tc.fill_mode = PMT_TRBLIMITR_FM_FILL;
    tc.out = out.data();
    tc.out_size = out.size();
    sw_trace_result r{};
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_trace_run(&env, &tc, &w, &r), SW_OK);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(r.irqs, 3u);
    EXPECT_EQ(r.wraps, 3u);
    EXPECT_EQ(r.spurious, 0u);
    EXPECT_EQ(r.last_cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_EQ(r.last_act, SW_TRBE_ACT_WRAP);
    // The app reports the status at the end when no event is pending then: the last restart
    // cleared it and the last 848 bytes raised no event.
    EXPECT_EQ(r.trbsr, 0u);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.bytes, 50'000u);
    ASSERT_EQ(r.out_len, 50'000u);
    EXPECT_TRUE(stream(out, r.out_len, 0));
    EXPECT_EQ(r.trbptr, BUF + 50'000 - 3 * BUF_SIZE);
    // RAM: the fourth part (bytes 49,152..49,999) over the third (32,768..49,151).
    EXPECT_TRUE(holds(platform, BUF, 3 * BUF_SIZE, 848));
    EXPECT_TRUE(holds(platform, BUF + 848, 2 * BUF_SIZE + 848, BUF_SIZE - 848));
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 3u);
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, 50'000u);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 0u);
    expect_quiet(platform);
}

// ---- 2. Wrap and Circular Buffer modes ---------------------------------------------------------

// D6.5.2 RVBDJZ (Wrap mode): each wrap is a management event: IRQ = 1, WRAP = 1, TRB_WRAP; S is
// unchanged (0), so EC and BSC stay 0 and trace goes on at the Base pointer. The handler clears
// the status and re-enables; after 40 x 1,000 bytes the buffer holds the newest 16 KiB, the
// oldest at TRBPTR_EL1.
TEST(VpTrace, RVBDJZ_WrapModeInterruptsAtEachWrapAndKeepsTheNewestTrace)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 40, 1000);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    c.restart = true;
    uint64_t trb_wrap = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_WRAP);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
        trb_wrap = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 2u);
    for (const irq_record &r : c.irqs) {
        EXPECT_EQ(r.intid, 22u);
        EXPECT_TRUE(r.trbirq);
        EXPECT_EQ(r.trbsr, SR_IRQ | SR_WRAP); // 0x500000: not stopped, EC 0, BSC 0
        EXPECT_EQ(r.trbptr, BUF);             // taken at the wrap
        EXPECT_EQ(r.cause, SW_TRBE_CAUSE_WRAP);
    }
    EXPECT_EQ(trb_wrap, 2u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 2u);
    expect_quiet(platform);
    EXPECT_EQ(c.end_trbsr, 0u); // cleared after the second wrap; nothing since
    EXPECT_EQ(c.end_trbptr, BUF + 40'000 - 2 * BUF_SIZE);
    // Bytes 32,768..39,999 at the base, then 23,616..32,767 up to the limit.
    EXPECT_TRUE(holds(platform, BUF, 2 * BUF_SIZE, 40'000 - 2 * BUF_SIZE));
    EXPECT_TRUE(
        holds(platform, BUF + 40'000 - 2 * BUF_SIZE, 40'000 - BUF_SIZE, 3 * BUF_SIZE - 40'000));
    EXPECT_TRUE(zero(platform, LIMIT, 0x1000));
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, 40'000u);
}

// D6.5.2 RGDSTS (Circular Buffer mode): a wrap only sets TRBSR_EL1.WRAP and generates TRB_WRAP;
// no management event, no interrupt. With the `trace` app: the buffer holds the newest 16 KiB,
// and the status at the end is WRAP alone.
TEST(VpTrace, RGDSTS_CircularBufferModeWrapsWithoutInterruptsAndKeepsTheNewestTrace)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 40, 1000);
    sw_workload w = sw_loop_workload(&loop);
    std::vector<uint8_t> out(0x10000, 0);
    sw_trace_config tc{};
    tc.base = BUF;
    tc.size = BUF_SIZE;
    tc.fill_mode = PMT_TRBLIMITR_FM_CIRCULAR;
    tc.out = out.data();
    tc.out_size = out.size();
    sw_trace_result r{};
    uint64_t trb_wrap = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_WRAP);
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_trace_run(&env, &tc, &w, &r), SW_OK);
        trb_wrap = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(r.irqs, 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u);
    EXPECT_TRUE(r.wrapped);
    EXPECT_EQ(r.trbsr, SR_WRAP); // 0x100000
    EXPECT_EQ(trb_wrap, 2u);     // one TRB_WRAP per wrap, at 16,384 and 32,768 bytes
    EXPECT_EQ(r.trbptr, BUF + 40'000 - 2 * BUF_SIZE);
    EXPECT_EQ(r.bytes, BUF_SIZE);
    ASSERT_EQ(r.out_len, BUF_SIZE);
    EXPECT_TRUE(stream(out, r.out_len, 40'000 - BUF_SIZE));
    EXPECT_TRUE(holds(platform, BUF, 2 * BUF_SIZE, 40'000 - 2 * BUF_SIZE));
    EXPECT_TRUE(
        holds(platform, BUF + 40'000 - 2 * BUF_SIZE, 40'000 - BUF_SIZE, 3 * BUF_SIZE - 40'000));
    expect_quiet(platform);
}

// ---- 3. Triggers ---------------------------------------------------------------------------

// Stop on trigger (TM 0b00) in Circular Buffer mode, TRBTRG_EL1 = 4,096, a Detected Trigger
// after byte 20,480 (an alignment unit boundary, so RQFGNQ's over-decrement cannot apply):
// RKSQJW sets TRG; RBQTGW decrements the Trigger Counter once per byte written; RDHLQG, RXYPYF:
// it reaches zero with byte 24,575, the Trigger Event. RXRRWP: a trace unit flush (the CPU
// buffers no trace: it completes at once), TRB_TRIG, then IRQ = 1, S = 1, EC = 0x00, BSC =
// 0b000010 (Trigger Event); "the current write pointer will point to the first byte after the
// last trace byte written", 24,576 mod 16,384 past the base. WRAP is 1 from the wrap at 16,384
// (RGDSTS). The buffer holds the 16 KiB before the Trigger Event (SDHJTB).
TEST(VpTrace, RXRRWP_StopOnTriggerStopsAfterTheTriggerCount)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 40, 1024);
    loop.trigger_after = 20'480;
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    uint64_t trb_trig = 0, trb_wrap = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_TRIG);
        count_event(h, 1, PMT_EV_TRB_WRAP);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_STOP, 4096);
        trb_trig = read_sysreg(h, hal_pmevcntr(0));
        trb_wrap = read_sysreg(h, hal_pmevcntr(1));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    const irq_record &r = c.irqs[0];
    EXPECT_EQ(r.intid, 22u);
    EXPECT_TRUE(r.trbirq);
    EXPECT_EQ(r.trbsr,
              SR_IRQ | SR_TRG | SR_WRAP | SR_S | sr_ec(EC_OTHER) | BSC_TRIGGER); // 0x720002
    EXPECT_EQ(r.trbptr, BUF + (20'480 + 4096) % BUF_SIZE);
    EXPECT_EQ(r.trbtrg, 0u);
    EXPECT_EQ(r.cause, SW_TRBE_CAUSE_TRIGGER);
    EXPECT_EQ(r.act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(trb_trig, 1u);
    EXPECT_EQ(trb_wrap, 1u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 1u);
    expect_quiet(platform);
    EXPECT_EQ(c.end_trbsr, SR_TRG | SR_WRAP | SR_S | BSC_TRIGGER);
    EXPECT_EQ(c.end_trbptr, BUF + 8192);
    // The newest 16 KiB before the Trigger Event: bytes 16,384..24,575 at the base, then
    // 8,192..16,383 up to the limit.
    EXPECT_TRUE(holds(platform, BUF, BUF_SIZE, 8192));
    EXPECT_TRUE(holds(platform, BUF + 8192, 8192, 8192));
    // Collection stopped at the Trigger Event; the handler prohibited the rest.
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, 24'576u);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 40u * 1024 - 24'576);
}

// IRQ on trigger (TM 0b01) in Fill mode, TRBTRG_EL1 = 1,024, Detected Trigger after 10,240
// bytes: RMLZZW (IRQ on trigger): after the flush, IRQ = 1 and nothing else changes (S stays 0,
// EC and BSC 0), so collection goes on; TRBPTR_EL1 is after byte 11,263 and TRBTRG_EL1 is 0
// (RBQTGW). The handler clears the status and re-enables; the buffer then fills (RMBSHC) and is
// restarted at the base for the last 4 KiB.
TEST(VpTrace, RMLZZW_IrqOnTriggerInterruptsAndCollectionContinues)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024);
    loop.trigger_after = 10'240;
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    c.restart = true;
    uint64_t trb_trig = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_TRIG);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IRQ, 1024);
        trb_trig = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 2u);
    // The Trigger Event.
    EXPECT_EQ(c.irqs[0].intid, 22u);
    EXPECT_EQ(c.irqs[0].trbsr, SR_IRQ | SR_TRG); // 0x600000
    EXPECT_EQ(c.irqs[0].trbptr, BUF + 10'240 + 1024);
    EXPECT_EQ(c.irqs[0].trbtrg, 0u);
    EXPECT_EQ(c.irqs[0].cause, SW_TRBE_CAUSE_TRIGGER);
    // The buffer full after it (TRG was cleared by the handler).
    EXPECT_EQ(c.irqs[1].intid, 22u);
    EXPECT_EQ(c.irqs[1].trbsr, SR_IRQ | SR_WRAP | SR_S | BSC_FULL);
    EXPECT_EQ(c.irqs[1].trbptr, BUF);
    EXPECT_EQ(c.irqs[1].cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_EQ(trb_trig, 1u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 2u);
    expect_quiet(platform);
    EXPECT_EQ(c.end_trbsr, 0u);
    EXPECT_EQ(c.end_trbptr, BUF + 4096);
    // Nothing lost: bytes 16,384..20,479 at the base, 4,096..16,383 above them from the first
    // pass.
    EXPECT_TRUE(holds(platform, BUF, BUF_SIZE, 4096));
    EXPECT_TRUE(holds(platform, BUF + 4096, 4096, BUF_SIZE - 4096));
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, 20u * 1024);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 0u);
}

// Ignore trigger (TM 0b11) in Fill mode, TRBTRG_EL1 = 1,024, Detected Trigger after 2,048 bytes,
// 8 KiB in all (no wrap): RKSQJW sets TRG; RBQTGW counts the counter down to zero; RLMQHK: the
// Trigger Event leaves TRBSR_EL1 unchanged and generates TRB_TRIG. No interrupt; every byte is
// written.
TEST(VpTrace, RLMQHK_IgnoredTriggerOnlySetsTrgAndCountsTrbTrig)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 8, 1024);
    loop.trigger_after = 2048;
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    uint64_t trb_trig = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_TRIG);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE, 1024);
        trb_trig = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(c.irqs.size(), 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u);
    EXPECT_EQ(c.end_trbsr, SR_TRG); // 0x200000
    EXPECT_EQ(c.end_trbtrg, 0u);
    EXPECT_EQ(trb_trig, 1u);
    EXPECT_EQ(c.end_trbptr, BUF + 8192);
    EXPECT_TRUE(holds(platform, BUF, 0, 8192));
    EXPECT_TRUE(zero(platform, BUF + 8192, BUF_SIZE - 8192));
    expect_quiet(platform);
}

// Stop on trigger in Fill mode with a Trigger Counter that outlives the buffer: TRBTRG_EL1 =
// 8,192, a Detected Trigger after 12,288 bytes (RKSQJW: TRG). RBQTGW counts 4,096 written bytes
// before the buffer fills (RMBSHC: IRQ, WRAP, S = 1, EC 0, BSC buffer full); once stopped nothing
// more is written, so the counter stays at 4,096 and there is no Trigger Event (RDHLQG): no
// TRB_TRIG, and the syndrome is the buffer full one.
TEST(VpTrace, RBQTGW_BufferFullBeforeTheCountEndsLeavesTheCounter)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024);
    loop.trigger_after = 12'288;
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    uint64_t trb_trig = 0;
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_TRIG);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_STOP, 8192);
        trb_trig = read_sysreg(h, hal_pmevcntr(0));
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    EXPECT_EQ(c.irqs[0].trbsr, SR_IRQ | SR_TRG | SR_WRAP | SR_S | BSC_FULL); // 0x720001
    EXPECT_EQ(c.irqs[0].trbptr, BUF);
    EXPECT_EQ(c.irqs[0].trbtrg, 4096u);
    EXPECT_EQ(trb_trig, 0u);
    EXPECT_EQ(c.end_trbtrg, 4096u);
    EXPECT_TRUE(holds(platform, BUF, 0, BUF_SIZE));
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 1u);
    expect_quiet(platform);
}

// RMWWHM: a Trigger Event while collection is stopped leaves TRBSR_ELx unchanged and generates
// TRB_TRIG (no flush, no second management event). Fill mode, Stop on trigger, TRBTRG_EL1 = 0,
// PSTATE.I set so the buffer full (RMBSHC) stays unhandled; a Detected Trigger after 18,432
// bytes, with the unit still enabled, sets TRG (RKSQJW) and is a Trigger Event at once (RDHLQG:
// counter zero, TRG was 0).
TEST(VpTrace, RMWWHM_TriggerEventWhileStoppedOnlyCountsTrbTrig)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024);
    loop.trigger_after = 18'432;
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    c.masked = true;
    uint64_t trbsr = 0, trbptr = 0, trb_trig = 0;
    c.before_end = [&] {
        trbsr = read_sysreg(c.h, HAL_TRBSR_EL1);
        trbptr = read_sysreg(c.h, HAL_TRBPTR_EL1);
        trb_trig = read_sysreg(c.h, hal_pmevcntr(0));
    };
    platform.run([&](const hal *h) {
        count_event(h, 0, PMT_EV_TRB_TRIG);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_STOP, 0);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(trbsr, SR_IRQ | SR_TRG | SR_WRAP | SR_S | BSC_FULL); // 0x720001
    EXPECT_EQ(trbptr, BUF);
    EXPECT_EQ(trb_trig, 1u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u);
    EXPECT_TRUE(c.end.irq);
    EXPECT_EQ(c.end.cause, SW_TRBE_CAUSE_BUFFER_FULL);
    EXPECT_TRUE(holds(platform, BUF, 0, BUF_SIZE));
    expect_quiet(platform);
}

// ---- 4. MMU fault ------------------------------------------------------------------------------

// D6.5.4 RQKLXR, RFSPBK: a stage 1 Permission fault (level 3) on the third page of the buffer.
// The write of its first byte faults: IRQ = 1, S = 1, EC = 0x24 (stage 1 Data Abort on write to
// trace buffer), FSC = 0b001111 (Permission fault, level 3), TRBPTR_EL1 the address that
// generated the fault (IGVGPB: a Fault Address Register), the page's start. IHJFLC: collection
// stops before any further trace, so nothing lands in the page. The `fault` app reports it
// (Linux: FATAL), skips the page and carries on: with 4 KiB pieces the fourth piece lands on the
// fourth page, which fills the buffer (RMBSHC).
TEST(VpTrace, RFSPBK_Stage1PermissionFaultStopsAtTheFaultingPage)
{
    vp platform("vp", trace_vp_config());
    pmt_trbe_fault f{};
    f.kind = PMT_TRBE_FAULT_PERMISSION;
    f.stage = 1;
    f.level = 3;
    platform.mmu.inject(BUF + 0x2000, 0x1000, f);
    sw_loop loop;
    trace_loop(loop, 4, 4096);
    sw_workload w = sw_loop_workload(&loop);
    sw_fault_config fc{};
    fc.base = BUF;
    fc.size = BUF_SIZE;
    sw_fault_result r{};
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_fault_run(&env, &fc, &w, &r), SW_OK);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(r.num_reports, 1u);
    const sw_fault_report &rep = r.reports[0];
    EXPECT_EQ(rep.trbsr, SR_IRQ | SR_S | sr_ec(EC_STAGE1_ABORT) | FSC_PERMISSION_L3); // 0x9042000F
    EXPECT_EQ(rep.ec, 0x24u);
    EXPECT_EQ(rep.fsc, 0x0Fu);
    EXPECT_FALSE(rep.ea);
    EXPECT_EQ(rep.trbptr, BUF + 0x2000);
    EXPECT_EQ(rep.cause, SW_TRBE_CAUSE_FAULT);
    EXPECT_EQ(rep.act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(r.faults, 1u);
    EXPECT_EQ(r.recoveries, 1u);
    EXPECT_EQ(r.wraps, 1u);
    EXPECT_FALSE(r.stopped);
    EXPECT_EQ(r.bytes, 0x3000u);
    // The two pages before the fault hold bytes 0..8,191; the faulting page nothing; the fourth
    // page the fourth piece.
    EXPECT_TRUE(holds(platform, BUF, 0, 0x2000));
    EXPECT_TRUE(zero(platform, BUF + 0x2000, 0x1000));
    EXPECT_TRUE(holds(platform, BUF + 0x3000, 0x3000, 0x1000));
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 2u); // the fault, then the buffer full
    expect_quiet(platform);
}

// ---- 5. External aborts (D6.5.5) ---------------------------------------------------------------

// The memory answers TLM_GENERIC_ERROR_RESPONSE to writes of the first 64-byte unit of the second
// page: a synchronous External abort on the write to the trace buffer.
void add_write_error(vp &platform)
{
    platform.ram.add_fault(BUF - RAM + 0x1000, 0x40, tlm::TLM_GENERIC_ERROR_RESPONSE,
                           fault_access::write);
}

vp_config ext_abort_config(pmt_trbe_ext_abort choice)
{
    vp_config c = trace_vp_config();
    c.pe.core.trbe.ext_abort = choice;
    return c;
}

// RGQWBF, D6.5.5.2 (RVKWPM): the External abort is taken as an SError exception, and TRBSR_ELx
// is not modified: no management event, collection is not stopped, the pointer moves on past
// the aborted write. One aborted write, one SError.
//
// Not checked: the bytes of page 1 after the aborted unit. How much of the buffer one write
// covers is IMPLEMENTATION DEFINED, so they may or may not have been part of the aborted write.
TEST(VpTrace, RGQWBF_ExternalAbortAsSErrorLeavesTrbsrUnchanged)
{
    vp platform("vp", ext_abort_config(PMT_TRBE_EA_SERROR));
    add_write_error(platform);
    sw_loop loop;
    trace_loop(loop, 3, 4096);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    platform.run([&](const hal *h) {
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(platform.cpu0.stats().serrors, 1u);
    EXPECT_EQ(c.irqs.size(), 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u);
    EXPECT_EQ(c.end_trbsr, 0u);
    EXPECT_EQ(c.end_trbptr, BUF + 0x3000);
    EXPECT_TRUE(holds(platform, BUF, 0, 0x1000));
    EXPECT_TRUE(zero(platform, BUF + 0x1000, 0x40)); // the memory refused it
    EXPECT_TRUE(holds(platform, BUF + 0x2000, 0x2000, 0x1000));
    expect_quiet(platform);
}

// RGQWBF, D6.5.5.4 (RXRLSC, RNZTKV), handled synchronously: EA = 1, the unit stops writing;
// as S was 0: IRQ = 1, S = 1, EC = 0b100100 (not a GPT fetch nor a stage 2 walk), FSC =
// 0b010000 (synchronous External abort, not on a walk); TRBPTR_EL1 is the address that
// generated the External abort (IGVGPB). Nothing is written after it.
TEST(VpTrace, RGQWBF_ExternalAbortReportedSynchronouslyStopsAtTheAbortingAddress)
{
    vp platform("vp", ext_abort_config(PMT_TRBE_EA_REPORT_SYNC));
    add_write_error(platform);
    sw_loop loop;
    trace_loop(loop, 3, 4096);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    platform.run([&](const hal *h) {
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    const irq_record &r = c.irqs[0];
    EXPECT_EQ(r.intid, 22u);
    EXPECT_TRUE(r.trbirq);
    EXPECT_EQ(r.trbsr, SR_IRQ | SR_EA | SR_S | sr_ec(EC_STAGE1_ABORT) | FSC_SYNC_EXTERNAL);
    EXPECT_EQ(r.trbptr, BUF + 0x1000);
    EXPECT_EQ(r.cause, SW_TRBE_CAUSE_EXTERNAL_ABORT);
    EXPECT_EQ(r.act, SW_TRBE_ACT_FATAL);
    EXPECT_EQ(platform.cpu0.stats().serrors, 0u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 1u);
    expect_quiet(platform);
    EXPECT_EQ(c.end_trbsr, SR_EA | SR_S | sr_ec(EC_STAGE1_ABORT) | FSC_SYNC_EXTERNAL);
    EXPECT_EQ(c.end_trbptr, BUF + 0x1000);
    EXPECT_TRUE(holds(platform, BUF, 0, 0x1000));
    EXPECT_TRUE(zero(platform, BUF + 0x1000, BUF_SIZE - 0x1000));
}

// RGQWBF, D6.5.5.1 (IFBNFC): an ignored External abort has the visible behavior of a write
// without one: TRBSR_ELx not modified, no SError, the pointer moves on.
TEST(VpTrace, RGQWBF_IgnoredExternalAbortHasNoVisibleEffect)
{
    vp platform("vp", ext_abort_config(PMT_TRBE_EA_IGNORE));
    add_write_error(platform);
    sw_loop loop;
    trace_loop(loop, 3, 4096);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    platform.run([&](const hal *h) {
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(platform.cpu0.stats().serrors, 0u);
    EXPECT_EQ(c.irqs.size(), 0u);
    EXPECT_EQ(c.end_trbsr, 0u);
    EXPECT_EQ(c.end_trbptr, BUF + 0x3000);
    EXPECT_TRUE(holds(platform, BUF, 0, 0x1000));
    EXPECT_TRUE(holds(platform, BUF + 0x2000, 0x2000, 0x1000));
    expect_quiet(platform);
}

// ---- 6. CTI triggers (FEAT_TRBE_EXT) -------------------------------------------------------

vp_config trbe_ext_config()
{
    vp_config c = trace_vp_config();
    c.pe.core.trbe.feat_trbe_ext = true;
    return c;
}

// Input triggers 8, 9, 10 to channels 0, 1, 2 (gated through to the matrix, so channel_events
// counts them); channel 0 to the Debug request (output 0), channel 1 to the CTI interrupt
// (output 2), channel 2 to the trace unit's input 0 (output 4).
void route_trbe_triggers(const hal *h)
{
    cti_write(h, CTICONTROL, 1); // GLBEN
    cti_write(h, ctiinen(cti_in::trbe_stopped), 1u << 0);
    cti_write(h, ctiinen(cti_in::trbe_management), 1u << 1);
    cti_write(h, ctiinen(cti_in::trbe_wrap), 1u << 2);
    cti_write(h, ctiouten(cti_out::debug_request), 1u << 0);
    cti_write(h, ctiouten(cti_out::cti_interrupt), 1u << 1);
    cti_write(h, ctiouten(cti_out::trace_in0), 1u << 2);
    cti_write(h, CTIGATE, 0x7);
}

// H5.4.9-H5.4.11 with a Fill mode buffer full (RMBSHC): S goes 0 -> 1 (Trace buffer stopped,
// input 8), IRQ goes 0 -> 1 (Trace buffer management, input 9), WRAP is set (Trace buffer wrap,
// input 10): one event each, one channel event each, one output event each. H5.4.1: the Debug
// request stays asserted (CTITRIGOUTSTATUS.TROUT0) until CTIINTACK.ACK0.
TEST(VpTrace, H5_4_9_BufferFullRaisesStoppedManagementAndWrapTriggers)
{
    vp platform("vp", trbe_ext_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    uint32_t trigout = 0, trigout_acked = 0;
    platform.run([&](const hal *h) {
        route_trbe_triggers(h);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
        trigout = cti_read(h, CTITRIGOUTSTATUS);
        cti_write(h, CTIINTACK, 1u << cti_out::debug_request);
        trigout_acked = cti_read(h, CTITRIGOUTSTATUS);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    EXPECT_EQ(c.irqs[0].trbsr, SR_IRQ | SR_WRAP | SR_S | BSC_FULL);
    EXPECT_EQ(platform.cross_trigger.channel_events(0), 1u); // stopped
    EXPECT_EQ(platform.cross_trigger.channel_events(1), 1u); // management
    EXPECT_EQ(platform.cross_trigger.channel_events(2), 1u); // wrap
    EXPECT_EQ(platform.cross_trigger.channel_events(3), 0u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::debug_request].count(), 1u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::cti_interrupt].count(), 1u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::trace_in0].count(), 1u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::restart_request].count(), 0u);
    EXPECT_EQ(trigout, 1u << cti_out::debug_request);
    EXPECT_EQ(trigout_acked, 0u);
}

// H5.4.11: the Trace buffer wrap trigger is asserted whenever the PE sets TRBSR_EL1.WRAP,
// "including when TRBSR_EL1.WRAP was previously 1" and "regardless of the trace buffer mode".
// In Circular Buffer mode (RGDSTS) two wraps give two wrap triggers, and no management or
// stopped trigger (no management event, S stays 0).
TEST(VpTrace, H5_4_11_EveryWrapRaisesTheWrapTriggerInCircularBufferMode)
{
    vp platform("vp", trbe_ext_config());
    sw_loop loop;
    trace_loop(loop, 40, 1000);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    platform.run([&](const hal *h) {
        route_trbe_triggers(h);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_CIRCULAR, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(c.irqs.size(), 0u);
    EXPECT_EQ(c.end_trbsr, SR_WRAP);
    EXPECT_EQ(platform.cross_trigger.channel_events(0), 0u);
    EXPECT_EQ(platform.cross_trigger.channel_events(1), 0u);
    EXPECT_EQ(platform.cross_trigger.channel_events(2), 2u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::trace_in0].count(), 2u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::debug_request].count(), 0u);
    EXPECT_EQ(platform.cross_trigger.out_event[cti_out::cti_interrupt].count(), 0u);
}

// H5.4.10: the Trace buffer management trigger is asserted when an event sets TRBSR_EL1.IRQ "and
// TRBSR_EL1.IRQ was previously 0". Wrap mode with PSTATE.I set: the first wrap sets IRQ (one
// management trigger), the second finds it set (none); both set WRAP (two wrap triggers,
// H5.4.11). RLRTBP, RVSCDV: TRBIRQ is a level that follows TRBSR_EL1.IRQ: held while it is set
// (INTID 22 pending in the GIC, the CPU's IRQ line high, nothing taken) and dropped when the
// driver clears it.
TEST(VpTrace, H5_4_10_ManagementTriggerOnlyWhenIrqWasClearAndTrbirqHeldWhileMasked)
{
    vp platform("vp", trbe_ext_config());
    sw_loop loop;
    trace_loop(loop, 40, 1000);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    c.masked = true;
    uint64_t trbsr = 0;
    bool line = false, cpu_irq = false;
    unsigned pending = 0;
    c.before_end = [&] {
        trbsr = read_sysreg(c.h, HAL_TRBSR_EL1);
        line = platform.pe.trbirq.read();
        cpu_irq = platform.cpu0.irq_level();
        pending = platform.gic.cpu(0).hppir1();
    };
    platform.run([&](const hal *h) {
        route_trbe_triggers(h);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(trbsr, SR_IRQ | SR_WRAP);
    EXPECT_TRUE(line);
    EXPECT_TRUE(cpu_irq);
    EXPECT_EQ(pending, 22u);
    EXPECT_EQ(platform.cpu0.stats().irqs_taken, 0u);
    EXPECT_EQ(c.irqs.size(), 0u);
    // The driver found the event at the end of the session and cleared IRQ.
    EXPECT_TRUE(c.end.irq);
    EXPECT_EQ(c.end.trbsr, SR_IRQ | SR_WRAP);
    EXPECT_EQ(c.end.trbptr, BUF + 40'000 - 2 * BUF_SIZE);
    expect_quiet(platform);
    EXPECT_EQ(platform.cross_trigger.channel_events(0), 0u); // stopped: S stays 0
    EXPECT_EQ(platform.cross_trigger.channel_events(1), 1u); // management: IRQ 0 -> 1 once
    EXPECT_EQ(platform.cross_trigger.channel_events(2), 2u); // wrap: each wrap
}

// H5.4 Table H5-2: inputs 8-10 are the trace buffer triggers only "if FEAT_TRBE_EXT is
// implemented". Without it the same buffer full reaches no CTI input.
TEST(VpTrace, H5_4_WithoutFeatTrbeExtNoTraceBufferTriggers)
{
    vp platform("vp", trace_vp_config());
    sw_loop loop;
    trace_loop(loop, 20, 1024);
    sw_workload w = sw_loop_workload(&loop);
    capture c;
    c.platform = &platform;
    platform.run([&](const hal *h) {
        route_trbe_triggers(h);
        run_capture(c, h, w, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    ASSERT_EQ(c.irqs.size(), 1u);
    for (unsigned ch = 0; ch < 4; ch++)
        EXPECT_EQ(platform.cross_trigger.channel_events(ch), 0u) << ch;
}

// ---- 7. TRFCR_EL1 filtering ------------------------------------------------------------------

// Pieces of 1 KiB, alternately at EL0 and EL1, bytes numbered across the whole run.
struct alternating {
    unsigned pieces = 8, done = 0;
    uint8_t bytes[1024];
};

bool alternating_next(void *arg, hal_work *w)
{
    auto *a = static_cast<alternating *>(arg);
    if (a->done == a->pieces)
        return false;
    for (unsigned i = 0; i < 1024; i++)
        a->bytes[i] = sw_loop_trace_byte(uint64_t{a->done} * 1024 + i);
    std::memset(w, 0, sizeof *w);
    w->el = static_cast<uint8_t>(a->done % 2);
    w->instructions = 1000;
    w->cycles = 1000;
    w->trace = a->bytes;
    w->trace_len = 1024;
    w->trigger_at = HAL_NO_TRIGGER;
    a->done++;
    return true;
}

// D6.3.5 (Trace Prohibited regions, Non-secure EL1&0 owning: the EL0 column is "E0TRE", the EL1
// column "E1TRE"), D24.4.74 TRFCR_EL1.E0TRE = 0: "Trace is prohibited at EL0"; TraceAllowed()
// (J1.3). The trace unit generates nothing for the EL0 pieces, so the buffer holds only the EL1
// pieces (bytes 1,024..2,047, 3,072..4,095, ...) one after the other.
TEST(VpTrace, TRFCR_E0treZeroLeavesTheEl0WorkUntraced)
{
    vp platform("vp", trace_vp_config());
    alternating a;
    sw_workload w{&a, alternating_next};
    std::vector<uint8_t> out(0x4000, 0);
    sw_trace_config tc{};
    tc.base = BUF;
    tc.size = BUF_SIZE;
    tc.fill_mode = PMT_TRBLIMITR_FM_FILL;
    tc.exclude_user = true; // TRFCR_EL1 = E1TRE only
    tc.out = out.data();
    tc.out_size = out.size();
    sw_trace_result r{};
    platform.run([&](const hal *h) {
        sw_env env = sw_env_virt(h);
        ASSERT_EQ(sw_trace_run(&env, &tc, &w, &r), SW_OK);
    });
    ASSERT_TRUE(platform.cpu0.finished());
    EXPECT_EQ(r.irqs, 0u);
    EXPECT_EQ(r.bytes, 4096u);
    EXPECT_EQ(r.trbptr, BUF + 4096);
    EXPECT_EQ(r.trbsr, 0u);
    ASSERT_EQ(r.out_len, 4096u);
    for (unsigned p = 0; p < 4; p++) {
        const uint64_t first = (2 * p + 1) * 1024; // the EL1 pieces: 1, 3, 5, 7
        std::vector<uint8_t> part(out.begin() + p * 1024, out.begin() + (p + 1) * 1024);
        EXPECT_TRUE(stream(part, 1024, first)) << "piece " << 2 * p + 1;
        EXPECT_TRUE(holds(platform, BUF + p * 1024, first, 1024)) << "piece " << 2 * p + 1;
    }
    EXPECT_TRUE(zero(platform, BUF + 4096, BUF_SIZE - 4096));
    EXPECT_EQ(platform.cpu0.stats().trace_bytes, 4096u);
    EXPECT_EQ(platform.cpu0.stats().trace_dropped, 4096u);
}

} // namespace
