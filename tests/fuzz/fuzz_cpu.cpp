// fuzz_cpu.cpp - harness (7): short A64 programs on the platform's AArch64 CPU (issue 27). Each
// input is one run of the reference platform (vp.h) with the AArch64 CPU: cpu/boot.S sets up the
// input's Exception level and MMU, clears x0..x25 and enters the program; its vectors take every
// exception and go on after it, and SVC #0xF0F0 (which the harness places after the program)
// ends the run with PSCI SYSTEM_OFF. A run is bounded by simulated time (run_time: at 1 ns an
// instruction, 20,000 instructions; an exception between EL0 and EL1 with the MMU on costs the
// engine about 60 us of host time, 1 ms under ASan, so a run of exceptions is bounded to a few
// seconds) and by the CPU's progress guard.
//
// An input: byte 0 the flags, then the program, 4 bytes an instruction (little-endian, at most
// max_words; a partial last word is dropped):
//   bit 0: the MMU on (EL1 and EL0 runs; boot.S's tables);
//   bits 1-2: the Exception level: 0 and 3 EL1, 1 EL0 (entered at EL1, an ERET to EL0), 2 EL2
//             (the image entered at EL2, as QEMU's virtualization=on);
//   bit 3: a trace session: the PE's ETE and its Trace Buffer Unit enabled at boot as
//          pmtrace-vp --kernel --trace does (the sw/ drivers' perf sequences, Fill mode, 64 KiB at
//          0x40300000), so the CPU reports every range to the trace unit.
//
// Each run is a new platform in a new SystemC simulation context: SystemC cannot elaborate twice
// in one context, and a fresh context makes every input independent of those before it. That
// context switch (sc_curr_simcontext, sc_default_global_context) is SystemC 2.3.4's global
// state; this harness is its only user.
//
// Invariants (a violation aborts with "fuzz invariant violated: ..."):
//   - no crash, no SystemC error other than the CPU's own end (an error the CPU reports ends the
//     run: a64_cpu_end::error), under ASan and UBSan no memory error and no undefined
//     behaviour, no hang (libFuzzer's -timeout; the progress guard ends software that cannot go
//     on);
//   - in EL1 and EL0 runs the PMU's INST_RETIRED equals what the CPU says it retired: event
//     counter 5, which MDCR_EL2.HPMN = 5 reserves for EL2 (the program cannot reach it),
//     counts INST_RETIRED at EL0 and EL1 from the first instruction; at the end it holds
//     a64_cpu_stats::instructions.
#include <pmtrace/platform/cpu/a64_debug_hal.h>
#include <pmtrace/platform/vp.h>

#include "drivers/ete/ete.h"
#include "drivers/trbe/trbe.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

// libFuzzer provides main(); libsystemc.so's main() would call sc_main (see fuzz_tlm.cpp).
int sc_main(int, char **)
{
    return 1;
}

