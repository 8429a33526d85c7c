// pe_fixture.h - a pmt_pe under test, reached only through the public C API.
#ifndef PMTRACE_TESTS_PE_FIXTURE_H
#define PMTRACE_TESTS_PE_FIXTURE_H

#include <gtest/gtest.h>
#include <pmtrace/pmtrace.h>

#include <string>
#include <vector>

class PeTest : public ::testing::Test
{
  protected:
    pmt_pe_config cfg = pmt_pe_config_default();
    pmt_pe *pe = nullptr;

    // Every output change, in order.
    std::vector<bool> irq_changes, cti_changes, halt_changes;
    int brbe_freezes = 0, brbe_capture_freezes = 0;
    std::vector<std::pair<bool, unsigned>> exception_changes; // pmu_exception output
    std::vector<std::pair<uint16_t, uint64_t>> exported;      // pmu_event output
    std::vector<std::string> log_lines;

    void TearDown() override { pmt_pe_destroy(pe); }

    pmt_pe_callbacks callbacks()
    {
        pmt_pe_callbacks cb{};
        cb.user = this;
        cb.pmuirq = [](void *u, bool l) { static_cast<PeTest *>(u)->irq_changes.push_back(l); };
        cb.cti_pmu_overflow = [](void *u, bool l) {
            static_cast<PeTest *>(u)->cti_changes.push_back(l);
        };
        cb.halt_request = [](void *u, bool l) {
            static_cast<PeTest *>(u)->halt_changes.push_back(l);
        };
        cb.brbe_freeze = [](void *u) { static_cast<PeTest *>(u)->brbe_freezes++; };
        cb.brbe_capture_freeze = [](void *u) { static_cast<PeTest *>(u)->brbe_capture_freezes++; };
        cb.pmu_exception = [](void *u, bool pending, unsigned target) {
            static_cast<PeTest *>(u)->exception_changes.emplace_back(pending, target);
        };
        cb.pmu_event = [](void *u, uint16_t e, uint64_t n) {
            static_cast<PeTest *>(u)->exported.emplace_back(e, n);
        };
        cb.log = [](void *u, const char *m) {
            static_cast<PeTest *>(u)->log_lines.emplace_back(m);
        };
        return cb;
    }

