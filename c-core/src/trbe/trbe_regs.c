/*
 * trbe_regs.c - the Trace Buffer Unit and trace filter registers as the PE sees them through
 * MRS and MSR (D24.4): who may access them (the accessibility pseudocode), what reads return and
 * what writes do; reset, the MDCR_EL2/MDCR_EL3 fields the unit owns, configuration checks.
 *
 * Not modelled in the accessibility pseudocode (docs/choices.md): FEAT_FGT fine-grained traps,
 * EL3SDDUndef (FEAT_Debugv8p2 SDD), EDSCR2.TTA halting, FEAT_NV redirection and traps.
 */
#include "trbe_internal.h"

bool trbe_owns(pmt_reg_id id)
{
    switch (id) {
    case PMT_REG_TRBLIMITR_EL1:
    case PMT_REG_TRBPTR_EL1:
    case PMT_REG_TRBBASER_EL1:
    case PMT_REG_TRBSR_EL1:
    case PMT_REG_TRBMAR_EL1:
    case PMT_REG_TRBMPAM_EL1:
    case PMT_REG_TRBTRG_EL1:
    case PMT_REG_TRBIDR_EL1:
    case PMT_REG_TRBSR_EL2:
    case PMT_REG_TRBSR_EL12:
    case PMT_REG_TRBSR_EL3:
    case PMT_REG_TRFCR_EL1:
    case PMT_REG_TRFCR_EL2:
    case PMT_REG_TRFCR_EL12: return true;
    default: return false;
    }
}

/* The accessibility pseudocode TRBBASER, TRBLIMITR, TRBMAR, TRBPTR, TRBSR_EL1 and TRBTRG share:
 * UNDEFINED at EL0; at EL1 MDCR_EL2.E2TB = 0bx0 traps to EL2; at EL1 and EL2
 * CheckMDCR_EL3_NSTBTrap traps to EL3. */
static pmt_access trb_access(const pmt_pe *pe)
{
    unsigned el = pe->st.pe.el;
    if (el == 0)
        return PMT_ACCESS_UNDEFINED;
    if (el == 1 && pe->st.pe.el2_enabled && !(trbe_effective_e2tb(pe) & 1u))
        return PMT_ACCESS_TRAP_EL2;
    if (el <= 2 && pe->cfg.have_el3 && trbe_nstb_trap(pe))
        return PMT_ACCESS_TRAP_EL3;
    return PMT_ACCESS_OK;
}

/* TRFCR_EL1, TRFCR_EL2, TRFCR_EL12 (D24.4.74, D24.4.75): MDCR_EL2.TTRF and MDCR_EL3.TTRF traps,
 * and the E2H redirection. Returns the register accessed in *which (1 or 2). */
static pmt_access trfcr_access(const pmt_pe *pe, pmt_reg_id id, unsigned *which)
{
    unsigned el = pe->st.pe.el;
    bool ttrf3 = pe->cfg.have_el3 && MDCR3(TTRF);
    bool host = trbe_el_in_host(pe);
    if (el == 0)
        return PMT_ACCESS_UNDEFINED;
    switch (id) {
    case PMT_REG_TRFCR_EL1:
        if (el == 1) {
            if (pe->st.pe.el2_enabled && MDCR2(TTRF))
                return PMT_ACCESS_TRAP_EL2;
            if (ttrf3)
                return PMT_ACCESS_TRAP_EL3;
        } else if (el == 2 && ttrf3) {
            return PMT_ACCESS_TRAP_EL3;
        }
        *which = el == 2 && host ? 2u : 1u;
        return PMT_ACCESS_OK;
    case PMT_REG_TRFCR_EL2:
        if (el == 1)
            return PMT_ACCESS_UNDEFINED; /* EL1 with HCR_EL2.NV would trap: FEAT_NV not modelled */
        if (el == 2 && ttrf3)
            return PMT_ACCESS_TRAP_EL3;
        *which = 2;
        return PMT_ACCESS_OK;
    default: /* TRFCR_EL12, FEAT_VHE (implemented with EL2) */
        if (!pe->cfg.have_el2 || el == 1 || !host)
            return PMT_ACCESS_UNDEFINED;
        if (el == 2 && ttrf3)
            return PMT_ACCESS_TRAP_EL3;
        *which = 1;
        return PMT_ACCESS_OK;
    }
}

