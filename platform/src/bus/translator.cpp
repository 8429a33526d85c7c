// translator.cpp - page rules for the TRBE's translations.
#include "pmtrace/platform/bus/translator.h"

#include <cstdio>
#include <string>

namespace pmtrace::platform
{

const char *fault_kind_name(pmt_trbe_fault_kind kind)
{
    switch (kind) {
    case PMT_TRBE_FAULT_NONE: return "none";
    case PMT_TRBE_FAULT_ADDRESS_SIZE: return "Address size";
    case PMT_TRBE_FAULT_TRANSLATION: return "Translation";
    case PMT_TRBE_FAULT_ACCESS_FLAG: return "Access flag";
    case PMT_TRBE_FAULT_PERMISSION: return "Permission";
    case PMT_TRBE_FAULT_ALIGNMENT: return "Alignment";
    case PMT_TRBE_FAULT_TLB_CONFLICT: return "TLB conflict";
    case PMT_TRBE_FAULT_UNSUPPORTED_ATOMIC: return "Unsupported atomic hardware update";
    case PMT_TRBE_FAULT_EXTERNAL_WALK: return "External abort on translation table walk";
    case PMT_TRBE_FAULT_GPF: return "Granule Protection Fault";
    case PMT_TRBE_FAULT_GPF_WALK: return "Granule Protection Fault on translation table walk";
    case PMT_TRBE_FAULT_GPC: return "Granule Protection Check";
    }
    return "unknown";
}

translator::translator(const sc_core::sc_module_name &name, bool unmapped_is_fault)
    : sc_module(name), unmapped_is_fault_(unmapped_is_fault)
{
    log_.set_name(this->name());
}

void translator::add(rule r)
{
    rules_.push_back(r);
}

void translator::map(uint64_t va, uint64_t pa, uint64_t size, std::optional<pmt_security> pas)
{
    if (!size)
        return;
    add({va / page_size,
         (va + size - 1) / page_size,
         false,
         {},
         pa & ~(page_size - 1),
         pas,
         false});
}

void translator::unmap(uint64_t va, uint64_t size)
{
    if (size)
        add({va / page_size, (va + size - 1) / page_size, false, {}, 0, std::nullopt, true});
}

void translator::inject(uint64_t va, uint64_t size, const pmt_trbe_fault &fault)
{
    if (size)
        add({va / page_size, (va + size - 1) / page_size, true, fault, 0, std::nullopt, false});
}

void translator::clear(uint64_t va, uint64_t size)
{
    // Removes the fault rules over the range by adding "no fault" rules that let the older
    // mapping rules show through.
    if (!size)
        return;
    const uint64_t first = va / page_size, last = (va + size - 1) / page_size;
    std::vector<rule> kept;
    for (const rule &r : rules_) {
        if (!r.is_fault || r.last_page < first || r.first_page > last) {
            kept.push_back(r);
            continue;
        }
        if (r.first_page < first) { // the part below the range stays
            rule low = r;
            low.last_page = first - 1;
            kept.push_back(low);
        }
        if (r.last_page > last) { // and the part above it
            rule high = r;
            high.first_page = last + 1;
            kept.push_back(high);
        }
    }
    rules_ = kept;
}

void translator::clear_all()
{
    rules_.clear();
}

bool translator::applies(const pmt_trbe_fault &f, const pmt_trbe_regime &regime)
{
    if (f.kind == PMT_TRBE_FAULT_GPC || f.kind == PMT_TRBE_FAULT_GPF)
        return true; // Granule Protection Checks apply in every mode
    if (regime.external)
        return false;
    if (f.stage == 2)
        return regime.el == 1; // only the EL1&0 regime has a stage 2
    return !regime.nvm;        // stage 1 is disabled with nVM
}

pmt_trbe_translation translator::translate(uint64_t va, const pmt_trbe_regime &regime)
{
    translations_++;
    pmt_trbe_translation out{};
    out.pa = va;
    out.pas = regime.ss;
    const uint64_t page = va / page_size;
    const bool stage1 = !regime.nvm && !regime.external;
    bool fault_found = false, mapped = false;
    // The newest rule that applies to the page wins, separately for faults and for mappings.
    for (auto it = rules_.rbegin(); it != rules_.rend(); ++it) {
        if (page < it->first_page || page > it->last_page)
            continue;
        if (it->is_fault) {
            if (!fault_found && applies(it->fault, regime)) {
                out.fault = it->fault;
                fault_found = true;
            }
        } else if (!mapped && stage1) {
            mapped = true;
            if (it->unmapped) {
                if (unmapped_is_fault_ && !fault_found)
                    out.fault = make_fault(PMT_TRBE_FAULT_TRANSLATION, 1, 3);
                continue;
            }
            out.pa = it->pa + (page - it->first_page) * page_size + va % page_size;
            if (it->pas)
                out.pas = *it->pas;
        }
    }
    if (!mapped && stage1 && unmapped_is_fault_ && !fault_found)
        out.fault = make_fault(PMT_TRBE_FAULT_TRANSLATION, 1, 3);
    if (out.fault.kind != PMT_TRBE_FAULT_NONE) {
        faults_++;
        char line[160];
        std::snprintf(line, sizeof line, "0x%llx: %s fault, stage %u, level %d",
                      static_cast<unsigned long long>(va), fault_kind_name(out.fault.kind),
                      out.fault.stage, out.fault.level);
        log_.info(line, sc_core::SC_MEDIUM);
    }
    return out;
}

} // namespace pmtrace::platform
