// a64_exception_events.h - the EXC_* event (D14.3) of an exception taken, besides EXC_TAKEN:
// by its kind, and whether it is Taken locally (D14.1).
#ifndef PMTRACE_PLATFORM_A64_EXCEPTION_EVENTS_H
#define PMTRACE_PLATFORM_A64_EXCEPTION_EVENTS_H

#include "a64_cpu_regs.h"

#include <pmtrace/pmt_events.h>

#include <cstdint>

namespace pmtrace::platform::a64
{

// D14.1 "Taken locally": taken to the current Exception level, from EL0 to EL1, or from EL0 to
// EL2 because HCR_EL2.{E2H, TGE} is {1, 1}.
inline bool taken_locally(unsigned from, unsigned target, bool e2h_and_tge)
{
    return from == target || (from == 0 && target == 1) ||
           (from == 0 && target == 2 && e2h_and_tge);
}

// EXC_HVC counts every HVC exception and EXC_SMC every SMC taken to EL3 (an SMC trapped to EL2
// is EXC_TRAP_OTHER: D14.1's table, EC 0x17); the others split on Taken locally: EXC_SVC,
// EXC_PABORT, EXC_DABORT (Data Abort, SError), EXC_IRQ, EXC_FIQ, EXC_UNDEF (any other
// synchronous exception: UNDEFINED, BRK, a trapped system register access ...), or
// EXC_TRAP_PABORT, EXC_TRAP_DABORT, EXC_TRAP_IRQ, EXC_TRAP_FIQ, EXC_TRAP_OTHER (an SVC too).
inline uint16_t exception_event(unsigned vector_type, uint32_t ec, bool local, unsigned target_el)
{
    switch (vector_type) {
    case VEC_IRQ: return local ? PMT_EV_EXC_IRQ : PMT_EV_EXC_TRAP_IRQ;
    case VEC_FIQ: return local ? PMT_EV_EXC_FIQ : PMT_EV_EXC_TRAP_FIQ;
    case VEC_SERROR: return local ? PMT_EV_EXC_DABORT : PMT_EV_EXC_TRAP_DABORT;
    default: break;
    }
    switch (ec) {
    case EC_HVC64: return PMT_EV_EXC_HVC;
    case EC_SMC64: return target_el == 3 ? PMT_EV_EXC_SMC : PMT_EV_EXC_TRAP_OTHER;
    case EC_SVC64: return local ? PMT_EV_EXC_SVC : PMT_EV_EXC_TRAP_OTHER;
    case EC_IABORT_LOWER:
    case EC_IABORT_SAME: return local ? PMT_EV_EXC_PABORT : PMT_EV_EXC_TRAP_PABORT;
    case EC_DABORT_LOWER:
    case EC_DABORT_SAME: return local ? PMT_EV_EXC_DABORT : PMT_EV_EXC_TRAP_DABORT;
    default: return local ? PMT_EV_EXC_UNDEF : PMT_EV_EXC_TRAP_OTHER;
    }
}

} // namespace pmtrace::platform::a64

#endif
