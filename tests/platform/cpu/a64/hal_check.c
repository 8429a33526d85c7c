/*
 * hal_check.c - the AArch64 HAL where an access cannot complete, and its run loop, checked by
 * tests/platform/cpu/test_a64_sw.cpp: each line on the UART is one access and what the HAL
 * returned. Built with sw/arch/aarch64's runtime (pmtrace_a64_image).
 */
#include "hal_a64.h"
#include "images/image.h"

static uint64_t el0_value;

/* At EL0: an MRS of PMCCNTR_EL0 through the HAL. */
static uint64_t el0_read_pmccntr(uint64_t arg)
{
    (void)arg;
    el0_value = 0xDEAD;
    return hal_sysreg_read(hal_a64(), HAL_PMCCNTR_EL0, &el0_value);
}

static void show(const char *what, hal_status s, uint64_t value)
{
    image_printf("%s: %s 0x%lx\n", what, hal_status_name(s), value);
}

static void reads(void)
{
    const hal *h = hal_a64();
    uint64_t v = 0xDEAD;
    show("CurrentEL read", hal_sysreg_read(h, HAL_CURRENTEL, &v), v);
    v = 0xDEAD;
    show("PMICNTR_EL0 read", hal_sysreg_read(h, HAL_PMICNTR_EL0, &v), v);
    v = 0xDEAD;
    show("MDCR_EL2 read", hal_sysreg_read(h, HAL_MDCR_EL2, &v), v);
    show("PMCEID0_EL0 write", hal_sysreg_write(h, HAL_PMCEID0_EL0, 1), 0);
    v = 0xDEAD;
    show("MIDR_EL1 read", hal_sysreg_read(h, HAL_SYSREG(3, 0, 0, 0, 0), &v), v);
    v = 0;
    hal_status s = hal_sysreg_read(h, HAL_PMCR_EL0, &v);
    show("PMCR_EL0.N", s, PMT_GET(PMCR, N, v));
}

static void el0(void)
{
    const hal *h = hal_a64();
    (void)hal_sysreg_write(h, HAL_PMUSERENR_EL0, 0);
    hal_status s = (hal_status)hal_a64_call_el0(el0_read_pmccntr, 0);
    show("PMCCNTR_EL0 read at EL0, PMUSERENR_EL0.EN 0", s, el0_value);
    (void)hal_sysreg_write(h, HAL_PMUSERENR_EL0, PMT_MASK(PMUSERENR, EN));
    s = (hal_status)hal_a64_call_el0(el0_read_pmccntr, 0);
    show("PMCCNTR_EL0 read at EL0, PMUSERENR_EL0.EN 1", s, 0);
    (void)hal_sysreg_write(h, HAL_PMUSERENR_EL0, 0);
}

static void devices(void)
{
    const hal *h = hal_a64();
    uint64_t v = 0xDEAD;
    show("MMIO read of a hole", h->ops->mmio_read(h->ctx, 0x0A000000, 4, &v), v);
    v = 0xDEAD;
    show("MMIO read of 3 bytes", h->ops->mmio_read(h->ctx, 0x09000018, 3, &v), v);
    v = 0xDEAD;
    show("MMIO read unaligned", h->ops->mmio_read(h->ctx, 0x09000002, 4, &v), v);
    v = 0;
    show("MMIO read of UARTFR", h->ops->mmio_read(h->ctx, 0x09000018, 4, &v), v & 0x90);
}

/* The run loop's instruction count at EL0, counted by PMEVCNTR0_EL0 with PMEVTYPER0_EL0.P = 1
 * (EL1 not counted, D17.3.1) so only what executes at EL0 is seen. */
static void runs(void)
{
    static const uint64_t counts[] = {1, 2, 3, 4, 5, 6, 1001, 1000000};
    const hal *h = hal_a64();
    (void)hal_sysreg_write(h, HAL_PMCR_EL0, PMT_MASK(PMCR, P) | PMT_MASK(PMCR, LP));
    (void)hal_sysreg_write(h, hal_pmevtyper(0), PMT_MASK(PMEVTYPER, P) | PMT_EV_INST_RETIRED);
    (void)hal_sysreg_write(h, HAL_PMCNTENSET_EL0, 1);
    (void)hal_sysreg_write(h, HAL_PMCR_EL0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP));
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        hal_work w = {.el = 0, .instructions = counts[i], .trigger_at = HAL_NO_TRIGGER};
        uint64_t v = 0;
        (void)hal_sysreg_write(h, hal_pmevcntr(0), 0);
        hal_status s = hal_run(h, &w);
        (void)hal_sysreg_read(h, hal_pmevcntr(0), &v);
        image_printf("run of %lu instructions at EL0: %s, INST_RETIRED at EL0 %lu\n", counts[i],
                     hal_status_name(s), v);
    }
    (void)hal_sysreg_write(h, HAL_PMCR_EL0, 0);
    hal_work above = {.el = 2, .instructions = 10, .trigger_at = HAL_NO_TRIGGER};
    show("run at EL2", hal_run(h, &above), 0);
}

int main(void)
{
    image_banner("hal_check");
    reads();
    el0();
    devices();
    runs();
    image_printf("hal_check: done\n");
    return 0;
}
