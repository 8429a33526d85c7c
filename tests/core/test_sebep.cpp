// test_sebep.cpp - the synchronous PMU exception (FEAT_SEBEP, D13.3.3): synchronous mode
// (RSSVKV, RFCXWT, RXLMVX), PSTATE.PPEND and PMIAR_EL1 (RNZLVW, IHMXCY, INPRDL, RMQDPX), taking it
// (RHLYTW, IBBFCX), exception entry and return (RBVBYS, Table D13-2 row by row), Debug state.
#include "pe_fixture.h"

#include <pmtrace/pmt_pmu_exception.h>

namespace
{

class Sebep : public PeTest
{
  protected:
    void SetUp() override
    {
        cfg.feat_ebep = true;
        cfg.feat_sebep = true;
        cfg.pmu_version = PMT_PMUV3P9;
        cfg.num_counters = 4;
        make();
        enable_exception();
    }

    // MDCR_EL3.PMEE = MDCR_EL2.PMEE = 0b01, PMECR_EL1.{PMEE, KPME} = {0b11, 1}: the exception is
    // enabled, taken to EL1, and unmasked at EL1 with PSTATE.PM = 0 and at EL0.
    void enable_exception()
    {
        wr_high(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, PMEE, 1) | PMT_MASK(MDCR_EL3, EnPM2));
        wr_high(PMT_REG_MDCR_EL2,
                PMT_PUT(MDCR_EL2, PMEE, 1) | PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters));
        wr_high(PMT_REG_PMECR_EL1, PMT_PUT(PMECR, PMEE, 3) | PMT_MASK(PMECR, KPME));
        at_el1(false);
    }

    pmt_pe_state el_state(unsigned el, bool pm)
    {
        pmt_pe_state s{};
        s.el = static_cast<uint8_t>(el);
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = true;
        s.pm = pm;
        return s;
    }
    void at_el1(bool pm)
    {
        pmt_pe_state s = el_state(1, pm);
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    // Counter n counts `event` in synchronous mode (SYNC = 1) with its interrupt enabled, one
    // event before overflowing (at 2^64: the Effective PMCR.LP is 1). PMCR.E = 1.
    void sync_counter(unsigned n, uint16_t event = PMT_EV_INST_RETIRED, bool sync = true)
    {
        wr(PMT_REG_PMEVTYPER_EL0,
           event | PMT_MASK(PMEVTYPER, NSH) | (sync ? PMT_MASK(PMEVTYPER, SYNC) : 0), n);
        wr(PMT_REG_PMEVCNTR_EL0, ~uint64_t{0}, n);
        wr(PMT_REG_PMCNTENSET_EL0, bit(n));
        wr(PMT_REG_PMINTENSET_EL1, bit(n));
        pmcr(PMT_MASK(PMCR, E));
    }

    pmt_pmu_exception_state state()
    {
        pmt_pmu_exception_state st{};
        EXPECT_EQ(pmt_pmu_exception_get(pe, &st), PMT_OK);
        return st;
    }

    bool retire(uint64_t address, bool generates_exception = false)
    {
        bool due = false;
        EXPECT_EQ(pmt_pmu_retire(pe, address, generates_exception, &due), PMT_OK);
        return due;
    }

    // An instruction that overflows counter 0 (configured by sync_counter) and retires.
    bool overflowing_instruction(uint64_t address)
    {
        count(PMT_EV_INST_RETIRED, 1);
        return retire(address);
    }
};

// RFHWMC, RNZLVW, RHLYTW: the instruction whose event overflows a counter in synchronous mode with
// PMINTENSET set sets PSTATE.PPEND and records its address in PMIAR_EL1; the next instruction
// observes PPEND with the exception enabled and unmasked, and takes it synchronously.
TEST_F(Sebep, RNZLVW_OverflowingInstructionSetsPpendAndPmiar)
{
    sync_counter(0);
    EXPECT_TRUE(overflowing_instruction(0xFFFF800000001234));
    EXPECT_TRUE(state().ppend);
    EXPECT_TRUE(pmt_pmu_sync_exception_due(pe));
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0xFFFF800000001234u);
}

// RKBPMJ, INPRDL: a counter in synchronous mode does not make the asynchronous exception
// pending; one that is not in synchronous mode does, and leaves PPEND and PMIAR_EL1 alone.
TEST_F(Sebep, INPRDL_AsynchronousCounterLeavesPpendAndPmiar)
{
    wr(PMT_REG_PMIAR_EL1, 0x4000);
    sync_counter(0, PMT_EV_INST_RETIRED, false);
    EXPECT_FALSE(overflowing_instruction(0x1000));
    EXPECT_FALSE(state().ppend);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x4000u);
    EXPECT_TRUE(state().pending);
}

