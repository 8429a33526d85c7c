/* app_common.c - helpers the apps share (app_common.h). */
#include "app_common.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

int sw_app_run_workload(const hal *h, const sw_workload *w, uint64_t *pieces)
{
    hal_work piece;
    int ret = SW_OK;
    hal_irq_enable(h);
    while (w->next(w->arg, &piece)) {
        hal_status s = hal_run(h, &piece);
        if (pieces)
            (*pieces)++;
        if (s != HAL_OK) {
            ret = SW_EIO;
            break;
        }
    }
    hal_irq_disable(h);
    return ret;
}

void sw_app_add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool room = buf && *len < size;
    int n = vsnprintf(room ? buf + *len : NULL, room ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}

void sw_app_grouped(uint64_t v, char *out, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t j = 0;
    if (!size)
        return;
    for (int i = 0; i < n && j + 1 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0 && j + 2 < size)
            out[j++] = ',';
        out[j++] = digits[i];
    }
    out[j] = '\0';
}

int sw_app_gic(const sw_env *env, sw_gic *local, sw_gic **gic)
{
    if (env->gic) {
        *gic = env->gic;
        return SW_OK;
    }
    *gic = local;
    return sw_gic_init(local, env->h, env->gicd_base, env->gicr_base);
}
