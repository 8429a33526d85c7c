// trace_types.h - the types the trace tools (encoder, snapshot writer, decoder) share: what a
// decoder needs besides the trace bytes - the trace unit's ID and configuration registers (they
// say which packets can appear and how wide fields are) and the memory images holding the traced
// program (a waypoint trace names only the branches taken or not, so the decoder reads the
// instructions in between from memory) - and what it reports: instruction ranges.
//
// The default register values describe the trace unit pmtrace's ETE encoder (ete_encoder.h)
// stands in for: an ETE (FEAT_ETE) tracing instructions only - cycle counting implemented (as in
// every ETE) but not enabled, no timestamps, no context ID or VMID in Context packets, no return
// stack, no branch broadcast - with 64-bit instruction addresses. The snapshot writer
// (opencsd_snapshot.h) and the decoder (trace_decoder.h) both take these values, so what is written
// and what is decoded agree.
#ifndef PMTRACE_PLATFORM_TRACE_TYPES_H
#define PMTRACE_PLATFORM_TRACE_TYPES_H

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace pmtrace::platform
{

namespace ete_fields
{
// TRCIDR0 (ETE): bit 0 RES1; TRCBB [5] branch broadcast implemented; TRCCCI [7] cycle counting
// implemented ("reads as 1" in ETE, Arm ARM D24.4.31); RETSTACK [9]; QSUPP [16:15] Q elements
// (0: none); TSSIZE [28:24] 0b01000: 64-bit timestamps; COMMOPT [29] 1: commit mode 1 (RAO with
// TRCCCI and MAXSPEC 0: no commit field in Cycle Count packets).
constexpr uint32_t trcidr0_res1 = 1u << 0;
constexpr uint32_t trcidr0_trcbb = 1u << 5;
constexpr uint32_t trcidr0_trccci = 1u << 7;
constexpr uint32_t trcidr0_tssize_64 = 0x8u << 24;
constexpr uint32_t trcidr0_commopt = 1u << 29;
// TRCIDR1: DESIGNER [31:24] 0x41 (Arm); [15:12] RES1; TRCARCHMAJ [11:8] and TRCARCHMIN [7:4]
// both 0b1111: "see TRCDEVARCH" (an ETE); REVISION [3:0].
constexpr uint32_t trcidr1_designer_arm = 0x41u << 24;
constexpr uint32_t trcidr1_res1 = 0xFu << 12;
constexpr uint32_t trcidr1_arch_see_devarch = 0xFFu << 4;
// TRCIDR2: IASIZE [4:0] 0b01000: 64-bit instruction addresses; CIDSIZE [9:5] 0b00100: 32-bit
// context ID; VMIDSIZE [14:10] 0b00100: 32-bit VMID (sizes of fields a Context packet could
// carry; this configuration carries neither).
constexpr uint32_t trcidr2_iasize_64 = 0x8u << 0;
constexpr uint32_t trcidr2_cidsize_32 = 0x4u << 5;
constexpr uint32_t trcidr2_vmidsize_32 = 0x4u << 10;
// TRCCONFIGR: bit 0 RES1; BB [3], CCI [4], CID [6], VMID [7], TS [11], RS [12] all 0: instruction
// trace only, Context packets carry no context ID or VMID.
constexpr uint32_t trcconfigr_res1 = 1u << 0;
// TRCDEVARCH: ARCHITECT [31:21] 0x23B (Arm), PRESENT [20] 1, REVISION [19:16] 0 (ETE v1.0),
// ARCHVER [15:12] 5, ARCHPART [11:0] 0xA13: the ETE.
constexpr uint32_t trcdevarch_ete = (0x23Bu << 21) | (1u << 20) | (0x5u << 12) | 0xA13u;
constexpr uint32_t trcdevarch_archpart_mask = 0xFFFu;
constexpr uint32_t trcdevarch_archver_shift = 12;
// TRCTRACEIDR.TRACEID [6:0]: 0x01..0x6F are the usable CoreSight trace IDs.
constexpr uint32_t trctraceidr_mask = 0x7Fu;
constexpr uint8_t trace_id_min = 0x01;
constexpr uint8_t trace_id_max = 0x6F;
} // namespace ete_fields

// The values a decoder is configured from (the registers OpenCSD reads from a snapshot).
struct ete_registers {
    uint32_t trcidr0 = ete_fields::trcidr0_res1 | ete_fields::trcidr0_trcbb |
                       ete_fields::trcidr0_trccci | ete_fields::trcidr0_tssize_64 |
                       ete_fields::trcidr0_commopt;
    uint32_t trcidr1 = ete_fields::trcidr1_designer_arm | ete_fields::trcidr1_res1 |
                       ete_fields::trcidr1_arch_see_devarch;
    uint32_t trcidr2 = ete_fields::trcidr2_iasize_64 | ete_fields::trcidr2_cidsize_32 |
                       ete_fields::trcidr2_vmidsize_32;
    uint32_t trcidr8 = 0; // MAXSPEC: no speculation depth to resolve
    uint32_t trcconfigr = ete_fields::trcconfigr_res1;
    uint32_t trctraceidr = 0x10;
    uint32_t trcdevarch = ete_fields::trcdevarch_ete;

    uint8_t trace_id() const
    {
        return static_cast<uint8_t>(trctraceidr & ete_fields::trctraceidr_mask);
    }
    // TRCDEVARCH names an ETE (ARCHVER 5, ARCHPART 0xA13).
    bool is_ete() const
    {
        return (trcdevarch & ete_fields::trcdevarch_archpart_mask) == 0xA13u &&
               ((trcdevarch >> ete_fields::trcdevarch_archver_shift) & 0xFu) == 5u;
    }
};

// Bytes of memory as the traced program saw them, at a (virtual) address.
struct memory_image {
    uint64_t address = 0;
    std::vector<uint8_t> bytes;
};

// What kind of instruction ends an executed range (OpenCSD's ocsd_instr_type, without OpenCSD).
enum class instr_kind : uint8_t {
    other,
    branch,          // a direct (immediate) branch
    indirect_branch, // a branch to a register
    isb,             // barriers that are waypoints in some configurations
    dsb_dmb,
    wfi_wfe,
    tstart,
};

// A run of instructions executed one after another, [start, end), as a decoder reports it: it
// ends at a waypoint (a branch) that was taken (an E atom) or not (an N atom).
struct instruction_range {
    uint64_t start = 0;
    uint64_t end = 0; // exclusive: the address after the last instruction
    uint32_t instructions = 0;
    instr_kind last_kind = instr_kind::other;
    bool taken = false; // the last instruction executed (E), or not (N: a branch not taken)

    bool operator==(const instruction_range &o) const
    {
        return start == o.start && end == o.end && instructions == o.instructions &&
               last_kind == o.last_kind && taken == o.taken;
    }
    bool operator!=(const instruction_range &o) const { return !(*this == o); }
};

// "[0x40080000, 0x4008000c) 3 instructions, branch N": for test failures and logs.
std::ostream &operator<<(std::ostream &os, const instruction_range &r);

} // namespace pmtrace::platform

#endif
