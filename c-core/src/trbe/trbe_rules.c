/*
 * trbe_rules.c - who owns the trace buffer, whether it is enabled and running, where a
 * management event is recorded and what the TRBE Profiling exception does. A transcription of
 * the J1.3 pseudocode: TraceBufferOwner, TraceBufferEnabled, TraceBufferRunning,
 * EffectiveTRFCR_EL2_EE, EffectiveTRFCR_EL1_EE, EffectiveTRBLIMITR_EL1_nVM,
 * CheckMDCR_EL3_NSTBTrap, ReportTRBEEvent, TRBEInterruptEnabled, CheckForTRBEException,
 * TRBE_TRBIDR_P_Read.
 */
#include "trbe_internal.h"

bool trbe_self_hosted(const pmt_pe *pe)
{
    return !pe->st.pe.self_hosted_trace_disabled;
}

/* EffectiveSCR_EL3_NS. Below EL3 it follows the current Security state; without EL3 the PE is
 * in the Security state it reports (Non-secure unless it says Secure). */
bool trbe_scr_ns(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (!pe->cfg.have_el3)
        return s->ss != PMT_SS_SECURE;
    if (s->el == 3)
        return s->scr_ns;
    return s->ss == PMT_SS_NONSECURE || s->ss == PMT_SS_REALM;
}

static bool scr_nse(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (!pe->cfg.have_rme)
        return false;
    return s->el == 3 ? s->scr_nse : s->ss == PMT_SS_REALM;
}

bool trbe_secure_el2(const pmt_pe *pe)
{
    return pe->cfg.have_el2 && pe->cfg.have_sel2 && pe->st.pe.scr_eel2;
}

/* EffectiveMDCR_EL3_NSTB: {NSTBE, NSTB} as three bits, and whether the value is reserved.
 * A reserved value behaves as Non-secure ownership, 0b010 (CONSTRAINED UNPREDICTABLE,
 * Unpredictable_RESERVEDNSxB; docs/choices.md), and traps lower-EL accesses. */
static unsigned nstb_bits(const pmt_pe *pe, bool *reserved)
{
    *reserved = false;
    if (!pe->cfg.have_el3)
        return trbe_scr_ns(pe) ? 3u : 1u; /* MDCR_EL3.NSTB: 0b11 or 0b01 without EL3 */
    unsigned bits = (unsigned)MDCR3(NSTB);
    if (pe->cfg.have_rme) {
        bits |= (unsigned)MDCR3(NSTBE) << 2;
        if ((bits & 6u) == 4u) { /* 0b10x */
            *reserved = true;
            bits = 2u;
        }
    }
    return bits;
}

/* TraceBufferOwner (RHBZNT, RDPGJG, Table D6-2). */
void trbe_owner(const pmt_pe *pe, pmt_security *ss, unsigned *el)
{
    bool reserved;
    unsigned bits = nstb_bits(pe, &reserved);
    switch (bits >> 1) {
    case 0: *ss = PMT_SS_SECURE; break;
    case 3: *ss = PMT_SS_REALM; break;
    default: *ss = PMT_SS_NONSECURE; break;
    }
    bool el2 = pe->cfg.have_el2 && (*ss != PMT_SS_SECURE || trbe_secure_el2(pe));
    *el = el2 && trbe_effective_e2tb(pe) == 0 ? 2u : 1u;
}

/* TraceBufferEnabled (RSDCKT). */
bool trbe_enabled(const pmt_pe *pe)
{
    if (!pe->cfg.trbe.feat_trbe)
        return false;
    if (trbe_self_hosted(pe)) {
        if (!LIMITR(E))
            return false;
        pmt_security ss;
        unsigned el;
        trbe_owner(pe, &ss, &el);
        return !(pe->st.pe.aarch32_els >> el & 1);
    }
    return pe->cfg.trbe.feat_trbe_ext && LIMITR(XE);
}

/* EffectiveTRFCR_EL2_EE. */
unsigned trbe_effective_ee2(const pmt_pe *pe)
{
    if (!pe->cfg.trbe.feat_trbe_exc || !trbe_self_hosted(pe))
        return 0;
    if (pe->cfg.have_el3 && MDCR3(TRBEE) == 0)
        return 0;
    bool check_el2 = pe->cfg.have_el2 && (trbe_scr_ns(pe) || trbe_secure_el2(pe));
    return check_el2 ? (unsigned)TRFCR2(EE) : 1u;
}

