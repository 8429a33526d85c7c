// a64_cpu_semihosting.cpp - Arm semihosting as a debugger (or QEMU's -semihosting) serves it:
// in AArch64 state the call is HLT #0xF000 with the operation in W0 and its parameter (or the
// address of a parameter block) in X1; the result goes to X0 and execution goes on after the HLT
// ("Semihosting for AArch32 and AArch64", Arm IHI 0069). While a debugger serves the call the PE
// is halted, in Debug state, where the PMU does not count: the HLT is not retired and no event
// is counted for it.
#include <pmtrace/platform/cpu/a64_cpu.h>

#include "a64_cpu_regs.h"

#include <cstdio>

namespace pmtrace::platform
{

namespace
{

constexpr uint32_t hlt_semihosting = 0xD45E'0000; // HLT #0xF000
constexpr uint64_t sys_writec = 0x03, sys_write0 = 0x04, sys_exit = 0x18, sys_exit_extended = 0x20;
constexpr uint64_t adp_stopped_application_exit = 0x20026;
constexpr size_t max_string = 1 << 16;

} // namespace

bool a64_cpu::read_guest(uint64_t va, void *dst, size_t n)
{
    auto *out = static_cast<uint8_t *>(dst);
    for (size_t i = 0; i < n; i++) {
        const a64_translation t = translate(va + i, 1, false, false);
        if (t.fault.kind != a64_fault_kind::none || !engine_->read_memory(t.pa, out + i, 1))
            return false;
    }
    return true;
}

// False when the instruction at pc is not the semihosting HLT (it is then UNDEFINED).
bool a64_cpu::semihosting_call(uint64_t pc)
{
    uint32_t insn = 0;
    if (!read_code(pc, insn) || insn != hlt_semihosting)
        return false;
    if (tracing_) // not an instruction the PMU counts, but one that ran (a debugger's call)
        trace_retired(pc, pc + 4);
    const uint64_t op = engine_->x(0) & 0xFFFF'FFFF, param = engine_->x(1);
    int64_t result = -1; // an operation not served, or a parameter that cannot be read
    switch (op) {
    case sys_writec: {
        char c = 0;
        if (read_guest(param, &c, 1)) {
            std::fputc(c, stdout);
            std::fflush(stdout);
            result = 0;
        }
        break;
    }
    case sys_write0: {
        std::string text;
        char c = 0;
        while (text.size() < max_string && read_guest(param + text.size(), &c, 1) && c)
            text += c;
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
        result = 0;
        break;
    }
    case sys_exit:
    case sys_exit_extended: {
        // AArch64: X1 points to {reason, subcode}; an application's exit gives its status,
        // any other reason (an exception the program reports) the status 1, as QEMU does.
        uint64_t block[2] = {0, 0};
        if (!read_guest(param, block, sizeof block))
            break;
        exit_status_ = block[0] == adp_stopped_application_exit ? static_cast<int>(block[1]) : 1;
        end_ = a64_cpu_end::exit;
        return true;
    }
    default: break;
    }
    engine_->set_x(0, static_cast<uint64_t>(result));
    engine_->set_reg(a64_reg::pc, pc + 4);
    return true;
}

} // namespace pmtrace::platform
