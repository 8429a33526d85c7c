// Stage 1 translation of AArch64 (platform/cpu/a64_stage1.h) against the Arm ARM's pseudocode
// (DDI0487 M.a.a, J1.1: AArch64.S1Translate, AArch64.S1Walk, AArch64.S1ComputePermissions and the
// functions they call; J1.3: EncodeLDFSC). Translation tables are built by hand, descriptor by
// descriptor, in a "physical memory" (a map of 8-byte words) read through the a64_phys_read
// callback; each expected PA or fault is worked out from the pseudocode named above its group, not
// from running the code under test.
#include <gtest/gtest.h>
#include <pmtrace/platform/cpu/a64_stage1.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <tuple>
#include <vector>

namespace pmtrace::platform
{
// For GoogleTest's messages.
void PrintTo(a64_fault_kind kind, std::ostream *os)
{
    static const char *const names[] = {"none",        "address_size", "translation",
                                        "access_flag", "permission",   "external_on_walk",
                                        "alignment"};
    *os << names[static_cast<int>(kind)];
}
} // namespace pmtrace::platform

namespace
{

using namespace pmtrace::platform;

// VMSAv8-64 descriptor fields (64-bit descriptors, no FEAT_LPA2/D128).
constexpr uint64_t attr_index(unsigned i)
{
    return uint64_t{i} << 2; // AttrIndx, bits [4:2]
}
constexpr uint64_t ap(unsigned ap21)
{
    return uint64_t{ap21} << 6; // AP[2:1], bits [7:6]
}
constexpr uint64_t af = uint64_t{1} << 10;              // AF
constexpr uint64_t pxn = uint64_t{1} << 53;             // PXN
constexpr uint64_t uxn = uint64_t{1} << 54;             // UXN (XN in the EL2 regime)
constexpr uint64_t pxn_table = uint64_t{1} << 59;       // PXNTable
constexpr uint64_t uxn_table = uint64_t{1} << 60;       // UXNTable (XNTable in the EL2 regime)
constexpr uint64_t ap_table_no_el0 = uint64_t{1} << 61; // APTable[0]
constexpr uint64_t ap_table_ro = uint64_t{1} << 62;     // APTable[1]

// Table descriptor: bits[1:0] = 0b11, next-level table address.
uint64_t table_desc(uint64_t next, uint64_t attrs = 0)
{
    return next | attrs | 3;
}
// Block descriptor: bits[1:0] = 0b01; AF set unless the test clears it.
uint64_t block_desc(uint64_t oa, uint64_t attrs = 0)
{
    return oa | attrs | af | 1;
}
// Page descriptor (level 3): bits[1:0] = 0b11.
uint64_t page_desc(uint64_t oa, uint64_t attrs = 0)
{
    return oa | attrs | af | 3;
}

// TCR_EL1 (and TCR_EL2 with E2H 1).
namespace tcr
{
constexpr uint64_t t0sz(unsigned n)
{
    return n;
}
constexpr uint64_t t1sz(unsigned n)
{
    return uint64_t{n} << 16;
}
constexpr uint64_t ips(unsigned v)
{
    return uint64_t{v} << 32;
}
constexpr uint64_t epd0 = uint64_t{1} << 7;
constexpr uint64_t tg0_4k = uint64_t{0} << 14;
constexpr uint64_t tg0_64k = uint64_t{1} << 14;
constexpr uint64_t tg0_16k = uint64_t{2} << 14;
constexpr uint64_t epd1 = uint64_t{1} << 23;
constexpr uint64_t tg1_16k = uint64_t{1} << 30;
constexpr uint64_t tg1_4k = uint64_t{2} << 30;
constexpr uint64_t tg1_64k = uint64_t{3} << 30;
constexpr uint64_t tbi0 = uint64_t{1} << 37;
constexpr uint64_t tbi1 = uint64_t{1} << 38;
constexpr uint64_t ha = uint64_t{1} << 39;
constexpr uint64_t tbid0 = uint64_t{1} << 51;
constexpr uint64_t tbid1 = uint64_t{1} << 52;
constexpr uint64_t e0pd0 = uint64_t{1} << 55;
constexpr uint64_t e0pd1 = uint64_t{1} << 56;
} // namespace tcr

// TCR_EL2 with E2H 0.
namespace tcr_el2
{
constexpr uint64_t ps(unsigned v)
{
    return uint64_t{v} << 16;
}
constexpr uint64_t tbi = uint64_t{1} << 20;
} // namespace tcr_el2

constexpr uint64_t sctlr_m = 1;
constexpr uint64_t sctlr_wxn = uint64_t{1} << 19;

// MAIR: Attr0 Normal WB (0xFF), Attr1 Device-nGnRnE (0x00), Attr2 Device-nGnRE (0x04), Attr3
// Normal Non-cacheable (0x44).
constexpr uint64_t mair = 0x44'04'00'FF;
constexpr unsigned normal = 0, device_ngnrne = 1, device_ngnre = 2, normal_nc = 3;

// Physical memory of 8-byte words; an absent word reads as 0 (an invalid descriptor), a word in
// `aborts` fails (an External abort).
struct phys_memory {
    std::map<uint64_t, uint64_t> words;
    std::set<uint64_t> aborts;
    std::vector<uint64_t> reads;

    void set(uint64_t pa, uint64_t value) { words[pa] = value; }
    a64_phys_read reader()
    {
        return [this](uint64_t pa, uint64_t &value) {
            reads.push_back(pa);
            if (aborts.count(pa))
                return false;
            const auto it = words.find(pa);
            value = it == words.end() ? 0 : it->second;
            return true;
        };
    }
};

a64_access data_read(uint64_t va, unsigned size = 8)
{
    a64_access a;
    a.va = va;
    a.size = size;
    return a;
}
a64_access data_write(uint64_t va, unsigned size = 8)
{
    a64_access a = data_read(va, size);
    a.write = true;
    return a;
}
a64_access fetch(uint64_t va)
{
    a64_access a = data_read(va, 4);
    a.fetch = true;
    return a;
}
a64_access at_el0(a64_access a)
{
    a.unprivileged = true;
    return a;
}
a64_access with_pan(a64_access a)
{
    a.pan = true;
    return a;
}

// 4 KiB granule: level 1 indexes VA[38:30], level 2 VA[29:21], level 3 VA[20:12] (and level 0
// VA[47:39]).
constexpr uint64_t va_4k(uint64_t l1, uint64_t l2, uint64_t l3, uint64_t offset)
{
    return (l1 << 30) | (l2 << 21) | (l3 << 12) | offset;
}

constexpr uint64_t fsc_translation(int level)
{
    return 0x04 + static_cast<uint64_t>(level);
}

// The EL1&0 regime with a 4 KiB granule in both halves, T0SZ = T1SZ = 25 (39-bit ranges, start
// level 3 - ((39 - 1 - 12) DIV 9) = 1) and IPS 48 bits. The tables of the lower range: level 1
// at 0x10000 (TTBR0_EL1), L1[5] -> level 2 at 0x11000, L2[7] -> level 3 at 0x12000, L3[9] -> the
// page; of the upper range: level 1 at 0x30000 (TTBR1_EL1).
class Stage1 : public ::testing::Test
{
  protected:
    static constexpr uint64_t l1 = 0x10000, l2 = 0x11000, l3 = 0x12000, upper_l1 = 0x30000;
    static constexpr uint64_t page_pa = 0x9'8765'4000;
    static constexpr uint64_t va = va_4k(5, 7, 9, 0xABC);
    static constexpr uint64_t pa = 0x9'8765'4ABC;
    static constexpr uint64_t l1_entry = l1 + 5 * 8, l2_entry = l2 + 7 * 8, l3_entry = l3 + 9 * 8;