/* TRBSR_EL1, TRBSR_EL2, TRBSR_EL12, TRBSR_EL3 (D24.4.7 to D24.4.9). Returns the register
 * accessed in *which (1, 2 or 3). */
static pmt_access trbsr_access(const pmt_pe *pe, pmt_reg_id id, unsigned *which)
{
    unsigned el = pe->st.pe.el;
    bool exc = pe->cfg.trbe.feat_trbe_exc;
    pmt_access a;
    switch (id) {
    case PMT_REG_TRBSR_EL1:
        if ((a = trb_access(pe)) != PMT_ACCESS_OK)
            return a;
        /* At EL2 with E2H, TRBSR_EL1 is TRBSR_EL2 when the Effective TRFCR_EL2.EE is not 0. */
        *which = el == 2 && trbe_effective_ee2(pe) != 0 && trbe_el_in_host(pe) ? 2u : 1u;
        return PMT_ACCESS_OK;
    case PMT_REG_TRBSR_EL2:
        if (!exc || el <= 1)
            return PMT_ACCESS_UNDEFINED;
        if (el == 2 && pe->cfg.have_el3 && (trbe_nstb_trap(pe) || MDCR3(TRBEE) == 0))
            return PMT_ACCESS_TRAP_EL3;
        *which = 2;
        return PMT_ACCESS_OK;
    case PMT_REG_TRBSR_EL12:
        if (!exc || !pe->cfg.have_el2 || el <= 1 || !trbe_el_in_host(pe))
            return PMT_ACCESS_UNDEFINED;
        if (el == 2 && pe->cfg.have_el3 && trbe_nstb_trap(pe))
            return PMT_ACCESS_TRAP_EL3;
        *which = 1;
        return PMT_ACCESS_OK;
    default: /* TRBSR_EL3 */
        if (!exc || !pe->cfg.have_el3 || el != 3)
            return PMT_ACCESS_UNDEFINED;
        *which = 3;
        return PMT_ACCESS_OK;
    }
}

/* TRBSR_ELx.EA exists only where the PE sets it: an External abort reported to the Trace
 * Buffer Unit, or a walk abort that sets it (RFSPBK); RES0 from Armv9.3. */
static uint64_t trbsr_mask(const pmt_pe *pe)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    uint64_t m = PMT_MASK(TRBSR, MSS) | PMT_MASK(TRBSR, S) | PMT_MASK(TRBSR, WRAP) |
                 PMT_MASK(TRBSR, TRG) | PMT_MASK(TRBSR, IRQ) | PMT_MASK(TRBSR, EC) |
                 PMT_MASK(TRBSR, MSS2);
    bool ea = c->ext_abort == PMT_TRBE_EA_REPORT_SYNC || c->ext_abort == PMT_TRBE_EA_REPORT_ASYNC ||
              (c->walk_abort_as_fault && c->walk_abort_sets_ea);
    if (ea && !c->armv9p3)
        m |= PMT_MASK(TRBSR, EA);
    return m;
}

static uint64_t trbsr_read(const pmt_pe *pe, unsigned which)
{
    uint64_t v = pe->st.trbe.sr[which];
    /* TRBSR_EL1 bit 23: DAT with FEAT_TRBE_EXT (UNKNOWN in the System register view). */
    if (which == 1 && pe->cfg.trbe.feat_trbe_ext && pe->st.trbe.nbuf)
        v |= PMT_MASK(TRBSR, DAT);
    return v;
}

static uint64_t trblimitr_read(const pmt_pe *pe)
{
    uint64_t v = pe->st.trbe.limitr;
    if (pe->cfg.trbe.feat_trbe_ext && !trbe_self_hosted(pe))
        v |= PMT_MASK(TRBLIMITR, nVM); /* RES1 when self-hosted trace is disabled */
    return v;
}

static uint64_t trfcr_mask(const pmt_pe *pe, unsigned which)
{
    uint64_t m = PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE) | PMT_MASK(TRFCR_EL1, TS);
    if (pe->cfg.trbe.feat_trbe_exc)
        m |= PMT_MASK(TRFCR_EL1, EE) | PMT_MASK(TRFCR_EL1, KE);
    if (which == 2) {
        m |= PMT_MASK(TRFCR_EL2, CX);
        if (pe->cfg.trbe.feat_trbe_exc)
            m |= PMT_MASK(TRFCR_EL2, DnVM);
    }
    return m;
}

