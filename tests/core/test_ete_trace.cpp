// The trace unit's instruction trace (pmt_ete_report_*): reports of what a PE executed go through
// the trace unit's filters and encoder into the Trace Buffer Unit of the same PE, which writes
// them to (fake) memory; OpenCSD's ETE decoder turns the buffer back into instructions, which
// must be exactly those reported as traced. Only the public C API is used.
#include "ete_trace_fixture.h"

namespace
{

TEST_F(EteTrace, TheCaptureDecodesIntoTheInstructionsReported)
{
    start();
    go(0);
    run_program();
    const decoded d = decode_capture();
    expect_ranges(d, {range_of(LOOP, 3, true), range_of(LOOP, 3, true), range_of(LOOP, 3, false),
                      range_of(CALL, 1, true), range_of(FUNC, 2, true), range_of(BACK, 2, true),
                      range_of(VEC, 2, true), range_of(AFTER, 2, true)});
    // The SVC: an exception of type Call whose preferred return address follows the SVC.
    const std::vector<element> exc = d.of(kind::exception);
    ASSERT_EQ(exc.size(), 1u);
    EXPECT_EQ(exc[0].n, unsigned{PMT_ETE_EXC_CALL});
    EXPECT_EQ(exc[0].b, BACK + 8);
    // Contexts: EL0 at the start, EL1 at the vector, EL0 after the ERET; Non-secure AArch64.
    std::vector<unsigned> els;
    for (const element &c : d.of(kind::context)) {
        els.push_back(c.el);
        EXPECT_EQ(c.sec, ocsd_sec_nonsecure);
        EXPECT_TRUE(c.sf);
    }
    ASSERT_GE(els.size(), 3u);
    EXPECT_EQ(els.front(), 0u);
    EXPECT_EQ(els.back(), 0u);
    EXPECT_NE(std::find(els.begin(), els.end(), 1u), els.end());
}

TEST_F(EteTrace, El0ExcludedByTrcvictlrIsNotTraced)
{
    // TRCVICTLR.EXLEVEL_NS_EL0 (bit 20): no instruction trace at Non-secure EL0.
    start(0, 0x201 | (uint64_t{1} << 20));
    go(0);
    run_program();
    const decoded d = decode_capture();
    // Only EL1's instructions: the vector and its ERET; the exception was taken from EL0, where
    // nothing is traced, so there is no Exception element and trace starts at the vector.
    expect_ranges(d, {range_of(VEC, 2, true)});
    EXPECT_TRUE(d.of(kind::exception).empty());
}

TEST_F(EteTrace, ExceptionToAnUntracedLevelEndsTheTraceAfterItsElement)
{
    // EXLEVEL_NS_EL1 (bit 21): EL1 excluded, EL0 traced.
    start(0, 0x201 | (uint64_t{1} << 21));
    go(0);
    run_program();
    const decoded d = decode_capture();
    expect_ranges(d, {range_of(LOOP, 3, true), range_of(LOOP, 3, true), range_of(LOOP, 3, false),
                      range_of(CALL, 1, true), range_of(FUNC, 2, true), range_of(BACK, 2, true),
                      range_of(AFTER, 2, true)});
    const std::vector<element> exc = d.of(kind::exception);
    ASSERT_EQ(exc.size(), 1u);
    EXPECT_EQ(exc[0].b, BACK + 8);
    // Trace resumes at EL0 after the ERET: a Trace On element.
    EXPECT_FALSE(d.of(kind::trace_on).empty());
}

TEST_F(EteTrace, ViewInstIncludeRangeTracesOnlyItsInstructions)
{
    start(0, 0x201, false);
    // Address Range Comparator 0 = comparators 0 and 1: [FUNC, BACK + 4]; TRCVIIECTLR.INCLUDE 1.
    wr(PMT_REG_TRCACVR, FUNC, 0);
    wr(PMT_REG_TRCACVR, BACK + 4, 1);
    wr(PMT_REG_TRCVIIECTLR, 1);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    run_program();
    const decoded d = decode_capture();
    // FUNC..FUNC+4 (the BR) and BACK..BACK+4 (the SVC, an exception taken from traced code).
    expect_ranges(d, {range_of(FUNC, 2, true), range_of(BACK, 2, true)});
    ASSERT_EQ(d.of(kind::exception).size(), 1u);
}

TEST_F(EteTrace, NothingIsTracedWhereTrfcrProhibitsIt)
{
    start();
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E1TRE)); // EL0 prohibited
    go(0);
    run_program();
    const decoded d = decode_capture();
    expect_ranges(d, {range_of(VEC, 2, true)});
}

