/* sw_errno.c - names of the sw/ return codes. */
#include "sw_errno.h"

const char *sw_strerror(int err)
{
    switch (err) {
    case SW_OK: return "OK";
    case SW_EIO: return "EIO";
    case SW_EAGAIN: return "EAGAIN";
    case SW_EBUSY: return "EBUSY";
    case SW_ENODEV: return "ENODEV";
    case SW_EINVAL: return "EINVAL";
    case SW_ENOSPC: return "ENOSPC";
    case SW_EOPNOTSUPP: return "EOPNOTSUPP";
    default: return "?";
    }
}
