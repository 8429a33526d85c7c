// Linux's coresight-etm4x driver on an ETE with System register access, replayed step by step:
// the probe (etm4_init_arch_data with etm4_init_sysreg_access, etm_detect_os_lock,
// cpu_detect_trace_filtering), the enable (etm4_enable_hw, etm4_enable_trace_unit) and the
// disable (etm4_disable_trace_unit, etm4_disable_hw, etm4_disable_perf) of a perf session,
// with the values the driver computes from what it reads. Every access must be performed (no
// UNDEFINED, no trap) and answer as silicon would: TRCSTATR.IDLE goes to 1 before programming
// and to 0 after the enable, TRCSTATR.PMSTABLE to 1 after the disable once the trace unit's
// output has drained.
#include "ete_fixture.h"

namespace
{

// The driver's constants (coresight-etm4x.h, coresight-priv.h), for the values it checks.
constexpr uint64_t DEVARCH_ID_MASK = 0xFFF0FFFF; // ARCHITECT, PRESENT, ARCHID
constexpr uint64_t DEVARCH_ETE = 0x47705A13;     // Arm, present, ARCHID 0x5A13
constexpr unsigned OSLOCK_PE = 0x4;              // OSLM 0b100
constexpr uint64_t CLAIM_SELF_HOSTED = 1u << 1;
constexpr uint64_t CLAIM_EXTERNAL = 1u << 0;
constexpr uint64_t TRCRSR_TA = 1u << 12;
constexpr uint64_t TRFCR_TS_VIRTUAL = 1u << 5, TRFCR_E1TRE = 1u << 1, TRFCR_E0TRE = 1u << 0;

class EteLinux : public EteTest
{
  protected:
    // What the probe records.
    struct Drvdata {
        bool trcbb, trccond, trccci, retstack, instrp0, trc_error, syncpr, stallctl;
        unsigned nr_event, q_support, ts_size, ctxid_size, vmid_size, ccsize, ccitmin;
        unsigned s_ex_level, ns_ex_level, nr_pe, nr_addr_cmp, nr_pe_cmp, nr_resource;
        unsigned nr_ss_cmp, numcidc, numvmidc, nr_ext_inp, numextinsel, trcid_size;
        unsigned nrseqstate, nr_cntr;
        uint64_t trfcr;
    } d{};

    // Polls TRCSTATR bit `pos` until it equals `val`, as etm4x_wait_status does (with an ISB
    // between reads); `on_poll` runs after each read that did not match (the platform making
    // progress). Returns whether it matched within the driver's budget.
    bool wait_status(unsigned pos, unsigned val, const std::function<void()> &on_poll = {})
    {
        for (int i = 0; i < 100; i++) {
            if ((rd(PMT_REG_TRCSTATR) >> pos & 1) == val)
                return true;
            if (on_poll)
                on_poll();
        }
        return false;
    }

    // A write that must be performed and, for a register software owns, read back.
    void w(pmt_reg_id id, uint64_t v, unsigned n = 0, bool check = true)
    {
        ASSERT_EQ(write(id, v, n), PMT_ACCESS_OK) << pmt_reg_name(id) << n;
        if (check) {
            EXPECT_EQ(rd(id, n), v) << pmt_reg_name(id) << n;
        }
    }

