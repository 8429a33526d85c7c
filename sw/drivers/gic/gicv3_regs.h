/*
 * gicv3_regs.h - the GICv3 register layout the sw/ GIC code uses, and the places of QEMU's
 * `virt` board (GIC architecture specification IHI0069, 12.8 to 12.11; QEMU hw/arm/virt.c).
 * Shared by drivers/gic (the software) and hal/hal_core.c (its small GIC for the tests).
 */
#ifndef PMTRACE_SW_GICV3_REGS_H
#define PMTRACE_SW_GICV3_REGS_H

/* QEMU virt: distributor, redistributors (one 128 KiB RD_base + SGI_base pair per CPU). */
#define SW_VIRT_GICD_BASE 0x08000000u
#define SW_VIRT_GICR_BASE 0x080A0000u
/* PPIs of the PE: PMUIRQ (Arm BSA: INTID 23) and TRBIRQ (configurable; default 22). */
#define SW_PMU_INTID      23u
#define SW_TRBE_INTID     22u

/* Distributor (GICD_*), offsets from the distributor base. */
#define SW_GICD_CTLR            0x0000u
#define SW_GICD_TYPER           0x0004u
#define SW_GICD_IIDR            0x0008u
#define SW_GICD_PIDR2           0xFFE8u
#define SW_GICD_CTLR_ENABLE_G1  (1u << 0) /* EnableGrp1 (EnableGrp1NS seen from Non-secure) */
#define SW_GICD_CTLR_ENABLE_G1A (1u << 1) /* EnableGrp1A, Non-secure view with two states */
#define SW_GICD_CTLR_ARE_NS     (1u << 4)
#define SW_GICD_CTLR_RWP        (1u << 31)

/* Redistributor RD_base frame. */
#define SW_GICR_CTLR                  0x0000u
#define SW_GICR_IIDR                  0x0004u
#define SW_GICR_TYPER                 0x0008u /* 64-bit */
#define SW_GICR_WAKER                 0x0014u
#define SW_GICR_PIDR2                 0xFFE8u
#define SW_GICR_TYPER_LAST            (1u << 4)
#define SW_GICR_WAKER_PROCESSOR_SLEEP (1u << 1)
#define SW_GICR_WAKER_CHILDREN_ASLEEP (1u << 2)
/* Redistributor SGI_base frame, at RD_base + 64 KiB. */
#define SW_GICR_SGI_BASE              0x10000u
#define SW_GICR_IGROUPR0              0x0080u
#define SW_GICR_ISENABLER0            0x0100u
#define SW_GICR_ICENABLER0            0x0180u
#define SW_GICR_ISPENDR0              0x0200u
#define SW_GICR_ICPENDR0              0x0280u
#define SW_GICR_ISACTIVER0            0x0300u
#define SW_GICR_ICACTIVER0            0x0380u
#define SW_GICR_IPRIORITYR            0x0400u /* 32 bytes, one per INTID 0..31 */
#define SW_GICR_ICFGR0                0x0C00u
#define SW_GICR_ICFGR1                0x0C04u
#define SW_GICR_IGRPMODR0             0x0D00u
#define SW_GICR_FRAME_SIZE            0x20000u

/* CPU interface (ICC_*_EL1) fields. */
#define SW_ICC_CTLR_EOIMODE   (1u << 1)
#define SW_ICC_SRE_SRE        (1u << 0)
#define SW_ICC_IGRPEN1_EN     (1u << 0)
/* INTID 1023: no pending interrupt (ICC_IAR1_EL1, ICC_HPPIR1_EL1). */
#define SW_GIC_INTID_SPURIOUS 1023u
#define SW_GIC_IDLE_PRIORITY  0xFFu

#endif
