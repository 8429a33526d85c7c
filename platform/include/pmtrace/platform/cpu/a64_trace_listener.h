// a64_trace_listener.h - what the AArch64 CPU (a64_cpu.h) reports of the code it executes, in
// the terms of an instruction trace unit (FEAT_ETE): instruction ranges that end with a P0
// element (an atom: taken E, not taken N), exceptions with their preferred return address,
// changes of context, and the end of execution. A trace unit model (or the execution log,
// a64_exec_log.h) implements it; the CPU calls it only while one is attached
// (a64_cpu::add_trace_listener), so detached it costs nothing per block.
//
// The reports form one stream in program order. Between two reports execution is sequential:
// every report says where execution continues, and the next range starts there (a range is
// never empty: start <= last). Taken together they account for every instruction executed,
// each once (docs/cpu.md, "What the CPU reports to a trace unit").
#ifndef PMTRACE_PLATFORM_A64_TRACE_LISTENER_H
#define PMTRACE_PLATFORM_A64_TRACE_LISTENER_H

#include <pmtrace/platform/cpu/a64_decode.h>

#include <cstddef>
#include <cstdint>
#include <systemc>

namespace pmtrace::platform
{

// Instructions [start, last] executed in order, the last a P0 element (a64_p0_kind, never none).
struct a64_trace_range {
    uint64_t start = 0; // the first instruction
    uint64_t last = 0;  // the P0 instruction (the range is (last - start) / 4 + 1 instructions)
    a64_p0_kind kind = a64_p0_kind::none;
    bool conditional = false; // B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ
    // The atom: E (true) for a branch taken and for every P0 element that is not a conditional
    // branch (unconditional branches, ERET, ISB, WFx: executed); N (false) for a conditional
    // branch not taken.
    bool taken = true;
    // Where execution continues: the branch target when taken (also when it is last + 4), else
    // last + 4 (ISB, WFx: always last + 4). For a WFI, also where an interrupt that ends the
    // wait returns to.
    uint64_t next = 0;
    // The range ran `count` times in succession, each time with this outcome (count > 1 only for
    // a loop of one range: next == start). A loop the CPU repeats without calling its model
    // (a64_block_repeat) costs one report for all its iterations since the last report.
    uint64_t count = 1;
};

// The Exception level and Security state, and what ETE's Context packet carries.
struct a64_trace_context {
    unsigned el = 0;
    bool nonsecure = true;
    uint64_t contextidr_el1 = 0;
    uint64_t contextidr_el2 = 0; // 0 where the engine has none (no FEAT_VHE)
    uint16_t vmid = 0;           // VTTBR_EL2.VMID (8 bits), with EL2
    bool operator==(const a64_trace_context &o) const
    {
        return el == o.el && nonsecure == o.nonsecure && contextidr_el1 == o.contextidr_el1 &&
               contextidr_el2 == o.contextidr_el2 && vmid == o.vmid;
    }
    bool operator!=(const a64_trace_context &o) const { return !(*this == o); }
};

// The exceptions as the CPU takes them (ETE's exception types are the trace unit's mapping).
enum class a64_trace_exception : uint8_t {
    svc,               // EC 0x15
    hvc,               // EC 0x16 (not a PSCI call the CPU answers as firmware: no exception)
    smc,               // EC 0x17
    brk,               // EC 0x3C
    undefined,         // EC 0x00: UNDEFINED instruction (also an UNDEFINED system register)
    trap,              // EC 0x18: a system register access trapped to a higher EL
    instruction_abort, // EC 0x20, 0x21
    data_abort,        // EC 0x24, 0x25 (translation faults, External aborts on devices)
    irq,
    fiq,
    serror,
    profiling, // EC 0x3D: the PMU's or the TRBE's Profiling exception
    other,
};

struct a64_trace_exception_taken {
    a64_trace_exception type = a64_trace_exception::other;
    uint32_t ec = 0; // ESR_ELx.EC (synchronous exceptions and SError; 0 for IRQ and FIQ)
    // The instructions executed since the last report, [range_start, preferred_return): none
    // when range_start == preferred_return. They end without a P0 element (an SVC executed is
    // the last of them; an abort's instruction is not executed, nor one an interrupt is taken
    // before).
    uint64_t range_start = 0;
    uint64_t preferred_return = 0; // ELR_ELx
    uint64_t vector = 0;           // where execution continues
    a64_trace_context from, to;    // the state it was taken from, the state at the vector
};

// How the software ended: `exit` is a semihosting SYS_EXIT (a64_cpu::exit_status()).
enum class a64_cpu_end { running, system_off, system_reset, exit, error };

struct a64_trace_end {
    a64_cpu_end reason = a64_cpu_end::running;
    uint64_t start = 0; // the instructions executed since the last report, [start, end): none
    uint64_t end = 0;   // when start == end (the last of them ended execution: HVC SYSTEM_OFF)
};

// How many ranges the CPU gives in one on_ranges call at most (a64_cpu_config::trace_batch): its
// default and its largest.
constexpr unsigned a64_trace_batch_default = 64;
constexpr unsigned a64_trace_batch_max = 1024;

// When the ranges of a batch ended (a64_trace_listener::on_ranges): the CPU's local time offset
// (sc_time_stamp() + offset) of the i-th, worked out only for those a listener asks.
class a64_trace_times
{
  public:
    virtual ~a64_trace_times() = default;
    virtual sc_core::sc_time offset(size_t i) const = 0;
};

class a64_trace_listener
{
  public:
    virtual ~a64_trace_listener() = default;
    // The context from the instruction at `next` on: at the first instruction reported (boot, or
    // the first one after the listener is attached), after an exception return that changed it
    // (after the ERET's range), and after an MSR to CONTEXTIDR_EL1, CONTEXTIDR_EL2 or VTTBR_EL2
    // that changed it (at the instruction after the MSR; no range ends there). Exception entry
    // gives its state in on_exception.
    virtual void on_context(const a64_trace_context &context, uint64_t next) = 0;
    // A range that ends with a P0 element, at the CPU's time now.
    virtual void on_range(const a64_trace_range &range) = 0;
    // Ranges in program order, as calls of on_range would give them, made earlier: the CPU
    // gathers the ranges of the blocks it runs without calling the platform, and gives them at
    // once before it makes any other report or any call to the platform
    // (a64_cpu_config::trace_batch; docs/cpu.md, "Reports in batches"). times.offset(i): the
    // CPU's local time offset when ranges[i] ended. The default gives each to on_range.
    virtual void on_ranges(const a64_trace_range *ranges, size_t n, const a64_trace_times &times)
    {
        (void)times;
        for (size_t i = 0; i < n; i++)
            on_range(ranges[i]);
    }
    // An exception taken (its entry done: the vector is the next instruction).
    virtual void on_exception(const a64_trace_exception_taken &exception) = 0;
    // Execution ended (the CPU runs no more instructions).
    virtual void on_end(const a64_trace_end &end) = 0;
    // Whether the listener wants reports now. False (a trace unit that is disabled, whom reports
    // would not change): the CPU makes it none, as if it were detached, and asks again after
    // each System register write it makes to the PE model and after a debugger's access
    // (a64_cpu::debug_access); when it wants them again it joins as a listener attached then
    // does (a64_cpu::add_trace_listener).
    virtual bool wants_reports() { return true; }
};

} // namespace pmtrace::platform

#endif