/* EffectiveTRFCR_EL1_EE. The reserved values 0b01 and 0b10 behave as ee<0> = ee<1> with
 * FEAT_NV; without it they are CONSTRAINED UNPREDICTABLE (Unpredictable_RESTRFEE) and
 * trbe.reserved_trfcr_ee picks the behaviour (docs/choices.md). */
unsigned trbe_effective_ee1(const pmt_pe *pe)
{
    if (trbe_effective_ee2(pe) == 0)
        return 0;
    unsigned ee = (unsigned)TRFCR1(EE);
    if (ee != 1u && ee != 2u)
        return ee;
    switch (pe->cfg.trbe.reserved_trfcr_ee) {
    case PMT_RESTRFEE_DISABLED: return 0;
    case PMT_RESTRFEE_AS_11: return 3;
    default: return (ee & 2u) ? 3u : 0u; /* ee<0> = ee<1> */
    }
}

/* The Effective MDCR_EL2.E2TB: the reserved 0b01 behaves as trbe.reserved_e2tb says. */
unsigned trbe_effective_e2tb(const pmt_pe *pe)
{
    unsigned e2tb = (unsigned)MDCR2(E2TB);
    if (e2tb != 1u)
        return e2tb;
    switch (pe->cfg.trbe.reserved_e2tb) {
    case PMT_RESE2TB_AS_10: return 2;
    case PMT_RESE2TB_AS_00: return 0;
    default: return 3;
    }
}

/* TRBEInterruptEnabled (RVSCDV). */
bool trbe_irq_enabled(const pmt_pe *pe)
{
    return trbe_effective_ee1(pe) == 0;
}

/* TraceBufferRunning (RYCHKJ, Table D6-1). */
bool trbe_running(const pmt_pe *pe)
{
    if (!trbe_enabled(pe))
        return false;
    bool stopped = SR(1, S);
    if (pe->cfg.trbe.feat_trbe_exc && trbe_self_hosted(pe)) {
        if (pe->cfg.have_el3 && (MDCR3(TRBEE) & 2u))
            stopped = stopped || SR(3, S);
        if (trbe_effective_ee2(pe) & 2u)
            stopped = stopped || SR(2, S);
    }
    return !stopped;
}

/* EffectiveTRBLIMITR_EL1_nVM (RFTWWP). */
bool trbe_effective_nvm(const pmt_pe *pe)
{
    if (!trbe_self_hosted(pe))
        return true;
    if (pe->cfg.trbe.feat_trbe_exc && pe->cfg.have_el2) {
        pmt_security ss;
        unsigned el;
        trbe_owner(pe, &ss, &el);
        if ((ss != PMT_SS_SECURE || trbe_secure_el2(pe)) && el == 1 && TRFCR2(DnVM))
            return false;
    }
    return LIMITR(nVM);
}

/* CheckMDCR_EL3_NSTBTrap. A reserved {NSTBE, NSTB} traps (Unpredictable_RESERVEDNSxB_Trap). */
bool trbe_nstb_trap(const pmt_pe *pe)
{
    bool reserved;
    unsigned bits = nstb_bits(pe, &reserved);
    return reserved || !(bits & 1u) || ((bits >> 1) & 1u) != (unsigned)trbe_scr_ns(pe) ||
           (pe->cfg.have_rme && ((bits >> 2) & 1u) != (unsigned)scr_nse(pe));
}

/* ReportTRBEEvent (RBNQRP, Tables D6-5, D6-6, D6-7): the TRBSR_ELx an event with event class
 * `ec` and fault status code `fsc` is recorded in. */
