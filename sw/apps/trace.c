/*
 * trace.c - capture a workload's trace (apps.h) in Fill mode (the Linux perf AUX flow: each
 * buffer-full interrupt collects the buffer and restarts it), Wrap mode (an interrupt at each
 * wrap; the buffer keeps the newest trace) or Circular Buffer mode (no interrupt; the buffer keeps
 * the newest trace), with a trigger that stops the capture, interrupts, or is only recorded.
 */
#include "app_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct trace_ctx {
    const sw_env *env;
    const sw_trace_config *cfg;
    sw_trace_result *res;
    sw_trbe trbe;
    sw_ete ete;
    bool ete_on; /* the trace unit is enabled */
    uint64_t base, limit;
    uint64_t start; /* Fill mode: where the part being collected starts */
    bool active;    /* the capture goes on (not stopped by a trigger or a fatal event) */
} trace_ctx;

/* Collected trace: to the callback, the copy and the capture area's open part. */
static void deliver(trace_ctx *c, uint64_t va, uint64_t len)
{
    if (!len)
        return;
    c->res->bytes += len;
    if (c->cfg->data)
        c->cfg->data(c->cfg->data_arg, va, (size_t)len);
    if (c->cfg->out && c->res->out_len < c->cfg->out_size) {
        size_t room = c->cfg->out_size - c->res->out_len;
        size_t n = len < room ? (size_t)len : room;
        if (hal_mem_read(c->env->h, va, c->cfg->out + c->res->out_len, n) == HAL_OK)
            c->res->out_len += n;
    }
    if (c->cfg->capture) {
        uint64_t n = len;
        uint8_t *to = sw_capture_reserve(c->cfg->capture, &n);
        if (n && hal_mem_read(c->env->h, va, to, (size_t)n) != HAL_OK)
            n = 0;
        sw_capture_commit(c->cfg->capture, n, len - n);
    }
}

/* The end of a part: what was delivered since the last one is trace without a break. */
static void end_part(trace_ctx *c)
{
    if (c->cfg->capture)
        sw_capture_close(c->cfg->capture);
    c->res->parts++;
}

/* Fill mode: the part from start to ptr (the limit when the buffer filled). */
static void deliver_part(trace_ctx *c, uint64_t end)
{
    if (end > c->start && end <= c->limit) {
        deliver(c, c->start, end - c->start);
        end_part(c);
    }
    c->start = end;
}

static sw_trbe_buf buffer(const trace_ctx *c, uint64_t write)
{
    sw_trbe_buf b = sw_trbe_linux_buf(c->base, write, c->limit);
    b.fill_mode = c->cfg->fill_mode;
    switch (c->cfg->trigger) {
    case SW_TRACE_STOP_ON_TRIGGER: b.trig_mode = PMT_TRBLIMITR_TM_STOP; break;
    case SW_TRACE_IRQ_ON_TRIGGER: b.trig_mode = PMT_TRBLIMITR_TM_IRQ; break;
    default: b.trig_mode = PMT_TRBLIMITR_TM_IGNORE; break;
    }
    b.trigger_count = c->cfg->trigger == SW_TRACE_NO_TRIGGER ? 0 : c->cfg->trigger_count;
    return b;
}

/* trbe_stop_and_truncate_event: keep what was collected, end the capture. */
static void stop_capture(trace_ctx *c, const sw_trbe_irq_info *info)
{
    if (c->cfg->fill_mode == PMT_TRBLIMITR_FM_FILL)
        deliver_part(c, info->trbptr);
    c->active = false;
}

