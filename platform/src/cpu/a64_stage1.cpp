// a64_stage1.cpp - stage 1 translation (a64_stage1.h), following AArch64.S1Translate,
// AArch64.S1Walk and AArch64.S1ComputePermissions (J1.1) for direct permissions.
#include <pmtrace/platform/cpu/a64_stage1.h>

namespace pmtrace::platform
{

namespace
{

uint64_t bits(uint64_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((hi - lo == 63) ? ~uint64_t{0} : (uint64_t{1} << (hi - lo + 1)) - 1);
}

bool bit(uint64_t v, unsigned n)
{
    return (v >> n) & 1;
}

// Bits [hi:lo] set.
uint64_t mask(unsigned hi, unsigned lo)
{
    return (hi == 63 ? ~uint64_t{0} : (uint64_t{1} << (hi + 1)) - 1) & ~((uint64_t{1} << lo) - 1);
}

// The parameters of the walk for one VA (AArch64.GetS1TTWParams, the fields used here).
struct walk_params {
    unsigned txsz = 16;
    unsigned granule = 12; // log2 of the granule size
    bool tbi = false, epd = false, e0pd = false, ha = false;
    uint64_t ttb = 0;
    unsigned pa_bits = 48;
    bool upper = false; // TTBR1
};

walk_params params(const a64_stage1_regime &r, uint64_t va, bool fetch)
{
    walk_params p;
    const uint64_t tcr = r.tcr;
    if (r.el2_tcr_layout) {
        // TCR_EL2 with E2H 0: T0SZ [5:0], TG0 [15:14], PS [18:16], TBI [20], HA [21], TBID [29].
        p.txsz = static_cast<unsigned>(bits(tcr, 5, 0));
        const uint64_t tg0 = bits(tcr, 15, 14);
        p.granule = tg0 == 1 ? 16 : tg0 == 2 ? 14 : 12;
        p.pa_bits = a64_pa_bits(bits(tcr, 18, 16));
        p.tbi = bit(tcr, 20) && !(fetch && bit(tcr, 29));
        p.ha = bit(tcr, 21);
        p.ttb = r.ttbr0;
    } else {
        // TCR_EL1 (and TCR_EL2 with E2H 1): per half T0SZ/T1SZ, EPD, TG, TBI, TBID, E0PD.
        p.upper = r.two_ranges && bit(va, 55);
        if (p.upper) {
            p.txsz = static_cast<unsigned>(bits(tcr, 21, 16));
            const uint64_t tg1 = bits(tcr, 31, 30);
            p.granule = tg1 == 1 ? 14 : tg1 == 3 ? 16 : 12;
            p.epd = bit(tcr, 23);
            p.tbi = bit(tcr, 38) && !(fetch && bit(tcr, 52));
            p.e0pd = bit(tcr, 56);
            p.ttb = r.ttbr1;
        } else {
            p.txsz = static_cast<unsigned>(bits(tcr, 5, 0));
            const uint64_t tg0 = bits(tcr, 15, 14);
            p.granule = tg0 == 1 ? 16 : tg0 == 2 ? 14 : 12;
            p.epd = bit(tcr, 7);
            p.tbi = bit(tcr, 37) && !(fetch && bit(tcr, 51));
            p.e0pd = bit(tcr, 55);
            p.ttb = r.ttbr0;
        }
        p.pa_bits = a64_pa_bits(bits(tcr, 34, 32));
        p.ha = bit(tcr, 39);
    }
    if (p.pa_bits > r.pa_bits)
        p.pa_bits = r.pa_bits;
    if (p.pa_bits > 48)
        p.pa_bits = 48; // no FEAT_LPA
    // TxSZ outside 16..39: clamped (AArch64.S1Translate's CONSTRAINED UNPREDICTABLE choice).
    if (p.txsz < 16)
        p.txsz = 16;
    if (p.txsz > 39)
        p.txsz = 39;
    return p;
}

// AArch64.VAIsOutOfRange: the bits above the input address size must all be 0 (TTBR0) or all 1
// (TTBR1); with top byte ignore, bits [63:56] are not looked at.
bool va_out_of_range(uint64_t va, const walk_params &p)
{
    const unsigned top = p.tbi ? 55 : 63;
    const unsigned inputsize = 64 - p.txsz;
    const uint64_t m = mask(top, inputsize);
    return p.upper ? (va & m) != m : (va & m) != 0;
}

a64_translation fault(a64_fault_kind kind, int level)
{
    a64_translation t;
    t.fault.kind = kind;
    t.fault.level = level;
    return t;
}

} // namespace

unsigned a64_pa_bits(uint64_t parange)
{
    static constexpr unsigned sizes[] = {32, 36, 40, 42, 44, 48, 52};
    return parange < 7 ? sizes[parange] : 48;
}

uint32_t a64_fault::fsc() const
{
    const uint32_t l = static_cast<uint32_t>(level) & 3;
    switch (kind) {
    case a64_fault_kind::none: return 0;
    case a64_fault_kind::address_size: return 0x00 | l;
    case a64_fault_kind::translation: return 0x04 | l;
    case a64_fault_kind::access_flag: return 0x08 | l;
    case a64_fault_kind::permission: return 0x0C | l;
    case a64_fault_kind::external_on_walk: return 0x14 | l;
    case a64_fault_kind::alignment: return 0x21;
    }
    return 0;
}

a64_translation a64_stage1_translate(const a64_stage1_regime &r, const a64_access &a,
                                     const a64_phys_read &read)
{
    const bool aligned = a.size == 0 || (a.va & (a.size - 1)) == 0;
    if (!bit(r.sctlr, 0)) {
        // Stage 1 disabled (AArch64.S1DisabledOutput): the PA is VA[55:0], VA[addrtop:PAMax]
        // must be zero (addrtop 55 with top byte ignore, AArch64.AddrTop); data accesses are
        // Device-nGnRnE, so an unaligned one faults.
        const unsigned addrtop = params(r, a.va, a.fetch).tbi ? 55 : 63;
        if (a.va & mask(addrtop, r.pa_bits))
            return fault(a64_fault_kind::address_size, 0);
        if (!a.fetch && !aligned)
            return fault(a64_fault_kind::alignment, 0);
        a64_translation t;
        t.pa = bits(a.va, 55, 0);
        t.device = !a.fetch;
        return t;
    }
    const walk_params p = params(r, a.va, a.fetch);
    if (va_out_of_range(a.va, p) || p.epd || (a.unprivileged && p.e0pd))
        return fault(a64_fault_kind::translation, 0);

    // AArch64.S1Walk.
    const unsigned g = p.granule, stride = g - 3;
    const unsigned inputsize = 64 - p.txsz;
    const int start = 4 - static_cast<int>((inputsize - g + stride - 1) / stride);
    // The first table holds 2^(inputsize - shift(start)) entries.
    auto shift = [&](int level) { return g + static_cast<unsigned>(3 - level) * stride; };
    const unsigned first_bits = inputsize - shift(start);
    // AArch64.S1TTBaseAddress: TTBR[47:1] aligned to the first table's size (16 bytes for a
    // table of two entries: the 64-byte minimum is for 52-bit addresses only).
    uint64_t table = p.ttb & mask(47, first_bits + 3);
    if (table >> p.pa_bits)
        return fault(a64_fault_kind::address_size, 0);
    bool ap_table_ro = false, ap_table_no_el0 = false, uxn_table = false, pxn_table = false;
    for (int level = start; level <= 3; level++) {
        const unsigned lo = shift(level);
        const unsigned width = level == start ? first_bits : stride;
        const uint64_t index = bits(a.va, lo + width - 1, lo);
        uint64_t desc = 0;
        if (!read(table + index * 8, desc))
            return fault(a64_fault_kind::external_on_walk, level);
        if (!bit(desc, 0))
            return fault(a64_fault_kind::translation, level);
        if (level < 3 && bit(desc, 1)) { // a table descriptor
            table = desc & mask(47, g);
            if (table >> p.pa_bits)
                return fault(a64_fault_kind::address_size, level);
            ap_table_ro |= bit(desc, 62);
            ap_table_no_el0 |= bit(desc, 61);
            uxn_table |= bit(desc, 60);
            pxn_table |= bit(desc, 59);
            continue;
        }
        // A block or page. Blocks: levels 1 and 2 with 4 KiB, level 2 with 16 and 64 KiB.
        const bool block_ok = g == 12 ? (level == 1 || level == 2) : level == 2;
        if ((level == 3 && !bit(desc, 1)) || (level < 3 && !block_ok))
            return fault(a64_fault_kind::translation, level);
        const uint64_t oa = (desc & mask(47, lo)) | (a.va & ((uint64_t{1} << lo) - 1));
        if (oa >> p.pa_bits)
            return fault(a64_fault_kind::address_size, level);
        if (!bit(desc, 10) && !(p.ha && a.af_update))
            return fault(a64_fault_kind::access_flag, level);

        a64_translation t;
        t.pa = oa;
        t.leaf_bits = lo;
        const uint64_t attr = bits(r.mair, 8 * static_cast<unsigned>(bits(desc, 4, 2)) + 7,
                                   8 * static_cast<unsigned>(bits(desc, 4, 2)));
        t.device = (attr & 0xF0) == 0;
        // AArch64.S1HasAlignmentFaultDueToMemType: before permissions.
        if (t.device && !a.fetch && !aligned)
            return fault(a64_fault_kind::alignment, level);

        // AArch64.S1ComputePermissions, direct permissions.
        const bool ap2 = bit(desc, 7) || ap_table_ro;
        bool allowed = false;
        if (r.two_ranges) {
            const bool ap1 = bit(desc, 6) && !ap_table_no_el0;
            const bool ur = ap1, uw = ap1 && !ap2;
            bool pr = true, pw = !ap2;
            bool ux = !(bit(desc, 54) || uxn_table);
            bool px = !(bit(desc, 53) || pxn_table || uw);
            if (bit(r.sctlr, 19)) { // WXN
                ux = ux && !uw;
                px = px && !pw;
            }
            if (a.pan && ur && !a.fetch) // PSTATE.PAN: no privileged data access to EL0's
                pr = pw = false;
            if (a.fetch)
                allowed = a.unprivileged ? ux : px;
            else if (a.write)
                allowed = a.unprivileged ? uw : pw;
            else
                allowed = a.unprivileged ? ur : pr;
        } else {
            const bool w = !ap2;
            const bool x = !(bit(desc, 54) || uxn_table) && !(bit(r.sctlr, 19) && w);
            allowed = a.fetch ? x : a.write ? w : true;
        }
        if (!allowed)
            return fault(a64_fault_kind::permission, level);
        return t;
    }
    return fault(a64_fault_kind::translation, 3); // not reached: level 3 is a leaf
}

} // namespace pmtrace::platform
