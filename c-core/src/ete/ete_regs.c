/*
 * ete_regs.c - the ETE trace unit's System registers (D24.4): which exist with the config, who
 * may access them (the accessibility pseudocode every TRC* register shares), what reads return,
 * what writes keep (RES0/RES1), the trace unit reset, and the enable/Idle state machine
 * (TRCPRGCTLR.EN, the PE OS Lock, TRCSTATR.IDLE and PMSTABLE).
 *
 * Not modelled in the accessibility pseudocode (docs/choices.md, as for the TRBE registers):
 * FEAT_FGT fine-grained traps (HDFGRTR_EL2/HDFGWTR_EL2.TRC*: the model has no FEAT_FGT),
 * EL3SDDUndef/EL3SDDUndefPriority (FEAT_Debugv8p2 SDD), EDSCR2.TTA halting (FEAT_TRBE_EXT).
 */
#include "ete_internal.h"

#include "pmtrace/pmt_ete.h"

bool ete_owns(pmt_reg_id id)
{
    return (id >= PMT_REG_TRCPRGCTLR && id <= PMT_REG_TRCAUTHSTATUS) ||
           (id >= PMT_REG_TRCRSCTLR && id <= PMT_REG_TRCCNTVR);
}

bool ete_enabled(const pmt_pe *pe)
{
    /* The PE OS Lock disables the trace unit like TRCPRGCTLR.EN = 0 (TRCOSLSR.OSLM = 0b100:
     * "the trace unit is controlled by the PE OS Lock"; D24.4.67 SSSTATUS). */
    return pe->cfg.ete.feat_ete && PMT_GET(TRCPRGCTLR, EN, pe->st.ete.prgctlr) &&
           !pe->st.pe.os_lock;
}

bool ete_idle(const pmt_pe *pe)
{
    return !ete_enabled(pe);
}

/* --- The enable state machine --- */

void ete_update(pmt_pe *pe)
{
    ete_filter_changed(pe);
    bool now = ete_enabled(pe);
    if (now == pe->st.ete.enabled)
        return;
    pe->st.ete.enabled = now;
    /* Disabled, the unit outputs the trace it generated before it is Idle (ete_trace.c): the
     * output is synchronous here, so TRCSTATR.IDLE reads 1 once the write is done. */
    if (now)
        ete_trace_enabled(pe);
    else
        ete_trace_disabled(pe);
}

/* --- Existence and access --- */

/* The accessibility pseudocode of every TRC* System register (D24.4.11 to D24.4.73): UNDEFINED
 * at EL0; CPACR_EL1.TTA traps EL1 to EL1; CPTR_EL2.TTA traps EL1 (when EL2 is enabled) and EL2
 * to EL2; CPTR_EL3.TTA traps EL1, EL2 and EL3 to EL3. */
static pmt_access trc_access(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    bool tta3 = pe->cfg.have_el3 && s->cptr_el3_tta;
    switch (s->el) {
    case 0: return PMT_ACCESS_UNDEFINED;
    case 1:
        if (s->cpacr_tta)
            return PMT_ACCESS_TRAP_EL1;
        if (s->el2_enabled && s->cptr_el2_tta)
            return PMT_ACCESS_TRAP_EL2;
        return tta3 ? PMT_ACCESS_TRAP_EL3 : PMT_ACCESS_OK;
    case 2:
        if (s->cptr_el2_tta)
            return PMT_ACCESS_TRAP_EL2;
        return tta3 ? PMT_ACCESS_TRAP_EL3 : PMT_ACCESS_OK;
    default: return tta3 ? PMT_ACCESS_TRAP_EL3 : PMT_ACCESS_OK;
    }
}

