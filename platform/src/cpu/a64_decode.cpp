// a64_decode.cpp - instruction classes and load/store operands (a64_decode.h). The encodings are
// those of the Arm ARM, C4.1 (the top-level groups) and C4.1.66 ff. (loads and stores).
#include <pmtrace/platform/cpu/a64_decode.h>

namespace pmtrace::platform
{

namespace
{

constexpr uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

int64_t sign_extend(uint64_t v, unsigned width)
{
    uint64_t m = uint64_t{1} << (width - 1);
    return static_cast<int64_t>((v ^ m) - m);
}

} // namespace

uint32_t a64_classify(uint32_t insn)
{
    uint32_t c = 0;
    // Loads and stores: op0 = x1x0 (bit 27 set, bit 25 clear).
    if (bits(insn, 27, 27) == 1 && bits(insn, 25, 25) == 0) {
        if (auto m = a64_decode_mem(insn)) {
            // D14.1 "Memory-reading instructions": an atomic that returns no value to the PE
            // (ST<op>: LD<op> or SWP with Rt = XZR) is not one; it still writes memory.
            bool no_result = m->atomic && bits(insn, 29, 27) == 0b111 && m->rt == 31;
            if (m->load && !no_result)
                c |= A64_LOAD;
            if (m->store)
                c |= A64_STORE;
            if (m->exclusive && m->store && !m->load)
                c |= A64_STORE_EXCLUSIVE;
        }
        return c;
    }
    // Branches, exception generating and system instructions: op0 = 101x.
    if (bits(insn, 28, 26) != 0b101)
        return 0;
    if (bits(insn, 30, 26) == 0b00101) // B, BL
        return A64_BRANCH | A64_BR_IMMED;
    if (bits(insn, 31, 24) == 0b01010100) // B.cond, BC.cond (AL and NV: always taken)
        return A64_BRANCH | A64_BR_IMMED |
               (bits(insn, 3, 1) == 0b111 ? 0u : uint32_t{A64_CONDITIONAL});
    if (bits(insn, 30, 25) == 0b011010 || bits(insn, 30, 25) == 0b011011) // CBZ, TBZ
        return A64_BRANCH | A64_BR_IMMED | A64_CONDITIONAL;
    if (bits(insn, 31, 24) == 0b11010100) { // SVC, HVC, SMC, BRK, HLT
        return A64_EXCEPTION;
    }
    if (bits(insn, 31, 25) == 0b1101011) { // branch (register)
        uint32_t opc = bits(insn, 24, 21);
        switch (opc) {
        case 0b0000: // BR, BRAAZ, BRABZ
        case 0b0001: // BLR, BLRAAZ, BLRABZ
        case 0b1000: // BRAA, BRAB
        case 0b1001: // BLRAA, BLRAB
            return A64_BRANCH | A64_BR_INDIRECT;
        case 0b0010: // RET, RETAA, RETAB
            return A64_BRANCH | A64_BR_INDIRECT | A64_BR_RETURN;
        case 0b0100: // ERET, ERETAA, ERETAB
            return A64_ERET;
        default: return 0;
        }
    }
    if (bits(insn, 31, 22) == 0b1101010100) { // system
        // MSR (immediate): L = 0, op0 = 00, CRn = 0100, Rt = 11111.
        if (bits(insn, 21, 19) == 0b000 && bits(insn, 15, 12) == 0b0100 && bits(insn, 4, 0) == 31)
            return A64_PSTATE;
        // WFI: hint CRm = 0000, op2 = 011; WFE: op2 = 010.
        if (insn == 0xD503207F)
            return A64_WFI;
        if (insn == 0xD503205F)
            return A64_WFE;
        // WFET, WFIT (FEAT_WFxT): CRn = 0001, CRm = 0000, op2 = 000 / 001, Rd.
        if ((insn & 0xFFFFFFC0) == 0xD5031000)
            return A64_WFE;
        // ISB: barrier CRn = 0011, op2 = 110, any CRm (the option).
        if ((insn & 0xFFFFF0FF) == 0xD50330DF)
            return A64_ISB;
        // TSB CSYNC: hint CRm = 0010, op2 = 010.
        if (insn == 0xD503225F)
            return A64_TSB;
        // DC ZVA: D14.1 "Memory-writing instructions" counts it as one.
        if ((insn & 0xFFFFFFE0) == 0xD50B7420)
            return A64_STORE;
    }
    return c;
}

a64_p0 a64_p0_of(uint32_t insn, uint64_t pc)
{
    a64_p0 p;
    const uint32_t c = a64_classify(insn);
    if (c & (A64_WFI | A64_WFE)) {
        p.kind = a64_p0_kind::wfx;
        return p;
    }
    if (c & A64_ISB) {
        p.kind = a64_p0_kind::isb;
        return p;
    }
    if (c & A64_ERET) {
        p.kind = a64_p0_kind::eret;
        return p;
    }
    if (c & A64_BR_IMMED) {
        int64_t offset = 0;
        if (bits(insn, 30, 26) == 0b00101) { // B, BL: imm26
            offset = sign_extend(bits(insn, 25, 0), 26);
            p.kind = bits(insn, 31, 31) ? a64_p0_kind::direct_link : a64_p0_kind::direct;
        } else if (bits(insn, 30, 25) == 0b011011) { // TBZ, TBNZ: imm14
            offset = sign_extend(bits(insn, 18, 5), 14);
            p.kind = a64_p0_kind::direct;
            p.conditional = true;
        } else { // B.cond, BC.cond, CBZ, CBNZ: imm19
            offset = sign_extend(bits(insn, 23, 5), 19);
            p.kind = a64_p0_kind::direct;
            // B.cond with AL (0b111x) is not conditional.
            p.conditional = bits(insn, 31, 24) != 0b01010100 || bits(insn, 3, 1) != 0b111;
        }
        p.target = pc + static_cast<uint64_t>(offset * 4);
        return p;
    }
    if (c & A64_BRANCH) { // branch (register): opc [24:21]
        const uint32_t opc = bits(insn, 24, 21);
        p.kind = opc == 0b0010              ? a64_p0_kind::ret
                 : (opc & 0b0111) == 0b0001 ? a64_p0_kind::indirect_link
                                            : a64_p0_kind::indirect;
    }
    return p;
}

bool a64_branch_taken(uint32_t insn, uint64_t nzcv, uint64_t xt)
{
    if (bits(insn, 31, 24) == 0b01010100) { // B.cond, BC.cond: ConditionHolds
        const bool n = (nzcv >> 31) & 1, z = (nzcv >> 30) & 1, c = (nzcv >> 29) & 1,
                   v = (nzcv >> 28) & 1;
        const uint32_t cond = bits(insn, 3, 0);
        bool result = false;
        switch (cond >> 1) {
        case 0b000: result = z; break;
        case 0b001: result = c; break;
        case 0b010: result = n; break;
        case 0b011: result = v; break;
        case 0b100: result = c && !z; break;
        case 0b101: result = n == v; break;
        case 0b110: result = n == v && !z; break;
        default: result = true; break;
        }
        return (cond & 1) && cond != 0b1111 ? !result : result;
    }
    if (bits(insn, 30, 25) == 0b011010) { // CBZ, CBNZ: op [24]
        const uint64_t value = bits(insn, 31, 31) ? xt : (xt & 0xFFFF'FFFF);
        return (value == 0) != (bits(insn, 24, 24) == 1);
    }
    if (bits(insn, 30, 25) == 0b011011) { // TBZ, TBNZ: bit b5:b40, op [24]
        const unsigned bit = (bits(insn, 31, 31) << 5) | bits(insn, 23, 19);
        return (((xt >> bit) & 1) == 0) != (bits(insn, 24, 24) == 1);
    }
    return true; // not conditional
}

std::optional<a64_cache_op> a64_decode_cache_op(uint32_t insn)
{
    if ((insn & 0xFFF8'0000) != 0xD508'0000 || bits(insn, 15, 12) != 0b0111)
        return std::nullopt;
    const uint32_t op1 = bits(insn, 18, 16), crm = bits(insn, 11, 8), op2 = bits(insn, 7, 5);
    if (crm == 0b1000 || crm == 0b1001) // AT: address translation, which does not abort
        return std::nullopt;
    a64_cache_op c;
    c.zva = op1 == 0b011 && crm == 0b0100 && op2 == 0b001;
    c.rt = bits(insn, 4, 0);
    return c;
}

bool a64_may_write(uint32_t insn, unsigned reg)
{
    uint32_t c = a64_classify(insn);
    if (c & A64_BRANCH) {
        bool bl = bits(insn, 31, 26) == 0b100101;
        bool blr = bits(insn, 31, 25) == 0b1101011 && (bits(insn, 24, 21) & 0b0111) == 0b0001;
        return reg == 30 && (bl || blr);
    }
    if (c & (A64_ERET | A64_PSTATE | A64_EXCEPTION | A64_WFI | A64_WFE | A64_ISB | A64_TSB))
        return false;
    if (bits(insn, 31, 22) == 0b1101010100 && bits(insn, 21, 21) == 0)
        return false; // MSR, SYS, hints, barriers
    auto m = a64_decode_mem(insn);
    bool writeback = m && (m->addressing == a64_mem_insn::mode::pre_index ||
                           m->addressing == a64_mem_insn::mode::post_index);
    if (writeback && m->rn == reg)
        return true;
    if (m && (c & A64_STORE) && !(c & A64_LOAD) && !m->atomic)
        return (c & A64_STORE_EXCLUSIVE) && m->rm == reg;
    if (m && m->load && m->pair && m->rt2 == reg)
        return true;
    return bits(insn, 4, 0) == reg;
}

std::optional<a64_mem_insn> a64_decode_mem(uint32_t insn)
{
    a64_mem_insn m;
    uint32_t size = bits(insn, 31, 30);
    bool v = bits(insn, 26, 26);
    m.rt = bits(insn, 4, 0);
    m.rn = bits(insn, 9, 5);
    m.simd = v;

    // The load/store register forms (size:opc as in C4.1.66).
    auto single = [&](uint32_t opc) -> bool {
        if (v) {
            unsigned sz = (opc & 2) ? 16u : (1u << size);
            if ((opc & 2) && size != 0)
                return false;
            m.size = sz;
            m.load = opc & 1;
            m.store = !m.load;
            return true;
        }
        m.size = 1u << size;
        switch (opc) {
        case 0: m.store = true; return true;
        case 1:
            m.load = true;
            m.dest64 = size == 3;
            return true;
        case 2:
            if (size == 3)
                return false; // PRFM: no data access
            m.load = true;
            m.sign_extend = true;
            m.dest64 = true;
            return size != 3;
        case 3:
            if (size >= 2)
                return false;
            m.load = true;
            m.sign_extend = true;
            m.dest64 = false;
            return true;
        }
        return false;
    };

    if (bits(insn, 29, 27) == 0b111 && bits(insn, 25, 24) == 0b01) { // unsigned immediate
        if (!single(bits(insn, 23, 22)))
            return std::nullopt;
        m.imm = static_cast<int64_t>(bits(insn, 21, 10)) * m.size;
        return m;
    }
    if (bits(insn, 29, 27) == 0b111 && bits(insn, 25, 24) == 0b00) {
        if (bits(insn, 21, 21) == 0) { // unscaled, post-index, unprivileged, pre-index
            if (!single(bits(insn, 23, 22)))
                return std::nullopt;
            m.imm = sign_extend(bits(insn, 20, 12), 9);
            uint32_t idx = bits(insn, 11, 10);
            m.addressing = idx == 1   ? a64_mem_insn::mode::post_index
                           : idx == 3 ? a64_mem_insn::mode::pre_index
                                      : a64_mem_insn::mode::offset;
            return m;
        }
        if (bits(insn, 11, 10) == 0b10) { // register offset
            if (!single(bits(insn, 23, 22)))
                return std::nullopt;
            m.reg_offset = true;
            m.rm = bits(insn, 20, 16);
            m.extend = bits(insn, 15, 13);
            unsigned scale = __builtin_ctz(m.size);
            m.shift = bits(insn, 12, 12) ? scale : 0;
            return m;
        }
        if (bits(insn, 11, 10) == 0b00 && !v) { // atomic memory operations, swap, LDAPR
            m.size = 1u << size;
            m.load = true;
            m.dest64 = size == 3;
            m.rm = bits(insn, 20, 16); // Rs
            if (bits(insn, 15, 15) == 1 && bits(insn, 14, 12) == 0b100) {
                m.acquire_release = true; // LDAPR, LDAPRH, LDAPRB (o3 = 1, opc = 100): a load
                return m;
            }
            m.atomic = true;
            m.store = true;
            return m;
        }
        return std::nullopt;
    }
    if (bits(insn, 29, 27) == 0b101) { // pairs
        uint32_t idx = bits(insn, 25, 23);
        if (idx > 3)
            return std::nullopt;
        uint32_t opc = size;
        m.pair = true;
        m.load = bits(insn, 22, 22);
        m.store = !m.load;
        m.rt2 = bits(insn, 14, 10);
        if (v) {
            if (opc == 3)
                return std::nullopt;
            m.size = 4u << opc;
        } else {
            if (opc == 3 || (opc == 1 && !m.load))
                return std::nullopt; // (opc 01 load: LDPSW; store: STGP, not a plain store)
            m.size = opc == 2 ? 8 : 4;
            m.sign_extend = opc == 1;
            m.dest64 = opc != 0;
        }
        m.imm = sign_extend(bits(insn, 21, 15), 7) * static_cast<int64_t>(m.size);
        m.addressing = idx == 1   ? a64_mem_insn::mode::post_index
                       : idx == 3 ? a64_mem_insn::mode::pre_index
                                  : a64_mem_insn::mode::offset;
        return m;
    }
    if (bits(insn, 29, 27) == 0b011 && bits(insn, 25, 24) == 0b00) { // load register (literal)
        uint32_t opc = size;
        m.load = true;
        m.addressing = a64_mem_insn::mode::literal;
        m.imm = sign_extend(bits(insn, 23, 5), 19) * 4;
        if (v) {
            if (opc == 3)
                return std::nullopt;
            m.size = 4u << opc;
        } else {
            if (opc == 3)
                return std::nullopt; // PRFM (literal)
            m.size = opc == 0 ? 4 : 8;
            m.sign_extend = opc == 2;
            m.dest64 = opc != 0;
        }
        return m;
    }
    if (bits(insn, 29, 24) == 0b001000 && !v) { // exclusive and ordered
        m.size = 1u << size;
        bool o2 = bits(insn, 23, 23), o1 = bits(insn, 21, 21), o0 = bits(insn, 15, 15);
        m.load = bits(insn, 22, 22);
        m.store = !m.load;
        m.dest64 = size == 3;
        m.acquire_release = o0 || o2;
        m.exclusive = !o2;
        if (o1 && !o2) { // LDXP/STXP and friends: pairs
            m.pair = true;
            m.rt2 = bits(insn, 14, 10);
        }
        if (o1 && o2) { // CAS family
            m.atomic = true;
            m.load = m.store = true;
            m.exclusive = false;
        }
        m.rm = bits(insn, 20, 16); // Rs
        return m;
    }
    // SIMD structures (multiple and single, post-indexed or not: bits [29:23] 001100x and
    // 001101x): a load or a store, operands not decoded here.
    if (bits(insn, 31, 31) == 0 && bits(insn, 29, 25) == 0b00110) {
        m.load = bits(insn, 22, 22);
        m.store = !m.load;
        m.size = 0;
        if (bits(insn, 23, 23))
            m.addressing = a64_mem_insn::mode::post_index; // Rn written back
        return m;
    }
    return std::nullopt;
}

uint64_t a64_address(const a64_mem_insn &m, const std::function<uint64_t(unsigned)> &base_reg,
                     const std::function<uint64_t(unsigned)> &xreg, uint64_t pc)
{
    if (m.addressing == a64_mem_insn::mode::literal)
        return pc + static_cast<uint64_t>(m.imm);
    uint64_t base = base_reg(m.rn);
    if (m.reg_offset) {
        uint64_t off = m.rm == 31 ? 0 : xreg(m.rm);
        switch (m.extend) {
        case 0b010: off = static_cast<uint32_t>(off); break;                       // UXTW
        case 0b110: off = static_cast<uint64_t>(static_cast<int32_t>(off)); break; // SXTW
        default: break;                                                            // LSL, SXTX
        }
        return base + (off << m.shift);
    }
    if (m.addressing == a64_mem_insn::mode::post_index)
        return base;
    return base + static_cast<uint64_t>(m.imm);
}

} // namespace pmtrace::platform
