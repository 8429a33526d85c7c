// a64_capture.cpp - the scenario image's trace after the run (a64_capture.h).
#include "a64_capture.h"

#include "apps/capture.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/trace/ete_reporter.h>
#include <pmtrace/platform/trace/execution_check.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>
#include <pmtrace/platform/trace/trace_decoder.h>

#include <cstdio>
#include <cstring>
#include <ostream>

namespace pmtrace::vp_cli
{

namespace
{

using platform::virt::ram_base;

// Decodes each part on its own and checks it against the execution log, in order.
bool decode_and_check(const options &o, platform::vp &vp, const std::vector<capture_part> &parts,
                      const platform::ete_registers &regs,
                      const std::vector<platform::memory_image> &images, std::string &out)
{
    const platform::a64_exec_log *log = vp.a64->exec_log();
    const std::vector<platform::executed_run> executed =
        log ? platform::executed_runs(*log) : std::vector<platform::executed_run>();
    // Where the session allows trace (TRFCR_EL1, and with --kernel --trace TRFCR_EL2): EL0 for
    // the user, EL1 (and EL2) for the kernel.
    const unsigned kernel_els = o.kernel.empty() ? 0b010u : 0b110u;
    const unsigned traced_els = (o.exclude_user ? 0u : 1u) | (o.exclude_kernel ? 0u : kernel_els);
    platform::execution_cursor cursor;
    uint64_t bytes = 0, ranges = 0, instructions = 0, syncs = 0, undecodable = 0;
    std::string problem;
    for (size_t i = 0; i < parts.size() && problem.empty(); i++) {
        platform::decode_options options;
        options.runs = true;
        const platform::decode_result d = platform::decode_ete_trace(
            parts[i].data, static_cast<size_t>(parts[i].size), regs, images, options);
        bytes += parts[i].size;
        syncs += d.async_packets;
        if (d.async_packets == 0) { // shorter than the sync period: nothing to start from
            undecodable++;
            continue;
        }
        const platform::execution_check c =
            platform::check_execution(d.runs, executed, traced_els, cursor);
        ranges += c.ranges;
        instructions += c.instructions;
        const std::string where = "part " + std::to_string(i + 1) + ": ";
        if (!d.ok())
            problem = where + (d.messages.empty() ? "decode errors" : d.messages.front());
        else if (!c.ok)
            problem = where + c.message;
    }
    if (problem.empty() && ranges == 0)
        problem = "no instructions in the capture";
    char line[256];
    std::snprintf(line, sizeof line,
                  "decode: %zu part(s), %llu bytes, %llu sync points: %llu instruction ranges, "
                  "%llu instructions; ",
                  parts.size(), static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(syncs), static_cast<unsigned long long>(ranges),
                  static_cast<unsigned long long>(instructions));
    out += line;
    if (undecodable)
        out +=
            std::to_string(undecodable) + " part(s) without an A-Sync (nothing to decode from); ";
    out += problem.empty() ? "exactly what the CPU executed\n"
                           : "NOT what the CPU executed (" + problem + ")\n";
    return problem.empty();
}

} // namespace

capture_area capture_area_of(const options &o)
{
    if (o.trace_out.empty() && o.snapshot.empty() && !o.decode)
        return {};
    // check_buffer: the buffer lies in [free_base, ram_end).
    const uint64_t free_base = ram_base + 0x10'0000, ram_end = ram_base + o.ram_size;
    const uint64_t below = o.buffer_base - free_base,
                   above = ram_end - (o.buffer_base + o.buffer_size);
    return below >= above ? capture_area{free_base, below}
                          : capture_area{o.buffer_base + o.buffer_size, above};
}

int read_capture_area(const options &o, platform::vp &vp, std::vector<capture_part> &parts,
                      std::string &out, std::ostream &err)
{
    const capture_area a = capture_area_of(o);
    if (!a.size)
        return exit_ok;
    const uint8_t *area = vp.ram.data() + (a.base - ram_base);
    uint64_t offset = 0, size = 0;
    const uint8_t *data = nullptr;
    const char *error = nullptr;
    while (sw_capture_next(area, a.size, &offset, &data, &size, &error))
        if (size)
            parts.push_back({data, size});
    if (error) {
        err << "pmtrace-vp: the capture area at 0x" << std::hex << a.base << std::dec << ": "
            << error << " (the trace session did not run to its end)\n";
        return exit_failed;
    }
    sw_capture_header header;
    std::memcpy(&header, area, sizeof header);
    if (header.lost)
        out += "capture: " + std::to_string(header.lost) +
               " bytes did not fit in the capture area (" + std::to_string(a.size) +
               " bytes of RAM): --ram larger\n";
    return exit_ok;
}

int write_capture(const options &o, platform::vp &vp, const std::vector<capture_part> &parts,
                  const platform::memory_image &program, std::string &out, std::ostream &err)
{
    int rc = exit_ok;
    if (!o.trace_out.empty()) {
        std::vector<uint8_t> all;
        for (const capture_part &p : parts)
            all.insert(all.end(), p.data, p.data + p.size);
        if (!platform::write_file(o.trace_out, all)) {
            err << "pmtrace-vp: cannot write " << o.trace_out << "\n";
            rc = exit_failed;
        }
    }
    const platform::ete_registers regs = platform::ete_registers_of(vp.pe.core());
    const std::vector<platform::memory_image> images{program};
    if (!o.snapshot.empty()) {
        if (parts.empty()) {
            err << "pmtrace-vp: --snapshot: no trace was captured\n";
            return exit_failed;
        }
        platform::trace_capture c;
        c.trace.assign(parts.front().data, parts.front().data + parts.front().size);
        c.images = images;
        c.registers = regs;
        c.description = o.kernel.empty() ? "pmtrace-vp scenario " + o.scenario_name
                                         : "pmtrace-vp --kernel " + o.kernel;
        if (platform::write_opencsd_snapshot(o.snapshot, c) != platform::snapshot_status::ok) {
            err << "pmtrace-vp: cannot write the snapshot " << o.snapshot << "\n";
            rc = exit_failed;
        }
        if (parts.size() > 1)
            out += "snapshot: the first of " + std::to_string(parts.size()) +
                   " parts (the buffer was collected and restarted; each part decodes on its "
                   "own: --buffer-size for more in one)\n";
    }
    if (o.decode && !decode_and_check(o, vp, parts, regs, images, out))
        rc = exit_failed;
    return rc;
}

} // namespace pmtrace::vp_cli
