// bench_a64: the AArch64 CPU's cost over its engine. The program bench/a64/loop.S (10^9
// instructions: a load, ALU and a branch per iteration; a variant with a store) runs
//   engine   on the Unicorn engine with no hooks (a64_engine_hooks::none), nothing accounted;
//   hooked   on the engine with its hooks and a client that only counts the instructions of the
//            blocks (the cost of counting through the engine's block hook);
//   pmu      on the platform (vp with the AArch64 CPU) counting CPU_CYCLES and INST_RETIRED,
//            an overflow interrupt every 10^6 instructions (1000 in all);
//   pmu+mem  as pmu, and MEM_ACCESS and BR_RETIRED counted too;
//   pmu, pmu+mem with a 1 ms quantum (the AArch64 CPU's default is 100 us), the loop variant only;
//   pmu+listen as pmu, with a trace listener attached (a64_trace_listener.h) that only counts
//            its calls: the cost of the CPU's reports to a trace unit (the loop variants);
//   pmu+ete  as pmu, on a PE that has the trace unit (FEAT_ETE), which the program leaves
//            disabled: the CPU's reporter is attached but makes no reports (trace off);
//   pmu+trace as pmu, with the PE's trace unit (FEAT_ETE) tracing the loop into the Trace Buffer
//            Unit in Fill mode (a 9 MiB buffer in RAM, written through DMI): trace on vs pmu;
//            the platform's trace unit buffer (1 KiB) holds the bytes of most reports;
//   pmu+trace/nobatch as pmu+trace with the CPU's reports one range at a time
//            (a64_cpu_config::trace_batch 1, not in batches of 64);
//   pmu+trace/nobuf as pmu+trace without the trace unit buffer (every report with output is
//            made at its time);
//   qemu     QEMU's own figure for the same image (loop only), if qemu-system-aarch64 is found.
// Every case runs in a process of its own (SystemC elaborates once per process), started by this
// one, in turn, --runs times; the program checks its own results and a wrong run fails the
// benchmark. Time is the process's CPU time over the run (the machine is shared); MIPS is the
// loop's 10^9 instructions per second of the best run, and the ratios are of best runs.
//
// The variants: loop (one block), store, blocks2 (the loop cut into two blocks by a B to the next
// instruction: no repeats, a call per block), kernels (compiled C code instead of the loop:
// bench/a64/kernels.c, about 3 x 10^8 instructions of ordinary branches, calls and returns; its
// MIPS is of the instructions the CPU counted in each run, the engine's of the hooked run's count).
//
// bench_a64 [--runs N] [--variant loop|store|blocks2|kernels|both|all] [--quantum-ns N]
//           [--no-qemu]
#include <pmtrace/platform/vp.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace pmtrace::platform;