// TraceAllowed() follows TRFCR_EL1 from one report to the next (J1.3.4.42): a write that
// prohibits trace at EL1 between two reports leaves the second untraced, and the write that
// allows it again has the third traced, with no PE state change in between.
TEST_F(EteTrace, TrfcrWritesBetweenReportsApplyFromTheNextReport)
{
    start();
    go(1);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE)); // EL1 prohibited
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    const decoded d = decode_capture();
    expect_ranges(d, {range_of(LOOP, 3, true), range_of(LOOP, 3, false), range_of(CALL, 1, true)});
}

// A restored state brings its TRFCR_EL1 back, and TraceAllowed() with it: the report after the
// restore of a state where EL1 is prohibited is not traced, though the one before it was.
TEST_F(EteTrace, ARestoredStateFiltersTheNextReport)
{
    start();
    go(1);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE)); // EL1 prohibited
    std::vector<uint8_t> saved(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, saved.data(), saved.size()), PMT_OK);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP); // traced, then undone by the restore
    ASSERT_EQ(pmt_pe_restore(pe, saved.data(), saved.size()), PMT_OK);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    wr(PMT_REG_TRFCR_EL1, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    const decoded d = decode_capture();
    expect_ranges(d, {range_of(LOOP, 3, false), range_of(CALL, 1, true)});
}

TEST_F(EteTrace, DisablingOutputsThePendingAtomsAndTheUnitIsIdle)
{
    start();
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 5);
    go(1);
    pmt_trbe_status before{};
    ASSERT_EQ(pmt_trbe_get_status(pe, &before), PMT_OK);
    const std::vector<uint8_t> bytes = captured();
    EXPECT_EQ(PMT_GET(TRCSTATR, IDLE, rd(PMT_REG_TRCSTATR)), 1u);
    const decoded d = decode(bytes, img, {});
    std::vector<element> want(5, range_of(LOOP, 3, true));
    expect_ranges(d, want);
}

// The PE OS Lock controls the unit (TRCOSLSR.OSLM = 0b100), here through the model's OSLAR_EL1
// (os_lock_registers), locked out of reset: a unit enabled while the lock is held is Idle and
// traces nothing, no byte reaches the buffer; released, trace starts at the next instruction and
// decodes.
TEST_F(EteTrace, TheOsLockHeldWhileEnablingTracesNothingUntilReleased)
{
    cfg.os_lock_registers = true;
    start(); // TRCPRGCTLR.EN = 1, the lock held
    EXPECT_EQ(rd(PMT_REG_TRCOSLSR), 0x12u);
    EXPECT_EQ(rd(PMT_REG_TRCSTATR), 3u); // IDLE, PMSTABLE
    go(0);
    run_program();
    EXPECT_EQ(stats().bytes, 0u);
    ASSERT_EQ(pmt_trbe_tsb_csync(pe), PMT_OK);
    EXPECT_EQ(ptr(), BASE);
    wr_el(1, PMT_REG_OSLAR_EL1, 0);
    EXPECT_EQ(rd_el(1, PMT_REG_TRCSTATR), 0u);
    range(AFTER, AFTER + 4, PMT_ETE_P0_DIRECT, true, AFTER, 3);
    expect_ranges(decode_capture(), std::vector<element>(3, range_of(AFTER, 2, true)));
}

