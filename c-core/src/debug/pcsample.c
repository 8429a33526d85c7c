/*
 * pcsample.c - PC sample-based profiling: pc_sample (CreatePCSample), the sample registers of the
 * PMU frame (Read_PMPCSR, SetPCSample, SetPCSRUnknown, PMPCSCTL) and the sample taken on a PMU
 * snapshot Capture event (D13.9). The debug frame's registers are in debug_ext.c.
 *
 * The pseudocode is J1.3.1.121-128 of DDI0487 M.a.a. It refines the older text of seed 003 (a
 * PMPCSR read returns 64 bits, PCSRSuspended, has_el2 excludes EL3, the RME NSE bit);
 * docs/choices.md lists where the two differ and which one the model follows.
 */
#include "pcs_internal.h"

#include <string.h>

const char *pcs_sample_error(const pmt_pe *pe, const pmt_pc_sample *s)
{
    const pmt_pe_config *c = &pe->cfg;
    if (s->el > 3 || (unsigned)s->ss > PMT_SS_ROOT)
        return "no such Exception level or Security state";
    if ((s->el == 3 && !c->have_el3) || (s->el == 2 && !c->have_el2))
        return "the Exception level is not implemented";
    if ((s->ss == PMT_SS_REALM || s->ss == PMT_SS_ROOT) && !c->have_rme)
        return "Realm and Root state need FEAT_RME";
    if ((s->aarch32 || s->el2_aarch32) && !c->have_aarch32)
        return "AArch32 is not implemented";
    return NULL;
}

bool pcs_suspended(const pmt_pe *pe)
{
    uint64_t ctl = pe->st.pcs.pmpcsctl;
    if (pe->cfg.feat_ss && PMT_GET(PMPCSCTL, SS, ctl))
        return false;
    if (pe->cfg.feat_pcsrv8p9 && pe->cfg.pmpcsctl_imp)
        return !PMT_GET(PMPCSCTL, EN, ctl);
    return false; /* IMPLEMENTATION DEFINED "PCSR is suspended": never (docs/choices.md) */
}

/* CreatePCSample(): pc_sample.valid = ExternalNoninvasiveDebugAllowed() && !Halted(), from the
 * model's PE state; the other fields are the CPU's. */
static void create_pc_sample(pmt_pe *pe, const pmt_pc_sample *s)
{
    if (pcs_suspended(pe))
        return;
    pe->st.pcs.sample = *s;
    if (!pe->cfg.have_el2)
        pe->st.pcs.sample.el2_enabled = false;
    pe->st.pcs.valid = !pe->st.pe.noninvasive_debug_prohibited && !pe->st.pe.debug;
}

pmt_status pmt_pe_pc_sample(pmt_pe *pe, const pmt_pc_sample *sample)
{
    if (!pe || !sample)
        return PMT_ERR_NULL;
    if (pe->cfg.pcsr == PMT_PCSR_NONE)
        return PMT_ERR_NOT_IMPLEMENTED;
    const char *why = pcs_sample_error(pe, sample);
    if (why) {
        pe_log(pe, "pmt_pe_pc_sample: EL%u, Security state %u: %s", sample->el,
               (unsigned)sample->ss, why);
        return PMT_ERR_ARG;
    }
    create_pc_sample(pe, sample);
    return PMT_OK;
}

pmt_status pmt_pe_set_pc_sample_source(pmt_pe *pe, pmt_pc_sample_source source, void *user)
{
    if (!pe)
        return PMT_ERR_NULL;
    if (pe->cfg.pcsr == PMT_PCSR_NONE && source)
        return PMT_ERR_NOT_IMPLEMENTED;
    pe->pcs_source = source;
    pe->pcs_source_user = user;
    return PMT_OK;
}

void pcs_refresh(pmt_pe *pe)
{
    if (!pe->pcs_source || pcs_suspended(pe))
        return;
    pmt_pc_sample s;
    memset(&s, 0, sizeof s);
    if (!pe->pcs_source(pe->pcs_source_user, &s))
        return;
    const char *why = pcs_sample_error(pe, &s);
    if (why) {
        pe_log(pe, "PC sample source: EL%u, Security state %u: %s; sample ignored", s.el,
               (unsigned)s.ss, why);
        return;
    }
    create_pc_sample(pe, &s);
}

