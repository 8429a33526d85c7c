// a64_engine.h - what the AArch64 CPU model (a64_cpu.h) needs from an instruction-set engine:
// run A64 code until an event, registers, system registers, and the calls it makes into the
// model while it runs. The engine executes instructions and nothing else: it takes no exception
// and owns no device; the CPU model does both. One implementation: Unicorn 2
// (a64_engine_unicorn.cpp); another engine replaces that one file (docs/cpu.md).
#ifndef PMTRACE_PLATFORM_A64_ENGINE_H
#define PMTRACE_PLATFORM_A64_ENGINE_H

#include <cstdint>
#include <memory>
#include <string>

namespace pmtrace::platform
{

// An MRS, MSR, SYS or SYSL instruction the engine met.
struct a64_sysreg_access {
    uint64_t pc; // the instruction's address
    uint8_t op0, op1, crn, crm, op2;
    bool read;   // MRS or SYSL (a value goes to Xt)
    unsigned rt; // Xt (31: XZR)
};

// What the CPU model did with a system register access.
enum class a64_sysreg_action {
    engine,    // not the model's: the engine performs it (a register the engine implements)
    done,      // performed by the model (for a read, Xt gets the value); execution goes on
    done_stop, // performed; run() returns before the next instruction
    stop       // not performed (an exception to take): run() returns at the instruction
};

// Why run() returned. pc is where execution goes on: the first instruction not executed.
enum class a64_stop_reason {
    requested, // the client asked to stop (before a block, or at a stop address)
    sysreg,    // a system register access answered done_stop or stop
    wfi,       // WFI executed (pc after it)
    exception, // the engine raised an exception (below)
    bus_error, // the client answered a device access with an error (on_device_access): the
               // registers are as before the instruction, which the client found
    fetch,     // an instruction fetch from an address that is not memory (address)
    error      // the engine failed (message in detail)
};

// Exceptions the engine raises instead of taking them.
enum class a64_exception {
    none,
    undefined,         // pc: the instruction
    svc,               // pc: the instruction after it
    hvc,               // pc: the instruction after it
    smc,               // pc: the instruction after it
    smc_trapped,       // an SMC trapped to EL2 by HCR_EL2.TSC; pc: the instruction
    brk,               // pc: the instruction
    instruction_abort, // pc: the instruction
    data_abort,        // pc: the instruction
    other
};

struct a64_stop {
    a64_stop_reason reason = a64_stop_reason::requested;
    uint64_t pc = 0;
    a64_exception exception = a64_exception::none;
    // fetch: the address fetched (pc is where execution goes on: no instruction of its block
    // ran).
    uint64_t address = 0;
    unsigned size = 0;
    bool write = false;
    uint64_t value = 0; // the value a store writes
    std::string detail;
};

// The CPU model's side: called by the engine while it runs, on the CPU model's thread.
class a64_engine_client
{
  public:
    virtual ~a64_engine_client() = default;
    // A block of straight-line code (`size` bytes of instructions) at `address` is about to run.
    // Returns where to stop: `address` stops before it, an address inside the block stops before
    // that instruction, anything else (e.g. ~0) runs it.
    virtual uint64_t on_block(uint64_t address, uint32_t size) = 0;
    // Execution left the current block at `pc` without finishing it (a system register access
    // the model performed): the instructions before pc were executed.
    virtual void on_block_cut(uint64_t pc) = 0;
    // A system register access; for `done` reads, `value` is what Xt gets.
    virtual a64_sysreg_action on_sysreg(const a64_sysreg_access &access, uint64_t &value) = 0;
    // A load or store of the running block reached physical address `pa`, which is not memory
    // (a device, or no device at all): the client performs it now, at the access, as part of
    // the instruction making it; a load gets `value` (its `size` bytes). The general-purpose
    // registers are those before the instruction (its results are not written yet); pc is not
    // the instruction's. An engine may split one access into several calls (a pair's elements,
    // halves of an 8-byte access). False: the access ends in an error, and the instruction does
    // not complete: run() returns bus_error with the registers as before it.
    virtual bool on_device_access(uint64_t pa, unsigned size, bool write, uint64_t &value) = 0;
    // The engine is about to translate code fetched through virtual address `va`, which its
    // own map does not say is memory: true when the fetch reaches memory (the client's
    // translation), false when it does not (run() returns a fetch stop at va).
    virtual bool on_fetch(uint64_t va) = 0;
};

// One block the engine may run again and again without calling on_block (optional: an engine
// without it calls on_block for every block). While `left` > 0, a block that starts at
// `address` with `size` bytes starts without a call: the engine takes one from `left` and adds
// one to `runs`. The client sets it for the block running when that block needs nothing at its
// end but counting (a repeat means the run before it ended whole), and adds up `runs` whenever
// the engine calls it and after run() returns. Unicorn calls its block hook for every block
// executed; this keeps a loop of one block to a few instructions per iteration, with no call.
struct a64_block_repeat {
    uint64_t address = ~uint64_t{0};
    uint32_t size = 0;
    uint64_t left = 0; // repeats allowed
    uint64_t runs = 0; // repeats made since the client last looked
};

// General-purpose and special registers by number.
enum class a64_reg : unsigned {
    x0 = 0, // x0 .. x30 are 0 .. 30
    sp = 31,
    pc,
    pstate, // NZCV, DAIF, EL, SP, ... in SPSR layout
    sp_el0,
    sp_el1,
    sp_el2,
    sp_el3,
};

class a64_engine
{
  public:
    virtual ~a64_engine() = default;
    virtual const char *name() const = 0;
    virtual void set_client(a64_engine_client *client) = 0;
    // The client's a64_block_repeat (nullptr: none). False: the engine does not repeat blocks.
    virtual bool set_block_repeat(a64_block_repeat *) { return false; }

