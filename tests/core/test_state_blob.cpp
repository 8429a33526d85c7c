// test_state_blob.cpp - a saved state as input (issue 27): every byte of a saved state changed,
// one at a time, to each value that matters. pmt_pe_restore refuses the blob (PMT_ERR_STATE_BLOB,
// the model unchanged), or takes it as it is and the model works from it: every register reads,
// events count, the trace unit reports, the Trace Buffer Unit writes, and the state the model is
// in after that is one it saves and restores again. Under the sanitizers (-DPMTRACE_SANITIZE=ON)
// a value the model cannot work from is undefined behaviour somewhere in those calls; without
// them the invariants below still tell a refused blob from an accepted one that the model does
// not hold as it was given.
#include "trbe_fixture.h"

#include <algorithm>
#include <cstring>

namespace
{

// Offsets of the external frames that name a register (pmt_*_ext_name), found once per config.
struct FrameOffsets {
    std::vector<uint32_t> pmu, debug, trbe;
};

class StateBlob : public TrbeTest
{
  protected:
    uint64_t ts = 0x1000;
    FrameOffsets frames;

    void rich_config()
    {
        cfg.pmu_version = PMT_PMUV3P9;
        cfg.num_counters = 6;
        cfg.feat_icntr = true;
        cfg.feat_ebep = true;
        cfg.feat_sebep = true;
        cfg.feat_ss = true;
        cfg.feat_extpmn = true;
        cfg.feat_hpmn0 = true;
        cfg.pcsr = PMT_PCSR_PMU_FRAME;
        cfg.feat_pcsrv8p9 = true;
        cfg.trbe.feat_trbe_exc = true;
        cfg.trbe.feat_trbe_ext = true;
        cfg.trbe.erratum_ctxt_sync_after_enable = true;
        cfg.trbe.erratum_drain_after_disable = true;
        cfg.ete.feat_ete = true;
        cfg.ete.unit_buffer = PMT_ETE_UNIT_BUFFER_MIN;
    }

