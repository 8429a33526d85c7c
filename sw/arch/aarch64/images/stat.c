/*
 * stat.c - `perf stat` on AArch64 bare metal: the stat app counts CPU_CYCLES, INST_RETIRED and
 * BR_RETIRED over loops that run at EL0 or EL1, with the Exception level filters of `:u` and
 * `:k`, and prints each session's table on the UART. What the counts must be follows from the
 * loops (hal_a64_run.c): a piece of n instructions at EL0 is n instructions there, of which
 * (n - 1) / 2 (n odd) or (n - 2) / 2 (n even, n >= 4) are B.NE.
 */
#include "image.h"

#include "hal_a64.h"

static sw_loop loop;
static char text[2048];

static int session(const char *title, uint64_t iterations, uint64_t instructions, uint8_t el,
                   bool exclude_user, bool exclude_kernel)
{
    sw_stat_config cfg = {.events = {PMT_EV_CPU_CYCLES, PMT_EV_INST_RETIRED, PMT_EV_BR_RETIRED},
                          .num_events = 3,
                          .exclude_user = exclude_user,
                          .exclude_kernel = exclude_kernel};
    sw_env env = sw_env_virt(hal_a64());
    sw_workload w = image_loop(&loop, iterations, instructions, el);
    sw_stat_result res;
    int ret = sw_stat_run(&env, &cfg, &w, &res);
    image_printf("\nstat %s: %lu x %lu instructions at EL%u, counting%s%s\n", title, iterations,
                 instructions, el, exclude_user ? "" : " EL0", exclude_kernel ? "" : " EL1");
    sw_stat_format(&res, text, sizeof text);
    image_print(text);
    return ret;
}

int main(void)
{
    image_banner("stat");
    int failed = 0;
    failed += session("user", 100, 1001, 0, false, true) != 0;
    failed += session("kernel", 100, 1000, 0, true, false) != 0;
    failed += session("kernel-long", 100, 3000, 0, true, false) != 0;
    failed += session("el1-work", 100, 1001, 1, false, true) != 0;
    image_printf("stat: %d sessions failed\n", failed);
    return failed;
}