// Linux's etm4x saves the unit's state on CPU power-down by locking the OS Lock and polling
// TRCSTATR.PMSTABLE (__etm4_cpu_save): the lock disables the unit, whose trace so far goes out
// (the pending atoms packed) so that it is Idle and stable at the first poll; what runs while
// the lock is held is not traced.
TEST_F(EteTrace, LockingTheOsLockOutputsTheTraceAndStopsIt)
{
    cfg.os_lock_registers = true;
    start(0, 0x201, false);
    wr(PMT_REG_OSLAR_EL1, 0);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 5);
    wr_el(1, PMT_REG_OSLAR_EL1, 1);
    EXPECT_EQ(rd_el(1, PMT_REG_TRCSTATR), 3u);
    const uint64_t bytes = stats().bytes;
    EXPECT_GT(bytes, 0u);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 5);
    EXPECT_EQ(stats().bytes, bytes);
    expect_ranges(decode_capture(), std::vector<element>(5, range_of(LOOP, 3, true)));
}

TEST_F(EteTrace, TimestampsComeFromTheGenericCounterAtEachSynchronization)
{
    ts_value = 0xABCDE;
    start(PMT_MASK(TRCCONFIGR, TS));
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    pmt_ete_pkt_config c{};
    c.ts = true;
    const decoded d = decode_capture(c);
    const std::vector<element> ts = d.of(kind::timestamp);
    ASSERT_EQ(ts.size(), 1u);
    EXPECT_EQ(ts[0].a, 0xABCDEu);
}

TEST_F(EteTrace, EteEvent0IsTheTraceBufferUnitsDetectedTrigger)
{
    start(0, 0x201, false);
    // Resource selector 2: Single Address Comparator 0 at FUNC + 4 (the BR); ETEEvent 0 selects
    // it, and TRCEVENTCTL1R.INSTEN[0] traces it as an Event element.
    event0_at(FUNC + 4);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    EXPECT_EQ(TRBSR_F(sr(), TRG), 0u);
    range(FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, BACK);
    EXPECT_EQ(TRBSR_F(sr(), TRG), 1u); // RKSQJW: the Detected Trigger was observed
    const decoded d = decode_capture();
    const std::vector<element> ev = d.of(kind::event);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].n, 0x1u); // the Event packet's bit 0: ETEEvent 0
}

TEST_F(EteTrace, AnEventAtARepeatedRangesBranchOccursAtEachRun)
{
    start(0, 0x201, false);
    // ETEEvent 0 (traced: TRCEVENTCTL1R.INSTEN[0]) is Single Address Comparator 0 at the loop's
    // B.NE; the loop reported as one range run three times, then once more not taken. Events are
    // evaluated at every P0 element: an Event element after each of the four atoms, not one
    // after the three.
    event0_at(LOOP + 8);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 3);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL);
    const decoded d = decode_capture();
    EXPECT_EQ(d.errors, 0u);
    std::vector<kind> order;
    for (const element &e : d.elements)
        if (e.k == kind::range || e.k == kind::event)
            order.push_back(e.k);
    const std::vector<kind> want = {kind::range, kind::event, kind::range, kind::event,
                                    kind::range, kind::event, kind::range, kind::event};
    EXPECT_EQ(order, want);
}

TEST_F(EteTrace, StopOnTriggerFlushesTheUnitFirst)
{
    start(0, 0x201, false);
    // Stop on trigger with the Trigger Counter 0: the trace before the Detected Trigger, the
    // atoms the unit still held included, is in the buffer when collection stops (RXRRWP).
    program(BASE, LIMIT, BASE, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_STOP);
    wr(PMT_REG_TRBTRG_EL1, 0);
    event0_at(FUNC + 4, false);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 3);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    range(FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, BACK);
    EXPECT_EQ(TRBSR_F(sr(), S), 1u);
    EXPECT_EQ(TRBSR_F(sr(), MSS) & 0x3F, unsigned{PMT_TRBSR_BSC_TRIGGER}); // BSC: MSS[5:0]
    range(BACK, BACK + 4, PMT_ETE_P0_DIRECT, true, AFTER); // after collection stopped
    go(1);
    const decoded d = decode_capture();
    std::vector<element> want(3, range_of(LOOP, 3, true));
    want.push_back(range_of(LOOP, 3, false));
    want.push_back(range_of(CALL, 1, true));
    want.push_back(range_of(FUNC, 2, true));
    expect_ranges(d, want);
}

