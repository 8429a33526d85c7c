// a64_self_hosted_debug.h - the breakpoint and watchpoint registers of self-hosted debug
// (DBGBVR<n>_EL1, DBGBCR<n>_EL1, DBGWVR<n>_EL1, DBGWCR<n>_EL1: Arm ARM D24.3.2, .3, .11, .12),
// MDSCR_EL1 (D24.3.20), and what they match: AArch64.CheckBreakpoint, AArch64.BreakpointMatch,
// AArch64.BreakpointValueMatch, AArch64.StateMatch, CheckValidStateMatch,
// AArch64.ReservedBreakpointType, AArch64.CheckWatchpoint, AArch64.WatchpointMatch,
// AArch64.WatchpointByteMatch and AArch64.GenerateDebugExceptionsFrom (J1.1, J1.3), for an
// Armv8.0 debug implementation (no FEAT_VHE, FEAT_Debugv8p1/p2/p9, FEAT_BWE, FEAT_ABLE, FEAT_RME,
// FEAT_SEL2, FEAT_VMID16, FEAT_LVA). No SystemC, no engine: the CPU model (a64_cpu_debug.cpp)
// holds one and asks it; docs/cpu.md, "Self-hosted debug".
//
// Every CONSTRAINED UNPREDICTABLE case behaves as Constraint_DISABLED (no match), or as the
// bytes or bits programmed where the pseudocode asks a boolean (docs/choices.md, "Self-hosted
// debug").
#ifndef PMTRACE_PLATFORM_A64_SELF_HOSTED_DEBUG_H
#define PMTRACE_PLATFORM_A64_SELF_HOSTED_DEBUG_H

#include <array>
#include <cstdint>

namespace pmtrace::platform
{

// What the PE implements: from ID_AA64DFR0_EL1 (BRPs, WRPs, CTX_CMPs) and ID_AA64PFR0_EL1.
struct a64_debug_pe {
    unsigned breakpoints = 6;   // 2..16
    unsigned watchpoints = 4;   // 2..16
    unsigned context_aware = 2; // the highest-numbered breakpoints
    bool have_el2 = true;
    bool have_el3 = true;
    bool aarch32 = true; // AArch32 at EL0 (the BAS fields select halfwords)
};

// The PE's state a match depends on.
struct a64_debug_context {
    unsigned el = 1;
    bool secure = false;
    bool el2_enabled = false;
    uint32_t contextidr_el1 = 0;
    uint8_t vmid = 0; // VTTBR_EL2.VMID<7:0>
};

// A watchpoint that matched: the address FAR_ELx reports (inside the access and the
// watchpoint's naturally aligned block) and whether the access is reported as a write (WnR).
struct a64_watchpoint_hit {
    bool hit = false;
    uint64_t address = 0;
    bool write = false;
    unsigned n = 0;
};

// MDSCR_EL1 fields.
constexpr uint64_t mdscr_ss = 1u << 0;
constexpr uint64_t mdscr_err = 1u << 6;
constexpr uint64_t mdscr_tdcc = 1u << 12;
constexpr uint64_t mdscr_kde = 1u << 13;
constexpr uint64_t mdscr_hde = 1u << 14;
constexpr uint64_t mdscr_mde = 1u << 15;
// Writable at any time: SS, TDCC, KDE, MDE. Writable only while the OS Lock is locked (the
// save and restore of the external debugger's view): ERR, HDE, INTdis, TXU, RXO, TXfull, RXfull.
constexpr uint64_t mdscr_rw = mdscr_ss | mdscr_tdcc | mdscr_kde | mdscr_mde;
constexpr uint64_t mdscr_rw_locked =
    mdscr_err | mdscr_hde | (3u << 22) | (1u << 26) | (1u << 27) | (1u << 29) | (1u << 30);

// The implemented bits of DBGBCR<n>_EL1 (BT, LBN, SSC, HMC, BAS, PMC, E) and DBGWCR<n>_EL1
// (MASK, WT, LBN, SSC, HMC, BAS, LSC, PAC, E); DBGWVR<n>_EL1[1:0] are RES0.
constexpr uint64_t dbgbcr_mask = 0x00FFE1E7;
constexpr uint64_t dbgwcr_mask = 0x1F1FFFFF;
constexpr uint64_t dbgwvr_mask = ~uint64_t{3};

class a64_self_hosted_debug
{
  public:
    std::array<uint64_t, 16> bvr{}, bcr{}, wvr{}, wcr{};
    uint64_t mdscr = 0;

    // AArch64.CheckBreakpoint: a Breakpoint exception for the instruction at `pc`.
    bool breakpoint(const a64_debug_pe &pe, const a64_debug_context &c, uint64_t pc) const;
    // AArch64.CheckWatchpoint for a data access of `size` bytes at `va`.
    a64_watchpoint_hit watchpoint(const a64_debug_pe &pe, const a64_debug_context &c, uint64_t va,
                                  unsigned size, bool read, bool write) const;
    // Whether any breakpoint (watchpoint) is enabled and matches the context's Exception level
    // and Security state: only then must the CPU look at each instruction (access).
    bool breakpoints_armed(const a64_debug_pe &pe, const a64_debug_context &c) const;
    bool watchpoints_armed(const a64_debug_pe &pe, const a64_debug_context &c) const;

  private:
    enum class bp_type { inactive, addr_match, addr_mismatch, ctxt_match };
    struct bp_result {
        bp_type type = bp_type::inactive;
        bool match = false;
    };
    bp_result breakpoint_match(const a64_debug_pe &pe, const a64_debug_context &c, unsigned n,
                               uint64_t pc) const;
    bp_result breakpoint_value_match(const a64_debug_pe &pe, const a64_debug_context &c, unsigned n,
                                     uint64_t pc, bool linked_to) const;
    bool state_match(const a64_debug_pe &pe, const a64_debug_context &c, uint64_t control,
                     bool linked, unsigned linked_n, bool breakpoint, uint64_t pc) const;
    bool watchpoint_byte_match(unsigned n, uint64_t va) const;
};

// AArch64.GenerateDebugExceptionsFrom: whether debug exceptions are generated from `from_el`
// (Breakpoint, Watchpoint, Software Step; not BRK), with `mask` PSTATE.D, `os_locked`
// OSLSR_EL1.OSLK or DoubleLockStatus(), `route_to_el2` EL2 enabled with HCR_EL2.TGE or
// MDCR_EL2.TDE, and `sdd` MDCR_EL3.SDD where EL3 is implemented.
bool a64_generate_debug_exceptions_from(unsigned from_el, bool secure, bool mask, bool os_locked,
                                        bool route_to_el2, bool have_el3, bool sdd, uint64_t mdscr);

} // namespace pmtrace::platform

#endif
