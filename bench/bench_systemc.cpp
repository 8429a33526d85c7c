// bench_systemc - how fast the SystemC wrapper is.
//
//   build/bench/bench_systemc [instructions] [reads]
//
// 1. Events through the event export under temporal decoupling (global quantum 1 us, a
//    tlm_quantumkeeper): a CPU thread executes instructions of 1 ns (the PE's clock period) and
//    reports each one's events with its local time offset, while PMCCNTR_EL0 and six event
//    counters run; (a) one event (INST_RETIRED) per instruction, (b) four events per instruction.
// 2. Register reads through the PMU frame socket: b_transport reads of PMCCNTR_EL0 from a bus
//    master that keeps the annotated latency in its own quantum keeper.
// One simulation runs the cases one after another (SystemC elaborates once per process).
#include "bench_args.h"

#include <pmtrace/systemc/pe_model.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace
{

using sc_core::SC_NS;
using sc_core::sc_time;

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Events a CPU delivers per instruction: INST_RETIRED, L1D_CACHE, BR_RETIRED, MEM_ACCESS.
constexpr uint16_t per_instruction[] = {PMT_EV_INST_RETIRED, PMT_EV_L1D_CACHE, PMT_EV_BR_RETIRED,
                                        PMT_EV_MEM_ACCESS};

SC_MODULE(cpu)
{
    sc_core::sc_port<pmtrace::sysreg_if> regs;
    sc_core::sc_port<pmtrace::pmu_event_if> events;
    sc_core::sc_port<pmtrace::pe_state_if> state;
    tlm_utils::simple_initiator_socket<cpu> bus;
    uint64_t instructions = 0, reads = 0;

    void msr(pmt_reg_id id, unsigned n, uint64_t value)
    {
        if (regs->write_sysreg(pmt_sysreg_encode(pmt_reg_ref{id, n}), value) != PMT_ACCESS_OK) {
            std::fprintf(stderr, "bench: write to %s refused\n", pmt_reg_name(id));
            std::exit(1);
        }
    }

    void program()
    {
        pmt_pe_state el1{};
        el1.el = 1;
        el1.ss = PMT_SS_NONSECURE;
        el1.el2_enabled = true;
        state->set_pe_state(el1);
        for (unsigned n = 0; n < 6; n++)
            msr(PMT_REG_PMEVTYPER_EL0, n, per_instruction[n % 4]);
        msr(PMT_REG_PMCNTENSET_EL0, 0, (uint64_t(1) << PMT_CYCLE_COUNTER_ID) | 0x3F);
        msr(PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | PMT_MASK(PMCR, LP) | PMT_MASK(PMCR, LC));
    }

    double run_events(unsigned events_per_instruction)
    {
        tlm_utils::tlm_quantumkeeper qk;
        qk.reset();
        auto t0 = std::chrono::steady_clock::now();
        for (uint64_t i = 0; i < instructions; i++) {
            for (unsigned e = 0; e < events_per_instruction; e++)
                events->count_event(per_instruction[e], 1, qk.get_local_time());
            qk.inc(sc_time(1, SC_NS));
            if (qk.need_sync())
                qk.sync();
        }
        qk.sync();
        return static_cast<double>(instructions * events_per_instruction) / seconds_since(t0);
    }

    double run_reads()
    {
        tlm_utils::tlm_quantumkeeper qk;
        qk.reset();
        uint32_t value = 0;
        tlm::tlm_generic_payload trans;
        trans.set_address(0x0F8); // PMCCNTR_EL0[31:0]
        trans.set_data_ptr(reinterpret_cast<unsigned char *>(&value));
        trans.set_data_length(4);
        trans.set_streaming_width(4);
        auto t0 = std::chrono::steady_clock::now();
        for (uint64_t i = 0; i < reads; i++) {
            trans.set_read();
            trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            sc_time delay = qk.get_local_time();
            bus->b_transport(trans, delay);
            if (!trans.is_response_ok()) {
                std::fprintf(stderr, "bench: read refused\n");
                std::exit(1);
            }
            qk.set(delay);
            if (qk.need_sync())
                qk.sync();
        }
        qk.sync();
        return static_cast<double>(reads) / seconds_since(t0);
    }

    void run()
    {
        program();
        double one = run_events(1);
        std::printf("events through the export, 1 per 1 ns instruction:  %7.1f M events/s\n",
                    one / 1e6);
        double four = run_events(4);
        std::printf("events through the export, 4 per 1 ns instruction:  %7.1f M events/s\n",
                    four / 1e6);
        double rd = run_reads();
        std::printf("PMCCNTR_EL0 reads through b_transport:              %7.1f M reads/s\n",
                    rd / 1e6);
        std::printf("simulated time: %s\n", sc_core::sc_time_stamp().to_string().c_str());
    }

    SC_CTOR(cpu) : regs("regs"), events("events"), state("state"), bus("bus")
    {
        SC_THREAD(run);
    }
};

} // namespace

int sc_main(int argc, char *argv[])
{
    uint64_t args[2] = {100000000u, 10000000u}; // instructions, reads
    if (const int rc = bench_args(
            argc, argv, "bench_systemc [instructions (100000000) [reads (10000000)]]", args, 2);
        rc >= 0)
        return rc;
    const uint64_t instructions = args[0], reads = args[1];
    tlm::tlm_global_quantum::instance().set(sc_time(1, sc_core::SC_US));
    pmtrace::pe_model pe("pe");
    cpu c("cpu");
    c.instructions = instructions;
    c.reads = reads;
    c.regs.bind(pe.sysreg);
    c.events.bind(pe.events);
    c.state.bind(pe.state);
    c.bus.bind(pe.pmu_frame);
    sc_core::sc_start();
    return 0;
}
