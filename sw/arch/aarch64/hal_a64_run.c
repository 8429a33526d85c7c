/*
 * hal_a64_run.c - the HAL's run on AArch64 (hal_a64.h): a piece of work is code that runs. The
 * work's instruction count is retired by a loop (el0.S) at the work's Exception level: at EL0
 * entered by ERET and left by its final SVC #0, which is one of the count; at EL1 called, its
 * final RET one of the count. Every other part of a hal_work (cycles, events, trace bytes, the
 * trigger) is what real code cannot be told to produce: it is ignored, and the PMU counts what
 * the loop and the software around it execute.
 */
#include "hal_a64.h"

#include "a64.h"

extern const char __stack_el0_top[];

typedef struct work_code {
    const char *one, *two, *even, *odd;
} work_code;

static const work_code el0_loop = {a64_work_el0_one, a64_work_el0_two, a64_work_el0_even,
                                   a64_work_el0_odd};
static const work_code el1_loop = {a64_work_el1_one, a64_work_el1_two, a64_work_el1_even,
                                   a64_work_el1_odd};

/* Where to enter the loop for n >= 1 instructions, and its iterations k (a64.h). */
static uint64_t entry_for(const work_code *c, uint64_t n, uint64_t *k)
{
    *k = 1;
    if (n == 1)
        return (uint64_t)(uintptr_t)c->one;
    if (n == 2)
        return (uint64_t)(uintptr_t)c->two;
    if (n & 1) {
        *k = (n - 1) / 2;
        return (uint64_t)(uintptr_t)c->odd;
    }
    *k = (n - 2) / 2;
    return (uint64_t)(uintptr_t)c->even;
}

static unsigned current_el(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, CurrentEL" : "=r"(v));
    return (unsigned)(v >> 2) & 3;
}

hal_status hal_a64_run(void *ctx, const hal_work *work)
{
    (void)ctx;
    if (!work || work->el > current_el())
        return HAL_INVALID;
    if (!work->instructions)
        return HAL_OK;
    uint64_t k;
    if (work->el == 0) {
        uint64_t entry = entry_for(&el0_loop, work->instructions, &k);
        (void)a64_call_el0(entry, k, (uint64_t)(uintptr_t)__stack_el0_top);
    } else {
        uint64_t entry = entry_for(&el1_loop, work->instructions, &k);
        void (*loop)(uint64_t) = (void (*)(uint64_t))(uintptr_t)entry;
        loop(k);
    }
    return HAL_OK;
}

uint64_t hal_a64_call_el0(uint64_t (*fn)(uint64_t), uint64_t arg)
{
    return a64_call_el0((uint64_t)(uintptr_t)fn, arg, (uint64_t)(uintptr_t)__stack_el0_top);
}
