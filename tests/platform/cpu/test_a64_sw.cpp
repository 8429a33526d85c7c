// The sw/ drivers and apps as AArch64 bare-metal images (sw/arch/aarch64) on the platform's
// AArch64 CPU: each image runs to PSCI SYSTEM_OFF and prints its results on the PL011; the
// tests check them against what the executed code implies. hal_a64's run retires a piece of n
// instructions as a loop (sw/arch/aarch64/el0.S): at EL0, n instructions there, the final SVC
// included, of which B.NE is (n - 1) / 2 for odd n and (n - 2) / 2 for even n >= 4.
#include "a64_image.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <cstdlib>
#include <string>

using namespace pmtrace::platform;
using pmtrace::test::run_image;
using pmtrace::test::warning_log;

namespace
{

constexpr uint64_t loop_branches(uint64_t n)
{
    return n <= 2 ? 0 : (n & 1) ? (n - 1) / 2 : (n - 2) / 2;
}

struct sw_image {
    std::unique_ptr<vp> platform;
    std::string uart;
};

sw_image run_sw(const std::string &name, const std::string &dir = PMTRACE_SW_A64_DIR,
                vp_config config = vp_config())
{
    sw_image r;
    r.platform = run_image(dir + "/" + name + ".bin", config);
    r.uart = r.platform->uart.output();
    EXPECT_EQ(r.platform->a64->end(), a64_cpu_end::system_off) << r.platform->a64->error();
    EXPECT_EQ(r.uart.find("panic"), std::string::npos) << r.uart;
    return r;
}

// The part of the output from "stat <session>:" to the next blank line after the table.
std::string section(const std::string &out, const std::string &title)
{
    size_t at = out.find(title);
    if (at == std::string::npos)
        return {};
    size_t end = out.find("overflow interrupts", at);
    return out.substr(at, end == std::string::npos ? std::string::npos : end - at + 40);
}

// A count of a perf-stat table row ("   100,100      INST_RETIRED   (PMEVCNTR0_EL0)"), or -1.
int64_t count_of(const std::string &table, const std::string &event)
{
    size_t at = table.find(" " + event + " ");
    if (at == std::string::npos)
        return -1;
    size_t line = table.rfind('\n', at);
    std::string digits;
    for (size_t i = line == std::string::npos ? 0 : line + 1; i < at; i++)
        if (table[i] >= '0' && table[i] <= '9')
            digits += table[i];
    return digits.empty() ? -1 : std::strtoll(digits.c_str(), nullptr, 10);
}

} // namespace

// stat counting EL0 only (PMEVTYPER<n>_EL0.P = 1, PMCCFILTR_EL0.P = 1; D13.7.1): 100 pieces of
// 1001 instructions at EL0 are 100,100 instructions and 50,000 B.NE, and, at one cycle per
// instruction (a64_cpu_config::cycles_per_instruction), 100,100 cycles at EL0.
TEST(SwA64, StatCountsTheEl0LoopExactly)
{
    sw_image r = run_sw("sw_stat");
    EXPECT_NE(r.uart.find("pmtrace sw/stat on AArch64: entered at EL1, running at EL1"),
              std::string::npos)
        << r.uart;
    std::string user = section(r.uart, "stat user:");
    ASSERT_FALSE(user.empty()) << r.uart;
    EXPECT_EQ(count_of(user, "INST_RETIRED"), 100 * 1001);
    EXPECT_EQ(count_of(user, "BR_RETIRED"), 100 * loop_branches(1001));
    EXPECT_EQ(count_of(user, "CPU_CYCLES"), 100 * 1001);
    EXPECT_NE(user.find("(FEAT_PMUv3p7, 6 counters)"), std::string::npos) << user;
    EXPECT_NE(r.uart.find("stat: 0 sessions failed"), std::string::npos) << r.uart;
}

// stat counting EL1 only (PMEVTYPER<n>_EL0.U = 1): what the kernel executes between the PMU's
// start and stop does not depend on the loop's length, so pieces of 1000 and of 3000
// instructions give the same counts: none of the loop's instructions or branches is counted.
TEST(SwA64, StatCountingEl1SeesNoEl0Instruction)
{
    sw_image r = run_sw("sw_stat");
    std::string a = section(r.uart, "stat kernel:"), b = section(r.uart, "stat kernel-long:");
    ASSERT_FALSE(a.empty() || b.empty()) << r.uart;
    EXPECT_GT(count_of(a, "INST_RETIRED"), 0);
    EXPECT_EQ(count_of(a, "INST_RETIRED"), count_of(b, "INST_RETIRED"));
    EXPECT_EQ(count_of(a, "BR_RETIRED"), count_of(b, "BR_RETIRED"));
    EXPECT_LT(count_of(a, "INST_RETIRED"), 100 * 1000);
}