    // The model in a state with something in every part: counters about to overflow, an
    // overflow flagged, a snapshot, a PC sample, the trace unit enabled with bytes in its buffer
    // and an exception to resolve, the Trace Buffer Unit holding part of an alignment unit.
    void make_rich()
    {
        make_trbe();
        pmt_ete_callbacks ecb{};
        ecb.user = this;
        ecb.timestamp = [](void *u, pmt_ete_timebase) { return ++static_cast<StateBlob *>(u)->ts; };
        ASSERT_EQ(pmt_ete_set_callbacks(pe, &ecb), PMT_OK);
        // PMU, from EL2.
        wr_el3(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EnPM2) | PMT_MASK(MDCR_EL3, EnPMSS) |
                                     PMT_PUT(MDCR_EL3, PMSSE, 3) | PMT_PUT(MDCR_EL3, NSTB, 3) |
                                     PMT_PUT(MDCR_EL3, TRBEE, 1));
        at_el(2, [&] {
            PeTest::program(0, PMT_EV_INST_RETIRED, 0xFFFFFFF0);
            PeTest::program(1, PMT_EV_CPU_CYCLES, 0xFFFFFFFF);
            PeTest::program(2, PMT_EV_SW_INCR, 7);
            cycle_counter(0xFFFFFFFFFFFFFF00);
            instruction_counter(5);
            wr(PMT_REG_PMINTENSET_EL1, bit(0) | bit(2) | C);
            pmcr(PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LC));
            count(PMT_EV_INST_RETIRED, 0x20); // overflows counter 0
            count(PMT_EV_INST_RETIRED, 3);    // pending in the lazy counter
            cycles(0x10);
            wr(PMT_REG_PMSSCR_EL1, 1); // a snapshot Capture event
        });
        pmt_pc_sample s{};
        s.pc = 0x40001234;
        s.el = 1;
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = true;
        s.contextidr_el1 = 0x42;
        ASSERT_EQ(pmt_pe_pc_sample(pe, &s), PMT_OK);
        // The trace unit and the buffer, as Linux's drivers program them.
        wr_el(2, PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E0HTRE) | PMT_MASK(TRFCR_EL2, E2TRE));
        wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
        program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_WRAP, PMT_TRBLIMITR_TM_IGNORE);
        wr(PMT_REG_TRCCONFIGR, PMT_MASK(TRCCONFIGR, TS) | PMT_MASK(TRCCONFIGR, CID));
        wr(PMT_REG_TRCTRACEIDR, 0x10);
        wr(PMT_REG_TRCVICTLR, 0x201);
        wr(PMT_REG_TRCPRGCTLR, 1);
        ASSERT_EQ(pmt_ete_report_context_ids(pe, 0x42, 0), PMT_OK);
        for (uint64_t a = 0x40001000; a < 0x40001100; a += 0x10) {
            const pmt_ete_range r{a, a + 8, PMT_ETE_P0_DIRECT, true, a + 0x10, 1};
            if (!pmt_ete_report_range_held(pe, &r)) {
                ASSERT_EQ(pmt_ete_report_range(pe, &r), PMT_OK);
            }
        }
        trace(3); // part of an alignment unit, held by the Trace Buffer Unit
        const pmt_ete_range r{0x40002000, 0x40002004, PMT_ETE_P0_DIRECT, true, 0x40002008, 1};
        ASSERT_TRUE(pmt_ete_report_range_held(pe, &r));
        const pmt_ete_exception_taken e{PMT_ETE_EXC_CALL, 0x40002008, 0x40002010};
        ASSERT_EQ(pmt_ete_report_exception(pe, &e), PMT_OK); // its vector: the next report
        ASSERT_EQ(pmt_pe_context_sync(pe), PMT_OK);
        // What the state holds, as far as the public API shows it.
        pmt_trbe_status ts_{};
        ASSERT_EQ(pmt_trbe_get_status(pe, &ts_), PMT_OK);
        EXPECT_TRUE(ts_.running);
        EXPECT_GT(ts_.buffered, 0u); // part of an alignment unit
        EXPECT_TRUE(pmt_ete_wants_reports(pe));
        EXPECT_EQ(rd_el(2, PMT_REG_PMOVSCLR_EL0) & 1, 1u);
        pmt_pmu_snapshot snap{};
        ASSERT_EQ(pmt_pmu_snapshot_get(pe, &snap), PMT_OK);
        EXPECT_EQ(snap.pmevcntsvr[2], 7u);
        // From here on a changed state may send the Trace Buffer Unit anywhere: the memory port
        // keeps what lands in RAM and records nothing.
        pmt_trbe_callbacks tcb = trbe_callbacks();
        tcb.translate = [](void *, uint64_t, const pmt_trbe_regime *, pmt_trbe_translation *) {};
        tcb.write = [](void *u, uint64_t pa, pmt_security, const uint8_t *b, size_t n, size_t *) {
            auto *t = static_cast<StateBlob *>(u);
            if (pa >= RAM && pa < RAM + RAM_SIZE && n <= RAM + RAM_SIZE - pa)
                std::memcpy(&t->ram[pa - RAM], b, n);
            return PMT_TRBE_WRITE_OK;
        };
        tcb.event = nullptr;
        tcb.cti_trigger = nullptr;
        ASSERT_EQ(pmt_trbe_set_callbacks(pe, &tcb), PMT_OK);
        for (uint32_t off = 0; off < 0x1000; off += 4) {
            if (pmt_pmu_ext_name(pe, off).reg.id != PMT_REG_NONE || pmt_pmu_ext_name(pe, off).own)
                frames.pmu.push_back(off);
            if (pmt_debug_ext_name(pe, off).reg.id != PMT_REG_NONE ||
                pmt_debug_ext_name(pe, off).own)
                frames.debug.push_back(off);
            if (pmt_trbe_ext_name(pe, off).reg.id != PMT_REG_NONE || pmt_trbe_ext_name(pe, off).own)
                frames.trbe.push_back(off);
        }
    }

    // What the recording callbacks of the fixtures kept: nothing this test looks at.
    void forget()
    {
        irq_changes.clear();
        cti_changes.clear();
        halt_changes.clear();
        exception_changes.clear();
        exported.clear();
        log_lines.clear();
        trbirq.clear();
        exceptions.clear();
    }

    std::vector<uint8_t> save()
    {
        std::vector<uint8_t> b(pmt_pe_state_size(pe));
        EXPECT_EQ(pmt_pe_save(pe, b.data(), b.size()), PMT_OK);
        return b;
    }

    // Every register the model answers, read by MRS at the current PE state (any answer).
    void read_every_register()
    {
        uint64_t v;
#define READ_ONE_(id, op0, op1, crn, crm, op2) (void)read(PMT_REG_##id, &v);
        PMT_SYSREG_LIST(READ_ONE_)
#undef READ_ONE_
        // The families: every member the config implements, and the first one it does not.
        for (unsigned n = 0; n <= cfg.num_counters; n++) {
            (void)read(PMT_REG_PMEVCNTR_EL0, &v, n);
            (void)read(PMT_REG_PMEVTYPER_EL0, &v, n);
            (void)read(PMT_REG_PMEVCNTSVR_EL1, &v, n);
        }
        for (unsigned n = 2; n <= 2 * cfg.ete.num_rs_pairs && n < 32; n++)
            (void)read(PMT_REG_TRCRSCTLR, &v, n);
        for (unsigned n = 0; n <= 2 * cfg.ete.num_ac_pairs && n < 16; n++) {
            (void)read(PMT_REG_TRCACVR, &v, n);
            (void)read(PMT_REG_TRCACATR, &v, n);
        }
        for (unsigned n = 0; n <= cfg.ete.num_cid_comps && n < 8; n++)
            (void)read(PMT_REG_TRCCIDCVR, &v, n);
        for (unsigned n = 0; n <= cfg.ete.num_vmid_comps && n < 8; n++)
            (void)read(PMT_REG_TRCVMIDCVR, &v, n);
        for (unsigned n = 0; n <= cfg.ete.num_ext_in_sel && n < 4; n++)
            (void)read(PMT_REG_TRCEXTINSELR, &v, n);
        for (unsigned n = 0; n <= cfg.ete.num_counters && n < 4; n++) {
            (void)read(PMT_REG_TRCCNTRLDVR, &v, n);
            (void)read(PMT_REG_TRCCNTCTLR, &v, n);
            (void)read(PMT_REG_TRCCNTVR, &v, n);
        }
        for (uint32_t off : frames.pmu)
            (void)pmt_pmu_ext_read(pe, off, 4, PMT_SS_ROOT, false, &v);
        for (uint32_t off : frames.debug)
            (void)pmt_debug_ext_read(pe, off, 4, PMT_SS_ROOT, false, &v);
        for (uint32_t off : frames.trbe)
            (void)pmt_trbe_ext_read(pe, off, 4, PMT_SS_ROOT, &v);
    }

    // What a platform does with a model: the calls of every part, from the restored state.
    void exercise()
    {
        read_every_register();
        pmt_trbe_status ts_{};
        (void)pmt_trbe_get_status(pe, &ts_);
        pmt_pmu_snapshot snap{};
        (void)pmt_pmu_snapshot_get(pe, &snap);
        pmt_pmu_exception_state ex{};
        (void)pmt_pmu_exception_get(pe, &ex);
        (void)pmt_pmu_sync_exception_due(pe);
        (void)pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED);
        (void)pmt_ete_wants_reports(pe);
        (void)pmt_trbe_trace_allowed(pe);
        unsigned el = 0;
        for (unsigned x = 1; x <= 3; x++)
            (void)pmt_trbe_exception_state(pe, x, &el);
        // Events and ticks.
        (void)pmt_pmu_count(pe, PMT_EV_INST_RETIRED, 0x30);
        (void)pmt_pmu_count(pe, PMT_EV_SW_INCR, 1);
        (void)pmt_pmu_cycles(pe, 0x1000);
        bool due = false;
        (void)pmt_pmu_retire(pe, 0x40001000, false, &due);
        (void)pmt_pmu_snapshot_request(pe);
        (void)pmt_pe_context_sync(pe);
        // The trace unit's reports: held, then one at its time, an exception, a flush.
        const pmt_ete_range r{0x40003000, 0x40003008, PMT_ETE_P0_DIRECT, true, 0x40003010, 1};
        (void)pmt_ete_report_range_held(pe, &r);
        const pmt_ete_range r2{0x40003010, 0x40003010, PMT_ETE_P0_INDIRECT, true, 0x40005000, 3};
        (void)pmt_ete_report_range(pe, &r2);
        const pmt_ete_exception_taken e{PMT_ETE_EXC_IRQ, 0x40005000, 0x40005008};
        (void)pmt_ete_report_exception(pe, &e);
        (void)pmt_ete_report_context_ids(pe, 7, 9);
        (void)pmt_ete_flush(pe);
        // The Trace Buffer Unit's inputs.
        std::vector<uint8_t> bytes(200, 0x5A);
        size_t accepted = 0;
        (void)pmt_trbe_trace(pe, bytes.data(), bytes.size(), &accepted);
        (void)pmt_trbe_detected_trigger(pe);
        (void)pmt_trbe_flush_complete(pe);
        (void)pmt_trbe_tsb_csync(pe);
        (void)pmt_trbe_external_abort(pe, 1);
    }
};

