// The Trace Buffer Unit driven as Linux's coresight-trbe does, in Fill mode: TRBBASER_EL1 and
// TRBPTR_EL1 at BUF, TRBLIMITR_EL1 = LIMIT, TM Ignore, FM Fill, E; trace allowed at EL1 and EL0
// (TRFCR_EL1). The platform's stand-in trace unit fills the 4 KiB; the buffer full management
// event raises TRBIRQ (PPI 22) and the program, waiting in WFI, takes it. The handler keeps the
// INTID (x21), TRBSR_EL1 (x22), TRBPTR_EL1 (x23) and TRBLIMITR_EL1 (x24), then prohibits trace,
// drains (TSB CSYNC, DSB), disables the unit, clears TRBSR_EL1 and ends the interrupt.
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
    mov x0, #3                  // E1TRE, E0TRE
    msr TRFCR_EL1, x0
    isb
    ldr x0, =(LIMIT | (3 << 3) | 1) // TM Ignore (0b11), FM Fill (0b00), E
    msr TRBLIMITR_EL1, x0
    isb
    msr daifclr, #2
wait:
    wfi
    cbz x27, wait
    system_off

handler:
    mrs x21, s3_0_c12_c12_0     // ICC_IAR1_EL1
    mrs x22, TRBSR_EL1
    mrs x23, TRBPTR_EL1
    mrs x24, TRBLIMITR_EL1
    msr TRFCR_EL1, xzr
    isb
    hint #0x12                  // TSB CSYNC
    dsb nsh
    msr TRBLIMITR_EL1, xzr
    isb
    msr TRBSR_EL1, xzr
    msr s3_0_c12_c12_1, x21     // ICC_EOIR1_EL1
    add x27, x27, #1
    eret

vectors vec, handler