    void probe()
    {
        // cpu_supports_sysreg_trace: ID_AA64DFR0_EL1.TraceVer > 0.
        uint64_t dfr0, dfr1;
        ASSERT_EQ(pmt_pe_id_aa64dfr(pe, &dfr0, &dfr1), PMT_OK);
        ASSERT_GT(PMT_GET(DFR0, TraceVer, dfr0), 0u);
        // etm4_init_sysreg_access: TRCDEVARCH says ETE.
        ASSERT_EQ(rd(PMT_REG_TRCDEVARCH) & DEVARCH_ID_MASK, DEVARCH_ETE);
        // etm_detect_os_lock: OSLM from bits 4, 3 and 0.
        uint64_t oslsr = rd(PMT_REG_TRCOSLSR);
        unsigned oslm = (unsigned)((oslsr >> 4 & 1) << 2 | (oslsr >> 3 & 1) << 1 | (oslsr & 1));
        ASSERT_EQ(oslm, OSLOCK_PE);
        // etm4_os_unlock_csa: the PE OS Lock (OSLAR_EL1 is the CPU's).
        os_lock(false);
        ASSERT_EQ(PMT_GET(TRCOSLSR, OSLK, rd(PMT_REG_TRCOSLSR)), 0u);
        uint64_t idr0 = rd(PMT_REG_TRCIDR0), idr2 = rd(PMT_REG_TRCIDR2);
        uint64_t idr3 = rd(PMT_REG_TRCIDR3), idr4 = rd(PMT_REG_TRCIDR4);
        uint64_t idr5 = rd(PMT_REG_TRCIDR5);
        d.instrp0 = PMT_GET(TRCIDR0, INSTP0, idr0) == 3;
        d.trcbb = PMT_GET(TRCIDR0, TRCBB, idr0);
        d.trccond = PMT_GET(TRCIDR0, TRCCOND, idr0);
        d.trccci = PMT_GET(TRCIDR0, TRCCCI, idr0);
        d.retstack = PMT_GET(TRCIDR0, RETSTACK, idr0);
        d.nr_event = (unsigned)PMT_GET(TRCIDR0, NUMEVENT, idr0);
        d.q_support = (unsigned)PMT_GET(TRCIDR0, QSUPP, idr0);
        d.ts_size = (unsigned)PMT_GET(TRCIDR0, TSSIZE, idr0);
        d.ctxid_size = (unsigned)PMT_GET(TRCIDR2, CIDSIZE, idr2);
        d.vmid_size = (unsigned)PMT_GET(TRCIDR2, VMIDSIZE, idr2);
        d.ccsize = (unsigned)PMT_GET(TRCIDR2, CCSIZE, idr2);
        d.ccitmin = (unsigned)PMT_GET(TRCIDR3, CCITMIN, idr3);
        d.s_ex_level = (unsigned)PMT_GET(TRCIDR3, EXLEVEL_S, idr3);
        d.ns_ex_level = (unsigned)(idr3 >> 20 & 0xF);
        d.trc_error = PMT_GET(TRCIDR3, TRCERR, idr3);
        d.syncpr = PMT_GET(TRCIDR3, SYNCPR, idr3);
        d.stallctl = PMT_GET(TRCIDR3, STALLCTL, idr3);
        d.nr_pe = (unsigned)((idr3 >> 12 & 3) << 3 | (idr3 >> 28 & 7));
        d.nr_addr_cmp = (unsigned)PMT_GET(TRCIDR4, NUMACPAIRS, idr4);
        d.nr_pe_cmp = (unsigned)PMT_GET(TRCIDR4, NUMPC, idr4);
        d.nr_resource = (unsigned)PMT_GET(TRCIDR4, NUMRSPAIR, idr4);
        if (d.nr_resource > 0) // ETE (v4.3 and later): 0 means none
            d.nr_resource += 1;
        d.nr_ss_cmp = (unsigned)PMT_GET(TRCIDR4, NUMSSCC, idr4);
        d.numcidc = (unsigned)PMT_GET(TRCIDR4, NUMCIDC, idr4);
        d.numvmidc = (unsigned)PMT_GET(TRCIDR4, NUMVMIDC, idr4);
        d.nr_ext_inp = (unsigned)PMT_GET(TRCIDR5, NUMEXTIN, idr5);
        d.numextinsel = (unsigned)PMT_GET(TRCIDR5, NUMEXTINSEL, idr5);
        d.trcid_size = (unsigned)PMT_GET(TRCIDR5, TRACEIDSIZE, idr5);
        d.nrseqstate = (unsigned)PMT_GET(TRCIDR5, NUMSEQSTATE, idr5);
        d.nr_cntr = (unsigned)PMT_GET(TRCIDR5, NUMCNTR, idr5);
        // coresight_clear_self_claim_tag_unlocked.
        w(PMT_REG_TRCCLAIMCLR, CLAIM_SELF_HOSTED, 0, false);
        // cpu_detect_trace_filtering: TraceFilt -> TRFCR value for the session.
        if (PMT_GET(DFR0, TraceFilt, dfr0))
            d.trfcr = TRFCR_TS_VIRTUAL | TRFCR_E1TRE | TRFCR_E0TRE;
    }

