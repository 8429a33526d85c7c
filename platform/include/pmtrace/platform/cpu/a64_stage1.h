// a64_stage1.h - stage 1 address translation of an AArch64 translation regime (EL1&0, EL2, EL2&0,
// EL3) as AArch64.S1Translate and AArch64.S1Walk (J1.1) do it: the CPU model asks which fault an
// access took (the engine translates but does not say) and what physical address a virtual one
// has (a device access, an instruction read). No SystemC, no engine.
//
// What it covers: the 4 KiB, 16 KiB and 64 KiB granules with up to 48-bit virtual and physical
// addresses (no FEAT_LPA/LPA2/LVA, no 128-bit descriptors), TTBR0/TTBR1 selection with top byte
// ignore, EPDx and E0PDx, table and block/page descriptors (blocks where the granule allows
// them), APTable, UXNTable and PXNTable, the Access flag (hardware update with TCR.HA), direct
// permissions (AP[2:1], UXN, PXN, SCTLR.WXN, PSTATE.PAN) and Device memory from MAIR (an
// unaligned access to it faults). Not covered: stage 2, permission indirection and overlays,
// the Contiguous bit and nT, GCS, MTE; TxSZ outside its range is clamped (one of the permitted
// CONSTRAINED UNPREDICTABLE behaviours, as QEMU does).
#ifndef PMTRACE_PLATFORM_A64_STAGE1_H
#define PMTRACE_PLATFORM_A64_STAGE1_H

#include <cstdint>
#include <functional>

namespace pmtrace::platform
{

// The fault kinds of a stage 1 translation, in the FSC encoding's terms (EncodeLDFSC).
enum class a64_fault_kind {
    none,
    address_size,     // 0b0000ll
    translation,      // 0b0001ll
    access_flag,      // 0b0010ll
    permission,       // 0b0011ll
    external_on_walk, // 0b0101ll: a synchronous External abort on a table walk
    alignment         // 0b100001
};

struct a64_fault {
    a64_fault_kind kind = a64_fault_kind::none;
    int level = 0; // the lookup level (0-3) the fault is reported at
    // The DFSC/IFSC value of ESR_ELx (EncodeLDFSC); 0 for none.
    uint32_t fsc() const;
};

// A translation regime's registers, as the software left them.
struct a64_stage1_regime {
    bool two_ranges = true; // EL1&0 and EL2&0 (HCR_EL2.E2H 1): TTBR0 and TTBR1; EL2, EL3: TTBR0
    uint64_t sctlr = 0;     // SCTLR_ELx: M (enable), WXN (SCTLR.A is the caller's check)
    uint64_t tcr = 0; // TCR_EL1 layout; TCR_EL2 with E2H 0 and TCR_EL3 have theirs (el2_tcr_layout)
    bool el2_tcr_layout = false;
    uint64_t ttbr0 = 0, ttbr1 = 0;
    uint64_t mair = 0;
    unsigned pa_bits = 40; // ID_AA64MMFR0_EL1.PARange as bits (the IPS/PS field is capped by it)
};

// One access: a data read or write, or an instruction fetch.
struct a64_access {
    uint64_t va = 0;
    unsigned size = 1; // bytes
    bool write = false;
    bool fetch = false;
    bool unprivileged = false; // at EL0 (or LDTR/STTR)
    bool pan = false;          // PSTATE.PAN
    // The agent making the access sets the Access flag when TCR_ELx.HA is 1 (the PE does; the
    // Trace Buffer Unit only when TRBIDR_EL1.F is 1, D6.5.4). false: an Access flag of 0 faults.
    bool af_update = true;
};

struct a64_translation {
    a64_fault fault;
    uint64_t pa = 0; // of va, when no fault
    bool device = false;
    // The size of the block or page that maps va, as a power of two (12 for a 4 KiB page, 21 for
    // a 2 MiB block); 0 with stage 1 off.
    unsigned leaf_bits = 0;
};

// The physical address size an ID_AA64MMFR0_EL1.PARange (or TCR's IPS/PS) value gives, in
// bits (48 for a reserved value).
unsigned a64_pa_bits(uint64_t parange);

// Reads 8 bytes of physical memory (a descriptor, little-endian); false: nothing there (an
// External abort on the walk).
using a64_phys_read = std::function<bool(uint64_t pa, uint64_t &value)>;

// Translates `access` in `regime`. With SCTLR_ELx.M 0 the address is the physical one (data
// accesses to Device memory, fetches to Normal).
a64_translation a64_stage1_translate(const a64_stage1_regime &regime, const a64_access &access,
                                     const a64_phys_read &read);

} // namespace pmtrace::platform

#endif
