/* The example of sw/README.md "Running on the core HAL": `stat` on the core HAL, from C. */
#include <apps/apps.h>
#include <hal/hal_core.h>

#include <stdio.h>

int main(void)
{
    hal_core_config cfg = hal_core_config_default(); /* PMUv3p7, 6 counters, FEAT_TRBE, EL2, EL3 */
    cfg.pe.pmu_version = PMT_PMUV3P4;                /* any pmt_pe_config field */
    hal_core *hc = hal_core_create(&cfg); /* firmware set-up done; PE at Non-secure EL1 */
    if (!hc)
        return 1;
    sw_env env = sw_env_virt(hal_core_hal(hc)); /* GIC at the virt addresses, PPIs 23 and 22 */

    sw_loop loop; /* a workload: 1000 iterations at EL0 */
    sw_loop_init(&loop);
    loop.iterations = 1000;
    loop.instructions = 1000;
    loop.cycles = 1300;
    sw_workload w = sw_loop_workload(&loop);

    sw_stat_config sc = {.events = {PMT_EV_CPU_CYCLES, PMT_EV_INST_RETIRED}, .num_events = 2};
    sw_stat_result res;
    int ret = sw_stat_run(&env, &sc, &w, &res);
    char text[2048];
    sw_stat_format(&res, text, sizeof text); /* the `perf stat` table */
    fputs(text, stdout);
    hal_core_destroy(hc);
    return ret ? 1 : 0;
}
