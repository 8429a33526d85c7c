// a64_decode.h - the little A64 decoding the CPU model needs (Arm ARM C4, "A64 Instruction Set
// Encoding"): what class of instruction a word is (loads, stores and branches for the PMU's
// events; exception returns and PSTATE writes, after which the CPU looks at PSTATE again), and a
// load or store's operands (a device access is performed by the CPU model; a data abort's
// syndrome describes it). No SystemC, no engine.
#ifndef PMTRACE_PLATFORM_A64_DECODE_H
#define PMTRACE_PLATFORM_A64_DECODE_H

#include <cstdint>
#include <functional>
#include <optional>

namespace pmtrace::platform
{

// Instruction classes, as bits.
enum a64_class : uint32_t {
    // D14.1 "Memory-reading instructions": loads, load-exclusive, LDP, atomics that return a
    // value (not ST<op>); not PRFM (executed as a NOP, so counted as data processing).
    A64_LOAD = 1u << 0,
    // D14.1 "Memory-writing instructions": stores, store-exclusive, STP, atomics, DC ZVA.
    A64_STORE = 1u << 1,
    A64_BRANCH = 1u << 2,      // a branch (BR_RETIRED): immediate, register, conditional
    A64_BR_IMMED = 1u << 3,    // B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ (BR_IMMED_RETIRED)
    A64_BR_RETURN = 1u << 4,   // RET, RETAA, RETAB (BR_RETURN_RETIRED)
    A64_BR_INDIRECT = 1u << 5, // BR, BLR, RET and their authenticated forms
    A64_ERET = 1u << 6,        // ERET, ERETAA, ERETAB
    A64_PSTATE = 1u << 7,      // MSR (immediate) to a PSTATE field (DAIFSet, DAIFClr, SPSel, ...)
    A64_EXCEPTION = 1u << 8,   // SVC, HVC, SMC, BRK, HLT
    A64_WFI = 1u << 9,         // WFI
    A64_TSB = 1u << 10,        // TSB CSYNC
    // STXR, STLXR, STXP, STLXP (also A64_STORE): their status goes to Ws, bits [20:16]
    A64_STORE_EXCLUSIVE = 1u << 11,
    A64_ISB = 1u << 12, // ISB
    A64_WFE = 1u << 13, // WFE, WFIT, WFET (WFI is A64_WFI)
    // A branch taken or not by a condition: B.cond, BC.cond (not AL, NV), CBZ, CBNZ, TBZ, TBNZ
    A64_CONDITIONAL = 1u << 14,
};

uint32_t a64_classify(uint32_t insn);

// What a trace unit counts as a P0 element of instruction trace (the instructions it outputs an
// atom for; OpenCSD's instruction decoder, trc_i_decode.cpp, finds the same ones): every branch,
// the exception returns, ISB, and WFI, WFE, WFIT, WFET (P0 elements only where TRCIDR2.WFXMODE
// is 1). Not SVC, HVC, SMC, BRK, HLT (exception-generating: the exception is traced), DSB, DMB.
enum class a64_p0_kind : uint8_t {
    none,          // not a P0 instruction (a range that ends with one was cut short)
    direct,        // B, B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ
    direct_link,   // BL
    indirect,      // BR, BRAA, BRAAZ, BRAB, BRABZ
    indirect_link, // BLR, BLRAA, BLRAAZ, BLRAB, BLRABZ
    ret,           // RET, RETAA, RETAB
    eret,          // ERET, ERETAA, ERETAB
    isb,           // ISB
    wfx,           // WFI, WFE, WFIT, WFET
};

struct a64_p0 {
    a64_p0_kind kind = a64_p0_kind::none;
    bool conditional = false; // B.cond, BC.cond, CBZ, CBNZ, TBZ, TBNZ
    uint64_t target = 0;      // direct branches: the branch target
};

// The P0 element the instruction at `pc` is.
a64_p0 a64_p0_of(uint32_t insn, uint64_t pc);

// Whether the conditional branch `insn` is taken, with NZCV (PSTATE bits [31:28]) and `xt` the
// register it tests (CBZ, CBNZ: Xt or Wt; TBZ, TBNZ: the bit of Xt), read before it executes or
// right after (a branch writes neither). ConditionHolds (J1.3) for B.cond and BC.cond.
bool a64_branch_taken(uint32_t insn, uint64_t nzcv, uint64_t xt);

// Whether `insn` may write general-purpose register `reg` (0..30): exact for branches (BL and
// BLR write X30), stores (a writeback writes Rn, a store-exclusive Ws), system instructions,
// hints and exception-generating instructions; over-approximated for the rest (bits [4:0]
// are the destination of nearly every A64 instruction that has one; loads also write Rt2, and
// Rn with writeback).
bool a64_may_write(uint32_t insn, unsigned reg);

// A load or store of general-purpose or SIMD&FP registers.
struct a64_mem_insn {
    enum class mode { offset, pre_index, post_index, literal };
    bool load = false;
    bool store = false; // both for atomics and swaps
    bool pair = false;  // LDP/STP family: Rt and Rt2
    bool simd = false;  // SIMD&FP registers
    bool sign_extend = false;
    bool dest64 = false; // a load writes Xt (else Wt, upper half zero)
    bool acquire_release = false;
    bool exclusive = false;
    bool atomic = false; // LSE atomic or swap, compare and swap
    unsigned size = 0;   // bytes per register
    unsigned rt = 0, rt2 = 0, rn = 0, rm = 0;
    mode addressing = mode::offset;
    bool reg_offset = false; // address = Xn + extend(Rm) << shift
    unsigned extend = 0;     // option field (UXTW 010, LSL 011, SXTW 110, SXTX 111)
    unsigned shift = 0;
    int64_t imm = 0; // byte offset (scaled), or the literal's offset from pc
};

std::optional<a64_mem_insn> a64_decode_mem(uint32_t insn);

// A data cache maintenance instruction by virtual address, or DC ZVA (SYS with op0 0b01, CRn
// 0b0111, not an AT): its address is Xt. A Data Abort on one reports CM (not for DC ZVA, a
// write).
struct a64_cache_op {
    bool zva = false;
    unsigned rt = 0;
};
std::optional<a64_cache_op> a64_decode_cache_op(uint32_t insn);

// The address an access uses: reg(n) reads Xn for n < 31 and SP for 31 (a base register), pc
// is the instruction's address.
uint64_t a64_address(const a64_mem_insn &m, const std::function<uint64_t(unsigned)> &base_reg,
                     const std::function<uint64_t(unsigned)> &xreg, uint64_t pc);

} // namespace pmtrace::platform

#endif
