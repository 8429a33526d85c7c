/* inttypes.h - the format macros of the 64-bit types for AArch64 bare metal (LP64: uint64_t is
 * unsigned long). */
#ifndef PMTRACE_SW_A64_INTTYPES_H
#define PMTRACE_SW_A64_INTTYPES_H

#include <stdint.h>

#define PRId64 "ld"
#define PRIu64 "lu"
#define PRIx64 "lx"
#define PRIX64 "lX"

#endif