TEST_F(Sebep, RKBPMJ_SynchronousCounterIsNotAsynchronous)
{
    sync_counter(0);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(ovs() & bit(0), bit(0));
    EXPECT_FALSE(state().pending);
    EXPECT_TRUE(exception_changes.empty());
}

// RNZLVW: an instruction that generates an exception does not set PPEND.
TEST_F(Sebep, RNZLVW_InstructionGeneratingAnExceptionDoesNotSetPpend)
{
    sync_counter(0);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_FALSE(retire(0x1000, true));
    EXPECT_FALSE(state().ppend);
}

// RNZLVW: PMINTENSET_EL1[n] must be 1.
TEST_F(Sebep, RNZLVW_NeedsPmintenset)
{
    sync_counter(0);
    wr(PMT_REG_PMINTENCLR_EL1, bit(0));
    EXPECT_FALSE(overflowing_instruction(0x1000));
    EXPECT_FALSE(state().ppend);
}

// RNZLVW: the instruction must have generated an event the counter counted: an instruction that
// counted nothing leaves PPEND 0 although the overflow flag is set.
TEST_F(Sebep, RNZLVW_NeedsAnEventOfThisInstruction)
{
    sync_counter(0);
    count(PMT_EV_INST_RETIRED, 1);
    retire(0x1000);
    ASSERT_TRUE(state().ppend);
    EXPECT_FALSE(retire(0x1004)); // counted nothing
    EXPECT_FALSE(state().ppend);  // cleared at the end of the instruction (ShouldSetPPEND)
}

// IHMXCY: the instruction need not cause the overflow: one that generates the same event after
// the overflow flag was set sets PPEND too.
TEST_F(Sebep, IHMXCY_SameEventAfterTheOverflowSetsPpend)
{
    sync_counter(0);
    count(PMT_EV_INST_RETIRED, 1);
    pmt_pmu_exception_entry(pe, nullptr, nullptr); // e.g. preempted by another exception
    EXPECT_FALSE(state().ppend);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_TRUE(retire(0x2000));
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x2000u);
}

// RNZLVW: the instruction counter (n = 32) in synchronous mode, PMICFILTR_EL0.SYNC.
TEST_F(Sebep, RNZLVW_InstructionCounter)
{
    cfg.feat_icntr = true;
    remake();
    enable_exception();
    wr(PMT_REG_PMICFILTR_EL0, PMT_MASK(PMEVTYPER, NSH) | PMT_MASK(PMEVTYPER, SYNC));
    wr(PMT_REG_PMICNTR_EL0, ~uint64_t{0});
    wr(PMT_REG_PMCNTENSET_EL0, F0);
    wr(PMT_REG_PMINTENSET_EL1, F0);
    pmcr(PMT_MASK(PMCR, E));
    EXPECT_TRUE(overflowing_instruction(0x3000));
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x3000u);
}

// RSSVKV: SYNC = 1 on an event that is not a synchronous event: the counter does not count.
TEST_F(Sebep, RSSVKV_SyncOnAnAsynchronousEventStopsTheCounter)
{
    sync_counter(0, PMT_EV_L1D_CACHE_REFILL); // not in D14.7's list
    wr(PMT_REG_PMEVCNTR_EL0, 5, 0);
    count(PMT_EV_L1D_CACHE_REFILL, 3);
    EXPECT_EQ(cnt(0), 5u);
}

// RXLMVX, RKYPTP: the set of synchronous events is IMPLEMENTATION DEFINED: with a configured list,
// an event in it supports synchronous mode and one outside does not.
TEST_F(Sebep, RXLMVX_ConfiguredSynchronousEvents)
{
    cfg.sync_events = PMT_SYNC_EVENTS_LIST;
    cfg.sync_event_list[0] = PMT_EV_L1D_CACHE_REFILL;
    cfg.num_sync_events = 1;
    remake();
    enable_exception();
    sync_counter(0, PMT_EV_L1D_CACHE_REFILL);
    sync_counter(1, PMT_EV_INST_RETIRED);
    wr(PMT_REG_PMEVCNTR_EL0, 0, 1);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_EQ(cnt(1), 0u); // INST_RETIRED is not synchronous here
    count(PMT_EV_L1D_CACHE_REFILL, 1);
    EXPECT_TRUE(retire(0x1000));
}

