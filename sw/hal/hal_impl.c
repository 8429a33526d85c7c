/* hal_impl.c - what HAL implementations do the same way (hal_impl.h). */
#include "hal_impl.h"

uint64_t hal_firmware_mdcr_el3(bool pmuv3p9, bool trbe, bool trbe_exc)
{
    uint64_t mdcr = pmuv3p9 ? PMT_MASK(MDCR_EL3, EnPM2) : 0;
    if (trbe)
        mdcr |= PMT_PUT(MDCR_EL3, NSTB, 3) | (trbe_exc ? PMT_PUT(MDCR_EL3, TRBEE, 1) : 0);
    return mdcr;
}

uint64_t hal_firmware_mdcr_el2(unsigned num_counters, bool trbe, uint8_t kernel_el)
{
    uint64_t mdcr = PMT_PUT(MDCR_EL2, HPMN, num_counters);
    if (trbe && kernel_el == 1)
        mdcr |= PMT_PUT(MDCR_EL2, E2TB, 3);
    return mdcr;
}

bool hal_trace_allowed(uint8_t el, bool vhe_host, uint64_t trfcr_el1, uint64_t trfcr_el2)
{
    switch (el) {
    case 0:
        return vhe_host ? PMT_GET(TRFCR_EL2, E0HTRE, trfcr_el2)
                        : PMT_GET(TRFCR_EL1, E0TRE, trfcr_el1);
    case 1: return PMT_GET(TRFCR_EL1, E1TRE, trfcr_el1);
    default: return PMT_GET(TRFCR_EL2, E2TRE, trfcr_el2);
    }
}

hal_status hal_trace_deliver(const hal_trace_sink *sink, bool allowed, const uint8_t *bytes,
                             size_t n, size_t trigger_at, uint64_t *delivered, uint64_t *dropped)
{
    size_t done = 0;
    bool triggered = trigger_at > n; /* HAL_NO_TRIGGER, or past the work's bytes: none */
    while (done < n || !triggered) {
        if (!triggered && done == trigger_at) {
            triggered = true;
            if (allowed)
                sink->detected_trigger(sink->ctx);
            sink->step_done(sink->ctx);
            continue;
        }
        size_t step = n - done;
        if (!triggered && trigger_at - done < step)
            step = trigger_at - done;
        if (!allowed) {
            *dropped += step;
        } else {
            uint64_t room = sink->headroom(sink->ctx);
            if (room < step)
                step = room ? (size_t)room : 1;
            if (!sink->bytes(sink->ctx, bytes + done, step))
                return HAL_INVALID;
            *delivered += step;
        }
        done += step;
        sink->step_done(sink->ctx);
    }
    return HAL_OK;
}
