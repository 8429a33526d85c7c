// The TRBE Profiling exception (FEAT_TRBE_EXC). Firmware leaves MDCR_EL3.TRBEE = 0b01 and
// TRFCR_EL2.EE = 0b01; the program sets TRFCR_EL1.EE = 0b11 and KE = 1 (with E1TRE, E0TRE) and
// runs the Trace Buffer Unit in Fill mode as trbe_fill.S does, with TRBIRQ's PPI (22) enabled in
// the GIC and PSTATE.I clear, and spins on x27 (not WFI) at `spin` with PSTATE.PM 0. The buffer
// full management event sets TRBSR_EL1.IRQ. The handler keeps ESR_EL1 (x20), ELR_EL1 (x21),
// SPSR_EL1 (x22), TRBSR_EL1 (x23), the vector entry (x25), then prohibits trace, drains,
// disables the unit, clears TRBSR_EL1 and returns (x27: how many taken). x1 `spin`.
#include "common.inc"
#include "trbe.inc"
#define BUF 0x40100000
#define LIMIT 0x40101000
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    gic_enable_ppi 22
    mov x27, #0
    ldr x1, =BUF
    msr TRBBASER_EL1, x1
    msr TRBPTR_EL1, x1
    msr TRBSR_EL1, xzr
    mov x0, #(3 | (3 << 8) | (1 << 10)) // E1TRE, E0TRE, EE = 0b11, KE
    msr TRFCR_EL1, x0
    isb
    ldr x0, =(LIMIT | (3 << 3) | 1) // TM Ignore (0b11), FM Fill (0b00), E
    msr TRBLIMITR_EL1, x0
    isb
    msr daifclr, #2
spin:
    cbz x27, spin
    adr x1, spin
    system_off

handler:
    mrs x20, esr_el1
    mrs x21, elr_el1
    mrs x22, spsr_el1
    mrs x23, TRBSR_EL1
    mov x25, x28
    msr TRFCR_EL1, xzr
    isb
    hint #0x12                  // TSB CSYNC
    dsb nsh
    msr TRBLIMITR_EL1, xzr
    isb
    msr TRBSR_EL1, xzr
    add x27, x27, #1
    eret

vectors vec, handler
