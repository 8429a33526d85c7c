/*
 * pmu_ext.c - the external (memory-mapped) PMU frame of I5.2 in its EXT32 and EXT64 layouts.
 *
 * Offsets decode to the same registers the PE reaches through MRS/MSR (pmu_sysreg.c), or to the
 * registers that exist only here: PMCCR, the configuration, lock, authentication and
 * identification registers. An external access sees every counter the self-hosted software can
 * use; the third range (PMCCR.EPMN) only to a Most secure access.
 */
#include "../pe_internal.h"

#include "pmtrace/pmt_events.h"

#define PMLAR_KEY 0xC5ACCE55u

const char *pmt_ext_status_name(pmt_ext_status status)
{
    switch (status) {
    case PMT_EXT_OK: return "OK";
    case PMT_EXT_NO_REGISTER: return "no register at this offset";
    case PMT_EXT_BAD_SIZE: return "size or alignment not supported";
    case PMT_EXT_ERROR: return "access not permitted";
    }
    return "unknown";
}

/* What an offset names: a register of the PE's view (with which 32-bit half, or all 64 bits),
 * or one of the frame's own registers. */
enum ext_own {
    EXT_NONE,
    EXT_PMCFGR,
    EXT_PMIIDR,
    EXT_PMCEID,  /* PMCEID0..3: index 0..3 */
    EXT_PMCGCR0, /* counter groups (FEAT_PMUv3_ICNTR) */
    EXT_WHOLE,   /* EXT64 PMCNTEN, PMINTEN, PMOVS: index 0, 1, 2 */
    EXT_PMCCR,
    EXT_PCS,      /* a PC sample register (FEAT_PCSRv8p2): index is an enum pcs_pmu_reg */
    EXT_PMPCSCTL, /* FEAT_PCSRv8p9 */
    EXT_PMDEVAFF,
    EXT_PMLAR,
    EXT_PMLSR,
    EXT_PMAUTHSTATUS,
    EXT_PMDEVARCH,
    EXT_PMDEVID,
    EXT_PMDEVTYPE,
    EXT_PIDR, /* index 0..4 */
    EXT_CIDR  /* index 0..3 */
};

struct ext_target {
    pmt_reg_ref reg; /* PMT_REG_NONE for the frame's own registers */
    enum ext_own own;
    unsigned index;
    unsigned half; /* 0: bits [31:0], 1: bits [63:32] */
    bool wide;     /* a 64-bit register (8-byte accesses allowed in EXT64) */
};

static struct ext_target at_reg(pmt_reg_id id, unsigned index, unsigned half)
{
    struct ext_target t = {{id, index}, EXT_NONE, 0, half, true};
    return t;
}

static struct ext_target at_own(enum ext_own own, unsigned index, unsigned half, bool wide)
{
    struct ext_target t = {{PMT_REG_NONE, 0}, own, index, half, wide};
    return t;
}

/* The set/clear registers at 0xC00..0xCDF: base offset -> register. */
static pmt_reg_id control_at(uint32_t base)
{
    switch (base) {
    case 0xC00: return PMT_REG_PMCNTENSET_EL0;
    case 0xC20: return PMT_REG_PMCNTENCLR_EL0;
    case 0xC40: return PMT_REG_PMINTENSET_EL1;
    case 0xC60: return PMT_REG_PMINTENCLR_EL1;
    case 0xC80: return PMT_REG_PMOVSCLR_EL0;
    case 0xCC0: return PMT_REG_PMOVSSET_EL0;
    default: return PMT_REG_NONE;
    }
}

/* The PC sample registers at 0x200..0x22C (FEAT_PCSRv8p2): PMPCSR at 0x200 and its alias at
 * 0x220; EXT32: PMCID1SR 0x208 (alias 0x228), PMVIDSR 0x20C (with EL2), PMCID2SR 0x22C; EXT64:
 * PMVCIDSR 0x208, PMCCIDSR 0x228. */