    // Creates the model from cfg and puts the PE at EL2, Non-secure, EL2 enabled: every PMU
    // register is accessible there and MDCR_EL2 can be written.
    void make()
    {
        pmt_pe_callbacks cb = callbacks();
        pe = pmt_pe_create(&cfg, &cb);
        ASSERT_NE(pe, nullptr) << (log_lines.empty() ? "" : log_lines.back());
        // As EL3 firmware does at boot: let lower ELs use the FEAT_PMUv3p9 registers.
        if (cfg.have_el3 && cfg.pmu_version >= PMT_PMUV3P9) {
            at(3, PMT_SS_ROOT);
            wr(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EnPM2));
        }
        at(cfg.have_el2 ? 2 : 1);
    }

    // A fresh model from cfg (for table-driven tests that need one per row).
    void remake()
    {
        pmt_pe_destroy(pe);
        pe = nullptr;
        make();
    }

    // The PE at `el` in `ss`, with EL2 enabled there when asked and possible. SCR_EL3 is what
    // makes that so (the model refuses a state whose el2_enabled contradicts SCR_EL3): NS at EL3
    // says whether EL2 is enabled, EEL2 enables Secure EL2 (with FEAT_SEL2 only); at EL3 the
    // Security state is Root with FEAT_RME, else Secure; without EL3 EL2 is always enabled.
    void at(unsigned el, pmt_security ss = PMT_SS_NONSECURE, bool el2_enabled = true,
            bool tge = false)
    {
        pmt_pe_state s{};
        s.el = static_cast<uint8_t>(el);
        s.ss = ss;
        if (el == 3)
            s.ss = cfg.have_rme ? PMT_SS_ROOT : PMT_SS_SECURE;
        bool secure = el < 3 && ss == PMT_SS_SECURE;
        s.el2_enabled =
            cfg.have_el2 && (!cfg.have_el3 || (el2_enabled && (!secure || cfg.have_sel2)));
        s.scr_ns = el == 3 ? s.el2_enabled : !secure;
        s.scr_nse = el < 3 && ss == PMT_SS_REALM;
        s.scr_eel2 = secure && s.el2_enabled;
        s.hcr_tge = tge;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    void set_debug(bool debug)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        s.debug = debug;
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    static pmt_sysreg enc(pmt_reg_id id, unsigned n = 0) { return pmt_sysreg_encode({id, n}); }

    pmt_access read(pmt_reg_id id, uint64_t *v, unsigned n = 0)
    {
        return pmt_pe_sysreg_read(pe, enc(id, n), v);
    }
    pmt_access write(pmt_reg_id id, uint64_t v, unsigned n = 0)
    {
        return pmt_pe_sysreg_write(pe, enc(id, n), v);
    }

    // Reads and writes that must succeed at the current state.
    uint64_t rd(pmt_reg_id id, unsigned n = 0)
    {
        uint64_t v = 0xDEADBEEF;
        pmt_access a = read(id, &v, n);
        EXPECT_EQ(a, PMT_ACCESS_OK) << pmt_reg_name(id) << " read: " << pmt_access_name(a);
        return v;
    }
    void wr(pmt_reg_id id, uint64_t v, unsigned n = 0)
    {
        pmt_access a = write(id, v, n);
        EXPECT_EQ(a, PMT_ACCESS_OK) << pmt_reg_name(id) << " write: " << pmt_access_name(a);
    }

    // Writes a register from EL3 (or the highest EL), then returns to the state the test had.
    void wr_high(pmt_reg_id id, uint64_t v, unsigned n = 0)
    {
        pmt_pe_state saved = pmt_pe_get_state(pe);
        at(cfg.have_el3 ? 3 : cfg.have_el2 ? 2 : 1, cfg.have_el3 ? PMT_SS_ROOT : PMT_SS_NONSECURE);
        wr(id, v, n);
        ASSERT_EQ(pmt_pe_set_state(pe, &saved), PMT_OK);
    }

    // Counter n counts `event` at Non-secure EL0, EL1 and EL2 (NSH=1) and is enabled; PMCR.E is
    // left to the test.
    void program(unsigned n, uint16_t event, uint64_t value = 0)
    {
        wr(PMT_REG_PMEVTYPER_EL0, event | PMT_MASK(PMEVTYPER, NSH), n);
        wr(PMT_REG_PMEVCNTR_EL0, value, n);
        wr(PMT_REG_PMCNTENSET_EL0, uint64_t{1} << n);
    }

    void count(uint16_t event, uint64_t n) { ASSERT_EQ(pmt_pmu_count(pe, event, n), PMT_OK); }

    // Shorthands most tests use.
    uint64_t ovs() { return rd(PMT_REG_PMOVSCLR_EL0); }
    uint64_t cnt(unsigned n) { return rd(PMT_REG_PMEVCNTR_EL0, n); }
    uint64_t ccnt() { return rd(PMT_REG_PMCCNTR_EL0); }
    uint64_t icnt() { return rd(PMT_REG_PMICNTR_EL0); }
    void pmcr(uint64_t v) { wr(PMT_REG_PMCR_EL0, v); }
    // MDCR_EL2 with HPMN = hpmn (counters >= hpmn are the second range) and other bits.
    void mdcr(unsigned hpmn, uint64_t bits)
    {
        wr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, HPMN, hpmn) | bits);
    }
    // PMCCNTR_EL0 counts at Non-secure EL0..EL2 (NSH) and is enabled, starting at value.
    void cycle_counter(uint64_t value)
    {
        wr(PMT_REG_PMCCFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
        wr(PMT_REG_PMCCNTR_EL0, value);
        wr(PMT_REG_PMCNTENSET_EL0, C);
    }
    // PMICNTR_EL0 counts at Non-secure EL0..EL2 (NSH) and is enabled, starting at value.
    void instruction_counter(uint64_t value)
    {
        wr(PMT_REG_PMICFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
        wr(PMT_REG_PMICNTR_EL0, value);
        wr(PMT_REG_PMCNTENSET_EL0, F0);
    }
    void cycles(uint64_t n) { ASSERT_EQ(pmt_pmu_cycles(pe, n), PMT_OK); }
    // Configures FEAT_PMUv3p9 with the instruction counter (call before make()).
    void use_icntr()
    {
        cfg.pmu_version = PMT_PMUV3P9;
        cfg.feat_icntr = true;
    }

    static constexpr uint64_t C = uint64_t{1} << 31;  // cycle counter bit
    static constexpr uint64_t F0 = uint64_t{1} << 32; // instruction counter bit
    static constexpr uint64_t bit(unsigned n) { return uint64_t{1} << n; }
};

#endif
