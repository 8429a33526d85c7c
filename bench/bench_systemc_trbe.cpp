// bench_systemc_trbe - how fast the SystemC wrapper writes trace: TRBE writes through the trace
// bus initiator into a memory model that grants DMI versus one that does not, in one run.
//
//   build/bench/bench_systemc_trbe [megabytes] [chunk]
//
// One pe_model with FEAT_TRBE (64-byte alignment units), the platform's router and two memories
// (pmtrace::platform::memory, no latency): one grants DMI, the other does not. A trace unit
// thread feeds `chunk`-byte pieces (default 4096) through the trace_sink export into a 1 MiB
// buffer in Circular Buffer mode, first in the DMI memory, then in the other one, `megabytes`
// MiB each (default 16384 and 2048). It prints bytes per second for both and their ratio, and
// checks the last buffer contents.
#include "bench_args.h"

#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/systemc/pe_model.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace
{

constexpr uint64_t DMI_RAM = 0x4000'0000, PLAIN_RAM = 0x8000'0000;
constexpr uint64_t RAM_SIZE = 0x20'0000;
constexpr uint64_t BUF_OFFSET = 0x10'0000, BUF_SIZE = 0x10'0000; // 1 MiB

pmtrace::platform::memory_config ram(bool dmi)
{
    pmtrace::platform::memory_config c;
    c.size = RAM_SIZE;
    c.dmi = dmi;
    return c;
}

SC_MODULE(trace_unit)
{
    sc_core::sc_port<pmtrace::sysreg_if> regs;
    sc_core::sc_port<pmtrace::pe_state_if> state;
    sc_core::sc_port<pmtrace::trace_sink_if> sink;
    uint64_t dmi_bytes = 0, plain_bytes = 0;
    size_t chunk = 4096;
    const pmtrace::pe_model *pe = nullptr;
    const pmtrace::platform::memory *memories[2] = {};

    void msr(pmt_reg_id id, uint64_t value)
    {
        if (regs->write_sysreg(pmt_sysreg_encode(pmt_reg_ref{id, 0}), value) != PMT_ACCESS_OK) {
            std::fprintf(stderr, "bench: write to %s refused\n", pmt_reg_name(id));
            std::exit(1);
        }
    }
    void set_state(unsigned el, pmt_security ss)
    {
        pmt_pe_state s{};
        s.el = static_cast<uint8_t>(el);
        s.ss = ss;
        s.el2_enabled = true; // EL2Enabled(): SCR_EL3.NS = 1 (checked at EL3)
        s.scr_ns = true;
        state->set_pe_state(s);
    }
    void program(uint64_t base)
    {
        msr(PMT_REG_TRBLIMITR_EL1, 0);
        msr(PMT_REG_TRBSR_EL1, 0);
        msr(PMT_REG_TRBBASER_EL1, base);
        msr(PMT_REG_TRBPTR_EL1, base);
        msr(PMT_REG_TRBLIMITR_EL1,
            (base + BUF_SIZE) | PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_CIRCULAR) |
                PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE) | PMT_MASK(TRBLIMITR, E));
    }
    double feed(uint64_t total, const std::vector<uint8_t> &bytes)
    {
        auto t0 = std::chrono::steady_clock::now();
        for (uint64_t done = 0; done < total; done += bytes.size())
            sink->trace_bytes(bytes.data(), bytes.size());
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return static_cast<double>(total) / s;
    }
    // The buffer holds whole copies of the pattern (every chunk starts at a chunk boundary).
    bool check(const pmtrace::platform::memory &m, const std::vector<uint8_t> &bytes) const
    {
        const uint8_t *buf = m.data() + BUF_OFFSET;
        for (uint64_t i = 0; i < BUF_SIZE; i++)
            if (buf[i] != bytes[i % bytes.size()])
                return false;
        return true;
    }

    void run()
    {
        // Firmware gives the buffer to Non-secure EL1.
        set_state(3, PMT_SS_SECURE);
        msr(PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
        set_state(2, PMT_SS_NONSECURE);
        msr(PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, 6));
        set_state(1, PMT_SS_NONSECURE);
        std::vector<uint8_t> bytes(chunk);
        for (size_t i = 0; i < chunk; i++)
            bytes[i] = static_cast<uint8_t>(i * 7 + 1);

        program(DMI_RAM + BUF_OFFSET);
        double with_dmi = feed(dmi_bytes, bytes);
        pmtrace::trace_bus_stats after_dmi = pe->trace_stats();
        program(PLAIN_RAM + BUF_OFFSET);
        double without = feed(plain_bytes, bytes);
        pmtrace::trace_bus_stats s = pe->trace_stats();

        std::printf("TRBE writes, %zu-byte chunks, 64-byte units, 1 MiB Circular Buffer:\n", chunk);
        std::printf("  memory granting DMI:      %8.2f GB/s  (%llu MiB; %llu b_transport, "
                    "%llu bytes through DMI)\n",
                    with_dmi / 1e9, static_cast<unsigned long long>(dmi_bytes >> 20),
                    static_cast<unsigned long long>(after_dmi.transactions),
                    static_cast<unsigned long long>(after_dmi.dmi_bytes));
        std::printf("  memory without DMI:       %8.2f GB/s  (%llu MiB; %llu b_transport)\n",
                    without / 1e9, static_cast<unsigned long long>(plain_bytes >> 20),
                    static_cast<unsigned long long>(s.transactions - after_dmi.transactions));
        std::printf("  ratio DMI / without DMI:  %8.1f\n", with_dmi / without);
        bool ok = check(*memories[0], bytes) && check(*memories[1], bytes) && s.errors == 0;
        std::printf("  buffer contents: %s\n", ok ? "ok" : "WRONG");
        if (!ok)
            std::exit(1);
    }

    SC_CTOR(trace_unit) : regs("regs"), state("state"), sink("sink")
    {
        SC_THREAD(run);
    }
};

} // namespace

