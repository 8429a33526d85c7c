// Running the A64 test programs (tests/platform/cpu/a64/*.S) on the platform (a64_image.h): each
// ends with PSCI SYSTEM_OFF, after which the test reads what it left in x0..x30.
#ifndef PMTRACE_TESTS_PLATFORM_A64_PROGRAM_H
#define PMTRACE_TESTS_PLATFORM_A64_PROGRAM_H

#include "a64_image.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

namespace a64_test
{

struct run_result {
    std::unique_ptr<pmtrace::platform::vp> platform;
    uint64_t x[31] = {};
};

// Runs program `name` (a64_image.h's run_image); x1 is its argument (x0 the device tree: 0),
// setup what the test sets up on the platform before it runs.
inline run_result run(const std::string &name,
                      pmtrace::platform::vp_config config = pmtrace::platform::vp_config(),
                      uint64_t x1 = 0,
                      const pmtrace::test::platform_setup &setup = pmtrace::test::platform_setup())
{
    using namespace pmtrace::platform;
    run_result r;
    r.platform = pmtrace::test::run_image(std::string(PMTRACE_A64_DIR) + "/" + name + ".bin",
                                          config, x1, setup);
    for (unsigned n = 0; n < 31; n++)
        r.x[n] = r.platform->a64->engine().x(n);
    EXPECT_EQ(r.platform->a64->end(), a64_cpu_end::system_off) << r.platform->a64->error();
    return r;
}

// The addresses of a program's labels: its symbols as nm lists them ("address type name", the
// .sym file built beside it). labels("name") is the address, a test failure if there is none.
struct labels {
    std::map<std::string, uint64_t> s;
    labels() = default;
    explicit labels(const std::string &program)
    {
        std::ifstream f(std::string(PMTRACE_A64_DIR) + "/" + program + ".sym");
        std::string line;
        while (std::getline(f, line)) {
            std::istringstream l(line);
            std::string address, type, name;
            if (l >> address >> type >> name)
                s[name] = std::stoull(address, nullptr, 16);
        }
    }
    uint64_t operator()(const std::string &name) const
    {
        auto it = s.find(name);
        EXPECT_NE(it, s.end()) << "no symbol " << name;
        return it == s.end() ? 0 : it->second;
    }
};

// An ESR_ELx value: EC, IL = 1, ISS.
constexpr uint64_t esr(uint32_t ec, uint32_t iss)
{
    return (uint64_t{ec} << 26) | (1u << 25) | iss;
}

} // namespace a64_test

#endif
