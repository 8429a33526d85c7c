/*
 * debug_ext.c - the registers of the external debug frame (H9.2) that PC sample-based profiling
 * uses when it is implemented there (FEAT_PCSRv8): EDPCSRlo/hi, EDCIDSR, EDVIDSR (Read_EDPCSRlo,
 * J1.3.1.124) and the optional software lock EDLAR/EDLSR. The rest of the frame is the
 * platform's debug unit, which reports EDSCR.SC2 and the EDPRSR inputs in pmt_pe_state.
 */
#include "pcs_internal.h"

#define EDLAR_KEY 0xC5ACCE55u

enum ed_reg { ED_NONE, ED_PCSRLO, ED_CIDSR, ED_VIDSR, ED_PCSRHI, ED_LAR, ED_LSR };

static enum ed_reg decode(const pmt_pe *pe, uint32_t off)
{
    if (pe->cfg.pcsr != PMT_PCSR_DEBUG_FRAME)
        return ED_NONE;
    switch (off) {
    case 0x0A0: return ED_PCSRLO;
    case 0x0A4: return ED_CIDSR;
    case 0x0A8: return ED_VIDSR; /* implemented also without EL2 and EL3 (docs/choices.md) */
    case 0x0AC: return ED_PCSRHI;
    case 0xFB0: return pe->cfg.debug_software_lock ? ED_LAR : ED_NONE;
    case 0xFB4: return pe->cfg.debug_software_lock ? ED_LSR : ED_NONE;
    default: return ED_NONE;
    }
}

pmt_ext_name pmt_debug_ext_name(const pmt_pe *pe, uint32_t offset)
{
    static const char *const names[] = {
        [ED_PCSRLO] = "EDPCSRlo", [ED_CIDSR] = "EDCIDSR", [ED_VIDSR] = "EDVIDSR",
        [ED_PCSRHI] = "EDPCSRhi", [ED_LAR] = "EDLAR",     [ED_LSR] = "EDLSR"};
    pmt_ext_name name = {{PMT_REG_NONE, 0}, NULL, 0};
    if (pe && offset <= 0xFFF)
        name.own = names[decode(pe, offset & ~3u)]; /* NULL for ED_NONE */
    return name;
}

/* The EDPRSR bits the sample registers' accessibility reads. */
static uint32_t edprsr(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    return (uint32_t)(PMT_PUT(EDPRSR, PU, !s->powered_down) | PMT_PUT(EDPRSR, OSLK, s->os_lock) |
                      PMT_PUT(EDPRSR, DLK, s->double_lock) | PMT_PUT(EDPRSR, HALTED, s->debug));
}

/* EDPRSR<6:5,0> != '001': DoubleLockStatus(), OSLockStatus() or !IsCorePowered(). */
static bool core_access_error(const pmt_pe *pe)
{
    uint64_t m = PMT_MASK(EDPRSR, DLK) | PMT_MASK(EDPRSR, OSLK) | PMT_MASK(EDPRSR, PU);
    return (edprsr(pe) & m) != PMT_MASK(EDPRSR, PU);
}

/* EDSCR.SC2 as the PE implements it: with FEAT_PCSRv8 (this frame), EL2 and FEAT_Debugv8p1,
 * which FEAT_VHE and FEAT_Debugv8p2 both imply; RES0 otherwise. */
static bool edscr_sc2(const pmt_pe *pe)
{
    return pe->st.pe.edscr_sc2 && pe->cfg.have_el2 && (pe->cfg.feat_vhe || pe->cfg.feat_debugv8p2);
}

/* Read_EDPCSRlo(memory_mapped) */
static uint32_t read_edpcsrlo(pmt_pe *pe, bool memory_mapped)
{
    struct pmt_pcs_regs *r = &pe->st.pcs;
    pcs_refresh(pe);
    bool update = !memory_mapped || !r->ed_locked; /* software locked: no side effects */
    if (!r->valid) {
        if (update) /* EDPCSRhi, EDCIDSR, EDVIDSR = bits(32) UNKNOWN */
            r->edpcsrhi = r->edcidsr = r->edvidsr = 0;
        return UINT32_MAX;
    }
    uint64_t pc = r->sample.pc;
    if (!update)
        return (uint32_t)pc;
    struct pcs_fields f = pcs_fields_of(pe);
    bool sc2 = edscr_sc2(pe);
    uint32_t hi;
    if (pe->cfg.feat_vhe && sc2)
        hi = (uint32_t)(PMT_PUT(EDPCSRhi, PC, f.rw ? pc >> 32 : 0) | PMT_PUT(EDPCSRhi, EL, f.el) |
                        PMT_PUT(EDPCSRhi, NS, !f.secure));
    else
        hi = f.rw ? (uint32_t)(pc >> 32) : 0;
    r->edpcsrhi = hi;
    r->edcidsr = r->sample.contextidr_el1;
    if (sc2) { /* (FEAT_VHE || FEAT_Debugv8p2) && EDSCR.SC2 == '1' */
        r->edvidsr = f.has_el2 ? f.contextidr_el2 : 0;
    } else {
        bool vmid = f.has_el2 && f.el <= 1;
        /* HV: 1 when EDPCSRhi is not zero, else IMPLEMENTATION DEFINED: pc_sample.rw, the
         * example implementation (docs/choices.md). */
        bool hv = hi != 0 || f.rw;
        r->edvidsr = (uint32_t)(PMT_PUT(EDVIDSR, VMID, vmid ? f.vmid : 0) |
                                PMT_PUT(EDVIDSR, NS, !f.secure) | PMT_PUT(EDVIDSR, E2, f.el == 2) |
                                PMT_PUT(EDVIDSR, E3, f.el == 3 && f.rw) | PMT_PUT(EDVIDSR, HV, hv));
    }
    return (uint32_t)pc;
}

static pmt_ext_status begin(const pmt_pe *pe, uint32_t off, unsigned size, enum ed_reg *reg)
{
    if (off > 0xFFF)
        return PMT_EXT_NO_REGISTER;
    if (size != 4 && size != 8)
        return PMT_EXT_BAD_SIZE;
    *reg = decode(pe, off & ~3u);
    if (*reg == ED_NONE)
        return PMT_EXT_NO_REGISTER;
    if (size != 4 || (off & 3))
        return PMT_EXT_BAD_SIZE; /* 32-bit registers */
    /* EDLAR and EDLSR stay accessible (no FEAT_DoPD); the sample registers need EDPRSR
     * {DLK,OSLK,PU} = {0,0,1}: otherwise the IMPLEMENTATION DEFINED "slave-generated error". */
    if (*reg != ED_LAR && *reg != ED_LSR && core_access_error(pe))
        return PMT_EXT_ERROR;
    return PMT_EXT_OK;
}

pmt_ext_status pmt_debug_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                  bool memory_mapped, uint64_t *value)
{
    (void)from; /* no register here depends on the Security state of the access */
    if (!pe || !value)
        return PMT_EXT_ERROR;
    *value = 0;
    enum ed_reg reg = ED_NONE;
    pmt_ext_status st = begin(pe, offset, size, &reg);
    if (st != PMT_EXT_OK)
        return st;
    const struct pmt_pcs_regs *r = &pe->st.pcs;
    switch (reg) {
    case ED_PCSRLO: *value = read_edpcsrlo(pe, memory_mapped); break;
    case ED_CIDSR: *value = r->edcidsr; break;
    case ED_VIDSR: *value = r->edvidsr; break;
    case ED_PCSRHI: *value = r->edpcsrhi; break;
    case ED_LSR: /* SLI and SLK read as 0 for an access that is not memory-mapped */
        *value = memory_mapped ? PMT_PUT(LSR, SLI, 1) | PMT_PUT(LSR, SLK, r->ed_locked) : 0;
        break;
    default: break; /* EDLAR is write-only: reads as 0 */
    }
    return PMT_EXT_OK;
}

pmt_ext_status pmt_debug_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                   bool memory_mapped, uint64_t value)
{
    (void)from;
    if (!pe)
        return PMT_EXT_ERROR;
    ete_unit_buffer_drain(pe);
    enum ed_reg reg = ED_NONE;
    pmt_ext_status st = begin(pe, offset, size, &reg);
    if (st != PMT_EXT_OK)
        return st;
    /* EDLAR is reached through the memory-mapped interface; everything else here is RO. */
    if (reg == ED_LAR && memory_mapped)
        pe->st.pcs.ed_locked = (value & UINT32_MAX) != EDLAR_KEY;
    return PMT_EXT_OK;
}
