// start.S - the entry of a sw/ image, as QEMU's virt board enters a kernel (hw/arm/boot.c): at
// RAM base + 0x80000, x0 = the device tree, MMU and caches off, D, A, I, F masked, at EL1 (or at
// EL2 with virtualization=on, which this code leaves for EL1 as Linux's init_kernel_el does; or
// at EL3 with secure=on, where it does what firmware does before it enters a kernel at EL2).
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
2:  cmp x20, #3
    b.eq el3_entry
    cmp x20, #2
    b.eq el2_entry

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

// EL3 (virt with secure=on): what firmware (TF-A) leaves for a kernel entered at EL2: EL2 and
// EL1 Non-secure and AArch64, HVC enabled, SMC answered NOT_SUPPORTED by the stub below (this
// image serves no PSCI), nothing trapped to EL3 (CPTR_EL3 0), and MDCR_EL3: the trace buffer
// to Non-secure state (NSTB 0b11, with a TRBE; TRBEE 0b01 with FEAT_TRBE_EXC) and PMECR_EL1,
// PMIAR_EL1 to lower levels (EnPM2, with PMUv3p9); Secure counting stays prohibited (SPME 0). Then ERET to EL2h, D, A, I, F
// masked, which goes on as an entry at EL2 does.
el3_entry:
    ldr x0, =a64_vectors_el3_stub
    msr vbar_el3, x0
    mov x0, #0x531                  // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr scr_el3, x0
    msr cptr_el3, xzr
    mov x2, #0
    mrs x0, id_aa64dfr0_el1
    ubfx x1, x0, #8, #4             // PMUVer: 0b1001 is PMUv3p9 (0b1111: IMPLEMENTATION DEFINED)
    cmp x1, #9
    b.lo 6f
    cmp x1, #0xf
    b.eq 6f
    orr x2, x2, #(1 << 7)           // EnPM2
6:  ubfx x1, x0, #44, #4            // TraceBuffer: 0b0010 with FEAT_TRBE_EXC
    cbz x1, 7f
    orr x2, x2, #(3 << 24)          // NSTB
    cmp x1, #2
    b.lo 7f
    orr x2, x2, #(1 << 53)          // TRBEE 0b01: the TRBE Profiling exception to lower levels
7:  msr mdcr_el3, x2
    mov x0, #0x3c9                  // EL2h, D, A, I, F masked
    msr spsr_el3, x0
    adr x0, el2_entry
    msr elr_el3, x0
    eret

// EL3's vectors: an SMC from a lower level gets NOT_SUPPORTED (-1) in x0; anything else waits.
    .balign 2048
a64_vectors_el3_stub:
    .irp n, 0, 1, 2, 3, 4, 5, 6, 7
    .balign 128
    b el3_wait
    .endr
    .balign 128
    mrs x0, esr_el3                 // lower level, synchronous
    lsr x0, x0, #26
    cmp x0, #0x17                   // SMC
    b.ne el3_wait
    mov x0, #-1
    eret
    .irp n, 9, 10, 11, 12, 13, 14, 15
    .balign 128
    b el3_wait
    .endr
el3_wait:
    wfi
    b el3_wait

    .bss
    .balign 8
    .global a64_entry_el
a64_entry_el:
    .quad 0
    .global a64_boot_dtb
a64_boot_dtb:
    .quad 0