TEST_F(EteTrace, BadReportsAreRefusedAndChangeNothing)
{
    start();
    go(0);
    pmt_ete_range r{LOOP + 2, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_ARG); // unaligned
    r = {LOOP + 8, LOOP, PMT_ETE_P0_DIRECT, true, LOOP, 1};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_ARG); // last before start
    r = {LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, CALL, 2};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_ARG); // repeated but not a loop
    r = {LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 0};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_ARG); // count 0
    r = {LOOP, LOOP + 8, static_cast<pmt_ete_p0>(9), true, LOOP, 1};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_ARG);
    pmt_ete_exception_taken e{static_cast<pmt_ete_exception>(5), BACK, BACK + 8};
    EXPECT_EQ(pmt_ete_report_exception(pe, &e), PMT_ERR_ARG); // type 5 is not defined
    e = {PMT_ETE_EXC_CALL, BACK + 8, BACK};
    EXPECT_EQ(pmt_ete_report_exception(pe, &e), PMT_ERR_ARG);
    EXPECT_EQ(pmt_ete_report_range(pe, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_ete_report_range(nullptr, &r), PMT_ERR_NULL);
    pmt_ete_stats s{};
    ASSERT_EQ(pmt_ete_get_stats(pe, &s), PMT_OK);
    EXPECT_EQ(s.refused, 7u);
    EXPECT_EQ(s.ranges, 0u);
    EXPECT_TRUE(captured().empty()); // nothing was traced
}

// pmt_ete_report_range_held: the reports a platform may make without bringing the PE's clock to
// their time, because they output nothing and ask no time.

TEST_F(EteTrace, AnAtomThatJoinsThosePendingIsHeldWithoutOutputOrTime)
{
    start(PMT_MASK(TRCCONFIGR, TS));
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP); // Trace On, its timestamp, the atom
    const pmt_ete_stats before = stats();
    const unsigned asked = ts_asked;
    const uint64_t p = ptr();
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL));
    const pmt_ete_stats after = stats();
    EXPECT_EQ(after.bytes, before.bytes); // nothing went to the Trace Buffer Unit
    EXPECT_EQ(ptr(), p);
    EXPECT_EQ(ts_asked, asked);
    EXPECT_EQ(after.ranges, before.ranges + 2);
    EXPECT_EQ(after.traced_p0, before.traced_p0 + 2);
    pmt_ete_pkt_config c{};
    c.ts = true;
    expect_ranges(decode_capture(c),
                  {range_of(LOOP, 3, true), range_of(LOOP, 3, true), range_of(LOOP, 3, false)});
}

TEST_F(EteTrace, TheAtomThatFillsThePendingOnesIsNotHeld)
{
    start();
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    // An Atom packet holds at most 24 atoms (format 6): within 24 reports one is not held.
    unsigned n = 1;
    while (n < 30 && held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP))
        n++;
    EXPECT_GT(n, 1u);
    EXPECT_LE(n, 24u);
    const pmt_ete_stats before = stats();
    EXPECT_FALSE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP)); // still not: unchanged
    EXPECT_EQ(stats().ranges, before.ranges);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP); // made with its time
    EXPECT_GT(stats().bytes, before.bytes);
    expect_ranges(decode_capture(), std::vector<element>(n + 1, range_of(LOOP, 3, true)));
}

// pmt_ete_report_ranges_held: the same reports in one call, up to the first it cannot hold.
TEST_F(EteTrace, RangesHeldInOneCallStopAtTheFirstNotHeld)
{
    start();
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    // As many as one at a time holds, from the same state.
    std::vector<uint8_t> state(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, state.data(), state.size()), PMT_OK);
    size_t one_at_a_time = 0;
    while (one_at_a_time < 30 && held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP))
        one_at_a_time++;
    ASSERT_EQ(pmt_pe_restore(pe, state.data(), state.size()), PMT_OK);
    const std::vector<pmt_ete_range> loop(30, {LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1});
    const pmt_ete_stats before = stats();
    const size_t n = pmt_ete_report_ranges_held(pe, loop.data(), loop.size());
    EXPECT_EQ(n, one_at_a_time);
    // An Atom packet holds at most 24 atoms: the first range reported held one of them.
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, 23u);
    EXPECT_EQ(stats().ranges, before.ranges + n);
    EXPECT_EQ(stats().bytes, before.bytes);
    EXPECT_FALSE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP)); // the next is not
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);              // made with its time
    EXPECT_EQ(stats().ranges, before.ranges + n + 1);
    expect_ranges(decode_capture(), std::vector<element>(n + 2, range_of(LOOP, 3, true)));
}

