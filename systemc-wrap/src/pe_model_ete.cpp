// pe_model_ete.cpp - the trace unit's reports (ete_report_if), its timestamps and its cycles:
// the core's pmt_ete_report_* at the caller's local time; the trace they generate goes to the
// Trace Buffer Unit inside the core, which writes it through the trace bus (pe_model_trbe.cpp).
#include <pmtrace/systemc/pe_model.h>

namespace pmtrace
{

pmt_ete_callbacks pe_model::make_ete_callbacks(pe_model *model)
{
    pmt_ete_callbacks cb{};
    cb.user = model;
    cb.timestamp = [](void *user, pmt_ete_timebase timebase) -> uint64_t {
        pe_model &pe = *static_cast<pe_model *>(user);
        ete_timestamp_if *source = pe.timestamps.get_interface(0);
        // The time of the report: the clock was synchronised to it (ete_call).
        return source ? source->timestamp(timebase, pe.clock_.now()) : 0;
    };
    // The cycle counter's cycles (TRCCONFIGR.CCI): the PE's clock at the report, the cycles
    // PMCCNTR_EL0 and CPU_CYCLES count (the clock was synchronised to the report: ete_call).
    cb.cycles = [](void *user) -> uint64_t {
        return static_cast<pe_model *>(user)->clock_.cycles();
    };
    return cb;
}

template <typename Call> pmt_status pe_model::ete_call(const sc_core::sc_time &offset, Call call)
{
    advance(offset);
    const pmt_status status = call();
    rearm();
    return status;
}

// Reports that only change the trace unit's state need no clock: the cycles up to them are
// counted at the next call (pmt_ete_report_ranges_held).
size_t pe_model::report_ranges_held(const pmt_ete_range *ranges, size_t n)
{
    return pmt_ete_report_ranges_held(pe_, ranges, n);
}

bool pe_model::wants_reports()
{
    return pmt_ete_wants_reports(pe_);
}

pmt_status pe_model::report_range(const pmt_ete_range &range, const sc_core::sc_time &offset)
{
    return ete_call(offset, [&] { return pmt_ete_report_range(pe_, &range); });
}

pmt_status pe_model::report_exception(const pmt_ete_exception_taken &exception,
                                      const sc_core::sc_time &offset)
{
    return ete_call(offset, [&] { return pmt_ete_report_exception(pe_, &exception); });
}

pmt_status pe_model::report_context_ids(uint32_t contextidr_el1, uint32_t contextidr_el2,
                                        const sc_core::sc_time &offset)
{
    return ete_call(
        offset, [&] { return pmt_ete_report_context_ids(pe_, contextidr_el1, contextidr_el2); });
}

pmt_status pe_model::flush_trace(const sc_core::sc_time &offset)
{
    return ete_call(offset, [&] { return pmt_ete_flush(pe_); });
}

} // namespace pmtrace
