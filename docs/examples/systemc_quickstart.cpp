// systemc_quickstart.cpp - one pe_model in a small platform: a temporally decoupled CPU that
// programs the PMU and reports its instructions, an interrupt controller input for PMUIRQ, and a
// debugger reading the counters through the external PMU frame. Built and run by the tests
// (Docs.SystemcQuickstart); docs/systemc.md walks through it.
#include <pmtrace/systemc/pe_model.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdio>

using sc_core::SC_NS;
using sc_core::sc_time;

static double now_ns()
{
    return sc_core::sc_time_stamp() / sc_time(1, SC_NS);
}

// The interrupt controller's input for PMUIRQ (PPI 23 on a GICv3 platform).
struct ppi_input : pmtrace::level_if {
    bool level = false;
    void set_level(bool high) override
    {
        level = high;
        std::printf("PMUIRQ=%d at %.0f ns\n", high ? 1 : 0, now_ns());
    }
};

// A CPU: programs the cycle counter to overflow after 1000 cycles and event counter 0 to count
// instructions, then executes 3000 instructions of 1 ns each under temporal decoupling.
SC_MODULE(cpu)
{
    sc_core::sc_port<pmtrace::sysreg_if> pmu_regs;
    sc_core::sc_port<pmtrace::pmu_event_if> pmu_events;
    sc_core::sc_port<pmtrace::pe_state_if> pmu_state;
    const ppi_input *irq = nullptr;
    tlm_utils::tlm_quantumkeeper qk;

    void msr(pmt_reg_id id, unsigned n, uint64_t value)
    {
        pmu_regs->write_sysreg(pmt_sysreg_encode(pmt_reg_ref{id, n}), value, qk.get_local_time());
    }
    uint64_t mrs(pmt_reg_id id)
    {
        uint64_t value = 0;
        pmu_regs->read_sysreg(pmt_sysreg_encode(pmt_reg_ref{id, 0}), value, qk.get_local_time());
        return value;
    }

    void run()
    {
        pmt_pe_state el1{};
        el1.el = 1;
        el1.ss = PMT_SS_NONSECURE;
        el1.el2_enabled = true;
        pmu_state->set_pe_state(el1, qk.get_local_time());
        msr(PMT_REG_PMCCNTR_EL0, 0, ~uint64_t(0) - 999); // 1000 cycles to the 64-bit overflow
        msr(PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED);
        msr(PMT_REG_PMINTENSET_EL1, 0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
        msr(PMT_REG_PMCNTENSET_EL0, 0, (uint64_t(1) << PMT_CYCLE_COUNTER_ID) | 1);
        msr(PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LC));
        for (int i = 0; i < 3000; i++) {
            if (irq->level) { // the interrupt handler
                uint64_t ovs = mrs(PMT_REG_PMOVSCLR_EL0);
                std::printf("cpu: PMU interrupt, PMOVSCLR_EL0=0x%llx\n",
                            static_cast<unsigned long long>(ovs));
                msr(PMT_REG_PMOVSCLR_EL0, 0, ovs);
            }
            pmu_events->count_event(PMT_EV_INST_RETIRED, 1, qk.get_local_time());
            qk.inc(sc_time(1, SC_NS));
            if (qk.need_sync())
                qk.sync();
        }
        qk.sync();
    }

    SC_CTOR(cpu) : pmu_regs("pmu_regs"), pmu_events("pmu_events"), pmu_state("pmu_state")
    {
        qk.reset();
        SC_THREAD(run);
    }
};

// A debugger on the bus: reads the counters through the external PMU frame (EXT32 layout).
SC_MODULE(debugger)
{
    tlm_utils::simple_initiator_socket<debugger> bus;

    uint32_t read32(uint64_t offset)
    {
        uint32_t value = 0;
        tlm::tlm_generic_payload trans;
        sc_time delay = sc_core::SC_ZERO_TIME;
        trans.set_read();
        trans.set_address(offset);
        trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        trans.set_data_length(4);
        trans.set_streaming_width(4);
        bus->b_transport(trans, delay);
        if (trans.is_response_error())
            std::printf("debugger: %s\n", trans.get_response_string().c_str());
        wait(delay);
        return value;
    }

    void run()
    {
        wait(3500, SC_NS);
        uint32_t ccnt = read32(0x0F8); // PMCCNTR_EL0[31:0]
        uint32_t cnt0 = read32(0x000); // PMEVCNTR0_EL0[31:0]
        std::printf("debugger at 3500 ns: PMCCNTR_EL0=%u PMEVCNTR0_EL0=%u\n", ccnt, cnt0);
    }

    SC_CTOR(debugger) : bus("bus")
    {
        SC_THREAD(run);
    }
};

int sc_main(int, char *[])
{
    // The quantum is the platform's choice; the model sets none.
    tlm::tlm_global_quantum::instance().set(sc_time(1, sc_core::SC_US));

    pmtrace::pe_model_config config; // pmt_pe_config_default(): 6 counters, PMUv3p7, EL2, EL3
    config.clock_period = sc_time(1, SC_NS);
    pmtrace::pe_model pe("pe0", config);

    ppi_input ppi23;
    cpu cpu0("cpu0");
    debugger dbg("debugger");
    pe.pmuirq.bind(ppi23);
    cpu0.irq = &ppi23;
    cpu0.pmu_regs.bind(pe.sysreg);
    cpu0.pmu_events.bind(pe.events);
    cpu0.pmu_state.bind(pe.state);
    dbg.bus.bind(pe.pmu_frame);

    sc_core::sc_start(4, sc_core::SC_US);
    return 0;
}