// RFCXWT: the cycle counter has no synchronous mode: PMCCFILTR_EL0.SYNC is RES0.
TEST_F(Sebep, RFCXWT_CycleCounterHasNoSyncBit)
{
    wr(PMT_REG_PMCCFILTR_EL0, PMT_MASK(PMEVTYPER, SYNC));
    EXPECT_EQ(rd(PMT_REG_PMCCFILTR_EL0) & PMT_MASK(PMEVTYPER, SYNC), 0u);
}

// RGHRZF: every statement of D13.3.3 needs FEAT_SEBEP: without it SYNC is RES0 and the
// synchronous calls answer PMT_ERR_NOT_IMPLEMENTED.
TEST(SebepAbsent, SyncBitIsRes0AndCallsAnswerNotImplemented)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.feat_ebep = true;
    pmt_pe *pe = pmt_pe_create(&cfg, nullptr);
    ASSERT_NE(pe, nullptr);
    pmt_pe_state s{};
    s.el = 2;
    s.el2_enabled = true;
    ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    pmt_sysreg typer0 = pmt_sysreg_encode({PMT_REG_PMEVTYPER_EL0, 0});
    EXPECT_EQ(pmt_pe_sysreg_write(pe, typer0, PMT_MASK(PMEVTYPER, SYNC)), PMT_ACCESS_OK);
    uint64_t v = 1;
    EXPECT_EQ(pmt_pe_sysreg_read(pe, typer0, &v), PMT_ACCESS_OK);
    EXPECT_EQ(v, 0u);
    bool out = true;
    EXPECT_EQ(pmt_pmu_retire(pe, 0, false, &out), PMT_ERR_NOT_IMPLEMENTED);
    EXPECT_FALSE(out);
    EXPECT_EQ(pmt_pmu_exception_entry(pe, nullptr, &out), PMT_ERR_NOT_IMPLEMENTED);
    EXPECT_EQ(pmt_pmu_retire(nullptr, 0, false, nullptr), PMT_ERR_NULL);
    EXPECT_FALSE(pmt_pmu_sync_exception_due(nullptr));
    pmt_pe_destroy(pe);
}

// RNZLVW: the exception must be unmasked as the instruction retires (at EL1 with PSTATE.PM = 1
// it is masked): PPEND stays 0.
TEST_F(Sebep, RNZLVW_MaskedExceptionDoesNotSetPpend)
{
    sync_counter(0);
    at_el1(true);
    EXPECT_FALSE(overflowing_instruction(0x1000));
    EXPECT_FALSE(state().ppend);
}

// IBBFCX: PPEND is ignored while the exception is masked: nothing is due, until it is unmasked.
TEST_F(Sebep, IBBFCX_PpendIgnoredWhileMasked)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    at_el1(true);
    EXPECT_TRUE(state().ppend);
    EXPECT_FALSE(pmt_pmu_sync_exception_due(pe));
    at_el1(false);
    EXPECT_TRUE(pmt_pmu_sync_exception_due(pe));
}

// RBVBYS: exception entry copies PPEND to SPSR_ELx[33] and clears it.
TEST_F(Sebep, RBVBYS_ExceptionEntrySavesAndClearsPpend)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    pmt_pe_state after = el_state(1, true);
    bool spsr_ppend = false;
    ASSERT_EQ(pmt_pmu_exception_entry(pe, &after, &spsr_ppend), PMT_OK);
    EXPECT_TRUE(spsr_ppend);
    EXPECT_FALSE(state().ppend);
    EXPECT_EQ(pmt_pe_get_state(pe).pm, true);
}

// Exception entry in Debug state: PPEND is cleared; SPSR is UNKNOWN (0 here).
TEST_F(Sebep, ExceptionEntryInDebugStateClearsPpend)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    set_debug(true);
    bool spsr_ppend = true;
    ASSERT_EQ(pmt_pmu_exception_entry(pe, nullptr, &spsr_ppend), PMT_OK);
    EXPECT_FALSE(spsr_ppend);
    EXPECT_FALSE(state().ppend);
}

// Table D13-2 case 1: disabled or masked before and after the return: PPEND is set to 0, even
// with SPSR_ELx.PPEND = 1. (At EL1 with PM = 1, returning to EL1 with PM = 1.)
TEST_F(Sebep, TableD13_2_Case1_MaskedToMaskedClears)
{
    at_el1(true);
    pmt_pe_state after = el_state(1, true);
    bool due = true;
    ASSERT_EQ(pmt_pmu_exception_return(pe, true, &after, 0x100, &due), PMT_OK);
    EXPECT_FALSE(state().ppend);
    EXPECT_FALSE(due);
}