    phys_memory mem;
    a64_stage1_regime r;

    Stage1()
    {
        r.two_ranges = true;
        r.sctlr = sctlr_m;
        r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
        r.ttbr0 = l1;
        r.ttbr1 = upper_l1;
        r.mair = mair;
        r.pa_bits = 48;
    }

    // L1[5] and L2[7] as table descriptors carrying `l1_attrs` and `l2_attrs`.
    void tables(uint64_t l1_attrs = 0, uint64_t l2_attrs = 0)
    {
        mem.set(l1_entry, table_desc(l2, l1_attrs));
        mem.set(l2_entry, table_desc(l3, l2_attrs));
    }
    // The whole walk to the page at page_pa, whose descriptor carries `attrs`.
    void map_page(uint64_t attrs = 0, uint64_t l1_attrs = 0, uint64_t l2_attrs = 0)
    {
        tables(l1_attrs, l2_attrs);
        mem.set(l3_entry, page_desc(page_pa, attrs));
    }

    a64_translation translate(const a64_access &a)
    {
        return a64_stage1_translate(r, a, mem.reader());
    }
};

void expect_pa(const a64_translation &t, uint64_t pa)
{
    EXPECT_EQ(t.fault.kind, a64_fault_kind::none) << "fsc 0x" << std::hex << t.fault.fsc();
    EXPECT_EQ(t.pa, pa) << std::hex << "pa 0x" << t.pa << ", expected 0x" << pa;
}

void expect_fault(const a64_translation &t, a64_fault_kind kind, int level, uint32_t fsc)
{
    EXPECT_EQ(t.fault.kind, kind);
    EXPECT_EQ(t.fault.level, level);
    EXPECT_EQ(t.fault.fsc(), fsc) << std::hex << "fsc 0x" << t.fault.fsc();
}

// ---------------------------------------------------------------------------------------------
// 4 KiB granule. AArch64.S1StartLevel (3 - ((iasize - 1 - 12) DIV 9)), AArch64.S1SLTTEntryAddress
// and AArch64.S1TTEntryAddress (the index is VA[lsb + 8:lsb], lsb = 12 + 9 * (3 - level)),
// AArch64.S1LeafBase (OA = descriptor[47:leafsize] : VA[leafsize - 1:0]),
// AArch64.DecodeDescriptorType and AArch64.BlockDescSupported (4 KiB: blocks at levels 1 and 2;
// at level 0 only with DS or D128), AArch64.S1Walk (DescriptorType_Invalid: Fault_Translation at
// the level of the descriptor).
// ---------------------------------------------------------------------------------------------
using Stage1Granule4K = Stage1;

TEST_F(Stage1Granule4K, T0sz25OneGiBBlockAtLevel1)
{
    mem.set(l1_entry, block_desc(0x40'C000'0000));
    expect_pa(translate(data_read(va_4k(5, 0, 0, 0) | 0x1234'5678)), 0x40'D234'5678);
}

TEST_F(Stage1Granule4K, T0sz25TwoMiBBlockAtLevel2)
{
    mem.set(l1_entry, table_desc(l2));
    mem.set(l2_entry, block_desc(0x8'0040'0000));
    expect_pa(translate(data_read(va_4k(5, 7, 0, 0) | 0x1F'ABCD)), 0x8'005F'ABCD);
}

TEST_F(Stage1Granule4K, T0sz25PageAtLevel3)
{
    map_page();
    const a64_translation t = translate(data_read(va));
    expect_pa(t, pa);
    EXPECT_FALSE(t.device);
}

TEST_F(Stage1Granule4K, T0sz25WalkStartsAtLevel1)
{
    map_page();
    translate(data_read(va));
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>{l1_entry, l2_entry, l3_entry}));
}

// T0SZ 16: 48-bit input, start level 3 - (47 - 12) DIV 9 = 0, level 0 indexes VA[47:39].
class Stage1Granule4KT0sz16 : public Stage1
{
  protected:
    static constexpr uint64_t t0 = 0x20000, t1 = 0x21000, t2 = 0x22000, t3 = 0x23000;
    static constexpr uint64_t va48 = (uint64_t{0x1A3} << 39) | va_4k(5, 7, 9, 0xABC);
    static constexpr uint64_t entries[4] = {t0 + 0x1A3 * 8, t1 + 5 * 8, t2 + 7 * 8, t3 + 9 * 8};

    Stage1Granule4KT0sz16()
    {
        r.tcr = tcr::t0sz(16) | tcr::tg0_4k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
        r.ttbr0 = t0;
    }
    // The walk down to (and not including) `level`'s descriptor.
    void tables_above(int level)
    {
        const uint64_t next[3] = {t1, t2, t3};
        for (int l = 0; l < level && l < 3; l++)
            mem.set(entries[l], table_desc(next[l]));
    }
};

TEST_F(Stage1Granule4KT0sz16, PageWalkFromLevel0)
{
    tables_above(3);
    mem.set(entries[3], page_desc(page_pa));
    expect_pa(translate(data_read(va48)), pa);
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>(std::begin(entries), std::end(entries))));
}

TEST_F(Stage1Granule4KT0sz16, OneGiBBlockAtLevel1)
{
    tables_above(1);
    mem.set(entries[1], block_desc(0x40'C000'0000));
    expect_pa(translate(data_read((uint64_t{0x1A3} << 39) | va_4k(5, 0, 0, 0) | 0x1234'5678)),
              0x40'D234'5678);
}

TEST_F(Stage1Granule4KT0sz16, BlockAtLevel0IsATranslationFault)
{
    mem.set(entries[0], block_desc(0x80'0000'0000)); // 512 GiB aligned: not a valid block size
    expect_fault(translate(data_read(va48)), a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1Granule4KT0sz16, Level3DescriptorWithBits01IsATranslationFault)
{
    tables_above(3);
    mem.set(entries[3], page_desc(page_pa) & ~uint64_t{2}); // bits[1:0] = 0b01: reserved
    expect_fault(translate(data_read(va48)), a64_fault_kind::translation, 3, 0x07);
}

TEST_F(Stage1Granule4KT0sz16, DescriptorWithBit0ClearIsInvalidWhateverElseIsSet)
{
    tables_above(2);
    mem.set(entries[2], table_desc(t3) & ~uint64_t{1});
    expect_fault(translate(data_read(va48)), a64_fault_kind::translation, 2, 0x06);
}

// An invalid (all zero) descriptor at each level: Fault_Translation at that level.
class Stage1InvalidAtLevel : public Stage1Granule4KT0sz16, public ::testing::WithParamInterface<int>
{
};

TEST_P(Stage1InvalidAtLevel, TranslationFaultAtThatLevel)
{
    const int level = GetParam();
    tables_above(level);
    expect_fault(translate(data_read(va48)), a64_fault_kind::translation, level,
                 static_cast<uint32_t>(fsc_translation(level)));
}

INSTANTIATE_TEST_SUITE_P(Level, Stage1InvalidAtLevel, ::testing::Values(0, 1, 2, 3));

// ---------------------------------------------------------------------------------------------
// A descriptor fetch that fails. AArch64.S1Walk: FetchDescriptor's fault is returned with
// fault.level = walkstate.level; EncodeLDFSC(Fault_SyncExternalOnWalk, level) = '0101':level.
// ---------------------------------------------------------------------------------------------
class Stage1WalkAbortAtLevel : public Stage1Granule4KT0sz16,
                               public ::testing::WithParamInterface<int>
{
};

TEST_P(Stage1WalkAbortAtLevel, SynchronousExternalAbortOnWalkAtThatLevel)
{
    const int level = GetParam();
    tables_above(3);
    mem.set(entries[3], page_desc(page_pa));
    mem.aborts.insert(entries[level]);
    expect_fault(translate(data_read(va48)), a64_fault_kind::external_on_walk, level,
                 0x14 + static_cast<uint32_t>(level));
}

INSTANTIATE_TEST_SUITE_P(Level, Stage1WalkAbortAtLevel, ::testing::Values(0, 1, 2, 3));

// ---------------------------------------------------------------------------------------------
// 16 KiB granule (TG0 0b10): stride 11. T0SZ 16: start level 3 - (47 - 14) DIV 11 = 0, level 0
// indexes VA[47] (a 2-entry table), level 1 VA[46:36], level 2 VA[35:25], level 3 VA[24:14].
// AArch64.BlockDescSupported: blocks at level 2 only (32 MiB) without DS/D128.
// AArch64.S1DecodeTG0: '10' is TGx_16KB.
// ---------------------------------------------------------------------------------------------
class Stage1Granule16K : public Stage1
{
  protected:
    static constexpr uint64_t t0 = 0x40000, t1 = 0x44000, t2 = 0x48000, t3 = 0x4C000;
    static constexpr uint64_t va16 = (uint64_t{1} << 47) | (uint64_t{0x123} << 36) |
                                     (uint64_t{0x2AA} << 25) | (uint64_t{0x555} << 14) | 0x1ABC;
    static constexpr uint64_t e0 = t0 + 1 * 8, e1 = t1 + 0x123 * 8, e2 = t2 + 0x2AA * 8,
                              e3 = t3 + 0x555 * 8;
    static constexpr uint64_t page16 = 0x12'3456'8000, pa16 = 0x12'3456'9ABC;

    Stage1Granule16K()
    {
        r.tcr = tcr::t0sz(16) | tcr::tg0_16k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
        r.ttbr0 = t0;
    }
};

TEST_F(Stage1Granule16K, PageAtLevel3)
{
    mem.set(e0, table_desc(t1));
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page16));
    expect_pa(translate(data_read(va16)), pa16);
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>{e0, e1, e2, e3}));
}

TEST_F(Stage1Granule16K, ThirtyTwoMiBBlockAtLevel2)
{
    mem.set(e0, table_desc(t1));
    mem.set(e1, table_desc(t2));
    mem.set(e2, block_desc(0x2'0200'0000));
    // OA = descriptor[47:25] : VA[24:0], VA[24:0] = 0x555 << 14 | 0x1ABC = 0x155'5ABC.
    expect_pa(translate(data_read(va16)), 0x2'0355'5ABC);
}

TEST_F(Stage1Granule16K, BlockAtLevel1IsATranslationFault)
{
    mem.set(e0, table_desc(t1));
    mem.set(e1, block_desc(0x10'0000'0000));
    expect_fault(translate(data_read(va16)), a64_fault_kind::translation, 1, 0x05);
}

TEST_F(Stage1Granule16K, BlockAtLevel0IsATranslationFault)
{
    mem.set(e0, block_desc(0x8000'0000'0000));
    expect_fault(translate(data_read(va16)), a64_fault_kind::translation, 0, 0x04);
}

// T0SZ 17: start level 3 - (46 - 14) DIV 11 = 1, the first table indexes VA[46:36] (11 bits).
TEST_F(Stage1Granule16K, T0sz17StartsAtLevel1)
{
    r.tcr = tcr::t0sz(17) | tcr::tg0_16k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
    r.ttbr0 = t1;
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page16));
    expect_pa(translate(data_read(va16 & ~(uint64_t{1} << 47))), pa16);
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>{e1, e2, e3}));
}