TEST_F(EteTrace, RangesHeldInOneCallStopAtOneReportRangeRefuses)
{
    start();
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    const pmt_ete_range ok{LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1};
    pmt_ete_range unaligned = ok;
    unaligned.start = LOOP + 2;
    const pmt_ete_range three[] = {ok, unaligned, ok};
    const pmt_ete_stats before = stats();
    EXPECT_EQ(pmt_ete_report_ranges_held(pe, three, 3), 1u);
    EXPECT_EQ(pmt_ete_report_ranges_held(pe, three, 0), 0u);
    EXPECT_EQ(pmt_ete_report_ranges_held(pe, nullptr, 3), 0u);
    EXPECT_EQ(pmt_ete_report_ranges_held(nullptr, three, 3), 0u);
    const pmt_ete_stats after = stats();
    EXPECT_EQ(after.ranges, before.ranges + 1);
    EXPECT_EQ(after.refused, before.refused);
}

TEST_F(EteTrace, TheRangeAfterAnIndirectBranchIsNotHeld)
{
    start();
    go(0);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    EXPECT_TRUE(held(FUNC, FUNC + 4, PMT_ETE_P0_INDIRECT, true, AFTER)); // its atom is held ...
    // ... and the target the BR went to is due in an Address packet: output.
    EXPECT_FALSE(held(AFTER, AFTER + 4, PMT_ETE_P0_DIRECT, true, AFTER));
    range(AFTER, AFTER + 4, PMT_ETE_P0_DIRECT, true, AFTER);
    expect_ranges(decode_capture(),
                  {range_of(CALL, 1, true), range_of(FUNC, 2, true), range_of(AFTER, 2, true)});
}

TEST_F(EteTrace, ReportsToADisabledUnitAreHeldAndTraceNothing)
{
    start(0, 0x201, false);
    go(0);
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    EXPECT_TRUE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, false, CALL));
    EXPECT_EQ(stats().bytes, 0u);
    wr_el(1, PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(CALL, CALL, PMT_ETE_P0_DIRECT, true, FUNC);
    expect_ranges(decode_capture(), {range_of(CALL, 1, true)});
}

TEST_F(EteTrace, HeldMakesNoReportThatReportRangeRefuses)
{
    start();
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    const pmt_ete_stats before = stats();
    EXPECT_FALSE(held(LOOP + 2, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP)); // unaligned
    EXPECT_FALSE(held(LOOP, LOOP + 8, static_cast<pmt_ete_p0>(9), true, LOOP));
    EXPECT_FALSE(pmt_ete_report_range_held(pe, nullptr));
    const pmt_ete_range r{LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1};
    EXPECT_FALSE(pmt_ete_report_range_held(nullptr, &r));
    const pmt_ete_stats after = stats();
    EXPECT_EQ(after.ranges, before.ranges);
    EXPECT_EQ(after.refused, before.refused); // refusing, with its log line, is report_range's
}

TEST_F(EteTrace, AnEventSelectedMakesNoRangeHeld)
{
    // ETEEvent 0, traced, is Single Address Comparator 0 at the loop's B.NE: each run of the
    // loop has an Event element after its atom (D24.4.28), which the trace outputs.
    start(0, 0x201, false);
    event0_at(LOOP + 8);
    wr(PMT_REG_TRCPRGCTLR, 1);
    go(0);
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    EXPECT_FALSE(held(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP));
    range(LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP);
    EXPECT_EQ(decode_capture().of(kind::event).size(), 2u);
}

TEST_F(EteTrace, ReportsToAPeWithoutEteAreRefused)
{
    make_trbe(); // FEAT_ETE off
    const pmt_ete_range r{LOOP, LOOP + 8, PMT_ETE_P0_DIRECT, true, LOOP, 1};
    EXPECT_EQ(pmt_ete_report_range(pe, &r), PMT_ERR_NOT_IMPLEMENTED);
    EXPECT_EQ(pmt_ete_flush(pe), PMT_ERR_NOT_IMPLEMENTED);
}

} // namespace
