// pe_trbe_fixture.h - a pe_model with FEAT_TRBE in a small platform: the trace bus through a
// recording probe to the platform's router and memory (with DMI, latencies and faults), the
// platform's translator on the translation port, probes on the TRBE outputs, a frame initiator
// on the Trace Buffer frame, and the firmware set-up that gives the buffer to Non-secure EL1.
#ifndef PMTRACE_TESTS_PE_TRBE_FIXTURE_H
#define PMTRACE_TESTS_PE_TRBE_FIXTURE_H

#include "pe_model_fixture.h"

#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/trace/trace_source.h>
#include <pmtrace/platform/bus/translator.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>

namespace pmtrace_test
{

namespace plat = pmtrace::platform;

// Sits between the trace bus and the router: records each transaction and forwards everything
// (b_transport, DMI requests, invalidations).
struct bus_probe : sc_core::sc_module {
    tlm_utils::simple_target_socket<bus_probe> target{"target"};
    tlm_utils::simple_initiator_socket<bus_probe> initiator{"initiator"};
    struct access {
        uint64_t address;
        unsigned length;
        pmt_security pas;
        sc_time delay_in;  // the initiator's local time offset when it called
        sc_time delay_out; // ... after the target's latency
        tlm::tlm_response_status response;
    };
    std::vector<access> accesses;
    uint64_t dmi_requests = 0;
    sc_time wait_in_transport = sc_core::SC_ZERO_TIME; // a misbehaving target: waits this long

    explicit bus_probe(const sc_core::sc_module_name &name) : sc_module(name)
    {
        target.register_b_transport(this, &bus_probe::b_transport);
        target.register_get_direct_mem_ptr(this, &bus_probe::get_direct_mem_ptr);
        target.register_transport_dbg(this, &bus_probe::transport_dbg);
        initiator.register_invalidate_direct_mem_ptr(this, &bus_probe::invalidate);
    }
    void b_transport(tlm::tlm_generic_payload &tx, sc_time &delay)
    {
        const pmtrace::access_extension *ext = tx.get_extension<pmtrace::access_extension>();
        access a{tx.get_address(),
                 tx.get_data_length(),
                 ext ? ext->security : PMT_SS_ROOT,
                 delay,
                 delay,
                 tlm::TLM_INCOMPLETE_RESPONSE};
        if (wait_in_transport != sc_core::SC_ZERO_TIME)
            wait(wait_in_transport);
        initiator->b_transport(tx, delay);
        a.delay_out = delay;
        a.response = tx.get_response_status();
        accesses.push_back(a);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &tx, tlm::tlm_dmi &dmi)
    {
        dmi_requests++;
        return initiator->get_direct_mem_ptr(tx, dmi);
    }
    unsigned transport_dbg(tlm::tlm_generic_payload &tx) { return initiator->transport_dbg(tx); }
    void invalidate(sc_dt::uint64 start, sc_dt::uint64 end)
    {
        target->invalidate_direct_mem_ptr(start, end);
    }
};

// A trace unit stand-in on the flush port: counts requests; the test completes them.
struct flush_probe : pmtrace::trace_flush_if {
    int requests = 0;
    std::vector<sc_time> at;
    void flush_request() override
    {
        requests++;
        at.push_back(sc_core::sc_time_stamp());
    }
};

// A trace unit that delivers 32 bytes of 0xAB and completes the flush inside flush_request (the
// model performs those calls one delta later: docs/systemc.md).
struct eager_unit : pmtrace::trace_flush_if {
    pmtrace::trace_sink_if *sink = nullptr;
    void flush_request() override
    {
        std::vector<uint8_t> pending(32, 0xAB);
        sink->trace_bytes(pending.data(), pending.size());
        sink->flush_complete();
    }
};

// Calls f from a thread at a time (a process, as a trace unit or CPU is).
struct caller : sc_core::sc_module {
    std::function<void()> f;
    sc_time at;
    SC_HAS_PROCESS(caller);
    explicit caller(const sc_core::sc_module_name &n, const sc_time &when = sc_time(1, SC_NS))
        : sc_module(n), at(when)
    {
        SC_THREAD(run);
    }
    void run()
    {
        wait(at);
        if (f)
            f();
    }
};

// The PE's TRBE configuration for these tests: FEAT_TRBE with FEAT_TRBE_EXT, 64-byte units.
inline pmtrace::pe_model_config trbe_config()
{
    pmtrace::pe_model_config cfg;
    cfg.core.trbe.feat_trbe = true;
    cfg.core.trbe.feat_trbe_ext = true;
    return cfg;
}

// EL3 gives the buffer to Non-secure state (MDCR_EL3.NSTB = 0b11), EL2 gives it to EL1
// (MDCR_EL2.E2TB = 0b11); the PE is left at Non-secure EL1.
inline void give_buffer_to_el1(pmtrace::pe_model &pe, uint64_t mdcr_el3_extra = 0)
{
    pe.state->set_pe_state(at_el(3, PMT_SS_SECURE));
    wr(pe, PMT_REG_MDCR_EL3, 0, PMT_PUT(MDCR_EL3, NSTB, 3) | mdcr_el3_extra);
    pe.state->set_pe_state(at_el(2));
    wr(pe, PMT_REG_MDCR_EL2, 0,
       PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, pe.config().core.num_counters));
    pe.state->set_pe_state(el1_ns());
}

