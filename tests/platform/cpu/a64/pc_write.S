// PC_WRITE_RETIRED against BR_RETIRED over a loop of known shape (counter 0 PC_WRITE_RETIRED,
// counter 1 BR_RETIRED). Each of ITERATIONS iterations executes cbz (not taken), b.eq (not
// taken), b (taken), bl and ret (taken), and b.ne back to the loop (taken but in the last
// iteration): 4 * ITERATIONS - 1 Software changes of the PC taken, 6 * ITERATIONS branches.
// x10, x11: the counters.
#include "common.inc"
#define ITERATIONS 10
.global _start
_start:
    mov x2, #ITERATIONS
    mov x3, #1
    mov x0, #0x0C               // PC_WRITE_RETIRED
    msr pmevtyper0_el0, x0
    mov x0, #0x21               // BR_RETIRED
    msr pmevtyper1_el0, x0
    mov x0, #3
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0
loop:
    cbz x3, 1f                  // not taken
    cmp x3, #2
    b.eq 1f                     // not taken
    b 2f                        // taken
1:  nop
2:  bl leaf
    subs x2, x2, #1
    b.ne loop
    msr pmcr_el0, xzr
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    system_off
leaf:
    ret
