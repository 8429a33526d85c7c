// A64 decoding (a64_decode.h): instruction words from the GNU assembler (aarch64-linux-gnu-as),
// their operands and classes as the Arm ARM's encodings (C4.1) define them.
#include <pmtrace/platform/cpu/a64_decode.h>

#include <gtest/gtest.h>

using namespace pmtrace::platform;

namespace
{
uint64_t regs(unsigned n)
{
    return 0x1000u * (n + 1); // x0 = 0x1000, x1 = 0x2000, ... SP (31) = 0x20000
}
} // namespace

TEST(A64Decode, LoadUnsignedImmediate) // ldr w5, [x1, #4]
{
    auto m = a64_decode_mem(0xB9400425);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->load);
    EXPECT_FALSE(m->store);
    EXPECT_EQ(m->size, 4u);
    EXPECT_EQ(m->rt, 5u);
    EXPECT_FALSE(m->dest64);
    EXPECT_EQ(a64_address(*m, regs, regs, 0), 0x2004u);
}

TEST(A64Decode, SignedHalfwordPreIndex) // ldrsh x3, [x2, #-2]!
{
    auto m = a64_decode_mem(0x789FEC43);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->sign_extend);
    EXPECT_TRUE(m->dest64);
    EXPECT_EQ(m->size, 2u);
    EXPECT_EQ(m->addressing, a64_mem_insn::mode::pre_index);
    EXPECT_EQ(a64_address(*m, regs, regs, 0), 0x3000u - 2);
}

TEST(A64Decode, PairPostIndexFromSp) // ldp x1, x2, [sp], #16
{
    auto m = a64_decode_mem(0xA8C10BE1);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->pair);
    EXPECT_TRUE(m->load);
    EXPECT_EQ(m->size, 8u);
    EXPECT_EQ(m->rt, 1u);
    EXPECT_EQ(m->rt2, 2u);
    EXPECT_EQ(m->rn, 31u);
    EXPECT_EQ(m->imm, 16);
    EXPECT_EQ(m->addressing, a64_mem_insn::mode::post_index);
    EXPECT_EQ(a64_address(*m, regs, regs, 0), 0x20000u);
}

TEST(A64Decode, StorePairOffset) // stp w3, w4, [x5, #8]
{
    auto m = a64_decode_mem(0x290110A3);
    ASSERT_TRUE(m);
    EXPECT_TRUE(m->store);
    EXPECT_EQ(m->size, 4u);
    EXPECT_EQ(a64_address(*m, regs, regs, 0), 0x6008u);
}

