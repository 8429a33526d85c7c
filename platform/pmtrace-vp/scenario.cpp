// scenario.cpp - the scenarios (scenario.h).
#include "scenario.h"

#include <pmtrace/platform/trace/trace_decoder.h>

#include <algorithm>
#include <cstdio>

namespace pmtrace::vp_cli
{

using namespace pmtrace::platform;

platform::vp_config platform_config(const options &o)
{
    vp_config c;
    c.pe.core.num_counters = o.counters;
    c.pe.core.pmu_version = o.pmu_version;
    c.pe.core.trbe.feat_trbe_ext = o.trbe_ext;
    c.pe.core.trbe.ext_abort = o.ext_abort;
    c.pe.core.trbe.erratum_fill_overwrite = o.erratum_fill_overwrite;
    c.pe.core.trbe.erratum_write_out_of_range = o.erratum_write_out_of_range;
    c.pe.core.trbe.erratum_drain_after_disable = o.erratum_drain_after_disable;
    c.pe.core.trbe.erratum_ctxt_sync_after_enable = o.erratum_ctxt_sync_after_enable;
    c.a64.midr = o.midr;
    c.pe.clock_period = o.clock;
    c.cpu.quantum = o.quantum;
    c.cpu.irq_entry_cycles = o.irq_cycles;
    c.rtc.base = o.rtc_base;
    return c;
}

scenario_runner::scenario_runner(const options &o, platform::vp &vp) : o_(o), vp_(vp)
{
    // The synthetic loop: one iteration's events and trace.
    sw_loop_init(&loop_);
    loop_.iterations = o.iterations;
    loop_.el = 0;
    loop_.instructions = 1000;
    loop_.cycles = 1300;
    const hal_event_count mix[] = {{PMT_EV_BR_RETIRED, 200},
                                   {PMT_EV_BR_MIS_PRED_RETIRED, 7},
                                   {PMT_EV_L1D_CACHE, 300},
                                   {PMT_EV_L1D_CACHE_REFILL, 12}};
    for (const hal_event_count &m : mix)
        loop_.events[loop_.num_events++] = m;
    loop_.per_piece = o.per_piece;
    loop_.trace_bytes = o.trace_per_iteration;
    loop_.trigger_after = o.scenario == scenario::trace ? o.trigger_after : SW_LOOP_NO_TRIGGER;
    if (o.ete) {
        ete_.attach(loop_);
        if (!ete_.place(vp.ram, virt::ram_base))
            SC_REPORT_WARNING("pmtrace-vp", "the synthetic program does not fit in RAM");
    }

    if (o.scenario == scenario::fault) {
        if (o.fault.memory_error)
            memory_fault_ = vp.ram.add_fault(o.fault.address - virt::ram_base, page_size,
                                             tlm::TLM_GENERIC_ERROR_RESPONSE, fault_access::write);
        else
            vp.mmu.inject(o.fault.address, page_size, o.fault.fault);
    }

    // The trace session's buffer and what it keeps.
    sw_trace_config &t = result_.trace_config;
    t.base = o.buffer_base;
    t.size = o.buffer_size;
    t.fill_mode = o.scenario == scenario::trace ? o.fill_mode : PMT_TRBLIMITR_FM_FILL;
    t.trigger = o.scenario == scenario::trace ? o.trigger : SW_TRACE_NO_TRIGGER;
    t.trigger_count = o.trigger_count;
    if (!o.trace_out.empty() || !o.snapshot.empty() || o.decode) {
        // Fill mode keeps every byte; Wrap and Circular Buffer modes at most the buffer. ETE:
        // two atoms an iteration, a re-synchronization (25 bytes) every 1 KiB, the start.
        const uint64_t per_iteration = o.ete ? 3 : o.trace_per_iteration;
        uint64_t want = t.fill_mode == PMT_TRBLIMITR_FM_FILL ? o.iterations * per_iteration + 64
                                                             : o.buffer_size;
        result_.captured.resize(static_cast<size_t>(std::min<uint64_t>(want, 256u << 20)));
        t.out = result_.captured.data();
        t.out_size = result_.captured.size();
    }
}

bool scenario_runner::session_next(void *arg, hal_work *)
{
    auto *self = static_cast<scenario_runner *>(arg);
    if (self->session_inner_) {
        const sw_workload *w = self->session_inner_;
        self->session_inner_ = nullptr;
        self->run_counting(*self->session_env_, *w);
    }
    return false;
}

void scenario_runner::run(const hal *h)
{
    // One GIC, shared by the PMU's and the Trace Buffer Unit's sessions.
    sw_gic gic;
    sw_env env = sw_env_virt(h);
    if (int ret = sw_gic_init(&gic, h, env.gicd_base, env.gicr_base)) {
        result_.status = ret;
        result_.text = std::string("GIC bring-up failed: ") + sw_strerror(ret) + "\n";
        return;
    }
    env.gic = &gic;
    const sw_workload loop = sw_loop_workload(&loop_);
    switch (o_.scenario) {
    case scenario::stat:
    case scenario::record:
        if (o_.trace_alongside) {
            // The trace session around the counting one: its workload is the counting session
            // (so the counts are the loop's alone, without the trace driver's work).
            session_env_ = &env;
            session_inner_ = &loop;
            run_trace(env, sw_workload{this, session_next});
            session_env_ = nullptr;
            session_inner_ = nullptr;
        } else {
            run_counting(env, loop);
        }
        break;
    case scenario::trace: run_trace(env, loop); break;
    case scenario::fault: run_fault(env, loop); break;
    }
    if (result_.traced) {
        static char text[4096];
        sw_trace_format(&result_.trace_config, &result_.trace, text, sizeof text);
        result_.text += (result_.text.empty() ? "" : "\n") + std::string(text);
        if (result_.status == SW_OK)
            result_.status = result_.trace.status;
    }
}

void scenario_runner::run_counting(const sw_env &env, const sw_workload &w)
{
    static char text[8192];
    if (o_.scenario == scenario::stat) {
        sw_stat_config c{};
        for (uint16_t ev : o_.events)
            c.events[c.num_events++] = ev;
        c.long_counters = o_.long_counters;
        c.exclude_user = o_.exclude_user;
        c.exclude_kernel = o_.exclude_kernel;
        result_.status = sw_stat_run(&env, &c, &w, &result_.stat);
        sw_stat_format(&result_.stat, text, sizeof text);
    } else {
        sw_record_config c{};
        c.event = o_.record_event;
        c.period = o_.period;
        c.long_counter = o_.long_counters;
        c.exclude_user = o_.exclude_user;
        c.exclude_kernel = o_.exclude_kernel;
        result_.status = sw_record_run(&env, &c, &w, &result_.record);
        sw_record_format(&c, &result_.record, text, sizeof text);
    }
    result_.text = text;
}

void scenario_runner::run_trace(const sw_env &env, const sw_workload &w)
{
    result_.traced = true;
    (void)sw_trace_run(&env, &result_.trace_config, &w, &result_.trace);
    result_.captured.resize(std::min(result_.captured.size(), result_.trace.out_len));
}

bool scenario_runner::fix(void *arg, const sw_fault_report *)
{
    auto *self = static_cast<scenario_runner *>(arg);
    if (!self->o_.fault.fix || self->fault_removed_)
        return false;
    self->fault_removed_ = true;
    if (self->memory_fault_)
        return self->vp_.ram.remove_fault(self->memory_fault_);
    self->vp_.mmu.clear(self->o_.fault.address, page_size);
    return true;
}

void scenario_runner::run_fault(const sw_env &env, const sw_workload &w)
{
    sw_fault_config c{};
    c.base = o_.buffer_base;
    c.size = o_.buffer_size;
    c.fix = fix;
    c.fix_arg = this;
    result_.status = sw_fault_run(&env, &c, &w, &result_.fault);
    static char text[4096];
    sw_fault_format(&result_.fault, text, sizeof text);
    result_.text = text;
}

bool scenario_runner::finish()
{
    if (!result_.traced || !o_.ete)
        return true;
    bool ok = true;
    if (!o_.snapshot.empty())
        ok = write_opencsd_snapshot(o_.snapshot, ete_.capture(result_.captured)) ==
             snapshot_status::ok;
    if (o_.decode) {
        const decode_result d =
            decode_ete_trace(result_.captured, ete_.registers(), {ete_.program().image()});
        uint64_t instructions = 0;
        for (const instruction_range &r : d.ranges)
            instructions += r.instructions;
        // The program's ranges: all of them when the capture holds the whole trace (Fill mode,
        // every part collected), else the newest ones, from where decoding could start.
        const std::vector<instruction_range> all = ete_.program().ranges(ete_.iterations());
        const bool whole = result_.captured.size() == ete_.bytes();
        bool match = d.ranges.size() <= all.size();
        if (match && whole)
            match = d.ranges == all;
        else if (match)
            match = std::equal(d.ranges.begin(), d.ranges.end(), all.end() - d.ranges.size());
        result_.decode_ok = d.ok() && match && !d.ranges.empty();
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "decode: %zu bytes, decoding from byte %llu (%u sync points): %zu "
                      "instruction ranges, %llu instructions, %u errors; %s\n",
                      result_.captured.size(),
                      static_cast<unsigned long long>(d.sync_offset.value_or(0)), d.async_packets,
                      d.ranges.size(), static_cast<unsigned long long>(instructions), d.errors,
                      result_.decode_ok ? (whole ? "the program's whole run, exactly"
                                                 : "consecutive iterations of the program, exactly")
                                        : "NOT the program's run");
        result_.decode_text = buf;
        for (const std::string &m : d.messages)
            result_.decode_text += "  " + m + "\n";
    }
    return ok;
}

} // namespace pmtrace::vp_cli