    // What etm4_parse_event_config leaves in struct etmv4_config for the fields below (the
    // rest as enable_hw writes them).
    struct Config {
        uint64_t cfg = (1u << 6) | (1u << 4); // CID and CCI
        uint64_t ts_ctrl = 0;
        uint64_t cntrldvr[4] = {}, cntr_ctrl[4] = {}, cntr_val[4] = {};
        uint64_t res_ctrl[32] = {};
    } config;

    // etm4_config_timestamp_event (perf's cs_etm/timestamp/, on by default): a counter not yet
    // initialised (cntr_val 0), a free resource selector from 2 on; the counter at 1, reloading
    // 1, in Self-reload mode counting resource 1 (TRUE); the selector group 0b0010 with the
    // counter's bit; TRCTSCTLR the selector. Then TRCCONFIGR.TS. Returns the driver's error.
    int config_timestamp_event()
    {
        if (!d.nr_cntr)
            return -22; // -EINVAL: the session is refused
        unsigned ctridx = 0;
        while (ctridx < d.nr_cntr && config.cntr_val[ctridx] != 0)
            ctridx++;
        if (ctridx == d.nr_cntr)
            return -28; // -ENOSPC
        unsigned rselector = 2;
        while (rselector < d.nr_resource * 2 && config.res_ctrl[rselector])
            rselector++;
        if (rselector == d.nr_resource * 2)
            return -28;
        const unsigned counter = 1u << ctridx;
        config.cntr_val[ctridx] = 1;
        config.cntrldvr[ctridx] = 1;
        config.cntr_ctrl[ctridx] = 0x1u << 16 | 0x0u << 7 | 0x1u;
        config.res_ctrl[rselector] = 0x2u << 16 | counter << 0;
        config.ts_ctrl = 0x0u << 7 | rselector;
        config.cfg |= 1u << 11; // TRCCONFIGR_TS
        return 0;
    }

