// a64_scenario.cpp - the scenario image and its command line (a64_scenario.h).
#include "a64_scenario.h"
#include "a64_capture.h"
#include "kernel.h"

#include "apps/results.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>

// The image, placed in pmtrace-vp by a64_scenario_image.S.
extern "C" const uint8_t pmtrace_vp_image[], pmtrace_vp_image_end[];

namespace pmtrace::vp_cli
{

std::vector<uint8_t> scenario_image()
{
    return std::vector<uint8_t>(pmtrace_vp_image, pmtrace_vp_image_end);
}

std::string scenario_elf_path()
{
#if defined(PMTRACE_VP_ELF) && defined(PMTRACE_VP_ELF_RELATIVE) && defined(PMTRACE_VP_BUILD_DIR)
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
    if (ec)
        return std::string();
    // Installed: the ELF where cmake --install put it, relative to the executable.
    const fs::path installed = exe_dir / PMTRACE_VP_ELF_RELATIVE;
    if (fs::is_regular_file(installed, ec))
        return fs::weakly_canonical(installed, ec).string();
    // In the build tree: the build's own.
    if (fs::equivalent(exe_dir, PMTRACE_VP_BUILD_DIR, ec))
        return PMTRACE_VP_ELF;
#endif
    return std::string();
}

std::string scenario_bootargs(const options &o)
{
    const char *mode = o.fill_mode == PMT_TRBLIMITR_FM_WRAP       ? "wrap"
                       : o.fill_mode == PMT_TRBLIMITR_FM_CIRCULAR ? "circular"
                                                                  : "fill";
    std::string events;
    for (uint16_t ev : o.events)
        events += (events.empty() ? "" : ",") + std::to_string(ev);
    const capture_area area = capture_area_of(o);
    char text[1024];
    std::snprintf(text, sizeof text,
                  "pmtrace.scenario=%s pmtrace.iterations=%llu pmtrace.instructions=%llu "
                  "pmtrace.per_piece=%llu pmtrace.el=%u pmtrace.events=%s pmtrace.event=%u "
                  "pmtrace.period=%llu pmtrace.long=%d pmtrace.exclude=%s pmtrace.trace=%d "
                  "pmtrace.buffer=0x%llx pmtrace.buffer_size=0x%llx pmtrace.mode=%s "
                  "pmtrace.semihosting=1 pmtrace.capture=0x%llx pmtrace.capture_size=0x%llx "
                  "pmtrace.timestamps=%d",
                  o.scenario_name.c_str(), static_cast<unsigned long long>(o.iterations),
                  static_cast<unsigned long long>(o.instructions),
                  static_cast<unsigned long long>(o.per_piece), o.el, events.c_str(),
                  o.record_event, static_cast<unsigned long long>(o.period), o.long_counters,
                  o.exclude_user     ? "user"
                  : o.exclude_kernel ? "kernel"
                                     : "none",
                  o.trace_alongside, static_cast<unsigned long long>(o.buffer_base),
                  static_cast<unsigned long long>(o.buffer_size), mode,
                  static_cast<unsigned long long>(area.base),
                  static_cast<unsigned long long>(area.size), o.timestamps);
    std::string args = text;
    if (!o.stats_json.empty())
        args += " pmtrace.results=" + hex_text(results_area_base);
    return args;
}

bool read_results_area(const options &o, platform::vp &vp, run_result &r, std::ostream &err)
{
    static_assert(sizeof(sw_results) <= results_area_size, "the results area holds sw_results");
    if (o.stats_json.empty() || !vp.ram.data())
        return false;
    sw_results results;
    std::memcpy(&results, vp.ram.data() + (results_area_base - platform::virt::ram_base),
                sizeof results);
    if (results.magic != SW_RESULTS_MAGIC)
        return false;
    if (results.layout != SW_RESULTS_LAYOUT) {
        err << "pmtrace-vp: the scenario image's results area (" << hex_text(results_area_base)
            << ") has layout " << hex_text(results.layout) << ", not this pmtrace-vp's "
            << hex_text(SW_RESULTS_LAYOUT) << ": the JSON has no results of the apps\n";
        return false;
    }
    r.status = results.status;
    if (results.have & SW_RESULTS_STAT)
        r.stat = results.stat;
    if (results.have & SW_RESULTS_RECORD)
        r.record = results.record;
    r.traced = results.have & SW_RESULTS_TRACE;
    if (r.traced) {
        r.trace = results.trace;
        r.trace_config.fill_mode =
            o.scenario == scenario::trace ? o.fill_mode : PMT_TRBLIMITR_FM_FILL;
    }
    return true;
}

platform::vp_config scenario_platform_config(const options &o)
{
    platform::vp_config c = kernel_platform_config(o);
    c.a64.semihosting = true; // the image's status (its apps') becomes pmtrace-vp's
    return c;
}

} // namespace pmtrace::vp_cli