/* Reads the unit's own registers (also used by the external frame). */
uint64_t trbe_reg_value(const pmt_pe *pe, pmt_reg_id id, unsigned which, bool external)
{
    const struct pmt_trbe_regs *t = &pe->st.trbe;
    switch (id) {
    case PMT_REG_TRBLIMITR_EL1: return trblimitr_read(pe);
    case PMT_REG_TRBPTR_EL1: return t->ptr;
    case PMT_REG_TRBBASER_EL1: return t->baser;
    case PMT_REG_TRBMAR_EL1: return t->mar;
    case PMT_REG_TRBTRG_EL1: return t->trg;
    case PMT_REG_TRBIDR_EL1: return trbe_trbidr(pe, external);
    default: return trbsr_read(pe, which);
    }
}

/* FEAT_TRF (TRFCR_EL1, TRFCR_EL2, TRFCR_EL12) comes with the Trace Buffer Unit and with the
 * ETE trace unit; the TRB* registers only with the former. */
static bool trbe_present(const pmt_pe *pe, pmt_reg_id id)
{
    bool trf = id == PMT_REG_TRFCR_EL1 || id == PMT_REG_TRFCR_EL2 || id == PMT_REG_TRFCR_EL12;
    return pe->cfg.trbe.feat_trbe || (trf && pe->cfg.ete.feat_ete);
}

pmt_access trbe_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    if (!trbe_present(pe, reg.id))
        return PMT_ACCESS_NOT_MINE; /* no Trace Buffer Unit in this model: the CPU decides */
    pmt_access a;
    unsigned which = 1;
    switch (reg.id) {
    case PMT_REG_TRBIDR_EL1:
        if (pe->st.pe.el == 0)
            return PMT_ACCESS_UNDEFINED;
        *value = trbe_trbidr(pe, false);
        return PMT_ACCESS_OK;
    case PMT_REG_TRBMPAM_EL1: return PMT_ACCESS_UNDEFINED; /* FEAT_TRBE_MPAM not implemented */
    case PMT_REG_TRBSR_EL1:
    case PMT_REG_TRBSR_EL2:
    case PMT_REG_TRBSR_EL12:
    case PMT_REG_TRBSR_EL3:
        if ((a = trbsr_access(pe, reg.id, &which)) == PMT_ACCESS_OK)
            *value = trbsr_read(pe, which);
        return a;
    case PMT_REG_TRFCR_EL1:
    case PMT_REG_TRFCR_EL2:
    case PMT_REG_TRFCR_EL12:
        if ((a = trfcr_access(pe, reg.id, &which)) == PMT_ACCESS_OK)
            *value =
                which == 2 ? (pe->cfg.have_el2 ? pe->st.trbe.trfcr_el2 : 0) : pe->st.trbe.trfcr_el1;
        return a;
    default:
        if ((a = trb_access(pe)) == PMT_ACCESS_OK)
            *value = trbe_reg_value(pe, reg.id, 1, false);
        return a;
    }
}

/* RDJMDD: the write is to a register the PE might ignore while the unit is enabled. Logs it
 * and says whether to ignore it. */
static bool ignored_while_enabled(pmt_pe *pe, const char *name)
{
    if (pe->st.trbe.disable_undrained && pe->accessor == PE_SELF_HOSTED) {
        pe_log(pe,
               "TRBE: %s write ignored: erratum_drain_after_disable (ARM64_WORKAROUND_2064142): "
               "no TSB CSYNC since the unit was disabled",
               name);
        return true;
    }
    if (!trbe_write_locked(pe))
        return false;
    bool ignore = pe->cfg.trbe.ignore_writes_while_enabled;
    pe_log(pe, "TRBE: %s written while the Trace Buffer Unit is enabled (RDJMDD): %s", name,
           ignore ? "ignored" : "takes effect");
    return ignore;
}