static struct ext_target decode_pcs(const pmt_pe *pe, uint32_t off)
{
    struct ext_target none = at_own(EXT_NONE, 0, 0, false);
    unsigned half = (off >> 2) & 1;
    uint32_t at = off & 0x1F; /* the block at 0x220 repeats 0x200 */
    if (pe->cfg.pcsr != PMT_PCSR_PMU_FRAME || at >= 0x10)
        return none;
    if (at < 0x08)
        return at_own(EXT_PCS, PCS_PMPCSR, half, true);
    if (pe->cfg.ext_layout == PMT_EXT64)
        return at_own(EXT_PCS, off < 0x220 ? PCS_PMVCIDSR : PCS_PMCCIDSR, half, true);
    if (at == 0x08)
        return at_own(EXT_PCS, PCS_PMCID1SR, 0, false);
    if (off == 0x20C)
        return pe->cfg.have_el2 ? at_own(EXT_PCS, PCS_PMVIDSR, 0, false) : none;
    return at_own(EXT_PCS, PCS_PMCID2SR, 0, false); /* 0x22C */
}

static struct ext_target decode(const pmt_pe *pe, uint32_t off)
{
    const pmt_pe_config *c = &pe->cfg;
    bool ext64 = c->ext_layout == PMT_EXT64;
    uint32_t base = off & ~7u;
    unsigned half = (off >> 2) & 1;
    struct ext_target none = at_own(EXT_NONE, 0, 0, false);

