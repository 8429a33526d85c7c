/*
 * trace.c - a trace session on AArch64 bare metal: the trace app brings up the TRBE driver
 * (probe, the Fill-mode enable sequence, TRFCR_EL1, drain with TSB CSYNC, disable) around the
 * EL0 loop, with the PE's trace unit (the ETE driver's perf session) when it has one, and prints
 * what it captured. Without a trace unit nothing reaches the Trace Buffer Unit: the buffer stays
 * empty and TRBPTR_EL1 at its base.
 */
#include "image.h"

#include "hal_a64.h"

#define TRACE_BUFFER 0x40400000u /* 64 KiB of RAM, 4 KiB aligned, above the image */

static sw_loop loop;
static char text[2048];

int main(void)
{
    image_banner("trace");
    sw_trace_config cfg = {.base = TRACE_BUFFER,
                           .size = 0x10000,
                           .fill_mode = PMT_TRBLIMITR_FM_FILL,
                           .trigger = SW_TRACE_NO_TRIGGER};
    sw_env env = sw_env_virt(hal_a64());
    sw_ete ete;
    cfg.trace_unit = sw_ete_probe(&ete, env.h) == SW_OK;
    cfg.trace_id = 0x10;
    sw_workload w = image_loop(&loop, 100, 1001, 0);
    sw_trace_result res;
    int ret = sw_trace_run(&env, &cfg, &w, &res);
    sw_trace_format(&cfg, &res, text, sizeof text);
    image_print(text);
    image_printf("trace: %s\n", ret ? "failed" : "ok");
    return ret;
}
