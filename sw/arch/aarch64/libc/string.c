/*
 * string.c - memcpy, memmove, memset, memcmp, strlen, strcmp, strncmp for AArch64 bare metal (no
 * newlib). GCC calls the first four for structure copies and initialisations even in freestanding
 * code.
 *
 * With the MMU off every data access is to Device-nGnRnE memory, where an unaligned access is an
 * Alignment fault (Arm ARM B2.5.2 "Alignment of data accesses"; D8.2.11 "The effects of disabling
 * an address translation stage"): the copies go a doubleword at a time only when both pointers
 * are aligned, else a byte at a time, and the code is built with -mstrict-align.
 */
#include <stdint.h>
#include <string.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
        for (; n >= 8; n -= 8, d += 8, s += 8)
            *(uint64_t *)(void *)d = *(const uint64_t *)(const void *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d <= s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)
        d[n] = s[n];
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (((uintptr_t)d & 7) == 0) {
        uint64_t v = (unsigned char)c * UINT64_C(0x0101010101010101);
        for (; n >= 8; n -= 8, d += 8)
            *(uint64_t *)(void *)d = v;
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    return strncmp(a, b, SIZE_MAX);
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x != y || !x)
            return x - y;
    }
    return 0;
}