    if (off < 0x0F8)
        return off / 8 < c->num_counters ? at_reg(PMT_REG_PMEVCNTR_EL0, off / 8, half) : none;
    if (base == 0x0F8)
        return at_reg(PMT_REG_PMCCNTR_EL0, 0, half);
    if (base == 0x100)
        return c->feat_icntr ? at_reg(PMT_REG_PMICNTR_EL0, 0, half) : none;
    if (c->feat_ss) { /* the PMU snapshot registers (I5.3.5, I5.3.29, I5.3.34) */
        if (off >= 0x600 && off < 0x6F8)
            return (off - 0x600) / 8 < c->num_counters
                       ? at_reg(PMT_REG_PMEVCNTSVR_EL1, (off - 0x600) / 8, half)
                       : none;
        if (base == 0x6F8)
            return at_reg(PMT_REG_PMCCNTSVR_EL1, 0, half);
        if (base == 0x700)
            return c->feat_icntr ? at_reg(PMT_REG_PMICNTSVR_EL1, 0, half) : none;
        if (base == 0xE30)
            return at_reg(PMT_REG_PMSSCR_EL1, 0, half);
    }
    if (off >= 0x200 && off < 0x230)
        return decode_pcs(pe, off);
    if (ext64) {
        if (off >= 0x400 && off < 0x4F8)
            return (off - 0x400) / 8 < c->num_counters
                       ? at_reg(PMT_REG_PMEVTYPER_EL0, (off - 0x400) / 8, half)
                       : none;
        if (base == 0x4F8)
            return at_reg(PMT_REG_PMCCFILTR_EL0, 0, half);
        if (base == 0x500)
            return c->feat_icntr ? at_reg(PMT_REG_PMICFILTR_EL0, 0, half) : none;
    } else {
        /* PMEVTYPER<n>[31:0] at 0x400 + 4n, [63:32] at 0xA00 + 4n; PMCCFILTR at n = 31,
         * PMICFILTR at n = 32. */
        uint32_t region = off >= 0xA00 ? 0xA00 : 0x400;
        if ((off >= 0x400 && off < 0x484) || (off >= 0xA00 && off < 0xA84)) {
            unsigned n = (off - region) / 4, h = region == 0xA00;
            struct ext_target t;
            if (n < c->num_counters)
                t = at_reg(PMT_REG_PMEVTYPER_EL0, n, h);
            else if (n == 31)
                t = at_reg(PMT_REG_PMCCFILTR_EL0, 0, h);
            else if (n == 32 && c->feat_icntr)
                t = at_reg(PMT_REG_PMICFILTR_EL0, 0, h);
            else
                return none;
            t.wide = false;
            return t;
        }
    }
    if (off >= 0xC00 && off < 0xCE8) {
        pmt_reg_id id = control_at(off & ~0x1Fu);
        if (id != PMT_REG_NONE && (off & 0x18) == 0)
            return at_reg(id, 0, half);
        if (base == 0xCA0 && pe_have_pmu(pe, PMT_PMUV3P9))
            return at_reg(PMT_REG_PMZR_EL0, 0, half);
        if (ext64 && (base == 0xC10 || base == 0xC50 || base == 0xC90))
            return at_own(EXT_WHOLE, (base - 0xC10) / 0x40, half, true);
        if (base == 0xCE0 && c->feat_icntr)
            return at_own(EXT_PMCGCR0, 0, half, ext64);
        if (off == 0xCA0 && !ext64) {
            struct ext_target t = at_reg(PMT_REG_PMSWINC_EL0, 0, 0);
            t.wide = false;
            return t;
        }
        return none;
    }
    switch (off) {
    case 0xE00: return at_own(EXT_PMCFGR, 0, 0, false);
    case 0xE08: return at_own(EXT_PMIIDR, 0, 0, false);
    case 0xFA8: return at_own(EXT_PMDEVAFF, 0, 0, true);
    case 0xFAC: return at_own(EXT_PMDEVAFF, 0, 1, true);
    case 0xFB0: return at_own(EXT_PMLAR, 0, 0, false);
    case 0xFB4: return at_own(EXT_PMLSR, 0, 0, false);
    case 0xFB8: return at_own(EXT_PMAUTHSTATUS, 0, 0, false);
    case 0xFBC: return at_own(EXT_PMDEVARCH, 0, 0, false);
    case 0xFC8: return at_own(EXT_PMDEVID, 0, 0, false);
    case 0xFCC: return at_own(EXT_PMDEVTYPE, 0, 0, false);
    case 0xFD0: return at_own(EXT_PIDR, 4, 0, false);
    default: break;
    }
    if (off >= 0xFE0 && off < 0xFF0)
        return at_own(EXT_PIDR, (off - 0xFE0) / 4, 0, false);
    if (off >= 0xFF0)
        return at_own(EXT_CIDR, (off - 0xFF0) / 4, 0, false);
    if (!ext64 && off == 0xE04) {
        struct ext_target t = at_reg(PMT_REG_PMCR_EL0, 0, 0);
        t.wide = false;
        return t;
    }
    if (ext64 && base == 0xE10)
        return at_reg(PMT_REG_PMCR_EL0, 0, half);
    if (!ext64 && off >= 0xE20 && off < 0xE30)
        return at_own(EXT_PMCEID, (off - 0xE20) / 4, 0, false);
    if (base == 0xE40 && pe_have_pmu(pe, PMT_PMUV3P4))
        return at_reg(PMT_REG_PMMIR_EL1, 0, half);
    if (base == 0xE58 && c->feat_extpmn)
        return at_own(EXT_PMCCR, 0, half, true);
    if (base == 0xE50 && c->feat_pcsrv8p9)
        return at_own(EXT_PMPCSCTL, PCS_PMPCSCTL, half, true);
    return none;
}

/* The architectural name of a register of the frame only (I5.3); NULL for EXT_NONE. */
static const char *own_name(const struct ext_target *t)
{
    static const char *const names[] = {[EXT_PMCFGR] = "PMCFGR",
                                        [EXT_PMIIDR] = "PMIIDR",
                                        [EXT_PMCGCR0] = "PMCGCR0",
                                        [EXT_PMCCR] = "PMCCR",
                                        [EXT_PMPCSCTL] = "PMPCSCTL",
                                        [EXT_PMDEVAFF] = "PMDEVAFF",
                                        [EXT_PMLAR] = "PMLAR",
                                        [EXT_PMLSR] = "PMLSR",
                                        [EXT_PMAUTHSTATUS] = "PMAUTHSTATUS",
                                        [EXT_PMDEVARCH] = "PMDEVARCH",
                                        [EXT_PMDEVID] = "PMDEVID",
                                        [EXT_PMDEVTYPE] = "PMDEVTYPE"};
    static const char *const pmceid[] = {"PMCEID0", "PMCEID1", "PMCEID2", "PMCEID3"};
    static const char *const whole[] = {"PMCNTEN", "PMINTEN", "PMOVS"};
    static const char *const pcs[] = {
        [PCS_PMPCSR] = "PMPCSR",   [PCS_PMCID1SR] = "PMCID1SR", [PCS_PMCID2SR] = "PMCID2SR",
        [PCS_PMVIDSR] = "PMVIDSR", [PCS_PMVCIDSR] = "PMVCIDSR", [PCS_PMCCIDSR] = "PMCCIDSR"};
    static const char *const pidr[] = {"PMPIDR0", "PMPIDR1", "PMPIDR2", "PMPIDR3", "PMPIDR4"};
    static const char *const cidr[] = {"PMCIDR0", "PMCIDR1", "PMCIDR2", "PMCIDR3"};
    switch (t->own) {
    case EXT_PMCEID: return pmceid[t->index];
    case EXT_WHOLE: return whole[t->index];
    case EXT_PCS: return pcs[t->index];
    case EXT_PIDR: return pidr[t->index];
    case EXT_CIDR: return cidr[t->index];
    default: return names[t->own];
    }
}