/* Checks made when software enables the unit: what it will meet when trace arrives. */
static void check_programming(pmt_pe *pe)
{
    const struct pmt_trbe_regs *t = &pe->st.trbe;
    uint64_t base = trbe_base(pe), limit = trbe_limit(pe), mask = trbe_unit(pe) - 1;
    if (base >= limit || (base >> 56) != (limit >> 56))
        pe_log(pe,
               "TRBE: enabled with the Limit pointer 0x%llx not above the Base pointer 0x%llx "
               "(RMSPSD): every pointer is out-of-range; trace raises a management event "
               "(RMGZWR)",
               (unsigned long long)limit, (unsigned long long)base);
    else if (t->ptr < base || t->ptr >= limit || (t->ptr >> 56) != (base >> 56))
        pe_log(pe,
               "TRBE: enabled with TRBPTR_EL1 = 0x%llx out-of-range [0x%llx, 0x%llx) (RMSPSD): "
               "trace raises a management event (RMGZWR)",
               (unsigned long long)t->ptr, (unsigned long long)base, (unsigned long long)limit);
    if (t->ptr_unpredictable)
        pe_log(pe,
               "TRBE: enabled with TRBPTR_EL1 = 0x%llx misaligned (TRBIDR_EL1.Align = %u) and "
               "not a restart value (RXXZHM): trace takes an Alignment fault (RMGZWR)",
               (unsigned long long)t->ptr, pe->cfg.trbe.align);
    if (PMT_GET(TRBTRG, TRG, t->trg) & mask)
        pe_log(pe,
               "TRBE: enabled with TRBTRG_EL1 = 0x%llx misaligned (RXXZHM): the Trigger Event is "
               "UNPREDICTABLE (RCPDDM); the counter saturates at zero at the end of a unit",
               (unsigned long long)t->trg);
    if (LIMITR(FM) == 2u)
        pe_log(pe, "TRBE: TRBLIMITR_EL1.FM = 0b10 is reserved: behaves as Fill mode");
    if (LIMITR(TM) == 2u)
        pe_log(pe, "TRBE: TRBLIMITR_EL1.TM = 0b10 is reserved: behaves as Ignore trigger");
}

static void write_limitr(pmt_pe *pe, uint64_t v)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    bool ext = pe->cfg.trbe.feat_trbe_ext;
    uint64_t m = PMT_MASK(TRBLIMITR, LIMIT) | PMT_MASK(TRBLIMITR, nVM) | PMT_MASK(TRBLIMITR, TM) |
                 PMT_MASK(TRBLIMITR, FM) | PMT_MASK(TRBLIMITR, E);
    /* XE is written by self-hosted software only while the OS Lock is locked (save/restore). */
    if (ext && (pe->accessor != PE_SELF_HOSTED || pe->st.pe.os_lock))
        m |= PMT_MASK(TRBLIMITR, XE);
    uint64_t nv = (t->limitr & ~m) | (v & m);
    /* A write that disables the unit always takes effect (RDJMDD). */
    bool self = !ext || trbe_self_hosted(pe);
    bool clears = self ? !PMT_GET(TRBLIMITR, E, nv) : !PMT_GET(TRBLIMITR, XE, nv);
    if ((!clears || t->disable_undrained) && ignored_while_enabled(pe, "TRBLIMITR_EL1"))
        return;
    bool was_enabled = trbe_enabled(pe);
    /* erratum_drain_after_disable: a System register write that clears E leaves later writes
     * ignored until a TSB CSYNC (trbe_errata.c). */
    if (pe->cfg.trbe.erratum_drain_after_disable && pe->accessor == PE_SELF_HOSTED &&
        PMT_GET(TRBLIMITR, E, t->limitr) && !PMT_GET(TRBLIMITR, E, nv))
        t->disable_undrained = true;
    /* erratum_ctxt_sync_after_enable: a System register write that sets E leaves the PE's view
     * of the prohibited regions as it is at the write (trbe_errata.c). */
    bool sets_e = pe->accessor == PE_SELF_HOSTED && !PMT_GET(TRBLIMITR, E, t->limitr) &&
                  PMT_GET(TRBLIMITR, E, nv);
    t->limitr = nv;
    if (sets_e && pe->cfg.trbe.erratum_ctxt_sync_after_enable)
        trbe_errata_enabled(pe);
    if (!was_enabled && trbe_enabled(pe))
        check_programming(pe);
}

