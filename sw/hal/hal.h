/*
 * hal.h - the hardware abstraction layer the sw/ drivers and apps are written against.
 *
 * A HAL is a table of functions (hal_ops) and the context they run on (struct hal). Drivers take
 * a `const hal *` and reach the hardware only through the inline wrappers below, so one binary
 * can hold several implementations (the core HAL of the tests, the platform's host-driven CPU,
 * later MRS/MSR on AArch64) and several PEs.
 *
 * Register field positions come from <pmtrace/pmt_regs.h> (PMT_MASK, PMT_GET, PMT_PUT) and the
 * encodings of the model's registers from its PMT_SYSREG_LIST: the one place they are written
 * down. Including the header needs no library: the sw/ code is C11 with libc only.
 *
 * The contract (sw/README.md "HAL contract"):
 * - sysreg_read/sysreg_write are MRS/MSR at the PE's current state. They never fail silently:
 *   an access that is UNDEFINED or trapped returns that status (and a read leaves *value 0), so
 *   a driver (and its tests) can see that it made an access it may not make.
 * - isb, dsb and tsb_csync are the barriers; tsb_csync is TSB CSYNC (the Trace Buffer Unit
 *   writes every byte it has accepted).
 * - mmio_read/mmio_write are naturally aligned 1, 2, 4 or 8-byte device accesses by physical
 *   address; mem_read copies normal memory (a trace buffer) at a virtual address of the running
 *   software.
 * - irq_mask sets PSTATE.I and returns the previous value. While unmasked, an interrupt the GIC
 *   signals is taken between two HAL calls: the HAL calls the registered entry (set_irq_entry)
 *   with PSTATE.I set, at the software's Exception level, and restores both afterwards. The entry
 *   acknowledges through ICC_IAR1_EL1 and ICC_EOIR1_EL1 (drivers/gic).
 * - wait_for_interrupt is WFI: it returns once an interrupt is pending (taking it first if
 *   unmasked), or at once, returning false, when nothing can wake the PE.
 * - run executes a piece of the workload (hal_work): retired instructions, cycles, other events
 *   and trace bytes, at the work's Exception level. Interrupts the work causes are taken where
 *   they occur (for the core HAL: at the exact event or byte that raises them).
 */
#ifndef PMTRACE_SW_HAL_H
#define PMTRACE_SW_HAL_H

#include <pmtrace/pmt_events.h>
#include <pmtrace/pmt_regs.h>
#include <pmtrace/pmt_trbe.h> /* TRBSR_EL1.EC, BSC and TRBLIMITR_EL1 mode values */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A system register encoding, packed as Linux's sys_reg(): op0 << 19 | op1 << 16 | CRn << 12 |
 * CRm << 8 | op2 << 5, the bits an MRS or MSR instruction holds. */
typedef uint32_t hal_sysreg;

#define HAL_SYSREG(op0, op1, crn, crm, op2)                                                        \
    ((hal_sysreg)(((uint32_t)(op0) << 19) | ((uint32_t)(op1) << 16) | ((uint32_t)(crn) << 12) |    \
                  ((uint32_t)(crm) << 8) | ((uint32_t)(op2) << 5)))
#define HAL_SYSREG_OP0(r) (((r) >> 19) & 0x3u)
#define HAL_SYSREG_OP1(r) (((r) >> 16) & 0x7u)
#define HAL_SYSREG_CRN(r) (((r) >> 12) & 0xFu)
#define HAL_SYSREG_CRM(r) (((r) >> 8) & 0xFu)
#define HAL_SYSREG_OP2(r) (((r) >> 5) & 0x7u)

/* HAL_<REG> for every register of the model's PMT_SYSREG_LIST: HAL_PMCR_EL0, HAL_TRBSR_EL1 ... */
#define HAL_SYSREG_ENUM_(id, op0, op1, crn, crm, op2)                                              \
    HAL_##id = HAL_SYSREG(op0, op1, crn, crm, op2),
enum hal_model_sysreg { PMT_SYSREG_LIST(HAL_SYSREG_ENUM_) HAL_MODEL_SYSREG_END_ };