pmt_ext_name pmt_pmu_ext_name(const pmt_pe *pe, uint32_t offset)
{
    pmt_ext_name name = {{PMT_REG_NONE, 0}, NULL, 0};
    if (!pe || offset > 0xFFF)
        return name;
    struct ext_target t = decode(pe, offset & ~3u);
    name.reg = t.reg;
    name.own = own_name(&t);
    name.half = t.half;
    return name;
}

static bool most_secure(const pmt_pe *pe, pmt_security from)
{
    if (pe->cfg.have_rme)
        return from == PMT_SS_ROOT;
    if (pe->cfg.have_el3)
        return from == PMT_SS_SECURE || from == PMT_SS_ROOT;
    return true;
}

static bool snapshot_reg(pmt_reg_id id)
{
    return id == PMT_REG_PMEVCNTSVR_EL1 || id == PMT_REG_PMCCNTSVR_EL1 ||
           id == PMT_REG_PMICNTSVR_EL1 || id == PMT_REG_PMSSCR_EL1;
}

/* AllowExternalPMSSAccess: MDCR_EL3.EPMSSAD by the access's physical address space (Root only
 * exists with FEAT_RME; without it a Root access counts as Secure). Without FEAT_RME 0b01 and 0b10
 * are reserved: CONSTRAINED UNPREDICTABLE, taken as 0b00 (docs/choices.md). */
static bool allow_external_pmss(const pmt_pe *pe, pmt_security from)
{
    unsigned epmssad = pe->cfg.have_el3 ? (unsigned)PMT_GET(MDCR_EL3, EPMSSAD, pe->st.mdcr_el3) : 3;
    bool rme = pe->cfg.have_rme;
    if (!rme && from == PMT_SS_ROOT)
        from = PMT_SS_SECURE;
    if (!rme && (epmssad == 1 || epmssad == 2))
        epmssad = 0;
    switch (epmssad) {
    case 0: return from == (rme ? PMT_SS_ROOT : PMT_SS_SECURE);
    case 1: return from == PMT_SS_ROOT || from == PMT_SS_REALM;
    case 2: return from == PMT_SS_ROOT || from == PMT_SS_SECURE;
    default: return true;
    }
}

static uint64_t pmcfgr(const pmt_pe *pe)
{
    uint64_t n = pmu_effective_epmn(pe) + (pe->cfg.feat_icntr ? 1 : 0);
    return n | (uint64_t)63 << 8 /* SIZE: 64-bit counters */ | (uint64_t)1 << 14 /* CC */ |
           (uint64_t)pe->cfg.have_aarch32 << 15 /* CCD: PMCR.D */ |
           (uint64_t)pe_have_pmu(pe, PMT_PMUV3P7) << 21 /* FZO */ |
           (uint64_t)pe->cfg.feat_ss << 22 /* SS */;
}

/* PMCNTEN, PMINTEN, PMOVS of EXT64: the whole state a set/clear pair shares. */
static uint64_t *whole_state(pmt_pe *pe, unsigned index)
{
    struct pmt_pmu_regs *r = &pe->st.pmu;
    return index == 0 ? &r->cnten : index == 1 ? &r->inten : &r->ovs;
}

