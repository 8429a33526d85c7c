/*
 * sw_errno.h - return codes of the sw/ drivers and apps: 0 or a negative Linux errno value, as
 * the Linux drivers they follow return them.
 */
#ifndef PMTRACE_SW_ERRNO_H
#define PMTRACE_SW_ERRNO_H

#ifdef __cplusplus
extern "C" {
#endif

enum sw_errno {
    SW_OK = 0,
    SW_EIO = -5,        /* a register access failed (UNDEFINED, trapped, bus error) */
    SW_EAGAIN = -11,    /* no free counter */
    SW_EBUSY = -16,     /* the resource is in use */
    SW_ENODEV = -19,    /* the feature is not implemented, or not usable at this EL */
    SW_EINVAL = -22,    /* a bad argument */
    SW_ENOSPC = -28,    /* no room in a buffer */
    SW_EOPNOTSUPP = -95 /* not supported by this PE */
};

/* "EIO", "EAGAIN" ... for messages. */
const char *sw_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif
