/*
 * os_lock.c - the OS Lock and the OS Double Lock as System registers (D24.3.27 OSLAR_EL1,
 * D24.3.28 OSLSR_EL1, D24.3.23 OSDLR_EL1, D24.3.9 DBGPRCR_EL1), when the model holds them
 * (pmt_pe_config.os_lock_registers; without it they are the CPU's: NOT_MINE).
 *
 * The OS Lock is pe.os_lock (OSLockStatus(), J1.3.1.5), which every reader of the lock already
 * reads: the trace unit, which it disables (TRCOSLSR.OSLM = 0b100, ete_regs.c), the external
 * PMU, debug and trace buffer frames (their error responses), PMU snapshots (RTSYTY). The OS
 * Double Lock is pe.double_lock, DoubleLockStatus() (J1.3.1.4): OSDLR_EL1.DLK == 1,
 * DBGPRCR_EL1.CORENPDRQ == 0 and the PE in Non-debug state, derived again whenever one of them
 * changes. FEAT_DoubleLock is implemented (docs/choices.md "The OS Lock").
 *
 * The accessibility pseudocode of the four registers: UNDEFINED at EL0; at EL1, trapped to EL2
 * when EL2 is enabled and MDCR_EL2.<TDE,TDOSA> != '00', else to EL3 with MDCR_EL3.TDOSA; at EL2,
 * trapped to EL3 with MDCR_EL3.TDOSA. Not modelled (as for the PMU, TRBE and trace unit
 * registers, docs/choices.md): the FEAT_FGT traps (HDFGRTR_EL2/HDFGWTR_EL2.OSLAR_EL1 ...),
 * EL3SDDUndef and EL3SDDUndefPriority.
 */
#include "../pe_internal.h"

#include <string.h>

bool os_lock_owns(pmt_reg_id id)
{
    switch (id) {
    case PMT_REG_OSLAR_EL1:
    case PMT_REG_OSLSR_EL1:
    case PMT_REG_OSDLR_EL1:
    case PMT_REG_DBGPRCR_EL1: return true;
    default: return false;
    }
}

bool os_lock_double_lock_status(const pmt_pe *pe, const pmt_pe_state *s)
{
    const struct pmt_os_lock_regs *r = &pe->st.oslock;
    return pe->cfg.os_lock_registers && r->dlk && !r->corenpdrq && !s->debug;
}

void os_lock_keep(const pmt_pe *pe, pmt_pe_state *s)
{
    if (!pe->cfg.os_lock_registers)
        return;
    s->os_lock = pe->st.pe.os_lock;
    s->double_lock = os_lock_double_lock_status(pe, s);
}

void os_lock_reset(pmt_pe *pe)
{
    memset(&pe->st.oslock, 0, sizeof pe->st.oslock);
    /* OSLSR_EL1.OSLK: on a Cold reset, 1 (D24.3.28). OSDLR_EL1.DLK: on a Warm reset, 0
     * (D24.3.23). DBGPRCR_EL1.CORENPDRQ: on a Cold reset, EDPRCR.COREPURQ, which no external
     * debugger has set (D24.3.9). */
    pe->st.pe.os_lock = pe->cfg.os_lock_registers;
    pe->st.pe.double_lock = false;
}

uint64_t os_lock_mdcr_el2_mask(const pmt_pe *pe)
{
    return pe->cfg.os_lock_registers ? PMT_MASK(MDCR_EL2, TDE) | PMT_MASK(MDCR_EL2, TDOSA) : 0;
}

uint64_t os_lock_mdcr_el3_mask(const pmt_pe *pe)
{
    return pe->cfg.os_lock_registers ? PMT_MASK(MDCR_EL3, TDOSA) : 0;
}

const char *os_lock_state_error(const pmt_pe *pe)
{
    const struct pmt_pe_arch *st = &pe->st;
    if (!pe->cfg.os_lock_registers)
        return st->oslock.dlk || st->oslock.corenpdrq
                   ? "oslock holds OSDLR_EL1 or DBGPRCR_EL1 without os_lock_registers"
                   : NULL;
    if (st->pe.double_lock != os_lock_double_lock_status(pe, &st->pe))
        return "pe.double_lock is not DoubleLockStatus() of OSDLR_EL1, DBGPRCR_EL1 and Halted()";
    return NULL;
}

