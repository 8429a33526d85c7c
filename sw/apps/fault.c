/*
 * fault.c - capture trace as Linux does (Fill mode, trigger ignored) and recover from faults on
 * the trace writes (apps.h): each fatal management event is reported (EC, FSC, TRBPTR_EL1), the
 * trace before it is kept, and the capture restarts at TRBPTR_EL1 once the cause is fixed, or on
 * the next page.
 */
#include "app_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define PAGE_SIZE UINT64_C(4096)

typedef struct fault_ctx {
    const sw_fault_config *cfg;
    sw_fault_result *res;
    sw_trbe trbe;
    uint64_t base, limit, start;
    bool active;
    unsigned max_recoveries;
} fault_ctx;

static void collect(fault_ctx *c, uint64_t end)
{
    if (end > c->start && end <= c->limit)
        c->res->bytes += end - c->start;
}

static bool restart_at(fault_ctx *c, uint64_t write)
{
    sw_trbe_buf b = sw_trbe_linux_buf(c->base, write, c->limit);
    c->start = write;
    return sw_trbe_enable(&c->trbe, &b) == SW_OK;
}

/* A fatal event: report it, keep the trace before it, then recover or give up. Returns whether
 * the capture resumed. */
static bool fatal(fault_ctx *c, const sw_trbe_irq_info *info, bool restart)
{
    sw_fault_result *res = c->res;
    sw_fault_report r;
    r.cause = info->cause;
    r.act = info->act;
    r.ec = info->ec;
    r.fsc = info->fsc;
    r.ea = PMT_GET(TRBSR, EA, info->trbsr) != 0;
    r.trbsr = info->trbsr;
    r.trbptr = info->trbptr;
    res->faults++;
    if (res->num_reports < SW_FAULT_MAX_REPORTS)
        res->reports[res->num_reports++] = r;
    collect(c, info->trbptr);
    if (!restart || res->recoveries >= c->max_recoveries) {
        c->active = false; /* trbe_stop_and_truncate_event */
        return false;
    }
    bool fixed = c->cfg->fix && c->cfg->fix(c->cfg->fix_arg, &r);
    uint64_t write = fixed ? info->trbptr : (info->trbptr & ~(PAGE_SIZE - 1)) + PAGE_SIZE;
    if (write < c->base || write >= c->limit)
        write = c->base;
    /* From a reset unit (trbe_reset_local): that also clears TRBSR_EL1.EA, which the status
     * clearing of a restart keeps (clr_trbe_status), so the next event is not taken for another
     * External abort. */
    if (sw_trbe_reset_local(&c->trbe) != SW_OK || !restart_at(c, write)) {
        c->active = false;
        return false;
    }
    res->recoveries++;
    return true;
}

static void handle_event(fault_ctx *c, const sw_trbe_irq_info *info, bool restart)
{
    bool resume = false;
    switch (info->cause) {
    case SW_TRBE_CAUSE_BUFFER_FULL: /* trbe_handle_overflow */
        c->res->wraps++;
        collect(c, c->limit);
        c->start = c->base;
        resume = restart && restart_at(c, c->base);
        break;
    case SW_TRBE_CAUSE_WRAP:
    case SW_TRBE_CAUSE_TRIGGER:
    case SW_TRBE_CAUSE_NONE: break;
    case SW_TRBE_CAUSE_OTHER:
        if (PMT_GET(TRBSR, S, info->trbsr)) { /* stopped for no known reason: fatal */
            resume = fatal(c, info, restart);
        } else if (restart) { /* trbe_handle_spurious */
            sw_trbe_reenable(&c->trbe);
            resume = true;
        }
        break;
    case SW_TRBE_CAUSE_FAULT:
    case SW_TRBE_CAUSE_EXTERNAL_ABORT:
    case SW_TRBE_CAUSE_GPC:
    case SW_TRBE_CAUSE_IMPDEF: resume = fatal(c, info, restart); break;
    }
    if (resume)
        sw_trbe_write_trfcr(&c->trbe, info->trfcr);
}

static int fault_irq(unsigned intid, void *arg)
{
    fault_ctx *c = arg;
    sw_trbe_irq_info info;
    (void)intid;
    if (sw_trbe_irq(&c->trbe, &info) == SW_IRQ_NONE)
        return SW_IRQ_NONE;
    handle_event(c, &info, c->active);
    return SW_IRQ_HANDLED;
}

int sw_fault_run(const sw_env *env, const sw_fault_config *cfg, const sw_workload *w,
                 sw_fault_result *res)
{
    sw_gic gic_local, *gic = NULL;
    fault_ctx c;
    if (!res)
        return SW_EINVAL;
    memset(res, 0, sizeof *res);
    if (!env || !env->h || !cfg || !w || !w->next || cfg->size == 0 ||
        cfg->base + cfg->size < cfg->base)
        return res->status = SW_EINVAL;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.res = res;
    c.base = cfg->base;
    c.limit = cfg->base + cfg->size;
    c.active = true;
    c.max_recoveries = cfg->max_recoveries ? cfg->max_recoveries : 8;
    int ret = sw_app_gic(env, &gic_local, &gic);
    if (!ret)
        ret = sw_trbe_probe(&c.trbe, env->h);
    if (!ret)
        ret = sw_gic_request_ppi(gic, env->trbe_intid, fault_irq, &c);
    if (ret)
        return res->status = ret;
    ret = restart_at(&c, c.base) ? SW_OK : sw_trbe_status(&c.trbe);
    if (!ret) {
        sw_trbe_write_trfcr(&c.trbe, PMT_MASK(TRFCR_EL1, E0TRE) | PMT_MASK(TRFCR_EL1, E1TRE));
        ret = sw_app_run_workload(env->h, w, NULL);
    }
    sw_trbe_write_trfcr(&c.trbe, 0);
    sw_trbe_irq_info info;
    int r2 = sw_trbe_update_buffer(&c.trbe, &info);
    if (!ret)
        ret = r2;
    if (info.irq && c.active)
        handle_event(&c, &info, false);
    else if (info.was_enabled && c.active)
        collect(&c, info.trbptr);
    res->stopped = !c.active;
    sw_gic_free_ppi(gic, env->trbe_intid);
    if (!ret)
        ret = sw_trbe_status(&c.trbe);
    return res->status = ret;
}

size_t sw_fault_format(const sw_fault_result *res, char *buf, size_t size)
{
    size_t len = 0;
    char n[40];
    if (buf && size)
        buf[0] = '\0';
    sw_app_grouped(res->bytes, n, sizeof n);
    sw_app_add(buf, size, &len,
               "fault: %" PRIu64 " trace buffer faults, %" PRIu64 " recoveries, %" PRIu64
               " buffer-full events, %s trace bytes captured%s\n",
               res->faults, res->recoveries, res->wraps, n,
               res->stopped ? ", capture truncated" : "");
    for (unsigned i = 0; i < res->num_reports; i++) {
        const sw_fault_report *r = &res->reports[i];
        sw_app_add(buf, size, &len,
                   "  %s: EC 0x%02x FSC 0x%02x%s TRBPTR_EL1 0x%" PRIx64 " (TRBSR_EL1 0x%" PRIx64
                   ", %s)\n",
                   sw_trbe_cause_name(r->cause), r->ec, r->fsc, r->ea ? " EA" : "", r->trbptr,
                   r->trbsr, sw_trbe_act_name(r->act));
    }
    if (res->status)
        sw_app_add(buf, size, &len, " failed: %s\n", sw_strerror(res->status));
    return len;
}
