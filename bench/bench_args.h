/*
 * bench_args.h - the benchmarks' command lines: up to a few positive numbers, in order, each with
 * its default; `--help` (or -h) prints the usage line and exits 0, anything else that is not such
 * a number prints it on stderr and exits 2. For the C and the C++ benchmarks alike.
 */
#ifndef PMTRACE_BENCH_ARGS_H
#define PMTRACE_BENCH_ARGS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads argv[1..] into values[0..count-1] (which hold the defaults). Returns -1 to go on, or the
 * exit status after printing: 0 for --help, 2 for a bad argument. `usage` is the whole usage
 * line, without "usage: ". */
static inline int bench_args(int argc, char **argv, const char *usage, uint64_t *values, int count)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: %s\n", usage);
            return 0;
        }
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(a, &end, 0);
        if (i > count || a[0] < '0' || a[0] > '9' || *end != '\0' || errno != 0 || v == 0) {
            fprintf(stderr, "%s: '%s' is %s\nusage: %s\n", argv[0], a,
                    i > count ? "one argument too many" : "not a positive number", usage);
            return 2;
        }
        values[i - 1] = (uint64_t)v;
    }
    return -1;
}

#endif
