/*
 * pcs_internal.h - what the two frames of PC sample-based profiling share: pc_sample as
 * CreatePCSample made it (J1.3.1.121), refreshed from the CPU's sample source when one is set.
 */
#ifndef PMTRACE_PCS_INTERNAL_H
#define PMTRACE_PCS_INTERNAL_H

#include "../pe_internal.h"

/* The fields of pc_sample that CreatePCSample derives from the PE's registers, from the sample
 * the CPU reported. Values the pseudocode calls UNKNOWN are 0. */
struct pcs_fields {
    unsigned el;             /* pc_sample.el */
    bool rw;                 /* pc_sample.rw: 1 for AArch64 */
    bool secure;             /* pc_sample.ss == SS_Secure */
    bool has_el2;            /* PSTATE.EL != EL3 && EL2Enabled() */
    uint16_t vmid;           /* with has_el2: VTTBR.VMID or VTTBR_EL2.VMID at its width */
    uint32_t contextidr_el2; /* with has_el2: CONTEXTIDR_EL2 or UNKNOWN */
    bool el0h;               /* PSTATE.EL == EL0 && IsInHost() */
};

struct pcs_fields pcs_fields_of(const pmt_pe *pe);

/* Why a sample cannot come from this PE, or NULL (pmt_pe_pc_sample, a sample source, a restored
 * state). */
const char *pcs_sample_error(const pmt_pe *pe, const pmt_pc_sample *s);

/* PCSRSuspended() */
bool pcs_suspended(const pmt_pe *pe);

/* CreatePCSample() with the CPU's sample on request, when a source is set: called by every
 * read that uses pc_sample, before it uses it. */
void pcs_refresh(pmt_pe *pe);

#endif
