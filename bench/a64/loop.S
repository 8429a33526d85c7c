// loop.S - the benchmark program of bench_a64: a loop of 10^9 instructions (125,000,000
// iterations of 8: a load, five ALU instructions, a branch; with -DSTORES one ALU instruction is
// a store, with -DTWO_BLOCKS a B to the next instruction: two blocks), run with and without the
// PMU counting it. Bare metal, entered at EL1 at 0x40080000
// with the MMU off and D, A, I, F masked, as QEMU's virt boot loader does.
//
// With -DKERNELS the loop is replaced by a call of kernels_run (bench/a64/kernels.c: compiled C,
// CRC-32, sorting, an interpreter, calls through pointers, string loops) on a stack below the
// image, everything else as for the loop: the mode word, the PMU, the trace, the end checks. The
// image holds the C code's .bss, zeros (bench/CMakeLists.txt).
//
// The word `mode` (image offset 8) selects what runs around the loop, set by the benchmark:
//   bits 1:0  0: the loop only; 1: PMCCNTR counts CPU_CYCLES and event counter 0 INST_RETIRED
//             with an overflow interrupt every 10^6 instructions (PPI 23 through the GICv3);
//             2: as 1, and counters 1 and 2 count MEM_ACCESS and BR_RETIRED
//   bit 2     the result also goes to the PL011 ("bench ok" or "bench FAIL <x19 in hex>")
//   bit 3     no loop and no PMU: the program's start and end alone (to time start-up)
//   bit 4     the trace unit (FEAT_ETE) traces the loop into the Trace Buffer Unit, Fill mode,
//             programmed as Linux does (tests/platform/cpu/a64/ete.inc); x25 TRBPTR_EL1 and x26
//             TRBSR_EL1 at the end (WRAP: the buffer filled, TRBPTR_EL1 back at its base)
// The program checks its own result and ends with PSCI SYSTEM_OFF; registers at the end:
//   x19  0 when every check passed, else the number of the first that failed
//   x20  overflow interrupts taken (1000 with the PMU; -DKERNELS: one per 10^6 instructions
//        counted, check 5 below)
//   x2   the sum of the loaded values; x4 the index; x6 3 * iterations
//   x21  PMCCNTR_EL0, x22 PMEVCNTR0 (INST_RETIRED), x23 PMEVCNTR1 (MEM_ACCESS),
//        x24 PMEVCNTR2 (BR_RETIRED) after the loop (mode 1 and 2)
#include "common.inc"
#include "ete.inc"

#define ITERATIONS 125000000
#define SUM 31937469280          // sum over k < ITERATIONS of k mod 512
#define REARM 0xfff0bdc0         // 2^32 - 10^6
#define TABLE 0x40400000         // 512 doublewords, table[i] = i (pages of their own)
#define OUT 0x40500000           // the stores' table (-DSTORES)
#define UART 0x09000000
#define TRACE_BUF 0x40600000     // the trace buffer (bit 4): 9 MiB
#define TRACE_LIMIT 0x40F00000
#define STACK_TOP 0x40080000     // -DKERNELS: the C code's stack, below the image (512 KiB)

.global _start
_start:
    b start
    .balign 8
mode:
    .quad 0

start:
    ldr x0, =vec
    msr vbar_el1, x0
#ifdef KERNELS
    ldr x0, =STACK_TOP
    mov sp, x0
#endif
    // table[i] = i
    ldr x1, =TABLE
    mov x4, #0
