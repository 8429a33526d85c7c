// Loading images as QEMU's virt board does with -kernel: ELF executables (built here byte by byte
// from the ELF64 layout of the System V ABI, and one built by the AArch64 cross compiler, checked
// against what aarch64-linux-gnu-readelf shows of it), arm64 Linux Images (the header of
// Documentation/arch/arm64/booting.rst), raw binaries, every refusal, and where the device tree
// goes.
#include <gtest/gtest.h>
#include <pmtrace/platform/boot/boot_image.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef PMTRACE_BOOT_TEST_ELF
#define PMTRACE_BOOT_TEST_ELF ""
#endif
#ifndef PMTRACE_BOOT_TEST_PIE
#define PMTRACE_BOOT_TEST_PIE      ""
#define PMTRACE_BOOT_TEST_PIE_AT_0 ""
#endif

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

constexpr uint64_t ram_base = 0x4000'0000;
constexpr uint64_t ram_size = 0x100'0000; // 16 MiB: RAM is [0x4000_0000, 0x4100_0000)
constexpr uint64_t u64_max = std::numeric_limits<uint64_t>::max();

// RAM as an array that records the writes; it starts filled with 0xAA so zero-filling shows.
struct fake_ram {
    std::vector<uint8_t> cells = std::vector<uint8_t>(ram_size, 0xAA);
    unsigned writes = 0;

    ram_writer writer()
    {
        return [this](uint64_t pa, const uint8_t *data, size_t n) {
            if (pa < ram_base || n > ram_size || pa - ram_base > ram_size - n)
                return false;
            std::memcpy(&cells[pa - ram_base], data, n);
            writes++;
            return true;
        };
    }
    uint64_t read(uint64_t pa, unsigned n) const
    {
        uint64_t v = 0;
        for (unsigned i = 0; i < n; i++)
            v |= uint64_t{cells[pa - ram_base + i]} << (8 * i);
        return v;
    }
    uint32_t word(uint64_t pa) const { return static_cast<uint32_t>(read(pa, 4)); }
    uint64_t quad(uint64_t pa) const { return read(pa, 8); }
    uint8_t byte(uint64_t pa) const { return cells[pa - ram_base]; }
    bool all(uint64_t pa, uint64_t n, uint8_t value) const
    {
        for (uint64_t i = 0; i < n; i++)
            if (byte(pa + i) != value)
                return false;
        return true;
    }
};

