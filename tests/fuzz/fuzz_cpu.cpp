// fuzz_cpu.cpp - harness (7): short A64 programs on the platform's AArch64 CPU (issue 27). Each
// input is one run of the reference platform (vp.h) with the AArch64 CPU: cpu/boot.S sets up the
// input's Exception level, MMU and self-hosted debug, clears x0..x25 and enters the program; its
// vectors take every exception and go on after it (a Software Step exception steps on), and SVC
// #0xF0F0 (which the harness places after the program) ends the run with PSCI SYSTEM_OFF. A run
// is bounded by simulated time (run_time: at 1 ns an instruction, 20,000 instructions; an
// exception between EL0 and EL1 with the MMU on costs the engine about 60 us of host time, 1 ms
// under ASan, so a run of exceptions is bounded to a few seconds) and by the CPU's progress guard.
//
// An input: byte 0 the flags, then the program, 4 bytes an instruction (little-endian, at most
// max_words; a partial last word is dropped):
//   bit 0: the MMU on (EL1, EL0 and EL1-under-EL2 runs; boot.S's tables);
//   bits 1-2: the Exception level: 0 EL1, 1 EL0 (entered at EL1, an ERET to EL0), 2 EL2 (the
//             image entered at EL2, as QEMU's virtualization=on), 3 EL1 under EL2 (the image
//             entered at EL2, an ERET to EL1; EL2's vectors take what is routed or trapped there);
//   bit 3: a trace session: the PE's ETE and its Trace Buffer Unit enabled at boot as
//          pmtrace-vp --kernel --trace does (the sw/ drivers' perf sequences, Fill mode, 64 KiB at
//          0x40300000), so the CPU reports every range to the trace unit;
//   bit 4: self-hosted debug (issue 36): the OS Lock unlocked, MDSCR_EL1.MDE and KDE, and the
//          program entered with PSTATE.D clear, so breakpoints, watchpoints and software step
//          the program programs are generated at its own level too;
//   bit 5: as bit 4, and software step from the program's first instruction (MDSCR_EL1.SS,
//          SPSR.SS): each instruction a Software Step exception, the handler stepping on;
//   bit 6: a Breakpoint or Watchpoint exception stepped over as a debugger does (MDE off, one
//          step, MDE back) rather than passed over (ELR + 4);
//   bit 7: entered at EL2 (bits 1-2 2 or 3): MDCR_EL2.TDE at boot.
// boot.S says what each bit makes it do.
//
// The mutator is libFuzzer's, and one time in three one of the harness's own (mutate_debug):
// a flag bit 4..7 flipped, or a word of the program replaced by, or an instruction or a short
// sequence inserted of, what self-hosted debug is programmed with: MSR and MRS of the debug
// registers (DBGBVR/BCR/WVR/WCR<n>_EL1 for any n, MDSCR_EL1, the OS Lock registers, MDCR_EL2,
// the debug communication channel and claim registers, any op0 0b10 encoding), a breakpoint or
// watchpoint armed on an instruction of the program or a stack address with any control value,
// BRK, HLT, DCPS, DRPS, ERET to EL0 or EL1 with or without SPSR.SS, PSTATE.D cleared or set.
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
//   - in EL1 and EL0 runs (entered at EL1) the PMU's INST_RETIRED equals what the CPU says it
//     retired: event counter 5, which MDCR_EL2.HPMN = 5 reserves for EL2 (the program cannot
//     reach it), counts INST_RETIRED at EL0 and EL1 from the first instruction; at the end it
//     holds a64_cpu_stats::instructions. (Runs entered at EL2 retire instructions at EL2, which
//     the counter does not count.)
//
// FUZZ_STATS=1 prints at exit what the runs reached (their ends, the debug exceptions taken,
// how many runs had INST_RETIRED checked); FUZZ_CPU_VERBOSE=1 prints each run's end and
// counts; FUZZ_CPU_LOG=FILE writes the CPU's
// execution log (a64_exec_log: the ranges retired, each exception with its preferred return) of
// the last run to FILE, to see by hand what retired around a debug exception.
#include <pmtrace/platform/cpu/a64_debug_hal.h>
#include <pmtrace/platform/vp.h>

#include "drivers/ete/ete.h"
#include "drivers/trbe/trbe.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
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