static void write_ptr(pmt_pe *pe, uint64_t v)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    if (ignored_while_enabled(pe, "TRBPTR_EL1"))
        return;
    if (t->nbuf) {
        pe_log(pe,
               "TRBE: TRBPTR_EL1 written with %u accepted trace bytes not yet written: they "
               "are discarded (ITRWFM)",
               (unsigned)t->nbuf);
        t->nbuf = 0;
    }
    if (v & (trbe_unit(pe) - 1)) {
        /* A misaligned value is a restart or fault value (RHXZZM, RXZWXQ) when the unit left it,
         * maybe in another context (ISFTPM): software may write it back unchanged. The model
         * cannot know where a value came from, so it takes every misaligned value as a restart
         * value, unless misaligned_ptr_fault asks it to treat any value other than the one the
         * unit left as RJWWWM, with an Alignment fault when trace arrives (RMGZWR). */
        if (pe->cfg.trbe.misaligned_ptr_fault && v != t->ptr) {
            pe_log(pe,
                   "TRBE: TRBPTR_EL1 = 0x%llx is misaligned (TRBIDR_EL1.Align = %u) and not a "
                   "restart value (RJWWWM): reads return it; a write there takes an Alignment "
                   "fault (RMGZWR)",
                   (unsigned long long)v, pe->cfg.trbe.align);
            t->ptr_unpredictable = true;
        }
    } else {
        t->ptr_unpredictable = false;
    }
    t->ptr = v;
}

static void write_trbsr(pmt_pe *pe, unsigned which, uint64_t v)
{
    static const char *names[4] = {"", "TRBSR_EL1", "TRBSR_EL2", "TRBSR_EL3"};
    if (ignored_while_enabled(pe, names[which]))
        return;
    uint64_t *sr = &pe->st.trbe.sr[which];
    uint64_t m = trbsr_mask(pe);
    /* Software setting S stops collection: bytes not yet written are lost (RYMVZL). */
    *sr = (*sr & ~m) | (v & m);
}

pmt_access trbe_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t v)
{
    if (!trbe_present(pe, reg.id))
        return PMT_ACCESS_NOT_MINE;
    struct pmt_trbe_regs *t = &pe->st.trbe;
    pmt_access a;
    unsigned which = 1;
    switch (reg.id) {
    case PMT_REG_TRBIDR_EL1: return PMT_ACCESS_UNDEFINED; /* read-only: no MSR encoding */
    case PMT_REG_TRBMPAM_EL1: return PMT_ACCESS_UNDEFINED;
    case PMT_REG_TRBSR_EL1:
    case PMT_REG_TRBSR_EL2:
    case PMT_REG_TRBSR_EL12:
    case PMT_REG_TRBSR_EL3:
        if ((a = trbsr_access(pe, reg.id, &which)) != PMT_ACCESS_OK)
            return a;
        write_trbsr(pe, which, v);
        break;
    case PMT_REG_TRFCR_EL1:
    case PMT_REG_TRFCR_EL2:
    case PMT_REG_TRFCR_EL12:
        if ((a = trfcr_access(pe, reg.id, &which)) != PMT_ACCESS_OK)
            return a;
        if (which == 2) {
            if (pe->cfg.have_el2)
                t->trfcr_el2 = v & trfcr_mask(pe, 2);
        } else {
            t->trfcr_el1 = v & trfcr_mask(pe, 1);
            unsigned ee = (unsigned)TRFCR1(EE);
            if ((ee == 1u || ee == 2u) && pe->cfg.feat_nv)
                pe_log(pe,
                       "TRBE: TRFCR_EL1.EE = %u is reserved: with FEAT_NV behaves as %s "
                       "(ee<0> = ee<1>, EffectiveTRFCR_EL1_EE)",
                       ee, ee == 1u ? "0b00" : "0b11");
            else if (ee == 1u || ee == 2u)
                pe_log(pe,
                       "TRBE: TRFCR_EL1.EE = %u is reserved: CONSTRAINED UNPREDICTABLE "
                       "(Unpredictable_RESTRFEE), behaves as %s (trbe.reserved_trfcr_ee)",
                       ee,
                       pe->cfg.trbe.reserved_trfcr_ee == PMT_RESTRFEE_DISABLED
                           ? "0b00 (Constraint_DISABLED)"
                       : pe->cfg.trbe.reserved_trfcr_ee == PMT_RESTRFEE_AS_11 ? "0b11"
                       : ee == 1u ? "0b00 (ee<0> = ee<1>)"
                                  : "0b11 (ee<0> = ee<1>)");
        }
        break;
    default:
        if ((a = trb_access(pe)) != PMT_ACCESS_OK)
            return a;
        switch (reg.id) {
        case PMT_REG_TRBLIMITR_EL1: write_limitr(pe, v); break;
        case PMT_REG_TRBPTR_EL1: write_ptr(pe, v); break;
        case PMT_REG_TRBBASER_EL1:
            if (!ignored_while_enabled(pe, "TRBBASER_EL1"))
                t->baser = v & PMT_MASK(TRBBASER, BASE);
            break;
        case PMT_REG_TRBMAR_EL1:
            if (!ignored_while_enabled(pe, "TRBMAR_EL1"))
                t->mar = v & (PMT_MASK(TRBMAR, Attr) | PMT_MASK(TRBMAR, SH) |
                              (pe->cfg.trbe.feat_trbe_ext ? PMT_MASK(TRBMAR, PAS) : 0));
            break;
        case PMT_REG_TRBTRG_EL1:
            if (!ignored_while_enabled(pe, "TRBTRG_EL1")) {
                t->trg = v & PMT_MASK(TRBTRG, TRG);
                if (t->trg & (trbe_unit(pe) - 1))
                    pe_log(pe,
                           "TRBE: TRBTRG_EL1 = 0x%llx is misaligned (RXXZHM): reads return it; "
                           "the Trigger Event is UNPREDICTABLE (RCPDDM): the counter saturates "
                           "at zero at the end of a unit",
                           (unsigned long long)t->trg);
            }
            break;
        default: return PMT_ACCESS_NOT_MINE;
        }
        break;
    }
    trbe_update(pe);
    return PMT_ACCESS_OK;
}

