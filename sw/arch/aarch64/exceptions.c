/*
 * exceptions.c - what the vectors call (a64.h): the IRQ entry, the end of an EL0 call, the
 * fixups of the HAL's own accesses, and a report of anything else before the PE is turned off.
 */
#include "a64.h"

#include <stdio.h>

/* ESR_ELx.EC values (Arm ARM D24.2.40). */
#define EC_UNKNOWN     0x00u
#define EC_SVC64       0x15u
#define EC_SYS64       0x18u
#define EC_DABORT_LOW  0x24u
#define EC_DABORT_SAME 0x25u

enum { TYPE_SYNC = 0, TYPE_IRQ = 1 };
enum { GROUP_SP0 = 0, GROUP_SPX = 1, GROUP_LOWER64 = 2 };

static volatile uint32_t fixup_status; /* hal_status of the last fixed-up access */
static hal_irq_entry irq_entry;
static void *irq_arg;

extern const uint64_t __hal_fixup_start[], __hal_fixup_end[];

hal_status a64_fixup_take(void)
{
    hal_status s = (hal_status)fixup_status;
    fixup_status = HAL_OK;
    return s;
}

void a64_fixup_clear(void)
{
    fixup_status = HAL_OK;
}

void a64_set_irq_entry(hal_irq_entry entry, void *arg)
{
    irq_entry = entry;
    irq_arg = arg;
}

static uint64_t esr_of(unsigned el)
{
    uint64_t v;
    if (el == 2)
        __asm__ __volatile__("mrs %0, esr_el2" : "=r"(v));
    else
        __asm__ __volatile__("mrs %0, esr_el1" : "=r"(v));
    return v;
}

static uint64_t far_of(unsigned el)
{
    uint64_t v;
    if (el == 2)
        __asm__ __volatile__("mrs %0, far_el2" : "=r"(v));
    else
        __asm__ __volatile__("mrs %0, far_el1" : "=r"(v));
    return v;
}

static hal_status fixup_status_of(unsigned ec, unsigned el)
{
    switch (ec) {
    case EC_UNKNOWN: return HAL_UNDEFINED;
    case EC_SYS64: return el == 2 ? HAL_TRAP_EL2 : HAL_TRAP_EL1;
    case EC_DABORT_LOW:
    case EC_DABORT_SAME: return HAL_BUS_ERROR;
    default: return HAL_OK;
    }
}

/* A synchronous exception at a listed instruction: the status, and on to the next one. */
static int fixup(a64_frame *f, unsigned ec, unsigned el)
{
    hal_status s = fixup_status_of(ec, el);
    if (s == HAL_OK)
        return 0;
    for (const uint64_t *e = __hal_fixup_start; e < __hal_fixup_end; e++)
        if (*e == f->elr) {
            fixup_status = s;
            f->elr += 4;
            return 1;
        }
    return 0;
}

/* An IRQ: the HAL's entry with PSTATE.I set (the exception masked it), the fixup status of the
 * interrupted code kept. */
static void irq(void)
{
    uint32_t kept = fixup_status;
    if (irq_entry)
        irq_entry(irq_arg);
    fixup_status = kept;
}

__attribute__((noreturn)) static void unexpected(const a64_frame *f, unsigned kind, uint64_t esr,
                                                 uint64_t far)
{
    char line[160];
    int n = snprintf(line, sizeof line,
                     "\npanic: unexpected exception at EL%u, vector offset 0x%03x: ESR 0x%lx "
                     "ELR 0x%lx SPSR 0x%lx FAR 0x%lx\n",
                     kind >> 4, (kind & 15) * 0x80, esr, f->elr, f->spsr, far);
    a64_console(line, n > 0 && (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    a64_exit(1);
}

void a64_exception(a64_frame *f, unsigned kind)
{
    unsigned el = kind >> 4, group = (kind >> 2) & 3, type = kind & 3;
    uint64_t esr = 0;
    if (group == GROUP_SPX || group == GROUP_LOWER64) {
        if (type == TYPE_IRQ && el == 1) {
            irq();
            return;
        }
        if (type == TYPE_SYNC) {
            esr = esr_of(el);
            unsigned ec = (unsigned)(esr >> 26) & 0x3F;
            if (el == 1 && group == GROUP_LOWER64 && ec == EC_SVC64 &&
                (esr & 0xFFFF) == A64_SVC_EL0_RETURN)
                a64_el0_return(f->x[0]);
            if (fixup(f, ec, el))
                return;
        }
    }
    unexpected(f, kind, esr, type == TYPE_SYNC ? far_of(el) : 0);
}
