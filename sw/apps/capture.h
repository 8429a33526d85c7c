/*
 * capture.h - a capture area: memory where a trace session leaves what it collected, part by
 * part, for whoever reads it after the run (the host of a virtual platform, a debugger), as
 * perf's AUX area hands the kernel's trace to perf record.
 *
 * A part is trace the Trace Buffer Unit wrote without a break: in Fill mode, each buffer's worth
 * collected before the buffer was restarted (what the trace unit generated while the buffer was
 * full is lost); in Wrap and Circular Buffer modes, the buffer at the end, oldest byte first.
 * Each part is decoded on its own, from its first A-Sync (perf decodes each AUX record so).
 *
 * The layout, one source of truth for the writer (the sw/ apps) and the readers: 64-bit
 * little-endian words, the area 8-byte aligned.
 *   header  magic SW_CAPTURE_MAGIC, size (the whole area's bytes), used (the bytes of the parts
 *           after the header), parts, lost (trace bytes that did not fit)
 *   parts   each: its length in bytes, then the bytes, padded with zeros to a multiple of 8
 */
#ifndef PMTRACE_SW_CAPTURE_H
#define PMTRACE_SW_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SW_CAPTURE_MAGIC UINT64_C(0x3145525554504143) /* "CAPTURE1" */

typedef struct sw_capture_header {
    uint64_t magic;
    uint64_t size;
    uint64_t used;
    uint64_t parts;
    uint64_t lost;
} sw_capture_header;

/* The writer's side: the area and the part being written. */
typedef struct sw_capture {
    uint8_t *area;
    uint64_t size;
    uint64_t open; /* offset of the open part's length word; 0: none open */
} sw_capture;

/* Makes `size` bytes at `area` an empty capture area. False when it cannot hold the header or
 * `area` is not 8-byte aligned. */
bool sw_capture_init(sw_capture *c, void *area, uint64_t size);
/* Where the next `*len` bytes of the open part go (a part is opened when none is): at most the
 * room left, which may be 0 (then the bytes are counted as lost). The caller writes them, then
 * calls sw_capture_commit with how many it wrote. */
uint8_t *sw_capture_reserve(sw_capture *c, uint64_t *len);
void sw_capture_commit(sw_capture *c, uint64_t written, uint64_t lost);
/* Ends the open part (nothing when none is open). */
void sw_capture_close(sw_capture *c);

/* The reader's side: the part at `*offset` (0 for the first) of the `size` bytes at `area`, as
 * the writer left them. Returns false at the end, or when the area is not a capture area or a
 * length does not fit (then `*error` says why; NULL at the end). */
bool sw_capture_next(const uint8_t *area, uint64_t size, uint64_t *offset, const uint8_t **data,
                     uint64_t *len, const char **error);

#ifdef __cplusplus
}
#endif

#endif