/* Writes from the external frame (H9.4): the same registers, no self-hosted access checks. */
void trbe_ext_reg_write(pmt_pe *pe, pmt_reg_id id, uint64_t v)
{
    struct pmt_trbe_regs *t = &pe->st.trbe;
    switch (id) {
    case PMT_REG_TRBLIMITR_EL1: write_limitr(pe, v); break;
    case PMT_REG_TRBPTR_EL1: write_ptr(pe, v); break;
    case PMT_REG_TRBBASER_EL1:
        if (!ignored_while_enabled(pe, "TRBBASER_EL1"))
            t->baser = v & PMT_MASK(TRBBASER, BASE);
        break;
    case PMT_REG_TRBMAR_EL1:
        if (!ignored_while_enabled(pe, "TRBMAR_EL1"))
            t->mar = v & (PMT_MASK(TRBMAR, Attr) | PMT_MASK(TRBMAR, SH) | PMT_MASK(TRBMAR, PAS));
        break;
    case PMT_REG_TRBTRG_EL1:
        if (!ignored_while_enabled(pe, "TRBTRG_EL1"))
            t->trg = v & PMT_MASK(TRBTRG, TRG);
        break;
    case PMT_REG_TRBSR_EL1: write_trbsr(pe, 1, v); break;
    default: break;
    }
    trbe_update(pe);
}

void trbe_reset(pmt_pe *pe)
{
    /* Cold reset: UNKNOWN values reset to 0; TRBLIMITR_EL1.E and XE reset to 0. */
    memset(&pe->st.trbe, 0, sizeof pe->st.trbe);
    pe->trbe_enabled = pe->trbe_running = false;
    pe->trbe_in_flush_request = pe->trbe_flush_deferred = false;
}

/* MDCR_EL2.TTRF and MDCR_EL3.{TTRF, STE, RLTE} are FEAT_TRF's: with the Trace Buffer Unit or
 * the ETE trace unit. */
uint64_t trbe_mdcr_el2_mask(const pmt_pe *pe)
{
    uint64_t m = pe->cfg.trbe.feat_trbe || pe->cfg.ete.feat_ete ? PMT_MASK(MDCR_EL2, TTRF) : 0;
    return m | (pe->cfg.trbe.feat_trbe ? PMT_MASK(MDCR_EL2, E2TB) : 0);
}

