// fuzz_program.h - the fuzz input read as a program of operations on one pmt_pe, shared by every
// harness of tests/fuzz/ (docs/testing.md "Fuzzing").
//
// An input is a config part and then operations, each a kind byte and its operands. Reading
// past the end gives zeros, so every input is a program. The harnesses differ only in how the
// config is made and which operations their kind byte selects.
//
// Invariants checked after every operation (a violation aborts with a message):
//   - after a snapshot operation, a second model restored from the first's saved state gets every
//     later operation too, and both report the same callbacks and reads (Rig::compare);
//   - PMUIRQ (the level the callback last reported) and the CTI overflow trigger level equal what
//     PMOVSSET, PMINTENSET and the global enables imply (check_pmuirq);
//   - the Trace Buffer Unit's write callback stays inside the buffer, and writes nothing while
//     collection is stopped (Rig::on_write).
#ifndef PMTRACE_FUZZ_PROGRAM_H
#define PMTRACE_FUZZ_PROGRAM_H

#include <pmtrace/pmtrace.h>

#include <cstddef>
#include <cstdint>

namespace fuzz
{

// The bytes of the input, read front to back; zeros past the end.
class Input
{
  public:
    Input(const uint8_t *data, size_t size) : p_(data), n_(size) {}
    bool empty() const { return n_ == 0; }
    size_t left() const { return n_; }
    uint8_t u8()
    {
        if (n_ == 0)
            return 0;
        n_--;
        return *p_++;
    }
    uint16_t u16() { return static_cast<uint16_t>(u8() | u8() << 8); }
    uint32_t u32() { return static_cast<uint32_t>(u16() | static_cast<uint32_t>(u16()) << 16); }
    uint64_t u64() { return u32() | static_cast<uint64_t>(u32()) << 32; }
    bool bit() { return u8() & 1; }
    // A value biased to the ones that matter: 0, all ones, one bit, near a 32- or 64-bit
    // overflow, small, or any. Inline: fuzz_tlm uses Input without the rest of the program.
    uint64_t value()
    {
        switch (u8() & 7) {
        case 0: return 0;
        case 1: return ~uint64_t{0};
        case 2: return uint64_t{1} << (u8() & 63);
        case 3: return 0xFFFFFFFFu - u8();  // just below a 32-bit overflow
        case 4: return ~uint64_t{0} - u8(); // just below a 64-bit overflow
        case 5: return u8();                // small
        case 6: return u32();
        default: return u64();
        }
    }
    // The rest of the input (for a state blob).
    const uint8_t *rest(size_t *n)
    {
        const uint8_t *p = p_;
        *n = n_;
        p_ += n_;
        n_ = 0;
        return p;
    }

  private:
    const uint8_t *p_;
    size_t n_;
};

// Which operations a harness's kind byte selects.
enum class Mix {
    All,    // every operation
    PeOps,  // (2) PE state, MRS/MSR, counting, exceptions, snapshots, PC samples
    Frames, // (3) external PMU, debug and Trace Buffer frames, with some MSR and counting
    Trbe,   // (4) TRBE programming, trace, the memory port's faults and aborts
};

// A config from fuzz bytes: every field, valid or not (harness 1).
pmt_pe_config config_any(Input &in);
// One of a few configs that create, with options from fuzz bytes (harnesses 2-5).
pmt_pe_config config_preset(Input &in);

// Runs the program in `in` on a model made from cfg (nothing when pmt_pe_create refuses cfg).
// Returns when the input ends, or after 4096 operations.
void run(const pmt_pe_config &cfg, Mix mix, Input &in);

// Harness 5: a saved state (made by running a short program) mutated by the input, restored.
void run_restore(Input &in);

} // namespace fuzz

#endif
