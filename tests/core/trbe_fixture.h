// trbe_fixture.h - a pmt_pe with a Trace Buffer Unit under test, reached only through the public
// C API, with a fake memory port: RAM as an array, faults injected by address range, every
// translation, write and output recorded.
#ifndef PMTRACE_TESTS_TRBE_FIXTURE_H
#define PMTRACE_TESTS_TRBE_FIXTURE_H

#include "pe_fixture.h"

#include <cstring>
#include <functional>
#include <map>

class TrbeTest : public PeTest
{
  protected:
    // Physical RAM of the fake platform.
    static constexpr uint64_t RAM = 0x80000000;
    static constexpr uint64_t RAM_SIZE = 1 << 20;
    // A buffer of four pages in RAM (identity mapped unless a test maps otherwise).
    static constexpr uint64_t BASE = RAM + 0x10000;
    static constexpr uint64_t LIMIT = BASE + 0x4000;

    std::vector<uint8_t> ram = std::vector<uint8_t>(RAM_SIZE, 0xEE);

    struct Write {
        uint64_t pa;
        pmt_security pas;
        size_t n;
    };
    struct FaultRange {
        uint64_t lo, hi; // va range [lo, hi)
        pmt_trbe_fault fault;
    };
    struct AbortRange {
        uint64_t lo, hi; // pa range [lo, hi)
        pmt_trbe_write_result result;
    };
    std::vector<FaultRange> faults;
    std::vector<AbortRange> aborts;
    std::map<uint64_t, uint64_t> va_page_to_pa; // pages not identity mapped

    // Recorded.
    std::vector<Write> writes;
    std::vector<uint64_t> translated; // va of each translate call
    std::vector<pmt_trbe_regime> regimes;
    std::vector<bool> trbirq;
    std::vector<std::pair<bool, unsigned>> exceptions;
    int serrors = 0;
    std::vector<unsigned> cti;
    int flush_requests = 0;
    bool complete_flush_in_callback = false;
    std::vector<uint16_t> events;

    bool use_flush_callback = false; // else flushes complete at once
    bool no_memory_port = false;     // leave translate and write NULL

    // Configures FEAT_TRBE with the defaults of pmt_pe_config_default (call before make_trbe).
    void trbe_config() { cfg.trbe.feat_trbe = true; }

    pmt_trbe_callbacks trbe_callbacks()
    {
        pmt_trbe_callbacks cb{};
        cb.user = this;
        cb.trbirq = [](void *u, bool l) { static_cast<TrbeTest *>(u)->trbirq.push_back(l); };
        cb.exception = [](void *u, bool take, unsigned el) {
            static_cast<TrbeTest *>(u)->exceptions.emplace_back(take, el);
        };
        cb.serror = [](void *u) { static_cast<TrbeTest *>(u)->serrors++; };
        cb.cti_trigger = [](void *u, unsigned n) { static_cast<TrbeTest *>(u)->cti.push_back(n); };
        if (use_flush_callback)
            cb.flush_request = [](void *u) {
                auto *t = static_cast<TrbeTest *>(u);
                t->flush_requests++;
                if (t->complete_flush_in_callback)
                    pmt_trbe_flush_complete(t->pe);
            };
        cb.event = [](void *u, uint16_t e) { static_cast<TrbeTest *>(u)->events.push_back(e); };
        if (!no_memory_port) {
            cb.translate = [](void *u, uint64_t va, const pmt_trbe_regime *r,
                              pmt_trbe_translation *out) {
                static_cast<TrbeTest *>(u)->mem_translate(va, r, out);
            };
            cb.write = [](void *u, uint64_t pa, pmt_security pas, const uint8_t *b, size_t n,
                          size_t *done) {
                return static_cast<TrbeTest *>(u)->mem_write(pa, pas, b, n, done);
            };
        }
        return cb;
    }

    void mem_translate(uint64_t va, const pmt_trbe_regime *r, pmt_trbe_translation *out)
    {
        translated.push_back(va);
        regimes.push_back(*r);
        for (const auto &f : faults)
            if (va >= f.lo && va < f.hi) {
                out->fault = f.fault;
                return;
            }
        auto it = va_page_to_pa.find(va >> 12);
        if (it != va_page_to_pa.end())
            out->pa = it->second | (va & 0xFFF);
    }