/* The counter bits an external access sees: the counters it may use, C, and F0. */
static uint64_t ext_counter_mask(const pmt_pe *pe)
{
    unsigned n = pmu_counters_accessible(pe); /* EPMN, or N for a Most secure access */
    uint64_t m = ((uint64_t)1 << n) - 1;
    m |= (uint64_t)1 << PMT_CYCLE_COUNTER_ID;
    if (pe->cfg.feat_icntr)
        m |= (uint64_t)1 << PMT_INSTRUCTION_COUNTER_ID;
    return m;
}

static uint64_t own_read(pmt_pe *pe, const struct ext_target *t)
{
    const pmt_pe_config *c = &pe->cfg;
    static const uint8_t cidr[4] = {0x0D, 0x90, 0x05, 0xB1}; /* CoreSight debug component */
    uint8_t pidr[5] = {
        (uint8_t)(c->part_number & 0xFF),
        (uint8_t)(c->part_number >> 8 | 0xB0),   /* JEP106 identity code [3:0] of Arm (0x3B) */
        (uint8_t)(0x3 | 0x8 | c->revision << 4), /* identity [6:4], JEDEC, REVISION */
        0x00,
        0x04, /* JEP106 continuation code of Arm */
    };
    switch (t->own) {
    case EXT_PMCFGR: return pmcfgr(pe);
    case EXT_PMIIDR: return c->pmiidr;
    case EXT_PMCEID: {
        uint64_t v = 0;
        pmt_reg_ref r = {t->index & 1 ? PMT_REG_PMCEID1_EL0 : PMT_REG_PMCEID0_EL0, 0};
        pmu_sysreg_read(pe, r, &v);
        return t->index >= 2 ? v >> 32 : v & UINT32_MAX;
    }
    case EXT_PMCCR: return pe->st.pmu.pmccr;
    case EXT_PCS: /* without the side effects of a read of PMPCSR[31:0] */
    case EXT_PMPCSCTL: return pcs_pmu_read(pe, (enum pcs_pmu_reg)t->index, false, true);
    case EXT_PMCGCR0: return (pmu_counters_accessible(pe) + 1) | 1u << 8; /* CG0NC, CG1NC */
    case EXT_WHOLE: return *whole_state(pe, t->index) & ext_counter_mask(pe);
    case EXT_PMDEVAFF: return c->mpidr;
    case EXT_PMLSR: return c->ext_software_lock ? (1u | (uint64_t)pe->st.pmu.locked << 1) : 0;
    case EXT_PMAUTHSTATUS:
        /* Non-secure non-invasive debug implemented and enabled; Secure too when EL3 exists. */
        return 0x0Cu | (c->have_el3 ? 0xC0u : 0);
    case EXT_PMDEVARCH: return c->ext_layout == PMT_EXT64 ? 0x47702A26u : 0x47702A16u;
    case EXT_PMDEVID:
        return PMT_PUT(PMDEVID, PCSample, pcs_pmdevid_pcsample(pe)) |
               PMT_PUT(PMDEVID, PMSS, c->feat_ss) | PMT_PUT(PMDEVID, EXTPMN, c->feat_extpmn);
    case EXT_PMDEVTYPE: return 0x16; /* SUB 1 (processor), MAJOR 6 (performance monitor) */
    case EXT_PIDR: return pidr[t->index];
    case EXT_CIDR: return cidr[t->index];
    default: return 0; /* PMLAR is write-only: reads as 0 */
    }
}

