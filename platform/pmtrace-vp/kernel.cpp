// kernel.cpp - pmtrace-vp --kernel (kernel.h).
#include "kernel.h"
#include "console.h"
#include "scenario.h"

#include <pmtrace/platform/boot/boot_image.h>
#include <pmtrace/platform/boot/virt_dtb.h>

#include <ostream>
#include <sstream>

namespace pmtrace::vp_cli
{

namespace
{

std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// Where an initrd lies: [start, end); none when end is 0.
struct initrd_place {
    uint64_t start = 0, end = 0;
};

// The device tree the image gets: the user's (--dtb, with --append as chosen/bootargs) or the
// platform's own; with an initrd, chosen/linux,initrd-start and linux,initrd-end say where.
std::vector<uint8_t> device_tree(const options &o, const platform::vp &vp,
                                 const std::string &bootargs, const initrd_place &initrd,
                                 std::string &error)
{
    if (!o.dtb.empty()) {
        std::optional<std::vector<uint8_t>> user = platform::read_file(o.dtb, error);
        if (!user)
            return {};
        std::vector<uint8_t> dtb;
        if (user)
            dtb = platform::prepare_user_dtb(*user, bootargs, initrd.start, initrd.end, error);
        if (dtb.empty())
            error = "--dtb " + o.dtb + ": " + error;
        return dtb;
    }
    platform::virt_dtb_config c;
    c.ram_size = o.ram_size;
    const unsigned entry_el = vp.config().a64.entry_el;
    c.psci_method = entry_el == 3 ? "none" : entry_el == 2 ? "smc" : "hvc";
    c.bootargs = bootargs;
    c.initrd_start = initrd.start;
    c.initrd_end = initrd.end;
    c.pmu_ppi = platform::virt::pmu_intid - 16;
    c.trbe = vp.config().pe.core.trbe.feat_trbe;
    c.trbe_ppi = vp.gic.config().trbe_intid - 16;
    c.ete = vp.config().pe.core.ete.feat_ete;
    std::vector<uint8_t> dtb = platform::build_virt_dtb(c, error);
    if (dtb.empty())
        error = "the platform's device tree: " + error;
    return dtb;
}

} // namespace

platform::vp_config kernel_platform_config(const options &o)
{
    platform::vp_config c = platform_config(o);
    c.cpu_kind = platform::vp_cpu::a64;
    c.ram_size = o.ram_size;
    c.a64.entry_el = o.secure ? 3 : o.virtualization ? 2 : 1;
    c.a64.quantum = o.quantum;
    c.a64.semihosting = o.semihosting;
    c.a64.skip_counter_polls = !o.no_skip_polls;
    c.a64.exec_log = !o.exec_log.empty() || o.decode; // what --decode checks the capture against
    // The PE's ETE trace unit, driven by what the CPU executes (docs/trace.md).
    c.pe.core.ete.feat_ete = true;
    c.pe.core.ete.unit_buffer = static_cast<unsigned>(o.trace_unit_buffer);
    c.a64.trace_batch = o.trace_batch;
    c.uart.echo = true;
    if (!o.kernel.empty())
        c.uart.input = console_char; // the user's image: stdin (console.h)
    return c;
}

int boot_kernel(const options &o, platform::vp &vp, std::ostream &err, platform::boot_image *loaded)
{
    std::string error;
    std::optional<std::vector<uint8_t>> file = platform::read_file(o.kernel, error);
    if (!file) {
        err << "pmtrace-vp: --kernel " << o.kernel << ": " << error << "\n";
        return exit_usage;
    }
    return boot_kernel(o, vp, *file, "--kernel " + o.kernel, o.append, err, loaded);
}

int boot_kernel(const options &o, platform::vp &vp, const std::vector<uint8_t> &file,
                const std::string &name, const std::string &bootargs, std::ostream &err,
                platform::boot_image *loaded)
{
    std::string error;
    // The initial RAM disk's file first: one that cannot be read is refused before anything.
    std::vector<uint8_t> initrd;
    const std::string initrd_name = "--initrd " + o.initrd;
    if (!o.initrd.empty()) {
        std::optional<std::vector<uint8_t>> contents = platform::read_file(o.initrd, error);
        if (!contents) {
            err << "pmtrace-vp: " << initrd_name << ": " << error << "\n";
            return exit_usage;
        }
        initrd = std::move(*contents);
    }

    // The image, then the initrd above it and the device tree above both, as QEMU's
    // hw/arm/boot.c places them (boot_image.h).
    std::optional<platform::boot_image> image = platform::load_boot_image(
        file, platform::virt::ram_base, o.ram_size,
        [&](uint64_t pa, const uint8_t *data, size_t n) { return vp.load(pa, data, n); }, error);
    if (!image) {
        err << "pmtrace-vp: " << name << ": " << error << "\n";
        return exit_usage;
    }
    initrd_place place;
    if (!initrd.empty()) {
        const std::optional<uint64_t> at = platform::place_initrd(
            *image, initrd.size(), platform::virt::ram_base, o.ram_size, error);
        if (!at) {
            err << "pmtrace-vp: " << initrd_name << ": " << error << "\n";
            return exit_usage;
        }
        place = {*at, *at + initrd.size()};
    }
    const std::vector<uint8_t> dtb = device_tree(o, vp, bootargs, place, error);
    if (dtb.empty()) {
        err << "pmtrace-vp: " << error << "\n";
        return exit_usage;
    }
    if (!o.dump_dtb.empty()) {
        if (platform::write_file(o.dump_dtb, dtb))
            return exit_ok;
        err << "pmtrace-vp: --dump-dtb: cannot write " << o.dump_dtb << "\n";
        return exit_failed;
    }
    const std::optional<uint64_t> dtb_address =
        initrd.empty()
            ? platform::place_dtb(*image, dtb.size(), platform::virt::ram_base, o.ram_size, error)
            : platform::place_dtb_after_initrd(place.end, dtb.size(), platform::virt::ram_base,
                                               o.ram_size, error);
    if (!dtb_address) {
        err << "pmtrace-vp: " << (initrd.empty() ? name : initrd_name) << ": " << error << "\n";
        return exit_usage;
    }
    if (!initrd.empty())
        (void)vp.load(place.start, initrd);
    (void)vp.load(*dtb_address, dtb.data(), dtb.size());
    vp.a64->set_boot(image->entry, *dtb_address);
    if (loaded)
        *loaded = *image;
    return -1;
}

int kernel_exit_status(const options &o, platform::vp &vp, std::ostream &err, run_end &end)
{
    platform::a64_cpu &cpu = *vp.a64;
    const std::string pc = hex(cpu.engine().reg(platform::a64_reg::pc));
    switch (cpu.end()) {
    case platform::a64_cpu_end::system_off: end = run_end::system_off; return exit_ok;
    case platform::a64_cpu_end::system_reset:
        end = run_end::system_reset;
        err << "pmtrace-vp: the software asked for a system reset (PSCI SYSTEM_RESET); "
               "pmtrace-vp ends there, as QEMU with -no-reboot\n";
        return exit_ok;
    case platform::a64_cpu_end::exit:
        end = run_end::exit;
        if (cpu.exit_status() != 0)
            err << "pmtrace-vp: the software exited with status " << cpu.exit_status()
                << " (semihosting SYS_EXIT)\n";
        return cpu.exit_status() == 0 ? exit_ok : exit_failed;
    case platform::a64_cpu_end::error:
        end = run_end::error;
        err << "pmtrace-vp: the CPU stopped: " << cpu.error() << "\n";
        return exit_failed;
    case platform::a64_cpu_end::running: break;
    }
    if (o.time_limit != sc_core::SC_ZERO_TIME && sc_core::sc_time_stamp() >= o.time_limit) {
        end = run_end::time_limit;
        err << "pmtrace-vp: --time-limit " << o.time_limit.to_string() << " reached (pc " << pc
            << ")\n";
        return exit_time_limit;
    }
    end = run_end::waiting;
    err << "pmtrace-vp: nothing left to happen: the CPU waits for an interrupt that nothing will "
           "raise (pc "
        << pc << ")\n";
    return exit_failed;
}

} // namespace pmtrace::vp_cli
