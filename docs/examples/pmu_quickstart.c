/* pmu_quickstart.c - create a PMU, count, take an overflow interrupt (docs/pmu.md). */
#include <pmtrace/pmtrace.h>
#include <stdio.h>

static void on_pmuirq(void *user, bool level)
{
    *(bool *)user = level;
}

static void wr(pmt_pe *pe, pmt_reg_id id, unsigned n, uint64_t v)
{
    pmt_reg_ref reg = {id, n};
    pmt_pe_sysreg_write(pe, pmt_sysreg_encode(reg), v);
}

int main(void)
{
    bool irq = false;
    pmt_pe_config cfg = pmt_pe_config_default(); /* 6 counters, PMUv3p7, EL2, EL3 */
    pmt_pe_callbacks cb = {.user = &irq, .pmuirq = on_pmuirq};
    pmt_pe *pe = pmt_pe_create(&cfg, &cb);
    pmt_pe_state el1 = {.el = 1, .ss = PMT_SS_NONSECURE, .el2_enabled = true};
    pmt_pe_set_state(pe, &el1); /* the kernel runs at EL1 */

    wr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED); /* counter 0: instructions */
    wr(pe, PMT_REG_PMEVCNTR_EL0, 0, 0xFFFFFFFF - 999);     /* overflow after 1000 */
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, 1);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, 1);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E)); /* LP = 0: overflow at bit 31 */

    pmt_pmu_count(pe, PMT_EV_INST_RETIRED, 999); /* the CPU model reports events */
    printf("after 999: PMUIRQ=%d\n", irq);
    pmt_pmu_count(pe, PMT_EV_INST_RETIRED, 1);
    printf("after 1000: PMUIRQ=%d\n", irq);

    uint64_t ovs = 0; /* the interrupt handler */
    pmt_pe_sysreg_read(pe, pmt_sysreg_encode((pmt_reg_ref){PMT_REG_PMOVSCLR_EL0, 0}), &ovs);
    wr(pe, PMT_REG_PMOVSCLR_EL0, 0, ovs);
    printf("PMOVSCLR=0x%llx, after clearing: PMUIRQ=%d\n", (unsigned long long)ovs, irq);
    pmt_pe_destroy(pe);
    return irq ? 1 : 0;
}