static void own_write(pmt_pe *pe, const struct ext_target *t, uint64_t v)
{
    switch (t->own) {
    case EXT_PMPCSCTL: pcs_pmu_write(pe, PCS_PMPCSCTL, v); break;
    case EXT_PMLAR:
        if (pe->cfg.ext_software_lock)
            pe->st.pmu.locked = (v & UINT32_MAX) != PMLAR_KEY;
        break;
    case EXT_PMCCR: {
        pmu_flush(pe);
        unsigned epmn = (unsigned)PMT_GET(PMCCR, EPMN, v);
        if (epmn > pe->cfg.num_counters)
            pe_log(pe,
                   "PMCCR.EPMN = %u is reserved (N = %u): CONSTRAINED UNPREDICTABLE, behaves "
                   "as %u",
                   epmn, pe->cfg.num_counters, pe->cfg.num_counters);
        pe->st.pmu.pmccr =
            v & (PMT_MASK(PMCCR, EPMN) | PMT_MASK(PMCCR, EPME) | PMT_MASK(PMCCR, OSLO));
        pmu_update(pe);
        break;
    }
    case EXT_WHOLE: {
        pmu_flush(pe);
        uint64_t *state = whole_state(pe, t->index), m = ext_counter_mask(pe);
        *state = (*state & ~m) | (v & m);
        pmu_update(pe);
        break;
    }
    default: break; /* read-only registers ignore writes */
    }
}

/* Whether an access gets the error response, by the "Accessing" text of each register in I5.3.
 * Five groups:
 *   - identification and lock registers (PMDEVAFF, PMLAR, PMLSR, PMAUTHSTATUS, PMDEVARCH, PMDEVID,
 *     PMDEVTYPE, PIDR, CIDR): only with FEAT_DoPD and the Core powered down; the model has no
 *     FEAT_DoPD, so never;
 *   - PMCCR: the OS Double Lock or the Core powered down;
 *   - the snapshot registers: those, or AllowExternalPMSSAccess (not the OS Lock, IKGJMV);
 *   - the PC sample registers and PMPCSCTL: EDPRSR.{DLK, OSLK, PU} (pcsample.c);
 *   - every other register: the OS Double Lock, the Core powered down, AllowExternalPMUAccess
 *     (MDCR_EL3.EPMAD), then the OS Lock, unless a Most secure access with FEAT_PMUv3_EXTPMN and
 *     PMCCR.OSLO = 1. */
static bool access_error(const pmt_pe *pe, const struct ext_target *t, pmt_security from)
{
    const pmt_pe_state *s = &pe->st.pe;
    bool ms = most_secure(pe, from);
    if (t->own >= EXT_PMDEVAFF)
        return false;
    if (t->own == EXT_PCS || t->own == EXT_PMPCSCTL)
        return pcs_pmu_access_error(pe, ms);
    if (s->double_lock || s->powered_down)
        return true;
    if (t->own == EXT_PMCCR)
        return false;
    if (snapshot_reg(t->reg.id))
        return !allow_external_pmss(pe, from);
    if (pe->cfg.have_el3 && PMT_GET(MDCR_EL3, EPMAD, pe->st.mdcr_el3) && !ms)
        return true;
    bool oslo = pe->cfg.feat_extpmn && ms && PMT_GET(PMCCR, OSLO, pe->st.pmu.pmccr);
    return s->os_lock && !oslo;
}

/* Checks and decodes an access; sets pe->accessor for the duration of the access. A peek
 * (pmt_pmu_ext_peek) is not refused by the access permission. */
static pmt_ext_status begin(pmt_pe *pe, uint32_t off, unsigned size, pmt_security from,
                            struct ext_target *t, bool peek)
{
    if (off > 0xFFF || (size != 4 && size != 8) || (off & (size - 1)))
        return off > 0xFFF ? PMT_EXT_NO_REGISTER : PMT_EXT_BAD_SIZE;
    *t = decode(pe, off & ~3u);
    if (t->reg.id == PMT_REG_NONE && t->own == EXT_NONE)
        return PMT_EXT_NO_REGISTER;
    if (size == 8 && (pe->cfg.ext_layout != PMT_EXT64 || !t->wide))
        return PMT_EXT_BAD_SIZE;
    if (!peek && access_error(pe, t, from))
        return PMT_EXT_ERROR;
    pe->accessor = most_secure(pe, from) ? PE_EXTERNAL_MOST_SECURE : PE_EXTERNAL;
    return PMT_EXT_OK;
}

static uint64_t half_of(uint64_t v, const struct ext_target *t, unsigned size)
{
    return size == 8 ? v : (v >> (32 * t->half)) & UINT32_MAX;
}

