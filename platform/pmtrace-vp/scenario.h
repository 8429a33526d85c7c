// scenario.h - what pmtrace-vp runs on the platform's CPU: the sw/ apps with the workload loop,
// the trace session alongside stat and record, the fault the fault scenario injects (and the
// handler's fix), and what came out.
#ifndef PMTRACE_VP_SCENARIO_H
#define PMTRACE_VP_SCENARIO_H

#include "options.h"

#include <pmtrace/platform/trace/ete_loop.h>
#include <pmtrace/platform/vp.h>

#include <string>
#include <vector>

namespace pmtrace::vp_cli
{

struct run_result {
    int status = SW_OK;
    std::string text; // the apps' summaries (perf stat's shape)
    sw_stat_result stat{};
    sw_record_result record{};
    bool traced = false; // a trace session ran (trace, or alongside stat and record)
    sw_trace_config trace_config{};
    sw_trace_result trace{};
    sw_fault_result fault{};
    std::vector<uint8_t> captured; // the captured trace, oldest first (with --trace-out,
                                   // --snapshot, --decode)
    std::string decode_text;       // --decode: what the decoder found
    bool decode_ok = true;         // ... and whether it is the program's trace, exactly
};

// The platform configuration the options ask for.
platform::vp_config platform_config(const options &o);

class scenario_runner
{
  public:
    // Injects the fault scenario's fault into the platform.
    scenario_runner(const options &o, platform::vp &vp);
    // The CPU's program.
    void run(const hal *h);
    // After the run: the snapshot directory and the decoding (--snapshot, --decode). False when
    // the snapshot could not be written (the reason is logged).
    bool finish();
    const run_result &result() const { return result_; }

  private:
    void run_counting(const sw_env &env, const sw_workload &w); // stat or record
    void run_trace(const sw_env &env, const sw_workload &w);
    void run_fault(const sw_env &env, const sw_workload &w);
    static bool fix(void *arg, const sw_fault_report *report);
    static bool session_next(void *arg, hal_work *work);

    const options &o_;
    platform::vp &vp_;
    sw_loop loop_{};
    platform::ete_loop ete_;
    unsigned memory_fault_ = 0; // the RAM's fault id
    bool fault_removed_ = false;
    // stat and record with trace alongside: the counting session runs as the trace session's
    // workload (its first and only piece).
    const sw_env *session_env_ = nullptr;
    const sw_workload *session_inner_ = nullptr;
    run_result result_;
};

} // namespace pmtrace::vp_cli

#endif
