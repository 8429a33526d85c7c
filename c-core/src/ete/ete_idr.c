/*
 * ete_idr.c - what the trace unit says about itself: TRCIDR0-TRCIDR13, TRCDEVARCH,
 * TRCAUTHSTATUS (D24.4.13, D24.4.26, D24.4.31-D24.4.44). Each value is derived from the config
 * and answers what the model implements: no data trace, no Q elements, no sequencer,
 * single-shot comparators or PE comparator inputs, no stalling, no Instrumentation Trace, no
 * speculation (TRCIDR8.MAXSPEC = 0). External Inputs are PMU events selected by
 * TRCEXTINSELR<n>; the Counters are pmt_ete_config.num_counters. docs/trace.md has the table.
 */
#include "ete_internal.h"

uint64_t ete_exlevel_bits(const pmt_pe *pe)
{
    const pmt_pe_config *c = &pe->cfg;
    uint64_t m = 0x3u << 4; /* Non-secure EL0 and EL1 */
    if (c->have_el2)
        m |= 1u << 6; /* Non-secure EL2 */
    if (c->have_el3)
        m |= 0x3u | 1u << 3; /* Secure EL0, EL1 and EL3 exist with EL3 */
    if (c->have_sel2)
        m |= 1u << 2;
    if (c->have_rme)
        m |= (0x3u | (c->have_el2 ? 0x4u : 0u)) << 8; /* Realm EL0, EL1, EL2 */
    return m;
}

static uint64_t idr0(const pmt_pe *pe)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    /* TRCCCI: "This field reads as 1" (D24.4.31, TRCIDR0): every ETE trace unit counts cycles. */
    return PMT_PUT(TRCIDR0, RES1, 1) | PMT_PUT(TRCIDR0, TRCCCI, 1) |
           PMT_PUT(TRCIDR0, TRCBB, e->branch_broadcast) |
           PMT_PUT(TRCIDR0, RETSTACK, e->return_stack) |
           /* NUMEVENT: four ETEEvents (0b11) when there are resource selectors, else none. */
           PMT_PUT(TRCIDR0, NUMEVENT, e->num_rs_pairs ? 3u : 0u) |
           PMT_PUT(TRCIDR0, TSSIZE, e->timestamps ? 8u : 0u) |
           /* COMMOPT is RAO with TRCCCI = 1 and MAXSPEC = 0 (commit mode 1: Cycle Count packets
            * carry no commit field). */
           PMT_PUT(TRCIDR0, COMMOPT, 1);
}

static uint64_t idr3(const pmt_pe *pe)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    uint64_t el = ete_exlevel_bits(pe);
    return PMT_PUT(TRCIDR3, CCITMIN, e->ccitmin) | /* TRCCCI == 1: 0x001..0xFFF */
           PMT_PUT(TRCIDR3, EXLEVEL_S, el & 0xF) | PMT_PUT(TRCIDR3, EXLEVEL_NS, el >> 4 & 0x7) |
           PMT_PUT(TRCIDR3, TRCERR, 1) | /* "This field reads as 1" */
           PMT_PUT(TRCIDR3, SYNCPR, e->fixed_sync_period);
}

uint64_t ete_idr(const pmt_pe *pe, unsigned n)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    bool el2 = pe->cfg.have_el2;
    switch (n) {
    case 0: return idr0(pe);
    case 1:
        return PMT_PUT(TRCIDR1, REVISION, e->revision) | PMT_PUT(TRCIDR1, TRCARCHMIN, 0xF) |
               PMT_PUT(TRCIDR1, TRCARCHMAJ, 0xF) | PMT_PUT(TRCIDR1, RES1, 0xF) |
               PMT_PUT(TRCIDR1, DESIGNER, e->designer);
    case 2:
        return PMT_PUT(TRCIDR2, IASIZE, 8) | PMT_PUT(TRCIDR2, CIDSIZE, 4) |
               PMT_PUT(TRCIDR2, VMIDSIZE, el2 ? 4u : 0u) |
               PMT_PUT(TRCIDR2, CCSIZE, e->cc_size) | /* TRCCCI == 1 */
               PMT_PUT(TRCIDR2, VMIDOPT, el2 ? 2u : 0u) | PMT_PUT(TRCIDR2, WFXMODE, e->wfx_p0);
    case 3: return idr3(pe);
    case 4:
        return PMT_PUT(TRCIDR4, NUMACPAIRS, e->num_ac_pairs) |
               PMT_PUT(TRCIDR4, NUMRSPAIR, e->num_rs_pairs ? e->num_rs_pairs - 1 : 0u) |
               PMT_PUT(TRCIDR4, NUMCIDC, e->num_cid_comps) |
               PMT_PUT(TRCIDR4, NUMVMIDC, e->num_vmid_comps);
    case 5:
        /* NUMEXTIN 0x1FF: unified PMU event selection through TRCEXTINSELR<n>. */
        return PMT_PUT(TRCIDR5, NUMCNTR, e->num_counters) |
               PMT_PUT(TRCIDR5, TRACEIDSIZE, e->trace_id ? 7u : 0u) |
               PMT_PUT(TRCIDR5, NUMEXTINSEL, e->num_ext_in_sel) |
               PMT_PUT(TRCIDR5, NUMEXTIN, e->num_ext_in_sel ? 0x1FFu : 0u);
    case 6: return PMT_PUT(TRCIDR6, EXLEVEL_RL, ete_exlevel_bits(pe) >> 8 & 0x7);
    default: return 0; /* TRCIDR7 (RES0), TRCIDR8.MAXSPEC and TRCIDR9-13 key counts: 0 */
    }
}

/* TRCDEVARCH (D24.4.26): ARCHITECT Arm (0x23B), PRESENT, REVISION 0 (ETEv1.0), ARCHVER 5,
 * ARCHPART 0xA13. */
uint64_t ete_devarch(void)
{
    return PMT_PUT(TRCDEVARCH, ARCHITECT, 0x23B) | PMT_PUT(TRCDEVARCH, PRESENT, 1) |
           PMT_PUT(TRCDEVARCH, ARCHVER, 5) | PMT_PUT(TRCDEVARCH, ARCHPART, 0xA13);
}

/* TRCAUTHSTATUS (D24.4.13): the non-invasive fields as DBGAUTHSTATUS_EL1 has them. With
 * FEAT_Debugv8p4 (ETE is Armv9) non-invasive debug is enabled wherever invasive debug is: the
 * authentication interface the PE reports in ext_invasive_prohibited. NSID, SID, HID, HNID read
 * as 0b00. */
uint64_t ete_authstatus(const pmt_pe *pe)
{
    unsigned prohibited = pe->st.pe.ext_invasive_prohibited;
#define AUTH_(ss) ((prohibited >> (ss)&1u) ? 2u : 3u)
    uint64_t v = PMT_PUT(TRCAUTHSTATUS, NSNID, 3);
    if (pe->cfg.have_el3)
        v |= PMT_PUT(TRCAUTHSTATUS, SNID, AUTH_(PMT_SS_SECURE));
    if (pe->cfg.have_rme)
        v |= PMT_PUT(TRCAUTHSTATUS, RLID, AUTH_(PMT_SS_REALM)) |
             PMT_PUT(TRCAUTHSTATUS, RLNID, AUTH_(PMT_SS_REALM)) |
             PMT_PUT(TRCAUTHSTATUS, RTID, AUTH_(PMT_SS_ROOT)) |
             PMT_PUT(TRCAUTHSTATUS, RTNID, AUTH_(PMT_SS_ROOT));
#undef AUTH_
    return v;
}