    // Memory the engine reads and writes directly (RAM, by the memory model's DMI pointer).
    // Every other physical address is the client's: on_device_access at each access.
    virtual bool map_memory(uint64_t base, uint64_t size, uint8_t *host, std::string &error) = 0;

    // Runs from the current pc until a stop.
    virtual a64_stop run() = 0;
    // Asks a running engine to stop before the next block (from a callback).
    virtual void request_stop() = 0;

    virtual uint64_t reg(a64_reg r) = 0;
    virtual void set_reg(a64_reg r, uint64_t value) = 0;
    uint64_t x(unsigned n) { return n >= 31 ? 0 : reg(static_cast<a64_reg>(n)); }
    void set_x(unsigned n, uint64_t v)
    {
        if (n < 31)
            set_reg(static_cast<a64_reg>(n), v);
    }
    // System registers the engine implements (SCTLR_ELx, VBAR_ELx, ESR_ELx, ...), by encoding.
    virtual bool sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                        uint64_t &value) = 0;
    virtual bool set_sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                            uint64_t value) = 0;
    // Enters `pstate` (its EL and SP selection included) at `pc`, as an exception entry or a
    // reset does: the engine's view of the Exception level follows.
    virtual void enter(uint64_t pstate, uint64_t pc) = 0;
    // Reads memory the engine maps (page tables, instructions to decode), by physical address.
    // False where it is not memory.
    virtual bool read_memory(uint64_t address, void *dst, size_t n) = 0;
    // Forget translations of [begin, end) (code changed: IC IVAU, IC IALLU).
    virtual void invalidate(uint64_t begin, uint64_t end) = 0;
};

// What the engine calls into its client while code runs. `all`: what the CPU model needs
// (on_block, on_block_cut, on_sysreg). `none`: nothing (every system register is the engine's,
// and no stop is asked for): the engine at its own speed, for measuring it (bench/bench_a64) or
// for code nobody accounts for; run() still returns at exceptions, WFI and device accesses.
enum class a64_engine_hooks { all, none };

// The Unicorn 2 engine (Cortex-A72 base model, EL2 and EL3 implemented). nullptr and `error`
// when Unicorn cannot be opened.
std::unique_ptr<a64_engine> make_unicorn_engine(std::string &error,
                                                a64_engine_hooks hooks = a64_engine_hooks::all);

} // namespace pmtrace::platform

#endif
