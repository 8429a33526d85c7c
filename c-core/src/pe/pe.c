/*
 * pe.c - the pmt_pe object: configuration, create, reset, save and restore, the PE state, and
 * the system-register entry points that dispatch to the unit owning each register.
 */
#include "../pe_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pe_log(const pmt_pe *pe, const char *fmt, ...)
{
    if (!pe || !pe->cb.log)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pe->cb.log(pe->cb.user, line);
}

pmt_pe_config pmt_pe_config_default(void)
{
    pmt_pe_config c;
    memset(&c, 0, sizeof c);
    c.have_el2 = true;
    c.have_el3 = true;
    c.have_aarch32 = true;
    c.pmu_version = PMT_PMUV3P7;
    c.num_counters = 6;
    /* SW_INCR .. CHAIN: the common architectural and microarchitectural events 0x00-0x1F
     * a typical core delivers (the model implements SW_INCR, CPU_CYCLES, CHAIN itself). */
    c.common_events[0] = UINT64_C(0x00000000FFFFFFFF);
    c.unattributable = PMT_UNATTRIB_NOT_COUNTED;
    c.ext_layout = PMT_EXT32;
    c.pmiidr = 0x0000043Bu;
    c.va_bits = 48;
    c.pcsr = PMT_PCSR_NONE;
    c.pmpcsctl_imp = true;
    /* The Trace Buffer Unit: absent; its choices at their documented defaults. */
    c.trbe.align = 6;
    c.trbe.flag_updates = true;
    c.trbe.pa_bits = 48;
    c.trbe.ext_abort = PMT_TRBE_EA_SERROR;
    c.trbe.walk_abort_as_fault = true;
    c.trbe.trb_trig_countable = true;
    c.trbe.pad_byte = 0x70;
    c.trbe.erratum_fill_overwrite_bytes = 256;
    /* The trace unit: absent; its choices at their documented defaults. */
    c.ete.num_ac_pairs = 4;
    c.ete.num_cid_comps = 1;
    c.ete.num_vmid_comps = 1;
    c.ete.num_rs_pairs = 8;
    c.ete.num_ext_in_sel = 4;
    c.ete.num_counters = 2;
    c.ete.wfx_p0 = true;
    c.ete.ccitmin = 4;
    c.ete.timestamps = true;
    c.ete.branch_broadcast = true;
    c.ete.sync_period = 8;
    c.ete.trace_id = true;
    c.ete.num_claim_tags = 4;
    c.ete.designer = 0x41;
    return c;
}

/* The rules between the fields of a config whose every field is in range (pe/config.c); on a
 * bad one returns a reason. */
