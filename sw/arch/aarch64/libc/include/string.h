/* string.h - the string functions the sw/ code and GCC's generated code use, for AArch64 bare
 * metal (sw/arch/aarch64/libc/string.c). */
#ifndef PMTRACE_SW_A64_STRING_H
#define PMTRACE_SW_A64_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#endif
