// systemc_quickstart.cpp - one pe_model in a small platform: a temporally decoupled CPU that
// programs the PMU and the Trace Buffer Unit and reports its instructions, interrupt controller
// inputs for PMUIRQ and TRBIRQ, a trace unit feeding trace, a RAM (with DMI) the trace buffer is
// written to, and a debugger reading the counters through the external PMU frame. Built and run
// by the tests (Docs.SystemcQuickstart); docs/systemc.md walks through it.
#include <pmtrace/systemc/pe_model.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdio>
#include <cstring>
#include <vector>

using sc_core::SC_NS;
using sc_core::sc_time;

// sc_time_stamp() + offset in ns: the time of a call made at a local time offset.
static double ns_at(const sc_time &offset)
{
    return (sc_core::sc_time_stamp() + offset) / sc_time(1, SC_NS);
}

// An interrupt controller's input: PMUIRQ (PPI 23 on a GICv3 platform), TRBIRQ (a PPI too).
struct ppi_input : pmtrace::level_if {
    const char *line;
    bool level = false;
    explicit ppi_input(const char *name) : line(name) {}
    // The level changes at sc_time_stamp() + offset: a decoupled CPU's call is at its local time.
    void set_level(bool high, const sc_time &offset) override
    {
        level = high;
        std::printf("%s=%d at %.0f ns\n", line, high ? 1 : 0, ns_at(offset));
    }
};

