// ete_fixture.h - a pmt_pe with the ETE trace unit under test: its System registers through the
// public C API, its filtering decisions through the internal interface the glue uses
// (c-core/src/ete/ete_internal.h, linked from the static core).
#ifndef PMTRACE_TESTS_ETE_FIXTURE_H
#define PMTRACE_TESTS_ETE_FIXTURE_H

#include "pe_fixture.h"

#include <functional>

extern "C" {
#include "../../c-core/src/ete/ete_internal.h"
}

// One run of instructions with one ViewInst answer: {first, last, traced}.
struct EteRun {
    uint64_t first, last;
    bool traced;
    bool operator==(const EteRun &o) const
    {
        return first == o.first && last == o.last && traced == o.traced;
    }
};

class EteTest : public PeTest
{
  protected:
    // FEAT_ETE with the defaults of pmt_pe_config_default (call before make()).
    void ete_config() { cfg.ete.feat_ete = true; }
    void make_ete()
    {
        ete_config();
        make();
    }

    // Changes fields of the PE state the model was told, keeping the others.
    void state(const std::function<void(pmt_pe_state &)> &f)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        f(s);
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }
    void os_lock(bool locked)
    {
        state([&](pmt_pe_state &s) { s.os_lock = locked; });
    }

    // The accessibility every trace register shares, row by row: UNDEFINED at EL0, CPACR_EL1.TTA
    // traps EL1 to EL1 (not EL2), CPTR_EL2.TTA EL1 and EL2 to EL2 (not EL3), CPTR_EL3.TTA every
    // EL above 0 to EL3. check(expected, el) runs at each row, with the PE at `el` and the trap
    // controls of the row.
    void for_each_trace_access_row(const std::function<void(pmt_access, unsigned)> &check)
    {
        static const struct {
            unsigned el;
            bool cpacr_tta, cptr_el2_tta, cptr_el3_tta;
            pmt_access access;
        } rows[] = {
            {0, false, false, false, PMT_ACCESS_UNDEFINED},
            {1, false, false, false, PMT_ACCESS_OK},
            {1, true, false, false, PMT_ACCESS_TRAP_EL1},
            {1, false, true, false, PMT_ACCESS_TRAP_EL2},
            {1, false, false, true, PMT_ACCESS_TRAP_EL3},
            {2, false, false, false, PMT_ACCESS_OK},
            {2, true, false, false, PMT_ACCESS_OK},
            {2, false, true, false, PMT_ACCESS_TRAP_EL2},
            {3, false, true, false, PMT_ACCESS_OK},
            {3, false, false, true, PMT_ACCESS_TRAP_EL3},
        };
        for (const auto &row : rows) {
            at(row.el);
            state([&](pmt_pe_state &s) {
                s.cpacr_tta = row.cpacr_tta;
                s.cptr_el2_tta = row.cptr_el2_tta;
                s.cptr_el3_tta = row.cptr_el3_tta;
            });
            check(row.access, row.el);
        }
    }

    // Self-hosted trace allowed at Non-secure EL0..EL2 (TRFCR_EL1.{E0TRE, E1TRE},
    // TRFCR_EL2.{E0HTRE, E2TRE}); written from EL2.
    void allow_trace()
    {
        wr(PMT_REG_TRFCR_EL2, PMT_MASK(TRFCR_EL2, E0HTRE) | PMT_MASK(TRFCR_EL2, E2TRE));
        wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    }

    // TRCVICTLR: EVENT = resource 1 (TRUE), SSSTATUS = 1 (started), every EL traced, the
    // Linux default; plus `extra`.
    static constexpr uint64_t VICTLR_ON = 0x01 | (uint64_t{1} << 9);

    // Enables the trace unit (TRCPRGCTLR.EN = 1).
    void enable() { wr(PMT_REG_TRCPRGCTLR, 1); }
    void disable() { wr(PMT_REG_TRCPRGCTLR, 0); }
    bool idle() { return PMT_GET(TRCSTATR, IDLE, rd(PMT_REG_TRCSTATR)); }
    bool pmstable() { return PMT_GET(TRCSTATR, PMSTABLE, rd(PMT_REG_TRCSTATR)); }

    // Address comparator n compares instruction addresses (TYPE 0) at every EL, no context.
    void comparator(unsigned n, uint64_t addr, uint64_t acatr = 0)
    {
        wr(PMT_REG_TRCACVR, addr, n);
        wr(PMT_REG_TRCACATR, acatr, n);
    }

    // The runs ete_viewinst_run reports for [start, last].
    using Run = EteRun;
    std::vector<Run> runs(uint64_t start, uint64_t last)
    {
        std::vector<Run> out;
        for (uint64_t a = start;;) {
            uint64_t end = 0;
            bool t = ete_viewinst_run(pe, a, last, &end);
            out.push_back({a, end, t});
            if (end >= last || out.size() > 64)
                break;
            a = end + 4;
        }
        return out;
    }
    // The traced instructions of [start, last], one address each.
    std::vector<uint64_t> traced(uint64_t start, uint64_t last)
    {
        std::vector<uint64_t> out;
        for (const Run &r : runs(start, last))
            if (r.traced)
                for (uint64_t a = r.first; a <= r.last; a += 4)
                    out.push_back(a);
        return out;
    }
};

inline std::ostream &operator<<(std::ostream &os, const EteRun &r)
{
    return os << "{0x" << std::hex << r.first << ", 0x" << r.last << std::dec << ", "
              << (r.traced ? "traced" : "not traced") << "}";
}

#endif