TEST(A64Decode, RegisterOffsets) // ldr x7, [x1, x2, lsl #3]; ldrsw x0, [x1, w2, sxtw #2]
{
    auto m = a64_decode_mem(0xF8627827);
    ASSERT_TRUE(m);
    EXPECT_EQ(a64_address(*m, regs, regs, 0), 0x2000u + (0x3000u << 3));
    auto s = a64_decode_mem(0xB8A2D820);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->sign_extend);
    EXPECT_EQ(s->size, 4u);
    auto neg = [](unsigned n) { return n == 2 ? uint64_t{0xFFFF'FFFF} : regs(n); }; // w2 = -1
    EXPECT_EQ(a64_address(*s, neg, neg, 0), 0x2000u - 4);
}

TEST(A64Decode, LiteralAcquireAndPrefetch)
{
    auto lit = a64_decode_mem(0x58000040); // ldr x0, .+8
    ASSERT_TRUE(lit);
    EXPECT_EQ(a64_address(*lit, regs, regs, 0x4000'0000), 0x4000'0008u);
    auto ldar = a64_decode_mem(0x88DFFC41); // ldar w1, [x2]
    ASSERT_TRUE(ldar);
    EXPECT_TRUE(ldar->acquire_release);
    EXPECT_FALSE(ldar->exclusive);
    EXPECT_FALSE(a64_decode_mem(0xF9800020)); // prfm: no data access
    EXPECT_EQ(a64_classify(0xF9800020), 0u);
}

TEST(A64Decode, Classes)
{
    EXPECT_EQ(a64_classify(0x39000022), uint32_t{A64_STORE}); // strb w2, [x1]
    uint32_t immed = A64_BRANCH | A64_BR_IMMED;
    EXPECT_EQ(a64_classify(0x14000002), immed); // b
    EXPECT_EQ(a64_classify(0x94000002), immed); // bl
    uint32_t conditional = immed | A64_CONDITIONAL;
    EXPECT_EQ(a64_classify(0x54000041), conditional); // b.ne
    EXPECT_EQ(a64_classify(0x5400004E), immed);       // b.al: always taken
    EXPECT_EQ(a64_classify(0x5400004F), immed);       // b.nv: always taken too
    EXPECT_EQ(a64_classify(0xB4000041), conditional); // cbz
    EXPECT_EQ(a64_classify(0x36180041), conditional); // tbz
    EXPECT_EQ(a64_classify(0xD61F0020), uint32_t{A64_BRANCH | A64_BR_INDIRECT}); // br
    EXPECT_EQ(a64_classify(0xD63F0040), uint32_t{A64_BRANCH | A64_BR_INDIRECT}); // blr
    EXPECT_EQ(a64_classify(0xD65F03C0),
              uint32_t{A64_BRANCH | A64_BR_INDIRECT | A64_BR_RETURN}); // ret
    EXPECT_EQ(a64_classify(0xD69F03E0), uint32_t{A64_ERET});
    EXPECT_EQ(a64_classify(0xD50342FF), uint32_t{A64_PSTATE});    // msr daifclr, #2
    EXPECT_EQ(a64_classify(0xD4000001), uint32_t{A64_EXCEPTION}); // svc
    EXPECT_EQ(a64_classify(0xD503225F), uint32_t{A64_TSB});       // tsb csync
    EXPECT_EQ(a64_classify(0x8B030041), 0u);                      // add
}

// D14.1: "Memory-reading instructions" are loads and atomics that return a value to the PE (not
// ST<op>, not a SWP into XZR); "Memory-writing instructions" are stores and atomics, and DC ZVA.
// LDAPR is a load only; SIMD single-structure and replicating loads are loads.
TEST(A64Decode, MemoryReadingAndWritingInstructions)
{
    const uint32_t rw = A64_LOAD | A64_STORE;
    EXPECT_EQ(a64_classify(0xD50B7421), uint32_t{A64_STORE}); // dc zva, x1
    EXPECT_EQ(a64_classify(0xB822007F), uint32_t{A64_STORE}); // stadd w2, [x3]
    EXPECT_EQ(a64_classify(0xB8220064), rw);                  // ldadd w2, w4, [x3]
    EXPECT_EQ(a64_classify(0xF821805F), uint32_t{A64_STORE}); // swp x1, xzr, [x2]
    EXPECT_EQ(a64_classify(0x88A17C62), rw);                  // cas w1, w2, [x3]
    EXPECT_EQ(a64_classify(0xB8BFC041), uint32_t{A64_LOAD});  // ldapr w1, [x2]
    EXPECT_EQ(a64_classify(0x0D409020), uint32_t{A64_LOAD});  // ld1 {v0.s}[1], [x1]
    EXPECT_EQ(a64_classify(0x0D9F0C20), uint32_t{A64_STORE}); // st1 {v0.b}[3], [x1], #1
    EXPECT_EQ(a64_classify(0x4D40C820), uint32_t{A64_LOAD});  // ld1r {v0.4s}, [x1]
    EXPECT_EQ(a64_classify(0x4C40A020), uint32_t{A64_LOAD});  // ld1 {v0.16b, v1.16b}, [x1]
}

// What an instruction may write: a store-exclusive its status register Ws (and not Rt), BL and
// BLR X30, a compare-and-branch nothing, a store with writeback Rn, MSR nothing, LDP Rt and
// Rt2, data processing its Rd, a SIMD store with writeback Rn.
TEST(A64Decode, RegistersAnInstructionMayWrite)
{
    EXPECT_EQ(a64_classify(0xC8037C22), uint32_t{A64_STORE | A64_STORE_EXCLUSIVE});
    EXPECT_TRUE(a64_may_write(0xC8037C22, 3)); // stxr w3, x2, [x1]
    EXPECT_FALSE(a64_may_write(0xC8037C22, 2));
    EXPECT_TRUE(a64_may_write(0x94000000, 30)); // bl
    EXPECT_FALSE(a64_may_write(0x94000000, 0));
    EXPECT_TRUE(a64_may_write(0xD63F0120, 30)); // blr x9
    EXPECT_FALSE(a64_may_write(0xD63F0120, 9));
    EXPECT_FALSE(a64_may_write(0x35000002, 2)); // cbnz w2
    EXPECT_TRUE(a64_may_write(0xF8008420, 1));  // str x0, [x1], #8
    EXPECT_FALSE(a64_may_write(0xF8008420, 0));
    EXPECT_FALSE(a64_may_write(0xD51BD045, 5)); // msr tpidr_el0, x5
    EXPECT_TRUE(a64_may_write(0xA9400861, 1));  // ldp x1, x2, [x3]
    EXPECT_TRUE(a64_may_write(0xA9400861, 2));
    EXPECT_FALSE(a64_may_write(0xA9400861, 3));
    EXPECT_TRUE(a64_may_write(0x8B090107, 7)); // add x7, x8, x9
    EXPECT_FALSE(a64_may_write(0x8B090107, 8));
    EXPECT_TRUE(a64_may_write(0x4C9F7020, 1)); // st1 {v0.16b}, [x1], #16
}

// Cache maintenance by VA and DC ZVA (SYS, op0 0b01, CRn 0b0111): the address register, and
// whether it is DC ZVA (a write, so no CM in a Data Abort's ISS); AT (CRm 0b1000) is not one.
TEST(A64Decode, CacheMaintenanceByVirtualAddress)
{
    auto civac = a64_decode_cache_op(0xD50B7E23); // dc civac, x3
    ASSERT_TRUE(civac);
    EXPECT_FALSE(civac->zva);
    EXPECT_EQ(civac->rt, 3u);
    auto zva = a64_decode_cache_op(0xD50B7427); // dc zva, x7
    ASSERT_TRUE(zva);
    EXPECT_TRUE(zva->zva);
    EXPECT_EQ(zva->rt, 7u);
    auto ivau = a64_decode_cache_op(0xD50B7522); // ic ivau, x2
    ASSERT_TRUE(ivau);
    EXPECT_FALSE(ivau->zva);
    EXPECT_EQ(ivau->rt, 2u);
    EXPECT_FALSE(a64_decode_cache_op(0xD5087804)); // at s1e1r, x4
    EXPECT_FALSE(a64_decode_cache_op(0xB9400425)); // ldr w5, [x1, #4]
}

// The P0 elements of instruction trace (a64_p0_of), with the direct branches' targets from the
// encodings' offsets (C6.2: imm26, imm19, imm14, times 4, from the instruction's address): B and
// BL (unconditional), B.cond, BC.cond, CBZ, TBNZ (conditional); B.AL is not conditional; BR,
// BLR, BRAA, BLRAA, RET, RETAA, ERET, ERETAA; ISB (any option), WFI, WFE, WFIT, WFET. Not P0
// elements: SVC, BRK, DSB, DMB, NOP.
TEST(A64Decode, P0Elements)
{
    const uint64_t pc = 0x4008'1000;
    auto p0 = [&](uint32_t insn) { return a64_p0_of(insn, pc); };
    EXPECT_EQ(p0(0x14000002).kind, a64_p0_kind::direct); // b .+8
    EXPECT_FALSE(p0(0x14000002).conditional);
    EXPECT_EQ(p0(0x14000002).target, pc + 8);
    EXPECT_EQ(p0(0x17FFFFFF).target, pc - 4);                 // b .-4
    EXPECT_EQ(p0(0x94000010).kind, a64_p0_kind::direct_link); // bl .+64
    EXPECT_EQ(p0(0x94000010).target, pc + 64);
    EXPECT_EQ(p0(0x54000041).kind, a64_p0_kind::direct); // b.ne .+8
    EXPECT_TRUE(p0(0x54000041).conditional);
    EXPECT_EQ(p0(0x54000041).target, pc + 8);
    EXPECT_TRUE(p0(0x54000051).conditional);  // bc.ne .+8
    EXPECT_FALSE(p0(0x5400004E).conditional); // b.al .+8
    EXPECT_EQ(p0(0xB4FFFFE1).target, pc - 4); // cbz x1, .-4
    EXPECT_TRUE(p0(0xB4FFFFE1).conditional);
    EXPECT_EQ(p0(0x37180081).target, pc + 16); // tbnz w1, #3, .+16
    EXPECT_TRUE(p0(0x37180081).conditional);
    EXPECT_EQ(p0(0xD61F0020).kind, a64_p0_kind::indirect);      // br x1
    EXPECT_EQ(p0(0xD63F0040).kind, a64_p0_kind::indirect_link); // blr x2
    EXPECT_EQ(p0(0xD71F0820).kind, a64_p0_kind::indirect);      // braa x1, x0
    EXPECT_EQ(p0(0xD73F0820).kind, a64_p0_kind::indirect_link); // blraa x1, x0
    EXPECT_EQ(p0(0xD65F03C0).kind, a64_p0_kind::ret);           // ret
    EXPECT_EQ(p0(0xD65F0BFF).kind, a64_p0_kind::ret);           // retaa
    EXPECT_EQ(p0(0xD69F03E0).kind, a64_p0_kind::eret);          // eret
    EXPECT_EQ(p0(0xD69F0BFF).kind, a64_p0_kind::eret);          // eretaa
    EXPECT_EQ(p0(0xD5033FDF).kind, a64_p0_kind::isb);           // isb
    EXPECT_EQ(p0(0xD50330DF).kind, a64_p0_kind::isb);           // isb #0
    EXPECT_EQ(p0(0xD503207F).kind, a64_p0_kind::wfx);           // wfi
    EXPECT_EQ(p0(0xD503205F).kind, a64_p0_kind::wfx);           // wfe
    EXPECT_EQ(p0(0xD5031023).kind, a64_p0_kind::wfx);           // wfit x3
    EXPECT_EQ(p0(0xD5031003).kind, a64_p0_kind::wfx);           // wfet x3
    for (uint32_t other : {0xD4000001u /* svc */, 0xD4200000u /* brk */, 0xD5033F9Fu /* dsb */,
                           0xD5033FBFu /* dmb */, 0xD503201Fu /* nop */})
        EXPECT_EQ(p0(other).kind, a64_p0_kind::none) << std::hex << other;
}

// a64_branch_taken: ConditionHolds (J1.3) on NZCV for B.cond (EQ with Z, NE, GE with N == V, GT,
// AL), CBZ/CBNZ on Wt (the low 32 bits) or Xt, TBZ/TBNZ on the bit b5:b40.
TEST(A64Decode, ConditionalBranchTaken)
{
    const uint64_t z = 1u << 30, n = 1u << 31, v = 1u << 28;
    EXPECT_TRUE(a64_branch_taken(0x54000040, z, 0));              // b.eq, Z
    EXPECT_FALSE(a64_branch_taken(0x54000040, 0, 0));             // b.eq, not Z
    EXPECT_TRUE(a64_branch_taken(0x54000041, 0, 0));              // b.ne, not Z
    EXPECT_TRUE(a64_branch_taken(0x5400004A, n | v, 0));          // b.ge, N == V
    EXPECT_FALSE(a64_branch_taken(0x5400004A, n, 0));             // b.ge, N != V
    EXPECT_FALSE(a64_branch_taken(0x5400004C, z, 0));             // b.gt, Z
    EXPECT_TRUE(a64_branch_taken(0x5400004E, n | z, 0));          // b.al
    EXPECT_TRUE(a64_branch_taken(0x34000041, 0, 0x1'0000'0000));  // cbz w1: Wt is 0
    EXPECT_FALSE(a64_branch_taken(0xB4000041, 0, 0x1'0000'0000)); // cbz x1
    EXPECT_TRUE(a64_branch_taken(0xB5000041, 0, 5));              // cbnz x1
    EXPECT_TRUE(a64_branch_taken(0x37180041, 0, 8));              // tbnz w1, #3: bit 3 set
    EXPECT_FALSE(a64_branch_taken(0x36180041, 0, 8));             // tbz w1, #3
    EXPECT_TRUE(a64_branch_taken(0xB6F80041, 0, 0));              // tbz x1, #63: bit 63 clear
}