// AArch64.S1TTBaseAddress without 52-bit addresses: tablebase<47:1> = TTBR<47:1>, aligned to the
// size of the first table (tsize = 1 index bit + 3 = 4: 16 bytes), not to 64 bytes. TTBR0 bits
// [47:4] are the address (TTBR0_EL1.BADDR: bits[(x-1):1] RES0, here x = 4).
TEST_F(Stage1Granule16K, TwoEntryLevel0TableAlignedTo16Bytes)
{
    r.ttbr0 = t0 + 0x10;
    mem.set(t0 + 0x10 + 8, table_desc(t1)); // entry 1 of the table at 0x40010
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page16));
    expect_pa(translate(data_read(va16)), pa16);
}

// ---------------------------------------------------------------------------------------------
// 64 KiB granule (TG0 0b01): stride 13. T0SZ 16: start level 3 - (47 - 16) DIV 13 = 1, level 1
// indexes VA[47:42] (64 entries), level 2 VA[41:29], level 3 VA[28:16]. Blocks at level 2 only
// (512 MiB) unless PAMax is 52 (AArch64.BlockDescSupported).
// ---------------------------------------------------------------------------------------------
class Stage1Granule64K : public Stage1
{
  protected:
    static constexpr uint64_t t1 = 0x100000, t2 = 0x110000, t3 = 0x120000;
    static constexpr uint64_t va64 =
        (uint64_t{0x2B} << 42) | (uint64_t{0x1234} << 29) | (uint64_t{0xABC} << 16) | 0xFEDC;
    static constexpr uint64_t e1 = t1 + 0x2B * 8, e2 = t2 + 0x1234 * 8, e3 = t3 + 0xABC * 8;
    static constexpr uint64_t page64 = 0x7'6543'0000, pa64 = 0x7'6543'FEDC;

    Stage1Granule64K()
    {
        r.tcr = tcr::t0sz(16) | tcr::tg0_64k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
        r.ttbr0 = t1;
    }
};

TEST_F(Stage1Granule64K, PageAtLevel3)
{
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page64));
    expect_pa(translate(data_read(va64)), pa64);
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>{e1, e2, e3}));
}

TEST_F(Stage1Granule64K, FiveHundredTwelveMiBBlockAtLevel2)
{
    mem.set(e1, table_desc(t2));
    mem.set(e2, block_desc(0x3'E000'0000));
    // OA = descriptor[47:29] : VA[28:0], VA[28:0] = 0xABC << 16 | 0xFEDC = 0xABC'FEDC.
    expect_pa(translate(data_read(va64)), 0x3'EABC'FEDC);
}

TEST_F(Stage1Granule64K, BlockAtLevel1IsATranslationFault)
{
    mem.set(e1, block_desc(0x40'0000'0000));
    expect_fault(translate(data_read(va64)), a64_fault_kind::translation, 1, 0x05);
}

