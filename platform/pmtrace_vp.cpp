// pmtrace-vp - the executable a user runs first.
//
// Today it runs the PMU core on a synthetic workload the way a driver would: it programs the
// counters through system registers (the Linux arm_pmuv3 sequence), samples on overflow
// interrupts with a handler that reads and clears PMOVSCLR_EL0 and re-arms the counter, and
// prints a summary in the shape of `perf stat`. The SystemC platform replaces the workload
// with a CPU, a GIC and memory.
#include <pmtrace/pmtrace.h>

#include <boost/program_options.hpp>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace
{

struct Options {
    uint64_t iterations = 1000000;
    unsigned counters = 6;
    uint64_t period = 10000000;
};

// One iteration of the synthetic loop: how many of each event it generates.
struct Mix {
    uint16_t event;
    uint64_t per_iteration;
};
const Mix workload[] = {
    {PMT_EV_CPU_CYCLES, 1300},       {PMT_EV_INST_RETIRED, 1000}, {PMT_EV_BR_RETIRED, 200},
    {PMT_EV_BR_MIS_PRED_RETIRED, 7}, {PMT_EV_L1D_CACHE, 300},     {PMT_EV_L1D_CACHE_REFILL, 12},
};

struct Vp {
    pmt_pe *pe = nullptr;
    bool irq = false;
    uint64_t interrupts = 0;

    pmt_access write(pmt_reg_id id, uint64_t v, unsigned n = 0)
    {
        return pmt_pe_sysreg_write(pe, pmt_sysreg_encode({id, n}), v);
    }
    uint64_t read(pmt_reg_id id, unsigned n = 0)
    {
        uint64_t v = 0;
        pmt_pe_sysreg_read(pe, pmt_sysreg_encode({id, n}), &v);
        return v;
    }
};

std::string grouped(uint64_t v)
{
    std::string s = std::to_string(v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<size_t>(i), ",");
    return s;
}

int run(const Options &opt)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.num_counters = opt.counters;
    cfg.common_events[0] = ~uint64_t{0};
    pmt_pe_callbacks cb{};
    Vp vp;
    cb.user = &vp;
    cb.pmuirq = [](void *u, bool level) { static_cast<Vp *>(u)->irq = level; };
    cb.log = [](void *, const char *m) { std::fprintf(stderr, "pmtrace: %s\n", m); };
    vp.pe = pmt_pe_create(&cfg, &cb);
    if (!vp.pe)
        return 2;

    // The kernel runs at Non-secure EL1 with EL2 enabled.
    pmt_pe_state el1{};
    el1.el = 1;
    el1.ss = PMT_SS_NONSECURE;
    el1.el2_enabled = true;
    pmt_pe_set_state(vp.pe, &el1);

    // arm_pmuv3 reset: disable and clear everything, then PMCR = P | C | LC | LP.
    vp.write(PMT_REG_PMCNTENCLR_EL0, ~uint64_t{0});
    vp.write(PMT_REG_PMINTENCLR_EL1, ~uint64_t{0});
    vp.write(PMT_REG_PMOVSCLR_EL0, ~uint64_t{0});
    const uint64_t pmcr =
        PMT_MASK(PMCR, P) | PMT_MASK(PMCR, C) | PMT_MASK(PMCR, LC) | PMT_MASK(PMCR, LP);
    vp.write(PMT_REG_PMCR_EL0, pmcr);

    // Counter 0 samples CPU_CYCLES every `period` events (64-bit counter, LP=1); the others
    // count the workload's events.
    const unsigned used = opt.counters < 6 ? opt.counters : 6;
    for (unsigned n = 0; n < used; n++) {
        vp.write(PMT_REG_PMEVTYPER_EL0, workload[n].event, n);
        vp.write(PMT_REG_PMEVCNTR_EL0, n == 0 ? uint64_t{0} - opt.period : 0, n);
    }
    vp.write(PMT_REG_PMINTENSET_EL1, 1);
    vp.write(PMT_REG_PMCNTENSET_EL0, ((uint64_t{1} << used) - 1) | (uint64_t{1} << 31));
    // Start as armv8pmu_start does: read-modify-write, P and C read as zero.
    vp.write(PMT_REG_PMCR_EL0, vp.read(PMT_REG_PMCR_EL0) | PMT_MASK(PMCR, E));

    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < opt.iterations; i++) {
        for (const Mix &m : workload)
            pmt_pmu_count(vp.pe, m.event, m.per_iteration);
        if (vp.irq) { // the overflow handler: read, clear, re-arm
            uint64_t ovs = vp.read(PMT_REG_PMOVSCLR_EL0);
            vp.write(PMT_REG_PMOVSCLR_EL0, ovs);
            if (ovs & 1) {
                uint64_t now = vp.read(PMT_REG_PMEVCNTR_EL0, 0);
                vp.write(PMT_REG_PMEVCNTR_EL0, now - opt.period, 0);
                vp.interrupts++;
            }
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    vp.write(PMT_REG_PMCR_EL0, vp.read(PMT_REG_PMCR_EL0) & ~PMT_MASK(PMCR, E)); // stop

    std::vector<uint64_t> counts(used);
    for (unsigned n = 1; n < used; n++)
        counts[n] = vp.read(PMT_REG_PMEVCNTR_EL0, n);
    uint64_t cycles = vp.read(PMT_REG_PMCCNTR_EL0);

    std::printf("\n Performance counter stats for 'synthetic loop' (pmtrace core, %u counters, "
                "FEAT_PMUv3p7):\n\n",
                opt.counters);
    std::printf("%20s      %-24s (PMCCNTR_EL0)\n", grouped(cycles).c_str(), "cycles");
    for (unsigned n = 1; n < used; n++) {
        const pmt_event_info *ev = pmt_event_lookup(workload[n].event);
        std::printf("%20s      %-24s (PMEVCNTR%u_EL0)", grouped(counts[n]).c_str(),
                    ev ? ev->name : "?", n);
        if (workload[n].event == PMT_EV_INST_RETIRED && cycles)
            std::printf("  # %5.2f insn per cycle", double(counts[n]) / double(cycles));
        if (workload[n].event == PMT_EV_BR_MIS_PRED_RETIRED && counts[2])
            std::printf("  # %5.2f%% of all branches",
                        100.0 * double(counts[n]) / double(counts[2]));
        std::printf("\n");
    }
    std::printf("%20s      %-24s (PMUIRQ, every %s cycles on PMEVCNTR0_EL0)\n",
                grouped(vp.interrupts).c_str(), "overflow interrupts", grouped(opt.period).c_str());
    uint64_t calls = opt.iterations * (sizeof workload / sizeof workload[0]);
    std::printf("\n%20.3f seconds host time, %.1f million count calls per second\n\n", secs,
                secs > 0 ? double(calls) / secs / 1e6 : 0.0);
    pmt_pe_destroy(vp.pe);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    po::options_description desc("pmtrace-vp: run the Arm PMU model on a workload and report "
                                 "what it counted.\nOptions");
    desc.add_options()("help,h", "show this help")(
        "iterations,i", po::value(&opt.iterations)->default_value(opt.iterations),
        "loop iterations of the synthetic workload (1000 instructions each)")(
        "counters,n", po::value(&opt.counters)->default_value(opt.counters),
        "event counters the PMU implements (PMCR_EL0.N, 1..31)")(
        "period,p", po::value(&opt.period)->default_value(opt.period),
        "sampling period in cycles for the overflow interrupt");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        std::cerr << "pmtrace-vp: " << e.what() << "\n\n" << desc << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    if (opt.counters < 1 || opt.counters > 31 || opt.period == 0) {
        std::cerr << "pmtrace-vp: --counters must be 1..31 and --period at least 1\n";
        return 2;
    }
    return run(opt);
}
