/*
 * image.h - what the bare-metal mains of the sw/ apps share: the console, the banner, and the
 * loop workload they run (sw_loop: `iterations` pieces of `instructions` at `el`, which hal_a64
 * executes as a loop of exactly that many instructions).
 */
#ifndef PMTRACE_SW_A64_IMAGE_H
#define PMTRACE_SW_A64_IMAGE_H

#include "apps/apps.h"

#include <stdint.h>

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void image_printf(const char *fmt, ...);
/* Long text (a formatter's table) on the console. */
void image_print(const char *text);

/* "pmtrace sw/<app> on AArch64: entered at EL<n>, running at EL1" */
void image_banner(const char *app);

/* A loop workload: one piece per iteration. */
sw_workload image_loop(sw_loop *loop, uint64_t iterations, uint64_t instructions, uint8_t el);

#endif