// The driver at EL1, as coresight-trbe: disable, clear the status, base, pointer, limit with
// the modes and E.
inline void program_buffer(pmtrace::pe_model &pe, uint64_t base, uint64_t limit, uint64_t ptr,
                           unsigned fm, unsigned tm)
{
    wr(pe, PMT_REG_TRBLIMITR_EL1, 0, 0);
    wr(pe, PMT_REG_TRBSR_EL1, 0, 0);
    wr(pe, PMT_REG_TRBBASER_EL1, 0, base);
    wr(pe, PMT_REG_TRBPTR_EL1, 0, ptr);
    wr(pe, PMT_REG_TRBLIMITR_EL1, 0,
       limit | PMT_PUT(TRBLIMITR, FM, fm) | PMT_PUT(TRBLIMITR, TM, tm) | PMT_MASK(TRBLIMITR, E));
}

inline plat::memory_config ram_config(bool dmi, sc_time write_latency = sc_core::SC_ZERO_TIME)
{
    plat::memory_config c;
    c.size = 0x10'0000;
    c.dmi = dmi;
    c.write_latency = write_latency;
    return c;
}

// RAM at 0x4000_0000 (DMI unless told otherwise) behind a router; the buffer is 16 KiB at
// BASE, identity mapped unless a test maps it. The PE is left at Non-secure EL1, owning the
// buffer.
struct trbe_platform {
    static constexpr uint64_t RAM = 0x4000'0000;
    static constexpr uint64_t BASE = RAM + 0x1'0000;
    static constexpr uint64_t LIMIT = BASE + 0x4000;

    pmtrace::pe_model pe;
    bus_probe probe{"probe"};
    plat::router bus{"bus"};
    plat::memory ram;
    plat::translator mmu{"mmu"};
    frame_initiator dbg{"dbg"};
    level_probe irq;
    exception_probe exception;
    event_probe serror;
    cti_probe cti;
    generated_probe generated;
    pmtrace::access_extension secure{PMT_SS_SECURE};

    // before_start: more bindings, made before elaboration ends. start::by_test: the test
    // starts the simulation and programs the PE (several platforms in one simulation, each
    // built inside a module of its own so that the names differ).
    enum class start { now, by_test };
    explicit trbe_platform(const pmtrace::pe_model_config &cfg = trbe_config(),
                           const plat::memory_config &ram_cfg = ram_config(true),
                           bool bind_mmu = true,
                           const std::function<void(trbe_platform &)> &before_start = {},
                           start when = start::now)
        : pe("pe", cfg), ram("ram", ram_cfg)
    {
        pe.trace_bus.bind(probe.target);
        probe.initiator.bind(bus.target);
        bus.initiator.bind(ram.socket);
        bus.map(0, RAM, ram.size());
        if (bind_mmu)
            pe.translation.bind(mmu);
        dbg.socket.bind(pe.trbe_frame);
        pe.trbirq.bind(irq);
        pe.trbe_exception.bind(exception);
        pe.serror.bind(serror);
        pe.cti_trbe_stopped.bind(cti);
        pe.cti_trbe_management.bind(cti);
        pe.cti_trbe_wrap.bind(cti);
        pe.generated.bind(generated);
        if (before_start)
            before_start(*this);
        if (when == start::by_test)
            return;
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        give_buffer_to_el1(pe);
    }

    void program(uint64_t base, uint64_t limit, uint64_t ptr, unsigned fm, unsigned tm)
    {
        program_buffer(pe, base, limit, ptr, fm, tm);
    }
    void program_fill(uint64_t base = BASE, uint64_t limit = LIMIT)
    {
        program(base, limit, base, PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_TM_IGNORE);
    }

    // n bytes of trace through the trace sink export; byte k of the test's stream is k mod 251.
    uint64_t stream = 0;
    void trace(size_t n)
    {
        std::vector<uint8_t> b(n);
        for (size_t i = 0; i < n; i++)
            b[i] = byte_of(stream + i);
        stream += n;
        pe.trace_sink->trace_bytes(b.data(), n);
    }
    static uint8_t byte_of(uint64_t k) { return static_cast<uint8_t>(k % 251); }
    // RAM at pa holds stream bytes [k, k + n).
    ::testing::AssertionResult holds(uint64_t pa, uint64_t k, size_t n)
    {
        for (size_t i = 0; i < n; i++)
            if (ram.data()[pa - RAM + i] != byte_of(k + i))
                return ::testing::AssertionFailure()
                       << "at 0x" << std::hex << pa + i << ": 0x"
                       << unsigned(ram.data()[pa - RAM + i]) << ", expected stream byte "
                       << std::dec << k + i;
        return ::testing::AssertionSuccess();
    }
    ::testing::AssertionResult untouched(uint64_t pa, size_t n)
    {
        for (size_t i = 0; i < n; i++)
            if (ram.data()[pa - RAM + i] != 0)
                return ::testing::AssertionFailure() << "0x" << std::hex << pa + i << " written";
        return ::testing::AssertionSuccess();
    }

    uint64_t trbsr() { return rd(pe, PMT_REG_TRBSR_EL1); }
    uint64_t trbptr() { return rd(pe, PMT_REG_TRBPTR_EL1); }
};

} // namespace pmtrace_test

#endif