struct pcs_fields pcs_fields_of(const pmt_pe *pe)
{
    const pmt_pc_sample *s = &pe->st.pcs.sample;
    struct pcs_fields f;
    memset(&f, 0, sizeof f);
    f.el = s->el & 3u;
    f.rw = !s->aarch32;
    f.secure = s->ss == PMT_SS_SECURE;
    f.has_el2 = f.el != 3 && s->el2_enabled;
    if (f.has_el2) {
        if (s->el2_aarch32)
            f.vmid = s->vttbr_vmid & 0xFFu; /* ZeroExtend(VTTBR.VMID, 16) */
        else if (!pe->cfg.feat_vmid16 || !s->vtcr_vs)
            f.vmid = s->vttbr_vmid & 0xFFu; /* ZeroExtend(VTTBR_EL2.VMID<7:0>, 16) */
        else
            f.vmid = s->vttbr_vmid;
        if ((pe->cfg.feat_vhe || pe->cfg.feat_debugv8p2) && !s->el2_aarch32)
            f.contextidr_el2 = s->contextidr_el2;
        f.el0h = f.el == 0 && s->in_host;
    }
    return f;
}

void pcs_reset(pmt_pe *pe)
{
    memset(&pe->st.pcs, 0, sizeof pe->st.pcs); /* UNKNOWN registers read 0; pc_sample invalid */
    pe->st.pcs.ed_locked = pe->cfg.debug_software_lock;
}

void pcs_state_changed(pmt_pe *pe)
{
    /* Every instruction the PE executes from now on makes an invalid sample (Debug state, or
     * ExternalNoninvasiveDebugAllowed() is FALSE): the last reported one does not stay valid. */
    if (pe->st.pe.debug || pe->st.pe.noninvasive_debug_prohibited)
        pe->st.pcs.valid = false;
}

/* ---- the PMU frame (FEAT_PCSRv8p2, FEAT_PCSRv8p9) ---- */

/* SetPCSRActive() */
static void set_pcsr_active(pmt_pe *pe)
{
    if (pe->cfg.pmpcsctl_imp)
        pe->st.pcs.pmpcsctl |= PMT_MASK(PMPCSCTL, EN);
}

/* SetPCSample() */
static void set_pc_sample(pmt_pe *pe)
{
    struct pmt_pcs_regs *r = &pe->st.pcs;
    struct pcs_fields f = pcs_fields_of(pe);
    uint64_t pc = r->sample.pc;
    uint64_t v = pc & UINT32_MAX;
    if (f.rw) /* PMPCSR<55:32> = pc<55:32>; Zeros(24) from AArch32 */
        v |= pc & PMT_MASK(PMPCSR, PCSample) & ~(uint64_t)UINT32_MAX;
    v |= PMT_PUT(PMPCSR, EL, f.el);
    pmt_security ss = r->sample.ss;
    if (pe->cfg.have_rme) /* {NSE,NS}: Secure 00, Non-secure 01, Root 10, Realm 11 */
        v |= PMT_PUT(PMPCSR, NSE, ss == PMT_SS_ROOT || ss == PMT_SS_REALM) |
             PMT_PUT(PMPCSR, NS, ss == PMT_SS_NONSECURE || ss == PMT_SS_REALM);
    else
        v |= PMT_PUT(PMPCSR, NS, !f.secure);
    r->pmpcsr = v;
    /* PMCCIDSR/PMVCIDSR (EXT64) and PMCID1SR/PMCID2SR/PMVIDSR (EXT32) share this storage. */
    r->cid1 = r->sample.contextidr_el1;
    r->cid2 = f.has_el2 ? f.contextidr_el2 : 0;
    r->vmid = f.has_el2 && f.el <= 1 && !f.el0h ? f.vmid : 0;
}

/* SetPCSRUnknown(): PMPCSR<31:0> all ones, everything else UNKNOWN (0). */
static void set_pcsr_unknown(pmt_pe *pe)
{
    struct pmt_pcs_regs *r = &pe->st.pcs;
    r->pmpcsr = UINT32_MAX;
    r->cid1 = r->cid2 = 0;
    r->vmid = 0;
}