void put(bytes &b, size_t at, uint64_t v, unsigned n)
{
    if (b.size() < at + n)
        b.resize(at + n, 0);
    for (unsigned i = 0; i < n; i++)
        b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// ELF64 field offsets (System V ABI, "ELF Header" and "Program Header").
constexpr size_t e_type = 16, e_machine = 18, e_version = 20, e_entry = 24, e_phoff = 32,
                 e_ehsize = 52, e_phentsize = 54, e_phnum = 56;
constexpr size_t p_type = 0, p_flags = 4, p_offset = 8, p_vaddr = 16, p_paddr = 24, p_filesz = 32,
                 p_memsz = 40, p_align = 48;
constexpr size_t ehdr_size = 64, phdr_size = 56;
constexpr uint32_t pt_load = 1, pt_note = 4, pf_x = 1, pf_w = 2, pf_r = 4;

struct segment {
    uint32_t type = pt_load;
    uint32_t flags = pf_r | pf_x;
    uint64_t vaddr = 0, paddr = 0, memsz = 0;
    bytes contents;
};

// An ELF64 little-endian AArch64 executable: the header, the program headers right after it,
// then each segment's contents in turn.
struct elf_file {
    uint8_t elf_class = 2;  // ELFCLASS64
    uint8_t data = 1;       // ELFDATA2LSB
    uint16_t type = 2;      // ET_EXEC
    uint16_t machine = 183; // EM_AARCH64
    uint64_t entry = 0;
    std::vector<segment> segments;

    static size_t phdr_at(size_t i) { return ehdr_size + i * phdr_size; }

    bytes build() const
    {
        bytes b = {0x7f, 'E', 'L', 'F', elf_class, data, 1 /* EV_CURRENT */};
        put(b, e_type, type, 2);
        put(b, e_machine, machine, 2);
        put(b, e_version, 1, 4);
        put(b, e_entry, entry, 8);
        put(b, e_phoff, ehdr_size, 8);
        put(b, e_ehsize, ehdr_size, 2);
        put(b, e_phentsize, phdr_size, 2);
        put(b, e_phnum, segments.size(), 2);
        size_t offset = phdr_at(segments.size());
        for (size_t i = 0; i < segments.size(); i++) {
            const segment &s = segments[i];
            const size_t h = phdr_at(i);
            put(b, h + p_type, s.type, 4);
            put(b, h + p_flags, s.flags, 4);
            put(b, h + p_offset, offset, 8);
            put(b, h + p_vaddr, s.vaddr, 8);
            put(b, h + p_paddr, s.paddr, 8);
            put(b, h + p_filesz, s.contents.size(), 8);
            put(b, h + p_memsz, s.memsz, 8);
            put(b, h + p_align, 0x1'0000, 8);
            b.resize(offset);
            b.insert(b.end(), s.contents.begin(), s.contents.end());
            offset += s.contents.size();
        }
        return b;
    }
};

// A text segment of three instructions at RAM base + 0x80000 (nop; wfi; b .-4) and a data
// segment of 8 bytes at 0x4009_0000 with 0x100 bytes of BSS; the entry is the wfi.
elf_file two_segment_elf()
{
    elf_file f;
    f.entry = 0x4008'0004;
    f.segments.push_back(
        {pt_load,
         pf_r | pf_x,
         0x4008'0000,
         0x4008'0000,
         12,
         {0x1f, 0x20, 0x03, 0xd5, 0x7f, 0x20, 0x03, 0xd5, 0xff, 0xff, 0xff, 0x17}});
    f.segments.push_back({pt_load,
                          pf_r | pf_w,
                          0x4009'0000,
                          0x4009'0000,
                          0x108,
                          {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}});
    return f;
}

struct load_result {
    std::optional<boot_image> image;
    std::string error;
};

load_result load(const bytes &file, fake_ram &ram, uint64_t base = ram_base,
                 uint64_t size = ram_size)
{
    load_result r;
    r.image = load_boot_image(file, base, size, ram.writer(), r.error);
    return r;
}

// A refusal: no image, nothing written, and a message that contains `words`.
void expect_refused(const bytes &file, const std::string &words)
{
    fake_ram ram;
    const load_result r = load(file, ram);
    EXPECT_FALSE(r.image.has_value());
    EXPECT_EQ(ram.writes, 0u);
    EXPECT_NE(r.error.find(words), std::string::npos) << "message: " << r.error;
}

// ---- ELF ----

TEST(BootImageElf, EachPtLoadSegmentGoesToItsPhysicalAddressAndItsBssIsZeroed)
{
    elf_file f = two_segment_elf();
    // A PT_NOTE program header between them is not loaded.
    f.segments.insert(f.segments.begin() + 1,
                      segment{pt_note, pf_r, 0, 0x4010'0000, 4, {1, 2, 3, 4}});
    fake_ram ram;
    const load_result r = load(f.build(), ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::elf);
    EXPECT_EQ(r.image->entry, 0x4008'0004u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4009'0108u);
    EXPECT_EQ(ram.word(0x4008'0000), 0xd503201fu); // NOP
    EXPECT_EQ(ram.word(0x4008'0004), 0xd503207fu); // WFI
    EXPECT_EQ(ram.word(0x4008'0008), 0x17ffffffu); // B, imm26 -1
    EXPECT_EQ(ram.quad(0x4009'0000), 0x1122334455667788u);
    EXPECT_TRUE(ram.all(0x4009'0008, 0x100, 0x00)); // p_memsz - p_filesz zeros
    EXPECT_EQ(ram.byte(0x4009'0108), 0xAA);         // nothing past p_memsz
    EXPECT_EQ(ram.byte(0x4010'0000), 0xAA);         // the PT_NOTE was not loaded
}

TEST(BootImageElf, EntryInAnExecutableSegmentLinkedElsewhereMovesToItsPhysicalAddress)
{
    // A kernel linked at a virtual address and loaded at a physical one (p_vaddr != p_paddr):
    // e_entry is virtual; the CPU starts at the same offset in the physical copy.
    elf_file f;
    f.entry = 0xffff'0000'1008'0008;
    f.segments.push_back(
        {pt_load, pf_r | pf_x, 0xffff'0000'1008'0000, 0x4020'0000, 16, bytes(16, 0x11)});
    fake_ram ram;
    const load_result r = load(f.build(), ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->entry, 0x4020'0008u);
    EXPECT_EQ(r.image->load_base, 0x4020'0000u);
    EXPECT_EQ(r.image->load_end, 0x4020'0010u);
}

TEST(BootImageElf, SegmentsOfNoSizeAreSkipped)
{
    elf_file f = two_segment_elf();
    f.segments.push_back({pt_load, pf_r, 0x1000, 0x1000, 0, {}}); // outside RAM, but empty
    fake_ram ram;
    const load_result r = load(f.build(), ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
}

TEST(BootImageElf, AnExecutableBuiltByTheCrossCompilerLoadsAsReadelfDescribesIt)
{
    // tests/platform/boot/tiny.S linked by tiny.ld. aarch64-linux-gnu-readelf -h -l says:
    //   Type: EXEC, Machine: AArch64, Entry point address: 0x40080004
    //   LOAD  Offset 0x10000  VirtAddr/PhysAddr 0x40080000  FileSiz 0xc  MemSiz 0xc   R E
    //   LOAD  Offset 0x20000  VirtAddr/PhysAddr 0x40090000  FileSiz 0xc  MemSiz 0x10c RW
    std::string error;
    const auto file = read_file(PMTRACE_BOOT_TEST_ELF, error);
    ASSERT_TRUE(file.has_value()) << error;
    fake_ram ram;
    const load_result r = load(*file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::elf);
    EXPECT_EQ(r.image->entry, 0x4008'0004u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4009'010cu);
    // The instructions of tiny.S, encoded by hand from the A64 encoding tables: NOP, WFI, and
    // B _start from 0x40080008 to 0x40080004 (imm26 = -1).
    EXPECT_EQ(ram.word(0x4008'0000), 0xd503201fu);
    EXPECT_EQ(ram.word(0x4008'0004), 0xd503207fu);
    EXPECT_EQ(ram.word(0x4008'0008), 0x17ffffffu);
    EXPECT_EQ(ram.quad(0x4009'0000), 0x1122334455667788u);
    EXPECT_EQ(ram.word(0x4009'0008), 0xcafef00du);
    EXPECT_TRUE(ram.all(0x4009'000c, 0x100, 0x00)); // .bss
    EXPECT_EQ(ram.byte(0x4009'010c), 0xAA);
    // Between the segments nothing is written.
    EXPECT_TRUE(ram.all(0x4008'000c, 0x1'0000 - 0xc, 0xAA));
}

// The ELF header and first program header fields of a file, little-endian.
uint64_t field(const bytes &b, size_t at, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= uint64_t{b.at(at + i)} << (8 * i);
    return v;
}

TEST(BootImageElf, AStaticPieBuiltByTheCrossCompilerLoadsAtItsPhysicalAddress)
{
    // tests/platform/boot/static_pie.c linked by aarch64-linux-gnu-gcc -static-pie with
    // static_pie.ld: ET_DYN, one PT_LOAD segment at p_vaddr 0 and p_paddr 0x40080000, entry 0
    // (its _start, the segment's first byte), no relocations.
    std::string error;
    const auto file = read_file(PMTRACE_BOOT_TEST_PIE, error);
    ASSERT_TRUE(file.has_value()) << error;
    ASSERT_EQ(field(*file, e_type, 2), 3u); // ET_DYN
    const uint64_t ph = field(*file, e_phoff, 8);
    ASSERT_EQ(field(*file, ph + p_type, 4), pt_load);
    ASSERT_EQ(field(*file, ph + p_vaddr, 8), 0u);
    ASSERT_EQ(field(*file, ph + p_paddr, 8), 0x4008'0000u);
    const uint64_t offset = field(*file, ph + p_offset, 8), filesz = field(*file, ph + p_filesz, 8),
                   memsz = field(*file, ph + p_memsz, 8);
    fake_ram ram;
    const load_result r = load(*file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::elf);
    // e_entry 0 lies in the executable segment linked at 0 and loaded at 0x40080000: the CPU
    // starts at its physical address.
    EXPECT_EQ(r.image->entry, 0x4008'0000u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4008'0000u + memsz);
    EXPECT_EQ(0, std::memcmp(&ram.cells[0x8'0000], file->data() + offset, filesz));
    EXPECT_TRUE(ram.all(0x4008'0000 + filesz, memsz - filesz, 0x00)); // its stack, zeroed
}

TEST(BootImageElf, AStaticPieLinkedAtZeroIsRefusedForItsAddress)
{
    // -static-pie's own default: linked (and so loaded, as QEMU loads it) at 0, where QEMU's virt
    // has its flash and this platform nothing.
    std::string error;
    const auto file = read_file(PMTRACE_BOOT_TEST_PIE_AT_0, error);
    ASSERT_TRUE(file.has_value()) << error;
    expect_refused(*file, "ELF: segment 0 at p_paddr 0x0 of p_memsz ");
    expect_refused(*file, "a position-independent image (ET_DYN) is loaded where it is linked");
}

TEST(BootImageElf, A32BitElfIsRefused)
{
    elf_file f = two_segment_elf();
    f.elf_class = 1; // ELFCLASS32
    expect_refused(f.build(), "EI_CLASS 1 (a 32-bit ELF)");
}

TEST(BootImageElf, AShort32BitElfIsRefusedAs32Bit)
{
    // An ELF32 header is 52 bytes: the class is read before the 64-bit header's size is needed.
    bytes file = two_segment_elf().build();
    file[4] = 1;
    file.resize(52);
    expect_refused(file, "EI_CLASS 1 (a 32-bit ELF)");
}

TEST(BootImageElf, ATruncatedIdentificationIsRefused)
{
    expect_refused({0x7f, 'E', 'L', 'F', 2}, "the file of 5 bytes is shorter than the ELF "
                                             "identification (16 bytes)");
}

TEST(BootImageElf, ABigEndianElfIsRefused)
{
    elf_file f = two_segment_elf();
    f.data = 2; // ELFDATA2MSB
    expect_refused(f.build(), "EI_DATA 2 (big-endian)");
}

TEST(BootImageElf, AnotherMachineIsRefused)
{
    elf_file f = two_segment_elf();
    f.machine = 62; // EM_X86_64
    expect_refused(f.build(), "e_machine 62 (x86-64) is not EM_AARCH64 (183): the image is for "
                              "another machine");
}

TEST(BootImageElf, AnX86PieIsRefusedForItsMachineNotItsType)
{
    // What a host's own executables are: position-independent (ET_DYN) x86-64.
    elf_file f = two_segment_elf();
    f.machine = 62; // EM_X86_64
    f.type = 3;     // ET_DYN
    expect_refused(f.build(), "e_machine 62 (x86-64) is not EM_AARCH64 (183)");
}

TEST(BootImageElf, APositionIndependentExecutableLoadsWhereItIsLinked)
{
    // ET_DYN (a static PIE) as QEMU's -kernel loads it for AArch64: hw/arm/boot.c gives load_elf
    // no address translation, so the segments go to their p_paddr unrelocated, as ET_EXEC's do.
    elf_file f = two_segment_elf();
    f.type = 3; // ET_DYN
    fake_ram ram;
    const load_result r = load(f.build(), ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->entry, 0x4008'0004u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4009'0108u);
    EXPECT_EQ(ram.word(0x4008'0004), 0xd503207fu); // wfi, where it is linked
}

TEST(BootImageElf, ARelocatableObjectOrACoreDumpIsRefused)
{
    elf_file f = two_segment_elf();
    f.type = 1; // ET_REL
    expect_refused(f.build(), "e_type 1 (ET_REL, a relocatable object: link it first) is neither "
                              "ET_EXEC (2) nor ET_DYN (3)");
    f.type = 4; // ET_CORE
    expect_refused(f.build(), "e_type 4 (ET_CORE, a core dump)");
}

TEST(BootImageElf, ATruncatedHeaderIsRefused)
{
    bytes file = two_segment_elf().build();
    file.resize(40);
    expect_refused(file, "the file of 40 bytes is shorter than an ELF64 header (64 bytes)");
}

TEST(BootImageElf, TruncatedProgramHeadersAreRefused)
{
    bytes file = two_segment_elf().build();
    file.resize(ehdr_size + phdr_size + 10); // the second program header is cut
    expect_refused(file, "the program header table at e_phoff 0x40 (2 entries of 56 bytes) runs "
                         "past the end of the file (130 bytes)");
}

TEST(BootImageElf, ATruncatedSegmentIsRefused)
{
    bytes file = two_segment_elf().build();
    file.pop_back(); // the data segment's last byte
    expect_refused(file, "segment 1 (p_offset 0xbc, p_filesz 0x8) runs past the end of the file");
}

TEST(BootImageElf, ASegmentOutsideRamIsRefused)
{
    elf_file f = two_segment_elf();
    f.segments[1].paddr = 0x0900'0000; // the UART
    expect_refused(f.build(), "segment 1 at p_paddr 0x9000000 of p_memsz 0x108 is not inside "
                              "RAM [0x40000000, 0x41000000)");
}

TEST(BootImageElf, ASegmentRunningPastTheEndOfRamIsRefused)
{
    elf_file f = two_segment_elf();
    f.segments[1].paddr = 0x40ff'ff00; // 0x108 bytes from there end at 0x4100_0008
    expect_refused(f.build(), "segment 1 at p_paddr 0x40ffff00 of p_memsz 0x108 is not inside");
}

TEST(BootImageElf, AHostilePOffsetDoesNotWrapAround)
{
    // p_offset + p_filesz wraps to 0x10, which would be inside the file of 0xc4 bytes.
    bytes file = two_segment_elf().build();
    put(file, elf_file::phdr_at(0) + p_offset, 0xffff'ffff'ffff'ff00, 8);
    put(file, elf_file::phdr_at(0) + p_filesz, 0x110, 8);
    put(file, elf_file::phdr_at(0) + p_memsz, 0x110, 8);
    expect_refused(file, "segment 0 (p_offset 0xffffffffffffff00, p_filesz 0x110) runs past the "
                         "end of the file (196 bytes)");
}

TEST(BootImageElf, AHostilePFileszDoesNotWrapAround)
{
    bytes file = two_segment_elf().build();
    put(file, elf_file::phdr_at(0) + p_filesz, u64_max, 8);
    put(file, elf_file::phdr_at(0) + p_memsz, u64_max, 8);
    expect_refused(file, "segment 0 (p_offset 0xb0, p_filesz 0xffffffffffffffff) runs past the "
                         "end of the file");
}

TEST(BootImageElf, AHostilePMemszDoesNotWrapAround)
{
    // p_paddr + p_memsz wraps to 0x3fff_ffff, below RAM.
    bytes file = two_segment_elf().build();
    put(file, elf_file::phdr_at(0) + p_memsz, u64_max, 8);
    expect_refused(file, "segment 0 at p_paddr 0x40080000 of p_memsz 0xffffffffffffffff is not "
                         "inside RAM");
}

TEST(BootImageElf, AHostileEPhoffDoesNotWrapAround)
{
    bytes file = two_segment_elf().build();
    put(file, e_phoff, u64_max - 0x10, 8);
    expect_refused(file, "the program header table at e_phoff 0xffffffffffffffef");
}

TEST(BootImageElf, PFileszLargerThanPMemszIsRefused)
{
    elf_file f = two_segment_elf();
    f.segments[0].memsz = 4;
    expect_refused(f.build(), "segment 0 has p_filesz 0xc larger than its p_memsz 0x4");
}

TEST(BootImageElf, NoPtLoadSegmentIsRefused)
{
    elf_file f;
    f.entry = 0x4008'0000;
    f.segments.push_back({pt_note, pf_r, 0, 0, 4, {1, 2, 3, 4}});
    expect_refused(f.build(), "no PT_LOAD segment with contents among its 1 program headers");
}

TEST(BootImageElf, AnEntryPointOutsideRamIsRefused)
{
    elf_file f = two_segment_elf();
    f.entry = 0x1000;
    expect_refused(f.build(), "the entry point 0x1000 is not inside RAM [0x40000000, 0x41000000)");
}

// ---- arm64 Linux Image ----

// The 64-byte header of booting.rst: code0/code1, text_offset at 0x08, image_size at 0x10,
// flags at 0x18, magic "ARM\x64" at 0x38; then the body up to `file_size` bytes.
bytes linux_image(uint64_t text_offset, uint64_t image_size, uint64_t flags, size_t file_size)
{
    bytes b(file_size, 0x5c);
    put(b, 0x00, 0x91005a4d, 4); // code0: add x13, x18, #0x16, which reads "MZ" (EFI stub)
    put(b, 0x04, 0x14000000, 4); // code1: b stext
    put(b, 0x08, text_offset, 8);
    put(b, 0x10, image_size, 8);
    put(b, 0x18, flags, 8);
    put(b, 0x20, 0, 8); // res2
    put(b, 0x28, 0, 8); // res3
    put(b, 0x30, 0, 8); // res4
    b[0x38] = 'A';
    b[0x39] = 'R';
    b[0x3a] = 'M';
    b[0x3b] = 0x64;
    put(b, 0x3c, 0, 4); // res5
    return b;
}

// flags: bit 0 little-endian (0), bits 1-2 4K pages (1), bit 3 anywhere in RAM (1).
constexpr uint64_t image_flags_le_4k = 0b1010;

TEST(BootImageLinux, AnImageLoadsTextOffsetAboveTheRamBaseAndOccupiesImageSize)
{
    const bytes file = linux_image(0x8'0000, 0x30'0000, image_flags_le_4k, 0x1000);
    fake_ram ram;
    const load_result r = load(file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::linux_image);
    EXPECT_EQ(r.image->entry, 0x4008'0000u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4038'0000u); // text_offset + image_size: the BSS counts
    EXPECT_EQ(ram.word(0x4008'0000), 0x91005a4du);
    EXPECT_EQ(ram.word(0x4008'0038), 0x644d5241u);
    EXPECT_EQ(ram.byte(0x4008'0fff), 0x5c);
    EXPECT_EQ(ram.byte(0x4008'1000), 0xAA); // the BSS is the kernel's to clear
    EXPECT_EQ(ram.byte(0x4007'ffff), 0xAA);
}

TEST(BootImageLinux, TextOffsetZeroLoadsAtTheRamBase)
{
    // Linux since v5.8 has text_offset 0: the 2 MiB aligned base itself. (QEMU moves such an
    // image up 2 MiB only to keep clear of its boot stub at the RAM base; the platform has none.)
    const bytes file = linux_image(0, 0x20'0000, image_flags_le_4k, 0x800);
    fake_ram ram;
    const load_result r = load(file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->entry, 0x4000'0000u);
    EXPECT_EQ(r.image->load_end, 0x4020'0000u);
    EXPECT_EQ(ram.word(0x4000'0038), 0x644d5241u);
}

TEST(BootImageLinux, TheBaseIsTheFirst2MiBBoundaryInRam)
{
    // RAM from 0x4010_0000 (1 MiB aligned only): the base is 0x4020_0000.
    const bytes file = linux_image(0x1000, 0x10'0000, image_flags_le_4k, 0x100);
    fake_ram ram;
    const load_result r = load(file, ram, 0x4010'0000, 0xf0'0000);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->entry, 0x4020'1000u);
    EXPECT_EQ(r.image->load_end, 0x4030'1000u);
}

TEST(BootImageLinux, ImageSizeZeroIsTheOldRuleTextOffset0x80000AndTheFileSize)
{
    // Before v3.17: image_size 0, text_offset to be taken as 0x80000 whatever it says.
    const bytes file = linux_image(0x1234, 0, 0, 0x3000);
    fake_ram ram;
    const load_result r = load(file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::linux_image);
    EXPECT_EQ(r.image->entry, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4008'3000u);
}

TEST(BootImageLinux, AnImageLargerThanRamIsRefused)
{
    // 0x80000 + 0x100_0000 runs 0x80000 past the 16 MiB RAM.
    expect_refused(linux_image(0x8'0000, 0x100'0000, image_flags_le_4k, 0x100),
                   "text_offset 0x80000 and size 0x1000000 above the 2 MiB aligned base "
                   "0x40000000 do not fit inside RAM [0x40000000, 0x41000000)");
}

TEST(BootImageLinux, AHostileTextOffsetDoesNotWrapAround)
{
    expect_refused(linux_image(u64_max - 0x10, 0x1000, image_flags_le_4k, 0x100),
                   "text_offset 0xffffffffffffffef and size 0x1000");
}

TEST(BootImageLinux, AHostileImageSizeDoesNotWrapAround)
{
    expect_refused(linux_image(0x8'0000, u64_max, image_flags_le_4k, 0x100),
                   "size 0xffffffffffffffff");
}

TEST(BootImageLinux, ABigEndianKernelIsRefused)
{
    expect_refused(linux_image(0, 0x1000, image_flags_le_4k | 1, 0x100),
                   "flags 0xb say a big-endian kernel (bit 0)");
}

// ---- raw binaries ----

TEST(BootImageRaw, ARawBinaryLoadsAtTheRamBasePlus0x80000)
{
    const bytes file = {0x1f, 0x20, 0x03, 0xd5, 0x00, 0x00, 0x00, 0x14}; // nop; b .
    fake_ram ram;
    const load_result r = load(file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::raw);
    EXPECT_EQ(r.image->entry, 0x4008'0000u);
    EXPECT_EQ(r.image->load_base, 0x4008'0000u);
    EXPECT_EQ(r.image->load_end, 0x4008'0008u);
    EXPECT_EQ(ram.word(0x4008'0000), 0xd503201fu);
    EXPECT_EQ(ram.word(0x4008'0004), 0x14000000u);
}

TEST(BootImageRaw, AnImageHeaderWithoutTheMagicIsRaw)
{
    bytes file = linux_image(0, 0x1000, image_flags_le_4k, 0x100);
    file[0x3b] = 0x65; // "ARMe"
    fake_ram ram;
    const load_result r = load(file, ram);
    ASSERT_TRUE(r.image.has_value()) << r.error;
    EXPECT_EQ(r.image->format, image_format::raw);
    EXPECT_EQ(r.image->entry, 0x4008'0000u);
}

TEST(BootImageRaw, ARawBinaryLargerThanTheRamAbove0x80000IsRefused)
{
    fake_ram ram;
    std::string error;
    // RAM of 0x80000 + 16 bytes: 17 bytes do not fit.
    const auto image = load_boot_image(bytes(17, 1), ram_base, 0x8'0010, ram.writer(), error);
    EXPECT_FALSE(image.has_value());
    EXPECT_EQ(ram.writes, 0u);
    EXPECT_EQ(error, "raw image: 17 bytes at 0x40080000 (RAM base + 0x80000) do not fit inside "
                     "RAM [0x40000000, 0x40080010)");
}

TEST(BootImage, AnEmptyImageIsRefused)
{
    expect_refused({}, "the image is empty (0 bytes)");
}

TEST(BootImage, RamThatWrapsTheAddressSpaceIsRefused)
{
    fake_ram ram;
    std::string error;
    EXPECT_FALSE(load_boot_image(bytes(8, 1), 0xffff'ffff'ffff'0000, 0x2'0000, ram.writer(), error)
                     .has_value());
    EXPECT_EQ(error, "the RAM at 0xffffffffffff0000 of size 0x20000 runs past the end of the "
                     "64-bit address space");
}

TEST(BootImage, AWriteRamRefusesIsReported)
{
    std::string error;
    const ram_writer refuses = [](uint64_t, const uint8_t *, size_t) { return false; };
    EXPECT_FALSE(load_boot_image(bytes(8, 1), ram_base, ram_size, refuses, error).has_value());
    EXPECT_EQ(error, "RAM refused the write of 8 bytes at 0x40080000");
}

// ---- reading the file ----

struct temp_file {
    fs::path path = fs::temp_directory_path() /
                    ("pmtrace_boot_" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                     "_" + std::to_string(::getpid()));
    ~temp_file()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

TEST(BootImageFile, AFileIsReadWhole)
{
    temp_file t;
    std::ofstream(t.path, std::ios::binary) << std::string("\x7f"
                                                           "ELF\0\x01",
                                                           6);
    std::string error;
    const auto b = read_file(t.path.string(), error);
    ASSERT_TRUE(b.has_value()) << error;
    EXPECT_EQ(*b, (bytes{0x7f, 'E', 'L', 'F', 0x00, 0x01}));
}

TEST(BootImageFile, AMissingFileIsReported)
{
    temp_file t;
    std::string error;
    EXPECT_FALSE(read_file(t.path.string(), error).has_value());
    EXPECT_EQ(error, "cannot read '" + t.path.string() + "': No such file or directory");
}

TEST(BootImageFile, AnEmptyFileIsReported)
{
    temp_file t;
    std::ofstream(t.path, std::ios::binary).close();
    std::string error;
    EXPECT_FALSE(read_file(t.path.string(), error).has_value());
    EXPECT_EQ(error, "'" + t.path.string() + "' is empty");
}

TEST(BootImageFile, ADirectoryIsReported)
{
    temp_file t;
    fs::create_directory(t.path);
    std::string error;
    EXPECT_FALSE(read_file(t.path.string(), error).has_value());
    EXPECT_EQ(error, "cannot read '" + t.path.string() + "': it is a directory");
}

TEST(BootImageFile, ADeviceIsReported)
{
    std::string error;
    EXPECT_FALSE(read_file("/dev/null", error).has_value());
    EXPECT_EQ(error, "cannot read '/dev/null': it is not a regular file");
}

TEST(BootImageFile, NoFileNameIsReported)
{
    std::string error;
    EXPECT_FALSE(read_file("", error).has_value());
    EXPECT_EQ(error, "no file name was given");
}

// ---- the device tree's place ----

std::optional<uint64_t> dtb_at(uint64_t load_end, size_t dtb_size, std::string &error)
{
    const boot_image image{image_format::elf, ram_base, ram_base, load_end};
    return place_dtb(image, dtb_size, ram_base, ram_size, error);
}

TEST(BootImageDtb, TheDeviceTreeGoesToTheFirst2MiBBoundaryAboveTheImage)
{
    std::string error;
    EXPECT_EQ(dtb_at(0x4009'010c, 0x1000, error), 0x4020'0000u) << error; // the ELF above
    EXPECT_EQ(dtb_at(0x4038'0000, 0x1000, error), 0x4040'0000u) << error; // the Image above
    EXPECT_EQ(dtb_at(0x4008'0008, 0x1000, error), 0x4020'0000u) << error; // the raw binary
    EXPECT_EQ(dtb_at(0x4040'0000, 0x1000, error), 0x4040'0000u) << error; // on a boundary
}

TEST(BootImageDtb, TheDeviceTreeMayEndAtTheEndOfRam)
{
    std::string error;
    EXPECT_EQ(dtb_at(0x40e0'0000, 0x20'0000, error), 0x40e0'0000u) << error;
}

TEST(BootImageDtb, ADeviceTreeThatDoesNotFitAboveTheImageIsRefused)
{
    std::string error;
    // The boundary above 0x40e0_0001 is 0x4100_0000, the end of RAM.
    EXPECT_FALSE(dtb_at(0x40e0'0001, 0x1000, error).has_value());
    EXPECT_EQ(error, "a device tree of 4096 bytes does not fit at the first 2 MiB boundary above "
                     "the image's end 0x40e00001 inside RAM [0x40000000, 0x41000000)");
    EXPECT_FALSE(dtb_at(0x40e0'0000, 0x20'0001, error).has_value());
}

TEST(BootImageDtb, AHostileImageEndDoesNotWrapAround)
{
    std::string error;
    EXPECT_FALSE(dtb_at(u64_max - 5, 0x1000, error).has_value());
    EXPECT_NE(error.find("0xfffffffffffffffa"), std::string::npos) << error;
}

TEST(BootImageDtb, AnEmptyDeviceTreeIsRefused)
{
    std::string error;
    EXPECT_FALSE(dtb_at(0x4009'010c, 0, error).has_value());
    EXPECT_EQ(error, "the device tree is empty (0 bytes)");
}

// ---- the initial RAM disk's place (QEMU's hw/arm/boot.c: RAM base + min(RAM / 2, 128 MiB),
// not below the image's end, 4 KiB aligned) and the device tree's after it ----

std::optional<uint64_t> initrd_at(uint64_t load_end, size_t initrd_size, uint64_t ram,
                                  std::string &error)
{
    const boot_image image{image_format::raw, ram_base + 0x8'0000, ram_base + 0x8'0000, load_end};
    return place_initrd(image, initrd_size, ram_base, ram, error);
}

TEST(BootImageInitrd, TheInitrdGoesHalfwayIntoRamUpTo128MiB)
{
    std::string error;
    EXPECT_EQ(initrd_at(0x4009'0000, 0x1000, 16ull << 20, error), 0x4080'0000u) << error;
    EXPECT_EQ(initrd_at(0x4009'0000, 0x1000, 128ull << 20, error), 0x4400'0000u) << error;
    EXPECT_EQ(initrd_at(0x4009'0000, 0x1000, 256ull << 20, error), 0x4800'0000u) << error;
    EXPECT_EQ(initrd_at(0x4009'0000, 0x1000, 4ull << 30, error), 0x4800'0000u) << error;
}

TEST(BootImageInitrd, AnImageThatReachesFurtherPushesItUpToTheNextPage)
{
    std::string error;
    EXPECT_EQ(initrd_at(0x4480'0001, 0x1000, 128ull << 20, error), 0x4480'1000u) << error;
    EXPECT_EQ(initrd_at(0x4480'0000, 0x1000, 128ull << 20, error), 0x4480'0000u) << error;
}

TEST(BootImageInitrd, TheInitrdMayEndAtTheEndOfRam)
{
    std::string error;
    EXPECT_EQ(initrd_at(0x4009'0000, 8ull << 20, 16ull << 20, error), 0x4080'0000u) << error;
}

TEST(BootImageInitrd, AnInitrdThatDoesNotFitIsRefused)
{
    std::string error;
    EXPECT_FALSE(initrd_at(0x4009'0000, (8ull << 20) + 1, 16ull << 20, error).has_value());
    EXPECT_EQ(error, "an initrd of 8388609 bytes does not fit between 0x40800000 and the end of "
                     "RAM [0x40000000, 0x41000000) (8388608 bytes)");
    EXPECT_FALSE(initrd_at(0x4100'0000, 1, 16ull << 20, error).has_value()); // the image fills RAM
    EXPECT_EQ(error, "no room for an initrd after the image, which ends at 0x41000000, inside RAM "
                     "[0x40000000, 0x41000000)");
    EXPECT_FALSE(initrd_at(u64_max - 5, 1, 16ull << 20, error).has_value()); // no wrap-around
    EXPECT_FALSE(initrd_at(0x4009'0000, 0, 16ull << 20, error).has_value());
    EXPECT_EQ(error, "the initrd is empty (0 bytes)");
}

TEST(BootImageInitrd, TheDeviceTreeFollowsTheInitrdAtA2MiBBoundary)
{
    std::string error;
    EXPECT_EQ(place_dtb_after_initrd(0x4080'001b, 0x1000, ram_base, 32ull << 20, error),
              0x40a0'0000u)
        << error;
    EXPECT_FALSE(
        place_dtb_after_initrd(0x40ff'0000, 0x1000, ram_base, ram_size, error).has_value());
    EXPECT_EQ(error, "a device tree of 4096 bytes does not fit at the first 2 MiB boundary above "
                     "the initrd's end 0x40ff0000 inside RAM [0x40000000, 0x41000000)");
}

} // namespace