// The loop run at EL1 with only EL0 counted: nothing runs at EL0, every count is 0.
TEST(SwA64, StatOfEl1WorkCountingEl0IsZero)
{
    sw_image r = run_sw("sw_stat");
    std::string s = section(r.uart, "stat el1-work:");
    ASSERT_FALSE(s.empty()) << r.uart;
    EXPECT_EQ(count_of(s, "INST_RETIRED"), 0);
    EXPECT_EQ(count_of(s, "BR_RETIRED"), 0);
    EXPECT_EQ(count_of(s, "CPU_CYCLES"), 0);
}

// Entered at EL2 (QEMU's virt with virtualization=on): the startup gives EL1 the counters
// (MDCR_EL2.HPMN = PMCR_EL0.N) and the trace buffer, drops to EL1, and PSCI goes over SMC; the
// EL0 counts are the same.
TEST(SwA64, StatEnteredAtEl2RunsAtEl1)
{
    vp_config config;
    config.a64.entry_el = 2;
    sw_image r = run_sw("sw_stat", PMTRACE_SW_A64_DIR, config);
    EXPECT_NE(r.uart.find("pmtrace sw/stat on AArch64: entered at EL2, running at EL1"),
              std::string::npos)
        << r.uart;
    std::string user = section(r.uart, "stat user:");
    EXPECT_EQ(count_of(user, "INST_RETIRED"), 100 * 1001);
    EXPECT_NE(user.find("(FEAT_PMUv3p7, 6 counters)"), std::string::npos) << user;
    EXPECT_NE(r.uart.find("stat: 0 sessions failed"), std::string::npos) << r.uart;
}

// record, INST_RETIRED at EL0 every 10,000: the counter overflows at the exact instruction and
// PMUIRQ (INTID 23) is taken right after it, so sample i is at exactly i x 10,000 (the handler
// runs at EL1, which is not counted): 10 samples in 100,100 instructions.
TEST(SwA64, RecordSamplesAtTheExactCount)
{
    sw_image r = run_sw("sw_record");
    EXPECT_NE(r.uart.find("[ perf record: 10 samples of event 'INST_RETIRED' (r0008), period "
                          "10000, 100,100 events, 10 PMU interrupts ]"),
              std::string::npos)
        << r.uart;
    for (uint64_t i = 0; i < 10; i++) {
        std::string line = "  sample " + std::to_string(i) + ": count " +
                           std::to_string((i + 1) * 10000) + " period 10000\n";
        EXPECT_NE(r.uart.find(line), std::string::npos) << line << r.uart;
    }
    EXPECT_EQ(r.platform->a64->stats().irqs, 10u);
    EXPECT_NE(r.uart.find("record: ok"), std::string::npos) << r.uart;
}

// trace: the TRBE driver's sequences as MSR and MRS (probe, enable in Fill mode, TSB CSYNC,
// disable). The platform's default PE has no trace unit, so nothing is written: TRBPTR_EL1 stays
// at the base.
// pmtrace-vp's scenario image with no device tree (x0 = 0, so no command line): its defaults,
// stat over 1000 x 1000 instructions at EL0 inside a Fill-mode trace session, ended by PSCI
// SYSTEM_OFF (no pmtrace.semihosting=1).
TEST(SwA64, ScenarioImageWithoutACommandLineRunsItsDefaults)
{
    sw_image r = run_sw("sw_vp");
    EXPECT_NE(r.uart.find("stat: 1000 x 1000 instructions at EL0, 100 a piece, traced in Fill "
                          "mode alongside\n"),
              std::string::npos)
        << r.uart;
    EXPECT_NE(r.uart.find("trace: Fill mode"), std::string::npos) << r.uart;
    EXPECT_NE(r.uart.find("\nsw/vp: stat ok\n"), std::string::npos) << r.uart;
}

