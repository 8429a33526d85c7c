/*
 * trbe_ext.c - the external Trace Buffer frame of H9.4 (FEAT_TRBE_EXT, Table D6-4): the same
 * registers the PE reaches with MRS/MSR, TRBCR.ManStop, TRBITCTRL and the CoreSight management
 * and identification registers, with the access conditions of each register (the Core power
 * domain, the OS Double Lock, the OS Lock and MDCR_EL3.ETBAD) and RMXBCY for reserved offsets.
 */
#include "trbe_internal.h"

enum ext_kind {
    EXT_RESERVED,
    EXT_REG, /* a register shared with the System register view */
    EXT_TRBCR,
    EXT_ITCTRL,
    EXT_DEVAFF,
    EXT_LAR,
    EXT_LSR,
    EXT_AUTHSTATUS,
    EXT_DEVARCH,
    EXT_DEVID, /* TRBDEVID, TRBDEVID1, TRBDEVID2 (index 0..2): RES0 */
    EXT_DEVTYPE,
    EXT_PIDR, /* index 0..7 */
    EXT_CIDR  /* index 0..3 */
};

struct ext_target {
    enum ext_kind kind;
    pmt_reg_id id;
    unsigned index;
    bool wide; /* a 64-bit register */
};

static struct ext_target decode(uint32_t off)
{
    struct ext_target t = {EXT_RESERVED, PMT_REG_NONE, 0, false};
    static const pmt_reg_id regs[7] = {
        PMT_REG_TRBBASER_EL1, PMT_REG_TRBPTR_EL1, PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBSR_EL1,
        PMT_REG_TRBTRG_EL1,   PMT_REG_TRBMAR_EL1, PMT_REG_TRBIDR_EL1};
    uint32_t base = off & ~7u;
    if (base < 0x038) {
        t.kind = EXT_REG;
        t.id = regs[base / 8];
        t.wide = true;
    } else if (base == 0x038) {
        t.kind = EXT_TRBCR;
        t.wide = true;
    } else if (off == 0xF00) {
        t.kind = EXT_ITCTRL;
    } else if (base == 0xFA8) {
        t.kind = EXT_DEVAFF;
        t.wide = true;
    } else if (off == 0xFB0) {
        t.kind = EXT_LAR;
    } else if (off == 0xFB4) {
        t.kind = EXT_LSR;
    } else if (off == 0xFB8) {
        t.kind = EXT_AUTHSTATUS;
    } else if (off == 0xFBC) {
        t.kind = EXT_DEVARCH;
    } else if (off >= 0xFC0 && off <= 0xFC8) {
        t.kind = EXT_DEVID;
        t.index = (0xFC8 - off) / 4;
    } else if (off == 0xFCC) {
        t.kind = EXT_DEVTYPE;
    } else if (off >= 0xFD0 && off < 0xFF0) {
        t.kind = EXT_PIDR;
        t.index = off < 0xFE0 ? 4 + (off - 0xFD0) / 4 : (off - 0xFE0) / 4;
    } else if (off >= 0xFF0) {
        t.kind = EXT_CIDR;
        t.index = (off - 0xFF0) / 4;
    }
    return t; /* 0x040 TRBMPAM_EL1: FEAT_TRBE_MPAM is not implemented, reserved */
}

/* The architectural name of a register of the frame only (H9.4); NULL otherwise. */
static const char *own_name(const struct ext_target *t)
{
    static const char *const names[] = {
        [EXT_TRBCR] = "TRBCR",        [EXT_ITCTRL] = "TRBITCTRL",
        [EXT_DEVAFF] = "TRBDEVAFF",   [EXT_LAR] = "TRBLAR",
        [EXT_LSR] = "TRBLSR",         [EXT_AUTHSTATUS] = "TRBAUTHSTATUS",
        [EXT_DEVARCH] = "TRBDEVARCH", [EXT_DEVTYPE] = "TRBDEVTYPE"};
    static const char *const devid[] = {"TRBDEVID", "TRBDEVID1", "TRBDEVID2"};
    static const char *const pidr[] = {"TRBPIDR0", "TRBPIDR1", "TRBPIDR2", "TRBPIDR3",
                                       "TRBPIDR4", "TRBPIDR5", "TRBPIDR6", "TRBPIDR7"};
    static const char *const cidr[] = {"TRBCIDR0", "TRBCIDR1", "TRBCIDR2", "TRBCIDR3"};
    switch (t->kind) {
    case EXT_DEVID: return devid[t->index];
    case EXT_PIDR: return pidr[t->index];
    case EXT_CIDR: return cidr[t->index];
    default: return names[t->kind]; /* NULL for EXT_RESERVED and EXT_REG */
    }
}

