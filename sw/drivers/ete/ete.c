/*
 * ete.c - the ETE trace unit driver (ete.h): Linux's etm4x sequences for an ETE.
 */
#include "ete.h"

#include <pmtrace/pmt_regs.h>

#define ETE_POLLS 1000 /* etm4x_wait_status: a bounded poll */

static int rd(const sw_ete *e, enum hal_model_sysreg r, uint64_t *v)
{
    return hal_sysreg_read(e->h, (hal_sysreg)r, v) == HAL_OK ? SW_OK : -SW_EIO;
}

static int wr(const sw_ete *e, enum hal_model_sysreg r, uint64_t v)
{
    return hal_sysreg_write(e->h, (hal_sysreg)r, v) == HAL_OK ? SW_OK : -SW_EIO;
}

/* etm4x_wait_status: TRCSTATR bit `pos` equal to `val` within the budget. */
static int wait_status(const sw_ete *e, unsigned pos, unsigned val)
{
    for (int i = 0; i < ETE_POLLS; i++) {
        uint64_t s = 0;
        if (rd(e, HAL_TRCSTATR, &s) != SW_OK)
            return -SW_EIO;
        if (((s >> pos) & 1u) == val)
            return SW_OK;
    }
    return -SW_EBUSY;
}

/* TRCOSLSR.OSLM, bits [4:3] and [0] (etm4x's ETM_OSLSR_OSLM). */
static unsigned oslm(uint64_t trcoslsr)
{
    return (unsigned)((PMT_GET(TRCOSLSR, OSLM, trcoslsr) << 1) |
                      PMT_GET(TRCOSLSR, OSLM0, trcoslsr));
}

#define ETE_OSLOCK_PE 4u /* OSLM 0b100: the trace unit is controlled by the PE OS Lock */

int sw_ete_os_lock(sw_ete *e, bool locked)
{
    if (!e || !e->h)
        return -SW_EINVAL;
    if (e->os_lock != ETE_OSLOCK_PE)
        return SW_OK;
    if (hal_sysreg_write(e->h, (hal_sysreg)HAL_OSLAR_EL1, locked ? 1u : 0u) != HAL_OK)
        return -SW_EIO;
    hal_isb(e->h);
    return locked ? wait_status(e, 1, 1) : SW_OK; /* TRCSTATR.PMSTABLE */
}

int sw_ete_probe(sw_ete *e, const hal *h)
{
    if (!e || !h)
        return -SW_EINVAL;
    *e = (sw_ete){.h = h};
    uint64_t dfr0 = 0;
    if (hal_sysreg_read(h, (hal_sysreg)HAL_ID_AA64DFR0_EL1, &dfr0) != HAL_OK ||
        PMT_GET(DFR0, TraceVer, dfr0) == 0)
        return -SW_ENODEV;
    static const enum hal_model_sysreg idr[6] = {HAL_TRCIDR0, HAL_TRCIDR1, HAL_TRCIDR2,
                                                 HAL_TRCIDR3, HAL_TRCIDR4, HAL_TRCIDR5};
    if (rd(e, HAL_TRCDEVARCH, &e->devarch) != SW_OK)
        return -SW_ENODEV;
    /* ETE: ARCHITECT Arm, PRESENT, ARCHVER 5, ARCHPART 0xA13 (etm4x's ETM_DEVARCH_ETE_ARCH). */
    if ((e->devarch & 0xFFF0FFFFu) != 0x47705A13u)
        return -SW_ENODEV;
    /* etm_detect_os_lock, then etm4_os_unlock_csa: the registers accessible. */
    uint64_t oslsr = 0;
    if (rd(e, HAL_TRCOSLSR, &oslsr) != SW_OK)
        return -SW_EIO;
    e->os_lock = oslm(oslsr);
    if (sw_ete_os_lock(e, false) != SW_OK)
        return -SW_EIO;
    for (unsigned n = 0; n < 6; n++)
        if (rd(e, idr[n], &e->idr[n]) != SW_OK)
            return -SW_EIO;
    e->nr_addr_cmp = (unsigned)PMT_GET(TRCIDR4, NUMACPAIRS, e->idr[4]);
    unsigned rs = (unsigned)PMT_GET(TRCIDR4, NUMRSPAIR, e->idr[4]);
    e->nr_resource = rs ? rs + 1 : 0;
    e->ts = PMT_GET(TRCIDR0, TSSIZE, e->idr[0]) != 0;
    e->cci = PMT_GET(TRCIDR0, TRCCCI, e->idr[0]);
    e->bb = PMT_GET(TRCIDR0, TRCBB, e->idr[0]) && e->nr_addr_cmp;
    e->ccitmin = (unsigned)PMT_GET(TRCIDR3, CCITMIN, e->idr[3]);
    e->ns_ex_level = (unsigned)PMT_GET(TRCIDR3, EXLEVEL_NS, e->idr[3]);
    e->s_ex_level = (unsigned)PMT_GET(TRCIDR3, EXLEVEL_S, e->idr[3]);
    return SW_OK;
}