static const char *config_error(const pmt_pe_config *c)
{
    switch (c->pmu_version) {
    case PMT_PMUV3:
    case PMT_PMUV3P1:
    case PMT_PMUV3P4:
    case PMT_PMUV3P5:
    case PMT_PMUV3P7:
    case PMT_PMUV3P8:
    case PMT_PMUV3P9: break;
    default: return "pmu_version is not a FEAT_PMUv3 version";
    }
    if (c->feat_hpmn0 && c->pmu_version < PMT_PMUV3P1)
        return "FEAT_HPMN0 needs FEAT_PMUv3p1";
    if (c->num_counters == 0 && c->have_el2 && !c->feat_hpmn0)
        return "with EL2 and no FEAT_HPMN0 at least one event counter is needed (HPMN >= 1)";
    if (c->feat_icntr && c->pmu_version < PMT_PMUV3P9)
        return "FEAT_PMUv3_ICNTR needs FEAT_PMUv3p9";
    if (c->feat_sebep && !c->feat_ebep)
        return "FEAT_SEBEP needs FEAT_EBEP";
    if (c->feat_sebep && c->pmu_version < PMT_PMUV3P9)
        return "FEAT_SEBEP needs FEAT_PMUv3p9";
    if (c->feat_ss && !c->have_el3)
        return "FEAT_PMUv3_SS needs EL3";
    if (c->have_sel2 && !(c->have_el2 && c->have_el3))
        return "FEAT_SEL2 needs EL2 and EL3";
    if (c->have_rme && !c->have_el3)
        return "FEAT_RME needs EL3";
    if (c->feat_spe_dpfzs && !c->feat_spev1p2)
        return "FEAT_SPE_DPFZS needs FEAT_SPEv1p2";
    if (c->va_bits != 0 && c->va_bits != 48 && c->va_bits != 52 && c->va_bits != 56)
        return "va_bits must be 48, 52 or 56";
    if (c->feat_pcsrv8p9 && c->pcsr != PMT_PCSR_PMU_FRAME)
        return "FEAT_PCSRv8p9 needs FEAT_PCSRv8p2 (pcsr = PMT_PCSR_PMU_FRAME)";
    if (c->debug_software_lock && c->pcsr != PMT_PCSR_DEBUG_FRAME)
        return "debug_software_lock needs the sample registers in the debug frame "
               "(pcsr = PMT_PCSR_DEBUG_FRAME)";
    if ((c->feat_vhe || c->feat_vmid16) && !c->have_el2)
        return "FEAT_VHE and FEAT_VMID16 need EL2";
    if (c->reserved_pmecr_pmee == PMT_RESPMEE_AS_01)
        return "PMECR_EL1.PMEE has no 0b01 to behave as (reserved_pmecr_pmee)";
    const char *why = trbe_config_error(c);
    return why ? why : ete_config_error(c);
}

static void derive(pmt_pe *pe)
{
    pe->impl_mask = ((UINT64_C(1) << pe->cfg.num_counters) - 1) |
                    (UINT64_C(1) << PMT_CYCLE_COUNTER_ID) |
                    (pe->cfg.feat_icntr ? UINT64_C(1) << PMT_INSTRUCTION_COUNTER_ID : 0);
}

pmt_pe *pmt_pe_create(const pmt_pe_config *config, const pmt_pe_callbacks *callbacks)
{
    if (!config)
        return NULL;
    char range[160];
    const char *why =
        pe_config_fields_valid(config, range, sizeof range) ? config_error(config) : range;
    if (why) {
        if (callbacks && callbacks->log) {
            char line[200];
            snprintf(line, sizeof line, "pmt_pe_create: bad config: %s", why);
            callbacks->log(callbacks->user, line);
        }
        return NULL;
    }
    pmt_pe *pe = calloc(1, sizeof *pe);
    if (!pe)
        return NULL;
    pe->cfg = *config;
    if (pe->cfg.va_bits == 0)
        pe->cfg.va_bits = 48;
    if (callbacks)
        pe->cb = *callbacks;
    derive(pe);
    pmu_sync_init(pe);
    pmt_pe_reset(pe);
    return pe;
}

void pmt_pe_destroy(pmt_pe *pe)
{
    free(pe);
}

const pmt_pe_config *pmt_pe_get_config(const pmt_pe *pe)
{
    return pe ? &pe->cfg : NULL;
}

pmt_status pmt_pe_reset(pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    ete_unit_buffer_drain(pe); /* generated before the reset (pmt_pe_create: calloc'd, none) */
    memset(&pe->st, 0, sizeof pe->st);
    /* Out of reset the PE is at its highest Exception level, Secure if EL3 exists. */
    pe->st.pe.el = pe->cfg.have_el3 ? 3 : pe->cfg.have_el2 ? 2 : 1;
    pe->st.pe.ss = !pe->cfg.have_el3  ? PMT_SS_NONSECURE
                   : pe->cfg.have_rme ? PMT_SS_ROOT
                                      : PMT_SS_SECURE;
    /* EL2Enabled(): without EL3 EL2 is enabled; with it SCR_EL3 resets to NS = 0, EEL2 = 0. */
    pe->st.pe.el2_enabled = pe->cfg.have_el2 && !pe->cfg.have_el3;
    /* MDCR_EL2.HPMN resets to N (a warm-reset value where EL2 is the highest EL). */
    pe->st.mdcr_el2 = PMT_PUT(MDCR_EL2, HPMN, pe->cfg.num_counters);
    pmu_reset(pe);
    pe->st.pmu.locked = pe->cfg.ext_software_lock;
    pcs_reset(pe);
    os_lock_reset(pe);
    pe->nslots = 0;
    memset(pe->slot_of, 0, sizeof pe->slot_of);
    pmu_mark_internal_events(pe);
    pmu_update(pe);
    trbe_reset(pe);
    trbe_update(pe);
    ete_reset(pe);
    ete_update(pe);
    return PMT_OK;
}