1:  str x4, [x1, x4, lsl #3]
    add x4, x4, #1
    cmp x4, #512
    b.ne 1b
    ldr x9, mode
    mov x19, #0
    mov x20, #0
    tbnz x9, #3, done
    and x10, x9, #3
    cbz x10, run

    gic_enable_ppi 23
    // Counter 0: INST_RETIRED (0x08) from 2^32 - 10^6, interrupt on overflow; PMCCNTR.
    mov x0, #0x08
    msr pmevtyper0_el0, x0
    mov x0, #(REARM & 0xffff)
    movk x0, #(REARM >> 16), lsl #16
    msr pmevcntr0_el0, x0
    mov x0, #1
    msr pmintenset_el1, x0
    mov w0, #(1 << 31) | 1
    cmp x10, #2
    b.ne 2f
    mov x1, #0x13               // MEM_ACCESS
    msr pmevtyper1_el0, x1
    mov x1, #0x21               // BR_RETIRED
    msr pmevtyper2_el0, x1
    msr pmevcntr1_el0, xzr
    msr pmevcntr2_el0, xzr
    orr x0, x0, #6
2:  msr pmcntenset_el0, x0
    msr daifclr, #2             // unmask IRQ
    mov x0, #(1 << 2) | 1       // PMCR_EL0: C (PMCCNTR from 0), E
    msr pmcr_el0, x0

run:
    tbz x9, #4, 4f
    trbe_fill_on TRACE_BUF, TRACE_LIMIT
    ete_setup 0x201
    mov x0, #1
    msr TRCPRGCTLR, x0
    isb
4:
#ifdef KERNELS
    mov x26, x9                 // the mode, kept across the call (callee-saved registers)
    mov x27, x10
    bl kernels_run              // w0: 0, else the number of the kernel check that failed
    mov x9, x26
    mov x10, x27
    mov w2, w0
#else
    ldr x0, =ITERATIONS
    ldr x1, =TABLE
    ldr x7, =OUT
    mov x2, #0
    mov x4, #0
    mov x5, #0
    mov x6, #0
    .balign 64
loop:
    ldr x3, [x1, x4, lsl #3]
    add x2, x2, x3
#if defined(STORES)
    str x2, [x7, x4, lsl #3]
#elif defined(TWO_BLOCKS)
    b 7f                        // the loop in two blocks (a branch to the next instruction)
7:
#else
    eor x5, x5, x2
#endif
    add x4, x4, #1
    and x4, x4, #511
    add x6, x6, #3
    subs x0, x0, #1
    b.ne loop
#endif

    tbz x9, #4, 5f
    ete_trbe_off
    mov x26, x24                // TRBSR_EL1 (x24 is the PMU's below)
5:
    // The PMU stops, the counts are kept, the interrupt is masked.
    cbz x10, check
    msr daifset, #2
    msr pmcr_el0, xzr
    mrs x21, pmccntr_el0
    mrs x22, pmevcntr0_el0
    mrs x23, pmevcntr1_el0
    mrs x24, pmevcntr2_el0

check:
#ifdef KERNELS
    mov x19, x2                 // the kernels' own checks (10 and up)
    cbnz x19, done
    // One overflow interrupt per 10^6 instructions counted: without the PMU none; with it at
    // least one (the kernels run about 3 x 10^8 instructions), and no overflow missed: the count
    // since the last re-arm (PMEVCNTR0_EL0 - REARM, modulo 2^32) below 10^6. The expected number,
    // floor(instructions counted / 10^6), the program cannot know (the compiler decides the
    // instructions); bench_a64 checks it against the CPU's count of instructions.
    mov x19, #5
    cbnz x10, 7f
    cbnz x20, done
    b 8f
7:  cbz x20, done
    mov w8, #(REARM & 0xffff)
    movk w8, #(REARM >> 16), lsl #16
    sub w8, w22, w8
    mov w3, #(1000000 & 0xffff)
    movk w3, #(1000000 >> 16), lsl #16
    cmp w8, w3
    b.hs done
8:  mov x19, #0
#else
    mov x19, #1
    ldr x8, =SUM
    cmp x2, x8
    b.ne done
    mov x19, #2
    cmp x4, #(ITERATIONS % 512)
    b.ne done
    mov x19, #3
    ldr x8, =ITERATIONS * 3
    cmp x6, x8
    b.ne done
#ifdef STORES
    mov x19, #4                 // the last store: the final sum at index ITERATIONS % 512 - 1
    ldr x8, [x7, #((ITERATIONS % 512) - 1) * 8]
    cmp x8, x2
    b.ne done
#endif
    mov x19, #5                 // 1000 overflow interrupts with the PMU, none without
    mov x8, #0
    cbz x10, 3f
    mov x8, #1000
3:  cmp x20, x8
    b.ne done
    mov x19, #0
#endif

done:
    tbz x9, #2, off
    ldr x1, =UART
    adr x3, ok_text
    cbz x19, 4f
    adr x3, fail_text
4:  ldrb w0, [x3], #1
    cbz w0, 5f
    strb w0, [x1]
    b 4b
5:  cbz x19, 6f
    ubfx x0, x19, #4, #4        // x19 in two hex digits
    bl hex_digit
    and x0, x19, #15
    bl hex_digit
6:  mov w0, #'\n'
    strb w0, [x1]
off:
    system_off

// The hex digit x0 (0..15) to the PL011 at x1.
hex_digit:
    cmp x0, #10
    add x3, x0, #'0'
    add x0, x0, #('a' - 10)
    csel x0, x3, x0, lo
    strb w0, [x1]
    ret

// IRQ: the PMU's overflow (INTID 23) re-arms counter 0, clears its overflow flag, ends the
// interrupt and counts it. Anything else fails the run (x19 = 6). With -DKERNELS the interrupted
// C code's x11 and x12 are kept on its stack (x20 and x28 it does not use: -ffixed-x20/x28).
irq:
#ifdef KERNELS
    stp x11, x12, [sp, #-16]!
#endif
    mrs x11, s3_0_c12_c12_0     // ICC_IAR1_EL1
    cmp x11, #23
    b.ne bad
    mov x12, #(REARM & 0xffff)
    movk x12, #(REARM >> 16), lsl #16
    msr pmevcntr0_el0, x12
    mov x12, #1
    msr pmovsclr_el0, x12
    isb
    msr s3_0_c12_c12_1, x11     // ICC_EOIR1_EL1
    add x20, x20, #1
#ifdef KERNELS
    ldp x11, x12, [sp], #16
#endif
    eret
bad:
    mov x19, #6
    b done

ok_text:
    .asciz "bench ok"
fail_text:
    .asciz "bench FAIL "
    .balign 4

// Every vector but the IRQ from the current EL (entry 5) fails the run (x19 = 100 + entry).
unexpected:
    cmp x28, #5
    b.eq irq
    add x19, x28, #100
    b done

vectors vec, unexpected
