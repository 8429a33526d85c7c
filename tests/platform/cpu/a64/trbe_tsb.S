// TSB CSYNC (D6.6.1, RJQDJD): the Trace Buffer Unit collects trace into TRBIDR_EL1.Align-sized
// units (64 bytes here) and writes each when complete; TSB CSYNC writes what it holds. The
// buffer [BUF, BUF + 64 KiB) is enabled (Fill mode, TM Ignore) before the stand-in trace unit
// starts; the program waits (a loop of 2 x 40,000 instructions) while the unit sends its
// bytes, prohibits trace, and reads TRBPTR_EL1 before (x20) and after (x21) TSB CSYNC.
#include "common.inc"
#include "trbe.inc"
#define BUF 0x40100000
#define LIMIT 0x40110000
.global _start
_start:
    ldr x1, =BUF
    msr TRBBASER_EL1, x1
    msr TRBPTR_EL1, x1
    msr TRBSR_EL1, xzr
    mov x0, #3                  // E1TRE, E0TRE
    msr TRFCR_EL1, x0
    isb
    ldr x0, =(LIMIT | (3 << 3) | 1) // TM Ignore, FM Fill, E
    msr TRBLIMITR_EL1, x0
    isb
    ldr x0, =40000
1:  subs x0, x0, #1
    b.ne 1b
    msr TRFCR_EL1, xzr
    isb
    mrs x20, TRBPTR_EL1
    hint #0x12                  // TSB CSYNC
    dsb nsh
    mrs x21, TRBPTR_EL1
    msr TRBLIMITR_EL1, xzr
    isb
    system_off
