// boot_image.cpp - ELF, arm64 Image and raw images into RAM; the device tree's place. Every
// offset and size read from the file is checked before it is added or used, so a hostile header
// can neither overflow the arithmetic nor make the loader read past the buffer.
#include "pmtrace/platform/boot/boot_image.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <system_error>

namespace pmtrace::platform
{

namespace
{

constexpr uint64_t u64_max = std::numeric_limits<uint64_t>::max();

std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// RAM as [base, end); `end` is computed once the range is known not to wrap.
struct ram_range {
    uint64_t base;
    uint64_t size;
    uint64_t end() const { return base + size; }
    std::string text() const { return "RAM [" + hex(base) + ", " + hex(end()) + ")"; }
    // [pa, pa + n) lies inside RAM (without computing pa + n).
    bool holds(uint64_t pa, uint64_t n) const
    {
        return pa >= base && n <= size && pa - base <= size - n;
    }
};

bool checked_add(uint64_t a, uint64_t b, uint64_t &sum)
{
    if (b > u64_max - a)
        return false;
    sum = a + b;
    return true;
}

// The smallest multiple of `alignment` (a power of two) at or above v.
bool align_up(uint64_t v, uint64_t alignment, uint64_t &aligned)
{
    if (!checked_add(v, alignment - 1, aligned))
        return false;
    aligned &= ~(alignment - 1);
    return true;
}

// Little-endian fields of the file; callers check `at + n <= bytes.size()` first.
uint64_t read_le(const std::vector<uint8_t> &bytes, size_t at, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= uint64_t{bytes[at + i]} << (8 * i);
    return v;
}

bool write_bytes(const ram_writer &write, uint64_t pa, const uint8_t *data, size_t n,
                 std::string &error)
{
    if (n == 0 || write(pa, data, n))
        return true;
    error = "RAM refused the write of " + std::to_string(n) + " bytes at " + hex(pa);
    return false;
}

// Zeros in pieces of 64 KiB, so a large BSS needs no buffer of its size.
bool write_zeros(const ram_writer &write, uint64_t pa, uint64_t n, std::string &error)
{
    static const std::vector<uint8_t> zeros(0x1'0000, 0);
    while (n > 0) {
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(n, zeros.size()));
        if (!write_bytes(write, pa, zeros.data(), piece, error))
            return false;
        pa += piece;
        n -= piece;
    }
    return true;
}

// ---- ELF (the System V ABI's ELF64 header and program headers) ----

constexpr size_t ei_nident = 16;
constexpr size_t elf64_header_size = 64;
constexpr size_t elf64_phdr_size = 56;
// Where the fields are: in the header,
constexpr size_t ei_class_at = 4, ei_data_at = 5, e_type_at = 16, e_machine_at = 18,
                 e_entry_at = 24, e_phoff_at = 32, e_phentsize_at = 54, e_phnum_at = 56;
// and in a program header.
constexpr size_t p_type_at = 0, p_flags_at = 4, p_offset_at = 8, p_vaddr_at = 16, p_paddr_at = 24,
                 p_filesz_at = 32, p_memsz_at = 40;
constexpr uint8_t elfclass64 = 2;
constexpr uint8_t elfdata2lsb = 1;
constexpr uint64_t et_rel = 1, et_exec = 2, et_dyn = 3, et_core = 4;
constexpr uint64_t em_aarch64 = 183;
constexpr uint64_t pt_load = 1;
constexpr uint64_t pf_x = 1;
constexpr uint64_t pn_xnum = 0xffff;

struct elf_segment {
    uint64_t flags, offset, vaddr, paddr, filesz, memsz;
};

bool is_elf(const std::vector<uint8_t> &bytes)
{
    return bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
           bytes[3] == 'F';
}

// The machines of the ELF files a user is likeliest to give by mistake (the System V ABI's
// e_machine values), for the refusal.
const char *machine_name(uint64_t machine)
{
    switch (machine) {
    case 3: return "x86";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 21: return "64-bit PowerPC";
    case 22: return "IBM S/390";
    case 40: return "32-bit Arm";
    case 62: return "x86-64";
    case 243: return "RISC-V";
    case 258: return "LoongArch";
    default: return nullptr;
    }
}

// The header's identification, machine and type: an ELF64 little-endian AArch64 executable,
// linked at fixed addresses (ET_EXEC) or position-independent (ET_DYN: a static PIE).
bool elf_header_ok(const std::vector<uint8_t> &bytes, std::string &error)
{
    if (bytes.size() < ei_nident) {
        error = "ELF: the file of " + std::to_string(bytes.size()) +
                " bytes is shorter than the ELF identification (16 bytes)";
        return false;
    }
    const uint8_t elf_class = bytes[ei_class_at], data = bytes[ei_data_at];
    if (elf_class != elfclass64) {
        error = "ELF: EI_CLASS " + std::to_string(elf_class) +
                (elf_class == 1 ? " (a 32-bit ELF)" : "") +
                " is not ELFCLASS64; only 64-bit AArch64 images can be booted";
        return false;
    }
    if (data != elfdata2lsb) {
        error = "ELF: EI_DATA " + std::to_string(data) + (data == 2 ? " (big-endian)" : "") +
                " is not ELFDATA2LSB; only little-endian images can be booted";
        return false;
    }
    if (bytes.size() < elf64_header_size) {
        error = "ELF: the file of " + std::to_string(bytes.size()) +
                " bytes is shorter than an ELF64 header (64 bytes)";
        return false;
    }
    // The machine first: an executable for another machine is that, whatever its type (most
    // are position-independent today).
    const uint64_t machine = read_le(bytes, e_machine_at, 2);
    if (machine != em_aarch64) {
        const char *name = machine_name(machine);
        error = "ELF: e_machine " + std::to_string(machine) +
                (name ? std::string(" (") + name + ")" : std::string()) +
                " is not EM_AARCH64 (183): the image is for another machine; only AArch64 "
                "images can be booted";
        return false;
    }
    const uint64_t type = read_le(bytes, e_type_at, 2);
    if (type != et_exec && type != et_dyn) {
        error = "ELF: e_type " + std::to_string(type) +
                (type == et_rel    ? " (ET_REL, a relocatable object: link it first)"
                 : type == et_core ? " (ET_CORE, a core dump)"
                                   : "") +
                " is neither ET_EXEC (2) nor ET_DYN (3)";
        return false;
    }
    return true;
}

// The PT_LOAD segments with contents (p_memsz 0 ones are skipped, as QEMU does), each checked
// against the file and RAM.
bool elf_segments(const std::vector<uint8_t> &bytes, const ram_range &ram,
                  std::vector<elf_segment> &segments, std::string &error)
{
    const uint64_t phoff = read_le(bytes, e_phoff_at, 8);
    const uint64_t phentsize = read_le(bytes, e_phentsize_at, 2);
    const uint64_t phnum = read_le(bytes, e_phnum_at, 2);
    if (phnum == pn_xnum) {
        error = "ELF: e_phnum 0xffff (PN_XNUM: the count is in section 0) is not supported";
        return false;
    }
    if (phnum > 0 && phentsize < elf64_phdr_size) {
        error = "ELF: e_phentsize " + std::to_string(phentsize) +
                " is smaller than an ELF64 program header (56 bytes)";
        return false;
    }
    uint64_t table_end = 0;
    if (!checked_add(phoff, phnum * phentsize, table_end) || table_end > bytes.size()) {
        error = "ELF: the program header table at e_phoff " + hex(phoff) + " (" +
                std::to_string(phnum) + " entries of " + std::to_string(phentsize) +
                " bytes) runs past the end of the file (" + std::to_string(bytes.size()) +
                " bytes)";
        return false;
    }
    for (uint64_t i = 0; i < phnum; i++) {
        const size_t at = static_cast<size_t>(phoff + i * phentsize);
        if (read_le(bytes, at + p_type_at, 4) != pt_load)
            continue;
        const elf_segment s{
            read_le(bytes, at + p_flags_at, 4),  read_le(bytes, at + p_offset_at, 8),
            read_le(bytes, at + p_vaddr_at, 8),  read_le(bytes, at + p_paddr_at, 8),
            read_le(bytes, at + p_filesz_at, 8), read_le(bytes, at + p_memsz_at, 8)};
        const std::string name = "ELF: segment " + std::to_string(i);
        if (s.filesz > s.memsz) {
            error = name + " has p_filesz " + hex(s.filesz) + " larger than its p_memsz " +
                    hex(s.memsz);
            return false;
        }
        uint64_t file_end = 0;
        if (!checked_add(s.offset, s.filesz, file_end) || file_end > bytes.size()) {
            error = name + " (p_offset " + hex(s.offset) + ", p_filesz " + hex(s.filesz) +
                    ") runs past the end of the file (" + std::to_string(bytes.size()) + " bytes)";
            return false;
        }
        if (s.memsz == 0)
            continue;
        if (!ram.holds(s.paddr, s.memsz)) {
            error = name + " at p_paddr " + hex(s.paddr) + " of p_memsz " + hex(s.memsz) +
                    " is not inside " + ram.text();
            if (read_le(bytes, e_type_at, 2) == et_dyn)
                error += ": a position-independent image (ET_DYN) is loaded where it is linked, "
                         "as QEMU loads it (which puts one linked at 0 in virt's flash; this "
                         "platform has none): give its segments physical addresses in RAM";
            return false;
        }
        segments.push_back(s);
    }
    if (segments.empty()) {
        error = "ELF: no PT_LOAD segment with contents among its " + std::to_string(phnum) +
                " program headers";
        return false;
    }
    return true;
}

// e_entry, moved to its physical address when it lies in the file part of an executable segment
// linked at another virtual address (QEMU's ELF loader does the same).
uint64_t elf_physical_entry(uint64_t entry, const std::vector<elf_segment> &segments)
{
    for (const elf_segment &s : segments)
        if ((s.flags & pf_x) && s.vaddr != s.paddr && entry >= s.vaddr &&
            entry - s.vaddr < s.filesz)
            return entry - s.vaddr + s.paddr;
    return entry;
}

// ET_EXEC and ET_DYN alike, as QEMU's -kernel does for an AArch64 CPU (hw/arm/boot.c gives
// load_elf no address translation, so include/hw/elf_ops.h applies no relocation): each segment
// at its p_paddr, the entry e_entry. A position-independent image runs where it is linked; its
// dynamic relocations, if any, are its own startup's to apply (a static PIE's does), not the
// loader's.
std::optional<boot_image> load_elf(const std::vector<uint8_t> &bytes, const ram_range &ram,
                                   const ram_writer &write, std::string &error)
{
    std::vector<elf_segment> segments;
    if (!elf_header_ok(bytes, error) || !elf_segments(bytes, ram, segments, error))
        return std::nullopt;
    boot_image image{image_format::elf, elf_physical_entry(read_le(bytes, e_entry_at, 8), segments),
                     u64_max, 0};
    if (!ram.holds(image.entry, 1)) {
        error = "ELF: the entry point " + hex(image.entry) + " is not inside " + ram.text();
        return std::nullopt;
    }
    for (const elf_segment &s : segments) {
        image.load_base = std::min(image.load_base, s.paddr);
        image.load_end = std::max(image.load_end, s.paddr + s.memsz);
    }
    for (const elf_segment &s : segments) {
        if (!write_bytes(write, s.paddr, bytes.data() + s.offset, static_cast<size_t>(s.filesz),
                         error) ||
            !write_zeros(write, s.paddr + s.filesz, s.memsz - s.filesz, error))
            return std::nullopt;
    }
    return image;
}

// ---- arm64 Linux Image (Documentation/arch/arm64/booting.rst, "Call the kernel image") ----

constexpr size_t image_header_size = 64;
constexpr size_t image_text_offset_at = 0x08;
constexpr size_t image_size_at = 0x10;
constexpr size_t image_flags_at = 0x18;
constexpr size_t image_magic_at = 0x38;
constexpr uint64_t image_magic = 0x644d5241;  // "ARM\x64"
constexpr uint64_t image_flag_big_endian = 1; // flags bit 0: kernel endianness, 1 big

bool is_linux_image(const std::vector<uint8_t> &bytes)
{
    return bytes.size() >= image_header_size && read_le(bytes, image_magic_at, 4) == image_magic;
}

std::optional<boot_image> load_linux_image(const std::vector<uint8_t> &bytes, const ram_range &ram,
                                           const ram_writer &write, std::string &error)
{
    const uint64_t text_offset = read_le(bytes, image_text_offset_at, 8);
    const uint64_t image_size = read_le(bytes, image_size_at, 8);
    const uint64_t flags = read_le(bytes, image_flags_at, 8);
    // image_size 0: a kernel before v3.17, whose text_offset is 0x80000 (of unspecified
    // endianness) and whose size is unknown: the file's size is the best guess.
    const uint64_t offset = image_size == 0 ? raw_image_offset : text_offset;
    const uint64_t size = std::max<uint64_t>(image_size, bytes.size());
    if (image_size != 0 && (flags & image_flag_big_endian)) {
        error = "arm64 Image: flags " + hex(flags) +
                " say a big-endian kernel (bit 0); only little-endian kernels can be booted";
        return std::nullopt;
    }
    uint64_t base = 0, load = 0, end = 0;
    if (!align_up(ram.base, boot_alignment, base) || !checked_add(base, offset, load) ||
        !checked_add(load, size, end) || !ram.holds(load, size)) {
        error = "arm64 Image: text_offset " + hex(offset) + " and size " + hex(size) +
                " above the 2 MiB aligned base " + hex(base) + " do not fit inside " + ram.text();
        return std::nullopt;
    }
    if (!write_bytes(write, load, bytes.data(), bytes.size(), error))
        return std::nullopt;
    return boot_image{image_format::linux_image, load, load, end};
}

std::optional<boot_image> load_raw(const std::vector<uint8_t> &bytes, const ram_range &ram,
                                   const ram_writer &write, std::string &error)
{
    const uint64_t load = ram.base + raw_image_offset; // the RAM range does not wrap
    if (!ram.holds(load, bytes.size())) {
        error = "raw image: " + std::to_string(bytes.size()) + " bytes at " + hex(load) +
                " (RAM base + 0x80000) do not fit inside " + ram.text();
        return std::nullopt;
    }
    if (!write_bytes(write, load, bytes.data(), bytes.size(), error))
        return std::nullopt;
    return boot_image{image_format::raw, load, load, load + bytes.size()};
}

bool ram_ok(uint64_t ram_base, uint64_t ram_size, std::string &error)
{
    uint64_t end = 0;
    if (ram_size == 0) {
        error = "the RAM at " + hex(ram_base) + " has size 0";
        return false;
    }
    if (!checked_add(ram_base, ram_size, end)) {
        error = "the RAM at " + hex(ram_base) + " of size " + hex(ram_size) +
                " runs past the end of the 64-bit address space";
        return false;
    }
    return true;
}

} // namespace

std::optional<boot_image> load_boot_image(const std::vector<uint8_t> &bytes, uint64_t ram_base,
                                          uint64_t ram_size, const ram_writer &write,
                                          std::string &error)
{
    if (!ram_ok(ram_base, ram_size, error))
        return std::nullopt;
    if (bytes.empty()) {
        error = "the image is empty (0 bytes)";
        return std::nullopt;
    }
    if (!write) {
        error = "no RAM writer was given to load the image with";
        return std::nullopt;
    }
    const ram_range ram{ram_base, ram_size};
    if (is_elf(bytes))
        return load_elf(bytes, ram, write, error);
    if (is_linux_image(bytes))
        return load_linux_image(bytes, ram, write, error);
    return load_raw(bytes, ram, write, error);
}

bool write_file(const std::string &path, const std::vector<uint8_t> &bytes)
{
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(f);
}

std::optional<std::vector<uint8_t>> read_file(const std::string &path, std::string &error)
{
    namespace fs = std::filesystem;
    if (path.empty()) {
        error = "no file name was given";
        return std::nullopt;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        error = "cannot read '" + path +
                "': " + (ec ? ec.message() : std::string(std::strerror(ENOENT)));
        return std::nullopt;
    }
    if (fs::is_directory(status)) {
        error = "cannot read '" + path + "': it is a directory";
        return std::nullopt;
    }
    if (!fs::is_regular_file(status)) {
        error = "cannot read '" + path + "': it is not a regular file";
        return std::nullopt;
    }
    errno = 0;
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        error = "cannot open '" + path +
                "': " + (errno != 0 ? std::strerror(errno) : std::string("open failed"));
        return std::nullopt;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
    if (f.bad()) {
        error = "cannot read '" + path + "': a read failed after " + std::to_string(bytes.size()) +
                " bytes";
        return std::nullopt;
    }
    if (bytes.empty()) {
        error = "'" + path + "' is empty";
        return std::nullopt;
    }
    return bytes;
}

namespace
{
// The device tree at the first 2 MiB boundary at or above `end`, the end of `what`.
std::optional<uint64_t> place_dtb_above(uint64_t end, const char *what, size_t dtb_size,
                                        uint64_t ram_base, uint64_t ram_size, std::string &error)
{
    if (!ram_ok(ram_base, ram_size, error))
        return std::nullopt;
    if (dtb_size == 0) {
        error = "the device tree is empty (0 bytes)";
        return std::nullopt;
    }
    const ram_range ram{ram_base, ram_size};
    uint64_t at = 0;
    if (!align_up(std::max(end, ram_base), boot_alignment, at) || !ram.holds(at, dtb_size)) {
        error = "a device tree of " + std::to_string(dtb_size) +
                " bytes does not fit at the first 2 MiB boundary above " + what + " " + hex(end) +
                " inside " + ram.text();
        return std::nullopt;
    }
    return at;
}
} // namespace

std::optional<uint64_t> place_dtb(const boot_image &image, size_t dtb_size, uint64_t ram_base,
                                  uint64_t ram_size, std::string &error)
{
    return place_dtb_above(image.load_end, "the image's end", dtb_size, ram_base, ram_size, error);
}

std::optional<uint64_t> place_dtb_after_initrd(uint64_t initrd_end, size_t dtb_size,
                                               uint64_t ram_base, uint64_t ram_size,
                                               std::string &error)
{
    return place_dtb_above(initrd_end, "the initrd's end", dtb_size, ram_base, ram_size, error);
}

uint64_t initrd_offset(uint64_t ram_size)
{
    constexpr uint64_t at_most = 128ull << 20;
    return std::min(ram_size / 2, at_most);
}

std::optional<uint64_t> place_initrd(const boot_image &image, size_t initrd_size, uint64_t ram_base,
                                     uint64_t ram_size, std::string &error)
{
    if (!ram_ok(ram_base, ram_size, error))
        return std::nullopt;
    if (initrd_size == 0) {
        error = "the initrd is empty (0 bytes)";
        return std::nullopt;
    }
    const ram_range ram{ram_base, ram_size};
    // hw/arm/boot.c: RAM base + min(RAM / 2, 128 MiB), not below the image's end, page-aligned.
    uint64_t at = 0;
    if (!align_up(std::max(ram_base + initrd_offset(ram_size), image.load_end), initrd_alignment,
                  at) ||
        at >= ram.end()) {
        error = "no room for an initrd after the image, which ends at " + hex(image.load_end) +
                ", inside " + ram.text();
        return std::nullopt;
    }
    if (!ram.holds(at, initrd_size)) {
        error = "an initrd of " + std::to_string(initrd_size) + " bytes does not fit between " +
                hex(at) + " and the end of " + ram.text() + " (" + std::to_string(ram.end() - at) +
                " bytes)";
        return std::nullopt;
    }
    return at;
}

} // namespace pmtrace::platform