/* The families: PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0 (n = 0..30). */
static inline hal_sysreg hal_pmevcntr(unsigned n)
{
    return HAL_SYSREG(3, 3, 14, 8 + ((n >> 3) & 3), n & 7);
}
static inline hal_sysreg hal_pmevtyper(unsigned n)
{
    return HAL_SYSREG(3, 3, 14, 12 + ((n >> 3) & 3), n & 7);
}

/* Registers outside the model that the drivers use, X(ID, op0, op1, CRn, CRm, op2): CurrentEL (EL
 * in bits [3:2]), MPIDR_EL1, ID_AA64DFR0_EL1 (PMUVer, TraceBuffer ...: PMT DFR0_*),
 * ID_AA64DFR1_EL1 (PMICNTR, EBEP ...: PMT DFR1_*) and the GICv3 CPU interface (GIC architecture
 * 12.2). HAL_CURRENTEL, HAL_ICC_PMR_EL1 ... */
/* clang-format off */
#define HAL_CPU_SYSREG_LIST(X) \
    X(CURRENTEL,       3, 0,  4,  2, 2) X(MPIDR_EL1,       3, 0,  0,  0, 5) \
    X(ID_AA64DFR0_EL1, 3, 0,  0,  5, 0) X(ID_AA64DFR1_EL1, 3, 0,  0,  5, 1) \
    X(ICC_PMR_EL1,     3, 0,  4,  6, 0) X(ICC_DIR_EL1,     3, 0, 12, 11, 1) \
    X(ICC_RPR_EL1,     3, 0, 12, 11, 3) X(ICC_IAR1_EL1,    3, 0, 12, 12, 0) \
    X(ICC_EOIR1_EL1,   3, 0, 12, 12, 1) X(ICC_HPPIR1_EL1,  3, 0, 12, 12, 2) \
    X(ICC_BPR1_EL1,    3, 0, 12, 12, 3) X(ICC_CTLR_EL1,    3, 0, 12, 12, 4) \
    X(ICC_SRE_EL1,     3, 0, 12, 12, 5) X(ICC_IGRPEN1_EL1, 3, 0, 12, 12, 7)
/* clang-format on */
enum hal_cpu_sysreg { HAL_CPU_SYSREG_LIST(HAL_SYSREG_ENUM_) HAL_CPU_SYSREG_END_ };

/* The result of a HAL call. */
typedef enum hal_status {
    HAL_OK = 0,
    HAL_UNDEFINED = 1,  /* the instruction is UNDEFINED at the current state (also: a system
                           register nothing in this PE implements) */
    HAL_TRAP_EL1 = 2,   /* the access traps to EL1 */
    HAL_TRAP_EL2 = 3,   /* ... to EL2 */
    HAL_TRAP_EL3 = 4,   /* ... to EL3 */
    HAL_NO_DEVICE = 5,  /* MMIO or memory: nothing at this address (a decode error) */
    HAL_BUS_ERROR = 6,  /* MMIO or memory: an error response (bad size, not permitted) */
    HAL_INVALID = 7,    /* a bad argument to the HAL itself */
    HAL_UNSUPPORTED = 8 /* this HAL does not implement the call */
} hal_status;

const char *hal_status_name(hal_status status);

/* An event the work generates, with how many times. */
typedef struct hal_event_count {
    uint16_t event; /* a PMU common event number (PMT_EV_*) */
    uint64_t count;
} hal_event_count;

#define HAL_NO_TRIGGER SIZE_MAX

/* A piece of the workload. The HAL delivers its parts in this order: instructions, cycles,
 * events, trace bytes (a workload that wants them interleaved gives small pieces). */
typedef struct hal_work {
    uint8_t el;                    /* the Exception level the work runs at (0: user space) */
    uint64_t instructions;         /* retired instructions (INST_RETIRED) */
    uint64_t cycles;               /* processor cycles (CPU_CYCLES) */
    const hal_event_count *events; /* other events */
    size_t num_events;
    const uint8_t *trace; /* the trace unit's output while the work runs (discarded where trace
                             is prohibited: TRFCR_ELx.ExTRE) */
    size_t trace_len;
    size_t trigger_at; /* a Detected Trigger from the trace unit after this many trace bytes;
                          HAL_NO_TRIGGER for none */
} hal_work;

