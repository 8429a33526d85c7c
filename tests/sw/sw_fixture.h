// sw_fixture.h - the sw/ drivers and apps on the core HAL (hal_core): a pmt_pe, a small GICv3 and
// RAM, with every HAL call recorded so that tests can check register sequences.
#ifndef PMTRACE_TESTS_SW_FIXTURE_H
#define PMTRACE_TESTS_SW_FIXTURE_H

#include <gtest/gtest.h>

#include <apps/apps.h>
#include <hal/hal_core.h>

#include <string>
#include <vector>

class SwTest : public ::testing::Test
{
  protected:
    hal_core_config cfg = hal_core_config_default();
    hal_core *hc = nullptr;
    const hal *h = nullptr;
    std::vector<hal_core_access> accesses;
    std::vector<std::string> log_lines;
    bool record = true;

    static constexpr uint64_t RAM = 0x40000000;
    static constexpr uint64_t BUF = RAM + 0x10000; // a 16 KiB trace buffer
    static constexpr uint64_t BUF_SIZE = 0x4000;

    // A driver that follows the architecture makes the model log nothing (no UNPREDICTABLE
    // programming, no bad input); a test that provokes a log line says so.
    bool log_expected = false;
    void TearDown() override
    {
        if (!log_expected)
            for (const std::string &l : log_lines)
                ADD_FAILURE() << "model log: " << l;
        hal_core_destroy(hc);
    }

    void make()
    {
        cfg.user = this;
        cfg.access = [](void *u, const hal_core_access *a) {
            auto *t = static_cast<SwTest *>(u);
            if (t->record)
                t->accesses.push_back(*a);
        };
        cfg.log = [](void *u, const char *m) {
            static_cast<SwTest *>(u)->log_lines.emplace_back(m);
        };
        hc = hal_core_create(&cfg);
        ASSERT_NE(hc, nullptr);
        h = hal_core_hal(hc);
    }

    pmt_pe *pe() { return hal_core_pe(hc); }
    sw_env env() { return sw_env_virt(h); }

    // Reads a model register at EL3 (or the highest EL), where nothing traps, then returns.
    uint64_t peek(hal_sysreg reg)
    {
        pmt_pe_state saved = pmt_pe_get_state(pe());
        pmt_pe_state s{};
        s.el = 3;
        s.ss = pmt_pe_get_config(pe())->have_rme ? PMT_SS_ROOT : PMT_SS_SECURE;
        s.scr_ns = true;
        s.el2_enabled = pmt_pe_get_config(pe())->have_el2; // EL2Enabled(): SCR_EL3.NS = 1
        EXPECT_EQ(pmt_pe_set_state(pe(), &s), PMT_OK);
        uint64_t v = 0;
        EXPECT_EQ(pmt_pe_sysreg_read(pe(), to_pmt(reg), &v), PMT_ACCESS_OK);
        EXPECT_EQ(pmt_pe_set_state(pe(), &saved), PMT_OK);
        return v;
    }
    void poke(hal_sysreg reg, uint64_t v, unsigned el = 3)
    {
        pmt_pe_state saved = pmt_pe_get_state(pe());
        pmt_pe_state s{};
        s.el = static_cast<uint8_t>(el);
        s.ss = el != 3                             ? PMT_SS_NONSECURE
               : pmt_pe_get_config(pe())->have_rme ? PMT_SS_ROOT
                                                   : PMT_SS_SECURE;
        s.scr_ns = true;
        s.el2_enabled = pmt_pe_get_config(pe())->have_el2; // EL2Enabled(): SCR_EL3.NS = 1
        EXPECT_EQ(pmt_pe_set_state(pe(), &s), PMT_OK);
        EXPECT_EQ(pmt_pe_sysreg_write(pe(), to_pmt(reg), v), PMT_ACCESS_OK);
        EXPECT_EQ(pmt_pe_set_state(pe(), &saved), PMT_OK);
    }
    static pmt_sysreg to_pmt(hal_sysreg r)
    {
        return PMT_SYSREG(HAL_SYSREG_OP0(r), HAL_SYSREG_OP1(r), HAL_SYSREG_CRN(r),
                          HAL_SYSREG_CRM(r), HAL_SYSREG_OP2(r));
    }