/* Whether the register exists with this config (each register's "present only when"). */
static bool present(const pmt_pe *pe, pmt_reg_ref reg)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    unsigned vmidc = pe->cfg.have_el2 ? e->num_vmid_comps : 0u; /* VMIDSIZE is 0 without EL2 */
    switch (reg.id) {
    case PMT_REG_TRCEVENTCTL0R: return e->num_rs_pairs != 0;
    case PMT_REG_TRCTSCTLR: return e->timestamps;
    case PMT_REG_TRCCCCTLR: return true; /* TRCIDR0.TRCCCI == '1' always in ETE */
    case PMT_REG_TRCVIIECTLR:
    case PMT_REG_TRCVISSCTLR: return e->num_ac_pairs > 0;
    case PMT_REG_TRCBBCTLR: return e->branch_broadcast && e->num_ac_pairs > 0;
    case PMT_REG_TRCSTALLCTLR:           /* TRCIDR3.STALLCTL = 0 */
    case PMT_REG_TRCQCTLR: return false; /* TRCIDR0.QFILT = 0 */
    case PMT_REG_TRCEXTINSELR: return reg.index < e->num_ext_in_sel;
    case PMT_REG_TRCCNTRLDVR: /* UInt(TRCIDR5.NUMCNTR) > n (D24.4.22 to D24.4.24) */
    case PMT_REG_TRCCNTCTLR:
    case PMT_REG_TRCCNTVR: return reg.index < e->num_counters;
    case PMT_REG_TRCCIDCCTLR0: return e->num_cid_comps > 0;
    case PMT_REG_TRCCIDCCTLR1: return e->num_cid_comps > 4;
    case PMT_REG_TRCVMIDCCTLR0: return vmidc > 0;
    case PMT_REG_TRCVMIDCCTLR1: return vmidc > 4;
    case PMT_REG_TRCRSCTLR: return reg.index >= 2 && reg.index < 2 * e->num_rs_pairs;
    case PMT_REG_TRCACVR:
    case PMT_REG_TRCACATR: return reg.index < 2 * e->num_ac_pairs;
    case PMT_REG_TRCCIDCVR: return reg.index < e->num_cid_comps;
    case PMT_REG_TRCVMIDCVR: return reg.index < vmidc;
    default: return true;
    }
}

/* Registers with no MSR encoding (D24.4: MRS only). */
static bool read_only(pmt_reg_id id)
{
    switch (id) {
    case PMT_REG_TRCSTATR:
    case PMT_REG_TRCOSLSR:
    case PMT_REG_TRCDEVARCH:
    case PMT_REG_TRCDEVID:
    case PMT_REG_TRCAUTHSTATUS: return true;
    default: return id >= PMT_REG_TRCIDR0 && id <= PMT_REG_TRCIDR13;
    }
}

/* Registers whose writes are CONSTRAINED UNPREDICTABLE while the trace unit is not Idle
 * (D24.4: "Writes are CONSTRAINED UNPREDICTABLE if the trace unit is not in the Idle state"). */
static bool idle_only(pmt_reg_id id)
{
    switch (id) {
    case PMT_REG_TRCPRGCTLR:
    case PMT_REG_TRCAUXCTLR:
    case PMT_REG_TRCVICTLR:
    case PMT_REG_TRCCLAIMSET:
    case PMT_REG_TRCCLAIMCLR: return false;
    default: return true;
    }
}

/* --- Write masks (RES0 bits are not stored, RES1 bits are forced) --- */

static uint64_t selector_mask(const pmt_pe *pe)
{
    return pe->cfg.ete.num_rs_pairs ? PMT_MASK(TRCEVENT, SEL) | PMT_MASK(TRCEVENT, TYPE) : 0;
}

static uint64_t configr_mask(const pmt_pe *pe)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    uint64_t m = PMT_MASK(TRCCONFIGR, CID) | PMT_MASK(TRCCONFIGR, CCI); /* TRCCCI is 1 */
    if (pe->cfg.have_el2)
        m |= PMT_MASK(TRCCONFIGR, VMID);
    if (e->timestamps)
        m |= PMT_MASK(TRCCONFIGR, TS);
    if (e->return_stack)
        m |= PMT_MASK(TRCCONFIGR, RS);
    if (e->branch_broadcast)
        m |= PMT_MASK(TRCCONFIGR, BB);
    return m;
}