// Table D13-2 case 1 with the exception disabled (PMECR_EL1.PMEE = 0b00).
TEST_F(Sebep, TableD13_2_Case1_DisabledClears)
{
    wr(PMT_REG_PMECR_EL1, PMT_MASK(PMECR, KPME));
    at_el1(true);
    pmt_pe_state after = el_state(0, false);
    ASSERT_EQ(pmt_pmu_exception_return(pe, true, &after, 0x100, nullptr), PMT_OK);
    EXPECT_FALSE(state().ppend);
}

// Table D13-2 case 2: masked before, unmasked after: PPEND = SPSR_ELx.PPEND, and the exception
// is taken before the instruction at the return target completes.
TEST_F(Sebep, TableD13_2_Case2_MaskedToUnmaskedRestoresSpsrPpend)
{
    for (bool spsr : {false, true}) {
        at_el1(true);
        pmt_pe_state after = el_state(0, false);
        bool due = !spsr;
        ASSERT_EQ(pmt_pmu_exception_return(pe, spsr, &after, 0x100, &due), PMT_OK);
        EXPECT_EQ(state().ppend, spsr);
        EXPECT_EQ(due, spsr);
    }
}

// Table D13-2 case 2 and RMQDPX: for the return that unmasks the exception, RNZLVW treats it as
// masked: the ERET's own overflow does not write PMIAR_EL1.
TEST_F(Sebep, RMQDPX_UnmaskingReturnIsMaskedForRnzlvw)
{
    sync_counter(0);
    wr(PMT_REG_PMIAR_EL1, 0x4000);
    at_el1(true);
    count(PMT_EV_INST_RETIRED, 1); // the ERET's own event overflows counter 0
    pmt_pe_state after = el_state(0, false);
    ASSERT_EQ(pmt_pmu_exception_return(pe, false, &after, 0x100, nullptr), PMT_OK);
    EXPECT_FALSE(state().ppend);
    at_el1(false);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x4000u);
}

// Table D13-2 case 3 (CONSTRAINED UNPREDICTABLE, RMQDPX): unmasked before, masked after. With
// the values after the instruction (the default) RNZLVW sees it masked: PPEND = 0.
TEST_F(Sebep, TableD13_2_Case3_AfterValuesTreatItMasked)
{
    sync_counter(0);
    count(PMT_EV_INST_RETIRED, 1);
    pmt_pe_state after = el_state(1, true);
    ASSERT_EQ(pmt_pmu_exception_return(pe, false, &after, 0x100, nullptr), PMT_OK);
    EXPECT_FALSE(state().ppend);
}

// Table D13-2 case 3 with PMT_SYNC_VALUES_BEFORE: RNZLVW sees it unmasked: PPEND = 1 and
// PMIAR_EL1 is the ERET's address.
TEST_F(Sebep, TableD13_2_Case3_BeforeValuesTreatItUnmasked)
{
    cfg.sync_values = PMT_SYNC_VALUES_BEFORE;
    remake();
    enable_exception();
    sync_counter(0);
    retire(0x0FC); // the instruction before
    count(PMT_EV_INST_RETIRED, 1);
    pmt_pe_state after = el_state(1, true);
    ASSERT_EQ(pmt_pmu_exception_return(pe, false, &after, 0x100, nullptr), PMT_OK);
    EXPECT_TRUE(state().ppend);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x100u);
}

// Table D13-2 case 4: unmasked before and after: RNZLVW decides.
TEST_F(Sebep, TableD13_2_Case4_UnmaskedToUnmaskedFollowsRnzlvw)
{
    sync_counter(0);
    pmt_pe_state after = el_state(0, false);
    ASSERT_EQ(pmt_pmu_exception_return(pe, true, &after, 0x100, nullptr), PMT_OK);
    EXPECT_FALSE(state().ppend); // no overflow by the ERET: 0 (SPSR ignored)
    at_el1(false);
    count(PMT_EV_INST_RETIRED, 1);
    bool due = false;
    ASSERT_EQ(pmt_pmu_exception_return(pe, false, &after, 0x104, &due), PMT_OK);
    EXPECT_TRUE(state().ppend);
    EXPECT_TRUE(due);
    at_el1(false);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x104u);
}