// The values a byte is set to: the boundaries of a bool and of a signed byte, 175 (0xAF, the
// value of issue 27's finding), all ones, and the byte inverted.
std::vector<uint8_t> values_for(uint8_t b)
{
    std::vector<uint8_t> v{0x00, 0x01, 0x02, 0x7F,
                           0x80, 0xAF, 0xFF, static_cast<uint8_t>(b ^ 0xFF)};
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    v.erase(std::remove(v.begin(), v.end(), b), v.end());
    return v;
}

} // namespace

TEST_F(StateBlob, EveryByteChangedIsRefusedOrAStateTheModelWorksFrom)
{
    rich_config();
    make_rich();
    if (HasFatalFailure())
        return;
    const std::vector<uint8_t> orig = save();
    ASSERT_EQ(pmt_pe_restore(pe, orig.data(), orig.size()), PMT_OK);
    ASSERT_EQ(save(), orig) << "restoring a saved state changed it";
    size_t refused = 0, accepted = 0, failures = 0;
    std::vector<uint8_t> blob = orig;
    for (size_t i = 0; i < orig.size() && failures < 20; i++) {
        for (uint8_t v : values_for(orig[i])) {
            blob[i] = v;
            pmt_status st = pmt_pe_restore(pe, blob.data(), blob.size());
            if (st == PMT_ERR_STATE_BLOB) {
                refused++;
                if (save() != orig) {
                    ADD_FAILURE() << "a refused blob (byte " << i << " = " << unsigned(v)
                                  << ") changed the model";
                    failures++;
                }
                continue;
            }
            if (st != PMT_OK) {
                ADD_FAILURE() << "byte " << i << " = " << unsigned(v) << ": status " << st;
                failures++;
                continue;
            }
            accepted++;
            // A restore is a copy: the state the model holds is the blob, byte for byte.
            const std::vector<uint8_t> got = save();
            if (got != blob) {
                std::string d;
                for (size_t k = 0; k < got.size(); k++)
                    if (got[k] != blob[k])
                        d += " " + std::to_string(k);
                ADD_FAILURE() << "byte " << i << " = " << unsigned(v)
                              << ": accepted, but the model saves another state (bytes" << d
                              << " differ)";
                failures++;
            }
            exercise();
            forget();
            // The state the model went on to is one it saves and takes back as it is.
            std::vector<uint8_t> after = save();
            if (pmt_pe_restore(pe, after.data(), after.size()) != PMT_OK || save() != after) {
                ADD_FAILURE() << "byte " << i << " = " << unsigned(v)
                              << ": the model's own state after the calls is refused or changed";
                failures++;
            }
            ASSERT_EQ(pmt_pe_restore(pe, orig.data(), orig.size()), PMT_OK);
        }
        blob[i] = orig[i];
    }
    RecordProperty("bytes", static_cast<int>(orig.size()));
    RecordProperty("refused", static_cast<int>(refused));
    RecordProperty("accepted", static_cast<int>(accepted));
    // Both answers happen (a sweep that refuses everything, or accepts everything, checks little).
    EXPECT_GT(refused, orig.size());
    EXPECT_GT(accepted, orig.size());
}
