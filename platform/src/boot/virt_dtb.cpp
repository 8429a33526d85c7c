// virt_dtb.cpp - the platform's device tree, written with libfdt's sequential-write API in the
// shape QEMU's hw/arm/virt.c gives the same devices. The bindings it follows are those of the
// Linux kernel (Documentation/devicetree/bindings: arm/cpus.yaml, arm/psci.yaml,
// timer/arm,arch_timer.yaml, arm/pmu.yaml, arm/arm,trace-buffer-extension.yaml,
// arm/arm,embedded-trace-extension.yaml, interrupt-controller/arm,gic-v3.yaml, serial/pl011.yaml,
// rtc/arm,pl031.yaml, clock/fixed-clock.yaml).
#include "pmtrace/platform/boot/virt_dtb.h"

#include <libfdt.h>

#include <initializer_list>
#include <limits>
#include <set>
#include <sstream>

namespace pmtrace::platform
{

namespace
{

// The GIC binding's interrupt specifier: type, number, flags.
constexpr uint32_t gic_spi = 0;
constexpr uint32_t gic_ppi = 1;
constexpr uint32_t irq_type_level_high = 4;
constexpr unsigned max_ppi = 15;  // PPIs are INTIDs 16-31
constexpr unsigned max_spi = 987; // SPIs are INTIDs 32-1019

constexpr uint32_t gic_phandle = 1;
constexpr uint32_t clock_phandle = 2;
constexpr uint32_t cpu_phandle = 3;

// MPIDR_EL1's affinity fields: Aff3 [39:32], Aff2 [23:16], Aff1 [15:8], Aff0 [7:0] (cpus.yaml:
// the cpu node's reg holds them and nothing else).
constexpr uint64_t mpidr_affinity_mask = 0xff'00ff'ffff;
constexpr uint64_t mpidr_aff3_mask = 0xff'0000'0000;

// A unit address or value in hex, without "0x" (node names) or with it (messages).
std::string hex(uint64_t v, bool prefix = true)
{
    std::ostringstream s;
    s << (prefix ? "0x" : "") << std::hex << v;
    return s.str();
}

std::string uart_path(const virt_dtb_config &c)
{
    return "/pl011@" + hex(c.uart_base, false);
}

// The name QEMU gives its 24 MHz clock, "clk24mhz", for any frequency.
std::string clock_output_name(uint32_t hz)
{
    return hz % 1000000 == 0 ? "clk" + std::to_string(hz / 1000000) + "mhz"
                             : "clk" + std::to_string(hz) + "hz";
}

bool region_ok(const char *what, uint64_t base, uint64_t size, std::string &error)
{
    if (size == 0) {
        error = std::string("virt_dtb: the ") + what + " at " + hex(base) + " has size 0";
        return false;
    }
    if (size - 1 > std::numeric_limits<uint64_t>::max() - base) {
        error = std::string("virt_dtb: the ") + what + " at " + hex(base) + " of size " +
                hex(size) + " runs past the end of the 64-bit address space";
        return false;
    }
    return true;
}

bool ppis_ok(const virt_dtb_config &c, std::string &error)
{
    static const char *const timer_names[4] = {"secure physical timer", "non-secure physical timer",
                                               "virtual timer", "hypervisor timer"};
    std::vector<std::pair<const char *, unsigned>> ppis;
    for (unsigned i = 0; i < 4; i++)
        ppis.emplace_back(timer_names[i], c.timer_ppis[i]);
    ppis.emplace_back("PMU", c.pmu_ppi);
    if (c.trbe)
        ppis.emplace_back("TRBE", c.trbe_ppi);
    std::set<unsigned> used;
    for (const auto &[name, ppi] : ppis) {
        if (ppi > max_ppi) {
            error = std::string("virt_dtb: the ") + name + " PPI " + std::to_string(ppi) +
                    " is not a PPI number (0-15, INTID-16)";
            return false;
        }
        if (!used.insert(ppi).second) {
            error = std::string("virt_dtb: the ") + name + " PPI " + std::to_string(ppi) +
                    " is already used by another interrupt";
            return false;
        }
    }
    return true;
}

bool config_ok(const virt_dtb_config &c, std::string &error)
{
    if (!region_ok("RAM", c.ram_base, c.ram_size, error) ||
        !region_ok("UART", c.uart_base, c.uart_size, error) ||
        !region_ok("RTC", c.rtc_base, c.rtc_size, error) ||
        !region_ok("GIC distributor", c.gicd_base, c.gicd_size, error) ||
        !region_ok("GIC redistributor region", c.gicr_base, c.gicr_size, error) ||
        !ppis_ok(c, error))
        return false;
    for (const auto &[name, spi] : {std::pair{"UART", c.uart_spi}, std::pair{"RTC", c.rtc_spi}})
        if (spi > max_spi) {
            error = std::string("virt_dtb: the ") + name + "'s SPI " + std::to_string(spi) +
                    " is not an SPI number (0-987, INTID-32)";
            return false;
        }
    if (c.rtc_spi == c.uart_spi) {
        error =
            "virt_dtb: the RTC's SPI " + std::to_string(c.rtc_spi) + " is already used by the UART";
        return false;
    }
    if (c.psci_method != "hvc" && c.psci_method != "smc" && c.psci_method != "none") {
        error =
            "virt_dtb: the PSCI method '" + c.psci_method + "' is not \"hvc\", \"smc\" or \"none\"";
        return false;
    }
    if (c.cpu_compatible.empty()) {
        error = "virt_dtb: the CPU's compatible string is empty";
        return false;
    }
    if (c.uart_clock_hz == 0) {
        error = "virt_dtb: the UART's clock (apb-pclk) is 0 Hz";
        return false;
    }
    return true;
}

// libfdt's sequential-write calls; the first failure is kept and later calls do nothing.
class tree_writer
{
  public:
    explicit tree_writer(void *fdt) : fdt_(fdt) {}
    int status() const { return status_; }

