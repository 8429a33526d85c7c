// a64_image.h - running an AArch64 image on the platform in a test: the image loaded at RAM +
// 0x80000 and entered there with x0 = 0 at the configured EL, as QEMU's virt enters a raw
// binary, simulated until it turns the PE off (PSCI SYSTEM_OFF) or for at most a second; and the
// SystemC warnings a test expects, kept instead of failing it.
#ifndef PMTRACE_TESTS_A64_IMAGE_H
#define PMTRACE_TESTS_A64_IMAGE_H

#include <pmtrace/platform/vp.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

namespace pmtrace::test
{

constexpr uint64_t a64_load_address = 0x4008'0000;

inline std::vector<uint8_t> read_image(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// What a test sets up on the platform before the image runs (an injected fault, a mapping).
using platform_setup = std::function<void(platform::vp &)>;

// The platform with the AArch64 CPU, after the image at `path` ran.
// x1: an argument for the image (x0, the device tree, is 0); setup: called before it runs.
inline std::unique_ptr<platform::vp> run_image(const std::string &path,
                                               platform::vp_config config = platform::vp_config(),
                                               uint64_t x1 = 0,
                                               const platform_setup &setup = platform_setup())
{
    config.cpu_kind = platform::vp_cpu::a64;
    auto p = std::make_unique<platform::vp>("vp", config);
    std::vector<uint8_t> image = read_image(path);
    if (image.empty() || !p->load(a64_load_address, image))
        return p; // nothing ran: end() stays running
    if (setup)
        setup(*p);
    p->a64->set_boot(a64_load_address, 0, x1);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    return p;
}

// Keeps SystemC warnings (type: message) while it lives, instead of the harness's handler, which
// fails the test on any.
class warning_log
{
  public:
    warning_log()
    {
        messages().clear();
        previous_ = sc_core::sc_report_handler::set_handler(keep);
    }
    ~warning_log() { sc_core::sc_report_handler::set_handler(previous_); }
    warning_log(const warning_log &) = delete;
    warning_log &operator=(const warning_log &) = delete;
    const std::vector<std::string> &list() const { return messages(); }

  private:
    sc_core::sc_report_handler_proc previous_ = nullptr;
    static std::vector<std::string> &messages()
    {
        static std::vector<std::string> m;
        return m;
    }
    static void keep(const sc_core::sc_report &report, const sc_core::sc_actions &)
    {
        if (report.get_severity() == sc_core::SC_WARNING)
            messages().push_back(std::string(report.get_msg_type()) + ": " + report.get_msg());
    }
};

} // namespace pmtrace::test

#endif
