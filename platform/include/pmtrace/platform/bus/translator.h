// translator.h - address translation for the TRBE with injectable faults.
//
// Identity by default: an address translates to itself in the regime's Security state. map()
// adds page mappings (VA to PA, optionally into another physical address space); inject() makes
// pages answer a fault instead (Translation, Permission, Access flag, Address size at a level,
// GPC, GPF, External abort on a walk; stage 1 or 2). Both work on whole 4 KiB pages, can be
// changed at any time, and the latest one added for a page wins.
//
// What applies depends on the regime: stage 1 (mappings, stage 1 faults) only when stage 1 is
// enabled (not regime.nvm, not regime.external); stage 2 faults only for the EL1&0 regime;
// Granule Protection faults (GPC, GPF) always; in External mode nothing else.
#ifndef PMTRACE_PLATFORM_TRANSLATOR_H
#define PMTRACE_PLATFORM_TRANSLATOR_H

#include <pmtrace/systemc/log.h>
#include <pmtrace/platform/bus/translation_if.h>

#include <cstdint>
#include <optional>
#include <systemc>
#include <vector>

namespace pmtrace::platform
{

constexpr uint64_t page_size = 0x1000;

class translator : public sc_core::sc_module, public trbe_translation_if
{
  public:
    // unmapped_is_fault: an address no mapping covers takes a stage 1 Translation fault at
    // level 3 instead of translating to itself.
    explicit translator(const sc_core::sc_module_name &name, bool unmapped_is_fault = false);

    pmt_trbe_translation translate(uint64_t va, const pmt_trbe_regime &regime) override;

    // Maps the pages of [va, va + size) to [pa, ...), in `pas` or the regime's Security state.
    void map(uint64_t va, uint64_t pa, uint64_t size,
             std::optional<pmt_security> pas = std::nullopt);
    void unmap(uint64_t va, uint64_t size);
    // The pages of [va, va + size) answer `fault`; clear() removes injected faults there.
    void inject(uint64_t va, uint64_t size, const pmt_trbe_fault &fault);
    void clear(uint64_t va, uint64_t size);
    void clear_all();

    uint64_t translations() const { return translations_; }
    uint64_t faults_reported() const { return faults_; }

    // This component's log: its verbosity, its warnings and their repeats (log.h).
    module_log &log() { return log_; }

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    module_log log_;
    struct rule {
        uint64_t first_page, last_page; // page numbers
        bool is_fault;
        pmt_trbe_fault fault;
        uint64_t pa; // of first_page
        std::optional<pmt_security> pas;
        bool unmapped; // an unmap() or clear() hole
    };
    void add(rule r);
    static bool applies(const pmt_trbe_fault &f, const pmt_trbe_regime &regime);

    bool unmapped_is_fault_;
    std::vector<rule> rules_; // newest last
    uint64_t translations_ = 0, faults_ = 0;
};

} // namespace pmtrace::platform

#endif
