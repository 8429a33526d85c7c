/* workload.c - the apps' environment, the loop workload and event names (apps.h). */
#include "apps.h"

#include <string.h>

sw_env sw_env_virt(const hal *h)
{
    sw_env e;
    e.h = h;
    e.gicd_base = SW_VIRT_GICD_BASE;
    e.gicr_base = SW_VIRT_GICR_BASE;
    e.pmu_intid = SW_PMU_INTID;
    e.trbe_intid = SW_TRBE_INTID;
    e.gic = NULL;
    return e;
}

void sw_loop_init(sw_loop *loop)
{
    memset(loop, 0, sizeof *loop);
    loop->trigger_after = SW_LOOP_NO_TRIGGER;
    loop->per_piece = 1;
}

uint8_t sw_loop_trace_byte(uint64_t k)
{
    return (uint8_t)((k & 0xFF) ^ 0x5A);
}

static bool loop_next(void *arg, hal_work *w)
{
    sw_loop *l = arg;
    if (l->done >= l->iterations)
        return false;
    uint64_t n = l->per_piece ? l->per_piece : 1;
    if (n > l->iterations - l->done)
        n = l->iterations - l->done;
    if (l->trace_bytes && n * l->trace_bytes > SW_LOOP_TRACE_BUF)
        n = SW_LOOP_TRACE_BUF / l->trace_bytes ? SW_LOOP_TRACE_BUF / l->trace_bytes : 1;
    memset(w, 0, sizeof *w);
    w->el = l->el;
    w->instructions = l->instructions * n;
    w->cycles = l->cycles * n;
    size_t ne = l->num_events < SW_LOOP_MAX_EVENTS ? l->num_events : SW_LOOP_MAX_EVENTS;
    for (size_t i = 0; i < ne; i++) {
        l->piece_events[i].event = l->events[i].event;
        l->piece_events[i].count = l->events[i].count * n;
    }
    w->events = l->piece_events;
    w->num_events = ne;
    size_t len = (size_t)(l->trace_bytes * n);
    if (len > SW_LOOP_TRACE_BUF)
        len = SW_LOOP_TRACE_BUF; /* one iteration bigger than the buffer: truncated */
    if (l->trace_fill) {
        len = l->trace_fill(l->trace_arg, n, l->trace_buf, SW_LOOP_TRACE_BUF);
        if (len > SW_LOOP_TRACE_BUF)
            len = SW_LOOP_TRACE_BUF;
    } else {
        for (size_t i = 0; i < len; i++)
            l->trace_buf[i] = sw_loop_trace_byte(l->trace_pos + i);
    }
    w->trace = l->trace_buf;
    w->trace_len = len;
    w->trigger_at = HAL_NO_TRIGGER;
    if (l->trigger_after != SW_LOOP_NO_TRIGGER && l->trigger_after >= l->trace_pos &&
        l->trigger_after - l->trace_pos <= len &&
        !(l->trigger_after == l->trace_pos && l->trace_pos != 0))
        w->trigger_at = (size_t)(l->trigger_after - l->trace_pos);
    l->trace_pos += len;
    l->done += n;
    return true;
}

sw_workload sw_loop_workload(sw_loop *loop)
{
    sw_workload w;
    w.arg = loop;
    w.next = loop_next;
    return w;
}

#define SW_EVENT_NAME_(number, mnemonic, flags) {number, #mnemonic},
static const struct {
    uint16_t number;
    const char *name;
} event_names[] = {PMT_EVENT_LIST(SW_EVENT_NAME_)};

const char *sw_event_name(uint16_t event)
{
    size_t lo = 0, hi = sizeof event_names / sizeof event_names[0];
    while (lo < hi) { /* the list is sorted by number */
        size_t mid = lo + (hi - lo) / 2;
        if (event_names[mid].number == event)
            return event_names[mid].name;
        if (event_names[mid].number < event)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