/* The accessibility pseudocode the four registers share (D24.3.9, D24.3.23, D24.3.27,
 * D24.3.28), with FEAT_DoubleLock (so MDCR_ELx.TDOSA traps OSDLR_EL1 too). */
static pmt_access access(const pmt_pe *pe)
{
    const pmt_pe_state *s = &pe->st.pe;
    const bool tdosa3 = pe->cfg.have_el3 && PMT_GET(MDCR_EL3, TDOSA, pe->st.mdcr_el3);
    const uint64_t el2_traps = PMT_MASK(MDCR_EL2, TDE) | PMT_MASK(MDCR_EL2, TDOSA);
    switch (s->el) {
    case 0: return PMT_ACCESS_UNDEFINED;
    case 1:
        if (s->el2_enabled && (pe->st.mdcr_el2 & el2_traps))
            return PMT_ACCESS_TRAP_EL2;
        return tdosa3 ? PMT_ACCESS_TRAP_EL3 : PMT_ACCESS_OK;
    case 2: return tdosa3 ? PMT_ACCESS_TRAP_EL3 : PMT_ACCESS_OK;
    default: return PMT_ACCESS_OK;
    }
}

pmt_access os_lock_sysreg_read(pmt_pe *pe, pmt_reg_ref reg, uint64_t *value)
{
    if (!pe->cfg.os_lock_registers)
        return PMT_ACCESS_NOT_MINE; /* the CPU's */
    if (reg.id == PMT_REG_OSLAR_EL1)
        return PMT_ACCESS_UNDEFINED; /* write-only: no MRS encoding */
    pmt_access a = access(pe);
    if (a != PMT_ACCESS_OK)
        return a;
    const struct pmt_os_lock_regs *r = &pe->st.oslock;
    switch (reg.id) {
    case PMT_REG_OSLSR_EL1:
        /* OSLM = 0b10 (OSLM[1] is bit 3): the OS Lock is implemented, as Armv8 requires; nTT
         * RAZ; OSLK the lock. */
        *value = PMT_PUT(OSLSR, OSLM1, 1) | PMT_PUT(OSLSR, OSLK, pe->st.pe.os_lock);
        break;
    case PMT_REG_OSDLR_EL1: *value = PMT_PUT(OSDLR, DLK, r->dlk); break;
    default: *value = PMT_PUT(DBGPRCR, CORENPDRQ, r->corenpdrq); break;
    }
    return PMT_ACCESS_OK;
}

pmt_access os_lock_sysreg_write(pmt_pe *pe, pmt_reg_ref reg, uint64_t value)
{
    if (!pe->cfg.os_lock_registers)
        return PMT_ACCESS_NOT_MINE;
    if (reg.id == PMT_REG_OSLSR_EL1)
        return PMT_ACCESS_UNDEFINED; /* read-only: no MSR encoding */
    pmt_access a = access(pe);
    if (a != PMT_ACCESS_OK)
        return a;
    struct pmt_os_lock_regs *r = &pe->st.oslock;
    pmu_flush(pe);
    switch (reg.id) {
    case PMT_REG_OSLAR_EL1:
        /* "On writes to OSLAR_EL1, bit[0] is copied to the OS Lock" (D24.3.27). */
        pe->st.pe.os_lock = PMT_GET(OSLAR, OSLK, value);
        break;
    case PMT_REG_OSDLR_EL1: r->dlk = PMT_GET(OSDLR, DLK, value); break;
    default: r->corenpdrq = PMT_GET(DBGPRCR, CORENPDRQ, value); break;
    }
    pe->st.pe.double_lock = os_lock_double_lock_status(pe, &pe->st.pe);
    /* What reads the locks: the trace unit's enable (a lock disables it: it outputs what it
     * holds and is Idle), the Trace Buffer Unit's External mode controls, the PMU. */
    pmu_update(pe);
    trbe_update(pe);
    ete_update(pe);
    return PMT_ACCESS_OK;
}