static const char *state_contradiction(const pmt_pe *pe, const pmt_pe_state *s);

/* Why a PE state cannot be this PE's (pmt_pe_set_state, pe_state_error), or NULL. */
static const char *state_error(const pmt_pe *pe, const pmt_pe_state *s)
{
    if (s->el > 3 || (unsigned)s->ss > PMT_SS_ROOT)
        return "the Exception level or Security state does not exist";
    if ((s->el == 3 && !pe->cfg.have_el3) || (s->el == 2 && !pe->cfg.have_el2))
        return "the Exception level is not implemented";
    if (s->aarch32_els > 0xF)
        return "aarch32_els names an EL above EL3";
    return NULL;
}

/* One source of truth for EL2Enabled() and the Security state: el2_enabled and ss must be what
 * SCR_EL3 (NS at EL3, else the Security state; EEL2 with FEAT_SEL2) and the configuration make
 * them (EL2Enabled, IsSecureEL2Enabled, CurrentSecurityState in J1.3). */
static const char *state_contradiction(const pmt_pe *pe, const pmt_pe_state *s)
{
    const pmt_pe_config *c = &pe->cfg;
    if (s->ss == PMT_SS_REALM && (!c->have_rme || s->el == 3))
        return "Realm state needs FEAT_RME and an EL below EL3";
    if (s->el == 3 && s->ss != (c->have_rme ? PMT_SS_ROOT : PMT_SS_SECURE))
        return c->have_rme ? "EL3 is in Root state (FEAT_RME)" : "EL3 is in Secure state";
    if (s->ss == PMT_SS_ROOT && s->el != 3)
        return "Root state is EL3 only";
    if (!c->have_el2)
        return NULL;
    bool enabled = true; /* without EL3, EL2 is enabled in the one Security state */
    if (c->have_el3) {
        bool ns = s->el == 3 ? s->scr_ns : s->ss == PMT_SS_NONSECURE || s->ss == PMT_SS_REALM;
        enabled = ns || (c->have_sel2 && s->scr_eel2);
    }
    if (s->el2_enabled != enabled)
        return enabled ? "el2_enabled is false, but SCR_EL3.{NS, EEL2} and ss enable EL2"
                       : "el2_enabled is true, but SCR_EL3.{NS, EEL2} and ss (with FEAT_SEL2) "
                         "do not enable EL2";
    if (s->el == 2 && !s->el2_enabled)
        return "the PE is at EL2 in a Security state where EL2 is disabled";
    return NULL;
}

const char *pe_state_error(const pmt_pe *pe, const pmt_pe_state *s)
{
    const char *why = state_error(pe, s);
    if (!why && !pe->cfg.have_el2 && s->el2_enabled)
        why = "el2_enabled is true without EL2";
    return why ? why : state_contradiction(pe, s);
}

