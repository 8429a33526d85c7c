/* stdio.h - formatted output into a buffer, for AArch64 bare metal (sw/arch/aarch64/libc/
 * printf.c): the conversions the sw/ code uses (%d %u %x %s %c %%, the l length, the flags - and
 * 0, a field width). There are no streams: the console is the HAL's console_write. */
#ifndef PMTRACE_SW_A64_STDIO_H
#define PMTRACE_SW_A64_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap);
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...);

#endif
