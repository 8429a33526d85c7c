/*
 * pmt_pmu.h - the Performance Monitors side of a pmt_pe: counting, headroom, and the inputs the
 * PMU reads from other units.
 */
#ifndef PMTRACE_PMT_PMU_H
#define PMTRACE_PMT_PMU_H

#include "pmt_pe.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * n occurrences of event `event` at the current PE state (PMUEvent(event, n)). The cost does
 * not depend on n: overflow, CHAIN and freezing are exact even when n crosses several
 * overflows (whole periods of repeating overflows are done at once; the pmu_event output then
 * reports them in one call). One exception: while the ETE takes PMU_OVFS or PMU_HOVFS as an
 * External Input, each overflow is an event in the trace and costs one step. CPU_CYCLES also
 * drives PMCCNTR_EL0 and INST_RETIRED PMICNTR_EL0. Events the PMU generates itself (SW_INCR,
 * CHAIN, ...) are refused with PMT_ERR_ARG.
 */
pmt_status pmt_pmu_count(pmt_pe *pe, uint16_t event, uint64_t n);

/* n processor cycles: the same as pmt_pmu_count(pe, CPU_CYCLES, n). */
pmt_status pmt_pmu_cycles(pmt_pe *pe, uint64_t n);

/*
 * How many more occurrences of `event` can be counted before anything visible happens (an
 * overflow, and so an output or a freeze; with FEAT_SEBEP also the next event of a counter
 * whose overflow flag is already set, which sets PSTATE.PPEND by RNZLVW: headroom 1). UINT64_MAX
 * when nothing counts the event or nothing is within reach. A caller may count that many minus one
 * in one call and be sure no output changed.
 */
uint64_t pmt_pmu_headroom(const pmt_pe *pe, uint16_t event);

/* Inputs from the Statistical Profiling Extension for the freeze-on-SPE-event rules. */
pmt_status pmt_pmu_set_spe_state(pmt_pe *pe, bool pmblimitr_e, bool pmblimitr_pmfz, bool pmbsr_s);

/*
 * An access to the external PMU frame (I5.2) at byte offset `offset` (0..0xFFF), `size` 4 or 8
 * bytes (8 only for a 64-bit register in the EXT64 layout). `from` is the Security state of the
 * access (Root is the Most secure access when FEAT_RME exists, else Secure when EL3 exists).
 * `memory_mapped` says the access comes through the memory-mapped interface, where the software
 * lock (PMLAR) applies. Reads have no side effects, except a read of PMPCSR[31:0] (or of all of
 * PMPCSR), which samples the PC as Read_PMPCSR says (pmt_pcsample.h).
 */
pmt_ext_status pmt_pmu_ext_read(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                bool memory_mapped, uint64_t *value);
pmt_ext_status pmt_pmu_ext_write(pmt_pe *pe, uint32_t offset, unsigned size, pmt_security from,
                                 bool memory_mapped, uint64_t value);
/* A tool's view of the frame (a summary, a waveform), not an architectural access: a read as a
 * Most secure external debugger makes it through the debug interface, which the access
 * permission does not refuse (the OS Lock, which is locked after a Cold reset, the OS Double
 * Lock, the Core powered down, MDCR_EL3.EPMAD). Without side effects: the PC sample registers,
 * whose reads sample, answer PMT_EXT_ERROR. */
pmt_ext_status pmt_pmu_ext_peek(pmt_pe *pe, uint32_t offset, unsigned size, uint64_t *value);

/*
 * What the access functions of the external frames reach at byte offset `offset` of the frame
 * (0..0xFFF; the 32-bit word that holds it), for this PE's configuration: for tools and log lines
 * that name what an access reaches. Each is built from the decoding its frame's accesses use, so
 * it names exactly the registers they answer; an offset they answer with PMT_EXT_NO_REGISTER
 * names nothing (a Trace Buffer frame's reserved offset too, which an access may answer as RES0).
 * Whether an access is permitted or of a supported size is not part of the name.
 *   - pmt_pmu_ext_name: the PMU frame of I5.2 in the PE's layout (EXT32 or EXT64), I5.3: e.g.
 *     PMCCNTR_EL0 half 1 at 0x0FC, PMEVTYPER<n>_EL0 half 1 at 0xA00 + 4n in EXT32, "PMDEVARCH"
 *     at 0xFBC;
 *   - pmt_debug_ext_name (pmt_pcsample.h): the PC sample registers of the debug frame (H9.2);
 *   - pmt_trbe_ext_name (pmt_trbe.h): the Trace Buffer frame (H9.4, Table D6-4).
 * A NULL pe names nothing.
 */
pmt_ext_name pmt_pmu_ext_name(const pmt_pe *pe, uint32_t offset);

/* Current output levels (what the callbacks last reported). */
bool pmt_pmu_irq_level(const pmt_pe *pe);
bool pmt_pmu_cti_level(const pmt_pe *pe);

#ifdef __cplusplus
}
#endif

#endif
