// The platform's device tree, read back with libfdt and decompiled by dtc. The expected nodes
// and values are those of QEMU's virt board for the same devices and of the Linux bindings
// (Documentation/devicetree/bindings): the GIC's interrupt specifier is <type number flags>
// with type 0 SPI, 1 PPI, number INTID-32 (SPI) or INTID-16 (PPI), flags 4 level-high.
#include <gtest/gtest.h>
#include <libfdt.h>
#include <pmtrace/platform/boot/virt_dtb.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef PMTRACE_DTC
#define PMTRACE_DTC "dtc"
#endif

namespace
{

using namespace pmtrace::platform;
using cells = std::vector<uint32_t>;
namespace fs = std::filesystem;

class VirtDtb : public ::testing::Test
{
  protected:
    virt_dtb_config config;
    std::vector<uint8_t> blob;
    std::string error;

    void build()
    {
        blob = build_virt_dtb(config, error);
        ASSERT_FALSE(blob.empty()) << error;
        ASSERT_EQ(fdt_check_header(blob.data()), 0);
        ASSERT_EQ(fdt_totalsize(blob.data()), blob.size());
    }
    const void *fdt() const { return blob.data(); }

    int node(const std::string &path) const { return fdt_path_offset(fdt(), path.c_str()); }
    bool has(const std::string &path, const char *name) const
    {
        const int n = node(path);
        return n >= 0 && fdt_getprop(fdt(), n, name, nullptr) != nullptr;
    }
    // A property's raw bytes; "missing" when the node or the property is not there.
    std::string raw(const std::string &path, const char *name) const
    {
        const int n = node(path);
        if (n < 0)
            return "missing node";
        int len = 0;
        const void *p = fdt_getprop(fdt(), n, name, &len);
        if (p == nullptr)
            return "missing";
        return std::string(static_cast<const char *>(p), static_cast<size_t>(len));
    }
    // A string property (one string: the bytes without the final NUL).
    std::string text(const std::string &path, const char *name) const
    {
        std::string r = raw(path, name);
        if (!r.empty() && r.back() == '\0')
            r.pop_back();
        return r;
    }
    // A property of big-endian 32-bit cells.
    cells cell_list(const std::string &path, const char *name) const
    {
        const std::string r = raw(path, name);
        cells out;
        if (r.size() % 4 != 0 || r == "missing" || r == "missing node")
            return out;
        for (size_t i = 0; i < r.size(); i += 4) {
            uint32_t big_endian = 0;
            std::memcpy(&big_endian, r.data() + i, 4);
            out.push_back(fdt32_to_cpu(big_endian));
        }
        return out;
    }
    uint32_t phandle_of(const std::string &path) const
    {
        return fdt_get_phandle(fdt(), node(path));
    }
    std::set<std::string> properties(const std::string &path) const
    {
        std::set<std::string> names;
        int p = 0;
        fdt_for_each_property_offset(p, fdt(), node(path))
        {
            const char *name = nullptr;
            if (fdt_getprop_by_offset(fdt(), p, &name, nullptr) != nullptr && name != nullptr)
                names.insert(name);
        }
        return names;
    }
    std::set<std::string> children(const std::string &path) const
    {
        std::set<std::string> names;
        int child = 0;
        fdt_for_each_subnode(child, fdt(), node(path))
        {
            names.insert(fdt_get_name(fdt(), child, nullptr));
        }
        return names;
    }
};

TEST_F(VirtDtb, TheRootDescribesTheVirtBoardWithTwoCellAddressesAndTheGicAsInterruptParent)
{
    build();
    EXPECT_EQ(cell_list("/", "#address-cells"), cells{2});
    EXPECT_EQ(cell_list("/", "#size-cells"), cells{2});
    EXPECT_EQ(text("/", "compatible"), "linux,dummy-virt");
    EXPECT_EQ(text("/", "model"), "linux,dummy-virt");
    const uint32_t gic = phandle_of("/intc@8000000");
    EXPECT_NE(gic, 0u);
    EXPECT_EQ(cell_list("/", "interrupt-parent"), cells{gic});
}

TEST_F(VirtDtb, TheRootHoldsThePlatformsNodesAndNothingElse)
{
    build();
    EXPECT_EQ(children("/"), (std::set<std::string>{"psci", "memory@40000000", "cpus", "timer",
                                                    "pmu", "trbe", "intc@8000000", "apb-pclk",
                                                    "pl011@9000000", "pl031@9010000", "chosen"}));
    EXPECT_EQ(children("/cpus"), std::set<std::string>{"cpu@0"});
}

TEST_F(VirtDtb, MemoryIsTheRam)
{
    config.ram_size = 0x1'0000'0000; // 4 GiB: the size needs both cells
    build();
    EXPECT_EQ(text("/memory@40000000", "device_type"), "memory");
    EXPECT_EQ(cell_list("/memory@40000000", "reg"), (cells{0, 0x4000'0000, 1, 0}));
}

TEST_F(VirtDtb, TheCpuIsNamedByItsMpidrAndStartsThroughPsci)
{
    build();
    EXPECT_EQ(cell_list("/cpus", "#address-cells"), cells{1});
    EXPECT_EQ(cell_list("/cpus", "#size-cells"), cells{0});
    EXPECT_EQ(text("/cpus/cpu@0", "device_type"), "cpu");
    EXPECT_EQ(text("/cpus/cpu@0", "compatible"), "arm,armv8");
    EXPECT_EQ(cell_list("/cpus/cpu@0", "reg"), cells{0});
    EXPECT_EQ(text("/cpus/cpu@0", "enable-method"), "psci");
}

TEST_F(VirtDtb, TheCpuRegHoldsOnlyMpidrsAffinityFields)
{
    // MPIDR_EL1 bit 31 is RES1 and bit 24 (MT) is not an affinity field (cpus.yaml: reg holds
    // Aff2..Aff0, and Aff3 in a second cell when it is not 0).
    config.mpidr = 0x8100'0102;
    config.cpu_compatible = "arm,cortex-a76";
    build();
    EXPECT_EQ(cell_list("/cpus", "#address-cells"), cells{1});
    EXPECT_EQ(cell_list("/cpus/cpu@102", "reg"), cells{0x102});
    EXPECT_EQ(text("/cpus/cpu@102", "compatible"), "arm,cortex-a76");
}

TEST_F(VirtDtb, AnAff3NeedsTwoAddressCells)
{
    config.mpidr = 0x1'8000'0003; // Aff3 1, Aff0 3
    build();
    EXPECT_EQ(cell_list("/cpus", "#address-cells"), cells{2});
    EXPECT_EQ(cell_list("/cpus/cpu@100000003", "reg"), (cells{1, 3}));
}

TEST_F(VirtDtb, PsciIsVersion1WithItsMethod)
{
    build();
    EXPECT_EQ(raw("/psci", "compatible"), std::string("arm,psci-1.0\0arm,psci-0.2\0", 26));
    EXPECT_EQ(text("/psci", "method"), "hvc");
    config.psci_method = "smc";
    build();
    EXPECT_EQ(text("/psci", "method"), "smc");
}

// Firmware entered at EL3 answers PSCI itself (QEMU's virt with secure=on and firmware): no
// /psci node, and the CPU names no enable-method.
TEST_F(VirtDtb, NoPsciWhenTheImageIsTheFirmware)
{
    config.psci_method = "none";
    build();
    EXPECT_LT(node("/psci"), 0);
    EXPECT_GE(node("/cpus/cpu@0"), 0);
    EXPECT_FALSE(has("/cpus/cpu@0", "enable-method"));
}

TEST_F(VirtDtb, ChosenNamesTheUartAsStdoutAndHasNoBootargsUnlessGiven)
{
    build();
    EXPECT_EQ(text("/chosen", "stdout-path"), "/pl011@9000000");
    EXPECT_GE(node(text("/chosen", "stdout-path")), 0);
    EXPECT_FALSE(has("/chosen", "bootargs"));
    config.bootargs = "console=ttyAMA0 earlycon";
    build();
    EXPECT_EQ(text("/chosen", "bootargs"), "console=ttyAMA0 earlycon");
}

// An initial RAM disk: /chosen/linux,initrd-start and linux,initrd-end (chosen.yaml), its first
// byte and one past its last, in two cells each (the root's #address-cells), as QEMU writes them.
TEST_F(VirtDtb, ChosenSaysWhereTheInitrdIsWhenThereIsOne)
{
    build();
    EXPECT_FALSE(has("/chosen", "linux,initrd-start"));
    EXPECT_FALSE(has("/chosen", "linux,initrd-end"));
    config.initrd_start = 0x4400'0000;
    config.initrd_end = 0x4400'001b;
    build();
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-start"), (cells{0, 0x4400'0000}));
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-end"), (cells{0, 0x4400'001b}));
    config.initrd_start = 0x1'2345'6000; // above 4 GiB: the high cell
    config.initrd_end = 0x1'2346'0000;
    build();
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-start"), (cells{1, 0x2345'6000}));
    config.initrd_end = config.initrd_start; // empty: none
    build();
    EXPECT_FALSE(has("/chosen", "linux,initrd-start"));
}

TEST_F(VirtDtb, LongBootargsFit)
{
    config.bootargs = std::string(100000, 'x');
    build();
    EXPECT_EQ(text("/chosen", "bootargs"), config.bootargs);
}

TEST_F(VirtDtb, TheUartClockIsA24MHzFixedClock)
{
    build();
    EXPECT_EQ(text("/apb-pclk", "compatible"), "fixed-clock");
    EXPECT_EQ(cell_list("/apb-pclk", "#clock-cells"), cells{0});
    EXPECT_EQ(cell_list("/apb-pclk", "clock-frequency"), cells{24000000});
    EXPECT_EQ(text("/apb-pclk", "clock-output-names"), "clk24mhz");
}

TEST_F(VirtDtb, ThePl011IsAPrimeCellOnSpi1WithTheClockTwice)
{
    build();
    const std::string uart = "/pl011@9000000";
    EXPECT_EQ(raw(uart, "compatible"), std::string("arm,pl011\0arm,primecell\0", 24));
    EXPECT_EQ(cell_list(uart, "reg"), (cells{0, 0x0900'0000, 0, 0x1000}));
    EXPECT_EQ(cell_list(uart, "interrupts"), (cells{0, 1, 4})); // SPI 1 (INTID 33), level-high
    const uint32_t clock = phandle_of("/apb-pclk");
    EXPECT_NE(clock, 0u);
    EXPECT_EQ(cell_list(uart, "clocks"), (cells{clock, clock}));
    EXPECT_EQ(raw(uart, "clock-names"), std::string("uartclk\0apb_pclk\0", 17));
}

// As QEMU's virt (create_rtc) and Linux's rtc/arm,pl031.yaml: a PrimeCell on SPI 2, its APB
// clock by name, which the AMBA bus enables before it reads the PrimeCell ID.
TEST_F(VirtDtb, ThePl031IsAPrimeCellOnSpi2WithTheApbClock)
{
    build();
    const std::string rtc = "/pl031@9010000";
    EXPECT_EQ(raw(rtc, "compatible"), std::string("arm,pl031\0arm,primecell\0", 24));
    EXPECT_EQ(cell_list(rtc, "reg"), (cells{0, 0x0901'0000, 0, 0x1000}));
    EXPECT_EQ(cell_list(rtc, "interrupts"), (cells{0, 2, 4})); // SPI 2 (INTID 34), level-high
    EXPECT_EQ(cell_list(rtc, "clocks"), cells{phandle_of("/apb-pclk")});
    EXPECT_EQ(raw(rtc, "clock-names"), std::string("apb_pclk\0", 9));
}

TEST_F(VirtDtb, TheGicIsAGicV3WithOneRedistributorRegion)
{
    build();
    const std::string gic = "/intc@8000000";
    EXPECT_EQ(text(gic, "compatible"), "arm,gic-v3");
    EXPECT_EQ(cell_list(gic, "#interrupt-cells"), cells{3});
    EXPECT_EQ(raw(gic, "interrupt-controller"), "");
    // Distributor 64 KiB at 0x0800_0000, one CPU's redistributor (RD_base + SGI_base, 128 KiB)
    // at 0x080A_0000.
    EXPECT_EQ(cell_list(gic, "reg"),
              (cells{0, 0x0800'0000, 0, 0x1'0000, 0, 0x080a'0000, 0, 0x2'0000}));
    EXPECT_EQ(cell_list(gic, "#redistributor-regions"), cells{1});
    EXPECT_EQ(cell_list(gic, "#address-cells"), cells{2});
    EXPECT_EQ(cell_list(gic, "#size-cells"), cells{2});
    EXPECT_EQ(raw(gic, "ranges"), "");
    EXPECT_FALSE(has(gic, "interrupts")); // no virtualization maintenance interrupt
}

TEST_F(VirtDtb, TheTimerHasTheFourPpisOfVirtLevelHigh)
{
    build();
    EXPECT_EQ(raw("/timer", "compatible"), std::string("arm,armv8-timer\0arm,armv7-timer\0", 32));
    // Secure physical INTID 29, non-secure physical 30, virtual 27, hypervisor 26.
    EXPECT_EQ(cell_list("/timer", "interrupts"), (cells{1, 13, 4, 1, 14, 4, 1, 11, 4, 1, 10, 4}));
    EXPECT_EQ(raw("/timer", "always-on"), "");
    EXPECT_FALSE(has("/timer", "clock-frequency"));
}

TEST_F(VirtDtb, TheTimerFrequencyIsGivenWhenSet)
{
    config.timer_frequency_hz = 62'500'000;
    build();
    EXPECT_EQ(cell_list("/timer", "clock-frequency"), cells{62'500'000});
}

TEST_F(VirtDtb, ThePmuIsPmuv3OnPpi7)
{
    build();
    EXPECT_EQ(text("/pmu", "compatible"), "arm,armv8-pmuv3");
    EXPECT_EQ(cell_list("/pmu", "interrupts"), (cells{1, 7, 4})); // INTID 23
}

// Linux's arm,trace-buffer-extension binding (coresight-trbe probes it): the node "trbe" with
// exactly one PPI, TRBIRQ where the platform wires it (INTID 22, PPI 6), level-sensitive (flags
// 4, IRQ_TYPE_LEVEL_HIGH), and no other property (additionalProperties: false); absent without
// a Trace Buffer Unit.
TEST_F(VirtDtb, TheTrbeIsOnItsPpiWhenPresent)
{
    build();
    EXPECT_EQ(text("/trbe", "compatible"), "arm,trace-buffer-extension");
    EXPECT_EQ(cell_list("/trbe", "interrupts"), (cells{1, 6, 4})); // INTID 22
    EXPECT_EQ(properties("/trbe"), (std::set<std::string>{"compatible", "interrupts"}));
    config.trbe_ppi = 15; // INTID 31
    build();
    EXPECT_EQ(cell_list("/trbe", "interrupts"), (cells{1, 15, 4}));
    config.trbe = false;
    build();
    EXPECT_EQ(node("/trbe"), -FDT_ERR_NOTFOUND);
}

// Linux's arm,embedded-trace-extension binding (coresight-etm4x probes it): one node per CPU,
// named as the binding's pattern ^ete([0-9a-f]+)$ says, that names its CPU by phandle, with
// compatible and cpu only (no out-ports: its trace goes to the TRBE); absent without FEAT_ETE.
TEST_F(VirtDtb, TheEteNamesItsCpuWhenPresent)
{
    build();
    EXPECT_EQ(node("/ete0"), -FDT_ERR_NOTFOUND);
    EXPECT_FALSE(has("/cpus/cpu@0", "phandle"));
    config.ete = true;
    build();
    EXPECT_EQ(text("/ete0", "compatible"), "arm,embedded-trace-extension");
    const uint32_t cpu = phandle_of("/cpus/cpu@0");
    EXPECT_NE(cpu, 0u);
    EXPECT_EQ(cell_list("/ete0", "cpu"), cells{cpu});
    EXPECT_EQ(properties("/ete0"), (std::set<std::string>{"compatible", "cpu"}));
    EXPECT_EQ(fdt_node_offset_by_phandle(fdt(), cpu), node("/cpus/cpu@0"));
}

// The trace unit and the buffer together, as pmtrace-vp --kernel describes its PE: both nodes,
// each found by its compatible string as the drivers' of_match tables find them, and the
// phandle of the CPU unique in the tree.
TEST_F(VirtDtb, TheTraceUnitAndTheBufferAreFoundByCompatible)
{
    config.ete = true;
    config.mpidr = 0x8000'0100; // Aff1 1: cpu@100
    build();
    const int ete = fdt_node_offset_by_compatible(fdt(), -1, "arm,embedded-trace-extension");
    const int trbe = fdt_node_offset_by_compatible(fdt(), -1, "arm,trace-buffer-extension");
    ASSERT_GE(ete, 0);
    ASSERT_GE(trbe, 0);
    EXPECT_EQ(ete, node("/ete0"));
    EXPECT_EQ(trbe, node("/trbe"));
    EXPECT_EQ(fdt_node_offset_by_compatible(fdt(), ete, "arm,embedded-trace-extension"),
              -FDT_ERR_NOTFOUND); // one CPU, one trace unit
    const uint32_t cpu = phandle_of("/cpus/cpu@100");
    EXPECT_EQ(cell_list("/ete0", "cpu"), cells{cpu});
    std::set<uint32_t> phandles;
    for (const char *path : {"/cpus/cpu@100", "/intc@8000000", "/apb-pclk"})
        EXPECT_TRUE(phandles.insert(phandle_of(path)).second) << path;
}

TEST_F(VirtDtb, OtherAddressesNameTheirNodes)
{
    config.ram_base = 0x8000'0000;
    config.uart_base = 0x1c09'0000;
    config.rtc_base = 0x1001'7000;
    config.gicd_base = 0x2f00'0000;
    config.gicr_base = 0x2f10'0000;
    build();
    EXPECT_EQ(cell_list("/memory@80000000", "reg"), (cells{0, 0x8000'0000, 0, 0x0800'0000}));
    EXPECT_EQ(text("/chosen", "stdout-path"), "/pl011@1c090000");
    EXPECT_EQ(cell_list("/pl031@10017000", "reg"), (cells{0, 0x1001'7000, 0, 0x1000}));
    EXPECT_EQ(cell_list("/intc@2f000000", "reg"),
              (cells{0, 0x2f00'0000, 0, 0x1'0000, 0, 0x2f10'0000, 0, 0x2'0000}));
}

// dtc, the reference compiler, decompiles the blob (with every node: the trace unit's too)
// without an error or a warning.
TEST_F(VirtDtb, DtcDecompilesIt)
{
    config.bootargs = "console=ttyAMA0";
    config.ete = true;
    build();
    const fs::path dir =
        fs::temp_directory_path() / ("pmtrace_virt_dtb_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    {
        std::ofstream f(dir / "virt.dtb", std::ios::binary);
        f.write(reinterpret_cast<const char *>(blob.data()),
                static_cast<std::streamsize>(blob.size()));
    }
    const std::string command = std::string(PMTRACE_DTC) + " -I dtb -O dts -o " +
                                (dir / "virt.dts").string() + " " + (dir / "virt.dtb").string() +
                                " 2> " + (dir / "dtc.err").string();
    const int status = std::system(command.c_str());
    std::ifstream dts_file(dir / "virt.dts"), err_file(dir / "dtc.err");
    std::stringstream dts, err;
    dts << dts_file.rdbuf();
    err << err_file.rdbuf();
    std::error_code ec;
    fs::remove_all(dir, ec);
    EXPECT_EQ(status, 0) << command;
    EXPECT_EQ(err.str(), "");
    // dtc 1.6 prints a string list as one string with its NULs escaped.
    EXPECT_NE(dts.str().find("compatible = \"arm,pl011\\0arm,primecell\";"), std::string::npos)
        << dts.str();
    EXPECT_NE(dts.str().find("bootargs = \"console=ttyAMA0\";"), std::string::npos);
    EXPECT_NE(dts.str().find("compatible = \"arm,pl031\\0arm,primecell\";"), std::string::npos);
}

// ---- bad configurations: no blob, one sentence ----

std::string refusal(const virt_dtb_config &config)
{
    std::string error;
    const std::vector<uint8_t> blob = build_virt_dtb(config, error);
    EXPECT_TRUE(blob.empty());
    return error;
}

TEST(VirtDtbConfig, APsciMethodOtherThanHvcSmcOrNoneIsRefused)
{
    virt_dtb_config c;
    c.psci_method = "svc";
    EXPECT_EQ(refusal(c), "virt_dtb: the PSCI method 'svc' is not \"hvc\", \"smc\" or \"none\"");
}

TEST(VirtDtbConfig, APpiAbove15IsRefused)
{
    virt_dtb_config c;
    c.pmu_ppi = 23; // an INTID, not a PPI number
    EXPECT_EQ(refusal(c), "virt_dtb: the PMU PPI 23 is not a PPI number (0-15, INTID-16)");
}

TEST(VirtDtbConfig, TwoInterruptsOnOnePpiAreRefused)
{
    virt_dtb_config c;
    c.trbe_ppi = 7; // the PMU's
    EXPECT_EQ(refusal(c), "virt_dtb: the TRBE PPI 7 is already used by another interrupt");
    c.trbe = false; // no TRBE, no conflict
    std::string error;
    EXPECT_FALSE(build_virt_dtb(c, error).empty()) << error;
}

TEST(VirtDtbConfig, AnSpiAbove987IsRefused)
{
    virt_dtb_config c;
    c.uart_spi = 988;
    EXPECT_EQ(refusal(c), "virt_dtb: the UART's SPI 988 is not an SPI number (0-987, INTID-32)");
    c = virt_dtb_config{};
    c.rtc_spi = 988;
    EXPECT_EQ(refusal(c), "virt_dtb: the RTC's SPI 988 is not an SPI number (0-987, INTID-32)");
}

TEST(VirtDtbConfig, TwoDevicesOnOneSpiAreRefused)
{
    virt_dtb_config c;
    c.rtc_spi = c.uart_spi;
    EXPECT_EQ(refusal(c), "virt_dtb: the RTC's SPI 1 is already used by the UART");
}

TEST(VirtDtbConfig, EmptyOrWrappingRegionsAreRefused)
{
    virt_dtb_config c;
    c.ram_size = 0;
    EXPECT_EQ(refusal(c), "virt_dtb: the RAM at 0x40000000 has size 0");
    c = virt_dtb_config{};
    c.gicr_base = 0xffff'ffff'ffff'0000;
    EXPECT_EQ(refusal(c), "virt_dtb: the GIC redistributor region at 0xffffffffffff0000 of size "
                          "0x20000 runs past the end of the 64-bit address space");
    c = virt_dtb_config{};
    c.rtc_size = 0;
    EXPECT_EQ(refusal(c), "virt_dtb: the RTC at 0x9010000 has size 0");
}

TEST(VirtDtbConfig, AnEmptyCpuCompatibleOrAStoppedClockIsRefused)
{
    virt_dtb_config c;
    c.cpu_compatible = "";
    EXPECT_EQ(refusal(c), "virt_dtb: the CPU's compatible string is empty");
    c = virt_dtb_config{};
    c.uart_clock_hz = 0;
    EXPECT_EQ(refusal(c), "virt_dtb: the UART's clock (apb-pclk) is 0 Hz");
}

} // namespace

// A user's device tree (--dtb): checked, and --append sets /chosen/bootargs (replacing the old
// value, making /chosen when the tree has none), every other node kept.
TEST_F(VirtDtb, AUsersTreeGetsTheBootargsAndKeepsItsNodes)
{
    config.bootargs = "loud";
    build();
    blob = prepare_user_dtb(blob, "console=ttyAMA0 quiet", error);
    ASSERT_FALSE(blob.empty()) << error;
    EXPECT_EQ(fdt_check_full(blob.data(), blob.size()), 0);
    EXPECT_EQ(text("/chosen", "bootargs"), "console=ttyAMA0 quiet");
    EXPECT_EQ(text("/pmu", "compatible"), "arm,armv8-pmuv3");
}

TEST_F(VirtDtb, AUsersTreeWithoutChosenGetsOne)
{
    build();
    ASSERT_EQ(fdt_open_into(blob.data(), blob.data(), static_cast<int>(blob.size())), 0);
    ASSERT_EQ(fdt_del_node(blob.data(), node("/chosen")), 0);
    ASSERT_EQ(fdt_pack(blob.data()), 0);
    blob.resize(fdt_totalsize(blob.data()));
    ASSERT_LT(node("/chosen"), 0);
    blob = prepare_user_dtb(blob, "root=/dev/vda", error);
    ASSERT_FALSE(blob.empty()) << error;
    EXPECT_EQ(text("/chosen", "bootargs"), "root=/dev/vda");
}

TEST_F(VirtDtb, AUsersTreeWithoutAppendIsGivenAsItIs)
{
    build();
    const std::vector<uint8_t> before = blob;
    EXPECT_EQ(prepare_user_dtb(before, "", error), before);
}

// ... and -initrd sets /chosen/linux,initrd-start and -end in a user's tree as well, in the cells
// its root's #address-cells says (1 or 2); an address that does not fit one cell is refused.
TEST_F(VirtDtb, AUsersTreeGetsTheInitrdInItsAddressCells)
{
    build();
    std::vector<uint8_t> user = blob;
    blob = prepare_user_dtb(user, "", 0x4400'0000, 0x4400'1000, error);
    ASSERT_FALSE(blob.empty()) << error;
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-start"), (cells{0, 0x4400'0000}));
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-end"), (cells{0, 0x4400'1000}));
    EXPECT_FALSE(has("/chosen", "bootargs"));

    blob = user;
    ASSERT_EQ(fdt_open_into(blob.data(), blob.data(), static_cast<int>(blob.size())), 0);
    ASSERT_EQ(fdt_setprop_u32(blob.data(), 0, "#address-cells", 1), 0);
    ASSERT_EQ(fdt_pack(blob.data()), 0);
    blob.resize(fdt_totalsize(blob.data()));
    user = blob;
    blob = prepare_user_dtb(user, "quiet", 0x4400'0000, 0x4400'1000, error);
    ASSERT_FALSE(blob.empty()) << error;
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-start"), (cells{0x4400'0000}));
    EXPECT_EQ(cell_list("/chosen", "linux,initrd-end"), (cells{0x4400'1000}));
    EXPECT_EQ(text("/chosen", "bootargs"), "quiet");
    EXPECT_TRUE(prepare_user_dtb(user, "", 0x1'0000'0000, 0x1'0000'1000, error).empty());
    EXPECT_NE(error.find("linux,initrd"), std::string::npos) << error;
}

TEST_F(VirtDtb, WhatIsNotADeviceTreeIsRefused)
{
    build();
    std::vector<uint8_t> truncated(blob.begin(), blob.begin() + blob.size() / 2);
    for (const std::vector<uint8_t> &bad :
         {std::vector<uint8_t>{}, std::vector<uint8_t>(64, 0xAB), truncated}) {
        error.clear();
        EXPECT_TRUE(prepare_user_dtb(bad, "x", error).empty());
        EXPECT_NE(error.find("not a valid device tree blob"), std::string::npos) << error;
    }
}
