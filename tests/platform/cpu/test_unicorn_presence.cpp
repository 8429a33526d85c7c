// What Unicorn 2.0.1 does with an access through a virtual address when the MMU is on (issue 28,
// "evaluate this first"): before it translates, it only checks that *some* region of its own lies
// at the virtual address; the access then goes where the tables say. These tests pin the
// dependency's behaviour the engine's memory path relies on (docs/cpu.md, "The memory path"):
// every address covered by a region (RAM; devices and the holes between them as MMIO regions;
// regions over the upper virtual range, which no physical access reaches), every access of guest
// code goes where its tables map it, with no stop; an MMIO callback sees the registers before its
// instruction, and a stop asked for in it comes right after the access; a fetch through an MMIO
// region's address goes on when the UC_HOOK_MEM_FETCH_PROT hook says so.
//
// Unicorn directly, no platform: a few MSRs at EL1 turn on a 4 KiB-granule, 48-bit regime whose
// tables the test writes into RAM, then loads and stores through the virtual addresses below.
#include <gtest/gtest.h>
#include <unicorn/unicorn.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace
{

constexpr uint64_t ram_base = 0x4000'0000, ram_size = 0x100'0000;
constexpr uint64_t device_base = 0x0800'0000, device_size = 0x200'0000; // the GIC .. PL011 window
constexpr uint64_t pa_top = uint64_t{1} << 40;
constexpr uint64_t upper_base = 0xFFF0'0000'0000'0000;

struct bus_log {
    unsigned device_reads = 0, device_writes = 0, hole_accesses = 0;
    uint64_t last_device_offset = 0;
    bool stop_in_read = false; // uc_emu_stop() in the read callback
    uint64_t x9_in_read = 0;
};

uint64_t device_read(uc_engine *uc, uint64_t offset, unsigned, void *user)
{
    auto *log = static_cast<bus_log *>(user);
    log->device_reads++;
    log->last_device_offset = offset;
    uc_reg_read(uc, UC_ARM64_REG_X9, &log->x9_in_read);
    if (log->stop_in_read)
        uc_emu_stop(uc);
    return 0xD0D0;
}

void device_write(uc_engine *, uint64_t offset, unsigned, uint64_t, void *user)
{
    auto *log = static_cast<bus_log *>(user);
    log->device_writes++;
    log->last_device_offset = offset;
}

uint64_t hole_read(uc_engine *, uint64_t, unsigned, void *user)
{
    static_cast<bus_log *>(user)->hole_accesses++;
    return 0;
}

void hole_write(uc_engine *, uint64_t, unsigned, uint64_t, void *user)
{
    static_cast<bus_log *>(user)->hole_accesses++;
}

// Descriptors (4 KiB granule): a table, a 2 MiB block or a 4 KiB page with AF, AttrIndx 0
// (Normal) or 1 (Device), EL1 read/write.
uint64_t table(uint64_t pa)
{
    return pa | 3;
}
uint64_t block(uint64_t pa, unsigned attr = 0)
{
    return pa | 0x401 | (uint64_t{attr} << 2);
}
uint64_t page(uint64_t pa)
{
    return pa | 0x403;
}

class UnicornPresence : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        ASSERT_EQ(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_), UC_ERR_OK);
        ram_.reset(static_cast<uint8_t *>(std::aligned_alloc(4096, ram_size)));
        std::memset(ram_.get(), 0, ram_size);
        ASSERT_EQ(uc_mem_map_ptr(uc_, ram_base, ram_size, UC_PROT_ALL, ram_.get()), UC_ERR_OK);
        // EL1 and EL2 are AArch64 and Non-secure (SCR_EL3 RW, NS; HCR_EL2.RW): otherwise QEMU
        // translates EL1's accesses with the AArch32 formats.
        cp(3, 6, 1, 1, 0, 0x531);
        cp(3, 4, 1, 1, 0, uint64_t{1} << 31);
    }
    void TearDown() override
    {
        if (uc_)
            uc_close(uc_);
    }

    // Regions over every address: the devices, the holes around them and above RAM up to the
    // PA size, and the upper virtual range.
    void cover_every_address()
    {
        ASSERT_EQ(uc_mmio_map(uc_, 0, device_base, hole_read, &log_, hole_write, &log_), UC_ERR_OK);
        ASSERT_EQ(
            uc_mmio_map(uc_, device_base, device_size, device_read, &log_, device_write, &log_),
            UC_ERR_OK);
        const uint64_t after_devices = device_base + device_size;
        ASSERT_EQ(uc_mmio_map(uc_, after_devices, ram_base - after_devices, hole_read, &log_,
                              hole_write, &log_),
                  UC_ERR_OK);
        const uint64_t after_ram = ram_base + ram_size;
        ASSERT_EQ(
            uc_mmio_map(uc_, after_ram, pa_top - after_ram, hole_read, &log_, hole_write, &log_),
            UC_ERR_OK);
        ASSERT_EQ(uc_mmio_map(uc_, upper_base, (uint64_t{1} << 52) - 0x1000, hole_read, &log_,
                              hole_write, &log_),
                  UC_ERR_OK);
    }

    void cp(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2, uint64_t value)
    {
        uc_arm64_cp_reg r{crn, crm, op0, op1, op2, value};
        ASSERT_EQ(uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &r), UC_ERR_OK);
    }
    void put(uint64_t pa, uint64_t value) { std::memcpy(ram_.get() + (pa - ram_base), &value, 8); }
    uint64_t get(uint64_t pa) const
    {
        uint64_t v = 0;
        std::memcpy(&v, ram_.get() + (pa - ram_base), 8);
        return v;
    }
    uint64_t x(int n)
    {
        uint64_t v = 0;
        uc_reg_read(uc_, UC_ARM64_REG_X0 + n, &v);
        return v;
    }
    void set_x(int n, uint64_t v) { uc_reg_write(uc_, UC_ARM64_REG_X0 + n, &v); }

    // The tables: TTBR0 (L0 at 0x40100000) and TTBR1 (L0 at 0x40110000).
    //   VA 0x0040_0000 (a hole's PA)           -> RAM 0x4020_0000 (2 MiB block)
    //   VA 0x0800_0000 (the device window)     -> the devices, Device memory (2 MiB block)
    //   VA 0x0900_0000 (the PL011's PA)        -> RAM 0x4030_0000 (a page)
    //   VA 0x4000_0000 (RAM's first PA)        -> RAM 0x4040_0000 (2 MiB block)
    //   VA 0x4040_0000 .. 0x4080_0000          -> themselves (the code)
    //   VA 0xFFFF_0000_0000_0000 (TTBR1)       -> RAM 0x4000_0000 (1 GiB block)
    // then the MSRs at 0x40500000 that turn the MMU on, and a branch to the test at 0x40600000.
    void mmu_on_and_run(const std::vector<uint32_t> &test)
    {
        const uint64_t l0 = 0x4010'0000, l1 = 0x4010'1000, l2 = 0x4010'2000, l3 = 0x4010'3000;
        const uint64_t l2_ram = 0x4010'4000, t1_l0 = 0x4011'0000, t1_l1 = 0x4011'1000;
        put(l0, table(l1));
        put(l1 + 0 * 8, table(l2));
        put(l1 + 1 * 8, table(l2_ram));
        put(l2 + 2 * 8, block(0x4020'0000));
        put(l2 + 64 * 8, block(0x0800'0000, 1));
        put(l2 + 72 * 8, table(l3));
        put(l3, page(0x4030'0000));
        put(l2_ram + 0 * 8, block(0x4040'0000));
        put(l2_ram + 2 * 8, block(0x4040'0000));
        put(l2_ram + 3 * 8, block(0x4060'0000));
        put(t1_l0, table(t1_l1));
        put(t1_l1, block(0x4000'0000));
        // MAIR_EL1, TCR_EL1 (T0SZ = T1SZ = 16, TG1 4 KiB, IPS 40 bits), TTBR0/1, then SCTLR_EL1.M
        // (WXN clear) by the guest's own MSRs, each followed by an ISB.
        set_x(20, 0xFF);
        set_x(21, 16 | (16ull << 16) | (2ull << 30) | (2ull << 32));
        set_x(22, l0);
        set_x(23, t1_l0);
        uc_arm64_cp_reg r{1, 0, 3, 0, 0, 0};
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &r);
        set_x(24, (r.val | 1) & ~(uint64_t{1} << 19));
        const uint32_t prologue[] = {
            0xD518A214, // msr mair_el1, x20
            0xD5182055, // msr tcr_el1, x21
            0xD5182016, // msr ttbr0_el1, x22
            0xD5182037, // msr ttbr1_el1, x23
            0xD5033FDF, // isb
            0xD5181018, // msr sctlr_el1, x24
            0xD5033FDF, // isb
            0x1403FFF9, // b 0x40600000
        };
        std::memcpy(ram_.get() + 0x50'0000, prologue, sizeof prologue);
        std::memcpy(ram_.get() + 0x60'0000, test.data(), test.size() * 4);
        result_ = uc_emu_start(uc_, 0x4050'0000, 0x4060'0000 + 4 * test.size(), 0, 0);
    }

    uc_engine *uc_ = nullptr;
    struct free_deleter {
        void operator()(uint8_t *p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, free_deleter> ram_;
    bus_log log_;
    uc_err result_ = UC_ERR_OK;
};

const std::vector<uint32_t> loads_and_store = {
    0xF9400001, // ldr x1, [x0]
    0xF9400062, // ldr x2, [x3]
    0xF9400084, // ldr x4, [x4]
    0xF94000A5, // ldr x5, [x5]
    0xB94000C6, // ldr w6, [x6]
    0xF90000E7, // str x7, [x7]
};

// With a region over every address, each access goes where the tables map it: a low virtual
// address over a hole, one equal to the PL011's physical address, one equal to RAM's physical
// address mapped elsewhere, one in the upper range, a Device page, a store. No access stops.
TEST_F(UnicornPresence, EveryAccessGoesWhereTheTablesSayWhenEveryAddressHasARegion)
{
    cover_every_address();
    put(0x4020'0000, 0x1111);
    put(0x4030'0000, 0x3333);
    put(0x4040'0000, 0x4444);
    put(0x4000'0100, 0x5555);
    set_x(0, 0x40'0000);
    set_x(3, 0x900'0000);
    set_x(4, 0x4000'0000);
    set_x(5, 0xFFFF'0000'0000'0100);
    set_x(6, 0x800'0010);
    set_x(7, 0x40'0008);
    mmu_on_and_run(loads_and_store);
    EXPECT_EQ(result_, UC_ERR_OK);
    EXPECT_EQ(x(1), 0x1111u); // VA 0x0040_0000 -> RAM 0x4020_0000
    EXPECT_EQ(x(2), 0x3333u); // VA 0x0900_0000 -> RAM 0x4030_0000, not the PL011
    EXPECT_EQ(x(4), 0x4444u); // VA 0x4000_0000 -> RAM 0x4040_0000, not itself
    EXPECT_EQ(x(5), 0x5555u); // the upper range -> RAM 0x4000_0100
    EXPECT_EQ(x(6), 0xD0D0u); // a Device page -> the device's callback
    EXPECT_EQ(log_.device_reads, 1u);
    EXPECT_EQ(log_.last_device_offset, 0x10u); // offset in the device region
    EXPECT_EQ(get(0x4020'0008), 0x40'0008u);   // the store through VA 0x0040_0008
    EXPECT_EQ(log_.hole_accesses, 0u); // no region over a hole or the upper range is touched
}

// Without those regions the first access through a virtual address that has no region of its own
// fails (the defect the regions over every address answer).
TEST_F(UnicornPresence, AnAccessWithoutARegionAtItsVirtualAddressFails)
{
    put(0x4020'0000, 0x1111);
    set_x(0, 0x40'0000);
    mmu_on_and_run({0xF9400001}); // ldr x1, [x0]
    EXPECT_EQ(result_, UC_ERR_READ_UNMAPPED);
    EXPECT_EQ(x(1), 0u);
}

// In an MMIO callback the registers are those before the instruction (x9 counted to 2 by the two
// ADDs before the load), and a stop asked for there comes right after the access: the load has
// written its register, the ADDs after it have not run, and pc is the block's start (the engine
// puts back registers it saved in the callback when it stops there: a64_engine_unicorn.cpp).
TEST_F(UnicornPresence, AStopInsideAnMmioCallbackComesRightAfterTheAccess)
{
    cover_every_address();
    log_.stop_in_read = true;
    set_x(6, 0x800'0010);
    mmu_on_and_run({0xD2800029,   // mov x9, #1
                    0x91000529,   // add x9, x9, #1
                    0xB94000C6,   // ldr w6, [x6]: the device
                    0x91000529,   // add x9, x9, #1
                    0x91000529}); // add x9, x9, #1
    EXPECT_EQ(result_, UC_ERR_OK);
    EXPECT_EQ(log_.x9_in_read, 2u);
    EXPECT_EQ(x(9), 2u);
    EXPECT_EQ(x(6), 0xD0D0u);
    uint64_t pc = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
    EXPECT_EQ(pc, 0x4060'0000u);
}

bool allow_fetch(uc_engine *, uc_mem_type, uint64_t, int, int64_t, void *user)
{
    ++*static_cast<unsigned *>(user);
    return true;
}

// Code through an address whose region is an MMIO region (here the upper range) is refused
// (UC_ERR_FETCH_PROT) unless a UC_HOOK_MEM_FETCH_PROT hook answers true; it is asked once per
// instruction translated, and the code then runs from the RAM the tables name.
TEST_F(UnicornPresence, AFetchThroughAnMmioRegionsAddressGoesOnWhenTheHookSaysSo)
{
    cover_every_address();
    const uint32_t code[] = {0xD2800129, 0xD65F03C0}; // mov x9, #9; ret
    std::memcpy(ram_.get() + 0x70'0000, code, sizeof code);
    set_x(10, 0xFFFF'0000'0070'0000); // TTBR1: RAM 0x40700000
    set_x(30, 0x4060'0004);
    mmu_on_and_run({0xD63F0140}); // blr x10
    EXPECT_EQ(result_, UC_ERR_FETCH_PROT);
    EXPECT_EQ(x(9), 0u);

    unsigned asked = 0;
    uc_hook h;
    ASSERT_EQ(uc_hook_add(uc_, &h, UC_HOOK_MEM_FETCH_PROT, reinterpret_cast<void *>(allow_fetch),
                          &asked, 1, 0),
              UC_ERR_OK);
    uint64_t pc = 0x4060'0000;
    uc_reg_write(uc_, UC_ARM64_REG_PC, &pc);
    set_x(30, 0x4060'0004);
    result_ = uc_emu_start(uc_, 0x4060'0000, 0x4060'0004, 0, 0);
    EXPECT_EQ(result_, UC_ERR_OK);
    EXPECT_EQ(x(9), 9u);
    EXPECT_EQ(asked, 2u); // two instructions translated
}

} // namespace
