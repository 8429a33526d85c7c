/* pc_sampling.c - a debugger samples the PC of a running PE through the PMU frame and through
 * the debug frame (docs/pmu.md, "PC sample-based profiling"). */
#include <pmtrace/pmtrace.h>
#include <stdio.h>

/* The CPU model's view of its current instruction, for the sample source. */
struct cpu {
    uint64_t pc;
    uint32_t pid; /* CONTEXTIDR_EL1: Linux writes the PID there */
};

static bool current_instruction(void *user, pmt_pc_sample *s)
{
    const struct cpu *cpu = user;
    s->pc = cpu->pc;
    s->el = 1;
    s->ss = PMT_SS_NONSECURE;
    s->contextidr_el1 = cpu->pid;
    s->el2_enabled = true;
    s->vttbr_vmid = 5;
    return true;
}

int main(void)
{
    pmt_pe_state el1 = {.el = 1, .ss = PMT_SS_NONSECURE, .el2_enabled = true};

    /* 1. FEAT_PCSRv8p2, EXT64: the CPU reports each instruction it executes (here one). */
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    cfg.ext_layout = PMT_EXT64;
    pmt_pe *pe = pmt_pe_create(&cfg, NULL);
    pmt_pe_set_state(pe, &el1);
    pmt_pc_sample s = {.pc = 0xFFFF800010081234,
                       .el = 1,
                       .ss = PMT_SS_NONSECURE,
                       .contextidr_el1 = 42,
                       .el2_enabled = true,
                       .vttbr_vmid = 5};
    pmt_pe_pc_sample(pe, &s);

    /* The debugger reads PMPCSR (64 bits: this read takes the sample), then the context that
     * the read captured: PMVCIDSR = VMID:CONTEXTIDR_EL1. */
    uint64_t pmpcsr, pmvcidsr;
    pmt_pmu_ext_read(pe, 0x200, 8, PMT_SS_NONSECURE, true, &pmpcsr);
    pmt_pmu_ext_read(pe, 0x208, 8, PMT_SS_NONSECURE, true, &pmvcidsr);
    uint64_t va = PMT_GET(PMPCSR, PCSample, pmpcsr); /* bits [55:0]: sign-extend bit 55 */
    if (va >> 55)
        va |= ~UINT64_C(0) << 56;
    printf("PMU frame: PMPCSR=0x%llx pc=0x%llx EL%u NS=%u pid=%u vmid=%u\n",
           (unsigned long long)pmpcsr, (unsigned long long)va,
           (unsigned)PMT_GET(PMPCSR, EL, pmpcsr), (unsigned)PMT_GET(PMPCSR, NS, pmpcsr),
           (unsigned)PMT_GET(PMVCIDSR, CONTEXTIDR_EL1, pmvcidsr),
           (unsigned)PMT_GET(PMVCIDSR, VMID, pmvcidsr));
    pmt_pe_destroy(pe);

    /* 2. FEAT_PCSRv8 (samples in the debug frame): the model asks the CPU for its current
     * instruction when the debugger reads EDPCSRlo. */
    struct cpu cpu = {0xFFFF800010081234, 42};
    cfg = pmt_pe_config_default();
    cfg.pcsr = PMT_PCSR_DEBUG_FRAME;
    pe = pmt_pe_create(&cfg, NULL);
    pmt_pe_set_state(pe, &el1);
    pmt_pe_set_pc_sample_source(pe, current_instruction, &cpu);

    uint64_t lo, hi, cidsr, vidsr;
    pmt_debug_ext_read(pe, 0x0A0, 4, PMT_SS_NONSECURE, true, &lo); /* EDPCSRlo: samples */
    pmt_debug_ext_read(pe, 0x0AC, 4, PMT_SS_NONSECURE, true, &hi); /* EDPCSRhi */
    pmt_debug_ext_read(pe, 0x0A4, 4, PMT_SS_NONSECURE, true, &cidsr);
    pmt_debug_ext_read(pe, 0x0A8, 4, PMT_SS_NONSECURE, true, &vidsr);
    printf("debug frame: EDPCSRlo=0x%llx EDPCSRhi=0x%llx EDCIDSR=%llu EDVIDSR=0x%llx\n",
           (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)cidsr,
           (unsigned long long)vidsr);

    /* The PE halts: the samples read 0xFFFFFFFF; the OS Lock refuses the read. */
    pmt_pe_state halted = el1;
    halted.debug = true;
    pmt_pe_set_state(pe, &halted);
    pmt_debug_ext_read(pe, 0x0A0, 4, PMT_SS_NONSECURE, true, &lo);
    halted.os_lock = true;
    pmt_pe_set_state(pe, &halted);
    pmt_ext_status st = pmt_debug_ext_read(pe, 0x0A0, 4, PMT_SS_NONSECURE, true, &hi);
    printf("halted: EDPCSRlo=0x%llx; with the OS Lock: %s\n", (unsigned long long)lo,
           pmt_ext_status_name(st));
    pmt_pe_destroy(pe);
    return 0;
}
