/*
 * bootargs.h - the command line an image was booted with: the /chosen node's bootargs in the
 * device tree whose address it got in x0 (QEMU's -append, pmtrace-vp's --append), and its
 * words of the form key=value.
 */
#ifndef PMTRACE_SW_A64_BOOTARGS_H
#define PMTRACE_SW_A64_BOOTARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* /chosen/bootargs of the flattened device tree at `fdt`, or "" when there is none (no device
 * tree, a malformed one, no such property). */
const char *bootargs_of(const void *fdt);

/* The value of the word `key`=value in `args` (the last one given), copied with its NUL into
 * `value` (at most `size` bytes). False when `args` has no such word or the value is longer. */
bool bootarg(const char *args, const char *key, char *value, size_t size);

/* A number: decimal, or hexadecimal with 0x. False when `text` is not one (or overflows). */
bool bootarg_number(const char *text, uint64_t *v);

#endif