/* One management event (from the interrupt, or pending at the end when `restart` is false). */
static void handle_event(trace_ctx *c, const sw_trbe_irq_info *info, bool restart)
{
    sw_trace_result *res = c->res;
    res->trbsr = info->trbsr;
    res->last_act = info->act;
    res->last_cause = info->cause;
    if (PMT_GET(TRBSR, WRAP, info->trbsr) && c->cfg->fill_mode != PMT_TRBLIMITR_FM_FILL)
        res->wrapped = true;
    if (PMT_GET(TRBSR, TRG, info->trbsr))
        res->triggered = true;
    bool fill = c->cfg->fill_mode == PMT_TRBLIMITR_FM_FILL;
    bool resume = false;
    switch (info->cause) {
    case SW_TRBE_CAUSE_BUFFER_FULL: /* trbe_handle_overflow: collect, restart at the base */
        res->wraps++;
        if (fill)
            deliver_part(c, c->trbe.session_limit); /* the limit the unit had (errata) */
        c->start = c->base;
        if (restart) {
            sw_trbe_buf b = buffer(c, c->base);
            resume = sw_trbe_enable(&c->trbe, &b) == SW_OK;
            c->start = c->trbe.session_start; /* after what an affected unit may overwrite */
        }
        break;
    case SW_TRBE_CAUSE_WRAP: /* Wrap mode: note it, clear WRAP, carry on where it is */
        res->wraps++;
        if (restart) {
            sw_trbe_clear_status(&c->trbe);
            sw_trbe_reenable(&c->trbe);
            resume = true;
        }
        break;
    case SW_TRBE_CAUSE_TRIGGER:
        res->triggered = true;
        res->trigger_ptr = info->trbptr;
        if (PMT_GET(TRBSR, S, info->trbsr)) { /* Stop on trigger: the capture is complete */
            if (fill)
                deliver_part(c, info->trbptr);
            c->active = false;
        } else if (restart) { /* IRQ on trigger: clear TRG and carry on */
            if (PMT_GET(TRBSR, WRAP, info->trbsr) && !fill)
                res->wraps++;
            sw_trbe_clear_status(&c->trbe);
            sw_trbe_reenable(&c->trbe);
            resume = true;
        }
        break;
    case SW_TRBE_CAUSE_OTHER:
        if (PMT_GET(TRBSR, S, info->trbsr)) { /* stopped for no reason we know: fatal */
            stop_capture(c, info);
            break;
        }
        res->spurious++; /* trbe_handle_spurious */
        if (restart) {
            sw_trbe_reenable(&c->trbe);
            resume = true;
        }
        break;
    default: stop_capture(c, info); break;
    }
    /* Restore the trace filter unless the session was truncated (Linux: irq_work_run). */
    if (resume)
        sw_trbe_write_trfcr(&c->trbe, info->trfcr);
}

static int trace_irq(unsigned intid, void *arg)
{
    trace_ctx *c = arg;
    sw_trbe_irq_info info;
    (void)intid;
    if (sw_trbe_irq(&c->trbe, &info) == SW_IRQ_NONE)
        return SW_IRQ_NONE;
    c->res->irqs++;
    handle_event(c, &info, c->active);
    return SW_IRQ_HANDLED;
}

/* Wrap and Circular Buffer modes: the buffer holds [ptr, limit) then [base, ptr) once it has
 * wrapped, else [base, ptr); the limit the unit had (a page lower with the write out of range
 * workaround). */
static void deliver_ring(trace_ctx *c, uint64_t ptr)
{
    const uint64_t limit = c->trbe.session_limit;
    if (ptr < c->base || ptr >= limit)
        return;
    if (c->res->wrapped)
        deliver(c, ptr, limit - ptr);
    deliver(c, c->base, ptr - c->base);
    if (c->res->wrapped || ptr > c->base)
        end_part(c);
}

/* The trace unit for the session (etm_event_start, after the sink): its filter as TRFCR's. */
static int trace_unit_enable(trace_ctx *c)
{
    const sw_trace_config *cfg = c->cfg;
    if (!cfg->trace_unit)
        return SW_OK;
    int ret = sw_ete_probe(&c->ete, c->env->h);
    const sw_ete_config ec = {.trace_id = cfg->trace_id,
                              .exclude_user = cfg->exclude_user,
                              .exclude_kernel = cfg->exclude_kernel,
                              .timestamp = cfg->timestamps};
    if (!ret)
        ret = sw_ete_enable(&c->ete, &ec);
    c->ete_on = ret == SW_OK;
    return ret;
}

/* etm_event_stop: the trace unit stops and its trace is in the buffer before it is collected. */
static int trace_unit_disable(trace_ctx *c)
{
    if (!c->ete_on)
        return SW_OK;
    c->ete_on = false;
    return sw_ete_disable(&c->ete);
}