    // etm4_enable_hw for a perf session with context ID tracing and cycle accuracy, no
    // address filters (the default filter: trace everything, SSSTATUS = 1), and `config`.
    uint64_t vinst_ctrl = 0;
    void enable_hw(unsigned trcid, bool vhe = false)
    {
        os_lock(false);
        // coresight_claim_device_unlocked.
        ASSERT_EQ(rd(PMT_REG_TRCCLAIMCLR) & (CLAIM_SELF_HOSTED | CLAIM_EXTERNAL), 0u);
        w(PMT_REG_TRCCLAIMSET, CLAIM_SELF_HOSTED, 0, false);
        ASSERT_EQ(rd(PMT_REG_TRCCLAIMCLR), CLAIM_SELF_HOSTED);
        w(PMT_REG_TRCPRGCTLR, 0);
        ASSERT_TRUE(wait_status(0, 1)); // TRCSTATR.IDLE up
        // Bit 0 and VMIDOPT (TRCIDR2.VMIDOPT = 0b10) read as RES1.
        w(PMT_REG_TRCCONFIGR, config.cfg, 0, false);
        EXPECT_EQ(rd(PMT_REG_TRCCONFIGR), (1u << 15) | config.cfg | 1u);
        w(PMT_REG_TRCAUXCTLR, 0);
        w(PMT_REG_TRCEVENTCTL0R, 0);
        w(PMT_REG_TRCEVENTCTL1R, 0);
        if (d.stallctl)
            w(PMT_REG_TRCSTALLCTLR, 0);
        w(PMT_REG_TRCTSCTLR, config.ts_ctrl);
        w(PMT_REG_TRCSYNCPR, 0xC);
        w(PMT_REG_TRCCCCTLR, 0x100 < d.ccitmin ? d.ccitmin : 0x100);
        w(PMT_REG_TRCBBCTLR, 0);
        w(PMT_REG_TRCTRACEIDR, trcid);
        // etm4_get_access_type: a non-VHE kernel excludes EXLEVEL_NS_EL2 (hyp); every Secure
        // EL the unit has is excluded.
        vinst_ctrl = 0x01 | PMT_MASK(TRCVICTLR, SSSTATUS) |
                     (uint64_t)d.s_ex_level << PMT_TRCVICTLR_EXLEVEL_S_SHIFT |
                     uint64_t{vhe ? 0u : 0x4u} << PMT_TRCVICTLR_EXLEVEL_NS_SHIFT;
        w(PMT_REG_TRCVICTLR, vinst_ctrl);
        w(PMT_REG_TRCVIIECTLR, 0);
        w(PMT_REG_TRCVISSCTLR, 0);
        ASSERT_EQ(d.nr_pe_cmp + d.nrseqstate + d.nr_ss_cmp, 0u);
        if (d.numextinsel)
            w(PMT_REG_TRCEXTINSELR, 0); // config->ext_inp, to TRCEXTINSELR (= TRCEXTINSELR0)
        for (unsigned i = 0; i < d.nr_cntr; i++) {
            w(PMT_REG_TRCCNTRLDVR, config.cntrldvr[i], i);
            w(PMT_REG_TRCCNTCTLR, config.cntr_ctrl[i], i);
            w(PMT_REG_TRCCNTVR, config.cntr_val[i], i);
        }
        for (unsigned i = 2; i < d.nr_resource * 2; i++)
            w(PMT_REG_TRCRSCTLR, config.res_ctrl[i], i);
        for (unsigned i = 0; i < d.nr_addr_cmp * 2; i++) {
            w(PMT_REG_TRCACVR, 0, i);
            w(PMT_REG_TRCACATR, 0, i);
        }
        for (unsigned i = 0; i < d.numcidc; i++)
            w(PMT_REG_TRCCIDCVR, 0, i);
        w(PMT_REG_TRCCIDCCTLR0, 0);
        if (d.numcidc > 4)
            w(PMT_REG_TRCCIDCCTLR1, 0);
        for (unsigned i = 0; i < d.numvmidc; i++)
            w(PMT_REG_TRCVMIDCVR, 0, i);
        w(PMT_REG_TRCVMIDCCTLR0, 0);
        if (d.numvmidc > 4)
            w(PMT_REG_TRCVMIDCCTLR1, 0);
        // etm4_enable_trace_unit: TRCRSR before enabling (ETE), allow trace, enable.
        w(PMT_REG_TRCRSR, TRCRSR_TA);
        w(PMT_REG_TRFCR_EL1, d.trfcr);
        w(PMT_REG_TRCPRGCTLR, 1);
        ASSERT_TRUE(wait_status(0, 0)); // TRCSTATR.IDLE down
    }