/* RES1 bits: TRCCONFIGR bit 0, and VMIDOPT when TRCIDR2.VMIDOPT = 0b10 (with EL2). */
static uint64_t configr_res1(const pmt_pe *pe)
{
    return PMT_MASK(TRCCONFIGR, RES1) | (pe->cfg.have_el2 ? PMT_MASK(TRCCONFIGR, VMIDOPT) : 0);
}

static uint64_t victlr_mask(const pmt_pe *pe)
{
    uint64_t m = selector_mask(pe) | PMT_MASK(TRCVICTLR, TRCRESET) | PMT_MASK(TRCVICTLR, TRCERR) |
                 ete_exlevel_bits(pe) << PMT_TRCVICTLR_EXLEVEL_S_SHIFT;
    if (pe->cfg.ete.num_ac_pairs) /* else SSSTATUS is RES1 (NUMACPAIRS and NUMPC are 0) */
        m |= PMT_MASK(TRCVICTLR, SSSTATUS);
    return m;
}

static uint64_t victlr_res1(const pmt_pe *pe)
{
    return pe->cfg.ete.num_ac_pairs ? 0 : PMT_MASK(TRCVICTLR, SSSTATUS);
}

static unsigned bits_for(unsigned count)
{
    unsigned b = 0;
    while (count > (1u << b))
        b++;
    return b;
}

static uint64_t acatr_mask(const pmt_pe *pe)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    unsigned vmidc = pe->cfg.have_el2 ? e->num_vmid_comps : 0u;
    unsigned ctx = e->num_cid_comps > vmidc ? e->num_cid_comps : vmidc;
    uint64_t m = PMT_MASK(TRCACATR, TYPE) | ete_exlevel_bits(pe) << PMT_TRCACATR_EXLEVEL_S_SHIFT;
    if (ctx)
        m |= PMT_MASK(TRCACATR, CONTEXTTYPE) |
             (((UINT64_C(1) << bits_for(ctx)) - 1) << PMT_TRCACATR_CONTEXT_SHIFT);
    return m;
}

/* The SELECT bits a group has with this config (TRCRSCTLR<n>.SELECT encodings). */
static uint64_t rs_select_mask(const pmt_pe *pe, unsigned group)
{
    const pmt_ete_config *e = &pe->cfg.ete;
    switch (group) {
    case ETE_RS_SAC: return (UINT64_C(1) << (2 * e->num_ac_pairs)) - 1;
    case ETE_RS_ARC: return (UINT64_C(1) << e->num_ac_pairs) - 1;
    case ETE_RS_CID: return (UINT64_C(1) << e->num_cid_comps) - 1;
    case ETE_RS_VMID: return pe->cfg.have_el2 ? (UINT64_C(1) << e->num_vmid_comps) - 1 : 0;
    case ETE_RS_EXTIN: return (UINT64_C(1) << e->num_ext_in_sel) - 1;
    case ETE_RS_COUNTSEQ: /* COUNTERS[m] for m < NUMCNTR; SEQUENCER[m] RES0 (NUMSEQSTATE 0) */
        return (UINT64_C(1) << e->num_counters) - 1;
    default: return 0; /* no PE comparators, sequencer, SSCs */
    }
}

/* TRCCNTCTLR<n> (D24.4.22): CNTEVENT and RLDEVENT ({TYPE, SEL[4:0]} each), RLDSELF, and
 * CNTCHAIN for odd n (RES0 for even n). */
static uint64_t cntctlr_mask(unsigned n)
{
    return PMT_MASK(TRCCNTCTLR, CNTEVENT_SEL) | PMT_MASK(TRCCNTCTLR, CNTEVENT_TYPE) |
           PMT_MASK(TRCCNTCTLR, RLDEVENT_SEL) | PMT_MASK(TRCCNTCTLR, RLDEVENT_TYPE) |
           PMT_MASK(TRCCNTCTLR, RLDSELF) | (n % 2 ? PMT_MASK(TRCCNTCTLR, CNTCHAIN) : 0);
}

