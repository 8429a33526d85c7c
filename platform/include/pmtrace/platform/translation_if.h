// translation_if.h - the TRBE's address translation as an interface: what the Trace Buffer
// Unit's translate callback (pmt_trbe.h) asks and answers, one to one.
//
// translate(va, regime) gets the address the Trace Buffer Unit writes (a VA, or an IPA or PA
// when regime.nvm or regime.external says so) and its owning translation regime, and returns
// the physical address and its physical address space, or a fault {kind, stage, level, and the
// Permission fault details}. The answer holds for the whole 4 KiB page containing va. A
// wrapper's translate callback is `*out = port->translate(va, *regime);`.
#ifndef PMTRACE_PLATFORM_TRANSLATION_IF_H
#define PMTRACE_PLATFORM_TRANSLATION_IF_H

#include <pmtrace/pmt_trbe.h>

#include <cstdint>
#include <systemc>

namespace pmtrace::platform
{

class trbe_translation_if : public virtual sc_core::sc_interface
{
  public:
    virtual pmt_trbe_translation translate(uint64_t va, const pmt_trbe_regime &regime) = 0;
};

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
