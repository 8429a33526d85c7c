/* stat.c - count a workload's events (apps.h), as `perf stat -e ...` does. */
#include "app_common.h"

#include <stdio.h>
#include <string.h>

int sw_stat_run(const sw_env *env, const sw_stat_config *cfg, const sw_workload *w,
                sw_stat_result *res)
{
    sw_gic gic_local, *gic = NULL;
    sw_pmu pmu;
    sw_pmu_event events[SW_STAT_MAX_EVENTS];
    if (!res)
        return SW_EINVAL;
    memset(res, 0, sizeof *res);
    if (!env || !env->h || !cfg || !w || !w->next || cfg->num_events > SW_STAT_MAX_EVENTS)
        return res->status = SW_EINVAL;
    int ret = sw_app_gic(env, &gic_local, &gic);
    if (ret)
        return res->status = ret;
    ret = sw_pmu_probe(&pmu, env->h);
    if (ret)
        return res->status = ret;
    res->pmuver = pmu.pmuver;
    res->num_counters = pmu.num_counters;
    ret = sw_pmu_reset(&pmu);
    if (!ret)
        ret = sw_gic_request_ppi(gic, env->pmu_intid, sw_pmu_handle_irq, &pmu);
    if (ret)
        return res->status = ret;

    /* perf stat opens the events; the perf core adds them with the PMU disabled. */
    res->num = cfg->num_events;
    for (unsigned i = 0; i < cfg->num_events; i++) {
        sw_stat_counter *c = &res->counters[i];
        sw_pmu_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.event = cfg->events[i];
        attr.long_counter = cfg->long_counters;
        attr.exclude_user = cfg->exclude_user;
        attr.exclude_kernel = cfg->exclude_kernel;
        c->event = cfg->events[i];
        c->supported = sw_pmu_event_supported(&pmu, cfg->events[i]);
        c->idx = -1;
        /* A common event the PE does not deliver (not in PMCEID0/1_EL0) is not opened: perf
         * shows it as <not supported> (armv8pmu_map_event exposes common events by PMCEID). */
        if (sw_pmu_event_is_common(cfg->events[i]) && !c->supported)
            continue;
        if (sw_pmu_event_init(&pmu, &events[i], &attr) != SW_OK)
            continue;
        if (sw_pmu_add(&pmu, &events[i], true) != SW_OK)
            continue;
        c->counted = true;
        c->idx = events[i].idx;
        c->chained = sw_pmu_event_is_chained(&pmu, &events[i]);
    }
    ret = sw_pmu_start(&pmu);
    if (!ret)
        ret = sw_app_run_workload(env->h, w, &res->pieces);
    (void)sw_pmu_stop(&pmu);
    for (unsigned i = 0; i < cfg->num_events; i++)
        if (res->counters[i].counted) {
            res->counters[i].count = sw_pmu_read(&pmu, &events[i]);
            sw_pmu_del(&pmu, &events[i]);
        }
    sw_gic_free_ppi(gic, env->pmu_intid);
    res->pmu_irqs = pmu.irqs_handled;
    if (!ret)
        ret = sw_pmu_status(&pmu);
    return res->status = ret;
}

static void counter_name(const sw_stat_counter *c, char *out, size_t size)
{
    if (c->idx == SW_PMU_CYCLE_IDX)
        snprintf(out, size, "PMCCNTR_EL0");
    else if (c->idx == SW_PMU_INSTR_IDX)
        snprintf(out, size, "PMICNTR_EL0");
    else if (c->chained)
        snprintf(out, size, "PMEVCNTR%d+%d_EL0", c->idx - 1, c->idx);
    else
        snprintf(out, size, "PMEVCNTR%d_EL0", c->idx);
}

size_t sw_stat_format(const sw_stat_result *res, char *buf, size_t size)
{
    size_t len = 0;
    char num[40], reg[32], raw[16];
    if (buf && size)
        buf[0] = '\0';
    sw_app_add(buf, size, &len, "\n Performance counter stats (FEAT_%s, %u counters):\n\n",
               sw_pmu_version_name(res->pmuver), res->num_counters);
    for (unsigned i = 0; i < res->num; i++) {
        const sw_stat_counter *c = &res->counters[i];
        const char *name = sw_event_name(c->event);
        snprintf(raw, sizeof raw, "r%04x", c->event);
        if (!c->counted) {
            const bool unsupported = sw_pmu_event_is_common(c->event) && !c->supported;
            sw_app_add(buf, size, &len, "%20s      %s\n",
                       unsupported ? "<not supported>" : "<not counted>", name ? name : raw);
            continue;
        }
        sw_app_grouped(c->count, num, sizeof num);
        counter_name(c, reg, sizeof reg);
        sw_app_add(buf, size, &len, "%20s      %-24s (%s)\n", num, name ? name : raw, reg);
    }
    sw_app_grouped(res->pmu_irqs, num, sizeof num);
    sw_app_add(buf, size, &len, "%20s      %-24s (PMUIRQ)\n", num, "overflow interrupts");
    if (res->status)
        sw_app_add(buf, size, &len, "\n failed: %s\n", sw_strerror(res->status));
    sw_app_add(buf, size, &len, "\n");
    return len;
}
