/*
 * hal_a64.c - the HAL's table on AArch64 bare metal (hal_a64.h): barriers, MMIO, memory, PSTATE.I,
 * WFI, the IRQ entry and the console. System registers are in hal_a64_sysreg.c, the work in
 * hal_a64_run.c.
 */
#include "hal_a64.h"

#include "a64.h"

#include <string.h>

static void a64_isb(void *ctx)
{
    (void)ctx;
    __asm__ __volatile__("isb" : : : "memory");
}

static void a64_dsb(void *ctx)
{
    (void)ctx;
    __asm__ __volatile__("dsb sy" : : : "memory");
}

/* TSB CSYNC is HINT #18 (C6.2.380): a NOP without FEAT_TRF, so it assembles for any Armv8. */
static void a64_tsb_csync(void *ctx)
{
    (void)ctx;
    __asm__ __volatile__("hint #18" : : : "memory");
}

/* A device access of 1, 2, 4 or 8 bytes, naturally aligned (with the MMU off every data access
 * is Device-nGnRnE and an unaligned one an Alignment fault: refused before it is made). An
 * External abort on it (EC 0x24/0x25) is fixed up into HAL_BUS_ERROR: on real hardware a hole
 * and an error response both give DFSC 0b010000, so HAL_NO_DEVICE is never answered here. */
static bool device_access_ok(uint64_t pa, unsigned size)
{
    return (size == 1 || size == 2 || size == 4 || size == 8) && (pa & (size - 1)) == 0;
}

#define A64_LOAD_(insn)                                                                            \
    __asm__ __volatile__("1: " insn "\n\t" A64_FIXUP("1b") : "+r"(v) : "r"(p) : "memory")
#define A64_STORE_(insn)                                                                           \
    __asm__ __volatile__("1: " insn "\n\t" A64_FIXUP("1b") : : "r"(value), "r"(p) : "memory")

static hal_status a64_mmio_read(void *ctx, uint64_t pa, unsigned size, uint64_t *value)
{
    uint64_t v = 0;
    volatile void *p = (volatile void *)(uintptr_t)pa;
    (void)ctx;
    if (!value)
        return HAL_INVALID;
    *value = 0;
    if (!device_access_ok(pa, size))
        return HAL_BUS_ERROR;
    a64_fixup_clear();
    switch (size) {
    case 1: A64_LOAD_("ldrb %w0, [%1]"); break;
    case 2: A64_LOAD_("ldrh %w0, [%1]"); break;
    case 4: A64_LOAD_("ldr %w0, [%1]"); break;
    default: A64_LOAD_("ldr %x0, [%1]"); break;
    }
    hal_status s = a64_fixup_take();
    *value = s == HAL_OK ? v : 0;
    return s;
}

static hal_status a64_mmio_write(void *ctx, uint64_t pa, unsigned size, uint64_t value)
{
    volatile void *p = (volatile void *)(uintptr_t)pa;
    (void)ctx;
    if (!device_access_ok(pa, size))
        return HAL_BUS_ERROR;
    a64_fixup_clear();
    switch (size) {
    case 1: A64_STORE_("strb %w0, [%1]"); break;
    case 2: A64_STORE_("strh %w0, [%1]"); break;
    case 4: A64_STORE_("str %w0, [%1]"); break;
    default: A64_STORE_("str %x0, [%1]"); break;
    }
    return a64_fixup_take();
}

/* Normal memory at a virtual address: with the MMU off, the physical address. */
static hal_status a64_mem_read(void *ctx, uint64_t va, void *dst, size_t n)
{
    (void)ctx;
    if (!dst || va + n < va)
        return HAL_INVALID;
    memcpy(dst, (const void *)(uintptr_t)va, n);
    return HAL_OK;
}

/* PSTATE.I through DAIFSet/DAIFClr (C5.2.3: DAIF.I is bit 7). */
static bool a64_irq_mask(void *ctx, bool masked)
{
    uint64_t daif;
    (void)ctx;
    __asm__ __volatile__("mrs %0, daif" : "=r"(daif));
    if (masked)
        __asm__ __volatile__("msr daifset, #2" : : : "memory");
    else
        __asm__ __volatile__("msr daifclr, #2" : : : "memory");
    return (daif & (1u << 7)) != 0;
}

/* WFI, unless nothing can wake the PE: the GIC CPU interface signals no Group 1 interrupt while
 * ICC_IGRPEN1_EL1.Enable is 0 (then false at once). A pending interrupt ends the WFI (D1.6.2,
 * masked or not); an unmasked one is then taken before this returns. */
static bool a64_wait_for_interrupt(void *ctx)
{
    uint64_t grpen = 0;
    if (hal_a64_sysreg_read(ctx, HAL_ICC_IGRPEN1_EL1, &grpen) != HAL_OK || !(grpen & 1))
        return false;
    __asm__ __volatile__("dsb sy\n\twfi" : : : "memory");
    return true;
}

static void a64_set_irq_entry_op(void *ctx, hal_irq_entry entry, void *arg)
{
    (void)ctx;
    a64_set_irq_entry(entry, arg);
}

static void a64_console_write(void *ctx, const char *text, size_t n)
{
    (void)ctx;
    a64_console(text, n);
}

static const hal_ops a64_ops = {
    hal_a64_sysreg_read,
    hal_a64_sysreg_write,
    a64_isb,
    a64_dsb,
    a64_tsb_csync,
    a64_mmio_read,
    a64_mmio_write,
    a64_mem_read,
    a64_irq_mask,
    a64_wait_for_interrupt,
    a64_set_irq_entry_op,
    hal_a64_run,
    a64_console_write,
};

static const hal a64_hal = {&a64_ops, NULL};

const hal *hal_a64(void)
{
    return &a64_hal;
}

unsigned hal_a64_entry_el(void)
{
    return (unsigned)a64_entry_el;
}

uint64_t hal_a64_dtb(void)
{
    return a64_boot_dtb;
}

void hal_a64_system_off(void)
{
    a64_system_off();
}
