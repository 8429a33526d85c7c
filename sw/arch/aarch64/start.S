// start.S - the entry of a sw/ image, as QEMU's virt board enters a kernel (hw/arm/boot.c): at
// RAM base + 0x80000, x0 = the device tree, MMU and caches off, D, A, I, F masked, at EL1 (or at
// EL2 with virtualization=on, which this code leaves for EL1 as Linux's init_kernel_el does).
// Then: BSS cleared, stack, VBAR_EL1, main(dtb), a64_exit(status) (exit.c).

    .section .text.boot, "ax"
    .global _start
_start:
    mov x19, x0                     // the device tree
    mrs x20, CurrentEL
    ubfx x20, x20, #2, #2
    // BSS first (no stack needed): the entry EL and the EL2 fixup status live there.
    ldr x0, =__bss_start
    ldr x1, =__bss_end
1:  cmp x0, x1
    b.hs 2f
    stp xzr, xzr, [x0], #16
    b 1b
2:  cmp x20, #2
    b.eq el2_entry
    cmp x20, #1
    b.ne unsupported_el

el1_entry:
    ldr x0, =__stack_el1_top
    mov sp, x0
    ldr x0, =a64_vectors_el1
    msr vbar_el1, x0
    isb
    ldr x0, =a64_entry_el
    str x20, [x0]
    ldr x0, =a64_boot_dtb
    str x19, [x0]
    mov x0, x19
    bl main
    bl a64_exit                     // main's status in w0

// EL2 (virt with virtualization=on): what Linux's init_el2_state does for a kernel at EL1
// (arch/arm64/include/asm/el2_setup.h), then ERET to EL1h with D, A, I, F masked.
el2_entry:
    ldr x0, =__stack_el2_top
    mov sp, x0
    ldr x0, =a64_vectors_el2        // traps to EL2 and the fixups below
    msr vbar_el2, x0
    isb
    mov x0, #(1 << 31)              // HCR_EL2.RW: EL1 is AArch64; E2H, TGE, IMO, AMO 0
    msr hcr_el2, x0
    mrs x0, cnthctl_el2             // EL1PCTEN, EL1PCEN: EL1 has the physical counter, timer
    orr x0, x0, #3
    msr cnthctl_el2, x0
    msr cntvoff_el2, xzr
    // MDCR_EL2: HPMN = PMCR_EL0.N (every counter to EL1 and EL0) with a PMUv3 (PMUVer 1..14);
    // E2TB = 0b11 (the trace buffer to the EL1&0 regime) with a TRBE (TraceBuffer != 0).
    mov x2, #0
    mrs x0, id_aa64dfr0_el1
    ubfx x1, x0, #8, #4
    cbz x1, 3f
    cmp x1, #0xf
    b.eq 3f
    mrs x2, pmcr_el0
    ubfx x2, x2, #11, #5
3:  ubfx x1, x0, #44, #4
    cbz x1, 4f
    orr x2, x2, #(3 << 24)
4:  msr mdcr_el2, x2
    // ICC_SRE_EL2.{SRE, Enable} with the GIC system register interface (ID_AA64PFR0_EL1.GIC).
    mrs x0, id_aa64pfr0_el1
    ubfx x0, x0, #24, #4
    cbz x0, 5f
    mrs x0, S3_4_C12_C9_5           // ICC_SRE_EL2
    mov x1, #0x9                    // SRE, Enable
    orr x0, x0, x1
    msr S3_4_C12_C9_5, x0
    isb
    // SCTLR_EL1: MMU and caches off, Linux's INIT_SCTLR_EL1_MMU_OFF (LSMAOE, nTLSMD, EIS,
    // TSCXT, EOS) with SPAN, and nTWI, nTWE: WFI and WFE at EL0 are not trapped.
5:  ldr x0, =0x30d50800
    msr sctlr_el1, x0
    mov x0, #0x3c5                  // EL1h, D, A, I, F masked
    msr spsr_el2, x0
    adr x0, el1_entry
    msr elr_el2, x0
    eret

unsupported_el:                     // EL3 (virt with secure=on) is not supported: wait forever
    wfi
    b unsupported_el

    .bss
    .balign 8
    .global a64_entry_el
a64_entry_el:
    .quad 0
    .global a64_boot_dtb
a64_boot_dtb:
    .quad 0
