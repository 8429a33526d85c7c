// cpu_pe_config.h - what a CPU of the platform must know of its PE: the clock, the counters and
// the features the firmware set-up and the ID registers follow. Both CPUs (cpu.h, a64_cpu.h)
// take it as the base of their configuration; the platform fills it from the PE model's
// configuration in one place (vp.cpp).
#ifndef PMTRACE_PLATFORM_CPU_PE_CONFIG_H
#define PMTRACE_PLATFORM_CPU_PE_CONFIG_H

#include <systemc>

namespace pmtrace::platform
{

struct cpu_pe_config {
    sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);
    unsigned num_counters = 6; // PMCR_EL0.N: the firmware gives them all (MDCR_EL2.HPMN)
    bool have_el2 = true;
    bool have_el3 = true;
    bool pmuv3p9 = false; // MDCR_EL3.EnPM2
    bool trbe = false;    // MDCR_EL3.NSTB, MDCR_EL2.E2TB give the trace buffer to the kernel
    bool trbe_exc = false;
    bool ebep = false;  // FEAT_EBEP: PSTATE.PM, the PMU Profiling exception
    bool sebep = false; // FEAT_SEBEP: PSTATE.PPEND, the synchronous PMU Profiling exception
    bool ete = false;   // FEAT_ETE: the trace unit's System registers and their traps (TTA)
};

} // namespace pmtrace::platform

#endif