    void begin(const std::string &name) { call(fdt_begin_node(fdt_, name.c_str())); }
    void end() { call(fdt_end_node(fdt_)); }
    void string(const char *name, const std::string &value)
    {
        call(fdt_property_string(fdt_, name, value.c_str()));
    }
    // A string list: the strings one after the other, each with its NUL.
    void strings(const char *name, std::initializer_list<const char *> values)
    {
        std::string list;
        for (const char *v : values)
            list.append(v).push_back('\0');
        call(fdt_property(fdt_, name, list.data(), static_cast<int>(list.size())));
    }
    void u32(const char *name, uint32_t value) { call(fdt_property_u32(fdt_, name, value)); }
    void cells(const char *name, const std::vector<uint32_t> &values)
    {
        std::vector<fdt32_t> big_endian;
        for (uint32_t v : values)
            big_endian.push_back(cpu_to_fdt32(v));
        call(fdt_property(fdt_, name, big_endian.data(),
                          static_cast<int>(big_endian.size() * sizeof(fdt32_t))));
    }
    void empty(const char *name)
    {
        static const char nothing = 0;
        call(fdt_property(fdt_, name, &nothing, 0));
    }

  private:
    void call(int result)
    {
        if (status_ == 0 && result < 0)
            status_ = result;
    }
    void *fdt_;
    int status_ = 0;
};

uint32_t high(uint64_t v)
{
    return static_cast<uint32_t>(v >> 32);
}
uint32_t low(uint64_t v)
{
    return static_cast<uint32_t>(v);
}

// reg with #address-cells 2 and #size-cells 2.
std::vector<uint32_t> reg(uint64_t base, uint64_t size)
{
    return {high(base), low(base), high(size), low(size)};
}

std::vector<uint32_t> level_high(uint32_t type, unsigned number)
{
    return {type, number, irq_type_level_high};
}

void add_root_properties(tree_writer &w)
{
    w.u32("#address-cells", 2);
    w.u32("#size-cells", 2);
    w.string("compatible", "linux,dummy-virt");
    w.string("model", "linux,dummy-virt");
    w.u32("interrupt-parent", gic_phandle);
}

void add_psci(tree_writer &w, const virt_dtb_config &c)
{
    if (c.psci_method == "none")
        return;
    w.begin("psci");
    w.strings("compatible", {"arm,psci-1.0", "arm,psci-0.2"});
    w.string("method", c.psci_method);
    w.end();
}

void add_memory(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("memory@" + hex(c.ram_base, false));
    w.string("device_type", "memory");
    w.cells("reg", reg(c.ram_base, c.ram_size));
    w.end();
}

void add_cpus(tree_writer &w, const virt_dtb_config &c)
{
    const uint64_t affinity = c.mpidr & mpidr_affinity_mask;
    const bool two_cells = (affinity & mpidr_aff3_mask) != 0;
    w.begin("cpus");
    w.u32("#address-cells", two_cells ? 2 : 1);
    w.u32("#size-cells", 0);
    w.begin("cpu@" + hex(affinity, false));
    w.string("device_type", "cpu");
    w.string("compatible", c.cpu_compatible);
    if (two_cells)
        w.cells("reg", {high(affinity), low(affinity)});
    else
        w.u32("reg", low(affinity));
    if (c.psci_method != "none")
        w.string("enable-method", "psci");
    if (c.ete)
        w.u32("phandle", cpu_phandle);
    w.end();
    w.end();
}

void add_timer(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("timer");
    w.strings("compatible", {"arm,armv8-timer", "arm,armv7-timer"});
    std::vector<uint32_t> interrupts;
    for (unsigned ppi : c.timer_ppis)
        for (uint32_t cell : level_high(gic_ppi, ppi))
            interrupts.push_back(cell);
    w.cells("interrupts", interrupts);
    w.empty("always-on");
    if (c.timer_frequency_hz != 0)
        w.u32("clock-frequency", c.timer_frequency_hz);
    w.end();
}

void add_pmu(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("pmu");
    w.string("compatible", "arm,armv8-pmuv3");
    w.cells("interrupts", level_high(gic_ppi, c.pmu_ppi));
    w.end();
}

// The TRBE binding (arm,trace-buffer-extension.yaml): the node "trbe", compatible and exactly
// one PPI, TRBIRQ, level-sensitive (the interrupt is a level: D6.5).
void add_trbe(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("trbe");
    w.string("compatible", "arm,trace-buffer-extension");
    w.cells("interrupts", level_high(gic_ppi, c.trbe_ppi));
    w.end();
}

// The ETE binding (arm,embedded-trace-extension.yaml): one node per CPU, named ete<N> (the
// binding's pattern ^ete([0-9a-f]+)$; the platform's one CPU is 0), compatible and the phandle
// of its CPU; its output is the TRBE, so no out-ports (the legacy CoreSight graph).
void add_ete(tree_writer &w)
{
    w.begin("ete0");
    w.string("compatible", "arm,embedded-trace-extension");
    w.cells("cpu", {cpu_phandle});
    w.end();
}

void add_gic(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("intc@" + hex(c.gicd_base, false));
    w.string("compatible", "arm,gic-v3");
    w.u32("#interrupt-cells", 3);
    w.empty("interrupt-controller");
    // For child nodes (an ITS); QEMU sets them always, and dtc expects them on an interrupt
    // controller.
    w.u32("#address-cells", 2);
    w.u32("#size-cells", 2);
    w.empty("ranges");
    std::vector<uint32_t> regs = reg(c.gicd_base, c.gicd_size);
    for (uint32_t cell : reg(c.gicr_base, c.gicr_size))
        regs.push_back(cell);
    w.cells("reg", regs);
    w.u32("#redistributor-regions", 1);
    w.u32("phandle", gic_phandle);
    w.end();
}

void add_clock(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("apb-pclk");
    w.string("compatible", "fixed-clock");
    w.u32("#clock-cells", 0);
    w.u32("clock-frequency", c.uart_clock_hz);
    w.string("clock-output-names", clock_output_name(c.uart_clock_hz));
    w.u32("phandle", clock_phandle);
    w.end();
}

void add_uart(tree_writer &w, const virt_dtb_config &c)
{
    w.begin(uart_path(c).substr(1));
    w.strings("compatible", {"arm,pl011", "arm,primecell"});
    w.cells("reg", reg(c.uart_base, c.uart_size));
    w.cells("interrupts", level_high(gic_spi, c.uart_spi));
    w.cells("clocks", {clock_phandle, clock_phandle});
    w.strings("clock-names", {"uartclk", "apb_pclk"});
    w.end();
}

// The PL031 binding (rtc/arm,pl031.yaml): compatible, reg, its interrupt, and its APB clock by
// the name "apb_pclk", which Linux's AMBA bus enables before it reads the PrimeCell ID; as QEMU's
// virt (create_rtc), the same fixed clock as the PL011's.
void add_rtc(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("pl031@" + hex(c.rtc_base, false));
    w.strings("compatible", {"arm,pl031", "arm,primecell"});
    w.cells("reg", reg(c.rtc_base, c.rtc_size));
    w.cells("interrupts", level_high(gic_spi, c.rtc_spi));
    w.cells("clocks", {clock_phandle});
    w.string("clock-names", "apb_pclk");
    w.end();
}

void add_chosen(tree_writer &w, const virt_dtb_config &c)
{
    w.begin("chosen");
    w.string("stdout-path", uart_path(c));
    if (!c.bootargs.empty())
        w.string("bootargs", c.bootargs);
    if (c.initrd_end > c.initrd_start) {
        // chosen.yaml: the initrd's physical start and end (exclusive), in #address-cells (2)
        // cells each, as QEMU's arm_load_dtb writes them.
        w.cells("linux,initrd-start", {high(c.initrd_start), low(c.initrd_start)});
        w.cells("linux,initrd-end", {high(c.initrd_end), low(c.initrd_end)});
    }
    w.end();
}

// The whole tree into buf; 0 or a libfdt error (-FDT_ERR_NOSPACE: buf is too small).
int write_tree(std::vector<uint8_t> &buf, const virt_dtb_config &c)
{
    void *fdt = buf.data();
    int result = fdt_create(fdt, static_cast<int>(buf.size()));
    if (result == 0)
        result = fdt_finish_reservemap(fdt);
    if (result < 0)
        return result;
    tree_writer w(fdt);
    w.begin("");
    add_root_properties(w);
    add_psci(w, c);
    add_memory(w, c);
    add_cpus(w, c);
    add_timer(w, c);
    add_pmu(w, c);
    if (c.trbe)
        add_trbe(w, c);
    if (c.ete)
        add_ete(w);
    add_gic(w, c);
    add_clock(w, c);
    add_uart(w, c);
    add_rtc(w, c);
    add_chosen(w, c);
    w.end();
    return w.status() < 0 ? w.status() : fdt_finish(fdt);
}

} // namespace

std::vector<uint8_t> build_virt_dtb(const virt_dtb_config &config, std::string &error)
{
    if (!config_ok(config, error))
        return {};
    // A few KiB suffice unless bootargs are long: the buffer doubles until the tree fits.
    constexpr size_t largest = size_t{64} << 20;
    for (size_t size = 0x1000; size <= largest; size *= 2) {
        std::vector<uint8_t> buf(size, 0);
        const int result = write_tree(buf, config);
        if (result == -FDT_ERR_NOSPACE)
            continue;
        if (result < 0) {
            error = std::string("virt_dtb: libfdt failed: ") + fdt_strerror(result);
            return {};
        }
        buf.resize(fdt_totalsize(buf.data()));
        return buf;
    }
    error = "virt_dtb: the device tree does not fit in 64 MiB (bootargs of " +
            std::to_string(config.bootargs.size()) + " characters)";
    return {};
}

std::vector<uint8_t> prepare_user_dtb(const std::vector<uint8_t> &dtb, const std::string &bootargs,
                                      std::string &error)
{
    return prepare_user_dtb(dtb, bootargs, 0, 0, error);
}

namespace
{
// /chosen's property `name` = `address` in the root's #address-cells (1 or 2) cells.
int set_chosen_address(void *fdt, int chosen, const char *name, uint64_t address, int cells)
{
    return cells == 1 ? fdt_setprop_u32(fdt, chosen, name, static_cast<uint32_t>(address))
                      : fdt_setprop_u64(fdt, chosen, name, address);
}
} // namespace

std::vector<uint8_t> prepare_user_dtb(const std::vector<uint8_t> &dtb, const std::string &bootargs,
                                      uint64_t initrd_start, uint64_t initrd_end,
                                      std::string &error)
{
    int result = fdt_check_full(dtb.data(), dtb.size());
    if (result != 0) {
        error = std::string("not a valid device tree blob (libfdt: ") + fdt_strerror(result) + ")";
        return {};
    }
    const bool initrd = initrd_end > initrd_start;
    if (bootargs.empty() && !initrd)
        return dtb;
    // Room for the properties, their names and a /chosen node.
    std::vector<uint8_t> out(dtb.size() + bootargs.size() + 512, 0);
    const int size = static_cast<int>(out.size());
    result = fdt_open_into(dtb.data(), out.data(), size);
    int chosen = result < 0 ? result : fdt_path_offset(out.data(), "/chosen");
    if (chosen == -FDT_ERR_NOTFOUND)
        chosen = fdt_add_subnode(out.data(), 0, "chosen");
    result = chosen;
    if (result >= 0 && !bootargs.empty())
        result = fdt_setprop_string(out.data(), chosen, "bootargs", bootargs.c_str());
    if (result >= 0 && initrd) {
        // The root's #address-cells (the devicetree specification's default: 2), 1 or 2.
        const int cells = fdt_address_cells(out.data(), 0);
        if (cells != 1 && cells != 2) {
            error = "cannot set /chosen/linux,initrd-start: the root's #address-cells is " +
                    std::to_string(cells) + ", not 1 or 2";
            return {};
        }
        if (cells == 1 && initrd_end > 0xFFFF'FFFFu) {
            error = "cannot set /chosen/linux,initrd-end: " + hex(initrd_end) +
                    " does not fit the root's #address-cells of 1";
            return {};
        }
        result = set_chosen_address(out.data(), chosen, "linux,initrd-start", initrd_start, cells);
        if (result >= 0)
            result = set_chosen_address(out.data(), chosen, "linux,initrd-end", initrd_end, cells);
    }
    if (result >= 0)
        result = fdt_pack(out.data());
    if (result < 0) {
        error = std::string("cannot set /chosen/") +
                (initrd ? "bootargs and the initrd's place" : "bootargs") +
                " (libfdt: " + fdt_strerror(result) + ")";
        return {};
    }
    out.resize(fdt_totalsize(out.data()));
    return out;
}

} // namespace pmtrace::platform
