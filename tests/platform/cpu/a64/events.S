// The events of executed code, counted over a loop of known shape. Counters: 0 MEM_ACCESS,
// 1 LD_RETIRED, 2 ST_RETIRED, 3 BR_RETIRED, 4 BR_IMMED_RETIRED, 5 BR_RETURN_RETIRED,
// 6 BR_IND_RETIRED, 7 INST_RETIRED (the test gives the PE 8 counters). Each of x2 = ITERATIONS
// iterations executes, in order:
//   ldr, str, ldp, stp        2 Memory-reading and 2 Memory-writing instructions
//   bl leaf -> ret            an immediate branch and a procedure return
//   blr x9 -> ret             an indirect branch and a procedure return
//   svc #0 -> b, eret         an exception: the vector's branch and the exception return
//   cbz x2 (not taken)        a conditional branch not taken
//   subs, b.ne loop           a conditional branch, taken but in the last iteration
// x10..x17 get the counters after the loop; x19, x20 PMCEID0_EL0, PMCEID1_EL0.
#include "common.inc"
#define ITERATIONS 10
.global _start
_start:
    ldr x0, =vec
    msr vbar_el1, x0
    ldr x1, =data
    adr x9, leaf
    mov x2, #ITERATIONS
    mov x0, #0x13
    msr pmevtyper0_el0, x0
    mov x0, #0x06
    msr pmevtyper1_el0, x0
    mov x0, #0x07
    msr pmevtyper2_el0, x0
    mov x0, #0x21
    msr pmevtyper3_el0, x0
    mov x0, #0x0d
    msr pmevtyper4_el0, x0
    mov x0, #0x0e
    msr pmevtyper5_el0, x0
    mov x0, #0x811d
    msr pmevtyper6_el0, x0
    mov x0, #0x08
    msr pmevtyper7_el0, x0
    mov x0, #0xff
    msr pmcntenset_el0, x0
    mov x0, #1
    msr pmcr_el0, x0            // E: counting starts; INST_RETIRED counts this MSR
loop:
    ldr x3, [x1]
    str x3, [x1, #8]
    ldp x4, x5, [x1]
    stp x4, x5, [x1, #16]
    bl leaf
    blr x9
    svc #0
    cbz x2, never
    subs x2, x2, #1
    b.ne loop
    msr pmcr_el0, xzr           // counting stops before this MSR retires
    mrs x10, pmevcntr0_el0
    mrs x11, pmevcntr1_el0
    mrs x12, pmevcntr2_el0
    mrs x13, pmevcntr3_el0
    mrs x14, pmevcntr4_el0
    mrs x15, pmevcntr5_el0
    mrs x16, pmevcntr6_el0
    mrs x17, pmevcntr7_el0
    mov x18, #ITERATIONS
    mrs x19, pmceid0_el0
    mrs x20, pmceid1_el0
never:
    system_off

leaf:
    ret

handler:                        // reached by the vector's branch; SVC's ELR is the next one
    eret

vectors vec, handler

.balign 16
data:
    .quad 1, 2, 3, 4
