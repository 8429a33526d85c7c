/*
 * printf.c - vsnprintf and snprintf for AArch64 bare metal (no newlib): the conversions the sw/
 * code formats with (stdio.h). C11 7.21.6.5 semantics for what it supports: the output is cut
 * to size - 1 characters and terminated (size 0: nothing written), the return value is the
 * length the whole output wanted. An unsupported conversion is copied as it stands.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct out {
    char *buf;
    size_t size;
    size_t len; /* wanted */
} out;

static void put(out *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void pad(out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

/* One field: `text` of n characters (a sign or prefix is part of the number's digits here), in
 * a field of `width`, left-aligned or padded on the left with spaces or zeros. */
static void field(out *o, const char *text, int n, int width, bool left, bool zero)
{
    if (!left)
        pad(o, zero ? '0' : ' ', width - n);
    for (int i = 0; i < n; i++)
        put(o, text[i]);
    if (left)
        pad(o, ' ', width - n);
}

static int digits(char *tmp, uint64_t v, unsigned base, bool upper)
{
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[24];
    int n = 0;
    do {
        rev[n++] = set[v % base];
        v /= base;
    } while (v);
    for (int i = 0; i < n; i++)
        tmp[i] = rev[n - 1 - i];
    return n;
}

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap)
{
    out o = {buf, size, 0};
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        const char *start = p++;
        bool left = false, zero = false;
        for (;; p++) {
            if (*p == '-')
                left = true;
            else if (*p == '0')
                zero = true;
            else
                break;
        }
        int width = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            width = width * 10 + (*p - '0');
        int longs = 0;
        for (; *p == 'l'; p++)
            longs++;
        char tmp[32];
        int n;
        switch (*p) {
        case 'd':
        case 'i': {
            int64_t v = longs ? va_arg(ap, long) : va_arg(ap, int);
            uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
            n = 0;
            if (v < 0)
                tmp[n++] = '-';
            n += digits(tmp + n, mag, 10, false);
            if (zero && !left && v < 0) { /* the sign goes before the zeros */
                put(&o, '-');
                field(&o, tmp + 1, n - 1, width - 1, false, true);
            } else {
                field(&o, tmp, n, width, left, zero);
            }
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = longs ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            n = digits(tmp, v, *p == 'u' ? 10 : 16, *p == 'X');
            field(&o, tmp, n, width, left, zero);
            break;
        }
        case 'c':
            tmp[0] = (char)va_arg(ap, int);
            field(&o, tmp, 1, width, left, false);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            int len = 0;
            while (s[len])
                len++;
            field(&o, s, len, width, left, false);
            break;
        }
        case '%': put(&o, '%'); break;
        default: /* not supported: the text as it stands */
            for (const char *q = start; q <= p && *q; q++)
                put(&o, *q);
            if (!*p)
                p--;
            break;
        }
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}

int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