int sc_main(int argc, char *argv[])
{
    const char *usage = "bench_systemc_trbe [megabytes (16384) [chunk (4096, dividing 1 MiB)]]";
    uint64_t args[2] = {16384, 4096}; // megabytes, chunk
    if (const int rc = bench_args(argc, argv, usage, args, 2); rc >= 0)
        return rc;
    const uint64_t mib = args[0];
    const size_t chunk = static_cast<size_t>(args[1]);
    if (args[1] > BUF_SIZE || BUF_SIZE % chunk) {
        std::fprintf(stderr, "%s: the chunk %zu does not divide 1 MiB\nusage: %s\n", argv[0], chunk,
                     usage);
        return 2;
    }
    pmtrace::pe_model_config cfg;
    cfg.core.trbe.feat_trbe = true;
    pmtrace::pe_model pe("pe", cfg);
    pmtrace::platform::router bus("bus");
    pmtrace::platform::memory dmi_ram("dmi_ram", ram(true));
    pmtrace::platform::memory plain_ram("plain_ram", ram(false));
    trace_unit unit("unit");
    pe.trace_bus.bind(bus.target);
    bus.initiator.bind(dmi_ram.socket);
    bus.initiator.bind(plain_ram.socket);
    bus.map(0, DMI_RAM, RAM_SIZE);
    bus.map(1, PLAIN_RAM, RAM_SIZE);
    unit.regs.bind(pe.sysreg);
    unit.state.bind(pe.state);
    unit.sink.bind(pe.trace_sink);
    unit.pe = &pe;
    unit.memories[0] = &dmi_ram;
    unit.memories[1] = &plain_ram;
    unit.chunk = chunk;
    unit.dmi_bytes = mib << 20;
    unit.plain_bytes = (mib / 8 ? mib / 8 : 1) << 20;
    sc_core::sc_start();
    return 0;
}
