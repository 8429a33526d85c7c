// pe_model_callbacks.cpp - the core's outputs to the module's ports, and its log lines to
// SC_REPORT.
#include "pmtrace/systemc/pe_model.h"

namespace pmtrace
{

namespace
{

pe_model &self(void *user)
{
    return *static_cast<pe_model *>(user);
}

// Marks a call out of the core in progress: trace sink calls made meanwhile are deferred.
struct calling_out {
    int &depth;
    explicit calling_out(int &d) : depth(d) { ++depth; }
    ~calling_out() { --depth; }
    calling_out(const calling_out &) = delete;
    calling_out &operator=(const calling_out &) = delete;
};

} // namespace

pmt_pe_callbacks pe_model::make_callbacks(pe_model *model)
{
    pmt_pe_callbacks cb{};
    cb.user = model;
    // Each output changes at the time of the call that changed it (output_offset).
    cb.pmuirq = [](void *user, bool level) {
        pe_model &pe = self(user);
        pe.pmuirq.write(level, pe.output_offset());
    };
    cb.cti_pmu_overflow = [](void *user, bool level) {
        pe_model &pe = self(user);
        pe.cti_pmu_overflow.write(level, pe.output_offset());
    };
    cb.brbe_freeze = [](void *user) {
        pe_model &pe = self(user);
        pe.brbe_freeze.notify(pe.output_offset());
    };
    cb.halt_request = [](void *user, bool level) {
        pe_model &pe = self(user);
        pe.halt_request.write(level, pe.output_offset());
    };
    cb.pmu_event = [](void *user, uint16_t event, uint64_t count) {
        pe_model &pe = self(user);
        // PMU_OVFS and PMU_HOVFS: overflows of counters with their PMINTENSET bit set, reported
        // before the overflow flags change the trigger's level. H5.4.4: the trigger event is
        // asserted each time the PE records such an overflow; if the level is already high the
        // rising edge will not come, so this is the event.
        if (event == PMT_EV_PMU_OVFS || event == PMT_EV_PMU_HOVFS)
            pe.cti_pmu_overflow.retrigger(pe.output_offset());
        pe.generated.write(event, count);
    };
    cb.pmu_exception = [](void *user, bool pending, unsigned target_el) {
        pe_model &pe = self(user);
        pe.pmu_exception.write(pending, target_el, pe.output_offset());
    };
    cb.brbe_capture_freeze = [](void *user) {
        pe_model &pe = self(user);
        pe.brbe_capture_freeze.notify(pe.output_offset());
    };
    cb.log = [](void *user, const char *message) { self(user).core_log(message); };
    return cb;
}

pmt_trbe_callbacks pe_model::make_trbe_callbacks(pe_model *model)
{
    pmt_trbe_callbacks cb{};
    cb.user = model;
    cb.trbirq = [](void *user, bool level) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        pe.trbirq.write(level, pe.output_offset());
    };
    cb.exception = [](void *user, bool take, unsigned target_el) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        pe.trbe_exception.write(take, target_el, pe.output_offset());
    };
    cb.serror = [](void *user) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        pe.serror.notify(pe.output_offset());
    };
    cb.cti_trigger = [](void *user, unsigned number) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        const sc_core::sc_time offset = pe.output_offset();
        switch (number) {
        case PMT_CTI_TRBE_STOPPED: pe.cti_trbe_stopped.notify(offset); break;
        case PMT_CTI_TRBE_MANAGEMENT: pe.cti_trbe_management.notify(offset); break;
        case PMT_CTI_TRBE_WRAP: pe.cti_trbe_wrap.notify(offset); break;
        default: break;
        }
    };
    cb.flush_request = [](void *user) {
        pe_model &pe = self(user);
        if (trace_flush_if *unit = pe.trace_flush.get_interface(0)) {
            calling_out out(pe.in_callback_);
            unit->flush_request();
        } else {
            // No trace unit: nothing to flush. The core allows this call from flush_request.
            pmt_trbe_flush_complete(pe.pe_);
        }
    };
    cb.event = [](void *user, uint16_t event) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        pe.generated.write(event, 1);
    };
    cb.translate = [](void *user, uint64_t va, const pmt_trbe_regime *regime,
                      pmt_trbe_translation *out) {
        pe_model &pe = self(user);
        if (trbe_translation_if *mmu = pe.translation.get_interface(0)) {
            calling_out calling(pe.in_callback_);
            *out = mmu->translate(va, *regime);
        } // unbound: the identity the core filled in
    };
    cb.write = [](void *user, uint64_t pa, pmt_security pas, const uint8_t *bytes, size_t n,
                  size_t *done) {
        pe_model &pe = self(user);
        calling_out out(pe.in_callback_);
        return pe.trace_write(pa, pas, bytes, n, done);
    };
    return cb;
}

void pe_model::core_log(const char *message)
{
    if (creating_) {
        create_error_ = message; // pmt_pe_create's reason for refusing the config
        return;
    }
    // A warning repeated word for word (a driver that programs the same UNPREDICTABLE value
    // in a loop) is reported once, with a count at the end.
    if (config_.core_log_severity == sc_core::SC_WARNING)
        log_.warning(message, message);
    else
        sc_core::sc_report_handler::report(config_.core_log_severity, name(), message, __FILE__,
                                           __LINE__);
}

} // namespace pmtrace
