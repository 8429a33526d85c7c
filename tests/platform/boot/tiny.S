// tiny.S - the AArch64 executable of the boot image tests (test_boot_image.cpp), linked by
// tiny.ld: a text segment whose entry is its second instruction, a data segment with two values
// and 256 bytes of BSS. The test expects what aarch64-linux-gnu-readelf shows of it.
    .section .text, "ax"
    nop                         // 0x40080000
    .global _start
_start:
    wfi                         // 0x40080004: the entry point
    b       _start              // 0x40080008

    .section .data, "aw"
    .quad   0x1122334455667788  // 0x40090000
    .word   0xcafef00d          // 0x40090008

    .section .bss, "aw", %nobits
    .skip   0x100               // 0x4009000c

    .section .note.GNU-stack, "", %progbits
