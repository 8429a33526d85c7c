// translation_if.h - the TRBE's address translation as an interface: what the Trace Buffer
// Unit's translate callback (pmt_trbe.h) asks and answers, one to one. The interface belongs to
// the PE model (pmtrace/systemc/trbe_if.h, which a pe_model's translation port uses); the
// platform names it in its own namespace and adds helpers for faults.
//
// translate(va, regime) gets the address the Trace Buffer Unit writes (a VA, or an IPA or PA
// when regime.nvm or regime.external says so) and its owning translation regime, and returns
// the physical address and its physical address space, or a fault {kind, stage, level, and the
// Permission fault details}. The answer holds for the whole 4 KiB page containing va.
#ifndef PMTRACE_PLATFORM_TRANSLATION_IF_H
#define PMTRACE_PLATFORM_TRANSLATION_IF_H

#include <pmtrace/pmt_trbe.h>
#include <pmtrace/systemc/trbe_if.h>

#include <cstdint>

namespace pmtrace::platform
{

using pmtrace::trbe_translation_if;

// A fault of a kind, at a stage and level.
inline pmt_trbe_fault make_fault(pmt_trbe_fault_kind kind, unsigned stage = 1, int level = 3)
{
    pmt_trbe_fault f{};
    f.kind = kind;
    f.stage = static_cast<uint8_t>(stage);
    f.level = static_cast<int8_t>(level);
    return f;
}

// "Permission", "Translation", ... for logs.
const char *fault_kind_name(pmt_trbe_fault_kind kind);

} // namespace pmtrace::platform

#endif