/* The interrupt entry: what the PE runs when it takes an IRQ exception. */
typedef void (*hal_irq_entry)(void *arg);

typedef struct hal_ops {
    hal_status (*sysreg_read)(void *ctx, hal_sysreg reg, uint64_t *value);
    hal_status (*sysreg_write)(void *ctx, hal_sysreg reg, uint64_t value);
    void (*isb)(void *ctx);
    void (*dsb)(void *ctx);
    void (*tsb_csync)(void *ctx);
    hal_status (*mmio_read)(void *ctx, uint64_t pa, unsigned size, uint64_t *value);
    hal_status (*mmio_write)(void *ctx, uint64_t pa, unsigned size, uint64_t value);
    hal_status (*mem_read)(void *ctx, uint64_t va, void *dst, size_t n);
    bool (*irq_mask)(void *ctx, bool masked);
    bool (*wait_for_interrupt)(void *ctx);
    void (*set_irq_entry)(void *ctx, hal_irq_entry entry, void *arg);
    hal_status (*run)(void *ctx, const hal_work *work);
    void (*console_write)(void *ctx, const char *text, size_t n); /* may be NULL */
} hal_ops;

typedef struct hal {
    const hal_ops *ops;
    void *ctx;
} hal;

static inline hal_status hal_sysreg_read(const hal *h, hal_sysreg reg, uint64_t *value)
{
    return h->ops->sysreg_read(h->ctx, reg, value);
}
static inline hal_status hal_sysreg_write(const hal *h, hal_sysreg reg, uint64_t value)
{
    return h->ops->sysreg_write(h->ctx, reg, value);
}
static inline void hal_isb(const hal *h)
{
    h->ops->isb(h->ctx);
}
static inline void hal_dsb(const hal *h)
{
    h->ops->dsb(h->ctx);
}
static inline void hal_tsb_csync(const hal *h)
{
    h->ops->tsb_csync(h->ctx);
}
static inline hal_status hal_mmio_read32(const hal *h, uint64_t pa, uint32_t *value)
{
    uint64_t v = 0;
    hal_status s = h->ops->mmio_read(h->ctx, pa, 4, &v);
    *value = (uint32_t)v;
    return s;
}
static inline hal_status hal_mmio_read64(const hal *h, uint64_t pa, uint64_t *value)
{
    return h->ops->mmio_read(h->ctx, pa, 8, value);
}
static inline hal_status hal_mmio_write32(const hal *h, uint64_t pa, uint32_t value)
{
    return h->ops->mmio_write(h->ctx, pa, 4, value);
}
static inline hal_status hal_mmio_write64(const hal *h, uint64_t pa, uint64_t value)
{
    return h->ops->mmio_write(h->ctx, pa, 8, value);
}
static inline hal_status hal_mem_read(const hal *h, uint64_t va, void *dst, size_t n)
{
    return h->ops->mem_read(h->ctx, va, dst, n);
}
/* local_irq_save / local_irq_restore / local_irq_enable / local_irq_disable */
static inline bool hal_irq_save(const hal *h)
{
    return h->ops->irq_mask(h->ctx, true);
}
static inline void hal_irq_restore(const hal *h, bool masked)
{
    (void)h->ops->irq_mask(h->ctx, masked);
}
static inline void hal_irq_enable(const hal *h)
{
    (void)h->ops->irq_mask(h->ctx, false);
}
static inline void hal_irq_disable(const hal *h)
{
    (void)h->ops->irq_mask(h->ctx, true);
}
static inline bool hal_wait_for_interrupt(const hal *h)
{
    return h->ops->wait_for_interrupt(h->ctx);
}
static inline void hal_set_irq_entry(const hal *h, hal_irq_entry entry, void *arg)
{
    h->ops->set_irq_entry(h->ctx, entry, arg);
}
static inline hal_status hal_run(const hal *h, const hal_work *work)
{
    return h->ops->run(h->ctx, work);
}
/* Writes text to the console (the platform's UART); a HAL without one drops it. */
void hal_puts(const hal *h, const char *text);

#ifdef __cplusplus
}
#endif

#endif
