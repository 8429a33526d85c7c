/*
 * bench_trbe - how fast the Trace Buffer Unit writes trace.
 *
 *   build/bench/bench_trbe [megabytes]
 *
 * A 1 MiB trace buffer in Circular Buffer mode, identity translation (a translate callback that
 * returns the address), and a write callback that copies into host memory. It measures the
 * throughput of pmt_trbe_trace with 4 KiB input chunks and 64-byte alignment units, and the
 * cost of one call with a 16-byte chunk.
 */
#define _POSIX_C_SOURCE 199309L
#include <pmtrace/pmtrace.h>

#include "bench_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUF_BASE 0x80000000ull
#define BUF_SIZE (1u << 20)

static uint8_t *memory;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void translate(void *user, uint64_t va, const pmt_trbe_regime *regime,
                      pmt_trbe_translation *out)
{
    (void)user;
    (void)regime;
    out->pa = va;
}

static pmt_trbe_write_result write_mem(void *user, uint64_t pa, pmt_security pas,
                                       const uint8_t *bytes, size_t n, size_t *done)
{
    (void)user;
    (void)pas;
    (void)done;
    memcpy(memory + (pa - BUF_BASE), bytes, n);
    return PMT_TRBE_WRITE_OK;
}

static void wr(pmt_pe *pe, pmt_reg_id id, uint64_t v)
{
    pmt_reg_ref reg = {id, 0};
    if (pmt_pe_sysreg_write(pe, pmt_sysreg_encode(reg), v) != PMT_ACCESS_OK) {
        fprintf(stderr, "bench: write to %s refused\n", pmt_reg_name(id));
        exit(1);
    }
}

static pmt_pe *make(void)
{
    pmt_pe_config cfg = pmt_pe_config_default();
    cfg.trbe.feat_trbe = true;
    cfg.trbe.align = 6; /* 64-byte units */
    pmt_pe *pe = pmt_pe_create(&cfg, NULL);
    if (!pe)
        exit(1);
    pmt_trbe_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.translate = translate;
    cb.write = write_mem;
    pmt_trbe_set_callbacks(pe, &cb);
    /* Firmware at EL3 gives the buffer to Non-secure EL1; the driver programs it there. */
    wr(pe, PMT_REG_MDCR_EL3, PMT_PUT(MDCR_EL3, NSTB, 3));
    pmt_pe_state s;
    memset(&s, 0, sizeof s);
    s.el = 2;
    s.el2_enabled = true;
    pmt_pe_set_state(pe, &s);
    wr(pe, PMT_REG_MDCR_EL2, PMT_PUT(MDCR_EL2, E2TB, 3) | PMT_PUT(MDCR_EL2, HPMN, 6));
    s.el = 1;
    pmt_pe_set_state(pe, &s);
    wr(pe, PMT_REG_TRBBASER_EL1, BUF_BASE);
    wr(pe, PMT_REG_TRBPTR_EL1, BUF_BASE);
    wr(pe, PMT_REG_TRBLIMITR_EL1,
       (BUF_BASE + BUF_SIZE) | PMT_PUT(TRBLIMITR, FM, PMT_TRBLIMITR_FM_CIRCULAR) |
           PMT_PUT(TRBLIMITR, TM, PMT_TRBLIMITR_TM_IGNORE) | PMT_MASK(TRBLIMITR, E));
    return pe;
}

int main(int argc, char **argv)
{
    uint64_t megabytes = 8192u;
    const int rc = bench_args(argc, argv, "bench_trbe [megabytes (8192)]", &megabytes, 1);
    if (rc >= 0)
        return rc;
    memory = malloc(BUF_SIZE);
    uint8_t *chunk = malloc(4096);
    if (!memory || !chunk)
        return 1;
    for (unsigned i = 0; i < 4096; i++)
        chunk[i] = (uint8_t)(i * 7);
    memset(memory, 0, BUF_SIZE);

    pmt_pe *pe = make();
    uint64_t calls = megabytes * 1024 * 1024 / 4096;
    double t0 = now();
    for (uint64_t i = 0; i < calls; i++)
        pmt_trbe_trace(pe, chunk, 4096, NULL);
    double t = now() - t0;
    double bytes = (double)calls * 4096.0;
    printf("%-52s %9.2f GB/s (%.0f ns per call)\n", "trace 4 KiB chunks, 64-byte units, copy",
           bytes / t / 1e9, t * 1e9 / (double)calls);

    uint64_t small = 200000000u / 16 * 4; /* 50 M calls */
    t0 = now();
    for (uint64_t i = 0; i < small; i++)
        pmt_trbe_trace(pe, chunk + (i & 255) * 16, 16, NULL);
    t = now() - t0;
    printf("%-52s %9.2f ns per call (%.2f GB/s)\n", "trace 16-byte chunks, 64-byte units, copy",
           t * 1e9 / (double)small, (double)small * 16.0 / t / 1e9);

    pmt_trbe_status st;
    pmt_trbe_get_status(pe, &st);
    if (!st.running) {
        fprintf(stderr, "bench: the unit stopped\n");
        return 1;
    }
    pmt_pe_destroy(pe);
    free(chunk);
    free(memory);
    return 0;
}
