// a64_cpu_trbe.cpp - the Trace Buffer Unit's address translation (a64_cpu::trbe_translation):
// the trace buffer's pointer is a virtual address of the owning translation regime (D6.3.1), so
// its writes are translated by that regime's stage 1, in the translation tables this CPU's
// registers give at the time of the write.
#include <pmtrace/platform/cpu/a64_cpu.h>

namespace pmtrace::platform
{

namespace
{
// A stage 1 fault as the Trace Buffer Unit reports it (pmt_trbe_fault, D6.5.4 RQKLXR).
pmt_trbe_fault trbe_fault_of(const a64_fault &f)
{
    pmt_trbe_fault out{};
    switch (f.kind) {
    case a64_fault_kind::none: return out;
    case a64_fault_kind::address_size: out.kind = PMT_TRBE_FAULT_ADDRESS_SIZE; break;
    case a64_fault_kind::translation: out.kind = PMT_TRBE_FAULT_TRANSLATION; break;
    case a64_fault_kind::access_flag: out.kind = PMT_TRBE_FAULT_ACCESS_FLAG; break;
    case a64_fault_kind::permission: out.kind = PMT_TRBE_FAULT_PERMISSION; break;
    case a64_fault_kind::external_on_walk: out.kind = PMT_TRBE_FAULT_EXTERNAL_WALK; break;
    case a64_fault_kind::alignment: out.kind = PMT_TRBE_FAULT_ALIGNMENT; break;
    }
    out.stage = 1;
    out.level = out.kind == PMT_TRBE_FAULT_ALIGNMENT ? 0 : static_cast<int8_t>(f.level);
    return out;
}
} // namespace

pmt_trbe_translation a64_cpu::trbe_walker::translate(uint64_t va, const pmt_trbe_regime &regime)
{
    return cpu->trbe_translate(va, regime);
}

// The owning regime's stage 1 (D6.3.4 RJTVDD, D6.5.4): a privileged write, PSTATE.PAN and
// TCR_ELx.E0PDx not applied, the Access flag set by hardware only when the unit manages it
// (TRBIDR_EL1.F) and the regime's TCR_ELx.HA enables it. With the Effective TRBLIMITR_EL1.nVM 1
// (the pointer is an IPA: this platform has no stage 2, so also the PA) and in External mode
// (a PA) there is no stage 1. The platform's translator, when bound, then answers for the
// physical address.
pmt_trbe_translation a64_cpu::trbe_translate(uint64_t va, const pmt_trbe_regime &owner)
{
    pmt_trbe_translation out{};
    out.pa = va;
    out.pas = owner.ss;
    if (!owner.nvm && !owner.external) {
        a64_access a;
        a.va = va;
        a.write = true;
        a.af_update = owner.flag_updates;
        // The owning regime: EL1&0, or EL2 (EL2&0 with E2H, which regime() reads from HCR_EL2
        // as the unit's owner.e2h does).
        const a64_translation t = a64_stage1_translate(
            regime(owner.el == 2 ? 2 : 1), a,
            [this](uint64_t pa, uint64_t &v) { return engine_->read_memory(pa, &v, 8); });
        if (t.fault.kind != a64_fault_kind::none) {
            out.fault = trbe_fault_of(t.fault);
            return out;
        }
        out.pa = t.pa;
    }
    if (pmtrace::trbe_translation_if *next = trbe_physical.get_interface(0))
        return next->translate(out.pa, owner);
    return out;
}

} // namespace pmtrace::platform
