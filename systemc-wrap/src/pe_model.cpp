// pe_model.cpp - the module: construction, time, and the calls a CPU model makes.
//
// Every call first counts the clock cycles up to the caller's time (advance), then calls the core,
// then re-arms the one overflow event from the core's headroom for CPU_CYCLES (rearm). Nothing
// ticks per cycle: between calls the cycles are only counted when the overflow event fires.
#include "pmtrace/systemc/pe_model.h"

#include "pmtrace/systemc/log.h"

namespace pmtrace
{

namespace
{

sc_core::sc_time nonzero_period(const sc_core::sc_time &period)
{
    return period == sc_core::SC_ZERO_TIME ? sc_core::sc_time(1, sc_core::SC_NS) : period;
}

} // namespace

pe_model::pe_model(const sc_core::sc_module_name &name, const pe_model_config &config)
    : sc_core::sc_module(name), pmu_frame("pmu_frame"), debug_frame("debug_frame"),
      trbe_frame("trbe_frame"), trace_bus("trace_bus"), translation("translation"),
      sysreg("sysreg"), events("events"), state("state"), profiling("profiling"),
      pc_samples("pc_samples"), snapshot("snapshot"), spe("spe"), reset_in("reset_in"),
      trace_sink("trace_sink"), trbe("trbe"), pmuirq("pmuirq"), pmu_exception("pmu_exception"),
      cti_pmu_overflow("cti_pmu_overflow", 1), brbe_freeze("brbe_freeze"),
      brbe_capture_freeze("brbe_capture_freeze"), halt_request("halt_request"),
      generated("generated"), trbirq("trbirq"), trbe_exception("trbe_exception"), serror("serror"),
      cti_trbe_stopped("cti_trbe_stopped", PMT_CTI_TRBE_STOPPED),
      cti_trbe_management("cti_trbe_management", PMT_CTI_TRBE_MANAGEMENT),
      cti_trbe_wrap("cti_trbe_wrap", PMT_CTI_TRBE_WRAP), trace_flush("trace_flush"),
      config_(config), simcontext_(sc_core::sc_get_curr_simcontext()),
      clock_(nonzero_period(config.clock_period)), trace_ext_(new access_extension()),
      dmi_ext_(new access_extension())
{
    log_.set_name(this->name());
    if (config_.clock_period == sc_core::SC_ZERO_TIME) {
        SC_REPORT_ERROR(this->name(), "clock_period must not be zero: the model uses 1 ns");
        config_.clock_period = clock_.period();
    }
    pmt_pe_callbacks callbacks = make_callbacks(this);
    creating_ = true;
    pe_ = pmt_pe_create(&config_.core, &callbacks);
    creating_ = false;
    if (!pe_) {
        std::string why = create_error_.empty() ? "pmt_pe_create failed" : create_error_;
        SC_REPORT_ERROR(this->name(), (why + "; the model uses pmt_pe_config_default()").c_str());
        config_.core = pmt_pe_config_default();
        pe_ = pmt_pe_create(&config_.core, &callbacks);
    }
    saved_.resize(pmt_pe_state_size(pe_));
    pmt_trbe_callbacks trbe_callbacks = make_trbe_callbacks(this);
    pmt_trbe_set_callbacks(pe_, &trbe_callbacks);
    pmt_ete_callbacks ete_callbacks = make_ete_callbacks(this);
    pmt_ete_set_callbacks(pe_, &ete_callbacks);
    unit_.resize(size_t{1} << config_.core.trbe.align);
    trace_tx_.set_extension(trace_ext_); // the payloads own the extensions
    dmi_tx_.set_extension(dmi_ext_);

    pmu_frame.register_b_transport(this, &pe_model::frame_b_transport, PMU_FRAME);
    pmu_frame.register_transport_dbg(this, &pe_model::frame_transport_dbg, PMU_FRAME);
    pmu_frame.register_get_direct_mem_ptr(this, &pe_model::frame_get_dmi, PMU_FRAME);
    debug_frame.register_b_transport(this, &pe_model::frame_b_transport, DEBUG_FRAME);
    debug_frame.register_transport_dbg(this, &pe_model::frame_transport_dbg, DEBUG_FRAME);
    debug_frame.register_get_direct_mem_ptr(this, &pe_model::frame_get_dmi, DEBUG_FRAME);
    trbe_frame.register_b_transport(this, &pe_model::frame_b_transport, TRBE_FRAME);
    trbe_frame.register_transport_dbg(this, &pe_model::frame_transport_dbg, TRBE_FRAME);
    trbe_frame.register_get_direct_mem_ptr(this, &pe_model::frame_get_dmi, TRBE_FRAME);
    trace_bus.register_invalidate_direct_mem_ptr(this, &pe_model::invalidate_direct_mem_ptr);

    sysreg.bind(*this);
    events.bind(*this);
    state.bind(*this);
    profiling.bind(*this);
    pc_samples.bind(*this);
    snapshot.bind(*this);
    spe.bind(*this);
    reset_in.bind(*this);
    trace_sink.bind(*this);
    trbe.bind(*this);
    ete.bind(*this);

    SC_HAS_PROCESS(pe_model);
    SC_METHOD(on_overflow_due);
    sensitive << overflow_event_;
    dont_initialize();
    SC_METHOD(sample_counters);
    sensitive << sample_event_;
    dont_initialize();
    SC_METHOD(run_deferred);
    sensitive << deferred_event_;
    dont_initialize();
}

pe_model::~pe_model()
{
    pmt_pe_destroy(pe_);
}

void pe_model::start_of_simulation()
{
    // Levels that rose before the ports were bound (programming from sc_main) reach the
    // platform when simulation starts.
    pmuirq.deliver_if_high();
    pmu_exception.deliver_if_high();
    cti_pmu_overflow.deliver_if_high();
    halt_request.deliver_if_high();
    trbirq.deliver_if_high();
    trbe_exception.deliver_if_high();
}

void pe_model::end_of_simulation()
{
    log_.report_repeats();
}

// --- Time ---

void pe_model::rearm_at(uint64_t due)
{
    overflow_event_.cancel();
    overflow_due_ = due;
    overflow_time_ = sc_core::sc_max_time();
    sc_core::sc_time when;
    if (due == cycle_clock::never || !clock_.end_of_cycle(due, when))
        return;
    // The due cycle ends after the synchronisation point, which is not before now.
    overflow_time_ = when;
    sc_core::sc_time now = sc_core::sc_time_stamp();
    overflow_event_.notify(when > now ? when - now : sc_core::SC_ZERO_TIME);
}

// A call at a time past the overflow event's (a decoupled caller ahead of SystemC time, before
// the event fires): the cycles up to the overflow are counted first, so the outputs it changes
// (PMUIRQ ...) change at its time, as they would have at the event; the call's own cycles and
// changes follow, at the call's time. The count is the same split in two (pmt_pmu_count is exact
// whatever the split); the event is re-armed at the end of the call, as after any call.
void pe_model::count_to_overflow()
{
    const sc_core::sc_time now = simcontext_->time_stamp();
    call_offset_ = overflow_time_ > now ? overflow_time_ - now : sc_core::SC_ZERO_TIME;
    if (uint64_t n = clock_.advance_to(overflow_time_))
        pmt_pmu_count(pe_, PMT_EV_CPU_CYCLES, n);
}

void pe_model::on_overflow_due()
{
    overflow_due_ = cycle_clock::never;
    overflow_time_ = sc_core::sc_max_time();
    sync();
    if (sample_interval_ != sc_core::SC_ZERO_TIME)
        sample_event_.notify(sc_core::SC_ZERO_TIME); // the counters right after the overflow
}

// --- sysreg_if ---

pmt_access pe_model::read_sysreg(pmt_sysreg encoding, uint64_t &value,
                                 const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_access access = pmt_pe_sysreg_read(pe_, encoding, &value);
    if (access == PMT_ACCESS_OK)
        log_sysreg(encoding, value, false);
    rearm();
    return access;
}

pmt_access pe_model::write_sysreg(pmt_sysreg encoding, uint64_t value,
                                  const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_access access = pmt_pe_sysreg_write(pe_, encoding, value);
    if (access == PMT_ACCESS_OK)
        log_sysreg(encoding, value, true);
    rearm();
    return access;
}

void pe_model::log_sysreg(pmt_sysreg encoding, uint64_t value, bool write) const
{
    if (log_.enabled(config_.access_verbosity))
        log_.access(pmt_sysreg_decode(encoding), value, write, config_.access_verbosity);
}

// --- pmu_event_if ---

pmt_status pe_model::count_event(uint16_t event, uint64_t n, const sc_core::sc_time &offset)
{
    if (event == PMT_EV_CPU_CYCLES) {
        if (!cycles_event_warned_)
            SC_REPORT_WARNING(name(), "CPU_CYCLES is counted from the clock: count_event refuses "
                                      "it (reported once)");
        cycles_event_warned_ = true;
        return PMT_ERR_ARG;
    }
    advance(offset);
    pmt_status status = pmt_pmu_count(pe_, event, n);
    rearm();
    return status;
}

// --- pe_state_if ---

pmt_status pe_model::set_pe_state(const pmt_pe_state &pe_state, const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pe_set_state(pe_, &pe_state);
    rearm();
    return status;
}

pmt_pe_state pe_model::pe_state() const
{
    return pmt_pe_get_state(pe_);
}

pmt_status pe_model::context_sync(const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pe_context_sync(pe_);
    rearm();
    return status;
}

// --- sync_profiling_if ---

bool pe_model::sync_exception_due() const
{
    return pmt_pmu_sync_exception_due(pe_);
}

pmt_pmu_exception_state pe_model::pmu_exception_state() const
{
    pmt_pmu_exception_state s{};
    (void)pmt_pmu_exception_get(pe_, &s);
    return s;
}

pmt_status pe_model::retire(uint64_t address, bool generates_exception, bool &sync_due,
                            const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_retire(pe_, address, generates_exception, &sync_due);
    rearm();
    return status;
}

pmt_status pe_model::exception_entry(const pmt_pe_state &after, bool &spsr_ppend,
                                     const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_exception_entry(pe_, &after, &spsr_ppend);
    rearm();
    return status;
}

pmt_status pe_model::exception_return(bool spsr_ppend, const pmt_pe_state &after, uint64_t address,
                                      bool &sync_due, const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_exception_return(pe_, spsr_ppend, &after, address, &sync_due);
    rearm();
    return status;
}

pmt_status pe_model::debug_entry(bool aarch32, const pmt_pe_state &after, bool &dspsr_ppend,
                                 const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_debug_entry(pe_, aarch32, &after, &dspsr_ppend);
    rearm();
    return status;
}

pmt_status pe_model::debug_exit(bool aarch32, bool dspsr_ppend, const pmt_pe_state &after,
                                const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_debug_exit(pe_, aarch32, dspsr_ppend, &after);
    rearm();
    return status;
}

// --- pc_sample_if ---

pmt_status pe_model::pc_sample(const pmt_pc_sample &sample)
{
    return pmt_pe_pc_sample(pe_, &sample);
}

pmt_status pe_model::set_pc_sample_source(source_function source)
{
    pc_source_ = std::move(source);
    if (!pc_source_)
        return pmt_pe_set_pc_sample_source(pe_, nullptr, nullptr);
    return pmt_pe_set_pc_sample_source(
        pe_,
        [](void *user, pmt_pc_sample *sample) {
            return static_cast<pe_model *>(user)->pc_source_(*sample);
        },
        this);
}

// --- snapshot_request_if, spe_state_if, reset_if ---

pmt_status pe_model::snapshot_request(const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_snapshot_request(pe_);
    rearm();
    return status;
}

pmt_status pe_model::set_spe_state(bool pmblimitr_e, bool pmblimitr_pmfz, bool pmbsr_s,
                                   const sc_core::sc_time &offset)
{
    advance(offset);
    pmt_status status = pmt_pmu_set_spe_state(pe_, pmblimitr_e, pmblimitr_pmfz, pmbsr_s);
    rearm();
    return status;
}

void pe_model::reset()
{
    advance();
    pmt_pe_reset(pe_);
    rearm();
}

// --- Observability ---

void pe_model::trace(sc_core::sc_trace_file *file) const
{
    if (!file)
        return;
    std::string prefix = std::string(name()) + ".";
    sc_core::sc_trace(file, pmuirq.view(), prefix + "pmuirq");
    sc_core::sc_trace(file, pmu_exception.view(), prefix + "pmu_exception");
    sc_core::sc_trace(file, pmu_exception.target_el_view(), prefix + "pmu_exception_target_el");
    sc_core::sc_trace(file, cti_pmu_overflow.view(), prefix + "cti_pmu_overflow");
    sc_core::sc_trace(file, brbe_freeze.view(), prefix + "brbe_freeze");
    sc_core::sc_trace(file, brbe_capture_freeze.view(), prefix + "brbe_capture_freeze");
    sc_core::sc_trace(file, halt_request.view(), prefix + "halt_request");
    if (!config_.core.trbe.feat_trbe)
        return;
    sc_core::sc_trace(file, trbirq.view(), prefix + "trbirq");
    sc_core::sc_trace(file, trbe_exception.view(), prefix + "trbe_exception");
    sc_core::sc_trace(file, trbe_exception.target_el_view(), prefix + "trbe_exception_target_el");
    sc_core::sc_trace(file, serror.view(), prefix + "serror");
    if (!config_.core.trbe.feat_trbe_ext)
        return;
    sc_core::sc_trace(file, cti_trbe_stopped.view(), prefix + "cti_trbe_stopped");
    sc_core::sc_trace(file, cti_trbe_management.view(), prefix + "cti_trbe_management");
    sc_core::sc_trace(file, cti_trbe_wrap.view(), prefix + "cti_trbe_wrap");
}

void pe_model::trace_counters(sc_core::sc_trace_file *file, const sc_core::sc_time &interval)
{
    if (!file || interval == sc_core::SC_ZERO_TIME)
        return;
    std::string prefix = std::string(name()) + ".";
    for (unsigned n = 0; n < config_.core.num_counters; n++)
        sc_core::sc_trace(file, traced_counters_[n], prefix + "PMEVCNTR" + std::to_string(n));
    sc_core::sc_trace(file, traced_counters_[PMT_CYCLE_COUNTER_ID], prefix + "PMCCNTR");
    if (config_.core.feat_icntr)
        sc_core::sc_trace(file, traced_counters_[PMT_INSTRUCTION_COUNTER_ID], prefix + "PMICNTR");
    sample_interval_ = interval;
    sample_event_.notify(sc_core::SC_ZERO_TIME);
}

// Reads the counters as an external debugger with the most secure access would (reads of the
// frame have no side effects); a counter the frame refuses (OS Double Lock, powered down) keeps
// its last value.
std::array<pe_model::counter_view, 33> pe_model::counters()
{
    sync();
    // A peek: neither the OS Lock (locked out of reset until software releases it) nor the other
    // locks hide the counters from the summary and the waveforms.
    auto read32 = [&](uint32_t offset, uint64_t &value) {
        return pmt_pmu_ext_peek(pe_, offset, 4, &value) == PMT_EXT_OK;
    };
    auto read64 = [&](uint32_t offset, uint64_t &value) {
        uint64_t lo = 0, hi = 0;
        if (!read32(offset, lo))
            return false;
        // A 32-bit counter (without FEAT_PMUv3p5) has no upper half.
        if (!read32(offset + 4, hi))
            hi = 0;
        value = hi << 32 | lo;
        return true;
    };
    // The external PMU frame (I5.2): PMEVCNTR<n> at 8n, PMCCNTR 0x0F8, PMICNTR 0x100,
    // PMEVTYPER<n> at 0x400 + 4n, PMCNTENSET 0xC00.
    std::array<counter_view, 33> view{};
    uint64_t enables = 0;
    (void)read32(0xC00, enables);
    auto fill = [&](unsigned index, uint32_t offset, uint16_t event) {
        counter_view &c = view[index];
        c.implemented = read64(offset, c.value);
        c.enabled = c.implemented && (enables >> index & 1);
        c.event = event;
    };
    for (unsigned n = 0; n < config_.core.num_counters; n++) {
        uint64_t type = 0;
        (void)read32(0x400 + 4 * n, type);
        fill(n, 8 * n, static_cast<uint16_t>(type & 0xFFFF));
    }
    fill(PMT_CYCLE_COUNTER_ID, 0x0F8, PMT_EV_CPU_CYCLES);
    if (config_.core.feat_icntr)
        fill(PMT_INSTRUCTION_COUNTER_ID, 0x100, PMT_EV_INST_RETIRED);
    return view;
}

void pe_model::sample_counters()
{
    const std::array<counter_view, 33> view = counters();
    for (unsigned n = 0; n < view.size(); n++)
        if (view[n].implemented)
            traced_counters_[n] = view[n].value;
    sample_event_.notify(sample_interval_);
}

} // namespace pmtrace
