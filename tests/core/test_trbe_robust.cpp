// Bad input is answered, never fatal: random programming of every Trace Buffer Unit register,
// random trace, triggers, flush completions, faults and aborts, under the sanitizers.
#include "trbe_fixture.h"

#include <random>

namespace
{

class TrbeRobust : public TrbeTest
{
};

TEST_F(TrbeRobust, RandomProgrammingNeverCrashes)
{
    cfg.have_rme = true;
    cfg.have_sel2 = true;
    cfg.trbe.feat_trbe_exc = true;
    cfg.trbe.feat_trbe_ext = true;
    cfg.trbe.impdef_events = true;
    use_flush_callback = true;
    make_trbe();
    std::mt19937_64 rng(12345);
    auto pick = [&](uint64_t n) { return rng() % n; };
    // Keep writes in RAM most of the time; any address otherwise (the fake memory reports
    // writes outside RAM as failures, so map everything outside to an External abort).
    aborts.push_back({0, RAM, PMT_TRBE_WRITE_ABORT_SYNC});
    aborts.push_back({RAM + RAM_SIZE, ~uint64_t{0}, PMT_TRBE_WRITE_ABORT_ASYNC});
    const pmt_reg_id regs[] = {PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBPTR_EL1, PMT_REG_TRBBASER_EL1,
                               PMT_REG_TRBSR_EL1,     PMT_REG_TRBMAR_EL1, PMT_REG_TRBTRG_EL1,
                               PMT_REG_TRBSR_EL2,     PMT_REG_TRBSR_EL3,  PMT_REG_TRFCR_EL1,
                               PMT_REG_TRFCR_EL2,     PMT_REG_MDCR_EL2,   PMT_REG_MDCR_EL3};
    std::vector<uint8_t> data(9000, 0x42);
    for (int i = 0; i < 20000; i++) {
        if (i % 40 == 0) { // a sane restart now and then, so that trace keeps being written
            at_el(3, [&] {
                wr(PMT_REG_MDCR_EL3,
                   PMT_PUT(MDCR_EL3, NSTB, 3) | PMT_PUT(MDCR_EL3, TRBEE, pick(4)));
                program(BASE, LIMIT, BASE + (pick(0x4000) & ~uint64_t{63}),
                        static_cast<unsigned>(pick(4)), static_cast<unsigned>(pick(4)));
                wr(PMT_REG_TRBSR_EL2, 0);
                wr(PMT_REG_TRBSR_EL3, 0);
            });
            state([](pmt_pe_state &s) {
                s.self_hosted_trace_disabled = false;
                s.aarch32_els = 0;
            });
        }
        switch (pick(10)) {
        case 0: { // a register write at some EL
            pmt_reg_id id = regs[pick(sizeof regs / sizeof regs[0])];
            uint64_t v = pick(2) ? rng() : (BASE + (pick(0x5000) & ~uint64_t(pick(2) ? 63u : 0u)));
            if (id == PMT_REG_TRBLIMITR_EL1 && pick(2))
                v = (LIMIT & ~uint64_t{0xFFF}) | (rng() & 0x7F);
            // At an EL the current state can be at (EL3 from EL3; EL2 where it is enabled).
            unsigned el = static_cast<unsigned>(pick(4));
            pmt_pe_state cur = pmt_pe_get_state(pe);
            if ((el < 3 && cur.el == 3) || (el == 2 && !cur.el2_enabled))
                el = 3;
            at_el(el, [&] { (void)write(id, v); });
            break;
        }
        case 1:
        case 2:
        case 3: {
            size_t n = static_cast<size_t>(pick(pick(2) ? 9000 : 100));
            size_t acc;
            // PMT_ERR_ARG when a fault description of case 8 is one the model refuses.
            pmt_status st = pmt_trbe_trace(pe, data.data(), n, &acc);
            ASSERT_TRUE(st == PMT_OK || st == PMT_ERR_ARG) << pmt_status_name(st);
            break;
        }
        case 4: (void)pmt_trbe_detected_trigger(pe); break;
        case 5: (void)pmt_trbe_flush_complete(pe); break;
        case 6: (void)pmt_trbe_tsb_csync(pe); break;
        case 7:
            state([&](pmt_pe_state &s) {
                s.el = static_cast<uint8_t>(pick(4));
                s.ss = s.el == 3 ? PMT_SS_ROOT : static_cast<pmt_security>(pick(3));
                s.hcr_e2h = pick(2);
                s.hcr_tge = pick(2);
                s.pm = pick(2);
                s.self_hosted_trace_disabled = pick(4) == 0;
                s.os_lock = pick(4) == 0;
                s.scr_eel2 = pick(2);
                s.scr_ns = pick(2);
                s.scr_nse = pick(2);
                // EL2Enabled() as SCR_EL3 makes it (the model refuses a contradiction).
                bool ns = s.el == 3 ? s.scr_ns : s.ss != PMT_SS_SECURE;
                s.el2_enabled = cfg.have_el2 && (ns || (cfg.have_sel2 && s.scr_eel2));
                if (s.el == 2 && !s.el2_enabled)
                    s.el = 1;
                s.aarch32_els = static_cast<uint8_t>(pick(16));
            });
            break;
        case 8: {
            faults.clear();
            if (pick(2)) {
                pmt_trbe_fault f{static_cast<pmt_trbe_fault_kind>(pick(13)),
                                 static_cast<uint8_t>(pick(4)),
                                 static_cast<int8_t>(pick(8) - 3),
                                 pick(2) != 0,
                                 pick(2) != 0,
                                 false,
                                 false};
                uint64_t lo = BASE + (pick(5) << 12);
                faults.push_back({lo, lo + 0x1000, f});
            }
            break;
        }
        default: {
            uint64_t v;
            (void)pmt_trbe_ext_write(pe, static_cast<uint32_t>(pick(0x1000)) & ~3u, 4,
                                     static_cast<pmt_security>(pick(4)), rng());
            (void)pmt_trbe_ext_read(pe, static_cast<uint32_t>(pick(0x1000)) & ~7u, 8,
                                    static_cast<pmt_security>(pick(4)), &v);
            (void)pmt_trbe_impdef_event(pe, static_cast<uint16_t>(rng()), 0);
            break;
        }
        }
        pmt_trbe_status st = status();
        ASSERT_LE(st.buffered, 64u);
        ASSERT_EQ(pmt_trbe_irq_level(pe), trbirq.empty() ? false : bool(trbirq.back()));
    }
    EXPECT_GT(writes.size(), 1000u); // the run did exercise the write path
    std::vector<uint8_t> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
}

} // namespace
