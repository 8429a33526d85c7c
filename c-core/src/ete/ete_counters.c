/*
 * ete_counters.c - the trace unit's Counters (TRCIDR5.NUMCNTR, pmt_ete_config.num_counters):
 * each a 16-bit down-counter, TRCCNTVR<n>, with its control TRCCNTCTLR<n> and its reload value
 * TRCCNTRLDVR<n> (D24.4.22 to D24.4.24), and its "Counter <n> is zero" resource, which
 * TRCRSCTLR<m> group 0b0010 (Counters and Sequencer) selects with SELECT bit n (D24.4.54).
 *
 * The Arm ARM chapters the repository holds give the registers only. The behaviour is theirs
 * where they say it, and elsewhere the ETMv4 and ETM texts that say more (docs/choices.md,
 * "Counters", lists what each rule follows and what could not be confirmed):
 *   - CNTEVENT: "an event, that when it occurs causes Counter <n> to decrement" (D24.4.22).
 *   - A counter at zero stays at zero ("When the counter reaches zero it remains at zero",
 *     ETM IHI0014 2.2.3; the ETMv4 TRMs' "Normal mode").
 *   - RLDEVENT: "an event, that when it occurs causes a reload event"; a reload event copies
 *     TRCCNTRLDVR<n>.VALUE into the counter (D24.4.22, D24.4.23). It takes priority over a
 *     decrement at the same point (IHI0014 2.2.3).
 *   - RLDSELF, Self-reload mode: "a reload event occurs for the Counter, when the Counter
 *     reaches zero" (D24.4.22): when it is zero and the resource CNTEVENT selects is active
 *     (the ETMv4 TRMs of Cortex-A35, A53, A76: "The counter reloads when it is zero and the
 *     resource selected by CNTTYPE and CNTSEL is also active").
 *   - CNTCHAIN (odd n): Counter <n> also decrements when a reload event occurs for Counter
 *     <n-1> (D24.4.22); one decrement at a point however many of its events occur.
 *
 * When the counters count is the model's granularity: at each evaluation point of the trace
 * unit's resource events (ete_trace.c: each traced P0 element, each External Input event the
 * unit takes). At a point every resource event (CNTEVENT, RLDEVENT, and those of TRCTSCTLR,
 * TRCEVENTCTL0R that the glue reads) is evaluated with the counters as they were before it,
 * then the counters move: a synchronous machine, as the hardware's resources are registered.
 */
#include "ete_internal.h"

#include "pmtrace/pmt_ete.h"

/* The 8-bit {TYPE, SEL} resource event selectors of TRCCNTCTLR<n> (TRCEVENT layout). */
static unsigned cnt_event(uint64_t ctl)
{
    return (unsigned)(PMT_PUT(TRCEVENT, SEL, PMT_GET(TRCCNTCTLR, CNTEVENT_SEL, ctl)) |
                      PMT_PUT(TRCEVENT, TYPE, PMT_GET(TRCCNTCTLR, CNTEVENT_TYPE, ctl)));
}

static unsigned rld_event(uint64_t ctl)
{
    return (unsigned)(PMT_PUT(TRCEVENT, SEL, PMT_GET(TRCCNTCTLR, RLDEVENT_SEL, ctl)) |
                      PMT_PUT(TRCEVENT, TYPE, PMT_GET(TRCCNTCTLR, RLDEVENT_TYPE, ctl)));
}

unsigned ete_counters_at_zero(const pmt_pe *pe)
{
    unsigned m = 0;
    for (unsigned n = 0; n < pe->cfg.ete.num_counters; n++)
        if (PMT_GET(TRCCNTVR, VALUE, pe->st.ete.cntvr[n]) == 0)
            m |= 1u << n;
    return m;
}

bool ete_counters_live(const pmt_pe *pe)
{
    /* A counter whose events both select resource 0 (FALSE: the value 0, which is also what
     * Linux's etm4x writes for a counter it does not use) never moves, nor does one chained to
     * such a counter. Any other selector may fire. */
    for (unsigned n = 0; n < pe->cfg.ete.num_counters; n++)
        if (cnt_event(pe->st.ete.cntctlr[n]) || rld_event(pe->st.ete.cntctlr[n]))
            return true;
    return false;
}

void ete_counters_step(pmt_pe *pe, uint64_t addr, unsigned extin)
{
    struct pmt_ete_regs *t = &pe->st.ete;
    const unsigned num = pe->cfg.ete.num_counters;
    bool count[PMT_ETE_MAX_COUNTERS] = {false}, reload[PMT_ETE_MAX_COUNTERS] = {false};
    /* Every event with the counters' values before this point. */
    for (unsigned n = 0; n < num; n++) {
        count[n] = ete_resource_event(pe, cnt_event(t->cntctlr[n]), addr, extin);
        reload[n] = ete_resource_event(pe, rld_event(t->cntctlr[n]), addr, extin);
    }
    /* Then the counters, in order: a chained counter needs its neighbour's reload event. */
    for (unsigned n = 0; n < num; n++) {
        const uint64_t ctl = t->cntctlr[n];
        const uint64_t v = PMT_GET(TRCCNTVR, VALUE, t->cntvr[n]);
        bool dec = count[n];
        if (n % 2 == 1 && PMT_GET(TRCCNTCTLR, CNTCHAIN, ctl) && reload[n - 1])
            dec = true; /* CNTCHAIN: Counter <n-1>'s reload event */
        if (PMT_GET(TRCCNTCTLR, RLDSELF, ctl) && v == 0 && count[n])
            reload[n] = true; /* Self-reload mode: at zero, and CNTEVENT occurs */
        if (reload[n])
            t->cntvr[n] = PMT_GET(TRCCNTRLDVR, VALUE, t->cntrldvr[n]);
        else if (dec && v != 0)
            t->cntvr[n] = v - 1; /* at zero it stays there */
    }
}
