/*
 * record.c - `perf record -c PERIOD -e INST_RETIRED:u` on AArch64 bare metal: the record app
 * samples the EL0 loop on overflow interrupts (PMUIRQ, GIC INTID 23) and prints the samples on
 * the UART. 100 pieces of 1001 instructions at EL0 and a period of 10000: 10 samples, the i-th at
 * exactly i x 10000 instructions (EL1, where the handler runs, is not counted).
 */
#include "image.h"

#include "hal_a64.h"

static sw_loop loop;
static sw_record_sample samples[16];
static char text[2048];

int main(void)
{
    image_banner("record");
    sw_record_config cfg = {.event = PMT_EV_INST_RETIRED,
                            .period = 10000,
                            .exclude_kernel = true,
                            .samples = samples,
                            .max_samples = sizeof samples / sizeof samples[0]};
    sw_env env = sw_env_virt(hal_a64());
    sw_workload w = image_loop(&loop, 100, 1001, 0);
    sw_record_result res;
    int ret = sw_record_run(&env, &cfg, &w, &res);
    sw_record_format(&cfg, &res, text, sizeof text);
    image_print(text);
    for (uint64_t i = 8; i < res.stored; i++) /* the formatter shows the first 8 */
        image_printf("  sample %lu: count %lu period %lu\n", i, samples[i].count,
                     samples[i].period);
    image_printf("record: %s\n", ret ? "failed" : "ok");
    return ret;
}
