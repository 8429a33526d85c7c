/* hal.c - the parts of the HAL that do not depend on an implementation. */
#include "hal.h"

#include <string.h>

const char *hal_status_name(hal_status status)
{
    switch (status) {
    case HAL_OK: return "OK";
    case HAL_UNDEFINED: return "UNDEFINED";
    case HAL_TRAP_EL1: return "TRAP_EL1";
    case HAL_TRAP_EL2: return "TRAP_EL2";
    case HAL_TRAP_EL3: return "TRAP_EL3";
    case HAL_NO_DEVICE: return "NO_DEVICE";
    case HAL_BUS_ERROR: return "BUS_ERROR";
    case HAL_INVALID: return "INVALID";
    case HAL_UNSUPPORTED: return "UNSUPPORTED";
    }
    return "?";
}

void hal_puts(const hal *h, const char *text)
{
    if (h && h->ops->console_write && text)
        h->ops->console_write(h->ctx, text, strlen(text));
}
