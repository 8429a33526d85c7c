// a64_self_hosted_debug.cpp - breakpoint and watchpoint matching, and whether debug exceptions
// are generated (a64_self_hosted_debug.h; the pseudocode of J1.1 and J1.3 named there).
#include <pmtrace/platform/cpu/a64_self_hosted_debug.h>

namespace pmtrace::platform
{

namespace
{

constexpr unsigned debug_addr_top = 48; // DebugAddrTop() without FEAT_LVA

uint64_t field(uint64_t v, unsigned lsb, unsigned width)
{
    return (v >> lsb) & ((uint64_t{1} << width) - 1);
}

// Bits [top:lsb] of a and b are equal.
bool bits_equal(uint64_t a, uint64_t b, unsigned top, unsigned lsb)
{
    const uint64_t m =
        (top >= 63 ? ~uint64_t{0} : (uint64_t{2} << top) - 1) & ~((uint64_t{1} << lsb) - 1);
    return ((a ^ b) & m) == 0;
}

// The control fields StateMatch reads: SSC [15:14], HMC [13], PMC/PAC [2:1] (the same places in
// DBGBCR and DBGWCR).
unsigned ssc_of(uint64_t control)
{
    return static_cast<unsigned>(field(control, 14, 2));
}
unsigned hmc_of(uint64_t control)
{
    return static_cast<unsigned>(field(control, 13, 1));
}
unsigned pxc_of(uint64_t control)
{
    return static_cast<unsigned>(field(control, 1, 2));
}

// CheckValidStateMatch (J1.3) without FEAT_RME (SSCE 0) and FEAT_SEL2: true where {HMC, SSC,
// PxC} is reserved. Reserved values behave as Constraint_DISABLED (docs/choices.md).
bool reserved_state_match(const a64_debug_pe &pe, unsigned hmc, unsigned ssc, unsigned pxc,
                          bool breakpoint)
{
    const unsigned hsp = hmc << 4 | ssc << 2 | pxc; // hmc:ssc:pxc
    bool reserved = false;
    if (hmc == 0 && ssc == 3 && pxc == 2)
        reserved = true;
    if (hmc == 0 && (ssc & 2) && !pe.have_el3) // no Secure state without EL3 here
        reserved = true;
    if (hmc == 1 && ssc == 0 && (pxc & 1) == 0)
        reserved = true;
    if (hmc == 1 && ssc == 1 && pxc == 2)
        reserved = true;
    if (hmc == 1 && (ssc & 2) && pxc == 2)
        reserved = true;
    // Usr/Sys/Svc: AArch32 breakpoints only (no AArch32 at EL1 in this CPU's debug model).
    if ((!breakpoint || !pe.aarch32) && hmc == 0 && pxc == 0 && ssc != 3)
        reserved = true;
    if (!pe.have_el3 && !pe.have_el2 && (hmc != 0 || ssc != 0))
        reserved = true;
    if (!pe.have_el3 && (ssc == 1 || ssc == 2) && hsp != 0b10100)
        reserved = true;
    if (!pe.have_el3 && hsp == 0b11000)
        reserved = true;
    if (!pe.have_el2 && hsp == 0b11100)
        reserved = true;
    // No FEAT_SEL2.
    if (hsp == 0b01100 || hsp == 0b10100 || (ssc == 3 && (pxc & 1)))
        reserved = true;
    return reserved;
}

} // namespace

bool a64_generate_debug_exceptions_from(unsigned from_el, bool secure, bool mask, bool os_locked,
                                        bool route_to_el2, bool have_el3, bool sdd, uint64_t mdscr)
{
    if (os_locked)
        return false;
    const unsigned target = route_to_el2 ? 2 : 1;
    bool enabled = !(have_el3 && secure) || !sdd;
    if (from_el == target)
        return enabled && (mdscr & mdscr_kde) && !mask;
    return enabled && target > from_el;
}

// AArch64.StateMatch: the Exception level and Security state the control fields select, and
// the linked context breakpoint.
bool a64_self_hosted_debug::state_match(const a64_debug_pe &pe, const a64_debug_context &c,
                                        uint64_t control, bool linked, unsigned linked_n,
                                        bool breakpoint, uint64_t pc) const
{
    const unsigned ssc = ssc_of(control), hmc = hmc_of(control), pxc = pxc_of(control);
    if (reserved_state_match(pe, hmc, ssc, pxc, breakpoint))
        return false;
    const bool el3_match = pe.have_el3 && hmc == 1 && (ssc & 1) == 0;
    const bool el2_match = pe.have_el2 && ((hmc == 1 && (ssc << 2 | pxc) != 0b1000) || ssc == 3);
    const bool el1_match = (pxc & 1) != 0;
    const bool el0_match = (pxc & 2) != 0;
    bool priv_match = false;
    switch (c.el) {
    case 3: priv_match = el3_match; break;
    case 2: priv_match = el2_match; break;
    case 1: priv_match = el1_match; break;
    default: priv_match = el0_match; break;
    }
    // SS_Root is EL3's only with FEAT_RME: here EL3 is Secure, and no state is Root.
    bool ss_match = false;
    switch (ssc) {
    case 0: ss_match = true; break;
    case 1: ss_match = !c.secure; break;
    case 2: ss_match = c.secure; break;
    case 3: ss_match = hmc == 1 || c.secure; break;
    }
    bool linked_match = false;
    if (linked) {
        // A link to a breakpoint that is not context-aware: CONSTRAINED UNPREDICTABLE, disabled.
        if (linked_n >= pe.breakpoints || linked_n < pe.breakpoints - pe.context_aware)
            return false;
        const bp_result r = breakpoint_value_match(pe, c, linked_n, pc, true);
        linked_match = r.type == bp_type::addr_mismatch ? !r.match : r.match;
    }
    return priv_match && ss_match && (!linked || linked_match);
}

// AArch64.BreakpointValueMatch (with AArch64.ReservedBreakpointType).
a64_self_hosted_debug::bp_result
a64_self_hosted_debug::breakpoint_value_match(const a64_debug_pe &pe, const a64_debug_context &c,
                                              unsigned n, uint64_t pc, bool linked_to) const
{
    if (n >= pe.breakpoints || !(bcr[n] & 1))
        return {};
    const unsigned bt = static_cast<unsigned>(field(bcr[n], 20, 4));
    const bool context_aware = n >= pe.breakpoints - pe.context_aware;
    bool reserved = false;
    if ((bt & 8) == 0) {
        if ((bt & 0b1010) != 0 && !context_aware) // not 0b00x0x
            reserved = true;
        if ((bt & 0b0110) == 0b0110 || (bt & 0b1100) == 0b0100) // 0b0011x, 0b011xx: no VHE
            reserved = true;
        if ((bt & 0b1110) == 0b0100 && !pe.aarch32) // address mismatch needs AArch32 at EL1
            reserved = true;
    } else {
        if (!context_aware || !pe.have_el2)
            reserved = true;
        if ((bt & 0b0100) != 0) // 0b11xx: no FEAT_Debugv8p1
            reserved = true;
    }
    if (reserved)
        return {};                                   // Constraint_DISABLED
    const bool match_addr = (bt & 0b1010) == 0;      // 0b0x0x
    const bool mismatch = (bt & 0b1110) == 0b0100;   // 0b010x
    const bool match_vmid = (bt & 0b1100) == 0b1000; // 0b10xx
    const bool match_cid = (bt & 0b1110) == 0b0010;  // 0b001x
    const bool match_cid1 = (bt & 0b1110) == 0b1010; // 0b101x
    const bool linking_enabled = (bt & 0b0011) == 0b0011 || (bt & 0b1001) == 0b1001;
    if (linked_to != linking_enabled)
        return {};
    // A linked breakpoint linked to an address matching one: CONSTRAINED UNPREDICTABLE, disabled.
    if (linked_to && match_addr)
        return {};
    bool bvr_match = false, bxvr_match = false;
    if (match_addr) {
        // A64 instructions are word aligned: BAS<0> selects the first halfword (BAS<2> alone, the
        // second halfword, is CONSTRAINED UNPREDICTABLE for a 4-byte instruction: no match).
        const bool byte_select = !pe.aarch32 || field(bcr[n], 5, 1);
        bvr_match = bits_equal(pc, bvr[n], debug_addr_top, 2) && byte_select;
    } else if (match_cid) {
        bvr_match = c.el <= 1 && c.contextidr_el1 == static_cast<uint32_t>(bvr[n]);
    } else if (match_cid1) {
        bvr_match = c.el <= 1 && c.contextidr_el1 == static_cast<uint32_t>(bvr[n]);
    }
    if (match_vmid)
        bxvr_match = c.el <= 1 && c.el2_enabled && c.vmid == field(bvr[n], 32, 8);
    const bool bvr_valid = match_addr || match_cid || match_cid1;
    const bool value_match = (!match_vmid || bxvr_match) && (!bvr_valid || bvr_match);
    bp_result r;
    r.type = match_addr ? (mismatch ? bp_type::addr_mismatch : bp_type::addr_match)
                        : bp_type::ctxt_match;
    r.match = value_match;
    return r;
}

// AArch64.BreakpointMatch.
a64_self_hosted_debug::bp_result a64_self_hosted_debug::breakpoint_match(const a64_debug_pe &pe,
                                                                         const a64_debug_context &c,
                                                                         unsigned n,
                                                                         uint64_t pc) const
{
    const unsigned bt = static_cast<unsigned>(field(bcr[n], 20, 4));
    const bool linking_enabled = (bt & 0b0011) == 0b0011 || (bt & 0b1001) == 0b1001;
    if (linking_enabled || !(bcr[n] & 1))
        return {};
    const bool linked = (bt & 0b1011) == 0b0001; // 0b0x01
    const bool sm =
        state_match(pe, c, bcr[n], linked, static_cast<unsigned>(field(bcr[n], 16, 4)), true, pc);
    const bp_result v = breakpoint_value_match(pe, c, n, pc, false);
    if (!sm)
        return {};
    return v;
}

bool a64_self_hosted_debug::breakpoint(const a64_debug_pe &pe, const a64_debug_context &c,
                                       uint64_t pc) const
{
    bool addr_match_bp = false, addr_mismatch_bp = false, addr_match = false, addr_mismatch = true,
         ctxt_match = false;
    for (unsigned n = 0; n < pe.breakpoints && n < bcr.size(); n++) {
        const bp_result r = breakpoint_match(pe, c, n, pc);
        switch (r.type) {
        case bp_type::addr_match:
            addr_match_bp = true;
            addr_match = addr_match || r.match;
            break;
        case bp_type::addr_mismatch:
            addr_mismatch_bp = true;
            addr_mismatch = addr_mismatch && !r.match;
            break;
        case bp_type::ctxt_match: ctxt_match = ctxt_match || r.match; break;
        case bp_type::inactive: break;
        }
    }
    bool match = addr_match_bp && addr_mismatch_bp
                     ? addr_match && addr_mismatch
                     : (addr_match_bp && addr_match) || (addr_mismatch_bp && addr_mismatch);
    return match || ctxt_match;
}

bool a64_self_hosted_debug::breakpoints_armed(const a64_debug_pe &pe,
                                              const a64_debug_context &c) const
{
    for (unsigned n = 0; n < pe.breakpoints && n < bcr.size(); n++) {
        const unsigned bt = static_cast<unsigned>(field(bcr[n], 20, 4));
        const bool linking_enabled = (bt & 0b0011) == 0b0011 || (bt & 0b1001) == 0b1001;
        // The Exception level and Security state only (a link can only narrow the match).
        if ((bcr[n] & 1) && !linking_enabled && state_match(pe, c, bcr[n], false, 0, true, 0))
            return true;
    }
    return false;
}

// AArch64.WatchpointByteMatch.
bool a64_self_hosted_debug::watchpoint_byte_match(unsigned n, uint64_t va) const
{
    const unsigned bottom_word = field(wvr[n], 2, 1) ? 2 : 3;
    unsigned bottom = bottom_word;
    const unsigned bas = static_cast<unsigned>(field(wcr[n], 5, 8));
    const unsigned select = static_cast<unsigned>(va & ((1u << bottom_word) - 1));
    bool byte_select_match = (bas >> select) & 1;
    unsigned mask = static_cast<unsigned>(field(wcr[n], 24, 5));
    if (mask > 0 && bas != 0xFF) {
        // Unpredictable_WPMASKANDBAS: the bytes BAS selects are matched (docs/choices.md).
    } else {
        const unsigned lsb = bas & (~bas + 1) & 0xFF;
        const unsigned msb = (bas + lsb) & 0x1FF;
        if (msb & (msb - 1)) // not contiguous (Unpredictable_WPBASCONTIGUOUS): as programmed
            bottom = 3;
    }
    if (mask > 0 && mask <= 2)
        return false; // Unpredictable_RESWPMASK: Constraint_DISABLED
    const unsigned lsb = mask > bottom ? mask : bottom;
    bool wvr_match = bits_equal(va, wvr[n], debug_addr_top, lsb);
    // Masked bits of DBGWVR not zero (Unpredictable_WPMASKEDBITS): the unmasked bits decide.
    return wvr_match && byte_select_match;
}

a64_watchpoint_hit a64_self_hosted_debug::watchpoint(const a64_debug_pe &pe,
                                                     const a64_debug_context &c, uint64_t va,
                                                     unsigned size, bool read, bool write) const
{
    a64_watchpoint_hit hit;
    for (unsigned n = 0; n < pe.watchpoints && n < wcr.size(); n++) {
        if (!(wcr[n] & 1))
            continue;
        const bool linked = field(wcr[n], 20, 1) != 0;
        if (!state_match(pe, c, wcr[n], linked, static_cast<unsigned>(field(wcr[n], 16, 4)), false,
                         0))
            continue;
        const unsigned lsc = static_cast<unsigned>(field(wcr[n], 3, 2));
        const bool ls_match = ((lsc & 1) && read) || ((lsc & 2) && write);
        if (!ls_match)
            continue;
        for (unsigned b = 0; b < size; b++) {
            if (watchpoint_byte_match(n, va + b)) {
                if (!hit.hit || va + b < hit.address) {
                    hit.hit = true;
                    hit.address = va + b;
                    hit.n = n;
                    // WnR: a read when a load-matching watchpoint matched a read, else a write.
                    hit.write = !((lsc & 1) && read);
                }
                break;
            }
        }
    }
    return hit;
}

bool a64_self_hosted_debug::watchpoints_armed(const a64_debug_pe &pe,
                                              const a64_debug_context &c) const
{
    for (unsigned n = 0; n < pe.watchpoints && n < wcr.size(); n++) {
        if ((wcr[n] & 1) && field(wcr[n], 3, 2) != 0 &&
            state_match(pe, c, wcr[n], false, 0, false, 0))
            return true;
    }
    return false;
}

} // namespace pmtrace::platform