/* TRCVICTLR for the session: EVENT = resource 1 (always TRUE), SSSTATUS = 1 (started), and the
 * Exception levels not traced (every Secure one; the Non-secure ones the session excludes). */
static uint64_t victlr_of(const sw_ete *e, const sw_ete_config *c)
{
    uint64_t v = 1u | PMT_MASK(TRCVICTLR, SSSTATUS);
    uint64_t ns = 0;
    if (c->exclude_user)
        ns |= 1u;
    if (c->exclude_kernel)
        ns |= 6u; /* EL1 and EL2 */
    ns &= e->ns_ex_level;
    v |= (uint64_t)e->s_ex_level << PMT_TRCVICTLR_EXLEVEL_S_SHIFT; /* no Secure trace */
    v |= ns << (PMT_TRCVICTLR_EXLEVEL_S_SHIFT + 4);
    return v;
}

uint64_t sw_ete_trfcr_el1(const sw_ete_config *c)
{
    return (c->exclude_user ? 0 : PMT_MASK(TRFCR_EL1, E0TRE)) |
           (c->exclude_kernel ? 0 : PMT_MASK(TRFCR_EL1, E1TRE));
}

int sw_ete_enable(sw_ete *e, const sw_ete_config *c)
{
    if (!e || !e->h || !c)
        return -SW_EINVAL;
    int st = sw_ete_os_lock(e, false); /* etm4_os_unlock */
    st = st ? st : wr(e, HAL_TRCPRGCTLR, 0);
    if (st == SW_OK)
        st = wait_status(e, 0, 1); /* TRCSTATR.IDLE */
    if (st != SW_OK)
        return st;
    uint64_t cfg = (c->context_id ? PMT_MASK(TRCCONFIGR, CID) : 0) |
                   (c->timestamp && e->ts ? PMT_MASK(TRCCONFIGR, TS) : 0);
    st = wr(e, HAL_TRCCONFIGR, cfg);
    st = st ? st : wr(e, HAL_TRCAUXCTLR, 0);
    if (e->nr_resource) {
        st = st ? st : wr(e, HAL_TRCEVENTCTL0R, 0);
        st = st ? st : wr(e, HAL_TRCEVENTCTL1R, 0);
    }
    if (e->ts)
        st = st ? st : wr(e, HAL_TRCTSCTLR, 0);
    st = st ? st : wr(e, HAL_TRCSYNCPR, c->sync_period ? c->sync_period : 0xC);
    if (e->cci)
        st = st ? st : wr(e, HAL_TRCCCCTLR, e->ccitmin);
    if (e->bb)
        st = st ? st : wr(e, HAL_TRCBBCTLR, 0);
    st = st ? st : wr(e, HAL_TRCTRACEIDR, c->trace_id);
    st = st ? st : wr(e, HAL_TRCVICTLR, victlr_of(e, c));
    if (e->nr_addr_cmp) {
        st = st ? st : wr(e, HAL_TRCVIIECTLR, 0);
        st = st ? st : wr(e, HAL_TRCVISSCTLR, 0);
    }
    st = st ? st : wr(e, HAL_TRCPRGCTLR, 1);
    st = st ? st : wait_status(e, 0, 0); /* left Idle */
    e->enabled = st == SW_OK;
    return st;
}

int sw_ete_disable(sw_ete *e)
{
    if (!e || !e->h)
        return -SW_EINVAL;
    int st = wr(e, HAL_TRCPRGCTLR, 0);
    st = st ? st : wait_status(e, 1, 1); /* TRCSTATR.PMSTABLE */
    e->enabled = false;
    return st;
}
