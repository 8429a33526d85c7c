/* app_common.h - helpers the apps share (internal to sw/apps). */
#ifndef PMTRACE_SW_APP_COMMON_H
#define PMTRACE_SW_APP_COMMON_H

#include "apps.h"

/* The GIC the app uses: the environment's shared one (env->gic), or `local` brought up now. */
int sw_app_gic(const sw_env *env, sw_gic *local, sw_gic **gic);

/* Runs the workload piece by piece with IRQs unmasked; counts the pieces (pieces may be NULL).
 * SW_EIO when the HAL refuses a piece. */
int sw_app_run_workload(const hal *h, const sw_workload *w, uint64_t *pieces);

/* snprintf at buf + *len, adding the length it wanted to *len (buf may be NULL). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void sw_app_add(char *buf, size_t size, size_t *len, const char *fmt, ...);

#endif
