/* trbe_quickstart.c - wire the TRBE memory port, feed trace, handle TRBIRQ (docs/trbe.md). */
#include <pmtrace/pmtrace.h>
#include <stdio.h>
#include <string.h>

#define RAM_BASE 0x80000000u
static uint8_t ram[0x10000]; /* the platform's memory: 64 KiB at RAM_BASE */

/* The memory port: virtual address -> physical address in the owning regime ... */
static void translate(void *user, uint64_t va, const pmt_trbe_regime *regime,
                      pmt_trbe_translation *out)
{
    (void)user;
    (void)regime; /* owning Security state and EL, EL2&0, nVM: what a real MMU model needs */
    out->pa = va - 0xFFFF000000000000u + RAM_BASE; /* a linear map */
}

/* ... and a write of n bytes at a physical address. */
static pmt_trbe_write_result write_mem(void *user, uint64_t pa, pmt_security pas,
                                       const uint8_t *bytes, size_t n, size_t *done)
{
    (void)user;
    (void)pas;
    if (pa < RAM_BASE || pa + n > RAM_BASE + sizeof ram) {
        *done = 0;
        return PMT_TRBE_WRITE_ABORT_SYNC; /* no memory there: an External abort */
    }
    memcpy(ram + (pa - RAM_BASE), bytes, n);
    return PMT_TRBE_WRITE_OK;
}

static void on_trbirq(void *user, bool level)
{
    *(bool *)user = level;
}

static uint64_t rd(pmt_pe *pe, pmt_reg_id id)
{
    uint64_t v = 0;
    pmt_pe_sysreg_read(pe, pmt_sysreg_encode((pmt_reg_ref){id, 0}), &v);
    return v;
}

static void wr(pmt_pe *pe, pmt_reg_id id, uint64_t v)
{
    pmt_pe_sysreg_write(pe, pmt_sysreg_encode((pmt_reg_ref){id, 0}), v);
}

int main(void)
{
    bool irq = false;
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.trbe.feat_trbe = true; /* 64-byte alignment units by default */
    pmt_pe *pe = pmt_pe_create(&cfg, NULL);
    pmt_trbe_callbacks port = {
        .user = &irq, .trbirq = on_trbirq, .translate = translate, .write = write_mem};
    pmt_trbe_set_callbacks(pe, &port);

    /* Firmware (the PE starts at EL3): the buffer belongs to Non-secure state, then EL1. */
    wr(pe, PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    pmt_pe_state s = {.el = 2, .ss = PMT_SS_NONSECURE, .el2_enabled = true};
    pmt_pe_set_state(pe, &s);
    wr(pe, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, 6));
    s.el = 1;
    pmt_pe_set_state(pe, &s);

    /* The driver at EL1: a 8 KiB buffer in Fill mode, as coresight-trbe programs it. */
    const uint64_t base = 0xFFFF000000000000u, limit = base + 0x2000;
    wr(pe, PMT_REG_TRBLIMITR_EL1, 0);
    wr(pe, PMT_REG_TRBSR_EL1, 0);
    wr(pe, PMT_REG_TRBBASER_EL1, base);
    wr(pe, PMT_REG_TRBPTR_EL1, base);
    wr(pe, PMT_REG_TRBLIMITR_EL1,
       limit | PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_FILL) |
           PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE) | PMT_MASK(TRBLIMITR, E));

    /* The trace unit feeds trace. */
    uint8_t chunk[1000];
    memset(chunk, 0xA5, sizeof chunk);
    for (int i = 0; i < 8; i++)
        pmt_trbe_trace(pe, chunk, sizeof chunk, NULL);
    pmt_trbe_tsb_csync(pe); /* TSB CSYNC: the 64-byte unit in flight reaches memory */
    printf("after 8000 bytes: TRBPTR=base+%llu TRBIRQ=%d\n",
           (unsigned long long)(rd(pe, PMT_REG_TRBPTR_EL1) - base), irq);
    pmt_trbe_trace(pe, chunk, sizeof chunk, NULL); /* the buffer fills: Fill mode stops */
    uint64_t sr = rd(pe, PMT_REG_TRBSR_EL1);
    printf("full: TRBIRQ=%d S=%d WRAP=%d BSC=%d TRBPTR=base+%llu\n", irq,
           (int)PMT_GET(TRBSR, S, sr), (int)PMT_GET(TRBSR, WRAP, sr), (int)(sr & 0x3F),
           (unsigned long long)(rd(pe, PMT_REG_TRBPTR_EL1) - base));

    /* The TRBIRQ handler: disable, clear IRQ; TRBIRQ falls. */
    wr(pe, PMT_REG_TRBLIMITR_EL1, limit);
    wr(pe, PMT_REG_TRBSR_EL1, sr & ~PMT_MASK(TRBSR, IRQ));
    printf("after clearing IRQ: TRBIRQ=%d, ram[0x1FFF]=0x%02X\n", irq, ram[0x1FFF]);
    pmt_pe_destroy(pe);
    return irq ? 1 : 0;
}