// FUZZ_STATS=1: what the runs reached, printed at exit. The exceptions are counted by a trace
// listener (a64_trace_listener::on_exception), attached only then: it puts the CPU on its
// tracing path, so the statistics are for replays of a corpus (-runs=0), not for fuzzing.
struct statistics {
    uint64_t runs = 0, debug_runs = 0, step_runs = 0, guest_runs = 0;
    uint64_t system_off = 0, out_of_time = 0, cpu_error = 0, inst_retired_checked = 0;
    // Exceptions by ESR_ELx.EC: Breakpoint, Software Step, Watchpoint (either level), BRK, a
    // trapped System register access; and the runs that took at least one of each.
    uint64_t breakpoint = 0, step = 0, watchpoint = 0, brk = 0, trapped = 0, other = 0;
    uint64_t runs_breakpoint = 0, runs_step = 0, runs_watchpoint = 0, runs_brk = 0;
};
statistics stats;
bool stats_on = false;

class exception_counter final : public a64_trace_listener
{
  public:
    uint64_t breakpoint = 0, step = 0, watchpoint = 0, brk = 0, trapped = 0, other = 0;
    void on_context(const a64_trace_context &, uint64_t) override {}
    void on_range(const a64_trace_range &) override {}
    void on_end(const a64_trace_end &) override {}
    void on_exception(const a64_trace_exception_taken &e) override
    {
        if (e.ec == 0x30 || e.ec == 0x31)
            breakpoint++;
        else if (e.ec == 0x32 || e.ec == 0x33)
            step++;
        else if (e.ec == 0x34 || e.ec == 0x35)
            watchpoint++;
        else if (e.ec == 0x3C)
            brk++;
        else if (e.ec == 0x18)
            trapped++;
        else
            other++;
    }
};

void print_statistics()
{
    const statistics &t = stats;
    std::fprintf(stderr,
                 "fuzz_cpu stats: %" PRIu64 " runs (%" PRIu64 " with self-hosted debug at boot, "
                 "%" PRIu64 " of them stepped from the start; %" PRIu64 " EL1 under EL2); ends: "
                 "%" PRIu64 " SYSTEM_OFF, %" PRIu64 " out of time, %" PRIu64 " CPU errors; "
                 "INST_RETIRED checked in %" PRIu64 "\n",
                 t.runs, t.debug_runs, t.step_runs, t.guest_runs, t.system_off, t.out_of_time,
                 t.cpu_error, t.inst_retired_checked);
    std::fprintf(stderr,
                 "  exceptions: %" PRIu64 " Breakpoint, %" PRIu64 " Software Step, %" PRIu64
                 " Watchpoint, %" PRIu64 " BRK, %" PRIu64 " trapped System register accesses, "
                 "%" PRIu64 " other\n"
                 "  runs with a Breakpoint exception %" PRIu64 ", Software Step %" PRIu64
                 ", Watchpoint %" PRIu64 ", BRK %" PRIu64 "\n",
                 t.breakpoint, t.step, t.watchpoint, t.brk, t.trapped, t.other, t.runs_breakpoint,
                 t.runs_step, t.runs_watchpoint, t.runs_brk);
}

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
    const unsigned entry_el = el_field >= 2 ? 2 : 1;
    const bool el0 = el_field == 1;
    const bool guest = el_field == 3; // EL1 under EL2
    const bool mmu = (flags & 1) && (entry_el == 1 || guest);
    const bool trace = (flags & 8) != 0;
    const char *log_path = std::getenv("FUZZ_CPU_LOG");
    std::vector<uint8_t> program(data + 1, data + 1 + std::min((size - 1) / 4, max_words) * 4);
    for (unsigned i = 0; i < 4; i++)
        program.push_back(static_cast<uint8_t>(end_of_program >> (8 * i)));

    vp_config c;
    c.cpu_kind = vp_cpu::a64;
    c.ram_size = 0x40'0000;
    c.a64.entry_el = entry_el;
    c.a64.exec_log = log_path != nullptr;
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
    // boot.S's x1: bit 0 the MMU, bit 1 EL0, bit 2 EL1 under EL2, bits 4-7 as the input's.
    const uint64_t boot_flags = (mmu ? 1u : 0u) | (el0 ? 2u : 0u) | (guest ? 4u : 0u) |
                                (flags & 0x70u) | (entry_el == 2 ? flags & 0x80u : 0u);
    cpu.set_boot(boot_address, 0, boot_flags, program_address);
    exception_counter counter;
    if (stats_on)
        cpu.add_trace_listener(&counter);
    sc_core::sc_start(run_time);
    if (log_path && cpu.exec_log() && !cpu.exec_log()->write(log_path))
        std::fprintf(stderr, "fuzz_cpu: cannot write %s\n", log_path);
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
        stats.inst_retired_checked++;
    }
    if (stats_on) {
        statistics &t = stats;
        t.runs++;
        t.debug_runs += (flags & 0x30) != 0;
        t.step_runs += (flags & 0x20) != 0;
        t.guest_runs += guest;
        t.system_off += cpu.end() == a64_cpu_end::system_off;
        t.out_of_time += cpu.end() == a64_cpu_end::running;
        t.cpu_error += cpu.end() == a64_cpu_end::error;
        t.breakpoint += counter.breakpoint;
        t.step += counter.step;
        t.watchpoint += counter.watchpoint;
        t.brk += counter.brk;
        t.trapped += counter.trapped;
        t.other += counter.other;
        t.runs_breakpoint += counter.breakpoint != 0;
        t.runs_step += counter.step != 0;
        t.runs_watchpoint += counter.watchpoint != 0;
        t.runs_brk += counter.brk != 0;
    }
}

