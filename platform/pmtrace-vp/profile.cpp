// profile.cpp - PMU interrupts as perf samples (profile.h).
#include "profile.h"

#include "a64_scenario.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/bus/memory_map.h>

#include <filesystem>
#include <ostream>

namespace pmtrace::vp_cli
{

pmu_profile::pmu_profile(const options &o, platform::vp &vp) : o_(o)
{
    if (o.perf_data.empty() || !vp.a64)
        return;
    platform::a64_cpu *cpu = vp.a64.get();
    platform::gic_cpu_interface *icc = &vp.gic.cpu(0);
    // perf's period 1 where the periods are the image's own: each sample counts once.
    const uint64_t period = records() ? o.period : 1;
    cpu->set_irq_observer([this, cpu, icc, period](uint64_t pc, unsigned el) {
        if (icc->hppir1() != platform::virt::pmu_intid)
            return;
        // The CPU's time: SystemC's plus its local offset (temporal decoupling).
        const uint64_t ns = static_cast<uint64_t>(cpu->local_time().to_seconds() * 1e9 + 0.5);
        samples_.push_back({pc, el, ns, period});
    });
}

bool pmu_profile::records() const
{
    return o_.kernel.empty() && o_.scenario == scenario::record;
}

int pmu_profile::write(std::ostream &err) const
{
    if (o_.perf_data.empty())
        return exit_ok;
    platform::perf_data_config c;
    std::string elf = o_.kernel.empty() ? scenario_elf_path() : o_.kernel;
    std::string error;
    if (elf.empty())
        err << "pmtrace-vp: --perf-data: the scenario image's ELF (sw_vp.elf) is not where "
               "pmtrace-vp's install puts it: the samples have addresses, no symbols\n";
    if (!elf.empty()) {
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(elf, ec);
        if (!ec)
            elf = absolute.string();
        if (auto bytes = platform::read_file(elf, error))
            c.mappings = platform::elf_executable_mappings(elf, *bytes);
    }
    if (records()) {
        c.event = o_.record_event;
        const char *name = sw_event_name(o_.record_event);
        c.event_name = name ? name : "";
        c.sample_period = o_.period;
    } else {
        c.event_name = "PMUIRQ";
    }
    if (!platform::write_perf_data(o_.perf_data, c, samples_, error)) {
        err << "pmtrace-vp: --perf-data: " << error << "\n";
        return exit_failed;
    }
    return exit_ok;
}

} // namespace pmtrace::vp_cli