    // etm4_disable_perf -> etm4_disable_hw -> etm4_disable_trace_unit. Returns SSSTATUS as
    // etm4_disable_perf saves it.
    bool disable_hw(const std::function<void()> &on_poll = {})
    {
        uint64_t control = rd(PMT_REG_TRCPRGCTLR) & ~uint64_t{1};
        w(PMT_REG_TRFCR_EL1, d.trfcr & ~(TRFCR_E1TRE | TRFCR_E0TRE)); // etm4x_prohibit_trace
        w(PMT_REG_TRCPRGCTLR, control);
        EXPECT_TRUE(wait_status(1, 1, on_poll)); // TRCSTATR.PMSTABLE up
        // etm4_disable_hw: "read back the current counter values".
        for (unsigned i = 0; i < d.nr_cntr; i++)
            config.cntr_val[i] = rd(PMT_REG_TRCCNTVR, i);
        w(PMT_REG_TRCCLAIMCLR, CLAIM_SELF_HOSTED, 0, false); // coresight_disclaim_device
        EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 0u);
        return PMT_GET(TRCVICTLR, SSSTATUS, rd(PMT_REG_TRCVICTLR));
    }
};

TEST_F(EteLinux, ProbeReadsWhatTheModelImplements)
{
    make_ete();
    at(1);
    probe();
    EXPECT_FALSE(d.instrp0);
    EXPECT_TRUE(d.trcbb);
    EXPECT_FALSE(d.trccond);
    EXPECT_TRUE(d.trccci);
    EXPECT_FALSE(d.retstack);
    EXPECT_EQ(d.nr_event, 3u);
    EXPECT_EQ(d.q_support, 0u);
    EXPECT_EQ(d.ts_size, 8u);
    EXPECT_EQ(d.ctxid_size, 4u);
    EXPECT_EQ(d.vmid_size, 4u);
    EXPECT_EQ(d.ccitmin, 4u);
    EXPECT_EQ(d.s_ex_level, 0xBu);
    EXPECT_EQ(d.ns_ex_level, 0x7u);
    EXPECT_TRUE(d.trc_error);
    EXPECT_FALSE(d.syncpr);
    EXPECT_FALSE(d.stallctl);
    EXPECT_EQ(d.nr_pe, 0u);
    EXPECT_EQ(d.nr_addr_cmp, 4u);
    EXPECT_EQ(d.nr_resource, 8u);
    EXPECT_EQ(d.numcidc, 1u);
    EXPECT_EQ(d.numvmidc, 1u);
    EXPECT_EQ(d.trcid_size, 7u);
    EXPECT_EQ(d.numextinsel, 4u);
    EXPECT_EQ(d.nr_ext_inp, 0x1FFu);
    EXPECT_EQ(d.nr_cntr, 2u); // two Counters (ete.num_counters)
    EXPECT_EQ(d.nrseqstate, 0u);
    EXPECT_EQ(d.trfcr, TRFCR_TS_VIRTUAL | TRFCR_E1TRE | TRFCR_E0TRE);
    EXPECT_EQ(rd(PMT_REG_TRCCLAIMCLR), 0u);
}

TEST_F(EteLinux, PerfSessionEnableTraceDisable)
{
    make_ete();
    at(1); // a non-VHE kernel at Non-secure EL1
    probe();
    enable_hw(0x10);
    // What the session traces: Non-secure EL0 and EL1, not EL2.
    EXPECT_TRUE(ete_active(pe));
    EXPECT_EQ(traced(0xFFFF800010000000, 0xFFFF800010000010).size(), 5u);
    at(0);
    EXPECT_EQ(traced(0x400000, 0x400008).size(), 3u);
    at(2);
    EXPECT_FALSE(ete_active(pe)); // TRFCR_EL2.E2TRE is 0: trace prohibited at EL2
    at(1);
    ete_options o;
    ete_get_options(pe, &o);
    EXPECT_TRUE(o.context_id);
    EXPECT_TRUE(o.cycle_counting);
    EXPECT_EQ(o.cc_threshold, 0x100u);
    EXPECT_EQ(o.sync_period_log2, 12u);
    EXPECT_EQ(o.trace_id, 0x10u);
    EXPECT_EQ(o.timestamp, ETE_TS_NONE);
    EXPECT_TRUE(disable_hw()); // SSSTATUS stays 1
    EXPECT_TRUE(idle());
    EXPECT_FALSE(ete_active(pe));
    EXPECT_TRUE(log_lines.empty()) << log_lines.front();
}