// RMQDPX: an instruction that clears PMINTENSET[n] while its event overflows counter n. With the
// values after it (default) PPEND stays 0; with the values before it PPEND is set.
TEST_F(Sebep, RMQDPX_ConditionChangedByTheInstruction)
{
    for (pmt_sync_values policy : {PMT_SYNC_VALUES_AFTER, PMT_SYNC_VALUES_BEFORE}) {
        cfg.sync_values = policy;
        remake();
        enable_exception();
        sync_counter(0);
        retire(0x0FC);
        wr(PMT_REG_PMINTENCLR_EL1, bit(0)); // the instruction's own write ...
        count(PMT_EV_INST_RETIRED, 1);      // ... and its event
        retire(0x100);
        EXPECT_EQ(state().ppend, policy == PMT_SYNC_VALUES_BEFORE) << policy;
    }
}

// RMQDPX: under the values-before policy the overflow's own write of PMOVSSET still counts.
TEST_F(Sebep, RMQDPX_OverflowWriteCountsWithBeforeValues)
{
    cfg.sync_values = PMT_SYNC_VALUES_BEFORE;
    remake();
    enable_exception();
    sync_counter(0);
    retire(0x0FC);
    EXPECT_TRUE(overflowing_instruction(0x100));
}

// RGBQFX, RNHRCY (IDs inferred from their place in the text): Debug state entry in AArch64:
// PPEND goes to DSPSR_EL0[33] and becomes 0; the exit restores it
// when the exception is enabled and unmasked after the exit.
TEST_F(Sebep, DebugStateEntryAndExitAArch64)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    pmt_pe_state halted = el_state(1, false);
    halted.debug = true;
    bool dspsr = false;
    ASSERT_EQ(pmt_pmu_debug_entry(pe, false, &halted, &dspsr), PMT_OK);
    EXPECT_TRUE(dspsr);
    EXPECT_FALSE(state().ppend);
    pmt_pe_state running = el_state(1, false);
    ASSERT_EQ(pmt_pmu_debug_exit(pe, false, true, &running), PMT_OK);
    EXPECT_TRUE(state().ppend);
}

// RNHRCY: Debug state exit in AArch64 to a state where the exception is masked: PPEND = 0.
TEST_F(Sebep, DebugStateExitToMaskedClears)
{
    set_debug(true);
    pmt_pe_state running = el_state(1, true);
    ASSERT_EQ(pmt_pmu_debug_exit(pe, false, true, &running), PMT_OK);
    EXPECT_FALSE(state().ppend);
}

// Debug state exit in AArch32 (to EL0): PPEND from DSPSR2[1] when the exception is enabled,
// masked or not; otherwise 0.
TEST_F(Sebep, DebugStateExitAArch32)
{
    set_debug(true);
    pmt_pe_state el0 = el_state(0, false);
    ASSERT_EQ(pmt_pmu_debug_exit(pe, true, true, &el0), PMT_OK);
    EXPECT_TRUE(state().ppend);
    wr_high(PMT_REG_PMECR_EL1, PMT_MASK(PMECR, KPME)); // disabled
    set_debug(true);
    ASSERT_EQ(pmt_pmu_debug_exit(pe, true, true, &el0), PMT_OK);
    EXPECT_FALSE(state().ppend);
}

// Debug state entry in AArch32: PPEND goes to DSPSR2[1]; PPEND becomes UNKNOWN (0 here).
TEST_F(Sebep, DebugStateEntryAArch32)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    bool dspsr2 = false;
    ASSERT_EQ(pmt_pmu_debug_entry(pe, true, nullptr, &dspsr2), PMT_OK);
    EXPECT_TRUE(dspsr2);
    EXPECT_FALSE(state().ppend);
}

// PMIAR_EL1 (D24.5.13): ADDRESS[63:P] is RESS and [1:0] RES0; P = 48 without FEAT_LVA.
TEST_F(Sebep, PmiarWriteRessAndRes0)
{
    wr(PMT_REG_PMIAR_EL1, 0x0000800000000007);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0xFFFF800000000004u);
    wr(PMT_REG_PMIAR_EL1, 0xFF00700000000000);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x0000700000000000u);
}

// PMIAR_EL1 with FEAT_LVA3 (P = 56).
TEST_F(Sebep, PmiarWithLva3)
{
    cfg.va_bits = 56;
    remake();
    wr(PMT_REG_PMIAR_EL1, 0x0080000000000000);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0xFF80000000000000u);
}

