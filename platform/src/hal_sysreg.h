// hal_sysreg.h - the sw/ HAL's system register names in the PE model's terms: the encoding
// (hal_sysreg -> pmt_sysreg) and the outcome of an access (pmt_access -> hal_status). Shared by
// the CPUs and the debug HAL.
#ifndef PMTRACE_PLATFORM_HAL_SYSREG_H
#define PMTRACE_PLATFORM_HAL_SYSREG_H

#include <pmtrace/pmtrace.h>

#include "hal/hal.h"

namespace pmtrace::platform
{

inline pmt_sysreg to_pmt(hal_sysreg r)
{
    return PMT_SYSREG(HAL_SYSREG_OP0(r), HAL_SYSREG_OP1(r), HAL_SYSREG_CRN(r), HAL_SYSREG_CRM(r),
                      HAL_SYSREG_OP2(r));
}

inline hal_status from_access(pmt_access a)
{
    switch (a) {
    case PMT_ACCESS_OK: return HAL_OK;
    case PMT_ACCESS_UNDEFINED: return HAL_UNDEFINED;
    case PMT_ACCESS_TRAP_EL1: return HAL_TRAP_EL1;
    case PMT_ACCESS_TRAP_EL2: return HAL_TRAP_EL2;
    case PMT_ACCESS_TRAP_EL3: return HAL_TRAP_EL3;
    case PMT_ACCESS_NOT_MINE: return HAL_UNDEFINED; // nothing in this PE implements it
    }
    return HAL_UNDEFINED;
}

} // namespace pmtrace::platform

#endif
