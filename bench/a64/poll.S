// poll.S - the benchmark program of bench/counter_poll.sh: a bare-metal wait of 100 ms of the
// virtual count (CNTFRQ_EL0 / 10 ticks), polled as udelay and mdelay do (mrs, sub, cmp, b.lo),
// then PSCI SYSTEM_OFF. Entered at EL1 at 0x40080000, as QEMU's virt boot loader does.
#include "common.inc"
.global _start
_start:
    mrs x0, cntvct_el0
    mrs x3, cntfrq_el0
    mov x4, #10
    udiv x3, x3, x4
1:  mrs x1, cntvct_el0
    sub x2, x1, x0
    cmp x2, x3
    b.lo 1b
    system_off
