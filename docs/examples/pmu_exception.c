/*
 * pmu_exception.c - an instruction-set simulator's loop taking PMU Profiling exceptions
 * (FEAT_EBEP, FEAT_SEBEP) from the pmtrace model: docs/pmu.md, "PMU Profiling exceptions".
 * Counter 0 counts INST_RETIRED in synchronous mode (an exception at the instruction after the
 * one that overflows it); counter 1 counts CPU_CYCLES (asynchronous: the exception is taken at
 * the next instruction boundary after the output rises).
 */
#include <pmtrace/pmtrace.h>
#include <stdio.h>

static bool async_pending; /* the pmu_exception output */

static void on_pmu_exception(void *user, bool pending, unsigned target_el)
{
    (void)user;
    (void)target_el;
    async_pending = pending;
}

static pmt_pe_state at(unsigned el, bool pm)
{
    pmt_pe_state s = {0};
    s.el = (uint8_t)el;
    s.el2_enabled = true; /* EL2Enabled(): SCR_EL3.NS = 1 ... */
    s.scr_ns = true;      /* ... which the model checks at EL3 */
    s.pm = pm;
    return s;
}

static void msr(pmt_pe *pe, pmt_reg_id id, unsigned n, uint64_t v)
{
    pmt_pe_sysreg_write(pe, pmt_sysreg_encode((pmt_reg_ref){id, n}), v);
}

static uint64_t mrs(pmt_pe *pe, pmt_reg_id id)
{
    uint64_t v = 0;
    pmt_pe_sysreg_read(pe, pmt_sysreg_encode((pmt_reg_ref){id, 0}), &v);
    return v;
}

int main(void)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_ebep = cfg.feat_sebep = true;
    pmt_pe_callbacks cb = {0};
    cb.pmu_exception = on_pmu_exception;
    pmt_pe *pe = pmt_pe_create(&cfg, &cb);

    /* Firmware at EL3 and a hypervisor at EL2 hand the exception to EL1 (PMEE = 0b01). */
    pmt_pe_state el3 = at(3, false);
    el3.ss = PMT_SS_SECURE;
    pmt_pe_set_state(pe, &el3);
    msr(pe, PMT_REG_MDCR_EL3, 0, PMT_PUT(MDCR_EL3, PMEE, 1) | PMT_MASK(MDCR_EL3, EnPM2));
    msr(pe, PMT_REG_MDCR_EL2, 0, PMT_PUT(MDCR_EL2, PMEE, 1) | PMT_PUT(MDCR_EL2, HPMN, 6));
    /* The kernel at EL1 enables it (PMECR_EL1) and programs the counters. */
    pmt_pe_state el1 = at(1, false), el0 = at(0, false);
    pmt_pe_set_state(pe, &el1);
    msr(pe, PMT_REG_PMECR_EL1, 0, PMT_PUT(PMECR, PMEE, 3) | PMT_MASK(PMECR, KPME));
    msr(pe, PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED | PMT_MASK(PMEVTYPER, SYNC));
    msr(pe, PMT_REG_PMEVCNTR_EL0, 0, (uint64_t)0 - 100); /* 100 instructions to go */
    msr(pe, PMT_REG_PMEVTYPER_EL0, 1, PMT_EV_CPU_CYCLES);
    msr(pe, PMT_REG_PMEVCNTR_EL0, 1, (uint64_t)0 - 400); /* 400 cycles to go */
    msr(pe, PMT_REG_PMINTENSET_EL1, 0, 3);
    msr(pe, PMT_REG_PMCNTENSET_EL0, 0, 3);
    msr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E));
    pmt_pe_set_state(pe, &el0);

    uint64_t pc = 0x400000;
    for (int taken = 0; taken < 2;) {
        /* Before each instruction: a synchronous exception (RHLYTW) or an asynchronous one. */
        bool sync = pmt_pmu_sync_exception_due(pe);
        if (sync || async_pending) {
            bool spsr_ppend;
            pmt_pe_state handler = at(1, true); /* exception entry sets PSTATE.PM */
            pmt_pmu_exception_entry(pe, &handler, &spsr_ppend);
            uint64_t ovs = mrs(pe, PMT_REG_PMOVSCLR_EL0);
            if (sync)
                printf("synchronous PMU exception before 0x%llx: PMIAR_EL1=0x%llx\n",
                       (unsigned long long)pc, (unsigned long long)mrs(pe, PMT_REG_PMIAR_EL1));
            else
                printf("asynchronous PMU exception before 0x%llx: PMOVSCLR_EL0=0x%llx\n",
                       (unsigned long long)pc, (unsigned long long)ovs);
            /* The handler clears and re-arms what overflowed, and returns with SPSR_EL1.PPEND
             * = 0. */
            msr(pe, PMT_REG_PMOVSCLR_EL0, 0, ovs);
            if (ovs & 1)
                msr(pe, PMT_REG_PMEVCNTR_EL0, 0, (uint64_t)0 - 100);
            if (ovs & 2)
                msr(pe, PMT_REG_PMEVCNTR_EL0, 1, (uint64_t)0 - 400);
            pmt_pmu_exception_return(pe, false, &el0, 0xFFFF000000000800, NULL);
            taken++;
            continue;
        }
        /* Execute one instruction: 3 cycles, 1 instruction retired. */
        pmt_pmu_cycles(pe, 3);
        pmt_pmu_count(pe, PMT_EV_INST_RETIRED, 1);
        pmt_pmu_retire(pe, pc, false, NULL);
        pc += 4;
    }
    pmt_pe_destroy(pe);
    return 0;
}
