// The GIC as firmware hands it over (issue 36 item 1): set up as bare-metal code written for QEMU
// virt and KVM does, never touching GICR_WAKER: the Distributor (GICD_CTLR ARE, EnableGrp1;
// GICD_IGROUPR), the Redistributor's SGI frame (GICR_IGROUPR0, GICR_IPRIORITYR, GICR_ISENABLER0
// for SGI 1, PPIs 23 and 30), ICC_PMR_EL1 and ICC_IGRPEN1_EL1. Runs at the Exception level it is
// entered at, EL1 or EL2 (with HCR_EL2.IMO: IRQs to EL2). x10: GICR_WAKER as found. Then three
// interrupts, each waited for with IRQs unmasked, the handler setting bit INTID of x9: an SGI to
// itself (ICC_SGI1R_EL1, TargetList 1), the PMU's overflow (PMEVCNTR0_EL0 counting INST_RETIRED
// from 2^32 - 16, NSH so that it counts at EL2 too) and the EL1 physical timer (CNTP_TVAL_EL0
// 625). x11..x13: how many loop iterations each wait took (0: never arrived, the program ends
// there).
#include "common.inc"
.global _start
_start:
    mrs x0, CurrentEL
    cmp x0, #8
    b.ne 1f
    ldr x0, =vec
    msr vbar_el2, x0
    ldr x0, =((1 << 31) | (1 << 4)) // HCR_EL2.RW, IMO
    msr hcr_el2, x0
    b 2f
1:  ldr x0, =vec
    msr vbar_el1, x0
2:  isb
    mov x9, #0
    ldr x1, =0x080A0014         // GICR_WAKER, read only
    ldr w10, [x1]

    mov x0, #1
    msr s3_0_c12_c12_5, x0      // ICC_SRE_EL1.SRE
    isb
    ldr x1, =0x08000000
    mov w0, #0x12               // GICD_CTLR: ARE, EnableGrp1
    str w0, [x1]
    mov w0, #-1
    str w0, [x1, #0x84]         // GICD_IGROUPR1: SPIs 32..63 in Group 1
    ldr x1, =0x080B0000         // CPU 0's SGI_base
    str w0, [x1, #0x80]         // GICR_IGROUPR0: all Group 1
    ldr w0, =0x80808080
    str w0, [x1, #0x400]        // GICR_IPRIORITYR0: SGIs 0..3
    str w0, [x1, #0x414]        // GICR_IPRIORITYR5: PPIs 20..23
    str w0, [x1, #0x41C]        // GICR_IPRIORITYR7: PPIs 28..31
    ldr w0, =((1 << 1) | (1 << 23) | (1 << 30))
    str w0, [x1, #0x100]        // GICR_ISENABLER0
    mov x0, #0xff
    msr s3_0_c4_c6_0, x0        // ICC_PMR_EL1
    mov x0, #1
    msr s3_0_c12_c12_7, x0      // ICC_IGRPEN1_EL1
    isb
    msr daifclr, #2

    // An SGI to itself: INTID 1, TargetList 1 (Aff3.Aff2.Aff1 0).
    ldr x0, =((1 << 24) | 1)
    msr s3_0_c12_c11_5, x0      // ICC_SGI1R_EL1
    isb
    mov x11, #0
3:  add x11, x11, #1
    tbnz x9, #1, 4f
    cmp x11, #1000
    b.lo 3b
    mov x11, #0
    b end
4:
    // The PMU's overflow.
    ldr x0, =((1 << 27) | 0x08) // PMEVTYPER0_EL0: NSH, INST_RETIRED
    msr pmevtyper0_el0, x0
    ldr x0, =0xfffffff0
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    msr pmcntenset_el0, x0
    msr pmcr_el0, x0            // E
    mov x12, #0
5:  add x12, x12, #1
    tbnz x9, #23, 6f
    cmp x12, #1000
    b.lo 5b
    mov x12, #0
    b end
6:
    // The EL1 physical timer.
    mov x0, #625
    msr cntp_tval_el0, x0
    mov x0, #1
    msr cntp_ctl_el0, x0
    mov x13, #0
7:  add x13, x13, #1
    tbnz x9, #30, end
    ldr x0, =1000000
    cmp x13, x0
    b.lo 7b
    mov x13, #0
end:
    msr daifset, #2
    mrs x0, CurrentEL
    cmp x0, #8
    ldr x0, =PSCI_SYSTEM_OFF
    b.eq 8f
    hvc #0
8:  smc #0

handler:
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mov x0, #1
    lsl x0, x0, x21
    orr x9, x9, x0
    cmp x21, #23
    b.ne 1f
    msr pmcr_el0, xzr           // the PMU stops, its overflow flag cleared
    mrs x0, pmovsclr_el0
    msr pmovsclr_el0, x0
1:  cmp x21, #30
    b.ne 2f
    msr cntp_ctl_el0, xzr       // the timer stops
2:  msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    isb
    eret

vectors vec, handler