/* Read_PMPCSR(memory_mapped) */
static uint64_t read_pmpcsr(pmt_pe *pe, bool memory_mapped)
{
    struct pmt_pcs_regs *r = &pe->st.pcs;
    pcs_refresh(pe);
    bool update = !memory_mapped || !pe->st.pmu.locked; /* software locked: no side effects */
    if (pe->cfg.feat_pcsrv8p9 && update) {
        bool imp = pe->cfg.pmpcsctl_imp, en = PMT_GET(PMPCSCTL, EN, r->pmpcsctl);
        if (pe->cfg.feat_ss && PMT_GET(PMPCSCTL, SS, r->pmpcsctl)) {
            update = false; /* sample on snapshot: the read returns what the last capture took */
        } else if ((imp && !en) || (!imp && pcs_suspended(pe))) {
            r->valid = false; /* suspended: no sample, and the read resumes sampling */
            set_pcsr_active(pe);
        }
    }
    if (r->valid) {
        if (update)
            set_pc_sample(pe);
        return r->pmpcsr;
    }
    if (update)
        set_pcsr_unknown(pe);
    return UINT32_MAX; /* bits(32) UNKNOWN : Ones(32) */
}

bool pcs_pmu_access_error(const pmt_pe *pe, bool most_secure)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (s->double_lock || s->powered_down)
        return true;
    bool oslo = pe->cfg.feat_extpmn && most_secure && PMT_GET(PMCCR, OSLO, pe->st.pmu.pmccr);
    return s->os_lock && !oslo;
}

uint64_t pcs_pmu_read(pmt_pe *pe, enum pcs_pmu_reg reg, bool sample, bool memory_mapped)
{
    const struct pmt_pcs_regs *r = &pe->st.pcs;
    switch (reg) {
    case PCS_PMPCSR: return sample ? read_pmpcsr(pe, memory_mapped) : r->pmpcsr;
    case PCS_PMCID1SR: return r->cid1;
    case PCS_PMCID2SR: return r->cid2;
    case PCS_PMVIDSR: return PMT_PUT(PMVIDSR, VMID, r->vmid);
    case PCS_PMVCIDSR:
        return PMT_PUT(PMVCIDSR, VMID, r->vmid) | PMT_PUT(PMVCIDSR, CONTEXTIDR_EL1, r->cid1);
    case PCS_PMCCIDSR:
        return PMT_PUT(PMCCIDSR, CONTEXTIDR_EL2, r->cid2) |
               PMT_PUT(PMCCIDSR, CONTEXTIDR_EL1, r->cid1);
    case PCS_PMPCSCTL: return r->pmpcsctl | PMT_PUT(PMPCSCTL, IMP, pe->cfg.pmpcsctl_imp);
    }
    return 0;
}

void pcs_pmu_write(pmt_pe *pe, enum pcs_pmu_reg reg, uint64_t value)
{
    if (reg != PCS_PMPCSCTL)
        return; /* the sample registers are RO */
    uint64_t m = 0;
    if (pe->cfg.pmpcsctl_imp)
        m |= PMT_MASK(PMPCSCTL, EN); /* RAZ/WI without IMP */
    if (pe->cfg.feat_ss)
        m |= PMT_MASK(PMPCSCTL, SS); /* RES0 without FEAT_PMUv3_SS */
    pe->st.pcs.pmpcsctl = value & m;
}

unsigned pcs_pmdevid_pcsample(const pmt_pe *pe)
{
    if (pe->cfg.pcsr != PMT_PCSR_PMU_FRAME)
        return 0;
    return pe->cfg.feat_pcsrv8p9 ? 2 : 1;
}

/* ---- PMU snapshots (D13.9, PMUCaptureEvent) ---- */

void pcs_capture_on_snapshot(pmt_pe *pe)
{
    struct pmt_pcs_regs *r = &pe->st.pcs;
    /* Sampling on snapshot disabled (or not implemented): the sample registers are unchanged. */
    if (!pe->cfg.feat_pcsrv8p9 || pe->cfg.pcsr != PMT_PCSR_PMU_FRAME ||
        !PMT_GET(PMPCSCTL, SS, r->pmpcsctl))
        return;
    pcs_refresh(pe); /* a recently-executed instruction */
    if (r->valid && !pe->st.pe.debug) {
        set_pcsr_active(pe);
        set_pc_sample(pe);
    } else {
        /* PMPCSR[31:0] = 0xFFFFFFFF; PMPCSR[63:32] and the context registers unchanged. */
        r->pmpcsr |= UINT32_MAX;
    }
}