namespace
{

constexpr uint64_t load_address = 0x4008'0000;
constexpr uint64_t ram_base = 0x4000'0000;
constexpr uint64_t ram_size = 0x100'0000;
constexpr double loop_instructions = 1e9;
constexpr uint64_t psci_system_off = 0x8400'0008;
// The mode word of loop.S (image offset 8).
constexpr size_t mode_offset = 8;
constexpr uint64_t mode_pmu = 1, mode_pmu_mem = 2, mode_uart = 4, mode_no_loop = 8, mode_trace = 16;
// loop.S's re-arm of the INST_RETIRED counter: an overflow every 10^6 instructions counted.
constexpr uint64_t overflow_period = 1'000'000, rearm = (uint64_t{1} << 32) - overflow_period;
// The kernels' instructions the PMU cannot count: before the PMU's enable (loop.S's table, the
// GIC), per interrupt up to the re-arm, after its disable; a bound, a tenth of a period.
constexpr uint64_t kernels_uncounted_bound = overflow_period / 10;

// The variants with loop.S's loop of 10^9 instructions; the other (kernels) counts its own.
bool fixed_count(const std::string &variant)
{
    return variant != "kernels";
}

// The overflow interrupts of a run, checked: the loop's 1000; the kernels', one per 10^6
// instructions counted by PMEVCNTR0 (INST_RETIRED), which counts all the CPU's instructions but
// those it cannot (kernels_uncounted_bound): counted = irqs x 10^6 + the count since the last
// re-arm (loop.S checks it is below 10^6), and counted <= all <= counted + the bound.
bool interrupts_right(const std::string &variant, uint64_t irqs, uint64_t counter0,
                      uint64_t instructions)
{
    if (fixed_count(variant))
        return irqs == 1000;
    uint64_t counted = irqs * overflow_period + ((counter0 - rearm) & 0xffff'ffffu);
    return irqs > 0 && counted <= instructions && instructions - counted <= kernels_uncounted_bound;
}

std::string image_path(const std::string &variant)
{
    return std::string(PMTRACE_BENCH_A64_DIR) + "/" + variant + ".bin";
}

std::vector<uint8_t> image(const std::string &variant, uint64_t mode)
{
    std::ifstream f(image_path(variant), std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
    if (bytes.size() < mode_offset + 8) {
        std::fprintf(stderr, "bench_a64: cannot read %s\n", image_path(variant).c_str());
        std::exit(2);
    }
    std::memcpy(&bytes[mode_offset], &mode, 8);
    return bytes;
}

double cpu_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double wall_seconds()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// A case's result: one line on stdout, read by the parent.
int report(bool ok, double cpu, double wall, const std::string &detail)
{
    std::printf("%s %.6f %.6f %s\n", ok ? "ok" : "FAIL", cpu, wall, detail.c_str());
    return ok ? 0 : 1;
}

// A client that counts instructions and nothing else: the engine's hooks and the least work.
class counting_client : public a64_engine_client
{
  public:
    uint64_t instructions = 0;
    uint64_t on_block(uint64_t, uint32_t size) override
    {
        instructions += size / 4;
        return ~uint64_t{0};
    }
    void on_block_cut(uint64_t) override {}
    a64_sysreg_action on_sysreg(const a64_sysreg_access &, uint64_t &) override
    {
        return a64_sysreg_action::engine;
    }
    bool on_device_access(uint64_t, unsigned, bool, uint64_t &) override { return false; }
    bool on_fetch(uint64_t) override { return false; }
};

int run_engine(const std::string &variant, bool hooks)
{
    std::string error;
    auto engine =
        make_unicorn_engine(error, hooks ? a64_engine_hooks::all : a64_engine_hooks::none);
    if (!engine)
        return report(false, 0, 0, error);
    counting_client client;
    if (hooks)
        engine->set_client(&client);
    std::vector<uint8_t> ram(ram_size + 4096);
    auto *host = reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(ram.data()) + 4095) &
                                             ~uintptr_t{4095});
    if (!engine->map_memory(ram_base, ram_size, host, error))
        return report(false, 0, 0, error);
    std::vector<uint8_t> bytes = image(variant, 0);
    std::memcpy(host + (load_address - ram_base), bytes.data(), bytes.size());
    engine->enter(0x3C5, load_address); // EL1h, DAIF masked
    double c0 = cpu_seconds(), w0 = wall_seconds();
    a64_stop stop = engine->run();
    double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
    bool ok = stop.reason == a64_stop_reason::exception && stop.exception == a64_exception::hvc &&
              engine->x(0) == psci_system_off && engine->x(19) == 0 &&
              (!hooks || !fixed_count(variant) || client.instructions >= 1'000'000'000);
    char detail[160];
    std::snprintf(detail, sizeof detail, "x19=%" PRIu64 " x2=%" PRIu64 " counted=%" PRIu64,
                  engine->x(19), engine->x(2), client.instructions);
    return report(ok, cpu, wall, detail);
}

// A trace listener that counts its calls and the instructions of the ranges it is told.
class counting_listener final : public a64_trace_listener
{
  public:
    uint64_t calls = 0, instructions = 0;
    void on_context(const a64_trace_context &, uint64_t) override { calls++; }
    void on_range(const a64_trace_range &r) override
    {
        calls++;
        instructions += ((r.last - r.start) / 4 + 1) * r.count;
    }
    void on_exception(const a64_trace_exception_taken &e) override
    {
        calls++;
        instructions += (e.preferred_return - e.range_start) / 4;
    }
    void on_end(const a64_trace_end &e) override
    {
        calls++;
        instructions += (e.end - e.start) / 4;
    }
};

// The bytes of trace in loop.S's buffer (0x40600000 to 0x40F00000) at the end: up to TRBPTR_EL1;
// the whole buffer if TRBSR_EL1.WRAP says it filled (Fill mode: the pointer wrapped to the base
// and collection stopped: D24.4 TRBLIMITR_EL1.FM 0b00 and TRBSR_EL1.MSS "Trace buffer filled").
uint64_t trace_bytes(uint64_t mode, uint64_t trbptr, uint64_t trbsr)
{
    constexpr uint64_t base = 0x4060'0000, limit = 0x40F0'0000;
    if (!(mode & mode_trace))
        return 0;
    return (trbsr >> 20) & 1 ? limit - base : trbptr - base;
}

int run_vp(const std::string &variant, uint64_t mode, uint64_t quantum_ns, bool listen = false,
           bool with_ete = false, bool unit_buffer = true,
           unsigned trace_batch = a64_trace_batch_default)
{
    vp_config config;
    config.cpu_kind = vp_cpu::a64;
    config.ram_size = ram_size;
    config.pe.core.ete.feat_ete = with_ete || (mode & mode_trace) != 0;
    if (!unit_buffer)
        config.pe.core.ete.unit_buffer = 0;
    config.a64.trace_batch = trace_batch;
    if (quantum_ns)
        config.a64.quantum = sc_core::sc_time(static_cast<double>(quantum_ns), sc_core::SC_NS);
    vp platform("vp", config);
    if (!platform.load(load_address, image(variant, mode | mode_uart)))
        return report(false, 0, 0, "load");
    platform.a64->set_boot(load_address, 0);
    counting_listener listener;
    if (listen)
        platform.a64->add_trace_listener(&listener);
    double c0 = cpu_seconds(), w0 = wall_seconds();
    sc_core::sc_start();
    double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
    a64_engine &e = platform.a64->engine();
    const a64_cpu_stats &s = platform.a64->stats();
    // With a listener, its ranges account for the instructions retired (but where Unicorn went
    // on without a block hook after a system register access: discontinuities, docs/cpu.md).
    bool ok = platform.a64->end() == a64_cpu_end::system_off && e.x(19) == 0 &&
              interrupts_right(variant, e.x(20), e.x(22), s.instructions) &&
              platform.uart.output() == "bench ok\n";
    char detail[480];
    std::snprintf(detail, sizeof detail,
                  "x19=%" PRIu64 " irqs=%" PRIu64 " insts=%" PRIu64 " syncs=%" PRIu64
                  " cycles=%" PRIu64 " inst_retired=%" PRIu64 " mem_access=%" PRIu64
                  " br_retired=%" PRIu64 " uart=%s listener_calls=%" PRIu64
                  " listener_insts=%" PRIu64 " discontinuities=%" PRIu64 " trace_bytes=%" PRIu64
                  " trbsr=0x%" PRIx64,
                  e.x(19), e.x(20), s.instructions, s.syncs, e.x(21), e.x(22), e.x(23), e.x(24),
                  platform.uart.output() == "bench ok\n" ? "ok" : "wrong", listener.calls,
                  listener.instructions, s.trace_discontinuities,
                  trace_bytes(mode, e.x(25), e.x(26)), (mode & mode_trace) ? e.x(26) : 0);
    return report(ok, cpu, wall, detail);
}

// ---- the parent ---------------------------------------------------------------------------

struct measured {
    bool ok = false;
    double cpu = 0, wall = 0;
    std::string line;
};

// Runs `argv` and returns its CPU time (user + sys, from wait4), wall time and output.
measured spawn(const std::vector<std::string> &argv, bool quiet_stderr = false)
{
    measured m;
    int fd[2];
    if (pipe(fd) != 0)
        return m;
    double w0 = wall_seconds();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        if (quiet_stderr)
            (void)!freopen("/dev/null", "w", stderr);
        close(fd[0]);
        close(fd[1]);
        std::vector<char *> args;
        for (const std::string &a : argv)
            args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    close(fd[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        m.line.append(buf, static_cast<size_t>(n));
    close(fd[0]);
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) < 0)
        return m;
    m.wall = wall_seconds() - w0;
    m.cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return m;
}

// A case of our own in a child process: its own measurement of the run.
measured run_child(const std::string &self, const std::string &which, const std::string &variant,
                   const std::string &quantum)
{
    measured m = spawn({self, "--case", which, "--variant", variant, "--quantum-ns", quantum});
    // The result is the last line (SystemC may print its banner first).
    while (!m.line.empty() && m.line.back() == '\n')
        m.line.pop_back();
    size_t last = m.line.rfind('\n');
    if (last != std::string::npos)
        m.line.erase(0, last + 1);
    double cpu = 0, wall = 0;
    char status[8] = {};
    if (std::sscanf(m.line.c_str(), "%7s %lf %lf", status, &cpu, &wall) != 3 ||
        std::string(status) != "ok")
        m.ok = false;
    m.cpu = cpu;
    m.wall = wall;
    return m;
}

std::string find_qemu()
{
    const char *path = std::getenv("PATH");
    std::string p = path ? path : "";
    size_t start = 0;
    while (start <= p.size()) {
        size_t end = p.find(':', start);
        std::string dir =
            p.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::string f = (dir.empty() ? "." : dir) + "/qemu-system-aarch64";
        if (access(f.c_str(), X_OK) == 0)
            return f;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return "";
}

// QEMU's virt board runs the image (raw, at RAM + 0x80000, entered at EL1 as here); its time
// less the time of the same image without the loop (start-up and exit).
measured run_qemu(const std::string &qemu, const std::string &variant, bool loop)
{
    char file[] = "/tmp/bench_a64_XXXXXX";
    int fd = mkstemp(file);
    measured m;
    if (fd < 0)
        return m;
    std::vector<uint8_t> bytes = image(variant, mode_uart | (loop ? 0 : mode_no_loop));
    bool written = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    close(fd);
    if (written)
        m = spawn({qemu, "-M", "virt,gic-version=3", "-cpu", "cortex-a72", "-m", "128M",
                   "-nographic", "-nodefaults", "-monitor", "none", "-serial", "stdio", "-kernel",
                   file},
                  true);
    unlink(file);
    m.ok = m.ok && m.line.find("bench ok") != std::string::npos;
    return m;
}

// The instructions a child reports (the CPU's "insts=", the hooked engine's "counted="), 0 if none.
double reported_instructions(const std::string &line)
{
    for (const char *key : {" insts=", " counted="}) {
        size_t at = line.find(key);
        if (at != std::string::npos)
            return std::strtod(line.c_str() + at + std::strlen(key), nullptr);
    }
    return 0;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int parent(const std::string &self, int runs, const std::vector<std::string> &variants,
           const std::string &quantum, bool with_qemu)
{
    std::string qemu = with_qemu ? find_qemu() : "";
    // A case: its name, the child's --case, its quantum ("0": the platform's default or
    // --quantum-ns), and whether the store variant runs it too.
    struct bench_case {
        std::string name, which, quantum;
        bool store;
    };
    const std::vector<bench_case> cases = {
        {"engine", "engine", quantum, true},
        {"hooked", "hooked", quantum, true},
        {"pmu", "pmu", quantum, true},
        {"pmu+mem", "pmu+mem", quantum, true},
        {"pmu/1ms", "pmu", "1000000", false},
        {"pmu+mem/1ms", "pmu+mem", "1000000", false},
        {"pmu+listen", "pmu+listen", quantum, false},
        {"pmu+ete", "pmu+ete", quantum, false},
        {"pmu+trace", "pmu+trace", quantum, false},
        {"pmu+trace/nobuf", "pmu+trace/nobuf", quantum, false},
        {"pmu+trace/nobatch", "pmu+trace/nobatch", quantum, false}};
    std::map<std::string, std::vector<double>> cpu; // "variant case" -> CPU seconds per run
    std::map<std::string, double> instructions;     // "variant case" -> the count it reported
    bool all_ok = true;
    std::printf("bench_a64: %d runs, quantum %s ns, qemu: %s\n", runs,
                quantum == "0" ? "default (100000)" : quantum.c_str(),
                qemu.empty() ? "not used" : qemu.c_str());
    for (int r = 0; r < runs; r++) {
        for (const std::string &v : variants) {
            for (const bench_case &c : cases) {
                if (v == "store" && !c.store)
                    continue;
                measured m = run_child(self, c.which, v, c.quantum);
                std::printf("run %d %-7s %-11s cpu %8.3f s wall %8.3f s  %s\n", r + 1, v.c_str(),
                            c.name.c_str(), m.cpu, m.wall, m.line.c_str());
                std::fflush(stdout);
                all_ok = all_ok && m.ok;
                cpu[v + " " + c.name].push_back(m.cpu);
                instructions[v + " " + c.name] = reported_instructions(m.line);
            }
            if (!qemu.empty()) {
                measured full = run_qemu(qemu, v, true), empty = run_qemu(qemu, v, false);
                double t = full.cpu - empty.cpu;
                std::printf("run %d %-7s %-11s cpu %8.3f s (%.3f - %.3f start-up) wall %.3f s %s\n",
                            r + 1, v.c_str(), "qemu", t, full.cpu, empty.cpu, full.wall,
                            full.ok && empty.ok ? "ok" : "FAIL");
                std::fflush(stdout);
                all_ok = all_ok && full.ok && empty.ok;
                cpu[v + " qemu"].push_back(t);
            }
        }
    }
    // Noise on a shared machine only adds time: MIPS and ratios from the best run of each case;
    // and the median of the ratios within a run (the cases of one run ran back to back).
    std::printf("\n%d runs; MIPS: 10^9 loop instructions (kernels: the instructions the case "
                "counted; engine: hooked's) per CPU second of the best run\n",
                runs);
    std::printf("%-7s %-11s %10s %10s %8s %10s %10s %12s\n", "loop", "case", "median s", "best s",
                "MIPS", "/ engine", "per run", "insts");
    for (const std::string &v : variants) {
        const std::vector<double> &engine = cpu[v + " engine"];
        double base = engine.empty() ? 0 : *std::min_element(engine.begin(), engine.end());
        std::vector<std::string> rows;
        for (const bench_case &c : cases)
            if (v != "store" || c.store)
                rows.push_back(c.name);
        if (!qemu.empty())
            rows.push_back("qemu");
        for (const std::string &c : rows) {
            const std::vector<double> &all = cpu[v + " " + c];
            double t = median(all);
            double least = all.empty() ? 0 : *std::min_element(all.begin(), all.end());
            std::vector<double> ratios;
            for (size_t r = 0; r < all.size() && r < engine.size(); r++)
                if (all[r] > 0)
                    ratios.push_back(engine[r] / all[r]);
            // The kernels count their instructions (deterministic: the same in every run of a
            // case); the engine without hooks and QEMU count none: the hooked engine's count.
            double n = loop_instructions;
            if (!fixed_count(v))
                n = instructions[v + " " +
                                 (c == "engine" || c == "qemu" ? std::string("hooked") : c)];
            std::printf("%-7s %-11s %10.3f %10.3f %8.0f %9.1f%% %9.1f%% %12.0f\n", v.c_str(),
                        c.c_str(), t, least, least > 0 ? n / least / 1e6 : 0,
                        least > 0 ? 100 * base / least : 0, 100 * median(ratios), n);
        }
    }
    if (!all_ok)
        std::printf("\nbench_a64: FAILED (a run ended wrong: see above)\n");
    return all_ok ? 0 : 1;
}

} // namespace

int sc_main(int argc, char *argv[])
{
    std::string which, quantum = "0";
    std::vector<std::string> variants = {"loop", "store"};
    int runs = 3;
    bool with_qemu = true;
    const char *usage = "bench_a64 [--runs N] [--variant loop|store|blocks2|kernels|both|all] "
                        "[--quantum-ns N] [--no-qemu]";
    // A number of digits (the runs, the quantum in ns).
    auto number = [](const std::string &v) {
        return !v.empty() && v.size() <= 18 &&
               v.find_first_not_of("0123456789") == std::string::npos;
    };
    auto variant_name = [](const std::string &v) {
        for (const char *name : {"loop", "store", "blocks2", "kernels", "both", "all"})
            if (v == name)
                return true;
        return false;
    };
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--help" || a == "-h") {
            std::printf("usage: %s\n", usage);
            return 0;
        } else if (a == "--case" && has_value) {
            which = argv[++i];
        } else if (a == "--variant" && has_value && variant_name(argv[i + 1])) {
            std::string v = argv[++i];
            variants = v == "both" ? std::vector<std::string>{"loop", "store"}
                       : v == "all"
                           ? std::vector<std::string>{"loop", "store", "blocks2", "kernels"}
                           : std::vector<std::string>{v};
        } else if (a == "--runs" && has_value && number(argv[i + 1])) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--quantum-ns" && has_value && number(argv[i + 1])) {
            quantum = argv[++i];
        } else if (a == "--no-qemu") {
            with_qemu = false;
        } else {
            std::fprintf(stderr,
                         "bench_a64: '%s': not an option of it, or its value is missing or "
                         "wrong\nusage: %s\n",
                         a.c_str(), usage);
            return 2;
        }
    }
    if (which.empty())
        return parent("/proc/self/exe", runs, variants, quantum, with_qemu);
    const std::string &v = variants.front();
    uint64_t q = std::strtoull(quantum.c_str(), nullptr, 10);
    if (which == "engine")
        return run_engine(v, false);
    if (which == "hooked")
        return run_engine(v, true);
    if (which == "pmu")
        return run_vp(v, mode_pmu, q);
    if (which == "pmu+mem")
        return run_vp(v, mode_pmu_mem, q);
    if (which == "pmu+listen")
        return run_vp(v, mode_pmu, q, true);
    if (which == "pmu+ete")
        return run_vp(v, mode_pmu, q, false, true);
    if (which == "pmu+trace")
        return run_vp(v, mode_pmu | mode_trace, q);
    if (which == "pmu+trace/nobuf")
        return run_vp(v, mode_pmu | mode_trace, q, false, false, false);
    if (which == "pmu+trace/nobatch")
        return run_vp(v, mode_pmu | mode_trace, q, false, false, true, 1);
    std::fprintf(stderr, "bench_a64: unknown case %s\n", which.c_str());
    return 2;
}
