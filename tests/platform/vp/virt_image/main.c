/*
 * main.c - a bare-metal program for QEMU's virt board, written as an outsider would (nothing from
 * pmtrace): it checks the device tree it was given, asks PSCI its version, counts instructions
 * with the PMU until the counter overflows and its interrupt (INTID 23, the virt device tree's
 * arm,armv8-pmuv3) arrives through the GICv3, echoes a line read from the PL011, shows the first
 * line of the initial RAM disk when the device tree's /chosen names one (linux,initrd-start and
 * linux,initrd-end), and powers off.
 */
#include <stdint.h>

#define UART_BASE       0x09000000UL
#define UARTDR          0x000
#define UARTFR          0x018
#define UARTFR_RXFE     (1u << 4)
#define UARTFR_TXFF     (1u << 5)
#define GICD_BASE       0x08000000UL
#define GICR_BASE       0x080A0000UL /* CPU 0's RD_base; SGI_base 64 KiB above */
#define PMU_INTID       23
#define PSCI_VERSION    0x84000000UL
#define PSCI_SYSTEM_OFF 0x84000008UL
#define PERIOD          100000u /* instructions to the overflow */

uint64_t psci_call(uint64_t function, uint64_t a1, uint64_t a2, uint64_t a3);

static volatile uint32_t *reg32(uint64_t address)
{
    return (volatile uint32_t *)address;
}

static void put_char(char c)
{
    while (*reg32(UART_BASE + UARTFR) & UARTFR_TXFF)
        ;
    *reg32(UART_BASE + UARTDR) = (uint32_t)c;
}

static void put_string(const char *s)
{
    while (*s)
        put_char(*s++);
}

static void put_hex(uint64_t v)
{
    put_string("0x");
    for (int shift = 60; shift >= 0; shift -= 4)
        put_char("0123456789abcdef"[(v >> shift) & 0xF]);
}