pmt_status pmt_pe_set_state(pmt_pe *pe, const pmt_pe_state *state)
{
    if (!pe || !state)
        return PMT_ERR_NULL;
    pmt_pe_state s = *state;
    const char *why = state_error(pe, &s);
    if (why) {
        pe_log(pe, "pmt_pe_set_state: %s (EL%u, security state %u, aarch32_els 0x%x)", why, s.el,
               (unsigned)s.ss, (unsigned)s.aarch32_els);
        return PMT_ERR_ARG;
    }
    if (!pe->cfg.have_el2)
        s.el2_enabled = false;
    os_lock_keep(pe, &s); /* the model's OS Lock and Double Lock, with os_lock_registers */
    why = state_contradiction(pe, &s);
    if (why) {
        pe_log(pe, "pmt_pe_set_state: the state contradicts itself: %s", why);
        return PMT_ERR_ARG;
    }
    ete_unit_buffer_drain(pe); /* generated in the state before */
    pmu_sync_before_change(pe);
    pmu_flush(pe);
    pe->st.pe = s;
    pcs_state_changed(pe);
    pmu_update(pe);
    trbe_update(pe);
    ete_update(pe); /* the OS Lock disables and enables the trace unit */
    return PMT_OK;
}

pmt_pe_state pmt_pe_get_state(const pmt_pe *pe)
{
    pmt_pe_state s;
    memset(&s, 0, sizeof s);
    return pe ? pe->st.pe : s;
}

pmt_status pmt_pe_context_sync(pmt_pe *pe)
{
    if (!pe)
        return PMT_ERR_NULL;
    ete_unit_buffer_drain(pe);
    trbe_errata_context_sync(pe);
    return PMT_OK;
}

pmt_status pmt_pe_id_aa64dfr(const pmt_pe *pe, uint64_t *dfr0, uint64_t *dfr1)
{
    if (!pe || !dfr0 || !dfr1)
        return PMT_ERR_NULL;
    *dfr0 = PMT_PUT(DFR0, PMUVer, pe->cfg.pmu_version) | PMT_PUT(DFR0, HPMN0, pe->cfg.feat_hpmn0) |
            PMT_PUT(DFR0, PMSS, pe->cfg.feat_ss) | PMT_PUT(DFR0, SEBEP, pe->cfg.feat_sebep);
    *dfr1 = PMT_PUT(DFR1, PMICNTR, pe->cfg.feat_icntr) | PMT_PUT(DFR1, EBEP, pe->cfg.feat_ebep) |
            PMT_PUT(DFR1, DPFZS, pe->cfg.feat_spe_dpfzs);
    /* FEAT_TRBE (0b0001) or FEAT_TRBEv1p1 with FEAT_TRBE_EXC (0b0010); FEAT_TRF, whose TRFCR
     * registers the model holds with the unit; FEAT_TRBE_EXT. */
    const pmt_trbe_config *t = &pe->cfg.trbe;
    if (t->feat_trbe)
        *dfr0 |= PMT_PUT(DFR0, TraceBuffer, t->feat_trbe_exc ? 2 : 1) |
                 PMT_PUT(DFR0, TraceFilt, 1) | PMT_PUT(DFR0, ExtTrcBuff, t->feat_trbe_ext);
    /* FEAT_ETE with System register access to the trace unit (TraceVer 0b0001) and FEAT_TRF,
     * which ETE comes with. */
    if (pe->cfg.ete.feat_ete)
        *dfr0 |= PMT_PUT(DFR0, TraceVer, 1) | PMT_PUT(DFR0, TraceFilt, 1);
    return PMT_OK;
}

/* MDCR_EL2 and MDCR_EL3: the fields the PMU, the Trace Buffer Unit and (with os_lock_registers)
 * the OS Lock registers' traps read are stored; the rest are RES0 here (the CPU model owns the
 * debug fields it implements). */