TEST_F(EteLinux, DisableFindsTheUnitIdleAtTheFirstPoll)
{
    make_ete();
    at(1);
    probe();
    enable_hw(0x10);
    int polls = 0;
    // The unit outputs its trace as the write disables it (ete_trace.c): the driver's poll of
    // TRCSTATR.PMSTABLE succeeds at once.
    disable_hw([&] { ++polls; });
    EXPECT_EQ(polls, 0);
    EXPECT_TRUE(idle());
    // A second session on the same unit.
    enable_hw(0x12);
    EXPECT_TRUE(ete_active(pe));
}

TEST_F(EteLinux, VheKernelAtEl2)
{
    make_ete(); // the kernel at EL2 with HCR_EL2.E2H
    state([](pmt_pe_state &s) { s.hcr_e2h = true; });
    probe();
    d.trfcr |= PMT_MASK(TRFCR_EL2, CX); // is_kernel_in_hyp_mode: CONTEXTIDR_EL2
    // With E2H, TRFCR_EL1 at EL2 is TRFCR_EL2: E1TRE is E2TRE there.
    enable_hw(0x20, true);
    EXPECT_TRUE(ete_active(pe));
    EXPECT_EQ(traced(0x1000, 0x1004).size(), 2u); // the kernel at EL2 is traced
    disable_hw();
    EXPECT_TRUE(idle());
}

// perf's cs_etm/timestamp/ (set by default): etm4_config_timestamp_event needs a counter
// (TRCIDR5.NUMCNTR > 0) and a free resource selector. With the model's two counters the session
// is accepted: counter 0 and resource selector 2, every access of the enable performed, and
// TRCTSCTLR's event is "counter 0 is zero", which the counter reaches at every second point.
TEST_F(EteLinux, TimestampOptionGetsACounterAndAResourceSelector)
{
    make_ete();
    at(1);
    probe();
    ASSERT_EQ(config_timestamp_event(), 0);
    EXPECT_EQ(config.ts_ctrl, 2u);
    EXPECT_EQ(config.res_ctrl[2], 0x20001u);
    EXPECT_EQ(config.cntr_ctrl[0], 0x10001u);
    enable_hw(0x10);
    EXPECT_TRUE(log_lines.empty()) << log_lines.front();
    EXPECT_EQ(rd(PMT_REG_TRCTSCTLR), 2u);
    EXPECT_EQ(rd(PMT_REG_TRCRSCTLR, 2), 0x20001u);
    EXPECT_EQ(rd(PMT_REG_TRCCNTVR, 0), 1u);
    ete_options o;
    ete_get_options(pe, &o);
    EXPECT_EQ(o.ts_event, 2u);
    EXPECT_NE(o.timestamp, ETE_TS_NONE);
    // The timestamp event at points of the trace: FALSE (counter at 1), then TRUE (at zero).
    const uint64_t kernel = 0xFFFF800010000000;
    std::vector<bool> ts;
    for (int i = 0; i < 4; i++) {
        ts.push_back(ete_resource_event(pe, (unsigned)o.ts_event, kernel, 0));
        ete_counters_step(pe, kernel, 0);
    }
    EXPECT_EQ(ts, (std::vector<bool>{false, true, false, true}));
    disable_hw();
    EXPECT_EQ(config.cntr_val[0], 1u); // read back as etm4_disable_hw does
    EXPECT_TRUE(log_lines.empty()) << log_lines.front();
}

// Without counters (ete.num_counters 0) the driver refuses the option (-EINVAL), as before.
TEST_F(EteLinux, TimestampOptionRefusedWithoutCounters)
{
    cfg.ete.num_counters = 0;
    make_ete();
    at(1);
    probe();
    EXPECT_EQ(d.nr_cntr, 0u);
    EXPECT_EQ(config_timestamp_event(), -22);
}

} // namespace
