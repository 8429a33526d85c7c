/*
 * bootargs.c - the command line in the device tree (bootargs.h). The walk follows the
 * Devicetree Specification's structure block (v0.4, 5.4): big-endian tokens FDT_BEGIN_NODE (the
 * name, NUL, padding to 4 bytes), FDT_END_NODE, FDT_PROP (length, name offset into the strings
 * block, value padded to 4), FDT_NOP, FDT_END; every offset is checked against the blob's size.
 */
#include "bootargs.h"

#include <string.h>

#define FDT_MAGIC      0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE   2u
#define FDT_PROP       3u
#define FDT_NOP        4u
#define FDT_END        9u

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t align4(uint32_t v)
{
    return (v + 3u) & ~3u;
}

/* The length of the NUL-terminated string at s[0..max), or max when it has no NUL there. */
static uint32_t bounded_len(const char *s, uint32_t max)
{
    uint32_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

const char *bootargs_of(const void *fdt)
{
    const uint8_t *b = fdt;
    if (!b || be32(b) != FDT_MAGIC)
        return "";
    const uint32_t total = be32(b + 4), off_struct = be32(b + 8), off_strings = be32(b + 12);
    const uint32_t size_strings = be32(b + 32), size_struct = be32(b + 36);
    if (off_struct > total || size_struct > total - off_struct || off_strings > total ||
        size_strings > total - off_strings)
        return "";
    const uint8_t *s = b + off_struct;
    const char *strings = (const char *)b + off_strings;
    uint32_t pos = 0;
    unsigned depth = 0;
    bool in_chosen = false;
    while (pos + 4 <= size_struct) {
        const uint32_t token = be32(s + pos);
        pos += 4;
        if (token == FDT_BEGIN_NODE) {
            const char *name = (const char *)s + pos;
            const uint32_t len = bounded_len(name, size_struct - pos);
            if (len == size_struct - pos)
                return "";
            depth++;
            /* /chosen: a child of the root (whose own name is empty). */
            in_chosen = depth == 2 && strcmp(name, "chosen") == 0;
            pos += align4(len + 1);
        } else if (token == FDT_END_NODE) {
            if (depth == 0)
                return "";
            if (in_chosen)
                return ""; /* /chosen ended without bootargs */
            depth--;
        } else if (token == FDT_PROP) {
            if (pos + 8 > size_struct)
                return "";
            const uint32_t len = be32(s + pos), nameoff = be32(s + pos + 4);
            pos += 8;
            if (len > size_struct - pos || nameoff >= size_strings)
                return "";
            const char *value = (const char *)s + pos;
            const char *name = strings + nameoff;
            if (in_chosen && bounded_len(name, size_strings - nameoff) < size_strings - nameoff &&
                strcmp(name, "bootargs") == 0)
                return len > 0 && bounded_len(value, len) < len ? value : "";
            pos += align4(len);
        } else if (token == FDT_END) {
            return "";
        } else if (token != FDT_NOP) {
            return "";
        }
    }
    return "";
}

bool bootarg(const char *args, const char *key, char *value, size_t size)
{
    const size_t key_len = strlen(key);
    bool found = false;
    for (const char *p = args; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        const char *word = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        const size_t len = (size_t)(p - word);
        if (len > key_len && word[key_len] == '=' && strncmp(word, key, key_len) == 0) {
            const size_t n = len - key_len - 1;
            if (n >= size)
                return false;
            memcpy(value, word + key_len + 1, n);
            value[n] = '\0';
            found = true;
        }
    }
    return found;
}

bool bootarg_number(const char *text, uint64_t *v)
{
    uint64_t base = 10, r = 0;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
    }
    if (!*text)
        return false;
    for (; *text; text++) {
        uint64_t d;
        if (*text >= '0' && *text <= '9')
            d = (uint64_t)(*text - '0');
        else if (base == 16 && *text >= 'a' && *text <= 'f')
            d = (uint64_t)(*text - 'a' + 10);
        else if (base == 16 && *text >= 'A' && *text <= 'F')
            d = (uint64_t)(*text - 'A' + 10);
        else
            return false;
        if (r > (UINT64_MAX - d) / base)
            return false;
        r = r * base + d;
    }
    *v = r;
    return true;
}