static uint64_t mdcr_el2_mask(const pmt_pe *pe)
{
    uint64_t m = PMT_MASK(MDCR_EL2, HPMN) | PMT_MASK(MDCR_EL2, TPMCR) | PMT_MASK(MDCR_EL2, TPM) |
                 PMT_MASK(MDCR_EL2, HPME);
    if (pe_have_pmu(pe, PMT_PMUV3P1))
        m |= PMT_MASK(MDCR_EL2, HPMD);
    if (pe_have_pmu(pe, PMT_PMUV3P5))
        m |= PMT_MASK(MDCR_EL2, HCCD) | PMT_MASK(MDCR_EL2, HLP);
    if (pe_have_pmu(pe, PMT_PMUV3P7))
        m |= PMT_MASK(MDCR_EL2, HPMFZO);
    if (pe->cfg.feat_spev1p2 && pe_have_pmu(pe, PMT_PMUV3P7))
        m |= PMT_MASK(MDCR_EL2, HPMFZS);
    if (pe->cfg.feat_ebep)
        m |= PMT_MASK(MDCR_EL2, PMEE);
    if (pe->cfg.feat_ss)
        m |= PMT_MASK(MDCR_EL2, PMSSE);
    return m | trbe_mdcr_el2_mask(pe) | os_lock_mdcr_el2_mask(pe);
}

static uint64_t mdcr_el3_mask(const pmt_pe *pe)
{
    uint64_t m = PMT_MASK(MDCR_EL3, TPM) | PMT_MASK(MDCR_EL3, SPME) | PMT_MASK(MDCR_EL3, EPMAD);
    if (pe_have_pmu(pe, PMT_PMUV3P5))
        m |= PMT_MASK(MDCR_EL3, SCCD);
    if (pe_have_pmu(pe, PMT_PMUV3P7))
        m |= PMT_MASK(MDCR_EL3, MCCD) | PMT_MASK(MDCR_EL3, MPMX);
    if (pe_have_pmu(pe, PMT_PMUV3P9) || pe->cfg.feat_ebep || pe->cfg.feat_ss)
        m |= PMT_MASK(MDCR_EL3, EnPM2);
    if (pe->cfg.feat_ebep)
        m |= PMT_MASK(MDCR_EL3, PMEE);
    if (pe->cfg.feat_ss)
        m |= PMT_MASK(MDCR_EL3, PMSSE) | PMT_MASK(MDCR_EL3, EnPMSS) | PMT_MASK(MDCR_EL3, EPMSSAD);
    return m | trbe_mdcr_el3_mask(pe) | os_lock_mdcr_el3_mask(pe);
}

/* MDCR_EL2 is UNDEFINED below EL2; MDCR_EL3.TDA-style traps of MDCR_EL2 are the CPU's. At EL3
 * without EL2 the register is RAZ/WI (docs/choices.md). */
static pmt_access mdcr_access(pmt_pe *pe, pmt_reg_id id, bool write, uint64_t *value)
{
    unsigned el = pe->st.pe.el;
    bool el2 = id == PMT_REG_MDCR_EL2;
    if (el < (el2 ? 2u : 3u))
        return PMT_ACCESS_UNDEFINED;
    uint64_t *reg = el2 ? &pe->st.mdcr_el2 : &pe->st.mdcr_el3;
    if (el2 && !pe->cfg.have_el2) {
        if (!write)
            *value = 0;
        return PMT_ACCESS_OK;
    }
    if (!write) {
        *value = *reg;
        /* RMFYQC: with FEAT_PMUv3_EXTPMN an HPMN above EPMN reads as EPMN. */
        if (el2 && pe->cfg.feat_extpmn && PMT_GET(MDCR_EL2, HPMN, *reg) > pmu_effective_epmn(pe))
            *value = (*reg & ~PMT_MASK(MDCR_EL2, HPMN)) |
                     PMT_PUT(MDCR_EL2, HPMN, pmu_effective_epmn(pe));
        return PMT_ACCESS_OK;
    }
    uint64_t m = el2 ? mdcr_el2_mask(pe) : mdcr_el3_mask(pe);
    pmu_sync_before_change(pe);
    pmu_flush(pe);
    uint64_t old = *reg;
    *reg = *value & m;
    ete_filter_changed(pe); /* MDCR_EL3.STE, RLTE and the trace buffer's owner */
    if (el2) {
        unsigned hpmn = (unsigned)PMT_GET(MDCR_EL2, HPMN, *reg);
        /* Out of range is CONSTRAINED UNPREDICTABLE, except above EPMN with EXTPMN (RMFYQC). */
        bool capped = pe->cfg.feat_extpmn && hpmn > pmu_effective_epmn(pe);
        if (!capped && (hpmn > pmu_effective_epmn(pe) || (hpmn == 0 && !pe->cfg.feat_hpmn0)))
            pe_log(pe,
                   "MDCR_EL2.HPMN = %u is out of range (N = %u): CONSTRAINED UNPREDICTABLE, "
                   "behaves as %u (RGNGCW)",
                   hpmn, pmu_effective_epmn(pe), pmu_effective_hpmn(pe));
    }
    unsigned pmee = (unsigned)(el2 ? PMT_GET(MDCR_EL2, PMEE, *reg) : PMT_GET(MDCR_EL3, PMEE, *reg));
    if (pe->cfg.feat_ebep && pmee == 2)
        pe_log(pe,
               "MDCR_EL%u.PMEE = 2 is reserved: CONSTRAINED UNPREDICTABLE "
               "(Unpredictable_RESPMEE, EffectivePMEE), %s (reserved_mdcr_el%u_pmee)",
               el2 ? 2u : 3u,
               pmu_reserved_pmee_behaviour(el2 ? pe->cfg.reserved_mdcr_el2_pmee
                                               : pe->cfg.reserved_mdcr_el3_pmee),
               el2 ? 2u : 3u);
    pmu_update(pe);
    trbe_mdcr_written(pe, !el2, old);
    return PMT_ACCESS_OK;
}

