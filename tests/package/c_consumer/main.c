/* A C user of the installed package: a PE from the core, its PMU driven by sw/'s driver through
 * the HAL that runs it on the core (<pmtrace/sw/...>), a count read back. */
#include <pmtrace/pmtrace.h>
#include <pmtrace/sw/drivers/pmu/pmu.h>
#include <pmtrace/sw/hal/hal_core.h>

#include <stdio.h>

int main(void)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    pmt_pe *pe = pmt_pe_create(&cfg, NULL);
    if (!pe)
        return 1;
    uint64_t pmcr = 0;
    const pmt_reg_ref reg = {PMT_REG_PMCR_EL0, 0};
    const pmt_access a = pmt_pe_sysreg_read(pe, pmt_sysreg_encode(reg), &pmcr);
    printf("PMCR_EL0.N = %u (%s)\n", (unsigned)PMT_GET(PMCR, N, pmcr), pmt_access_name(a));
    printf("sw: %s\n", sw_pmu_version_name(1));
    pmt_pe_destroy(pe);
    return 0;
}