TEST(SwA64, TraceSessionWithoutATraceUnit)
{
    sw_image r = run_sw("sw_trace");
    EXPECT_NE(r.uart.find("trace: Fill mode, trigger: none, buffer 0x40400000..0x40410000"),
              std::string::npos)
        << r.uart;
    EXPECT_NE(r.uart.find("                   0      trace bytes captured\n"
                          "                   0      TRBIRQ interrupts\n"),
              std::string::npos)
        << r.uart;
    EXPECT_NE(r.uart.find("TRBPTR_EL1 0x40400000"), std::string::npos) << r.uart;
    EXPECT_NE(r.uart.find("trace: ok"), std::string::npos) << r.uart;
}

// The same image on a PE with the ETE: the trace app programs the trace unit as perf does
// (sw/drivers/ete) and the buffer holds everything the unit generated, nothing more.
TEST(SwA64, TraceSessionWithTheTraceUnit)
{
    vp_config config;
    config.pe.core.ete.feat_ete = true;
    sw_image r = run_sw("sw_trace", PMTRACE_SW_A64_DIR, config);
    pmt_ete_stats stats{};
    ASSERT_EQ(pmt_ete_get_stats(r.platform->pe.core(), &stats), PMT_OK);
    EXPECT_GT(stats.bytes, 100u);
    EXPECT_LT(stats.bytes, 0x10000u); // no buffer full
    char ptr[64];
    std::snprintf(ptr, sizeof ptr, "TRBPTR_EL1 0x%llx",
                  static_cast<unsigned long long>(0x40400000u + stats.bytes));
    EXPECT_NE(r.uart.find(ptr), std::string::npos) << ptr << "\n" << r.uart;
    EXPECT_NE(r.uart.find("trace: ok"), std::string::npos) << r.uart;
}

// The HAL's fixups (a64.h): an UNDEFINED access (EC 0x00) returns HAL_UNDEFINED - PMICNTR_EL0
// without FEAT_PMUv3_ICNTR, an EL2 register at EL1, an MSR of a read-only register; an EL0
// access trapped by PMUSERENR_EL0.EN = 0 (EC 0x18 to EL1, D13.11) HAL_TRAP_EL1; an External
// abort on a device access (EC 0x25) HAL_BUS_ERROR; a failed read gives 0. Bad sizes and
// alignment are refused before any access; an encoding the HAL has no instruction for is
// HAL_UNSUPPORTED; work above EL1 HAL_INVALID.
TEST(SwA64, HalFixupsReturnTheStatus)
{
    warning_log warnings;
    sw_image r = run_sw("hal_check", PMTRACE_A64_DIR);
    const char *expected[] = {
        "CurrentEL read: OK 0x4\n",
        "PMICNTR_EL0 read: UNDEFINED 0x0\n",
        "MDCR_EL2 read: UNDEFINED 0x0\n",
        "PMCEID0_EL0 write: UNDEFINED 0x0\n",
        "MIDR_EL1 read: UNSUPPORTED 0x0\n",
        "PMCR_EL0.N: OK 0x6\n",
        "PMCCNTR_EL0 read at EL0, PMUSERENR_EL0.EN 0: TRAP_EL1 0x0\n",
        "PMCCNTR_EL0 read at EL0, PMUSERENR_EL0.EN 1: OK 0x0\n",
        "MMIO read of a hole: BUS_ERROR 0x0\n",
        "MMIO read of 3 bytes: BUS_ERROR 0x0\n",
        "MMIO read unaligned: BUS_ERROR 0x0\n",
        "MMIO read of UARTFR: OK 0x90\n",
        "run at EL2: INVALID 0x0\n",
        "hal_check: done\n",
    };
    for (const char *line : expected)
        EXPECT_NE(r.uart.find(line), std::string::npos) << line << r.uart;
    ASSERT_EQ(warnings.list().size(), 1u);
    EXPECT_EQ(warnings.list()[0], "vp.bus: no target at 0xa000000 (4 bytes)");
}

// hal_a64's run retires exactly n instructions at EL0 for every n, at each of the loop's four
// entries (1, 2, even, odd), counted by an event counter that does not count EL1.
TEST(SwA64, RunRetiresExactlyTheWorksInstructions)
{
    warning_log warnings; // the hole's access above
    sw_image r = run_sw("hal_check", PMTRACE_A64_DIR);
    for (uint64_t n : {1u, 2u, 3u, 4u, 5u, 6u, 1001u, 1000000u}) {
        std::string line = "run of " + std::to_string(n) + " instructions at EL0: OK, " +
                           "INST_RETIRED at EL0 " + std::to_string(n) + "\n";
        EXPECT_NE(r.uart.find(line), std::string::npos) << line << r.uart;
    }
}
