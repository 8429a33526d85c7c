// pe_model synchronous profiling export (FEAT_EBEP, FEAT_SEBEP): retirement, exception entry
// and return, Debug state entry and exit (D13.3.2, D13.3.3).
#include "pe_model_fixture.h"

namespace
{

using namespace pmtrace_test;

pmt_pe_state at_el_pm(unsigned el, bool pm)
{
    pmt_pe_state s = at_el(el);
    s.pm = pm;
    return s;
}

// EL3 and EL2 defer to EL1 (PMEE = 0b01); the kernel enables the exception (PMECR_EL1.PMEE = 0b11,
// KPME = 1); counter 0 counts INST_RETIRED in synchronous mode with one instruction to go; the
// PE runs at EL0.
struct profiling {
    pmtrace::pe_model pe;
    static pmtrace::pe_model_config config()
    {
        pmtrace::pe_model_config cfg;
        cfg.core.pmu_version = PMT_PMUV3P9;
        cfg.core.feat_ebep = true;
        cfg.core.feat_sebep = true;
        return cfg;
    }
    profiling() : pe("pe", config())
    {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        enter_el1(pe, PMT_PUT(MDCR_EL3, PMEE, 1) | PMT_MASK(MDCR_EL3, EnPM2));
        pe.state->set_pe_state(at_el(2));
        wr(pe, PMT_REG_MDCR_EL2, 0, PMT_PUT(MDCR_EL2, PMEE, 1) | PMT_PUT(MDCR_EL2, HPMN, 6));
        pe.state->set_pe_state(el1_ns());
        wr(pe, PMT_REG_PMECR_EL1, 0, PMT_PUT(PMECR, PMEE, 3) | PMT_MASK(PMECR, KPME));
        wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, SYNC));
        wr(pe, PMT_REG_PMEVCNTR_EL0, 0, ~uint64_t(0));
        wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
        wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
        wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
        pe.state->set_pe_state(at_el(0));
    }
    // The instruction at `pc` retires after counting its event; returns sync_due.
    bool execute(uint64_t pc)
    {
        EXPECT_EQ(pe.events->count_event(PMT_EV_INST_RETIRED, 1), PMT_OK);
        bool due = false;
        EXPECT_EQ(pe.profiling->retire(pc, false, due), PMT_OK);
        return due;
    }
};

// RNZLVW: the overflowing instruction sets PPEND and PMIAR_EL1; RHLYTW: the next instruction
// takes the exception.
TEST(PeProfiling, RetireOfTheOverflowingInstructionMakesTheExceptionDue)
{
    profiling p;
    EXPECT_TRUE(p.execute(0x400000));
    EXPECT_TRUE(p.pe.profiling->sync_exception_due());
}

// RGWLVY, RSCBDZ: the state a CPU reads to take the synchronous exception: enabled, taken to
// EL1 (MDCR_EL3.PMEE = MDCR_EL2.PMEE = 0b01, PMECR_EL1.PMEE = 0b11, TGE 0), unmasked at EL0,
// PPEND set by the overflowing instruction; at EL1 with PSTATE.PM = 1 it is masked.
TEST(PeProfiling, ExceptionStateGivesTheTargetOfTheSynchronousException)
{
    profiling p;
    p.execute(0x400000);
    pmt_pmu_exception_state s = p.pe.profiling->pmu_exception_state();
    EXPECT_TRUE(s.enabled);
    EXPECT_EQ(s.target_el, 1u);
    EXPECT_FALSE(s.masked);
    EXPECT_TRUE(s.ppend);
    EXPECT_TRUE(s.sync_due);
    p.pe.state->set_pe_state(at_el_pm(1, true));
    s = p.pe.profiling->pmu_exception_state();
    EXPECT_TRUE(s.masked);
    EXPECT_FALSE(s.sync_due);
}

// RBVBYS: exception entry gives PPEND to SPSR_ELx[33] and clears it.
TEST(PeProfiling, ExceptionEntryTakesPpend)
{
    profiling p;
    p.execute(0x400000);
    bool spsr_ppend = false;
    EXPECT_EQ(p.pe.profiling->exception_entry(at_el_pm(1, true), spsr_ppend), PMT_OK);
    EXPECT_TRUE(spsr_ppend);
    EXPECT_FALSE(p.pe.profiling->sync_exception_due());
    EXPECT_EQ(rd(p.pe, PMT_REG_PMIAR_EL1), 0x400000u);
}

// Table D13-2: a return that unmasks the exception restores PPEND from SPSR_ELx[33].
TEST(PeProfiling, ExceptionReturnRestoresPpend)
{
    profiling p;
    p.execute(0x400000);
    bool spsr_ppend = false, due = false;
    p.pe.profiling->exception_entry(at_el_pm(1, true), spsr_ppend);
    EXPECT_EQ(p.pe.profiling->exception_return(true, at_el(0), 0xFFFF000000000800ull, due), PMT_OK);
    EXPECT_TRUE(due);
}

// Debug state entry gives PPEND to DSPSR_EL0[33]; the exit restores it when the exception is
// enabled and unmasked afterwards.
TEST(PeProfiling, DebugEntryAndExitCarryPpend)
{
    profiling p;
    p.execute(0x400000);
    pmt_pe_state halted = at_el(0);
    halted.debug = true;
    bool dspsr_ppend = false;
    EXPECT_EQ(p.pe.profiling->debug_entry(false, halted, dspsr_ppend), PMT_OK);
    EXPECT_TRUE(dspsr_ppend);
    EXPECT_FALSE(p.pe.profiling->sync_exception_due());
    EXPECT_EQ(p.pe.profiling->debug_exit(false, true, at_el(0)), PMT_OK);
    EXPECT_TRUE(p.pe.profiling->sync_exception_due());
}

} // namespace