    pmt_trbe_write_result mem_write(uint64_t pa, pmt_security pas, const uint8_t *b, size_t n,
                                    size_t *done)
    {
        writes.push_back({pa, pas, n});
        for (const auto &a : aborts)
            if (pa + n > a.lo && pa < a.hi) {
                size_t ok = pa < a.lo ? size_t(a.lo - pa) : 0;
                store(pa, b, ok);
                *done = ok;
                return a.result;
            }
        store(pa, b, n);
        return PMT_TRBE_WRITE_OK;
    }

    void store(uint64_t pa, const uint8_t *b, size_t n)
    {
        if (pa >= RAM && pa + n <= RAM + RAM_SIZE)
            std::memcpy(&ram[pa - RAM], b, n);
        else
            ADD_FAILURE() << "write outside RAM at 0x" << std::hex << pa;
    }

    // Creates the model with the TRBE outputs wired, and the usual firmware set-up: EL3 gives the
    // buffer to Non-secure state (MDCR_EL3.NSTB = 0b11), EL2 gives it to EL1 without trapping
    // (MDCR_EL2.E2TB = 0b11). The PE is left at Non-secure EL1 with EL2 enabled.
    void make_trbe()
    {
        trbe_config();
        make();
        pmt_trbe_callbacks cb = trbe_callbacks();
        ASSERT_EQ(pmt_trbe_set_callbacks(pe, &cb), PMT_OK);
        if (cfg.have_el3)
            wr_el3(PMT_REG_MDCR_EL3,
                   PMT_PUT(MDCR_EL3, NSTB, 3) |
                       (cfg.trbe.feat_trbe_exc ? PMT_PUT(MDCR_EL3, TRBEE, 1) : 0));
        if (cfg.have_el2)
            wr_el(2, PMT_REG_MDCR_EL2,
                  PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters));
        go(1);
    }

    void remake_trbe()
    {
        pmt_pe_destroy(pe);
        pe = nullptr;
        make_trbe();
    }

    // Changes the PE state, keeping the fields a test does not name.
    void state(const std::function<void(pmt_pe_state &)> &f)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        f(s);
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
    // The PE at `el` in `ss` below EL3. EL2 is enabled as EL2Enabled() says (the model refuses
    // a state that contradicts SCR_EL3): always in Non-secure and Realm state, in Secure state
    // when asked and FEAT_SEL2 exists (SCR_EL3.EEL2 is set or cleared to match).
    void go(unsigned el, pmt_security ss = PMT_SS_NONSECURE, bool el2_enabled = true)
    {
        state([&](pmt_pe_state &s) {
            s.el = static_cast<uint8_t>(el);
            s.ss = ss;
            bool secure = ss == PMT_SS_SECURE;
            if (secure && cfg.have_el3)
                s.scr_eel2 = el2_enabled && cfg.have_el2 && cfg.have_sel2;
            s.el2_enabled = cfg.have_el2 && (!cfg.have_el3 || !secure || s.scr_eel2);
        });
    }

    // Accesses at another EL, then back to the state the test had. At EL3 SCR_EL3.{NS, NSE}
    // keep the Security state the test was in.
    template <typename F> void at_el(unsigned el, F f)
    {
        pmt_pe_state saved = pmt_pe_get_state(pe);
        state([&](pmt_pe_state &s) {
            s.el = static_cast<uint8_t>(el);
            if (el == 3) {
                s.scr_ns = saved.ss == PMT_SS_NONSECURE || saved.ss == PMT_SS_REALM;
                s.scr_nse = saved.ss == PMT_SS_REALM;
                s.ss = cfg.have_rme ? PMT_SS_ROOT : PMT_SS_SECURE;
                s.el2_enabled = cfg.have_el2 && (s.scr_ns || (cfg.have_sel2 && s.scr_eel2));
            }
        });
        f();
        ASSERT_EQ(pmt_pe_set_state(pe, &saved), PMT_OK);
    }
    void wr_el(unsigned el, pmt_reg_id id, uint64_t v)
    {
        at_el(el, [&] { wr(id, v); });
    }
    void wr_el3(pmt_reg_id id, uint64_t v) { wr_el(3, id, v); }
    uint64_t rd_el(unsigned el, pmt_reg_id id)
    {
        uint64_t v = 0;
        at_el(el, [&] { v = rd(id); });
        return v;
    }
    // TRBSR_ELx, read at EL3 (TRBSR_EL1 there is TRBSR_EL1 whatever E2H says).
    uint64_t sr(unsigned el = 1)
    {
        static const pmt_reg_id ids[4] = {PMT_REG_NONE, PMT_REG_TRBSR_EL1, PMT_REG_TRBSR_EL2,
                                          PMT_REG_TRBSR_EL3};
        return rd_el(cfg.have_el3 ? 3 : cfg.have_el2 ? 2 : 1, ids[el]);
    }
    uint64_t ptr() { return rd_el(cfg.have_el3 ? 3 : 2, PMT_REG_TRBPTR_EL1); }
    uint64_t trg() { return rd_el(cfg.have_el3 ? 3 : 2, PMT_REG_TRBTRG_EL1); }

    static uint64_t f(uint64_t v, unsigned shift, unsigned width)
    {
        return (v >> shift) & (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
    }
#define TRBSR_F(v, field) PMT_GET(TRBSR, field, v)

    // Programs the buffer from the current EL as coresight-trbe does (E = 0, then BASER, PTR,
    // then LIMITR with E = 1) with mode fm and trigger mode tm.
    void program(uint64_t base, uint64_t limit, uint64_t p, unsigned fm, unsigned tm,
                 uint64_t extra = 0)
    {
        wr(PMT_REG_TRBLIMITR_EL1, 0);
        wr(PMT_REG_TRBSR_EL1, 0);
        wr(PMT_REG_TRBBASER_EL1, base);
        wr(PMT_REG_TRBPTR_EL1, p);
        wr(PMT_REG_TRBLIMITR_EL1, limit | PMT_PUT(TRBLIMITR, FM, fm) | PMT_PUT(TRBLIMITR, TM, tm) |
                                      PMT_MASK(TRBLIMITR, E) | extra);
    }
    void program_fill(uint64_t p = BASE)
    {
        program(BASE, LIMIT, p, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    }
    // The same from EL3, where nothing traps (the PE returns to the state the test had).
    void program_at_el3(uint64_t p, unsigned fm, unsigned tm, uint64_t extra = 0)
    {
        at_el(3, [&] { program(BASE, LIMIT, p, fm, tm, extra); });
    }
    void program_fill_at_el3(uint64_t p = BASE)
    {
        program_at_el3(p, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    }

    // n bytes of trace: bytes k of the whole test's stream are (k & 0xFF) ^ 0x5A.
    uint64_t stream_pos = 0;
    std::vector<uint8_t> next_bytes(size_t n)
    {
        std::vector<uint8_t> b(n);
        for (size_t i = 0; i < n; i++)
            b[i] = static_cast<uint8_t>(((stream_pos + i) & 0xFF) ^ 0x5A);
        stream_pos += n;
        return b;
    }
    void trace(size_t n)
    {
        std::vector<uint8_t> b = next_bytes(n);
        size_t accepted = 0;
        ASSERT_EQ(pmt_trbe_trace(pe, b.data(), n, &accepted), PMT_OK);
        ASSERT_EQ(accepted, n);
    }
    void trace_in_chunks(size_t n, size_t chunk)
    {
        while (n) {
            size_t c = n < chunk ? n : chunk;
            trace(c);
            n -= c;
        }
    }
    void csync()
    {
        ASSERT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
    }
    uint8_t mem(uint64_t pa)
    {
        return ram[pa - RAM];
    }
    static uint8_t byte_of(uint64_t k)
    {
        return static_cast<uint8_t>((k & 0xFF) ^ 0x5A);
    }
    // Memory at [pa, pa + n) holds stream bytes [k, k + n).
    ::testing::AssertionResult holds(uint64_t pa, uint64_t k, size_t n)
    {
        for (size_t i = 0; i < n; i++)
            if (mem(pa + i) != byte_of(k + i))
                return ::testing::AssertionFailure()
                       << "at 0x" << std::hex << pa + i << ": 0x" << unsigned(mem(pa + i))
                       << ", expected stream byte " << std::dec << k + i;
        return ::testing::AssertionSuccess();
    }
    // Memory at [pa, pa + n) was never written.
    ::testing::AssertionResult untouched(uint64_t pa, size_t n)
    {
        for (size_t i = 0; i < n; i++)
            if (mem(pa + i) != 0xEE)
                return ::testing::AssertionFailure() << "0x" << std::hex << pa + i << " written";
        return ::testing::AssertionSuccess();
    }

    pmt_trbe_status status()
    {
        pmt_trbe_status s{};
        EXPECT_EQ(pmt_trbe_get_status(pe, &s), PMT_OK);
        return s;
    }
    bool logged(const char *rule)
    {
        for (const auto &l : log_lines)
            if (l.find(rule) != std::string::npos)
                return true;
        return false;
    }
};

#endif