#define READ_SYSREG(name)                                                                          \
    ({                                                                                             \
        uint64_t v_;                                                                               \
        __asm__ volatile("mrs %0, " #name : "=r"(v_));                                             \
        v_;                                                                                        \
    })
#define WRITE_SYSREG(name, v) __asm__ volatile("msr " #name ", %0" ::"r"((uint64_t)(v)))

static volatile uint64_t overflow_irqs;
static volatile uint64_t overflow_status;

void irq(void)
{
    const uint64_t intid = READ_SYSREG(S3_0_C12_C12_0) & 0xFFFFFF; /* ICC_IAR1_EL1 */
    if (intid == PMU_INTID) {
        overflow_status = READ_SYSREG(pmovsclr_el0);
        WRITE_SYSREG(pmovsclr_el0, overflow_status);
        WRITE_SYSREG(pmcntenclr_el0, 1); /* counter 0 stops */
        overflow_irqs++;
    }
    WRITE_SYSREG(S3_0_C12_C12_1, intid); /* ICC_EOIR1_EL1 */
}

void fault(uint64_t esr)
{
    put_string("unexpected exception, ESR ");
    put_hex(esr);
    put_string("\n");
}

void power_off(void)
{
    psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
}

static void gic_init(void)
{
    WRITE_SYSREG(S3_0_C12_C12_5, 1); /* ICC_SRE_EL1.SRE */
    __asm__ volatile("isb");
    WRITE_SYSREG(S3_0_C4_C6_0, 0xFF); /* ICC_PMR_EL1 */
    WRITE_SYSREG(S3_0_C12_C12_7, 1);  /* ICC_IGRPEN1_EL1 */
    *reg32(GICD_BASE + 0x0) = 0x12;   /* GICD_CTLR: ARE_NS, EnableGrp1NS */
    *reg32(GICR_BASE + 0x14) = 0;     /* GICR_WAKER: awake */
    while (*reg32(GICR_BASE + 0x14) & 4)
        ;
    *reg32(GICR_BASE + 0x10000 + 0x080) = 1u << PMU_INTID; /* GICR_IGROUPR0 */
    *reg32(GICR_BASE + 0x10000 + 0x100) = 1u << PMU_INTID; /* GICR_ISENABLER0 */
}

static void echo_line(void)
{
    char line[64];
    unsigned n = 0;
    for (unsigned polls = 0; polls < 100000 && n < sizeof line - 1; polls++) {
        if (*reg32(UART_BASE + UARTFR) & UARTFR_RXFE)
            continue;
        const char c = (char)*reg32(UART_BASE + UARTDR);
        if (c == '\n')
            break;
        line[n++] = c;
    }
    line[n] = 0;
    put_string("input: ");
    put_string(line);
    put_string("\n");
}

/* The device tree (the devicetree specification's flattened format, big-endian): a property of
 * the /chosen node, or 0. */
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE   2
#define FDT_PROP       3
#define FDT_NOP        4

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int same(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static uint64_t chosen_property(const uint8_t *dtb, const char *name)
{
    const uint8_t *p = dtb + be32(dtb + 8);                   /* off_dt_struct */
    const char *strings = (const char *)dtb + be32(dtb + 12); /* off_dt_strings */
    int depth = 0, in_chosen = 0;
    for (;;) {
        const uint32_t token = be32(p);
        p += 4;
        if (token == FDT_BEGIN_NODE) {
            const char *node = (const char *)p;
            depth++;
            in_chosen = depth == 2 && same(node, "chosen");
            unsigned n = 0;
            while (node[n])
                n++;
            p += (n + 4) & ~3u; /* the name, its NUL, padding to 4 bytes */
        } else if (token == FDT_END_NODE) {
            depth--;
            in_chosen = 0;
        } else if (token == FDT_PROP) {
            const uint32_t len = be32(p);
            const char *prop = strings + be32(p + 4);
            const uint8_t *value = p + 8;
            if (in_chosen && same(prop, name))
                return len == 8 ? (uint64_t)be32(value) << 32 | be32(value + 4) : be32(value);
            p += 8 + ((len + 3) & ~3u);
        } else if (token != FDT_NOP) {
            return 0; /* FDT_END */
        }
    }
}

static void show_initrd(const uint8_t *dtb)
{
    const uint64_t start = chosen_property(dtb, "linux,initrd-start");
    const uint64_t end = chosen_property(dtb, "linux,initrd-end");
    if (!start || end <= start)
        return;
    put_string("initrd at ");
    put_hex(start);
    put_string(" to ");
    put_hex(end);
    put_string(": ");
    for (const char *c = (const char *)start; c < (const char *)end && *c != '\n'; c++)
        put_char(*c);
    put_string("\n");
}

int main(const uint8_t *dtb)
{
    put_string("hello from a virt image\n");
    /* The device tree's header: magic 0xd00dfeed, big-endian. */
    const uint32_t magic =
        (uint32_t)dtb[0] << 24 | (uint32_t)dtb[1] << 16 | (uint32_t)dtb[2] << 8 | dtb[3];
    put_string(magic == 0xd00dfeed ? "device tree at " : "no device tree at ");
    put_hex((uint64_t)dtb);
    put_string("\npsci version ");
    put_hex(psci_call(PSCI_VERSION, 0, 0, 0));
    put_string("\n");

    gic_init();
    WRITE_SYSREG(pmcr_el0, 1u << 1);    /* P: event counters to 0 */
    WRITE_SYSREG(pmevtyper0_el0, 0x08); /* INST_RETIRED, every EL */
    WRITE_SYSREG(pmevcntr0_el0, 0x100000000ull - PERIOD);
    WRITE_SYSREG(pmintenset_el1, 1);
    WRITE_SYSREG(pmcntenset_el0, 1u | 1u << 31); /* counter 0 and the cycle counter */
    WRITE_SYSREG(pmcr_el0, 1u);                  /* E */
    __asm__ volatile("isb; msr daifclr, #2");
    uint64_t spins = 0;
    while (!overflow_irqs)
        spins++;
    __asm__ volatile("msr daifset, #2");
    put_string("PMU interrupt on INTID 23, PMOVSCLR_EL0 ");
    put_hex(overflow_status);
    put_string(spins > 1000 ? ", after the loop ran\n" : ", too early\n");

    echo_line();
    show_initrd(dtb);
    return 0;
}
