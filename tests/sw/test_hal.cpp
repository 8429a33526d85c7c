// The HAL and its core implementation: encodings from the one source of truth, access statuses
// passed through, the small GICv3, MMIO and memory, interrupts taken at the exact event.
#include "sw_fixture.h"

#include <cstring>

namespace
{

class Hal : public SwTest
{
  protected:
    // Counter 0 overflowed with its interrupt enabled and the counters enabled: PMUIRQ is high.
    void pmu_overflow_pending()
    {
        ASSERT_EQ(hal_sysreg_write(h, HAL_PMCR_EL0, PMT_MASK(PMCR, E)), HAL_OK);
        ASSERT_EQ(hal_sysreg_write(h, HAL_PMCNTENSET_EL0, 1), HAL_OK);
        ASSERT_EQ(hal_sysreg_write(h, HAL_PMOVSSET_EL0, 1), HAL_OK);
        ASSERT_EQ(hal_sysreg_write(h, HAL_PMINTENSET_EL1, 1), HAL_OK);
    }
};

// Every HAL_<REG> and the PMEVCNTR/PMEVTYPER families are the model's encodings.
TEST_F(Hal, EncodingsAreTheModelsEncodings)
{
#define CHECK_ENCODING_(name, op0, op1, crn, crm, op2)                                             \
    EXPECT_EQ(pmt_sysreg_decode(to_pmt(HAL_##name)).id, PMT_REG_##name) << #name;
    PMT_SYSREG_LIST(CHECK_ENCODING_)
#undef CHECK_ENCODING_
    for (unsigned n = 0; n < 31; n++) {
        pmt_reg_ref c = pmt_sysreg_decode(to_pmt(hal_pmevcntr(n)));
        pmt_reg_ref t = pmt_sysreg_decode(to_pmt(hal_pmevtyper(n)));
        EXPECT_EQ(c.id, PMT_REG_PMEVCNTR_EL0);
        EXPECT_EQ(c.index, n);
        EXPECT_EQ(t.id, PMT_REG_PMEVTYPER_EL0);
        EXPECT_EQ(t.index, n);
    }
    // Linux's sys_reg() packing: PMCR_EL0 is sys_reg(3, 3, 9, 12, 0).
    EXPECT_EQ(HAL_PMCR_EL0, (3u << 19) | (3u << 16) | (9u << 12) | (12u << 8));
}

TEST_F(Hal, IdRegistersAndCurrentElAnswerFromTheModel)
{
    cfg.pe.pmu_version = PMT_PMUV3P5;
    make();
    uint64_t v = 0;
    ASSERT_EQ(hal_sysreg_read(h, HAL_ID_AA64DFR0_EL1, &v), HAL_OK);
    EXPECT_EQ(PMT_GET(DFR0, PMUVer, v), 6u);
    EXPECT_EQ(PMT_GET(DFR0, TraceBuffer, v), 1u);
    ASSERT_EQ(hal_sysreg_read(h, HAL_CURRENTEL, &v), HAL_OK);
    EXPECT_EQ(v, 1u << 2);
    EXPECT_EQ(hal_sysreg_write(h, HAL_ID_AA64DFR0_EL1, 0), HAL_UNDEFINED);
}

// Results of accesses that are UNDEFINED or trap reach the driver as statuses.
TEST_F(Hal, AccessStatusesArePassedThrough)
{
    make();
    uint64_t v = 1;
    EXPECT_EQ(hal_sysreg_read(h, HAL_MDCR_EL3, &v), HAL_UNDEFINED); // EL3 register at EL1
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(hal_sysreg_read(h, HAL_SYSREG(3, 0, 15, 15, 7), &v), HAL_UNDEFINED); // nobody's
    poke(HAL_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, 6) | PMT_MASK(MDCR_EL2, TPM), 2);
    EXPECT_EQ(hal_sysreg_read(h, HAL_PMCR_EL0, &v), HAL_TRAP_EL2);
    EXPECT_EQ(hal_sysreg_write(h, HAL_PMCR_EL0, 0), HAL_TRAP_EL2);
    ASSERT_FALSE(accesses.empty());
    EXPECT_EQ(accesses.back().status, HAL_TRAP_EL2);
}

TEST_F(Hal, MmioAndMemory)
{
    make();
    uint64_t v = 0;
    EXPECT_EQ(h->ops->mmio_read(h->ctx, 0x1000, 4, &v), HAL_NO_DEVICE);
    EXPECT_EQ(h->ops->mmio_read(h->ctx, RAM + 2, 4, &v), HAL_BUS_ERROR); // misaligned
    ASSERT_EQ(hal_mmio_write64(h, RAM + 8, 0x1122334455667788ull), HAL_OK);
    ASSERT_EQ(hal_mmio_read64(h, RAM + 8, &v), HAL_OK);
    EXPECT_EQ(v, 0x1122334455667788ull);
    uint8_t b[4];
    ASSERT_EQ(hal_mem_read(h, RAM + 8, b, 4), HAL_OK);
    EXPECT_EQ(b[0], 0x88);
    EXPECT_EQ(hal_mem_read(h, RAM + cfg.ram_size - 2, b, 4), HAL_NO_DEVICE);
    uint32_t w = 0;
    ASSERT_EQ(hal_mmio_read32(h, SW_VIRT_GICD_BASE + SW_GICD_PIDR2, &w), HAL_OK);
    EXPECT_EQ(w >> 4 & 0xF, 3u); // GICv3
}

TEST_F(Hal, RunRefusesWorkAboveTheKernelsEl)
{
    make();
    hal_work w{};
    w.el = 2;
    w.trigger_at = HAL_NO_TRIGGER;
    EXPECT_EQ(hal_run(h, &w), HAL_INVALID);
    w.el = 0;
    w.instructions = 10;
    EXPECT_EQ(hal_run(h, &w), HAL_OK);
}

// The redistributor forwards nothing until woken and enabled; a PPI that is pending is taken
// once PSTATE.I is clear, acknowledged through ICC_IAR1_EL1 and ended through ICC_EOIR1_EL1.
struct Seen {
    const hal *h;
    std::vector<unsigned> intids;
    bool clear = true;
};

TEST_F(Hal, GicDeliversAPpiThroughIarAndEoir)
{
    make();
    sw_gic gic;
    Seen seen{h, {}, true};
    auto handler = [](unsigned intid, void *arg) {
        auto *s = static_cast<Seen *>(arg);
        s->intids.push_back(intid);
        if (s->clear) { // as a device driver: clear the cause (here, the PMU overflow)
            EXPECT_EQ(hal_sysreg_write(s->h, HAL_PMOVSCLR_EL0, ~uint64_t{0}), HAL_OK);
        }
        return SW_IRQ_HANDLED;
    };
    // A PMU overflow raises PMUIRQ before the GIC is set up: nothing is taken.
    pmu_overflow_pending();
    EXPECT_TRUE(hal_core_line(hc, 23));
    EXPECT_FALSE(hal_core_irq_pending(hc));
    hal_irq_enable(h);
    EXPECT_EQ(hal_core_get_stats(hc).irqs_taken, 0u);
    hal_irq_disable(h);

    ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
    EXPECT_FALSE(hal_core_irq_pending(hc)); // PPIs are disabled after init
    ASSERT_EQ(sw_gic_request_ppi(&gic, 23, handler, &seen), SW_OK);
    EXPECT_TRUE(hal_core_irq_pending(hc));
    EXPECT_TRUE(seen.intids.empty()); // masked
    size_t m = mark();
    hal_irq_enable(h);
    EXPECT_EQ(seen.intids, std::vector<unsigned>{23});
    EXPECT_FALSE(hal_core_line(hc, 23));
    EXPECT_EQ(gic.irqs, 1u);
    EXPECT_EQ(gic.handlers[0].count, 1u);
    std::vector<std::string> s = seq(m);
    std::vector<std::string> want = {"R ICC_IAR1_EL1", "W PMOVSCLR_EL0 0xffffffffffffffff",
                                     "W ICC_EOIR1_EL1 0x17", "ISB"};
    EXPECT_EQ(s, want);
    EXPECT_EQ(hal_core_get_stats(hc).irqs_taken, 1u);
    // WFI with nothing pending returns at once.
    EXPECT_FALSE(hal_wait_for_interrupt(h));
}

// A handler that does not clear its device's line is entered again and again: the core HAL
// stops after 64 entries and counts a storm.
TEST_F(Hal, AnUnclearedLevelInterruptIsRetaken)
{
    make();
    sw_gic gic;
    Seen seen{h, {}, false};
    auto handler = [](unsigned intid, void *arg) {
        static_cast<Seen *>(arg)->intids.push_back(intid);
        return SW_IRQ_HANDLED;
    };
    ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
    ASSERT_EQ(sw_gic_request_ppi(&gic, 23, handler, &seen), SW_OK);
    pmu_overflow_pending();
    record = false;
    hal_irq_enable(h);
    hal_irq_disable(h);
    EXPECT_EQ(seen.intids.size(), 64u);
    EXPECT_EQ(hal_core_get_stats(hc).irq_storms, 1u);
}

// While an interrupt is active its priority masks interrupts of equal or lower priority; the PMR
// masks too.
TEST_F(Hal, PriorityMaskHoldsTheInterruptBack)
{
    make();
    sw_gic gic;
    ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
    Seen seen{h, {}, true};
    ASSERT_EQ(sw_gic_request_ppi(
                  &gic, 23,
                  [](unsigned i, void *a) {
                      static_cast<Seen *>(a)->intids.push_back(i);
                      EXPECT_EQ(hal_sysreg_write(static_cast<Seen *>(a)->h, HAL_PMOVSCLR_EL0, 1),
                                HAL_OK);
                      return SW_IRQ_HANDLED;
                  },
                  &seen),
              SW_OK);
    ASSERT_EQ(hal_sysreg_write(h, HAL_ICC_PMR_EL1, 0xA0), HAL_OK); // priority 0xA0 is not < 0xA0
    pmu_overflow_pending();
    hal_irq_enable(h);
    EXPECT_TRUE(seen.intids.empty());
    uint64_t hppir = 0;
    ASSERT_EQ(hal_sysreg_read(h, HAL_ICC_HPPIR1_EL1, &hppir), HAL_OK);
    EXPECT_EQ(hppir, 23u);
    ASSERT_EQ(hal_sysreg_write(h, HAL_ICC_PMR_EL1, 0xF0), HAL_OK);
    EXPECT_EQ(seen.intids, std::vector<unsigned>{23});
}

// Work is cut at the PMU's headroom: the interrupt is taken at the exact event that overflows.
TEST_F(Hal, InterruptsAreTakenAtTheExactEvent)
{
    make();
    struct Ctx {
        const hal *h;
        uint64_t at = 0;
        int n = 0;
    } ctx{h};
    sw_gic gic;
    ASSERT_EQ(sw_gic_init(&gic, h, SW_VIRT_GICD_BASE, SW_VIRT_GICR_BASE), SW_OK);
    ASSERT_EQ(sw_gic_request_ppi(
                  &gic, 23,
                  [](unsigned, void *a) {
                      auto *c = static_cast<Ctx *>(a);
                      c->n++;
                      EXPECT_EQ(hal_sysreg_read(c->h, hal_pmevcntr(1), &c->at), HAL_OK);
                      EXPECT_EQ(hal_sysreg_write(c->h, HAL_PMOVSCLR_EL0, 1), HAL_OK);
                      return SW_IRQ_HANDLED;
                  },
                  &ctx),
              SW_OK);
    // Counter 0 overflows after 1000 INST_RETIRED; counter 1 counts them too.
    ASSERT_EQ(hal_sysreg_write(h, hal_pmevtyper(0), PMT_EV_INST_RETIRED), HAL_OK);
    ASSERT_EQ(hal_sysreg_write(h, hal_pmevtyper(1), PMT_EV_INST_RETIRED), HAL_OK);
    ASSERT_EQ(hal_sysreg_write(h, hal_pmevcntr(0), 0xFFFFFFFFull - 999), HAL_OK);
    ASSERT_EQ(hal_sysreg_write(h, HAL_PMINTENSET_EL1, 1), HAL_OK);
    ASSERT_EQ(hal_sysreg_write(h, HAL_PMCNTENSET_EL0, 3), HAL_OK);
    ASSERT_EQ(hal_sysreg_write(h, HAL_PMCR_EL0, PMT_MASK(PMCR, E)), HAL_OK);
    hal_irq_enable(h);
    hal_work w{};
    w.el = 0;
    w.instructions = 5000;
    w.trigger_at = HAL_NO_TRIGGER;
    ASSERT_EQ(hal_run(h, &w), HAL_OK);
    EXPECT_EQ(ctx.n, 1);
    EXPECT_EQ(ctx.at, 1000u);
}

// The trace unit generates no trace where TRFCR prohibits it.
TEST_F(Hal, TraceIsDroppedWhereTrfcrProhibitsIt)
{
    make();
    std::vector<uint8_t> bytes(256, 0x42);
    hal_work w{};
    w.el = 0;
    w.trace = bytes.data();
    w.trace_len = bytes.size();
    w.trigger_at = HAL_NO_TRIGGER;
    ASSERT_EQ(hal_run(h, &w), HAL_OK);
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 256u);
    ASSERT_EQ(hal_sysreg_write(h, HAL_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE)), HAL_OK);
    ASSERT_EQ(hal_run(h, &w), HAL_OK);
    EXPECT_EQ(hal_core_get_stats(hc).trace_bytes, 256u);
    w.el = 1; // E1TRE is 0
    ASSERT_EQ(hal_run(h, &w), HAL_OK);
    EXPECT_EQ(hal_core_get_stats(hc).trace_dropped, 512u);
}

// The HAL is a table of functions: a HAL can wrap another (here, one that hides the PMU).
TEST_F(Hal, AHalCanWrapAnother)
{
    make();
    struct Wrap {
        const hal *inner;
        hal_ops ops;
        hal outer;
    } wrap{h, *h->ops, {}};
    wrap.ops.sysreg_read = [](void *ctx, hal_sysreg reg, uint64_t *v) {
        auto *w = static_cast<Wrap *>(ctx);
        hal_status s = hal_sysreg_read(w->inner, reg, v);
        if (reg == HAL_ID_AA64DFR0_EL1)
            *v = (*v & ~PMT_MASK(DFR0, PMUVer)) | PMT_PUT(DFR0, PMUVer, 0xF); // IMPDEF PMU
        return s;
    };
    // Every other op goes to the inner HAL's context.
    struct Fwd {
        static hal_status sw(void *c, hal_sysreg r, uint64_t v)
        {
            return hal_sysreg_write(static_cast<Wrap *>(c)->inner, r, v);
        }
        static void isb(void *c) { hal_isb(static_cast<Wrap *>(c)->inner); }
    };
    wrap.ops.sysreg_write = Fwd::sw;
    wrap.ops.isb = Fwd::isb;
    wrap.outer.ops = &wrap.ops;
    wrap.outer.ctx = &wrap;
    sw_pmu pmu;
    EXPECT_EQ(sw_pmu_probe(&pmu, &wrap.outer), SW_ENODEV);
    EXPECT_EQ(pmu.pmuver, 0xFu);
}

} // namespace