unsigned trbe_report_el(const pmt_pe *pe, unsigned ec, unsigned fsc)
{
    if (!pe->cfg.trbe.feat_trbe_exc || !trbe_self_hosted(pe))
        return 1;
    const pmt_pe_state *s = &pe->st.pe;
    bool s1 = ec == PMT_TRBSR_EC_STAGE1_ABORT, s2 = ec == PMT_TRBSR_EC_STAGE2_ABORT;
    bool gpc = false, gpf = false;
    if (pe->cfg.have_rme) {
        gpc = ec == PMT_TRBSR_EC_GPC;
        /* '10001x', '1001xx', '101000' */
        gpf = (s1 || s2) && ((fsc & 0x3Eu) == 0x22u || (fsc & 0x3Cu) == 0x24u || fsc == 0x28u);
    }
    /* '010000', '01001x', '0101xx', '011011' */
    bool sync_ea = (s1 || s2) && (fsc == 0x10u || (fsc & 0x3Eu) == 0x12u ||
                                  (fsc & 0x3Cu) == 0x14u || fsc == 0x1Bu);
    pmt_security owning_ss;
    unsigned owning_el;
    trbe_owner(pe, &owning_ss, &owning_el);
    if (pe->cfg.have_el3 && (MDCR3(TRBEE) & 2u)) {
        /* EffectiveEA(): SCR_EL3.EA, 0 in Debug state (Halted). */
        bool ea = s->scr_ea && !s->debug;
        if (MDCR3(TRBEE) == 3u || gpc || (gpf && s->scr_gpf) || (sync_ea && ea))
            return 3;
    }
    if (trbe_effective_ee2(pe) & 2u) {
        if (TRFCR2(EE) == 3u || (s1 && owning_el == 2) || s2 || gpc || (gpf && s->hcr_gpf) ||
            (sync_ea && s->el2_enabled && s->hcr_tea)) /* EffectiveHCR_TEA() */
            return 2;
    }
    return 1;
}

/* DefaultTRBEEvent: the TRBSR_ELx of an Other management event, of TRG and WRAP. */
unsigned trbe_default_el(const pmt_pe *pe)
{
    return trbe_report_el(pe, 0, 0);
}

/* ELIsInHost(EL2) for the E2H redirection of TRBSR_EL1 and TRFCR_EL1 at EL2. */
bool trbe_el_in_host(const pmt_pe *pe)
{
    return pe->cfg.have_el2 && pe->st.pe.el2_enabled && pe->st.pe.hcr_e2h;
}

/* TRBLIMITR_EL1.FM and .TM as they behave: the reserved value 0b10 behaves as Fill mode and as
 * Ignore trigger (CONSTRAINED UNPREDICTABLE, docs/choices.md; the write logs it). */
unsigned trbe_fm(const pmt_pe *pe)
{
    unsigned fm = (unsigned)LIMITR(FM);
    return fm == 2u ? PMT_TRBLIMITR_FM_FILL : fm;
}

unsigned trbe_tm(const pmt_pe *pe)
{
    unsigned tm = (unsigned)LIMITR(TM);
    return tm == 2u ? PMT_TRBLIMITR_TM_IGNORE : tm;
}

/* TRBIDR_EL1 (D24.4.2). `external` is a read through the external frame, where P is UNKNOWN
 * (reads 0). */
uint64_t trbe_trbidr(const pmt_pe *pe, bool external)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    unsigned ea = c->ext_abort == PMT_TRBE_EA_IGNORE   ? 1u
                  : c->ext_abort == PMT_TRBE_EA_SERROR ? 2u
                                                       : 0u;
    uint64_t v = PMT_PUT(TRBIDR, Align, c->align) | PMT_PUT(TRBIDR, F, c->flag_updates) |
                 PMT_PUT(TRBIDR, EA, ea);
    if (external)
        return v;
    /* TRBE_TRBIDR_P_Read: the owner is a higher Exception level or another Security state. */
    pmt_security ss;
    unsigned el;
    trbe_owner(pe, &ss, &el);
    const pmt_pe_state *s = &pe->st.pe;
    bool p = el > s->el || (s->el != 3 && ss != s->ss);
    v |= PMT_PUT(TRBIDR, P, p);
    /* AddrMode: 0b01 when the Effective TRFCR_EL2.DnVM is 1 and P reads 0. */
    bool dnvm = c->feat_trbe_exc && pe->cfg.have_el2 && TRFCR2(DnVM) && el == 1 &&
                (ss != PMT_SS_SECURE || trbe_secure_el2(pe));
    if (dnvm && !p)
        v |= PMT_PUT(TRBIDR, AddrMode, 1);
    return v;
}