int sw_trace_run(const sw_env *env, const sw_trace_config *cfg, const sw_workload *w,
                 sw_trace_result *res)
{
    sw_gic gic_local, *gic = NULL;
    trace_ctx c;
    if (!res)
        return SW_EINVAL;
    memset(res, 0, sizeof *res);
    if (!env || !env->h || !cfg || !w || !w->next || cfg->size == 0 ||
        cfg->base + cfg->size < cfg->base ||
        (cfg->fill_mode != PMT_TRBLIMITR_FM_FILL && cfg->fill_mode != PMT_TRBLIMITR_FM_WRAP &&
         cfg->fill_mode != PMT_TRBLIMITR_FM_CIRCULAR))
        return res->status = SW_EINVAL;
    memset(&c, 0, sizeof c);
    c.env = env;
    c.cfg = cfg;
    c.res = res;
    c.base = cfg->base;
    c.limit = cfg->base + cfg->size;
    c.start = c.base;
    c.active = true;

    int ret = sw_app_gic(env, &gic_local, &gic);
    if (!ret)
        ret = sw_trbe_probe(&c.trbe, env->h);
    if (!ret)
        ret = sw_gic_request_ppi(gic, env->trbe_intid, trace_irq, &c);
    if (ret)
        return res->status = ret;
    sw_trbe_buf b = buffer(&c, c.base);
    ret = sw_trbe_enable(&c.trbe, &b);
    c.start = c.trbe.session_start;
    if (!ret)
        ret = trace_unit_enable(&c);
    if (!ret) {
        /* The trace unit's driver allows trace where the session wants it. */
        const sw_ete_config filter = {.exclude_user = cfg->exclude_user,
                                      .exclude_kernel = cfg->exclude_kernel};
        sw_trbe_write_trfcr(&c.trbe, sw_ete_trfcr_el1(&filter));
        ret = sw_app_run_workload(env->h, w, NULL);
    }
    /* The end of the session: the trace unit stops, then the buffer is collected. */
    sw_trbe_write_trfcr(&c.trbe, 0);
    int r1 = trace_unit_disable(&c);
    if (!ret)
        ret = r1;
    sw_trbe_irq_info info;
    int r2 = sw_trbe_update_buffer(&c.trbe, &info);
    if (!ret)
        ret = r2;
    if (info.irq && c.active)
        handle_event(&c, &info, false);
    if (PMT_GET(TRBSR, TRG, info.trbsr))
        res->triggered = true;
    if (PMT_GET(TRBSR, WRAP, info.trbsr) && cfg->fill_mode != PMT_TRBLIMITR_FM_FILL)
        res->wrapped = true;
    if (!info.irq)
        res->trbsr = info.trbsr;
    res->trbptr = info.trbptr;
    if (cfg->fill_mode == PMT_TRBLIMITR_FM_FILL) {
        if (c.active)
            deliver_part(&c, info.trbptr);
    } else {
        if (cfg->fill_mode == PMT_TRBLIMITR_FM_CIRCULAR && res->wrapped)
            res->wraps = 1;
        deliver_ring(&c, info.trbptr);
    }
    res->stopped = !c.active;
    sw_gic_free_ppi(gic, env->trbe_intid);
    if (!ret)
        ret = sw_trbe_status(&c.trbe);
    return res->status = ret;
}

static const char *mode_name(unsigned fm)
{
    switch (fm) {
    case PMT_TRBLIMITR_FM_FILL: return "Fill";
    case PMT_TRBLIMITR_FM_WRAP: return "Wrap";
    case PMT_TRBLIMITR_FM_CIRCULAR: return "Circular Buffer";
    default: return "?";
    }
}

size_t sw_trace_format(const sw_trace_config *cfg, const sw_trace_result *res, char *buf,
                       size_t size)
{
    static const char *const triggers[] = {"none", "stop on trigger", "IRQ on trigger",
                                           "trigger ignored"};
    size_t len = 0;
    char n[40];
    if (buf && size)
        buf[0] = '\0';
    sw_app_grouped(res->bytes, n, sizeof n);
    sw_app_add(
        buf, size, &len, "trace: %s mode, trigger: %s, buffer 0x%" PRIx64 "..0x%" PRIx64 "\n",
        mode_name(cfg->fill_mode), triggers[cfg->trigger & 3], cfg->base, cfg->base + cfg->size);
    sw_app_add(buf, size, &len,
               "%20s      trace bytes captured\n%20" PRIu64 "      TRBIRQ interrupts\n"
               "%20" PRIu64 "      wraps\n",
               n, res->irqs, res->wraps);
    if (res->triggered)
        sw_app_add(buf, size, &len, "%20s      trigger at TRBPTR 0x%" PRIx64 "\n", "yes",
                   res->trigger_ptr);
    if (res->last_cause == SW_TRBE_CAUSE_NONE)
        sw_app_add(buf, size, &len,
                   "  last event: none, TRBSR_EL1 0x%" PRIx64 ", TRBPTR_EL1 0x%" PRIx64 "%s\n",
                   res->trbsr, res->trbptr, res->stopped ? ", capture stopped" : "");
    else
        sw_app_add(buf, size, &len,
                   "  last event: %s (%s), TRBSR_EL1 0x%" PRIx64 ", TRBPTR_EL1 0x%" PRIx64 "%s\n",
                   sw_trbe_cause_name(res->last_cause), sw_trbe_act_name(res->last_act), res->trbsr,
                   res->trbptr, res->stopped ? ", capture stopped" : "");
    if (res->status)
        sw_app_add(buf, size, &len, " failed: %s\n", sw_strerror(res->status));
    return len;
}
