/*
 * fields.h - a plain-data struct described field by field: where each field is, how big, and
 * the values it may hold. The saved state (pe/state.c) and the configuration (pe/config.c) are
 * described this way, and the code that takes them from outside the model goes through the
 * description: pmt_pe_save and pmt_pe_restore copy the state field by field, pmt_pe_restore and
 * pmt_pe_create check each field against its values. tests/core/test_state_fields.cpp checks
 * that a description covers every byte of its struct that is not padding.
 */
#ifndef PMTRACE_PE_FIELDS_H
#define PMTRACE_PE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pe_field {
    const char *name; /* the member as the code names it, e.g. "trbe.nbuf" */
    uint32_t offset;  /* offsetof in the struct */
    uint32_t size;    /* bytes of the field (of all its elements for an array) */
    uint8_t elem;     /* bytes of one element: 1, 2, 4 or 8 */
    bool is_bool;     /* bool elements: 0 or 1, whatever lo and hi say */
    uint64_t lo, hi;  /* the values of each element */
    /* A byte array of which only the first `count` bytes are used, count being the field at
     * count_offset (count_size bytes): the others are 0. count_size 0: every byte is used. */
    uint32_t count_offset, count_size;
};

/* Whether an expression is a bool (C11 _Generic; the expression is not evaluated). */
/* clang-format off */
#define PE_IS_BOOL_(x) _Generic((x), bool: true, default: false)
/* clang-format on */
/* The largest value of an unsigned type of sizeof(x) bytes. */
#define PE_MAX_(x)  (UINT64_MAX >> (64 - 8 * sizeof(x)))
#define PE_M_(T, m) (((T *)0)->m)

/* One entry: name, offsetof, size, element size, is_bool, lo, hi, count_offset, count_size. */
#define PE_ENTRY_(...)                                                                             \
    {                                                                                              \
        __VA_ARGS__                                                                                \
    }
/* A field of struct T: any value of its type (0 or 1 for a bool), or lo..hi. */
#define PE_FIELD(T, m)                                                                             \
    PE_ENTRY_(#m, offsetof(T, m), sizeof(PE_M_(T, m)), sizeof(PE_M_(T, m)),                        \
              PE_IS_BOOL_(PE_M_(T, m)), 0, PE_MAX_(PE_M_(T, m)), 0, 0)
#define PE_FIELD_RANGE(T, m, lo, hi)                                                               \
    PE_ENTRY_(#m, offsetof(T, m), sizeof(PE_M_(T, m)), sizeof(PE_M_(T, m)),                        \
              PE_IS_BOOL_(PE_M_(T, m)), (lo), (hi), 0, 0)
/* An array of struct T: each element any value of its type, or lo..hi. */
#define PE_ARRAY(T, m)                                                                             \
    PE_ENTRY_(#m, offsetof(T, m), sizeof(PE_M_(T, m)), sizeof(PE_M_(T, m)[0]),                     \
              PE_IS_BOOL_(PE_M_(T, m)[0]), 0, PE_MAX_(PE_M_(T, m)[0]), 0, 0)
#define PE_ARRAY_RANGE(T, m, lo, hi)                                                               \
    PE_ENTRY_(#m, offsetof(T, m), sizeof(PE_M_(T, m)), sizeof(PE_M_(T, m)[0]),                     \
              PE_IS_BOOL_(PE_M_(T, m)[0]), (lo), (hi), 0, 0)
/* A byte array of struct T whose first `count` bytes are used (count: a field of T described
 * before it, so that its value is known to be in range). */
#define PE_BYTES_USED(T, m, count)                                                                 \
    PE_ENTRY_(#m, offsetof(T, m), sizeof(PE_M_(T, m)), 1, false, 0, UINT8_MAX, offsetof(T, count), \
              sizeof(PE_M_(T, count)))

/* The value of element i of field f in the struct at obj, read as bytes (a bool byte that is
 * neither 0 nor 1 is read as its value, without undefined behaviour). */
uint64_t pe_field_get(const struct pe_field *f, const void *obj, size_t i);
/* Whether the field's value in the struct at obj is one it may hold; if not, a line saying
 * which field holds what (in why, of why_size bytes). */
bool pe_field_valid(const struct pe_field *f, const void *obj, char *why, size_t why_size);

#endif