/* The owning translation regime of a write, as the translate callback is told it. */
void trbe_regime(const pmt_pe *pe, pmt_trbe_regime *r)
{
    memset(r, 0, sizeof *r);
    r->trbmar = pe->st.trbe.mar;
    r->flag_updates = pe->cfg.trbe.flag_updates;
    if (!trbe_self_hosted(pe)) {
        static const pmt_security pas[4] = {PMT_SS_SECURE, PMT_SS_NONSECURE, PMT_SS_ROOT,
                                            PMT_SS_REALM};
        r->external = true;
        r->nvm = true;
        r->ss = pas[PMT_GET(TRBMAR, PAS, pe->st.trbe.mar)];
        return;
    }
    unsigned el;
    trbe_owner(pe, &r->ss, &el);
    r->el = (uint8_t)el;
    r->e2h = el == 2 && pe->st.pe.hcr_e2h;
    r->nvm = trbe_effective_nvm(pe);
}

/* RDJMDD: the unit is enabled by TRBLIMITR_EL1.E (Self-hosted mode or no FEAT_TRBE_EXT) or by
 * TRBLIMITR_EL1.XE (External mode). */
bool trbe_write_locked(const pmt_pe *pe)
{
    if (!pe->cfg.trbe.feat_trbe_ext || trbe_self_hosted(pe))
        return LIMITR(E);
    return LIMITR(XE);
}

/* CheckForTRBEException for one TRBSR_ELx.IRQ source, with PSTATE.PM as given (RMFMXQ,
 * IMTLSX): 0 when disabled or not pending, else the target EL, with *masked. */
static unsigned exc_route(const pmt_pe *pe, unsigned source, bool pm, bool *masked)
{
    const pmt_pe_state *s = &pe->st.pe;
    *masked = false;
    if (!pe->cfg.trbe.feat_trbe || !pe->cfg.trbe.feat_trbe_exc || !trbe_self_hosted(pe))
        return 0;
    if (s->debug) /* Halted() */
        return 0;
    pmt_security owning_ss;
    unsigned owning_el;
    trbe_owner(pe, &owning_ss, &owning_el);
    bool in_owning_ss = s->ss == owning_ss;
    switch (source) {
    case 3:
        if (!pe->cfg.have_el3 || !(MDCR3(TRBEE) & 2u) || !SR(3, IRQ))
            return 0;
        *masked = s->el == 3;
        return 3;
    case 2:
        if (!(trbe_effective_ee2(pe) & 2u) || !SR(2, IRQ))
            return 0;
        *masked =
            !in_owning_ss || s->el == 3 || (s->el == 2 && (TRFCR2(EE) != 3u || !TRFCR2(KE) || pm));
        return 2;
    case 1:
        if (trbe_effective_ee1(pe) != 3u || !SR(1, IRQ))
            return 0;
        *masked = !in_owning_ss || s->el >= 2 || (s->el == 1 && (!TRFCR1(KE) || pm));
        return s->el2_enabled && s->hcr_tge ? 2u : 1u; /* EffectiveTGE */
    default: return 0;
    }
}

pmt_trbe_exc_state pmt_trbe_exception_state(const pmt_pe *pe, unsigned source_el,
                                            unsigned *target_el)
{
    unsigned target_dummy;
    if (!target_el)
        target_el = &target_dummy;
    *target_el = 0;
    if (!pe)
        return PMT_TRBE_EXC_NONE;
    bool masked, masked_pm0;
    unsigned el = exc_route(pe, source_el, pe->st.pe.pm, &masked);
    if (!el)
        return PMT_TRBE_EXC_NONE;
    *target_el = el;
    if (!masked)
        return PMT_TRBE_EXC_TAKEN;
    exc_route(pe, source_el, false, &masked_pm0);
    return masked_pm0 ? PMT_TRBE_EXC_MASKED : PMT_TRBE_EXC_MASKED_PM;
}

/* The exception to take now, if any: the relative priority of the three sources is
 * IMPLEMENTATION DEFINED; EL3 first, then EL2, then EL1 (docs/choices.md). */
bool trbe_exception_to_take(const pmt_pe *pe, unsigned *target_el)
{
    for (unsigned source = 3; source >= 1; source--) {
        bool masked;
        unsigned el = exc_route(pe, source, pe->st.pe.pm, &masked);
        if (el && !masked) {
            *target_el = el;
            return true;
        }
    }
    *target_el = 0;
    return false;
}