/* Per comparator, the bytes of the 32-bit value a mask bit can ignore (COMP<n>[3:0]). */
static uint64_t comp_ctlr_mask(unsigned comps, unsigned reg)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < 4; i++)
        if (reg * 4 + i < comps)
            m |= UINT64_C(0x0F) << (8 * i);
    return m;
}

/* --- Reset --- */

void ete_reset(pmt_pe *pe)
{
    /* Trace unit reset: TRCPRGCTLR.EN, TRCAUXCTLR and TRCEVENTCTL1R.OE reset to 0; every other
     * field resets to an UNKNOWN value, which the model makes 0 (docs/choices.md). */
    memset(&pe->st.ete, 0, sizeof pe->st.ete);
    pe->st.ete.configr = configr_res1(pe);
    pe->st.ete.victlr = victlr_res1(pe);
    if (pe->cfg.ete.fixed_sync_period)
        pe->st.ete.syncpr = pe->cfg.ete.sync_period;
    memset(&pe->st.etr, 0, sizeof pe->st.etr);
    memset(&pe->ete_stats, 0, sizeof pe->ete_stats);
    pe->ete_in_output = false;
}

/* --- Reads --- */

static uint64_t statr(const pmt_pe *pe)
{
    bool idle = ete_idle(pe);
    /* PMSTABLE: UNKNOWN while enabled (reads 0); otherwise the programmers' model is stable
     * once the unit is Idle. */
    return PMT_PUT(TRCSTATR, IDLE, idle) | PMT_PUT(TRCSTATR, PMSTABLE, idle);
}

static uint64_t read_value(const pmt_pe *pe, pmt_reg_ref reg)
{
    const struct pmt_ete_regs *t = &pe->st.ete;
    unsigned n = reg.index;
    switch (reg.id) {
    case PMT_REG_TRCPRGCTLR: return t->prgctlr;
    case PMT_REG_TRCSTATR: return statr(pe);
    case PMT_REG_TRCCONFIGR: return t->configr;
    case PMT_REG_TRCAUXCTLR: return t->auxctlr;
    case PMT_REG_TRCEVENTCTL0R: return t->eventctl0r;
    case PMT_REG_TRCEVENTCTL1R: return t->eventctl1r;
    case PMT_REG_TRCTSCTLR: return t->tsctlr;
    case PMT_REG_TRCSYNCPR: return t->syncpr;
    case PMT_REG_TRCCCCTLR: return t->ccctlr;
    case PMT_REG_TRCTRACEIDR: return t->traceidr;
    case PMT_REG_TRCRSR: return t->rsr;
    case PMT_REG_TRCBBCTLR: return t->bbctlr;
    case PMT_REG_TRCVICTLR: return t->victlr;
    case PMT_REG_TRCVIIECTLR: return t->viiectlr;
    case PMT_REG_TRCVISSCTLR: return t->vissctlr;
    case PMT_REG_TRCCIDCCTLR0: return t->cidcctlr[0];
    case PMT_REG_TRCCIDCCTLR1: return t->cidcctlr[1];
    case PMT_REG_TRCVMIDCCTLR0: return t->vmidcctlr[0];
    case PMT_REG_TRCVMIDCCTLR1: return t->vmidcctlr[1];
    case PMT_REG_TRCRSCTLR: return t->rsctlr[n & 31];
    case PMT_REG_TRCACVR: return t->acvr[n & 15];
    case PMT_REG_TRCACATR: return t->acatr[n & 15];
    case PMT_REG_TRCCIDCVR: return t->cidcvr[n & 7];
    case PMT_REG_TRCVMIDCVR: return t->vmidcvr[n & 7];
    case PMT_REG_TRCEXTINSELR: return t->extinselr[n & 3];
    case PMT_REG_TRCCNTRLDVR: return t->cntrldvr[n & 3];
    case PMT_REG_TRCCNTCTLR: return t->cntctlr[n & 3];
    /* The counter's value, also while the unit is enabled (where a read "might return an
     * UNKNOWN value": the model's is the value, docs/choices.md). */
    case PMT_REG_TRCCNTVR: return t->cntvr[n & 3];
    case PMT_REG_TRCOSLSR:
        /* OSLM = 0b100: no Trace OS Lock, the PE OS Lock controls the unit; OSLK its state. */
        return PMT_PUT(TRCOSLSR, OSLM, 2) | PMT_PUT(TRCOSLSR, OSLK, pe->st.pe.os_lock);
    case PMT_REG_TRCCLAIMSET: /* RAO for each implemented claim tag */
        return pe->cfg.ete.num_claim_tags >= 32 ? UINT32_MAX
                                                : (UINT64_C(1) << pe->cfg.ete.num_claim_tags) - 1;
    case PMT_REG_TRCCLAIMCLR: return t->claim;
    case PMT_REG_TRCDEVARCH: return ete_devarch();
    case PMT_REG_TRCAUTHSTATUS: return ete_authstatus(pe);
    case PMT_REG_TRCDEVID: return 0;
    default:
        if (reg.id >= PMT_REG_TRCIDR0 && reg.id <= PMT_REG_TRCIDR7)
            return ete_idr(pe, (unsigned)(reg.id - PMT_REG_TRCIDR0));
        if (reg.id >= PMT_REG_TRCIDR8 && reg.id <= PMT_REG_TRCIDR13)
            return ete_idr(pe, 8u + (unsigned)(reg.id - PMT_REG_TRCIDR8));
        return 0;
    }
}

