/* gicv3.c - bring-up, PPIs and the IRQ entry of a GICv3 (gicv3.h). */
#include "gicv3.h"

#include <string.h>

#define POLL_LIMIT 1000000 /* Linux gic_enable_redist: USEC_PER_SEC polls */

static uint64_t sgi(const sw_gic *g, uint32_t off)
{
    return g->gicr + SW_GICR_SGI_BASE + off;
}

static void note(sw_gic *g, hal_status s)
{
    if (s != HAL_OK && g->err == HAL_OK)
        g->err = s;
}

static uint32_t rd32(sw_gic *g, uint64_t pa)
{
    uint32_t v = 0;
    note(g, hal_mmio_read32(g->h, pa, &v));
    return v;
}

static void wr32(sw_gic *g, uint64_t pa, uint32_t v)
{
    note(g, hal_mmio_write32(g->h, pa, v));
}

static uint64_t sysreg_rd(sw_gic *g, hal_sysreg r)
{
    uint64_t v = 0;
    note(g, hal_sysreg_read(g->h, r, &v));
    return v;
}

static void sysreg_wr(sw_gic *g, hal_sysreg r, uint64_t v)
{
    note(g, hal_sysreg_write(g->h, r, v));
}

/* gic_do_wait_for_rwp */
static void wait_for_rwp(sw_gic *g, uint64_t ctlr)
{
    for (int i = 0; i < POLL_LIMIT && (rd32(g, ctlr) & SW_GICD_CTLR_RWP); i++)
        ;
}

int sw_gic_init(sw_gic *g, const hal *h, uint64_t gicd_base, uint64_t gicr_base)
{
    if (!g || !h)
        return SW_EINVAL;
    memset(g, 0, sizeof *g);
    g->h = h;
    g->gicd = gicd_base;
    g->gicr = gicr_base;

    /* gic_dist_init (the part for this PE's interrupts): affinity routing, Group 1 on. */
    wr32(g, g->gicd + SW_GICD_CTLR, 0);
    wait_for_rwp(g, g->gicd + SW_GICD_CTLR);
    wr32(g, g->gicd + SW_GICD_CTLR,
         SW_GICD_CTLR_ARE_NS | SW_GICD_CTLR_ENABLE_G1A | SW_GICD_CTLR_ENABLE_G1);
    wait_for_rwp(g, g->gicd + SW_GICD_CTLR);

    /* gic_enable_redist: wake the redistributor up. */
    uint32_t waker = rd32(g, g->gicr + SW_GICR_WAKER);
    wr32(g, g->gicr + SW_GICR_WAKER, waker & ~SW_GICR_WAKER_PROCESSOR_SLEEP);
    int i = 0;
    while (i++ < POLL_LIMIT && (rd32(g, g->gicr + SW_GICR_WAKER) & SW_GICR_WAKER_CHILDREN_ASLEEP))
        ;
    if (i > POLL_LIMIT)
        return SW_EIO; /* "redistributor failed to wake up" */

    /* gic_cpu_init / gic_cpu_config: SGIs and PPIs Non-secure Group 1, PPIs off, SGIs on,
     * nothing active, default priority. */
    wr32(g, sgi(g, SW_GICR_IGROUPR0), ~0u);
    wr32(g, sgi(g, SW_GICR_ICACTIVER0), ~0u);
    wr32(g, sgi(g, SW_GICR_ICENABLER0), 0xFFFF0000u);
    wr32(g, sgi(g, SW_GICR_ISENABLER0), 0x0000FFFFu);
    for (uint32_t n = 0; n < 32; n += 4)
        wr32(g, sgi(g, SW_GICR_IPRIORITYR + n), SW_GIC_DEFAULT_PRIORITY * 0x01010101u);

    /* gic_cpu_sys_reg_init */
    sysreg_wr(g, HAL_ICC_SRE_EL1, sysreg_rd(g, HAL_ICC_SRE_EL1) | SW_ICC_SRE_SRE);
    sysreg_wr(g, HAL_ICC_PMR_EL1, SW_GIC_DEFAULT_PMR);
    sysreg_wr(g, HAL_ICC_BPR1_EL1, 0);
    sysreg_wr(g, HAL_ICC_CTLR_EL1, sysreg_rd(g, HAL_ICC_CTLR_EL1) & ~SW_ICC_CTLR_EOIMODE);
    sysreg_wr(g, HAL_ICC_IGRPEN1_EL1, SW_ICC_IGRPEN1_EN);
    hal_isb(h);

    hal_set_irq_entry(h, sw_gic_handle_irq, g);
    return g->err == HAL_OK ? SW_OK : SW_EIO;
}

int sw_gic_request_ppi(sw_gic *g, unsigned intid, sw_irq_handler fn, void *arg)
{
    if (!g || !fn || intid < 16 || intid > 31)
        return SW_EINVAL;
    for (unsigned k = 0; k < g->num_handlers; k++)
        if (g->handlers[k].intid == intid)
            return SW_EBUSY;
    if (g->num_handlers == SW_GIC_MAX_HANDLERS)
        return SW_ENOSPC;
    sw_gic_handler *hd = &g->handlers[g->num_handlers++];
    hd->intid = intid;
    hd->fn = fn;
    hd->arg = arg;
    hd->count = 0;
    /* gic_set_type(IRQ_TYPE_LEVEL_HIGH): ICFGR1 bit 2(n-16)+1 clear; then gic_unmask_irq. */
    uint64_t cfg = sgi(g, SW_GICR_ICFGR1);
    wr32(g, cfg, rd32(g, cfg) & ~(2u << (2 * (intid - 16))));
    wr32(g, sgi(g, SW_GICR_ISENABLER0), 1u << intid);
    return g->err == HAL_OK ? SW_OK : SW_EIO;
}

void sw_gic_free_ppi(sw_gic *g, unsigned intid)
{
    if (!g || intid > 31)
        return;
    wr32(g, sgi(g, SW_GICR_ICENABLER0), 1u << intid);
    for (unsigned k = 0; k < g->num_handlers; k++)
        if (g->handlers[k].intid == intid) {
            g->handlers[k] = g->handlers[--g->num_handlers];
            break;
        }
}

void sw_gic_handle_irq(void *gic)
{
    sw_gic *g = gic;
    uint64_t intid = sysreg_rd(g, HAL_ICC_IAR1_EL1) & 0xFFFFFF;
    if (intid >= 1020) { /* gic_irqnr_is_special */
        g->spurious++;
        return;
    }
    g->irqs++;
    int ret = SW_IRQ_NONE;
    for (unsigned k = 0; k < g->num_handlers; k++)
        if (g->handlers[k].intid == intid) {
            ret = g->handlers[k].fn((unsigned)intid, g->handlers[k].arg);
            if (ret == SW_IRQ_HANDLED)
                g->handlers[k].count++;
        }
    if (ret != SW_IRQ_HANDLED)
        g->unhandled++;
    sysreg_wr(g, HAL_ICC_EOIR1_EL1, intid);
    hal_isb(g->h);
}
