// A SystemC user of the installed package: one pe_model, PMUIRQ onto a signal of the platform's
// own through the adapter, the cycle counter overflowing after 1000 cycles of 1 ns.
#include <pmtrace/systemc/pe_model.h>
#include <pmtrace/systemc/signal_adapters.h>

#include <iostream>

namespace
{

void msr(pmtrace::pe_model &pe, pmt_reg_id id, uint64_t value)
{
    (void)pe.sysreg->write_sysreg(pmt_sysreg_encode(pmt_reg_ref{id, 0}), value);
}

} // namespace

int sc_main(int, char **)
{
    pmtrace::pe_model pe("pe");
    pmtrace::level_signal_adapter adapter("pmuirq_adapter");
    sc_core::sc_signal<bool> pmuirq("pmuirq");
    pe.pmuirq.bind(adapter);
    adapter.out(pmuirq);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    pmt_pe_state el1{};
    el1.el = 1;
    el1.ss = PMT_SS_NONSECURE;
    el1.el2_enabled = true;
    pe.state->set_pe_state(el1);
    msr(pe, PMT_REG_PMCCNTR_EL0, ~uint64_t(0) - 999);
    msr(pe, PMT_REG_PMINTENSET_EL1, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
    msr(pe, PMT_REG_PMCNTENSET_EL0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
    msr(pe, PMT_REG_PMCR_EL0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LC));
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
    // The overflow at 1000 ns raised PMUIRQ, and nothing lowered it.
    std::cout << "PMUIRQ " << pmuirq.read() << " at " << sc_core::sc_time_stamp() << "\n";
    return pmuirq.read() ? 0 : 1;
}
