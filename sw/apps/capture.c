/* capture.c - the capture area (capture.h). */
#include "capture.h"

#include <string.h>

#define HEADER ((uint64_t)sizeof(sw_capture_header))

static uint64_t padded(uint64_t n)
{
    return (n + 7) & ~(uint64_t)7;
}

static sw_capture_header *header(const sw_capture *c)
{
    return (sw_capture_header *)(void *)c->area;
}

static uint64_t get(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

bool sw_capture_init(sw_capture *c, void *area, uint64_t size)
{
    if (!c || !area || size < HEADER || ((uintptr_t)area & 7))
        return false;
    c->area = area;
    c->size = size & ~(uint64_t)7;
    c->open = 0;
    *header(c) = (sw_capture_header){.magic = SW_CAPTURE_MAGIC, .size = c->size};
    return true;
}

uint8_t *sw_capture_reserve(sw_capture *c, uint64_t *len)
{
    sw_capture_header *h = header(c);
    if (!c->open) {
        if (c->size - HEADER - h->used < 8) {
            *len = 0;
            return c->area + c->size;
        }
        c->open = HEADER + h->used;
        memset(c->area + c->open, 0, 8);
        h->used += 8;
        h->parts++;
    }
    const uint64_t room = c->size - HEADER - h->used;
    if (*len > room)
        *len = room;
    return c->area + HEADER + h->used;
}

void sw_capture_commit(sw_capture *c, uint64_t written, uint64_t lost)
{
    sw_capture_header *h = header(c);
    h->lost += lost;
    if (!c->open)
        return;
    h->used += written;
    const uint64_t part = get(c->area + c->open) + written;
    memcpy(c->area + c->open, &part, sizeof part);
}

void sw_capture_close(sw_capture *c)
{
    if (!c->open)
        return;
    sw_capture_header *h = header(c);
    const uint64_t end = HEADER + h->used, to = padded(end) < c->size ? padded(end) : c->size;
    memset(c->area + end, 0, (size_t)(to - end));
    h->used = to - HEADER;
    c->open = 0;
}

bool sw_capture_next(const uint8_t *area, uint64_t size, uint64_t *offset, const uint8_t **data,
                     uint64_t *len, const char **error)
{
    *error = NULL;
    if (!area || size < HEADER || get(area) != SW_CAPTURE_MAGIC) {
        *error = "no capture area there (no header, or not its magic number)";
        return false;
    }
    const uint64_t used = get(area + offsetof(sw_capture_header, used));
    if (used > size - HEADER) {
        *error = "the capture area's header says it holds more than its size";
        return false;
    }
    if (*offset >= used)
        return false;
    const uint64_t at = HEADER + *offset, room = used - *offset;
    const uint64_t n = room >= 8 ? get(area + at) : 0;
    if (room < 8 || n > room - 8) {
        *error = "a part of the capture area is longer than the area";
        return false;
    }
    *data = area + at + 8;
    *len = n;
    *offset += 8 + padded(n) < room ? 8 + padded(n) : room;
    return true;
}