// A bad va_bits is refused with a reason.
TEST_F(Sebep, BadVaBitsRefused)
{
    cfg.va_bits = 50;
    pmt_pe_callbacks cb = callbacks();
    EXPECT_EQ(pmt_pe_create(&cfg, &cb), nullptr);
    EXPECT_NE(log_lines.back().find("va_bits"), std::string::npos);
}

// Save and restore carry PPEND and PMIAR_EL1.
TEST_F(Sebep, SaveRestoreKeepsPpend)
{
    sync_counter(0);
    overflowing_instruction(0x1000);
    std::vector<unsigned char> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    pmt_pmu_exception_entry(pe, nullptr, nullptr);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_TRUE(state().ppend);
}

// IGMXLL, RBKHSW: the priority of the asynchronous PMU exception among asynchronous exceptions is
// IMPLEMENTATION DEFINED and the CPU's: when it takes an IRQ first, the PMU exception is masked
// at the handler (PSTATE.PM = 1), and pending again after the return.
TEST_F(Sebep, RBKHSW_AsynchronousExceptionPreemptedByAnIrqIsPendingAfterTheReturn)
{
    sync_counter(0, PMT_EV_INST_RETIRED, false); // asynchronous mode
    pmt_pe_state el0 = el_state(0, false);
    ASSERT_EQ(pmt_pe_set_state(pe, &el0), PMT_OK);
    count(PMT_EV_INST_RETIRED, 1);
    ASSERT_TRUE(state().pending);
    pmt_pe_state handler = el_state(1, true);
    ASSERT_EQ(pmt_pmu_exception_entry(pe, &handler, nullptr), PMT_OK); // the IRQ is taken first
    EXPECT_FALSE(state().pending);
    ASSERT_EQ(pmt_pmu_exception_return(pe, false, &el0, 0x800, nullptr), PMT_OK);
    EXPECT_TRUE(state().pending);
    EXPECT_EQ(state().target_el, 1);
}

// IGQSRL, RLSGJD: when a precise exception is taken the instruction counter and the counters of
// at-retirement events are precise: at the synchronous exception's entry PMICNTR_EL0 holds every
// instruction counted so far, lazily accumulated counts included.
TEST_F(Sebep, RLSGJD_CountersArePreciseAtTheExceptionEntry)
{
    cfg.feat_icntr = true;
    remake();
    enable_exception();
    wr(PMT_REG_PMICFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
    wr(PMT_REG_PMICNTR_EL0, 0);
    wr(PMT_REG_PMCNTENSET_EL0, F0);
    sync_counter(0);
    wr(PMT_REG_PMEVCNTR_EL0, ~uint64_t{0} - 41, 0); // overflows at the 42nd instruction
    bool due = false;
    uint64_t pc = 0x1000;
    for (int i = 0; i < 100 && !due; i++, pc += 4) {
        count(PMT_EV_INST_RETIRED, 1);
        due = retire(pc);
    }
    ASSERT_TRUE(due);
    pmt_pe_state handler = el_state(1, true);
    ASSERT_EQ(pmt_pmu_exception_entry(pe, &handler, nullptr), PMT_OK);
    EXPECT_EQ(rd(PMT_REG_PMICNTR_EL0), 42u);
    EXPECT_EQ(rd(PMT_REG_PMIAR_EL1), 0x1000u + 41 * 4);
}

} // namespace

// IHMXCY, RNZLVW: with PMOVSSET_EL0[n] already 1 (the overflow flag left set, or set by
// software) the next instruction that generates an event counted by the eligible counter n sets
// PSTATE.PPEND: that is visible, so the headroom of the event is 1 (a CPU that runs up to the
// headroom stops right after that instruction). Masked, or with the flag cleared, the headroom
// is the counter's distance to overflow again (none within reach of a counter at 0).
TEST_F(Sebep, IHMXCY_HeadroomIsOneWhileTheNextEventSetsPpend)
{
    sync_counter(0);
    wr(PMT_REG_PMEVCNTR_EL0, 0, 0);
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), UINT64_MAX);
    wr(PMT_REG_PMOVSSET_EL0, bit(0));
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), 1u);
    at_el1(true); // masked: RNZLVW does not apply
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), UINT64_MAX);
    at_el1(false);
    count(PMT_EV_INST_RETIRED, 1);
    EXPECT_TRUE(retire(0x1000));
    EXPECT_EQ(cnt(0), 1u);
    wr(PMT_REG_PMOVSCLR_EL0, bit(0));
    EXPECT_EQ(pmt_pmu_headroom(pe, PMT_EV_INST_RETIRED), UINT64_MAX);
}
