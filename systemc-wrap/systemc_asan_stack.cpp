// systemc_asan_stack.cpp - under AddressSanitizer, gives ASan back its record of the main
// thread's stack before LeakSanitizer's check at exit. Linked into every executable that runs a
// SystemC simulation (pmtrace_systemc_asan, systemc-wrap/CMakeLists.txt); empty without ASan.
//
// Workaround for SystemC 2.3.4's QuickThreads coroutines (sc_cor_qt.cpp), which tell ASan of a
// switch (__sanitizer_start_switch_fiber, then __sanitizer_finish_switch_fiber on the new stack)
// only in sc_cor_pkg_qt::yield, giving the main coroutine's stack as null and size 0, and not at
// all in sc_cor_pkg_qt::abort, the switch away from a thread process whose function has
// returned. So after a simulation ASan's record of the main thread's stack is empty or, when the
// last switch back to the main coroutine was an abort, the finished process's coroutine stack,
// which SystemC unmaps when it collects the process (sc_simcontext::do_collect_processes). At
// exit LeakSanitizer takes that range for the main thread's stack, skips its leading unmapped
// pages and scans the rest; its tracer faults ("Tracer caught signal 11", "LeakSanitizer has
// encountered a fatal error") when an unmapped page follows a mapped one, which depends on what
// has been mapped there since: about half the runs, as ASLR places it. The runtime's own record is
// read here before main, and put back by an atexit handler registered then, so it runs after
// sc_main returns and before LeakSanitizer's check, which the runtime registered earlier still.
// Both through the documented fiber interface. docs/testing.md "SystemC coroutines and
// LeakSanitizer" has the evidence.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMTRACE_SYSTEMC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PMTRACE_SYSTEMC_ASAN 1
#endif

#ifdef PMTRACE_SYSTEMC_ASAN

#include <sanitizer/common_interface_defs.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace
{

struct stack_range {
    const void *bottom;
    std::size_t size;
};

// Makes `to` ASan's record of this thread's stack and returns the record it replaces: a switch
// from this stack to itself, which keeps the fake stack (detect_stack_use_after_return).
stack_range set_asan_stack(stack_range to)
{
    void *fake_stack = nullptr;
    stack_range was{nullptr, 0};
    __sanitizer_start_switch_fiber(&fake_stack, to.bottom, to.size);
    __sanitizer_finish_switch_fiber(fake_stack, &was.bottom, &was.size);
    return was;
}

// The runtime's own record of the main thread's stack, read during static initialisation: on the
// main thread, before any simulation.
stack_range read_asan_stack()
{
    const stack_range record = set_asan_stack({nullptr, 0});
    set_asan_stack(record);
    return record;
}

const stack_range main_stack = read_asan_stack();

void give_asan_the_main_stack()
{
    // exit() called on a coroutine's stack (from a thread process): the main thread's stack is
    // not the one under way; leave ASan's record as SystemC left it.
    const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    const auto bottom = reinterpret_cast<std::uintptr_t>(main_stack.bottom);
    if (frame < bottom || frame - bottom >= main_stack.size)
        return;
    set_asan_stack(main_stack);
}

[[maybe_unused]] const int registered = std::atexit(give_asan_the_main_stack);

} // namespace

#endif