uint64_t trbe_mdcr_el3_mask(const pmt_pe *pe)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    uint64_t trf = PMT_MASK(MDCR_EL3, TTRF) | PMT_MASK(MDCR_EL3, STE) |
                   (pe->cfg.have_rme ? PMT_MASK(MDCR_EL3, RLTE) : 0);
    if (!c->feat_trbe)
        return pe->cfg.ete.feat_ete ? trf : 0;
    uint64_t m = PMT_MASK(MDCR_EL3, NSTB) | trf;
    if (pe->cfg.have_rme)
        m |= PMT_MASK(MDCR_EL3, NSTBE);
    if (c->feat_trbe_exc)
        m |= PMT_MASK(MDCR_EL3, TRBEE);
    if (c->feat_trbe_ext)
        m |= PMT_MASK(MDCR_EL3, ETBAD);
    return m; /* EnTB2 is RES0: FEAT_TRBE_MPAM is not implemented */
}

void trbe_mdcr_written(pmt_pe *pe, bool el3, uint64_t old)
{
    (void)old; /* each write of a reserved value is logged, also one that keeps it */
    if (!pe->cfg.trbe.feat_trbe)
        return;
    if (!el3) {
        if (MDCR2(E2TB) == 1u)
            pe_log(pe,
                   "TRBE: MDCR_EL2.E2TB = 0b01 is reserved: CONSTRAINED UNPREDICTABLE, behaves "
                   "as %s (trbe.reserved_e2tb)",
                   pe->cfg.trbe.reserved_e2tb == PMT_RESE2TB_AS_00   ? "0b00 (owner EL2, trap)"
                   : pe->cfg.trbe.reserved_e2tb == PMT_RESE2TB_AS_10 ? "0b10 (owner EL1, trap)"
                                                                     : "0b11 (owner EL1, no trap)");
    } else {
        if (pe->cfg.have_rme && MDCR3(NSTBE) && !(MDCR3(NSTB) & 2u))
            pe_log(pe, "TRBE: MDCR_EL3.{NSTBE, NSTB} = {1, 0b0x} is reserved: CONSTRAINED "
                       "UNPREDICTABLE, the owner is Non-secure and EL2/EL1 accesses trap to EL3");
        unsigned etbad = (unsigned)MDCR3(ETBAD);
        if (pe->cfg.trbe.feat_trbe_ext && !pe->cfg.have_rme && (etbad == 1u || etbad == 2u))
            pe_log(pe, "TRBE: MDCR_EL3.ETBAD = %u is reserved without FEAT_RME: behaves as 0b00",
                   etbad);
    }
    trbe_update(pe);
}

const char *trbe_config_error(const pmt_pe_config *c)
{
    /* Each field's range is checked before (pe/config.c), with FEAT_TRBE or without. */
    const pmt_trbe_config *t = &c->trbe;
    if (!t->feat_trbe)
        return t->feat_trbe_exc || t->feat_trbe_ext
                   ? "FEAT_TRBE_EXC and FEAT_TRBE_EXT need FEAT_TRBE"
                   : NULL;
    bool report =
        t->ext_abort == PMT_TRBE_EA_REPORT_SYNC || t->ext_abort == PMT_TRBE_EA_REPORT_ASYNC;
    if (report && t->armv9p3)
        return "from Armv9.3 External aborts are not reported to the Trace Buffer Unit (IFRNZK)";
    if (report && t->feat_trbe_exc)
        return "with FEAT_TRBE_EXC External aborts are not reported to the Trace Buffer Unit";
    if (t->armv9p3 && !t->flag_updates)
        return "from Armv9.3 TRBIDR_EL1.F is 1 (RFBKCC)";
    if (t->armv9p3 && t->walk_abort_sets_ea)
        return "from Armv9.3 TRBSR_ELx.EA is RES0 (trbe.walk_abort_sets_ea)";
    if (c->feat_nv && t->reserved_trfcr_ee != PMT_RESTRFEE_AS_EE1)
        return "with FEAT_NV TRFCR_EL1.EE 0b01 and 0b10 behave as ee<0> = ee<1> "
               "(trbe.reserved_trfcr_ee must be PMT_RESTRFEE_AS_EE1)";
    return NULL;
}