// ---- the harness's mutations (self-hosted debug) ----------------------------------------------

// A64 encodings (Arm ARM C6).
uint32_t sysreg_insn(bool read, unsigned op0, unsigned op1, unsigned crn, unsigned crm,
                     unsigned op2, unsigned rt)
{
    return 0xD5000000u | (read ? 1u << 21 : 0u) | op0 << 19 | op1 << 16 | crn << 12 | crm << 8 |
           op2 << 5 | rt;
}
uint32_t movz(unsigned d, uint32_t imm16, unsigned hw = 0)
{
    return 0xD2800000u | hw << 21 | (imm16 & 0xFFFF) << 5 | d;
}
uint32_t movk(unsigned d, uint32_t imm16, unsigned hw)
{
    return 0xF2800000u | hw << 21 | (imm16 & 0xFFFF) << 5 | d;
}
uint32_t adr(unsigned d, int32_t offset)
{
    const uint32_t imm = static_cast<uint32_t>(offset);
    return 0x10000000u | (imm & 3) << 29 | ((imm >> 2) & 0x7FFFF) << 5 | d;
}
constexpr uint32_t isb = 0xD5033FDF, eret = 0xD69F03E0;
constexpr uint32_t mov_from_sp = 0x910003E0; // ADD Xd, SP, #0

// The registers around self-hosted debug a program may touch (op0, op1, CRn, CRm, op2):
// MDSCR_EL1, the OS Lock registers (OSLAR, OSLSR, OSDLR, DBGPRCR), the debug communication
// channel, OSECCR, MDRAR, the claim tags, DBGAUTHSTATUS, DBGVCR32_EL2, MDCR_EL2, MDCR_EL3,
// CONTEXTIDR_EL1 (Context ID breakpoints), SPSR and ELR of EL1 and EL2, HCR_EL2, DSPSR_EL0 and
// DLR_EL0 (Debug state only). DBG{B,W}{V,C}R<n>_EL1 are made apart.
constexpr uint8_t debug_regs[][5] = {
    {2, 0, 0, 2, 2}, {2, 0, 1, 0, 4}, {2, 0, 1, 1, 4},  {2, 0, 1, 3, 4}, {2, 0, 1, 4, 4},
    {2, 0, 0, 2, 0}, {2, 0, 0, 0, 2}, {2, 0, 0, 3, 2},  {2, 0, 0, 6, 2}, {2, 0, 1, 0, 0},
    {2, 0, 7, 8, 6}, {2, 0, 7, 9, 6}, {2, 0, 7, 14, 6}, {2, 3, 0, 1, 0}, {2, 3, 0, 4, 0},
    {2, 3, 0, 5, 0}, {2, 4, 0, 7, 0}, {3, 4, 1, 1, 1},  {3, 6, 1, 3, 1}, {3, 0, 13, 0, 1},
    {3, 0, 4, 0, 0}, {3, 0, 4, 0, 1}, {3, 4, 4, 0, 0},  {3, 4, 4, 0, 1}, {3, 4, 1, 1, 0},
    {3, 3, 4, 5, 0}, {3, 3, 4, 5, 1},
};

struct rng {
    std::minstd_rand r;
    explicit rng(unsigned seed) : r(seed) {}
    unsigned operator()(unsigned n) { return static_cast<unsigned>(r() % n); }
};

