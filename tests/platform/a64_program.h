// Running the A64 test programs (tests/platform/a64/*.S) on the platform: each is a raw image
// loaded at 0x40080000 and entered at EL1 as QEMU's virt boot loader does; it ends with PSCI
// SYSTEM_OFF, after which the test reads what it left in x0..x30.
#ifndef PMTRACE_TESTS_PLATFORM_A64_PROGRAM_H
#define PMTRACE_TESTS_PLATFORM_A64_PROGRAM_H

#include <pmtrace/platform/vp.h>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace a64_test
{

constexpr uint64_t load_address = 0x4008'0000;

inline std::vector<uint8_t> program(const std::string &name)
{
    std::ifstream f(std::string(PMTRACE_A64_DIR) + "/" + name + ".bin", std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

struct run_result {
    std::unique_ptr<pmtrace::platform::vp> platform;
    uint64_t x[31] = {};
};

// Runs program `name` for up to a simulated second; x1 is its argument (x0 the device tree: 0).
inline run_result run(const std::string &name,
                      pmtrace::platform::vp_config config = pmtrace::platform::vp_config(),
                      uint64_t x1 = 0)
{
    using namespace pmtrace::platform;
    config.cpu_kind = vp_cpu::a64;
    run_result r;
    r.platform = std::make_unique<vp>("vp", config);
    std::vector<uint8_t> image = program(name);
    EXPECT_FALSE(image.empty()) << name;
    EXPECT_TRUE(r.platform->load(load_address, image));
    r.platform->a64->set_boot(load_address, 0, x1);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    for (unsigned n = 0; n < 31; n++)
        r.x[n] = r.platform->a64->engine().x(n);
    EXPECT_EQ(r.platform->a64->end(), a64_cpu_end::system_off) << r.platform->a64->error();
    return r;
}

// An ESR_ELx value: EC, IL = 1, ISS.
constexpr uint64_t esr(uint32_t ec, uint32_t iss)
{
    return (uint64_t{ec} << 26) | (1u << 25) | iss;
}

} // namespace a64_test

#endif