// 64 KiB of RAM at 0x4000_0000: b_transport, and DMI granted over all of it.
SC_MODULE(ram)
{
    static constexpr uint64_t base = 0x4000'0000, size = 0x1'0000;
    tlm_utils::simple_target_socket<ram> socket;
    std::vector<unsigned char> data = std::vector<unsigned char>(size);
    unsigned transactions = 0;

    void b_transport(tlm::tlm_generic_payload & trans, sc_time & delay)
    {
        uint64_t at = trans.get_address() - base;
        unsigned n = trans.get_data_length();
        if (trans.get_address() < base || at + n > size || trans.get_byte_enable_ptr()) {
            trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (trans.is_write())
            std::memcpy(&data[at], trans.get_data_ptr(), n);
        else if (trans.is_read())
            std::memcpy(trans.get_data_ptr(), &data[at], n);
        transactions++;
        delay += sc_time(1, SC_NS);
        trans.set_dmi_allowed(true); // the hint: ask for a DMI pointer
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi & dmi)
    {
        dmi.set_dmi_ptr(data.data());
        dmi.set_start_address(base);
        dmi.set_end_address(base + size - 1);
        dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
        dmi.set_write_latency(sc_time(1, SC_NS));
        return true;
    }

    SC_CTOR(ram) : socket("socket")
    {
        socket.register_b_transport(this, &ram::b_transport);
        socket.register_get_direct_mem_ptr(this, &ram::get_direct_mem_ptr);
    }
};

// A trace unit (an ETE): 256 bytes of trace every 100 ns, byte k of the stream is k mod 256.
SC_MODULE(trace_unit)
{
    sc_core::sc_port<pmtrace::trace_sink_if> sink;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(256); // a member: the thread never ends
    void run()
    {
        for (unsigned k = 0; k < 256; k++)
            bytes[k] = static_cast<uint8_t>(k);
        for (;;) {
            wait(100, SC_NS);
            sink->trace_bytes(bytes.data(), bytes.size());
        }
    }
    SC_CTOR(trace_unit) : sink("sink")
    {
        SC_THREAD(run);
    }
};

// A CPU: as firmware gives the trace buffer to EL1; at EL1 programs the cycle counter to
// overflow after 1000 cycles, event counter 0 to count instructions, and a 4 KiB trace buffer in
// Fill mode; then executes 3000 instructions of 1 ns each under temporal decoupling, handling
// the PMU and TRBE interrupts.
SC_MODULE(cpu)
{
    sc_core::sc_port<pmtrace::sysreg_if> pmu_regs;
    sc_core::sc_port<pmtrace::pmu_event_if> pmu_events;
    sc_core::sc_port<pmtrace::pe_state_if> pmu_state;
    const ppi_input *irq = nullptr, *trbirq = nullptr;
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

    void set_state(unsigned el, pmt_security ss)
    {
        pmt_pe_state state{};
        state.el = static_cast<uint8_t>(el);
        state.ss = ss;
        state.el2_enabled = true; // EL2Enabled(): SCR_EL3.NS = 1 (the model checks it at EL3)
        state.scr_ns = true;
        pmu_state->set_pe_state(state, qk.get_local_time());
    }

    void run()
    {
        set_state(3, PMT_SS_SECURE); // EL3: the buffer belongs to Non-secure state
        msr(PMT_REG_MDCR_EL3, 0, PMT_PUT(MDCR_EL3, NSTB, 3));
        set_state(2, PMT_SS_NONSECURE); // EL2: ... and to EL1; all 6 counters for EL1
        msr(PMT_REG_MDCR_EL2, 0, PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, 6));
        set_state(1, PMT_SS_NONSECURE);
        msr(PMT_REG_PMCCNTR_EL0, 0, ~uint64_t(0) - 999); // 1000 cycles to the 64-bit overflow
        msr(PMT_REG_PMEVTYPER_EL0, 0, PMT_EV_INST_RETIRED);
        msr(PMT_REG_PMINTENSET_EL1, 0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
        msr(PMT_REG_PMCNTENSET_EL0, 0, (uint64_t(1) << PMT_CYCLE_COUNTER_ID) | 1);
        msr(PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LC));
        // The trace buffer, as Linux's coresight-trbe programs it.
        msr(PMT_REG_TRBLIMITR_EL1, 0, 0);
        msr(PMT_REG_TRBSR_EL1, 0, 0);
        msr(PMT_REG_TRBBASER_EL1, 0, ram::base);
        msr(PMT_REG_TRBPTR_EL1, 0, ram::base);
        msr(PMT_REG_TRBLIMITR_EL1, 0,
            (ram::base + 0x1000) | PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_FILL) |
                PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE) | PMT_MASK(TRBLIMITR, E));
        for (int i = 0; i < 3000; i++) {
            if (irq->level) { // the PMU interrupt handler
                uint64_t ovs = mrs(PMT_REG_PMOVSCLR_EL0);
                std::printf("cpu: PMU interrupt, PMOVSCLR_EL0=0x%llx\n",
                            static_cast<unsigned long long>(ovs));
                msr(PMT_REG_PMOVSCLR_EL0, 0, ovs);
            }
            if (trbirq->level) { // the TRBE interrupt handler: the buffer is full
                uint64_t sr = mrs(PMT_REG_TRBSR_EL1);
                std::printf("cpu: TRBE interrupt, TRBSR_EL1=0x%llx TRBPTR_EL1=0x%llx\n",
                            static_cast<unsigned long long>(sr),
                            static_cast<unsigned long long>(mrs(PMT_REG_TRBPTR_EL1)));
                msr(PMT_REG_TRBLIMITR_EL1, 0, 0); // disable, then clear IRQ
                msr(PMT_REG_TRBSR_EL1, 0, sr & ~PMT_MASK(TRBSR, IRQ));
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
    config.core.trbe.feat_trbe = true; // the Trace Buffer Unit, 64-byte alignment units
    pmtrace::pe_model pe("pe0", config);

    ppi_input ppi23("PMUIRQ"), ppi_trb("TRBIRQ");
    cpu cpu0("cpu0");
    debugger dbg("debugger");
    ram memory("ram");
    trace_unit ete("ete");
    pe.pmuirq.bind(ppi23);
    pe.trbirq.bind(ppi_trb);
    cpu0.irq = &ppi23;
    cpu0.trbirq = &ppi_trb;
    cpu0.pmu_regs.bind(pe.sysreg);
    cpu0.pmu_events.bind(pe.events);
    cpu0.pmu_state.bind(pe.state);
    dbg.bus.bind(pe.pmu_frame);
    pe.trace_bus.bind(memory.socket); // trace buffer writes (physical addresses)
    ete.sink.bind(pe.trace_sink);     // trace bytes from the trace unit
    // Unbound: pe.translation (the identity), pe.trace_flush (flushes complete at once).

    sc_core::sc_start(4, sc_core::SC_US);
    const pmtrace::trace_bus_stats &trace = pe.trace_stats();
    std::printf("ram: %llu bytes of trace by %u b_transport and %llu through DMI, "
                "ram[0xFFF]=0x%02X\n",
                static_cast<unsigned long long>(trace.transport_bytes + trace.dmi_bytes),
                memory.transactions, static_cast<unsigned long long>(trace.dmi_bytes),
                memory.data[0xFFF]);
    return 0;
}