// A DBGBCR<n>_EL1 value: half the time one software uses (0x1E7: BAS 0b1111, PMC 0b11 (EL1 and
// EL0), E; 0x1E5 EL0, 0x1E3 EL1, disabled ones), else any BT, LBN, SSC, HMC, BAS, PMC, E mostly
// set.
uint32_t bcr_value(rng &r)
{
    static const uint32_t common[] = {0x1E7, 0x1E5, 0x1E3, 0x1E1, 0x0, 0x1E6};
    if (r(2))
        return common[r(6)];
    return r(16) << 20 | r(16) << 16 | r(4) << 14 | r(2) << 13 | r(16) << 5 | r(4) << 1 |
           (r(4) != 0);
}
// A DBGWCR<n>_EL1 value: BAS 0xFF with LSC load, store or both, or any MASK, WT, LBN, SSC,
// HMC, BAS, LSC, PAC.
uint32_t wcr_value(rng &r)
{
    if (r(2))
        return 0x1FE1 | (1 + r(3)) << 3 | r(4) << 1;
    return r(32) << 24 | r(2) << 20 | r(16) << 16 | r(4) << 14 | r(2) << 13 | r(256) << 5 |
           r(4) << 3 | r(4) << 1 | (r(4) != 0);
}
void put_value(std::vector<uint32_t> &out, unsigned d, uint32_t v)
{
    out.push_back(movz(d, v & 0xFFFF));
    if (v >> 16)
        out.push_back(movk(d, v >> 16, 1));
}

// One instruction or a short sequence of them (in program order).
std::vector<uint32_t> debug_sequence(rng &r)
{
    std::vector<uint32_t> out;
    const unsigned t = r(26); // x0..x25: boot.S's handlers use x26..x28
    const unsigned n = r(4) ? r(6) : r(16);
    switch (r(12)) {
    case 0: { // a breakpoint on an instruction a few ahead (or on boot.S's handlers)
        if (r(4))
            out.push_back(adr(t, 4 * static_cast<int32_t>(8 + r(24))));
        else
            out.push_back(movz(t, 0x4008, 1)), out.push_back(movk(t, 4 * r(0x100), 0));
        out.push_back(sysreg_insn(false, 2, 0, 0, n, 4, t));
        put_value(out, t, bcr_value(r));
        out.push_back(sysreg_insn(false, 2, 0, 0, n, 5, t));
        out.push_back(isb);
        break;
    }
    case 1: { // a watchpoint on the stack or on the program, then an access there
        out.push_back(r(2) ? mov_from_sp | t : adr(t, 8 * static_cast<int32_t>(r(16))));
        out.push_back(sysreg_insn(false, 2, 0, 0, n % 4, 6, t));
        const unsigned v = (t + 1) % 26;
        put_value(out, v, wcr_value(r));
        out.push_back(sysreg_insn(false, 2, 0, 0, n % 4, 7, v));
        out.push_back(isb);
        const uint32_t at = r(8) << 10 | t << 5 | v;
        out.push_back((r(2) ? 0xF9000000u : 0xF9400000u) | at); // STR or LDR Xv, [Xt, #8k]
        break;
    }
    case 2: { // MDSCR_EL1
        static const uint32_t values[] = {0xA000, 0xA001, 0x8000, 0x2000, 0x0, 0x1, 0x8001};
        put_value(out, t, r(4) ? values[r(7)] : static_cast<uint32_t>(r(0x10000)));
        out.push_back(sysreg_insn(false, 2, 0, 0, 2, 2, t));
        break;
    }
    case 3: // the OS Lock or the OS Double Lock, locked or unlocked
        out.push_back(movz(t, r(2)));
        out.push_back(sysreg_insn(false, 2, 0, 1, r(2) ? 0 : 3, 4, t));
        out.push_back(isb);
        break;
    case 4: { // an ERET to a few instructions ahead: EL0t or EL1h, D and SS as chosen
        const bool el2 = r(4) == 0;
        static const uint32_t modes[] = {0x0, 0x1C5, 0x3C5, 0x5, 0x1C4, 0x1C9};
        uint32_t spsr = modes[r(6)] | (r(2) ? 1u << 21 : 0u);
        out.push_back(adr(t, 4 * static_cast<int32_t>(6 + r(4))));
        out.push_back(sysreg_insn(false, 3, el2 ? 4 : 0, 4, 0, 1, t)); // ELR_ELx
        put_value(out, t, spsr);
        out.push_back(sysreg_insn(false, 3, el2 ? 4 : 0, 4, 0, 0, t)); // SPSR_ELx
        out.push_back(eret);
        break;
    }
    case 5: // PSTATE.D cleared or set (DAIFClr, DAIFSet #8), or any DAIF bits
        out.push_back((r(2) ? 0xD50340FFu : 0xD50340DFu) | (r(2) ? 8u : r(16)) << 8);
        break;
    case 6: { // BRK, HLT, DCPS1..3, DRPS
        const uint32_t imm = r(2) ? r(16) : r(0x10000);
        static const uint32_t ops[] = {0xD4200000, 0xD4400000, 0xD4A00001, 0xD4A00002, 0xD4A00003};
        out.push_back(r(6) ? ops[r(5)] | imm << 5 : 0xD6BF03E0);
        break;
    }
    case 7: // MDCR_EL2.TDE or TDA set or cleared, the rest kept
        out.push_back(sysreg_insn(true, 3, 4, 1, 1, 1, t));
        // ORR or AND (TDE, else TDA): the immediates of bit 8, else bit 9
        out.push_back(((r(2) ? 0xB2780000u : 0x9277F800u) - (r(2) ? 0u : 1u << 16)) | t << 5 | t);
        out.push_back(sysreg_insn(false, 3, 4, 1, 1, 1, t));
        break;
    case 8: // a breakpoint or watchpoint register read or written, any n, any value
        if (r(2))
            put_value(out, t, r(2) ? bcr_value(r) : wcr_value(r));
        out.push_back(sysreg_insn(r(2), 2, 0, 0, r(16), 4 + r(4), t));
        break;
    case 9: { // one of the other debug registers read or written
        const uint8_t *e = debug_regs[r(std::size(debug_regs))];
        out.push_back(sysreg_insn(r(2), e[0], e[1], e[2], e[3], e[4], t));
        break;
    }
    case 10: // any op0 0b10 encoding
        out.push_back(sysreg_insn(r(2), 2, r(8), r(16), r(16), r(8), t));
        break;
    default: // every DBGBCR0_EL1.BT value (with BAS 0b1111, PMC 0b11, E) on the NOP in a loop
        // ADR t, nop; MOV x24, #0; loop: MSR DBGBVR0_EL1, t; LSL x25, x24, #20;
        // MOVK x25, #0x1E7; MSR DBGBCR0_EL1, x25; ISB; nop: NOP; ADD x24, x24, #1;
        // CMP x24, #16; B.NE loop
        out = {adr(t % 24, 7 * 4),
               movz(24, 0),
               sysreg_insn(false, 2, 0, 0, 0, 4, t % 24),
               0xD36CAF19,
               movk(25, 0x1E7, 0),
               sysreg_insn(false, 2, 0, 0, 0, 5, 25),
               isb,
               0xD503201F,
               0x91000718,
               0xF100431F,
               0x54000001u | ((0u - 8u) & 0x7FFFF) << 5};
        break;
    }
    return out;
}