    // The recorded accesses as text, one per line: "W PMCR_EL0 0x47", "R TRBSR_EL1", "ISB" ...
    static std::string reg_name(hal_sysreg r)
    {
        pmt_reg_ref ref = pmt_sysreg_decode(to_pmt(r));
        if (ref.id == PMT_REG_PMEVCNTR_EL0)
            return "PMEVCNTR" + std::to_string(ref.index) + "_EL0";
        if (ref.id == PMT_REG_PMEVTYPER_EL0)
            return "PMEVTYPER" + std::to_string(ref.index) + "_EL0";
        if (ref.id != PMT_REG_NONE)
            return pmt_reg_name(ref.id);
        switch (r) {
        case HAL_CURRENTEL: return "CurrentEL";
        case HAL_ID_AA64DFR0_EL1: return "ID_AA64DFR0_EL1";
        case HAL_ID_AA64DFR1_EL1: return "ID_AA64DFR1_EL1";
        case HAL_ICC_IAR1_EL1: return "ICC_IAR1_EL1";
        case HAL_ICC_EOIR1_EL1: return "ICC_EOIR1_EL1";
        default: return "?";
        }
    }
    static std::string hex(uint64_t v)
    {
        char b[24];
        snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
        return b;
    }
    // Accesses from index `from`: writes with their value, reads without, barriers by name;
    // MMIO and interrupts are left out unless asked.
    std::vector<std::string> seq(size_t from = 0, bool with_values = true)
    {
        std::vector<std::string> out;
        for (size_t i = from; i < accesses.size(); i++) {
            const hal_core_access &a = accesses[i];
            switch (a.op) {
            case HAL_CORE_SYSREG_READ: out.push_back("R " + reg_name(a.reg)); break;
            case HAL_CORE_SYSREG_WRITE:
                out.push_back("W " + reg_name(a.reg) + (with_values ? " " + hex(a.value) : ""));
                break;
            case HAL_CORE_ISB: out.push_back("ISB"); break;
            case HAL_CORE_DSB: out.push_back("DSB"); break;
            case HAL_CORE_TSB_CSYNC: out.push_back("TSB CSYNC"); break;
            default: break;
            }
        }
        return out;
    }
    size_t mark() const { return accesses.size(); }

    // A loop workload: fresh each call.
    sw_loop loop{};
    sw_workload make_loop(uint64_t iterations)
    {
        sw_loop_init(&loop);
        loop.iterations = iterations;
        return sw_loop_workload(&loop);
    }

    uint8_t ram(uint64_t pa) { return hal_core_ram(hc)[pa - RAM]; }
    // RAM at [pa, pa + n) holds loop trace bytes [k, k + n).
    ::testing::AssertionResult holds(uint64_t pa, uint64_t k, uint64_t n)
    {
        for (uint64_t i = 0; i < n; i++)
            if (ram(pa + i) != sw_loop_trace_byte(k + i))
                return ::testing::AssertionFailure()
                       << "at " << hex(pa + i) << ": " << hex(ram(pa + i)) << ", expected byte "
                       << k + i;
        return ::testing::AssertionSuccess();
    }
    static ::testing::AssertionResult stream(const std::vector<uint8_t> &b, uint64_t k)
    {
        for (size_t i = 0; i < b.size(); i++)
            if (b[i] != sw_loop_trace_byte(k + i))
                return ::testing::AssertionFailure()
                       << "byte " << i << " is not stream byte " << k + i;
        return ::testing::AssertionSuccess();
    }
};

#endif