/* The frame exists with FEAT_TRBE_EXT. */
static bool have_frame(const pmt_pe *pe)
{
    return pe->cfg.trbe.feat_trbe && pe->cfg.trbe.feat_trbe_ext;
}

pmt_ext_name pmt_trbe_ext_name(const pmt_pe *pe, uint32_t offset)
{
    pmt_ext_name name = {{PMT_REG_NONE, 0}, NULL, 0};
    if (!pe || !have_frame(pe) || offset > 0xFFF)
        return name;
    struct ext_target t = decode(offset & ~3u);
    name.reg.id = t.id;
    name.own = own_name(&t);
    name.half = t.wide ? (offset >> 2) & 1 : 0;
    return name;
}

/* AllowExternalTraceBufferAccess (MDCR_EL3.ETBAD). Without FEAT_RME the reserved values 0b01
 * and 0b10 behave as 0b00, and a Root access is a Secure one. */
static bool etbad_allows(const pmt_pe *pe, pmt_security from)
{
    unsigned etbad = pe->cfg.have_el3 ? (unsigned)MDCR3(ETBAD) : 3u;
    bool rme = pe->cfg.have_rme;
    if (!rme && (etbad == 1u || etbad == 2u))
        etbad = 0;
    if (!rme && from == PMT_SS_ROOT)
        from = PMT_SS_SECURE;
    switch (etbad) {
    case 0: return rme ? from == PMT_SS_ROOT : from == PMT_SS_SECURE;
    case 1: return from == PMT_SS_ROOT || from == PMT_SS_REALM;
    case 2: return from == PMT_SS_ROOT || from == PMT_SS_SECURE;
    default: return true;
    }
}

/* The access conditions of H9.4: every register returns an error when the Core power domain is
 * off or the OS Double Lock is locked; the Trace Buffer registers also when the OS Lock is
 * locked or MDCR_EL3.ETBAD disallows the access. Reserved offsets (RMXBCY): an error when
 * powered down; RES0 in 0xF00-0xFFC; elsewhere an error under DLK, OSLK or ETBAD (the choice
 * between RES0 and an error), else RES0. */
static bool permitted(const pmt_pe *pe, const struct ext_target *t, pmt_security from)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (s->double_lock)
        return false;
    bool trb = t->kind == EXT_REG || t->kind == EXT_TRBCR || t->kind == EXT_ITCTRL;
    return !trb || (!s->os_lock && etbad_allows(pe, from));
}

static bool reserved_error(const pmt_pe *pe, uint32_t off, pmt_security from)
{
    const pmt_pe_state *s = &pe->st.pe;
    if (off >= 0xF00)
        return false;
    return s->double_lock || s->os_lock || !etbad_allows(pe, from);
}

static uint64_t authstatus(const pmt_pe *pe)
{
    unsigned prohibited = pe->st.pe.ext_invasive_prohibited;
    /* 0b11: implemented and enabled; 0b10: implemented and disabled. */
    uint64_t ns = (prohibited >> PMT_SS_NONSECURE & 1) ? 2u : 3u;
    uint64_t v = ns | ns << 2;
    if (pe->cfg.have_el3) {
        uint64_t sec = (prohibited >> PMT_SS_SECURE & 1) ? 2u : 3u;
        v |= sec << 4 | sec << 6;
    }
    if (pe->cfg.have_rme) {
        uint64_t rl = (prohibited >> PMT_SS_REALM & 1) ? 2u : 3u;
        uint64_t rt = (prohibited >> PMT_SS_ROOT & 1) ? 2u : 3u;
        v |= rl << 12 | rl << 14 | rt << 24 | rt << 26;
    }
    return v;
}

