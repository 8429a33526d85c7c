/*
 * pmt_pcsample.h - PC sample-based profiling: the CPU's PC samples in, the sample registers of
 * the external debug frame (FEAT_PCSRv8: EDPCSRlo/hi, EDCIDSR, EDVIDSR) or of the PMU frame
 * (FEAT_PCSRv8p2: PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR, PMCCIDSR, PMVCIDSR; FEAT_PCSRv8p9:
 * PMPCSCTL) out.
 *
 * The model keeps the architecture's pc_sample (J1.3 CreatePCSample): the latest sample the CPU
 * reported. A CPU model reports one whenever it likes - per instruction, per block, or only when
 * the model asks for one through a sample source (pmt_pe_set_pc_sample_source). A read of
 * EDPCSRlo or PMPCSR[31:0] turns pc_sample into the sample registers (Read_EDPCSRlo,
 * Read_PMPCSR). docs/pmu.md, "PC sample-based profiling", has a worked example.
 */
#ifndef PMTRACE_PMT_PCSAMPLE_H
#define PMTRACE_PMT_PCSAMPLE_H

#include "pmt_pe.h"
#include "pmt_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One executed instruction as CreatePCSample sees it. pc_sample.valid is not reported: the model
 * computes it from its PE state when the sample arrives, as ExternalNoninvasiveDebugAllowed() &&
 * !Halted() (pmt_pe_state.noninvasive_debug_prohibited and pmt_pe_state.debug). All-zero is an
 * AArch64 sample at EL0 in Non-secure state with EL2 disabled.
 */
typedef struct pmt_pc_sample {
    uint64_t pc;             /* ThisInstrAddr(64) */
    uint8_t el;              /* PSTATE.EL, 0..3 */
    pmt_security ss;         /* CurrentSecurityState() */
    bool aarch32;            /* UsingAArch32(): pc_sample.rw is !aarch32 */
    uint32_t contextidr_el1; /* CONTEXTIDR_EL1, or CONTEXTIDR when EL1 is using AArch32 */
    uint32_t contextidr_el2; /* CONTEXTIDR_EL2[31:0] */
    bool el2_enabled;        /* EL2Enabled() */
    bool el2_aarch32;        /* ELUsingAArch32(EL2) */
    uint16_t vttbr_vmid;     /* VTTBR_EL2.VMID (VTTBR.VMID when EL2 is using AArch32) */
    bool vtcr_vs;            /* VTCR_EL2.VS: 16-bit VMID in use (with FEAT_VMID16) */
    bool in_host;            /* IsInHost(): EL2 enabled, using AArch64, HCR_EL2.{E2H,TGE} = {1,1} */
} pmt_pc_sample;

/*
 * CreatePCSample(): the CPU reports the instruction it executed (or a recent one). Ignored (and
 * PMT_OK) while PC sampling is suspended (PMPCSCTL.EN = 0 with FEAT_PCSRv8p9). PMT_ERR_ARG for a
 * sample of an Exception level, Security state or execution state the PE does not implement;
 * PMT_ERR_NOT_IMPLEMENTED when the config has no PC sampling (pcsr = PMT_PCSR_NONE). The cost is a
 * copy: reporting every instruction is fine.
 */
pmt_status pmt_pe_pc_sample(pmt_pe *pe, const pmt_pc_sample *sample);

/*
 * A sample on request: when set, the model calls `source` each time it needs pc_sample - a read
 * of EDPCSRlo or PMPCSR[31:0], a PMU snapshot Capture event - and, when it returns true, takes
 * *sample as if reported by pmt_pe_pc_sample at that moment. Returning false keeps the last
 * reported sample. The source must not call the model. NULL removes it.
 */
typedef bool (*pmt_pc_sample_source)(void *user, pmt_pc_sample *sample);
pmt_status pmt_pe_set_pc_sample_source(pmt_pe *pe, pmt_pc_sample_source source, void *user);

/*
 * An access to the PE's external debug frame (H9.2) at byte offset `offset` (0..0xFFF), `size` 4.
 * The model answers only the registers of PC sample-based profiling when it lives there
 * (pcsr = PMT_PCSR_DEBUG_FRAME): EDPCSRlo 0x0A0, EDCIDSR 0x0A4, EDVIDSR 0x0A8, EDPCSRhi 0x0AC,
 * and, with `debug_software_lock`, EDLAR 0xFB0 and EDLSR 0xFB4. Every other offset is
 * PMT_EXT_NO_REGISTER: the platform's debug unit owns it (EDSCR among them: it reports EDSCR.SC2
 * to the model in pmt_pe_state.edscr_sc2). `from` is the Security state of the access (no
 * register here depends on it). A read of EDPCSRlo has the side effects of Read_EDPCSRlo unless
 * it is memory-mapped (`memory_mapped`) while EDLSR.SLK is 1. PMT_EXT_ERROR when EDPRSR.{DLK,
 * OSLK,PU} is not {0,0,1} (the "slave-generated error"); *value is then 0.
 */
pmt_ext_status pmt_debug_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                  bool memory_mapped, uint64_t *value);
pmt_ext_status pmt_debug_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                   bool memory_mapped, uint64_t value);
/* What an access to the debug frame reaches at `offset`: a register of the frame only
 * ("EDPCSRlo", ...) or nothing (pmt_pmu_ext_name in pmt_pmu.h says more). */
pmt_ext_name pmt_debug_ext_name(const pmt_pe *pe, uint32_t offset);

#ifdef __cplusplus
}
#endif

#endif
