// A trace listener joins at a System register write (test_a64_trace.cpp, the Join tests): the
// write to PMSELR_EL0 is the first the PE model gets, after which the listener wants reports.
// Instructions run before it and the write itself are not the listener's; those from
// after_write on are. The write is in the middle of a range (first to join_br) that a listener
// attached from the start gets whole.
#include "common.inc"
.global _start
_start:
    mov x2, #0
start_br:
    b first
first:
    add x2, x2, #1
    add x2, x2, #1
write:
    msr pmselr_el0, x2
after_write:
    add x2, x2, #1
    add x2, x2, #1
join_br:
    b second
second:
    add x2, x2, #1
    ldr x0, =PSCI_SYSTEM_OFF
hvc_off:
    hvc #0
