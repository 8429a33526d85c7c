// ete_oslock.S - the PE's OS Lock controls the trace unit (TRCOSLSR.OSLM = 0b100; D24.3.27
// OSLAR_EL1, D24.3.28 OSLSR_EL1): with the buffer on and the unit programmed as etm4x does
// (ete.inc), the program takes the OS Lock (OSLAR_EL1 = 1) and enables the unit while it holds
// it, runs a loop, disables the unit and looks at the buffer; then it releases the lock, enables
// the unit again, runs the same loop and ends the capture (test_a64_ete.cpp, A64Ete.*OsLock*).
//   x19 OSLSR_EL1 out of reset        x20 OSLSR_EL1 with the lock taken
//   x21 TRCOSLSR with the lock        x22 TRCSTATR after the enable, with the lock
//   x13 TRBPTR_EL1 after the locked window (a TSB CSYNC after the disable)
//   x10 OSLSR_EL1 released            x11 TRCOSLSR released
//   x12 TRCSTATR after the enable, released
//   x25, x24, x23: TRBPTR_EL1, TRBSR_EL1, TRBTRG_EL1 at the end (ete_trbe_off)
#include "common.inc"
#include "ete.inc"
#define BUF 0x40100000
#define LIMIT 0x40140000
#define VICTLR 0x201                // EVENT TRUE, SSSTATUS started, every EL traced
.global _start
_start:
    mrs x19, oslsr_el1              // locked out of reset: 0xA
    trbe_fill_on BUF, LIMIT
    ete_setup VICTLR                // releases the lock, as etm4_enable_hw does

    mov x0, #1
    msr oslar_el1, x0               // etm4_os_lock: the lock taken
    isb
    mrs x20, oslsr_el1
    mrs x21, TRCOSLSR
locked_on:
    msr TRCPRGCTLR, x0              // TRCPRGCTLR.EN = 1 while the lock is held
    isb
    mrs x22, TRCSTATR
    mov x1, #100
locked_loop:
    subs x1, x1, #1
    b.ne locked_loop
    bl func
    msr TRCPRGCTLR, xzr
    isb
    ete_wait_idle 1
    hint #0x12                      // TSB CSYNC
    dsb nsh
    mrs x13, TRBPTR_EL1             // nothing was written

    msr oslar_el1, xzr              // etm4_os_unlock
    isb
    mrs x10, oslsr_el1
    mrs x11, TRCOSLSR
    mov x0, #1
ete_on:
    msr TRCPRGCTLR, x0
enable_isb:
    isb
    mrs x12, TRCSTATR
    mov x1, #100
loop:
    subs x1, x1, #1
    b.ne loop
    bl func
    mov x9, #4
    tbnz x9, #2, done
    nop
done:
    nop
ete_off:
    ete_trbe_off
    system_off

func:
    add x8, x8, #1
    ret