pmt_access ete_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    if (!pe->cfg.ete.feat_ete)
        return PMT_ACCESS_NOT_MINE; /* no trace unit in this model: the CPU decides */
    if (!present(pe, reg))
        return PMT_ACCESS_UNDEFINED;
    pmt_access a = trc_access(pe);
    if (a == PMT_ACCESS_OK)
        *value = read_value(pe, reg);
    return a;
}

/* --- Writes --- */

/* A write where D24.4 makes it CONSTRAINED UNPREDICTABLE because the trace unit is not Idle:
 * logs it and says whether to ignore it (pmt_ete_config.busy_write). */
static bool ignored_while_busy(pmt_pe *pe, pmt_reg_ref reg)
{
    if (!idle_only(reg.id) || ete_idle(pe))
        return false;
    bool ignore = pe->cfg.ete.busy_write == PMT_ETE_BUSY_WRITE_IGNORED;
    char name[48];
    pmt_reg_format(reg, 0, name, sizeof name);
    char *eq = name;
    while (*eq && *eq != ' ')
        eq++;
    *eq = '\0';
    pe_log(pe,
           "ETE: %s written while the trace unit is not Idle (D24.4: CONSTRAINED "
           "UNPREDICTABLE): %s",
           name, ignore ? "ignored" : "takes effect");
    return ignore;
}

/* Reserved values software can program, logged when written. */
static void check_rsctlr(pmt_pe *pe, unsigned n, uint64_t v)
{
    unsigned group = (unsigned)PMT_GET(TRCRSCTLR, GROUP, v);
    if (group > ETE_RS_VMID)
        pe_log(pe, "ETE: TRCRSCTLR%u.GROUP = %u is reserved: the resource reads as FALSE", n,
               group);
}

static void write_rsctlr(pmt_pe *pe, unsigned n, uint64_t v)
{
    unsigned group = (unsigned)PMT_GET(TRCRSCTLR, GROUP, v);
    uint64_t m = PMT_MASK(TRCRSCTLR, GROUP) | PMT_MASK(TRCRSCTLR, INV) |
                 (n % 2 == 0 ? PMT_MASK(TRCRSCTLR, PAIRINV) : 0);
    check_rsctlr(pe, n, v);
    pe->st.ete.rsctlr[n] = (v & m) | (v & rs_select_mask(pe, group));
}