/* The unit that owns a register answers; NOT_MINE when none does. */
pmt_access pe_reg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    if (ete_owns(reg.id))
        return ete_sysreg_read(pe, reg, value);
    if (trbe_owns(reg.id))
        return trbe_sysreg_read(pe, reg, value);
    if (os_lock_owns(reg.id))
        return os_lock_sysreg_read(pe, reg, value);
    pmt_access a = pmu_sysreg_read(pe, reg, value);
    if (a == PMT_ACCESS_NOT_MINE)
        a = pmu_snapshot_sysreg_read(pe, reg, value);
    return a;
}

pmt_access pe_reg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value)
{
    pmu_sync_before_change(pe);
    ete_filter_changed(pe);
    if (ete_owns(reg.id))
        return ete_sysreg_write(pe, reg, value);
    if (trbe_owns(reg.id))
        return trbe_sysreg_write(pe, reg, value);
    if (os_lock_owns(reg.id))
        return os_lock_sysreg_write(pe, reg, value);
    pmt_access a = pmu_sysreg_write(pe, reg, value);
    if (a == PMT_ACCESS_NOT_MINE)
        a = pmu_snapshot_sysreg_write(pe, reg, value);
    return a;
}

pmt_access pmt_pe_sysreg_read(pmt_pe *pe, pmt_sysreg enc, uint64_t *value)
{
    if (!pe || !value)
        return PMT_ACCESS_NOT_MINE;
    pmt_reg_ref reg = pmt_sysreg_decode(enc);
    if (reg.id == PMT_REG_MDCR_EL2 || reg.id == PMT_REG_MDCR_EL3)
        return mdcr_access(pe, reg.id, false, value);
    if (reg.id == PMT_REG_NONE)
        return PMT_ACCESS_NOT_MINE;
    return pe_reg_read(pe, reg, value);
}

pmt_access pmt_pe_sysreg_write(pmt_pe *pe, pmt_sysreg enc, uint64_t value)
{
    if (!pe)
        return PMT_ACCESS_NOT_MINE;
    pmt_reg_ref reg = pmt_sysreg_decode(enc);
    if (reg.id == PMT_REG_NONE)
        return PMT_ACCESS_NOT_MINE;
    ete_unit_buffer_drain(pe);
    if (reg.id == PMT_REG_MDCR_EL2 || reg.id == PMT_REG_MDCR_EL3)
        return mdcr_access(pe, reg.id, true, &value);
    return pe_reg_write(pe, reg, value);
}
