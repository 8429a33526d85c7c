// boot_image.h - loads a user's image into RAM as QEMU's `-kernel` does on the `virt` board for
// AArch64, and says where the CPU starts and where the device tree goes. No SystemC.
//
//   ELF         ELF64, little-endian, EM_AARCH64, ET_EXEC or ET_DYN (a static PIE): each
//               PT_LOAD segment's p_filesz bytes at p_paddr, zeros up to p_memsz; the entry is
//               e_entry (moved to its physical address when it lies in an executable segment
//               whose p_vaddr and p_paddr differ, as QEMU does). An ET_DYN file is loaded as
//               QEMU loads it: where it is linked, without relocation.
//   arm64 Image the Linux kernel's Image (Documentation/arch/arm64/booting.rst): magic "ARM\x64"
//               at 0x38; loaded text_offset bytes above a 2 MiB aligned base, the RAM base (the
//               first 2 MiB boundary in RAM); it occupies image_size bytes from there (its BSS
//               included). image_size 0 (kernels before v3.17): text_offset 0x80000 and the
//               size of the file. The entry is the load address.
//   raw         anything else: the bytes at RAM base + 0x80000 (QEMU's KERNEL64_LOAD_ADDR),
//               the entry there.
//
// The device tree goes at the first 2 MiB boundary at or above the image's end (booting.rst: the
// kernel maps it in 2 MiB blocks, so it shares no 2 MiB region with the image), or, with an
// initial RAM disk, at the first one above the initrd.
//
// An initrd (QEMU's -initrd) goes where QEMU's hw/arm/boot.c puts it: min(RAM size / 2, 128 MiB)
// above the RAM base, or the image's end when the image reaches past that, aligned up to 4 KiB.
#ifndef PMTRACE_PLATFORM_BOOT_IMAGE_H
#define PMTRACE_PLATFORM_BOOT_IMAGE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pmtrace::platform
{

enum class image_format { elf, linux_image, raw };

struct boot_image {
    image_format format;
    uint64_t entry;     // where the CPU starts
    uint64_t load_base; // lowest RAM address the image occupies
    uint64_t load_end;  // one past the highest (for an arm64 Image: text_offset+image_size counts,
                        // i.e. its BSS)
};

// Where QEMU loads a raw image (and an arm64 Image of image_size 0), above the RAM base.
constexpr uint64_t raw_image_offset = 0x8'0000;
// The alignment of an arm64 Image's base and of the device tree.
constexpr uint64_t boot_alignment = 0x20'0000; // 2 MiB

// A write into RAM at a physical address; returns false when [pa, pa+n) is not RAM.
using ram_writer = std::function<bool(uint64_t pa, const uint8_t *data, size_t n)>;

// Loads `bytes` (the file's contents) for a RAM of [ram_base, ram_base+ram_size). On bad input
// returns std::nullopt and sets `error` to one clear sentence (what is wrong, with the offending
// value). Every check is made before the first write; `write` failing part way (it answers false)
// is reported too, with what was written left in RAM.
std::optional<boot_image> load_boot_image(const std::vector<uint8_t> &bytes, uint64_t ram_base,
                                          uint64_t ram_size, const ram_writer &write,
                                          std::string &error);

// Reads a file; nullopt + error for a missing/unreadable/empty file (and for a directory or
// anything else that is not a regular file).
std::optional<std::vector<uint8_t>> read_file(const std::string &path, std::string &error);
// Writes `bytes` to a file (made or truncated); false when it cannot be written whole.
bool write_file(const std::string &path, const std::vector<uint8_t> &bytes);

// Where the device tree goes: above the image, 2 MiB aligned (stay within RAM; nullopt+error if
// it does not fit, dtb_size bytes).
std::optional<uint64_t> place_dtb(const boot_image &image, size_t dtb_size, uint64_t ram_base,
                                  uint64_t ram_size, std::string &error);
// With an initrd, above it: initrd_end is one past its last byte.
std::optional<uint64_t> place_dtb_after_initrd(uint64_t initrd_end, size_t dtb_size,
                                               uint64_t ram_base, uint64_t ram_size,
                                               std::string &error);

// The offset of an initrd above the RAM base with RAM of ram_size bytes: half of it up to
// 128 MiB (QEMU's choice: far enough for a kernel that decompresses itself, low enough for a
// kernel that reaches only low memory).
uint64_t initrd_offset(uint64_t ram_size);
// The alignment of an initrd (QEMU's TARGET_PAGE_ALIGN for AArch64).
constexpr uint64_t initrd_alignment = 0x1000; // 4 KiB
// Where an initrd of initrd_size bytes goes for `image`; nullopt + error (one sentence) when there
// is no room for it between that place and the end of RAM, or it is empty.
std::optional<uint64_t> place_initrd(const boot_image &image, size_t initrd_size, uint64_t ram_base,
                                     uint64_t ram_size, std::string &error);

} // namespace pmtrace::platform

#endif