namespace
{

using namespace pmtrace::platform;

constexpr uint64_t boot_address = 0x4008'0000;
constexpr uint64_t program_address = 0x4020'0000;
constexpr uint64_t trace_buffer = 0x4030'0000, trace_buffer_size = 0x1'0000;
constexpr size_t max_words = 1024;
constexpr uint32_t end_of_program = 0xD400'0001u | (0xF0F0u << 5); // SVC #0xF0F0
constexpr unsigned reserved_counter = 5;                           // HPMN: counters 5.. for EL2
const sc_core::sc_time run_time(20, sc_core::SC_US);

std::vector<uint8_t> boot_image;

[[noreturn]] void violated(const char *what, uint64_t a = 0, uint64_t b = 0)
{
    std::fprintf(stderr, "fuzz invariant violated: %s (0x%llx, 0x%llx)\n", what,
                 static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    std::abort();
}

// SystemC reports: the CPU's error ends its run (checked by its end()); any other error is a
// violation; warnings and information are the software's business (a guest may misprogram).
void report(const sc_core::sc_report &r, const sc_core::sc_actions &)
{
    if (r.get_severity() < sc_core::SC_ERROR)
        return;
    if (std::strcmp(r.get_msg_type(), "vp.a64") == 0)
        return;
    std::fprintf(stderr, "%s: %s\n", r.get_msg_type(), r.get_msg());
    violated("a SystemC error report");
}

pmt_sysreg encoding(pmt_reg_id id, unsigned index = 0)
{
    return pmt_sysreg_encode(pmt_reg_ref{id, static_cast<uint8_t>(index)});
}

// At boot, as a debugger at the highest Exception level: counter 5 reserved for EL2, enabled,
// counting INST_RETIRED at EL0 and EL1 (P, U, NSK, NSU 0; NSH 0: not at EL2).
void reserve_counter(a64_cpu &cpu)
{
    cpu.debug_access(
        [](pmtrace::sysreg_if &sysreg, pmtrace::trbe_cpu_if *, const sc_core::sc_time &t) {
            uint64_t mdcr = 0;
            (void)sysreg.read_sysreg(encoding(PMT_REG_MDCR_EL2), mdcr, t);
            mdcr = (mdcr & ~PMT_MASK(MDCR_EL2, HPMN)) | PMT_PUT(MDCR_EL2, HPMN, reserved_counter) |
                   PMT_MASK(MDCR_EL2, HPME);
            if (sysreg.write_sysreg(encoding(PMT_REG_MDCR_EL2), mdcr, t) != PMT_ACCESS_OK ||
                sysreg.write_sysreg(encoding(PMT_REG_PMEVTYPER_EL0, reserved_counter),
                                    PMT_EV_INST_RETIRED, t) != PMT_ACCESS_OK ||
                sysreg.write_sysreg(encoding(PMT_REG_PMCNTENSET_EL0),
                                    uint64_t{1} << reserved_counter, t) != PMT_ACCESS_OK)
                violated("the reserved counter could not be set up");
        });
}

uint64_t reserved_count(a64_cpu &cpu)
{
    uint64_t v = 0;
    cpu.debug_access(
        [&](pmtrace::sysreg_if &sysreg, pmtrace::trbe_cpu_if *, const sc_core::sc_time &t) {
            if (sysreg.read_sysreg(encoding(PMT_REG_PMEVCNTR_EL0, reserved_counter), v, t) !=
                PMT_ACCESS_OK)
                violated("the reserved counter could not be read");
        });
    return v;
}

// pmtrace-vp --kernel --trace's session (platform/pmtrace-vp/kernel_trace.cpp), in Fill mode.
void start_trace(a64_cpu &cpu)
{
    with_debug_hal(cpu, [](const hal *h) {
        sw_trbe trbe{};
        sw_ete ete{};
        sw_trbe_buf buf =
            sw_trbe_linux_buf(trace_buffer, trace_buffer, trace_buffer + trace_buffer_size);
        buf.fill_mode = PMT_TRBLIMITR_FM_FILL;
        sw_ete_config c{};
        c.trace_id = 0x10;
        int st = sw_trbe_probe(&trbe, h);
        st = st ? st : sw_trbe_enable(&trbe, &buf);
        st = st ? st : sw_ete_probe(&ete, h);
        st = st ? st : sw_ete_enable(&ete, &c);
        if (st)
            violated("the trace session did not start", static_cast<uint64_t>(-st));
        sw_trbe_write_trfcr(&trbe, sw_ete_trfcr_el1(&c));
    });
}

void run(const uint8_t *data, size_t size)
{
    const uint8_t flags = data[0];
    const unsigned el_field = (flags >> 1) & 3;
    const unsigned entry_el = el_field == 2 ? 2 : 1;
    const bool el0 = el_field == 1;
    const bool mmu = (flags & 1) && entry_el == 1;
    const bool trace = (flags & 8) != 0;
    std::vector<uint8_t> program(data + 1, data + 1 + std::min((size - 1) / 4, max_words) * 4);
    for (unsigned i = 0; i < 4; i++)
        program.push_back(static_cast<uint8_t>(end_of_program >> (8 * i)));

    vp_config c;
    c.cpu_kind = vp_cpu::a64;
    c.ram_size = 0x40'0000;
    c.a64.entry_el = entry_el;
    c.pe.core.ete.feat_ete = trace;
    vp p("vp", c);
    if (!p.load(boot_address, boot_image) || !p.load(program_address, program))
        violated("the images do not fit in RAM");
    a64_cpu &cpu = *p.a64;
    cpu.set_boot_hook([&] {
        reserve_counter(cpu);
        if (trace)
            start_trace(cpu);
    });
    cpu.set_boot(boot_address, 0, (mmu ? 1u : 0u) | (el0 ? 2u : 0u), program_address);
    sc_core::sc_start(run_time);
    if (std::getenv("FUZZ_CPU_VERBOSE")) {
        const a64_cpu_stats &st = cpu.stats();
        std::fprintf(stderr,
                     "fuzz_cpu: end %d (%s), %llu instructions, %llu exceptions, %llu device "
                     "accesses, %s simulated\n",
                     static_cast<int>(cpu.end()), cpu.error().c_str(),
                     static_cast<unsigned long long>(st.instructions),
                     static_cast<unsigned long long>(st.exceptions),
                     static_cast<unsigned long long>(st.device_accesses),
                     sc_core::sc_time_stamp().to_string().c_str());
    }
    if (entry_el == 1 && cpu.end() != a64_cpu_end::error) {
        const uint64_t counted = reserved_count(cpu);
        if (counted != cpu.stats().instructions)
            violated("INST_RETIRED differs from the instructions the CPU retired", counted,
                     cpu.stats().instructions);
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    std::ifstream f(PMTRACE_FUZZ_CPU_BOOT, std::ios::binary);
    boot_image.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (boot_image.empty()) {
        std::fprintf(stderr, "fuzz_cpu: cannot read %s\n", PMTRACE_FUZZ_CPU_BOOT);
        std::exit(1);
    }
    sc_core::sc_report_handler::set_handler(report);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    // A new simulation context for each run (the file's comment).
    auto *context = new sc_core::sc_simcontext;
    sc_core::sc_curr_simcontext = context;
    sc_core::sc_default_global_context = context;
    run(data, size);
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
    delete context;
    return 0;
}