static void write_value(pmt_pe *pe, pmt_reg_ref reg, uint64_t v)
{
    struct pmt_ete_regs *t = &pe->st.ete;
    const pmt_ete_config *e = &pe->cfg.ete;
    unsigned n = reg.index;
    unsigned vmidc = pe->cfg.have_el2 ? e->num_vmid_comps : 0u;
    switch (reg.id) {
    case PMT_REG_TRCPRGCTLR: t->prgctlr = v & PMT_MASK(TRCPRGCTLR, EN); break;
    case PMT_REG_TRCCONFIGR: t->configr = (v & configr_mask(pe)) | configr_res1(pe); break;
    case PMT_REG_TRCAUXCTLR: t->auxctlr = v & UINT32_MAX; break; /* no IMPDEF controls */
    case PMT_REG_TRCEVENTCTL0R: t->eventctl0r = v & (selector_mask(pe) * 0x01010101u); break;
    case PMT_REG_TRCEVENTCTL1R:
        t->eventctl1r = e->num_rs_pairs ? v & PMT_MASK(TRCEVENTCTL1R, INSTEN) : 0;
        break;
    case PMT_REG_TRCTSCTLR: t->tsctlr = v & selector_mask(pe); break;
    case PMT_REG_TRCSYNCPR:
        if (!e->fixed_sync_period) {
            t->syncpr = v & PMT_MASK(TRCSYNCPR, PERIOD);
            unsigned p = (unsigned)t->syncpr;
            if (p != 0 && (p < 8 || p > 20))
                pe_log(pe,
                       "ETE: TRCSYNCPR.PERIOD = %u is reserved: CONSTRAINED UNPREDICTABLE, no "
                       "periodic synchronization requests are generated",
                       p);
        }
        break;
    case PMT_REG_TRCCCCTLR:
        /* A THRESHOLD below TRCIDR3.CCITMIN matters when the unit is enabled with
         * TRCCONFIGR.CCI (ete_trace.c logs it then): Linux writes 0 without cycle counting. */
        t->ccctlr = v & PMT_MASK(TRCCCCTLR, THRESHOLD);
        break;
    case PMT_REG_TRCTRACEIDR:
        t->traceidr = e->trace_id ? v & PMT_MASK(TRCTRACEIDR, TRACEID) : 0;
        break;
    case PMT_REG_TRCVICTLR: t->victlr = (v & victlr_mask(pe)) | victlr_res1(pe); break;
    case PMT_REG_TRCRSR: /* TA; EVENT<m> for the four ETEEvents; EXTIN<m> per selector */
        t->rsr = v & (PMT_MASK(TRCRSR, TA) | (e->num_rs_pairs ? PMT_MASK(TRCRSR, EVENT) : 0) |
                      ((UINT64_C(1) << e->num_ext_in_sel) - 1));
        break;
    case PMT_REG_TRCEXTINSELR: t->extinselr[n & 3] = v & PMT_MASK(TRCEXTINSELR, evtCount); break;
    case PMT_REG_TRCCNTRLDVR: t->cntrldvr[n & 3] = v & PMT_MASK(TRCCNTRLDVR, VALUE); break;
    case PMT_REG_TRCCNTCTLR: t->cntctlr[n & 3] = v & cntctlr_mask(n & 3); break;
    case PMT_REG_TRCCNTVR: t->cntvr[n & 3] = v & PMT_MASK(TRCCNTVR, VALUE); break;
    case PMT_REG_TRCBBCTLR:
        t->bbctlr = v & (PMT_MASK(TRCBBCTLR, MODE) | ((UINT64_C(1) << e->num_ac_pairs) - 1));
        if (PMT_GET(TRCBBCTLR, MODE, t->bbctlr) && !PMT_GET(TRCBBCTLR, RANGE, t->bbctlr))
            pe_log(pe, "ETE: TRCBBCTLR.MODE = 1 (Include) with RANGE = 0: CONSTRAINED "
                       "UNPREDICTABLE, no instruction is in a branch broadcasting region");
        break;
    case PMT_REG_TRCVIIECTLR: {
        uint64_t pairs = (UINT64_C(1) << e->num_ac_pairs) - 1;
        t->viiectlr = v & (pairs | pairs << PMT_TRCVIIECTLR_EXCLUDE_SHIFT);
        break;
    }
    case PMT_REG_TRCVISSCTLR: {
        uint64_t comps = (UINT64_C(1) << (2 * e->num_ac_pairs)) - 1;
        t->vissctlr = v & (comps | comps << PMT_TRCVISSCTLR_STOP_SHIFT);
        break;
    }
    case PMT_REG_TRCCIDCCTLR0:
    case PMT_REG_TRCCIDCCTLR1: {
        unsigned r = reg.id == PMT_REG_TRCCIDCCTLR1;
        t->cidcctlr[r] = v & comp_ctlr_mask(e->num_cid_comps, r);
        break;
    }
    case PMT_REG_TRCVMIDCCTLR0:
    case PMT_REG_TRCVMIDCCTLR1: {
        unsigned r = reg.id == PMT_REG_TRCVMIDCCTLR1;
        t->vmidcctlr[r] = v & comp_ctlr_mask(vmidc, r);
        break;
    }
    case PMT_REG_TRCRSCTLR: write_rsctlr(pe, n & 31, v); break;
    case PMT_REG_TRCACVR: t->acvr[n & 15] = v; break;
    case PMT_REG_TRCACATR:
        t->acatr[n & 15] = v & acatr_mask(pe);
        if (PMT_GET(TRCACATR, TYPE, v) != 0)
            pe_log(pe,
                   "ETE: TRCACATR%u.TYPE = %u is reserved (ETE compares instruction addresses "
                   "only): the comparator does not match",
                   n, (unsigned)PMT_GET(TRCACATR, TYPE, v));
        break;
    case PMT_REG_TRCCIDCVR: t->cidcvr[n & 7] = v & UINT32_MAX; break;   /* CIDSIZE 32 bits */
    case PMT_REG_TRCVMIDCVR: t->vmidcvr[n & 7] = v & UINT32_MAX; break; /* VMIDSIZE 32 bits */
    case PMT_REG_TRCCLAIMSET: t->claim |= v & read_value(pe, reg); break;
    case PMT_REG_TRCCLAIMCLR: t->claim &= ~v; break;
    default: break;
    }
}

