/* record.c - sample a workload on overflow interrupts (apps.h), as `perf record -c PERIOD`. */
#include "app_common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct record_ctx {
    const sw_record_config *cfg;
    sw_record_result *res;
} record_ctx;

/* perf_event_overflow for the sampled event: one sample. */
static void on_sample(void *arg, sw_pmu_event *ev)
{
    record_ctx *r = arg;
    r->res->samples++;
    if (r->cfg->samples && r->res->stored < r->cfg->max_samples) {
        sw_record_sample *s = &r->cfg->samples[r->res->stored++];
        s->count = ev->count;
        s->period = ev->last_period;
    }
}

int sw_record_run(const sw_env *env, const sw_record_config *cfg, const sw_workload *w,
                  sw_record_result *res)
{
    sw_gic gic_local, *gic = NULL;
    sw_pmu pmu;
    sw_pmu_event ev;
    record_ctx ctx;
    if (!res)
        return SW_EINVAL;
    memset(res, 0, sizeof *res);
    res->idx = -1;
    memset(&ev, 0, sizeof ev);
    ev.idx = -1;
    if (!env || !env->h || !cfg || !w || !w->next || cfg->period == 0)
        return res->status = SW_EINVAL;
    ctx.cfg = cfg;
    ctx.res = res;
    int ret = sw_app_gic(env, &gic_local, &gic);
    if (!ret)
        ret = sw_pmu_probe(&pmu, env->h);
    if (!ret)
        ret = sw_pmu_reset(&pmu);
    if (!ret)
        ret = sw_gic_request_ppi(gic, env->pmu_intid, sw_pmu_handle_irq, &pmu);
    if (ret)
        return res->status = ret;
    sw_pmu_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.event = cfg->event;
    attr.long_counter = cfg->long_counter;
    attr.sample_period = cfg->period;
    attr.exclude_user = cfg->exclude_user;
    attr.exclude_kernel = cfg->exclude_kernel;
    attr.overflow = on_sample;
    attr.overflow_arg = &ctx;
    ret = sw_pmu_event_init(&pmu, &ev, &attr);
    if (!ret)
        ret = sw_pmu_add(&pmu, &ev, true);
    if (!ret) {
        res->idx = ev.idx;
        res->chained = sw_pmu_event_is_chained(&pmu, &ev);
        ret = sw_pmu_start(&pmu);
    }
    if (!ret)
        ret = sw_app_run_workload(env->h, w, NULL);
    (void)sw_pmu_stop(&pmu);
    if (ev.idx >= 0) {
        res->count = sw_pmu_read(&pmu, &ev);
        sw_pmu_del(&pmu, &ev);
    }
    sw_gic_free_ppi(gic, env->pmu_intid);
    res->pmu_irqs = pmu.irqs_handled;
    if (!ret)
        ret = sw_pmu_status(&pmu);
    return res->status = ret;
}

size_t sw_record_format(const sw_record_config *cfg, const sw_record_result *res, char *buf,
                        size_t size)
{
    size_t len = 0;
    char a[40], b[40];
    if (buf && size)
        buf[0] = '\0';
    const char *name = sw_event_name(cfg->event);
    sw_app_grouped(res->samples, a, sizeof a);
    sw_app_grouped(res->count, b, sizeof b);
    sw_app_add(buf, size, &len,
               "[ perf record: %s samples of event '%s' (r%04x), period %" PRIu64
               ", %s events, %" PRIu64 " PMU interrupts ]\n",
               a, name ? name : "raw", cfg->event, cfg->period, b, res->pmu_irqs);
    for (uint64_t i = 0; i < res->stored && i < 8; i++)
        sw_app_add(buf, size, &len, "  sample %" PRIu64 ": count %" PRIu64 " period %" PRIu64 "\n",
                   i, cfg->samples[i].count, cfg->samples[i].period);
    if (res->status)
        sw_app_add(buf, size, &len, " failed: %s\n", sw_strerror(res->status));
    return len;
}