// T0SZ 22: start level 3 - (41 - 16) DIV 13 = 2; the first table indexes VA[41:29].
TEST_F(Stage1Granule64K, T0sz22StartsAtLevel2)
{
    r.tcr = tcr::t0sz(22) | tcr::tg0_64k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
    r.ttbr0 = t2;
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page64));
    expect_pa(translate(data_read(va64 & ((uint64_t{1} << 42) - 1))), pa64);
    EXPECT_EQ(mem.reads, (std::vector<uint64_t>{e2, e3}));
}

// ---------------------------------------------------------------------------------------------
// TG1 (AArch64.S1DecodeTG1): '01' 16 KiB, '10' 4 KiB, '11' 64 KiB; the upper range (VA[55] = 1,
// AArch64.GetVARange) walks from TTBR1 with T1SZ and TG1, TG0 being something else.
// ---------------------------------------------------------------------------------------------
constexpr uint64_t upper_48 = 0xFFFF'0000'0000'0000; // VA[63:48] all ones: T1SZ 16

class Stage1Tg1Granule16K : public Stage1Granule16K
{
};

TEST_F(Stage1Tg1Granule16K, Tg1Encoding01Is16KiB)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::t1sz(16) | tcr::tg1_16k | tcr::ips(0b101);
    r.ttbr0 = 0;
    r.ttbr1 = t0;
    mem.set(e0, table_desc(t1));
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page16));
    expect_pa(translate(data_read(upper_48 | va16)), pa16);
}

class Stage1Tg1Granule64K : public Stage1Granule64K
{
};

TEST_F(Stage1Tg1Granule64K, Tg1Encoding11Is64KiB)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_16k | tcr::t1sz(16) | tcr::tg1_64k | tcr::ips(0b101);
    r.ttbr0 = 0;
    r.ttbr1 = t1;
    mem.set(e1, table_desc(t2));
    mem.set(e2, table_desc(t3));
    mem.set(e3, page_desc(page64));
    expect_pa(translate(data_read(upper_48 | va64)), pa64);
}

class Stage1Tg1Granule4K : public Stage1Granule4KT0sz16
{
};

// TG1 '10' is 4 KiB while TG0 '10' is 16 KiB.
TEST_F(Stage1Tg1Granule4K, Tg1Encoding10Is4KiB)
{
    r.tcr = tcr::t0sz(16) | tcr::tg0_16k | tcr::t1sz(16) | tcr::tg1_4k | tcr::ips(0b101);
    r.ttbr0 = 0;
    r.ttbr1 = t0;
    tables_above(3);
    mem.set(entries[3], page_desc(page_pa));
    expect_pa(translate(data_read(upper_48 | va48)), pa);
}

// ---------------------------------------------------------------------------------------------
// Ranges. AArch64.GetVARange (VA[55]), AArch64.VAIsOutOfRange (VA[addrtop:iasize] all 0 for the
// lower range, all 1 for the upper; AArch64.AddrTop: 55 with TBI, 63 without or for a fetch with
// TBID), AArch64.S1Translate (out of range: Fault_Translation level 0; accdesc.el == EL0 with E0PD:
// Fault_Translation level 0), AArch64.S1Walk (EPDx: Fault_Translation level 0).
// The lower range: L1[5] a 1 GiB block at 0x40'C000'0000 (EL0 read/write: AP 0b01); the upper:
// L1[5] a 1 GiB block at 0x41'0000'0000 (AP 0b01).
// ---------------------------------------------------------------------------------------------
class Stage1Ranges : public Stage1
{
  protected:
    static constexpr uint64_t upper_39 = 0xFFFF'FF80'0000'0000; // VA[63:39] all ones: T1SZ 25
    static constexpr uint64_t low_va = va_4k(5, 0, 0, 0) | 0x1234'5678;
    static constexpr uint64_t low_pa = 0x40'D234'5678, high_pa = 0x41'1234'5678;

    Stage1Ranges()
    {
        mem.set(l1_entry, block_desc(0x40'C000'0000, ap(0b01)));
        mem.set(upper_l1 + 5 * 8, block_desc(0x41'0000'0000, ap(0b01)));
    }
};

TEST_F(Stage1Ranges, Va55ClearUsesTtbr0)
{
    expect_pa(translate(data_read(low_va)), low_pa);
}

TEST_F(Stage1Ranges, Va55SetUsesTtbr1WithT1sz)
{
    expect_pa(translate(data_read(upper_39 | low_va)), high_pa);
}

TEST_F(Stage1Ranges, LowerVaAboveT0szRangeIsLevel0TranslationFault)
{
    expect_fault(translate(data_read(uint64_t{1} << 39 | low_va)), a64_fault_kind::translation, 0,
                 0x04);
}