size_t mutate_debug(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    rng r(seed);
    if (r(8) == 0) { // a flag bit
        data[0] ^= static_cast<uint8_t>(0x10u << r(4));
        return size;
    }
    const size_t words = (size - 1) / 4, room = (max_size - 1) / 4;
    std::vector<uint32_t> program(words);
    std::memcpy(program.data(), data + 1, words * 4);
    std::vector<uint32_t> seq = debug_sequence(r);
    const size_t at = r(static_cast<unsigned>(words + 1));
    if (r(3) == 0 && seq.size() == 1 && at < words)
        program[at] = seq[0];
    else
        program.insert(program.begin() + static_cast<ptrdiff_t>(at), seq.begin(), seq.end());
    program.resize(std::min({program.size(), room, max_words}));
    std::memcpy(data + 1, program.data(), program.size() * 4);
    return 1 + program.size() * 4;
}

} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                                          unsigned int seed)
{
    if (size >= 1 && max_size >= 5 && seed % 3 == 0)
        return mutate_debug(data, size, max_size, seed / 3);
    return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    std::ifstream f(PMTRACE_FUZZ_CPU_BOOT, std::ios::binary);
    boot_image.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (boot_image.empty()) {
        std::fprintf(stderr, "fuzz_cpu: cannot read %s\n", PMTRACE_FUZZ_CPU_BOOT);
        std::exit(1);
    }
    sc_core::sc_report_handler::set_handler(report);
    const char *st = std::getenv("FUZZ_STATS");
    stats_on = st && *st && std::strcmp(st, "0") != 0;
    if (stats_on)
        std::atexit(print_statistics);
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
