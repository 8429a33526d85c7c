// a64_poll_loop.cpp - counter poll loops: the few instruction forms they are made of, decoded
// and evaluated as the Arm ARM's pseudocode defines them (C6.2: ADD, SUB, ADDS, SUBS, MRS; J1:
// AddWithCarry, ShiftReg; the branches by a64_branch_taken, ConditionHolds).
#include <pmtrace/platform/cpu/a64_poll_loop.h>

#include <pmtrace/platform/cpu/a64_decode.h>

#include <algorithm>

namespace pmtrace::platform
{

namespace
{

// Register slots: X0..X30, then the zero register, SP and NZCV.
constexpr unsigned zr = 31, sp = 32, flags = 33;
constexpr uint64_t bit(unsigned slot)
{
    return slot == zr ? 0 : uint64_t{1} << slot;
}

enum class kind { counter, none, add_sub, b_cond, cb, tb };

struct op {
    kind k = kind::none;
    bool sf = true, sub = false, set_flags = false, physical = false;
    unsigned rd = zr, rn = zr, rm = zr, shift = 0, amount = 0, test_bit = 0;
    bool immediate = false;
    uint64_t imm = 0, target = 0;
    uint64_t reads = 0, writes = 0;
};

int64_t sext(uint64_t v, unsigned bits)
{
    return static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
}

std::optional<op> decode(uint32_t insn, uint64_t pc)
{
    op o;
    if ((insn & 0xFFF00000u) == 0xD5300000u) { // MRS
        const unsigned op0 = 2 + ((insn >> 19) & 1), op1 = (insn >> 16) & 7,
                       crn = (insn >> 12) & 15, crm = (insn >> 8) & 15, op2 = (insn >> 5) & 7;
        if (op0 != 3 || op1 != 3 || crn != 14 || crm != 0 || (op2 != 1 && op2 != 2))
            return std::nullopt;
        o.k = kind::counter;
        o.rd = insn & 31;
        o.physical = op2 == 1; // CNTPCT_EL0
        o.writes = bit(o.rd);
        return o;
    }
    if ((insn & 0xFFFFF0FFu) == 0xD50330DFu || insn == 0xD503201Fu || insn == 0xD503203Fu)
        return o; // ISB, NOP, YIELD
    o.sf = (insn >> 31) & 1;
    o.sub = (insn >> 30) & 1;
    o.set_flags = (insn >> 29) & 1;
    const unsigned rd = insn & 31, rn = (insn >> 5) & 31;
    if ((insn & 0x1F800000u) == 0x11000000u) { // ADD/SUB (immediate)
        o.k = kind::add_sub;
        o.immediate = true;
        o.imm = static_cast<uint64_t>((insn >> 10) & 0xFFF) << ((insn >> 22) & 1 ? 12 : 0);
        o.rd = rd == 31 && !o.set_flags ? sp : rd;
        o.rn = rn == 31 ? sp : rn;
    } else if ((insn & 0x1F200000u) == 0x0B000000u) { // ADD/SUB (shifted register)
        o.k = kind::add_sub;
        o.shift = (insn >> 22) & 3;
        o.amount = (insn >> 10) & 63;
        if (o.shift == 3 || (!o.sf && o.amount >= 32))
            return std::nullopt; // reserved
        o.rd = rd;
        o.rn = rn;
        o.rm = (insn >> 16) & 31;
    } else if ((insn & 0xFF000010u) == 0x54000000u) { // B.cond
        o.k = kind::b_cond;
        o.target = pc + static_cast<uint64_t>(sext((insn >> 5) & 0x7FFFF, 19) * 4);
        o.reads = (insn & 15) >= 14 ? 0 : bit(flags); // AL and NV read no flag
        return o;
    } else if ((insn & 0x7E000000u) == 0x34000000u) { // CBZ, CBNZ
        o.k = kind::cb;
        o.rn = rd;
        o.target = pc + static_cast<uint64_t>(sext((insn >> 5) & 0x7FFFF, 19) * 4);
        o.reads = bit(o.rn);
        return o;
    } else if ((insn & 0x7E000000u) == 0x36000000u) { // TBZ, TBNZ
        o.k = kind::tb;
        o.test_bit = (((insn >> 31) & 1) << 5) | ((insn >> 19) & 31);
        o.rn = rd;
        o.target = pc + static_cast<uint64_t>(sext((insn >> 5) & 0x3FFF, 14) * 4);
        o.reads = bit(o.rn);
        return o;
    } else {
        return std::nullopt;
    }
    o.reads = bit(o.rn) | (o.immediate ? 0 : bit(o.rm));
    o.writes = bit(o.rd) | (o.set_flags ? bit(flags) : 0);
    return o;
}

bool is_branch(kind k)
{
    return k == kind::b_cond || k == kind::cb || k == kind::tb;
}

// J1.1.3 AddWithCarry over `bits` (32 or 64): the result and NZCV. C is the carry out of the
// unsigned sum; V is set when x and y have one sign and the result the other.
uint64_t add_with_carry(uint64_t x, uint64_t y, unsigned carry, unsigned bits, uint32_t &nzcv)
{
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : 0xFFFF'FFFFu;
    x &= mask;
    y &= mask;
    bool c = false;
    uint64_t result = 0;
    if (bits == 64) {
        const uint64_t partial = x + y;
        result = partial + carry;
        c = partial < x || result < partial;
    } else {
        const uint64_t sum = x + y + carry;
        result = sum & mask;
        c = (sum >> 32) != 0;
    }
    const unsigned msb = bits - 1;
    const bool n = (result >> msb) & 1, z = result == 0;
    const bool v = (((x ^ result) & (y ^ result)) >> msb) & 1;
    nzcv = (uint32_t{n} << 31) | (uint32_t{z} << 30) | (uint32_t{c} << 29) | (uint32_t{v} << 28);
    return result;
}

// J1.1.3 ShiftReg (LSL, LSR, ASR) over `bits`.
uint64_t shift_reg(uint64_t v, unsigned type, unsigned amount, unsigned bits)
{
    const uint64_t mask = bits == 64 ? ~uint64_t{0} : 0xFFFF'FFFFu;
    v &= mask;
    switch (type) {
    case 0: return (v << amount) & mask;
    case 1: return v >> amount;
    default: return static_cast<uint64_t>(sext(v, bits) >> amount) & mask;
    }
}

} // namespace

std::optional<a64_poll_loop> a64_find_poll_loop(uint64_t head, const uint32_t *code, size_t n)
{
    a64_poll_loop loop;
    loop.head = head;
    uint64_t written = 0;
    unsigned counters = 0;
    std::array<op, a64_poll_loop::max_insns> ops{};
    for (unsigned i = 0; i < n && i < a64_poll_loop::max_insns; i++) {
        const std::optional<op> o = decode(code[i], head + 4 * i);
        if (!o)
            return std::nullopt;
        ops[i] = *o;
        loop.code[i] = code[i];
        written |= o->writes;
        if (o->k == kind::counter) {
            counters++;
            loop.mrs_index = i;
            loop.physical = o->physical;
        }
        if (!is_branch(o->k))
            continue;
        if (o->target != head || counters != 1)
            return std::nullopt;
        loop.insns = i + 1;
        // Memoryless: nothing read before it is written in the iteration, if the loop writes it.
        uint64_t defined = 0;
        for (unsigned j = 0; j <= i; j++) {
            if (ops[j].reads & written & ~defined)
                return std::nullopt;
            defined |= ops[j].writes;
        }
        return loop;
    }
    return std::nullopt;
}

bool a64_poll_goes_on(const a64_poll_loop &loop, const a64_poll_regs &regs, uint64_t counter)
{
    std::array<uint64_t, 33> r{};
    for (unsigned i = 0; i < 31; i++)
        r[i] = regs.x[i];
    r[sp] = regs.sp;
    uint32_t nzcv = regs.nzcv;
    auto get = [&](unsigned slot) { return slot == zr ? 0 : r[slot]; };
    auto set = [&](unsigned slot, uint64_t v) {
        if (slot != zr)
            r[slot] = v;
    };
    for (unsigned i = 0; i < loop.insns; i++) {
        const uint64_t pc = loop.head + 4 * i;
        const op o = *decode(loop.code[i], pc);
        const unsigned bits = o.sf ? 64 : 32;
        switch (o.k) {
        case kind::counter: set(o.rd, counter); break;
        case kind::none: break;
        case kind::add_sub: {
            const uint64_t y = o.immediate ? o.imm : shift_reg(get(o.rm), o.shift, o.amount, bits);
            uint32_t f = 0;
            const uint64_t result = o.sub ? add_with_carry(get(o.rn), ~y, 1, bits, f)
                                          : add_with_carry(get(o.rn), y, 0, bits, f);
            set(o.rd, result);
            if (o.set_flags)
                nzcv = f;
            break;
        }
        case kind::b_cond:
        case kind::cb:
        case kind::tb: return a64_branch_taken(loop.code[i], nzcv, get(o.rn));
        }
    }
    return false;
}

namespace
{

// A value as a function of the count c: (slope * c + offset) mod 2^bits, zero-extended, for a
// slope of -1, 0 (a constant) or +1; `known` false where it is not of that form.
struct form {
    bool known = true;
    int slope = 0;
    uint64_t offset = 0;
    unsigned bits = 64;
};

uint64_t mask_of(unsigned bits)
{
    return bits == 64 ? ~uint64_t{0} : 0xFFFF'FFFFu;
}

form truncate(form f, unsigned bits)
{
    if (f.known && bits < f.bits) {
        f.bits = bits;
        f.offset &= mask_of(bits);
    } else if (f.known && bits > f.bits && f.slope != 0) {
        f.known = false; // a 32-bit form read as 64 bits wraps at 2^32: not of the form
    } else if (f.known) {
        f.bits = bits;
    }
    return f;
}

uint64_t value_at(const form &f, uint64_t c)
{
    const uint64_t v = f.slope > 0 ? c + f.offset : f.slope < 0 ? f.offset - c : f.offset;
    return v & mask_of(f.bits);
}

// How many counts on from c the form first equals t (mod 2^bits); 2^bits (saturated) when it
// equals it now: the distance to the next time.
uint64_t distance_to(const form &f, uint64_t c, uint64_t t)
{
    const uint64_t m = mask_of(f.bits), v = value_at(f, c);
    const uint64_t d = (f.slope > 0 ? t - v : v - t) & m;
    return d ? d : (f.bits == 64 ? ~uint64_t{0} : m + 1);
}

// The first count after c at which a decision on f (zero, sign, wrap, borrow, overflow) can
// change: at a value of 0, 1, -1, the sign boundary or the value before it.
uint64_t boundaries(const form &f, uint64_t c)
{
    if (!f.known)
        return 1;
    if (f.slope == 0)
        return ~uint64_t{0};
    const uint64_t half = uint64_t{1} << (f.bits - 1), m = mask_of(f.bits);
    uint64_t d = ~uint64_t{0};
    for (uint64_t t : {uint64_t{0}, uint64_t{1}, m, half, half - 1})
        d = std::min(d, distance_to(f, c, t));
    return d;
}

} // namespace

uint64_t a64_poll_same_until(const a64_poll_loop &loop, const a64_poll_regs &regs, uint64_t counter)
{
    std::array<form, 33> r{};
    for (unsigned i = 0; i < 31; i++)
        r[i].offset = regs.x[i];
    r[sp].offset = regs.sp;
    auto get = [&](unsigned slot) { return slot == zr ? form{} : r[slot]; };
    auto set = [&](unsigned slot, const form &f) {
        if (slot != zr)
            r[slot] = f;
    };
    uint64_t d = ~uint64_t{0}; // counts on from `counter` that go the same way
    form flags_x, flags_y, flags_r;
    bool flags_set = false;
    for (unsigned i = 0; i < loop.insns; i++) {
        const op o = *decode(loop.code[i], loop.head + 4 * i);
        const unsigned bits = o.sf ? 64 : 32;
        switch (o.k) {
        case kind::counter: set(o.rd, form{true, 1, 0, 64}); break;
        case kind::none: break;
        case kind::add_sub: {
            const form x = truncate(get(o.rn), bits);
            form y;
            if (o.immediate) {
                y.offset = o.imm;
            } else {
                y = truncate(get(o.rm), bits);
                if (y.known && y.slope == 0)
                    y.offset = shift_reg(y.offset, o.shift, o.amount, bits);
                else if (o.amount != 0)
                    y.known = false;
            }
            y = truncate(y, bits);
            form result;
            result.bits = bits;
            result.known = x.known && y.known;
            const int slope = o.sub ? x.slope - y.slope : x.slope + y.slope;
            if (slope < -1 || slope > 1)
                result.known = false;
            result.slope = slope;
            result.offset = (o.sub ? x.offset - y.offset : x.offset + y.offset) & mask_of(bits);
            set(o.rd, result);
            if (o.set_flags) {
                flags_set = true;
                flags_x = x;
                flags_y = y;
                flags_r = result;
            }
            break;
        }
        case kind::b_cond:
            if (flags_set)
                for (const form &f : {flags_x, flags_y, flags_r})
                    d = std::min(d, boundaries(f, counter));
            return d > ~uint64_t{0} - counter ? ~uint64_t{0} : counter + d;
        case kind::cb:
            d = std::min(d, boundaries(truncate(get(o.rn), bits), counter));
            return d > ~uint64_t{0} - counter ? ~uint64_t{0} : counter + d;
        case kind::tb: {
            const form f = get(o.rn);
            if (!f.known) {
                d = 1;
            } else if (f.slope != 0 && o.test_bit < f.bits) {
                // Bit k changes where the value crosses a multiple of 2^k.
                const uint64_t low = value_at(f, counter) & ((uint64_t{1} << o.test_bit) - 1);
                const uint64_t step = uint64_t{1} << o.test_bit;
                d = std::min(d, f.slope > 0 ? step - low : low + 1);
            }
            return d > ~uint64_t{0} - counter ? ~uint64_t{0} : counter + d;
        }
        }
    }
    return counter + 1;
}

} // namespace pmtrace::platform