static uint64_t own_read(const pmt_pe *pe, const struct ext_target *t)
{
    const pmt_trbe_config *c = &pe->cfg.trbe;
    static const uint8_t cidr[4] = {0x0D, 0x90, 0x05, 0xB1}; /* CoreSight component */
    uint8_t pidr[8] = {
        (uint8_t)(c->part_number & 0xFF),
        (uint8_t)(c->part_number >> 8 | 0xB0),   /* JEP106 identity code [3:0] of Arm (0x3B) */
        (uint8_t)(0x3 | 0x8 | c->revision << 4), /* identity [6:4], JEDEC, REVISION */
        0x00,
        0x04, /* JEP106 continuation code of Arm */
        0,
        0,
        0,
    };
    switch (t->kind) {
    case EXT_REG: return trbe_reg_value(pe, t->id, 1, true);
    case EXT_ITCTRL: return pe->st.trbe.itctrl;
    case EXT_DEVAFF: return pe->cfg.mpidr | UINT64_C(1) << 31; /* bit 31 RAO */
    case EXT_AUTHSTATUS: return authstatus(pe);
    case EXT_DEVARCH: /* ARCHITECT Arm, PRESENT, REVISION (1 with FEAT_TRBEv1p1), ARCHPART 0xA18 */
        return 0x47700A18u | (c->feat_trbe_exc ? 0x10000u : 0u);
    case EXT_DEVTYPE: return 0x21; /* SUB 2 (trace buffer), MAJOR 1 (trace sink) */
    case EXT_PIDR: return pidr[t->index];
    case EXT_CIDR: return cidr[t->index];
    default: return 0; /* TRBCR (ManStop RAZ), TRBLAR (WO), TRBLSR (no software lock), DEVID */
    }
}

static pmt_ext_status begin(const pmt_pe *pe, uint32_t off, unsigned size, pmt_security from,
                            struct ext_target *t, bool *reserved_ok)
{
    *reserved_ok = false;
    if (!have_frame(pe))
        return PMT_EXT_NO_REGISTER; /* no external Trace Buffer frame */
    if (off > 0xFFF)
        return PMT_EXT_NO_REGISTER;
    if ((size != 4 && size != 8) || (off & (size - 1)))
        return PMT_EXT_BAD_SIZE;
    *t = decode(off & ~3u);
    if (size == 8 && !t->wide && t->kind != EXT_RESERVED)
        return PMT_EXT_BAD_SIZE;
    if (pe->st.pe.powered_down)
        return PMT_EXT_ERROR;
    if (t->kind == EXT_RESERVED) {
        if (reserved_error(pe, off, from))
            return PMT_EXT_ERROR;
        *reserved_ok = true;
        return PMT_EXT_OK;
    }
    return permitted(pe, t, from) ? PMT_EXT_OK : PMT_EXT_ERROR;
}

pmt_ext_status pmt_trbe_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                 uint64_t *value)
{
    if (!pe || !value)
        return PMT_EXT_ERROR;
    *value = 0;
    struct ext_target t;
    bool reserved;
    pmt_ext_status st = begin(pe, offset, size, from, &t, &reserved);
    if (st != PMT_EXT_OK || reserved)
        return st;
    uint64_t v = own_read(pe, &t);
    /* A 32-bit access to a 64-bit register reads the half at its offset. */
    *value = size == 8 || !t.wide ? v : (v >> (32 * ((offset >> 2) & 1))) & UINT32_MAX;
    return PMT_EXT_OK;
}

pmt_ext_status pmt_trbe_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                  uint64_t value)
{
    if (!pe)
        return PMT_EXT_ERROR;
    ete_unit_buffer_drain(pe);
    struct ext_target t;
    bool reserved;
    pmt_ext_status st = begin(pe, offset, size, from, &t, &reserved);
    if (st != PMT_EXT_OK || reserved)
        return st;
    if (size == 4 && t.wide) { /* a 32-bit half of a 64-bit register: merge */
        uint64_t old = t.kind == EXT_REG ? own_read(pe, &t) : 0;
        value = (offset & 4) ? (old & UINT32_MAX) | (value & UINT32_MAX) << 32
                             : (old & ~(uint64_t)UINT32_MAX) | (value & UINT32_MAX);
    }
    switch (t.kind) {
    case EXT_REG:
        if (t.id == PMT_REG_TRBIDR_EL1)
            break; /* RO */
        pe->accessor = PE_EXTERNAL;
        trbe_ext_reg_write(pe, t.id, value);
        pe->accessor = PE_SELF_HOSTED;
        break;
    case EXT_TRBCR:
        /* TRBCRManStopWrite (RWMPMV): a trace unit flush, then a Manual Stop event. */
        if (PMT_GET(TRBCR, ManStop, value))
            trbe_request_flush(pe, TRBE_FLUSH_MANSTOP);
        break;
    case EXT_ITCTRL:
        if (trbe_write_locked(pe)) {
            bool ignore = pe->cfg.trbe.ignore_writes_while_enabled;
            pe_log(pe,
                   "TRBE: TRBITCTRL written while the Trace Buffer Unit is enabled (RDJMDD): %s",
                   ignore ? "ignored" : "takes effect");
            if (ignore)
                break;
        }
        pe->st.trbe.itctrl = value & 1u; /* IME; integration mode has no other effect here */
        break;
    default: break; /* RO registers and TRBLAR (no software lock) ignore writes */
    }
    return PMT_EXT_OK;
}
