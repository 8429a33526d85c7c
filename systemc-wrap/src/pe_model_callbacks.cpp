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

} // namespace

pmt_pe_callbacks pe_model::make_callbacks(pe_model *model)
{
    pmt_pe_callbacks cb{};
    cb.user = model;
    cb.pmuirq = [](void *user, bool level) { self(user).pmuirq.write(level); };
    cb.cti_pmu_overflow = [](void *user, bool level) { self(user).cti_pmu_overflow.write(level); };
    cb.brbe_freeze = [](void *user) { self(user).brbe_freeze.notify(); };
    cb.halt_request = [](void *user, bool level) { self(user).halt_request.write(level); };
    cb.pmu_event = [](void *user, uint16_t event, uint64_t count) {
        pe_model &pe = self(user);
        // PMU_OVFS and PMU_HOVFS: overflows of counters with their PMINTENSET bit set, reported
        // before the overflow flags change the trigger's level. H5.4.4: the trigger event is
        // asserted each time the PE records such an overflow; if the level is already high the
        // rising edge will not come, so this is the event.
        if (event == PMT_EV_PMU_OVFS || event == PMT_EV_PMU_HOVFS)
            pe.cti_pmu_overflow.retrigger();
        pe.generated.write(event, count);
    };
    cb.pmu_exception = [](void *user, bool pending, unsigned target_el) {
        self(user).pmu_exception.write(pending, target_el);
    };
    cb.brbe_capture_freeze = [](void *user) { self(user).brbe_capture_freeze.notify(); };
    cb.log = [](void *user, const char *message) { self(user).core_log(message); };
    return cb;
}

void pe_model::core_log(const char *message)
{
    if (creating_) {
        create_error_ = message; // pmt_pe_create's reason for refusing the config
        return;
    }
    sc_core::sc_report_handler::report(config_.core_log_severity, name(), message, __FILE__,
                                       __LINE__);
}

} // namespace pmtrace
