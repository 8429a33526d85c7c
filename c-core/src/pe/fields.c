/*
 * fields.c - reading and checking a field of a described struct (fields.h).
 */
#include "fields.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

uint64_t pe_field_get(const struct pe_field *f, const void *obj, size_t i)
{
    const unsigned char *p = (const unsigned char *)obj + f->offset + i * f->elem;
    switch (f->elem) {
    case 1: return *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

/* The count of a byte array whose first bytes are used. */
static uint64_t used_bytes(const struct pe_field *f, const void *obj)
{
    struct pe_field count = {
        "", f->count_offset, f->count_size, (uint8_t)f->count_size, false, 0, 0, 0, 0};
    return pe_field_get(&count, obj, 0);
}

bool pe_field_valid(const struct pe_field *f, const void *obj, char *why, size_t why_size)
{
    const uint64_t hi = f->is_bool ? 1 : f->hi;
    const size_t n = f->size / f->elem;
    const uint64_t count = f->count_size ? used_bytes(f, obj) : n;
    if (count > n) {
        snprintf(why, why_size, "%s: %" PRIu64 " used of %zu", f->name, count, n);
        return false;
    }
    const size_t used = (size_t)count;
    /* The elements past those used are 0. */
    const unsigned char *p = (const unsigned char *)obj + f->offset;
    for (size_t b = used * f->elem; b < f->size; b++)
        if (p[b]) {
            const size_t i = b / f->elem;
            snprintf(why, why_size, "%s[%zu] must be 0 (past the %zu used) (is %" PRIu64 ")",
                     f->name, i, used, pe_field_get(f, obj, i));
            return false;
        }
    /* Those used hold values of the field (any value of the type needs no look). */
    if (f->lo == 0 && hi >= UINT64_MAX >> (64 - 8 * f->elem))
        return true;
    for (size_t i = 0; i < used; i++) {
        const uint64_t v = pe_field_get(f, obj, i);
        if (v >= f->lo && v <= hi)
            continue;
        char at[24] = "";
        if (n > 1)
            snprintf(at, sizeof at, "[%zu]", i);
        if (f->is_bool)
            snprintf(why, why_size, "%s%s must be false or true (is %" PRIu64 ")", f->name, at, v);
        else if (hi > 0xFFFF)
            snprintf(why, why_size, "%s%s must be 0x%" PRIx64 "..0x%" PRIx64 " (is 0x%" PRIx64 ")",
                     f->name, at, f->lo, hi, v);
        else
            snprintf(why, why_size, "%s%s must be %" PRIu64 "..%" PRIu64 " (is %" PRIu64 ")",
                     f->name, at, f->lo, hi, v);
        return false;
    }
    return true;
}