pmt_access ete_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value)
{
    if (!pe->cfg.ete.feat_ete)
        return PMT_ACCESS_NOT_MINE;
    if (!present(pe, reg) || read_only(reg.id))
        return PMT_ACCESS_UNDEFINED; /* read-only registers have no MSR encoding */
    pmt_access a = trc_access(pe);
    if (a != PMT_ACCESS_OK)
        return a;
    if (!ignored_while_busy(pe, reg))
        write_value(pe, reg, value);
    ete_update(pe);
    return PMT_ACCESS_OK;
}

const char *ete_config_error(const pmt_pe_config *c)
{
    /* Each field's range is checked before (pe/config.c), with FEAT_ETE or without; these are
     * the values inside those ranges that name nothing, and the rules between fields. */
    const pmt_ete_config *e = &c->ete;
    if (e->unit_buffer && e->unit_buffer < PMT_ETE_UNIT_BUFFER_MIN)
        return "ete.unit_buffer (the trace unit buffer) must be 0 or 1024..4096 bytes";
    if (e->num_rs_pairs == 1)
        return "ete.num_rs_pairs must be 0 or 2..16 (TRCIDR4.NUMRSPAIR + 1)";
    if (!e->feat_ete)
        return NULL;
    if (e->num_vmid_comps && !c->have_el2)
        return "ete.num_vmid_comps must be 0 without EL2 (TRCIDR4.NUMVMIDC)";
    if (e->num_ext_in_sel && !e->num_rs_pairs)
        return "ete.num_ext_in_sel needs resource selectors (External Inputs are resources)";
    if (e->num_counters && !e->num_rs_pairs) /* TRCIDR5.NUMCNTR is 0 when NUMRSPAIR is 0 */
        return "ete.num_counters needs resource selectors (TRCIDR5.NUMCNTR)";
    return NULL;
}