static pmt_ext_status ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                               bool memory_mapped, uint64_t *value, bool peek)
{
    if (!pe || !value)
        return PMT_EXT_ERROR;
    *value = 0; /* the UNKNOWN value of a refused read */
    struct ext_target t;
    pmt_ext_status st = begin(pe, offset, size, from, &t, peek);
    if (st != PMT_EXT_OK)
        return st;
    uint64_t v = 0;
    if (peek && t.own == EXT_PCS) { /* a read that samples is not a peek */
        pe->accessor = PE_SELF_HOSTED;
        return PMT_EXT_ERROR;
    }
    if (t.own == EXT_PCS) /* a read of PMPCSR[31:0] or all of PMPCSR samples (Read_PMPCSR) */
        v = pcs_pmu_read(pe, (enum pcs_pmu_reg)t.index, size == 8 || t.half == 0, memory_mapped);
    else if (t.reg.id == PMT_REG_NONE)
        v = own_read(pe, &t);
    else if (pe_reg_read(pe, t.reg, &v) != PMT_ACCESS_OK)
        st = t.reg.id == PMT_REG_PMSWINC_EL0 || t.reg.id == PMT_REG_PMZR_EL0 ? PMT_EXT_OK
                                                                             : PMT_EXT_ERROR;
    pe->accessor = PE_SELF_HOSTED;
    *value = st == PMT_EXT_OK ? half_of(v, &t, size) : 0; /* write-only registers read 0 */
    return st;
}

pmt_ext_status pmt_pmu_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                bool memory_mapped, uint64_t *value)
{
    return ext_read(pe, offset, size, from, memory_mapped, value, false);
}

pmt_ext_status pmt_pmu_ext_peek(pmt_pe *pe, uint32_t offset, unsigned size, uint64_t *value)
{
    if (!pe || !value)
        return PMT_EXT_ERROR;
    const pmt_security most = pe->cfg.have_rme   ? PMT_SS_ROOT
                              : pe->cfg.have_el3 ? PMT_SS_SECURE
                                                 : PMT_SS_NONSECURE;
    return ext_read(pe, offset, size, most, false, value, true);
}

pmt_ext_status pmt_pmu_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                 bool memory_mapped, uint64_t value)
{
    if (!pe)
        return PMT_EXT_ERROR;
    ete_unit_buffer_drain(pe);
    struct ext_target t;
    pmt_ext_status st = begin(pe, offset, size, from, &t, false);
    if (st != PMT_EXT_OK)
        return st;
    if (memory_mapped && pe->st.pmu.locked && t.own != EXT_PMLAR) {
        pe->accessor = PE_SELF_HOSTED;
        return PMT_EXT_OK; /* locked: writes are ignored */
    }
    if (t.reg.id == PMT_REG_NONE) {
        if (size == 4 && t.wide) { /* merge a 32-bit half */
            uint64_t old = own_read(pe, &t);
            value = t.half ? (old & UINT32_MAX) | (value & UINT32_MAX) << 32
                           : (old & ~(uint64_t)UINT32_MAX) | (value & UINT32_MAX);
        }
        own_write(pe, &t, value);
    } else {
        uint64_t v = value;
        if (size == 4 && t.wide) { /* a 32-bit half of a 64-bit register: merge */
            uint64_t old = 0;
            if (t.reg.id != PMT_REG_PMZR_EL0 && t.reg.id != PMT_REG_PMSWINC_EL0)
                pe_reg_read(pe, t.reg, &old);
            bool set_clear = pmu_is_set_clear(t.reg.id) || t.reg.id == PMT_REG_PMZR_EL0;
            if (set_clear) /* writing 0 bits changes nothing: only this half's bits */
                old = 0;
            v = t.half ? (old & UINT32_MAX) | (value & UINT32_MAX) << 32
                       : (old & ~(uint64_t)UINT32_MAX) | (value & UINT32_MAX);
        }
        bool read_only = snapshot_reg(t.reg.id) && t.reg.id != PMT_REG_PMSSCR_EL1;
        if (!read_only && pe_reg_write(pe, t.reg, v) != PMT_ACCESS_OK)
            st = PMT_EXT_ERROR;
    }
    pe->accessor = PE_SELF_HOSTED;
    return st;
}