TEST_F(Stage1Ranges, UpperVaWithAClearBitAboveT1szRangeIsLevel0TranslationFault)
{
    // VA[55] = 1 but VA[39] = 0.
    expect_fault(translate(data_read((upper_39 & ~(uint64_t{1} << 39)) | low_va)),
                 a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1Ranges, Va55SetTopByteClearWithoutTbi1IsLevel0TranslationFault)
{
    expect_fault(translate(data_read(0x00FF'FF80'0000'0000 | low_va)), a64_fault_kind::translation,
                 0, 0x04);
}

TEST_F(Stage1Ranges, Tbi1IgnoresTheTopByteOfAnUpperVa)
{
    r.tcr |= tcr::tbi1;
    expect_pa(translate(data_read(0x00FF'FF80'0000'0000 | low_va)), high_pa);
}

TEST_F(Stage1Ranges, TaggedLowerVaWithoutTbi0IsLevel0TranslationFault)
{
    expect_fault(translate(data_read(0x5A00'0000'0000'0000 | low_va)), a64_fault_kind::translation,
                 0, 0x04);
}

TEST_F(Stage1Ranges, Tbi0IgnoresTheTopByteOfALowerVa)
{
    r.tcr |= tcr::tbi0;
    expect_pa(translate(data_read(0x5A00'0000'0000'0000 | low_va)), low_pa);
}

TEST_F(Stage1Ranges, Tbi0DoesNotApplyToTheUpperRange)
{
    r.tcr |= tcr::tbi0;
    expect_fault(translate(data_read(0x00FF'FF80'0000'0000 | low_va)), a64_fault_kind::translation,
                 0, 0x04);
}

TEST_F(Stage1Ranges, Tbid0TaggedFetchIsLevel0TranslationFault)
{
    mem.set(l1_entry, block_desc(0x40'C000'0000)); // AP 0b00: executable at EL1
    r.tcr |= tcr::tbi0 | tcr::tbid0;
    expect_fault(translate(fetch(0x5A00'0000'0000'0000 | low_va)), a64_fault_kind::translation, 0,
                 0x04);
}

TEST_F(Stage1Ranges, Tbid0TaggedDataReadStillIgnoresTheTopByte)
{
    r.tcr |= tcr::tbi0 | tcr::tbid0;
    expect_pa(translate(data_read(0x5A00'0000'0000'0000 | low_va)), low_pa);
}

TEST_F(Stage1Ranges, Tbi0WithoutTbid0TaggedFetchIgnoresTheTopByte)
{
    mem.set(l1_entry, block_desc(0x40'C000'0000));
    r.tcr |= tcr::tbi0;
    expect_pa(translate(fetch(0x5A00'0000'0000'0000 | low_va)), low_pa);
}

TEST_F(Stage1Ranges, Tbid1TaggedUpperFetchIsLevel0TranslationFault)
{
    mem.set(upper_l1 + 5 * 8, block_desc(0x41'0000'0000));
    r.tcr |= tcr::tbi1 | tcr::tbid1;
    expect_fault(translate(fetch(0x00FF'FF80'0000'0000 | low_va)), a64_fault_kind::translation, 0,
                 0x04);
}

TEST_F(Stage1Ranges, Epd0IsLevel0TranslationFault)
{
    r.tcr |= tcr::epd0;
    expect_fault(translate(data_read(low_va)), a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1Ranges, Epd0LeavesTheUpperRange)
{
    r.tcr |= tcr::epd0;
    expect_pa(translate(data_read(upper_39 | low_va)), high_pa);
}

TEST_F(Stage1Ranges, Epd1IsLevel0TranslationFault)
{
    r.tcr |= tcr::epd1;
    expect_fault(translate(data_read(upper_39 | low_va)), a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1Ranges, E0pd0FaultsAnEl0Access)
{
    r.tcr |= tcr::e0pd0;
    expect_fault(translate(at_el0(data_read(low_va))), a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1Ranges, E0pd0LeavesAPrivilegedAccess)
{
    r.tcr |= tcr::e0pd0;
    expect_pa(translate(data_read(low_va)), low_pa);
}

TEST_F(Stage1Ranges, E0pd0LeavesAnEl0AccessToTheUpperRange)
{
    r.tcr |= tcr::e0pd0;
    expect_pa(translate(at_el0(data_read(upper_39 | low_va))), high_pa);
}

TEST_F(Stage1Ranges, E0pd1FaultsAnEl0AccessToTheUpperRange)
{
    r.tcr |= tcr::e0pd1;
    expect_fault(translate(at_el0(data_read(upper_39 | low_va))), a64_fault_kind::translation, 0,
                 0x04);
}

// AArch64.S1TTBaseAddress: tablebase<47:1> = TTBR<47:1>; TTBR bits [63:48] (ASID) and bit 0 (CnP)
// are not part of the address.
TEST_F(Stage1Ranges, TtbrAsidAndCnpAreNotPartOfTheTableAddress)
{
    r.ttbr0 = (uint64_t{0xABCD} << 48) | l1 | 1;
    expect_pa(translate(data_read(low_va)), low_pa);
}

// ---------------------------------------------------------------------------------------------
// Access flag and address size. AArch64.S1Walk, after the leaf: "elsif AArch64.S1OAOutOfRange(oa)
// then Fault_AddressSize; elsif descriptor<10> == '0' && walkparams.ha == '0' then
// Fault_AccessFlag" (both at the leaf's level, and returned before AArch64.S1Translate checks
// alignment or permissions); a table descriptor whose next-level address is out of range:
// Fault_AddressSize at the table descriptor's level; the TTBR address out of range:
// Fault_AddressSize, fault.level = 0. AArch64.PhysicalAddressSize: Min(IPS/PS size, 48, PAMax).
// ---------------------------------------------------------------------------------------------
using Stage1AccessFlag = Stage1;

TEST_F(Stage1AccessFlag, PageWithAfClearIsAccessFlagFaultAtLevel3)
{
    tables();
    mem.set(l3_entry, page_desc(page_pa) & ~af);
    expect_fault(translate(data_read(va)), a64_fault_kind::access_flag, 3, 0x0B);
}

TEST_F(Stage1AccessFlag, BlockWithAfClearIsAccessFlagFaultAtLevel2)
{
    mem.set(l1_entry, table_desc(l2));
    mem.set(l2_entry, block_desc(0x8'0040'0000) & ~af);
    expect_fault(translate(data_read(va_4k(5, 7, 0, 0))), a64_fault_kind::access_flag, 2, 0x0A);
}

TEST_F(Stage1AccessFlag, BlockWithAfClearIsAccessFlagFaultAtLevel1)
{
    mem.set(l1_entry, block_desc(0x40'C000'0000) & ~af);
    expect_fault(translate(data_read(va_4k(5, 0, 0, 0))), a64_fault_kind::access_flag, 1, 0x09);
}

TEST_F(Stage1AccessFlag, HardwareAccessFlagUpdateWithHaTranslates)
{
    r.tcr |= tcr::ha;
    tables();
    mem.set(l3_entry, page_desc(page_pa) & ~af);
    expect_pa(translate(data_read(va)), pa);
}

TEST_F(Stage1AccessFlag, HardwareAccessFlagUpdateStillChecksPermissions)
{
    r.tcr |= tcr::ha;
    tables();
    mem.set(l3_entry, page_desc(page_pa, ap(0b10)) & ~af); // read-only at EL1
    expect_fault(translate(data_write(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1AccessFlag, AccessFlagFaultWinsOverPermissionFault)
{
    tables();
    mem.set(l3_entry, page_desc(page_pa, ap(0b10)) & ~af); // read-only at EL1
    expect_fault(translate(data_write(va)), a64_fault_kind::access_flag, 3, 0x0B);
}

TEST_F(Stage1AccessFlag, AccessFlagFaultWinsOverDeviceAlignmentFault)
{
    tables();
    mem.set(l3_entry, page_desc(page_pa, attr_index(device_ngnrne)) & ~af);
    expect_fault(translate(data_read(va + 1, 4)), a64_fault_kind::access_flag, 3, 0x0B);
}

using Stage1AddressSize = Stage1;

TEST_F(Stage1AddressSize, OutputAddressAboveIpsIsAddressSizeFault)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b000); // 32 bits
    tables();
    mem.set(l3_entry, page_desc(0x1'0000'0000));
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 3, 0x03);
}

TEST_F(Stage1AddressSize, AddressSizeFaultWinsOverAccessFlagFault)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b000);
    tables();
    mem.set(l3_entry, page_desc(0x1'0000'0000) & ~af);
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 3, 0x03);
}

TEST_F(Stage1AddressSize, BlockOutputAddressAboveIpsIsAddressSizeFaultAtLevel1)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b001); // 36 bits
    mem.set(l1_entry, block_desc(0x10'0000'0000));
    expect_fault(translate(data_read(va_4k(5, 0, 0, 0))), a64_fault_kind::address_size, 1, 0x01);
}

TEST_F(Stage1AddressSize, OutputAddressJustBelowIpsTranslates)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b010); // 40 bits
    tables();
    mem.set(l3_entry, page_desc(0xFF'FFFF'F000));
    expect_pa(translate(data_read(va)), 0xFF'FFFF'FABC);
}

TEST_F(Stage1AddressSize, IpsIsCappedByPaRange)
{
    r.pa_bits = 40; // ID_AA64MMFR0_EL1.PARange: 40 bits, IPS says 48
    tables();
    mem.set(l3_entry, page_desc(0x100'0000'0000));
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 3, 0x03);
}

TEST_F(Stage1AddressSize, NextTableAboveIpsIsAddressSizeFaultAtTheTableDescriptorsLevel)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b000);
    mem.set(l1_entry, table_desc(0x1'0001'1000));
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 1, 0x01);
}

TEST_F(Stage1AddressSize, Level2NextTableAboveIpsIsAddressSizeFaultAtLevel2)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b000);
    mem.set(l1_entry, table_desc(l2));
    mem.set(l2_entry, table_desc(0x1'0001'2000));
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 2, 0x02);
}

TEST_F(Stage1AddressSize, TtbrAboveIpsIsAddressSizeFaultAtLevel0)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::ips(0b000);
    r.ttbr0 = 0x1'0001'0000; // start level is 1, the fault is reported at level 0
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 0, 0x00);
}

// ---------------------------------------------------------------------------------------------
// Permissions in the EL1&0 regime. AArch64.S1DirectBasePermissions (HasUnprivileged):
//   AP[2:1] '00' (pr,pw,ur,uw) = 1100, '01' 1111, '10' 1000, '11' 1010;
//   ap_table '01' (APTable[0]): ur = uw = 0; '10' (APTable[1]): pw = uw = 0;
//   px = NOT(pxn OR pxn_table OR uw); ux = NOT(uxn OR uxn_table);
//   pan = PSTATE.PAN AND (ur OR uw): pr = pw = 0;
//   (r,w,x) = EL0 ? (ur,uw,ux) : (pr,pw,px); wxn = WXN AND w AND x; x = x AND NOT wxn
//   (AArch64.S1ComputePermissions). AArch64.S1CheckPermissions: a fetch faults on x == 0, a read
//   on r == 0, a write on w == 0 (Fault_Permission at the leaf's level).
// ---------------------------------------------------------------------------------------------
struct ap_case {
    unsigned ap21;
    bool el0;
    bool write;
    bool allowed;
};

class Stage1ApPermissions : public Stage1, public ::testing::WithParamInterface<ap_case>
{
};

TEST_P(Stage1ApPermissions, DataAccess)
{
    const ap_case c = GetParam();
    map_page(ap(c.ap21) | pxn | uxn);
    a64_access a = c.write ? data_write(va) : data_read(va);
    a.unprivileged = c.el0;
    const a64_translation t = translate(a);
    if (c.allowed)
        expect_pa(t, pa);
    else
        expect_fault(t, a64_fault_kind::permission, 3, 0x0F);
}

INSTANTIATE_TEST_SUITE_P(
    Ap, Stage1ApPermissions,
    ::testing::Values(ap_case{0b00, false, false, true}, ap_case{0b00, false, true, true},
                      ap_case{0b00, true, false, false}, ap_case{0b00, true, true, false},
                      ap_case{0b01, false, false, true}, ap_case{0b01, false, true, true},
                      ap_case{0b01, true, false, true}, ap_case{0b01, true, true, true},
                      ap_case{0b10, false, false, true}, ap_case{0b10, false, true, false},
                      ap_case{0b10, true, false, false}, ap_case{0b10, true, true, false},
                      ap_case{0b11, false, false, true}, ap_case{0b11, false, true, false},
                      ap_case{0b11, true, false, true}, ap_case{0b11, true, true, false}),
    [](const ::testing::TestParamInfo<ap_case> &param) {
        const ap_case &c = param.param;
        return std::string("AP") + std::to_string(c.ap21 >> 1) + std::to_string(c.ap21 & 1) +
               (c.el0 ? "El0" : "El1") + (c.write ? "Write" : "Read");
    });

using Stage1Permissions = Stage1;

TEST_F(Stage1Permissions, UxnFaultsAnEl0Fetch)
{
    map_page(ap(0b11) | uxn);
    expect_fault(translate(at_el0(fetch(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, UxnLeavesAnEl1Fetch)
{
    map_page(ap(0b11) | uxn);
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1Permissions, PxnFaultsAnEl1Fetch)
{
    map_page(ap(0b11) | pxn);
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, PxnLeavesAnEl0Fetch)
{
    map_page(ap(0b11) | pxn);
    expect_pa(translate(at_el0(fetch(va))), pa);
}

TEST_F(Stage1Permissions, El0FetchNeedsNoReadPermissionOfItsOwn)
{
    // ux = NOT(uxn OR uxn_table): AP 0b00 leaves EL0 no data access but execute.
    map_page(ap(0b00));
    expect_pa(translate(at_el0(fetch(va))), pa);
}

TEST_F(Stage1Permissions, PageWritableAtEl0IsNotExecutableAtEl1)
{
    map_page(ap(0b01)); // uw = 1
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, PageReadOnlyAtEl0IsExecutableAtEl1)
{
    map_page(ap(0b11));
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1Permissions, WxnFaultsAnEl1FetchFromAnEl1WritablePage)
{
    r.sctlr |= sctlr_wxn;
    map_page(ap(0b00));
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, WxnLeavesAnEl1FetchFromAReadOnlyPage)
{
    r.sctlr |= sctlr_wxn;
    map_page(ap(0b10));
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1Permissions, WxnFaultsAnEl0FetchFromAnEl0WritablePage)
{
    r.sctlr |= sctlr_wxn;
    map_page(ap(0b01));
    expect_fault(translate(at_el0(fetch(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, WithoutWxnEl0FetchesFromAnEl0WritablePage)
{
    map_page(ap(0b01));
    expect_pa(translate(at_el0(fetch(va))), pa);
}

TEST_F(Stage1Permissions, WxnLeavesAnEl0FetchFromAPageWritableOnlyAtEl1)
{
    // AP 0b00: uw = 0 (and ur = 0), so wxn = WXN AND uw AND ux = 0 for an EL0 fetch.
    r.sctlr |= sctlr_wxn;
    map_page(ap(0b00));
    expect_pa(translate(at_el0(fetch(va))), pa);
}

TEST_F(Stage1Permissions, PanFaultsAPrivilegedReadOfAnEl0ReadablePage)
{
    map_page(ap(0b11));
    expect_fault(translate(with_pan(data_read(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, PanFaultsAPrivilegedWriteOfAnEl0WritablePage)
{
    map_page(ap(0b01));
    expect_fault(translate(with_pan(data_write(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, PanLeavesAPrivilegedReadOfAnEl1OnlyPage)
{
    map_page(ap(0b00));
    expect_pa(translate(with_pan(data_read(va))), pa);
}

TEST_F(Stage1Permissions, PanLeavesAPrivilegedFetch)
{
    map_page(ap(0b11)); // EL0-readable, px = 1
    expect_pa(translate(with_pan(fetch(va))), pa);
}

TEST_F(Stage1Permissions, PanLeavesAnUnprivilegedRead)
{
    map_page(ap(0b11));
    expect_pa(translate(with_pan(at_el0(data_read(va)))), pa);
}

TEST_F(Stage1Permissions, ApTable1MakesPagesBelowReadOnly)
{
    map_page(ap(0b00), ap_table_ro);
    expect_fault(translate(data_write(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, ApTable1LeavesReads)
{
    map_page(ap(0b00), ap_table_ro);
    expect_pa(translate(data_read(va)), pa);
}

TEST_F(Stage1Permissions, ApTable1MakesPagesBelowReadOnlyAtEl0)
{
    map_page(ap(0b01), 0, ap_table_ro);
    expect_fault(translate(at_el0(data_write(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, ApTable0RemovesEl0ReadBelow)
{
    map_page(ap(0b01), ap_table_no_el0);
    expect_fault(translate(at_el0(data_read(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, ApTable0LeavesEl1Write)
{
    map_page(ap(0b01), ap_table_no_el0);
    expect_pa(translate(data_write(va)), pa);
}

TEST_F(Stage1Permissions, ApTable0MakesAnEl0WritablePageExecutableAtEl1)
{
    // uw after the hierarchical permissions is 0, so px = NOT(pxn OR pxn_table OR uw) = 1.
    map_page(ap(0b01), 0, ap_table_no_el0);
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1Permissions, ApTable0LiftsPan)
{
    // ur = uw = 0 below APTable[0], so PAN has nothing to protect.
    map_page(ap(0b01), ap_table_no_el0);
    expect_pa(translate(with_pan(data_read(va))), pa);
}

TEST_F(Stage1Permissions, UxnTableFaultsAnEl0Fetch)
{
    map_page(ap(0b11), uxn_table);
    expect_fault(translate(at_el0(fetch(va))), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, UxnTableLeavesAnEl1Fetch)
{
    map_page(ap(0b11), uxn_table);
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1Permissions, PxnTableFaultsAnEl1Fetch)
{
    map_page(ap(0b11), 0, pxn_table);
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1Permissions, PxnTableLeavesAnEl0Fetch)
{
    map_page(ap(0b11), 0, pxn_table);
    expect_pa(translate(at_el0(fetch(va))), pa);
}

TEST_F(Stage1Permissions, PermissionFaultOnABlockIsReportedAtTheBlocksLevel)
{
    mem.set(l1_entry, table_desc(l2));
    mem.set(l2_entry, block_desc(0x8'0040'0000, ap(0b10)));
    expect_fault(translate(data_write(va_4k(5, 7, 0, 0))), a64_fault_kind::permission, 2, 0x0E);
}

// ---------------------------------------------------------------------------------------------
// The EL2 regime (HCR_EL2.E2H 0): one range (TTBR0_EL2), TCR_EL2's own layout (T0SZ [5:0],
// TG0 [15:14], PS [18:16], TBI [20]; AArch64.S1TTWParamsEL2). Not HasUnprivileged:
// AArch64.S1ApplyOutputPerms takes AP<2:1> = descriptor<7>:'1' and xn = descriptor<54>;
// AArch64.S1ApplyTablePerms ap_table = descriptor<62>:'0', xn_table = descriptor<60>;
// AArch64.S1DirectBasePermissions: (pr,pw) from AP[2] and APTable[1], px = NOT(xn OR xn_table),
// no PAN; AArch64.VAIsOutOfRange: VA[addrtop:iasize] all zero.
// ---------------------------------------------------------------------------------------------
class Stage1El2 : public Stage1
{
  protected:
    Stage1El2()
    {
        r.two_ranges = false;
        r.el2_tcr_layout = true;
        r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr_el2::ps(0b010); // 40 bits
        r.ttbr1 = 0;
        r.pa_bits = 48;
    }
};

TEST_F(Stage1El2, PageTranslates)
{
    map_page();
    expect_pa(translate(data_read(va)), pa);
}

TEST_F(Stage1El2, Ap1IsIgnoredForWrites)
{
    map_page(ap(0b01));
    expect_pa(translate(data_write(va)), pa);
}

TEST_F(Stage1El2, Ap1DoesNotMakeAWritablePageExecuteNever)
{
    // In EL1&0, AP 0b01 (EL0-writable) would make the page PXN.
    map_page(ap(0b01));
    expect_pa(translate(fetch(va)), pa);
}

TEST_F(Stage1El2, Ap2MakesThePageReadOnly)
{
    map_page(ap(0b10));
    expect_fault(translate(data_write(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1El2, Ap2ReadOnlyPageReads)
{
    map_page(ap(0b11));
    expect_pa(translate(data_read(va)), pa);
}

TEST_F(Stage1El2, XnBit54FaultsAFetch)
{
    map_page(uxn);
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1El2, XnTableFaultsAFetch)
{
    map_page(0, uxn_table);
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1El2, ApTable1MakesPagesBelowReadOnly)
{
    map_page(0, ap_table_ro);
    expect_fault(translate(data_write(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1El2, WxnFaultsAFetchFromAWritablePage)
{
    r.sctlr |= sctlr_wxn;
    map_page(ap(0b00));
    expect_fault(translate(fetch(va)), a64_fault_kind::permission, 3, 0x0F);
}

TEST_F(Stage1El2, PanDoesNotApply)
{
    map_page(ap(0b01));
    expect_pa(translate(with_pan(data_read(va))), pa);
}

TEST_F(Stage1El2, PsFieldBoundsTheOutputAddress)
{
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr_el2::ps(0b000); // 32 bits
    tables();
    mem.set(l3_entry, page_desc(0x1'0000'0000));
    expect_fault(translate(data_read(va)), a64_fault_kind::address_size, 3, 0x03);
}

TEST_F(Stage1El2, PsFieldAt18To16AllowsA40BitOutputAddress)
{
    // TCR_EL2.PS = 0b010 (40 bits), TCR_EL2[34:32] (IPS in TCR_EL1's layout) zero.
    tables();
    mem.set(l3_entry, page_desc(0xFF'FFFF'F000));
    expect_pa(translate(data_read(va)), 0xFF'FFFF'FABC);
}

TEST_F(Stage1El2, Va55SetIsOutOfTheSingleRange)
{
    mem.set(l1_entry, block_desc(0x40'C000'0000));
    expect_fault(translate(data_read(0xFFFF'FF80'0000'0000 | va_4k(5, 0, 0, 0))),
                 a64_fault_kind::translation, 0, 0x04);
}

TEST_F(Stage1El2, TbiIgnoresTheTopByte)
{
    r.tcr |= tcr_el2::tbi;
    map_page();
    expect_pa(translate(data_read(0xA500'0000'0000'0000 | va)), pa);
}

TEST_F(Stage1El2, TaggedVaWithoutTbiIsLevel0TranslationFault)
{
    map_page();
    expect_fault(translate(data_read(0xA500'0000'0000'0000 | va)), a64_fault_kind::translation, 0,
                 0x04);
}

// The EL2&0 regime (E2H 1): two ranges and TCR_EL1's layout (AArch64.S1TTWParamsEL20).
TEST_F(Stage1El2, El20RegimeUsesTtbr1ForTheUpperRange)
{
    r.two_ranges = true;
    r.el2_tcr_layout = false;
    r.tcr = tcr::t0sz(25) | tcr::tg0_4k | tcr::t1sz(25) | tcr::tg1_4k | tcr::ips(0b101);
    r.ttbr1 = upper_l1;
    mem.set(upper_l1 + 5 * 8, block_desc(0x41'0000'0000));
    expect_pa(translate(data_read(0xFFFF'FF80'0000'0000 | va_4k(5, 0, 0, 0) | 0x1234'5678)),
              0x41'1234'5678);
}

// ---------------------------------------------------------------------------------------------
// Memory type. AArch64.S1Translate: "if AArch64.S1HasAlignmentFaultDueToMemType(...) then
// fault.statuscode = Fault_Alignment" before the permission fault is taken (fault_perm only
// replaces Fault_None); AArch64.S1HasAlignmentFaultDueToMemType: Device and not aligned faults
// (a fetch is never Device-aligned-checked: memtype of a fetch is not the point, the data access
// is); S1DecodeMemAttrs: MAIR Attr<7:4> = '0000' is Device.
// ---------------------------------------------------------------------------------------------
using Stage1Device = Stage1;

TEST_F(Stage1Device, UnalignedReadOfDeviceNgnrneIsAlignmentFault)
{
    map_page(attr_index(device_ngnrne));
    expect_fault(translate(data_read(va + 2, 4)), a64_fault_kind::alignment, 3, 0x21);
}

TEST_F(Stage1Device, UnalignedWriteOfDeviceNgnreIsAlignmentFault)
{
    map_page(attr_index(device_ngnre));
    EXPECT_EQ(translate(data_write(va + 1, 2)).fault.fsc(), 0x21u);
}

TEST_F(Stage1Device, AlignedReadOfDeviceTranslatesAsDevice)
{
    map_page(attr_index(device_ngnrne));
    const a64_translation t = translate(data_read(va - 0xABC + 0x40, 8));
    expect_pa(t, page_pa + 0x40);
    EXPECT_TRUE(t.device);
}

TEST_F(Stage1Device, AlignmentFaultWinsOverPermissionFault)
{
    map_page(attr_index(device_ngnrne) | ap(0b10)); // read-only
    expect_fault(translate(data_write(va + 2, 4)), a64_fault_kind::alignment, 3, 0x21);
}

TEST_F(Stage1Device, UnalignedReadOfNormalMemoryTranslates)
{
    map_page(attr_index(normal));
    const a64_translation t = translate(data_read(va + 1, 8));
    expect_pa(t, pa + 1);
    EXPECT_FALSE(t.device);
}

TEST_F(Stage1Device, UnalignedReadOfNormalNonCacheableTranslates)
{
    map_page(attr_index(normal_nc));
    expect_pa(translate(data_read(va + 1, 4)), pa + 1);
}

TEST_F(Stage1Device, FetchFromDeviceIsNotAnAlignmentFault)
{
    // A fetch from Device memory may be a Permission fault (CONSTRAINED UNPREDICTABLE,
    // Unpredictable_INSTRDEVICE) but never an alignment fault.
    map_page(attr_index(device_ngnrne) | ap(0b10));
    EXPECT_NE(translate(fetch(va + 2)).fault.kind, a64_fault_kind::alignment);
}

// ---------------------------------------------------------------------------------------------
// Stage 1 disabled (SCTLR_ELx.M 0). AArch64.S1DisabledOutput: oa = va<55:0>; data accesses are
// Device-nGnRnE, fetches Normal; fault.level = 0, addrtop = AArch64.AddrTop(tbid, acctype, tbi):
// "if !IsZero(va<addrtop:pamax>) then Fault_AddressSize elsif
// AArch64.S1HasAlignmentFaultDueToMemType(...) then Fault_Alignment".
// ---------------------------------------------------------------------------------------------
class Stage1MmuOff : public Stage1
{
  protected:
    Stage1MmuOff()
    {
        r.sctlr = 0;
        r.pa_bits = 40;
    }
};

TEST_F(Stage1MmuOff, PaIsVaAndDataIsDevice)
{
    const a64_translation t = translate(data_read(0x4000'1238, 8));
    expect_pa(t, 0x4000'1238);
    EXPECT_TRUE(t.device);
    EXPECT_TRUE(mem.reads.empty());
}

TEST_F(Stage1MmuOff, UnalignedDataAccessIsAlignmentFault)
{
    expect_fault(translate(data_write(0x4000'1234, 8)), a64_fault_kind::alignment, 0, 0x21);
}

TEST_F(Stage1MmuOff, UnalignedFetchIsNormalMemory)
{
    const a64_translation t = translate(fetch(0x4000'1002));
    expect_pa(t, 0x4000'1002);
    EXPECT_FALSE(t.device);
}

TEST_F(Stage1MmuOff, VaAbovePaMaxIsAddressSizeFaultAtLevel0)
{
    expect_fault(translate(data_read(0x100'0000'0000)), a64_fault_kind::address_size, 0, 0x00);
}

TEST_F(Stage1MmuOff, AddressSizeFaultWinsOverAlignmentFault)
{
    expect_fault(translate(data_read(0x100'0000'0001, 4)), a64_fault_kind::address_size, 0, 0x00);
}

TEST_F(Stage1MmuOff, LastByteBelowPaMaxTranslates)
{
    expect_pa(translate(data_read(0xFF'FFFF'FFFF, 1)), 0xFF'FFFF'FFFF);
}

TEST_F(Stage1MmuOff, Tbi0IgnoresTheTopByte)
{
    r.tcr = tcr::tbi0;
    expect_pa(translate(data_read(0x5A00'0000'4000'1238)), 0x4000'1238);
}

TEST_F(Stage1MmuOff, TaggedVaWithoutTbiIsAddressSizeFault)
{
    expect_fault(translate(data_read(0x5A00'0000'4000'1238)), a64_fault_kind::address_size, 0,
                 0x00);
}

TEST_F(Stage1MmuOff, Tbid0TaggedFetchIsAddressSizeFault)
{
    r.tcr = tcr::tbi0 | tcr::tbid0;
    expect_fault(translate(fetch(0x5A00'0000'4000'1000)), a64_fault_kind::address_size, 0, 0x00);
}

// ---------------------------------------------------------------------------------------------
// EncodeLDFSC (J1.3): AddressSize '0000':level, Translation '0001':level, AccessFlag
// '0010':level, Permission '0011':level, SyncExternalOnWalk '0101':level, Alignment '100001'.
// ---------------------------------------------------------------------------------------------
using fsc_case = std::tuple<a64_fault_kind, uint32_t, int>; // kind, '....00', level

class Stage1Fsc : public ::testing::TestWithParam<fsc_case>
{
};

TEST_P(Stage1Fsc, EncodesKindAndLevel)
{
    const auto [kind, base, level] = GetParam();
    a64_fault f;
    f.kind = kind;
    f.level = level;
    EXPECT_EQ(f.fsc(), base | static_cast<uint32_t>(level));
}

INSTANTIATE_TEST_SUITE_P(AddressSize, Stage1Fsc,
                         ::testing::Combine(::testing::Values(a64_fault_kind::address_size),
                                            ::testing::Values(0b000000u), ::testing::Range(0, 4)));
INSTANTIATE_TEST_SUITE_P(Translation, Stage1Fsc,
                         ::testing::Combine(::testing::Values(a64_fault_kind::translation),
                                            ::testing::Values(0b000100u), ::testing::Range(0, 4)));
INSTANTIATE_TEST_SUITE_P(AccessFlag, Stage1Fsc,
                         ::testing::Combine(::testing::Values(a64_fault_kind::access_flag),
                                            ::testing::Values(0b001000u), ::testing::Range(0, 4)));
INSTANTIATE_TEST_SUITE_P(Permission, Stage1Fsc,
                         ::testing::Combine(::testing::Values(a64_fault_kind::permission),
                                            ::testing::Values(0b001100u), ::testing::Range(0, 4)));
INSTANTIATE_TEST_SUITE_P(ExternalOnWalk, Stage1Fsc,
                         ::testing::Combine(::testing::Values(a64_fault_kind::external_on_walk),
                                            ::testing::Values(0b010100u), ::testing::Range(0, 4)));

TEST(Stage1FscFixed, AlignmentIs100001AtAnyLevel)
{
    a64_fault f;
    f.kind = a64_fault_kind::alignment;
    f.level = 3;
    EXPECT_EQ(f.fsc(), 0b100001u);
}

TEST(Stage1FscFixed, NoneIsZero)
{
    EXPECT_EQ(a64_fault{}.fsc(), 0u);
}

} // namespace
