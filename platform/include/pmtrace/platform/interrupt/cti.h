// cti.h - the PE's Cross-Trigger Interface (Arm ARM H5, registers H9.5), CTIv2.
//
// Input triggers arrive as calls: trigger_event(n, offset) is one trigger event (the PE's CTI
// trigger ports bind to the CTI itself, a cti_trigger_if), set_trigger_level(n, level, offset) a
// multicycle input trigger (H5.2.1.1), observable in CTITRIGINSTATUS. The outputs an input or a
// register write changes change at the time of that call: sc_time_stamp() + offset, or + the
// b_transport's delay (signal_if.h). CTIINEN<n> maps input trigger n to
// channels, CTIAPPSET/CLEAR/PULSE act on channels directly, CTIOUTEN<n> maps channels to output
// trigger n. Output trigger n has two ports: out_event[n] (one trigger_event(n) call per
// output trigger event; for self-acknowledging triggers such as the trace unit inputs 4-7) and
// out_level[n] (the TROUT<n> status: asserted until CTIINTACK for triggers that need an
// acknowledge - the Debug request, and the CTI interrupt if so configured - or while a
// multicycle channel holds it).
//
// Trigger allocation (H5.4): inputs 0 Cross-halt, 1 PMU overflow, 2 SPE sample, 4-7 trace unit
// outputs, 8-10 trace buffer stopped / management / wrap (FEAT_TRBE_EXT); outputs 0 Debug request,
// 1 Restart request, 2 generic CTI interrupt, 4-7 trace unit inputs.
//
// Choices: no Cross-Trigger Matrix (a uniprocessor, H5.3): input channels are inactive and
// CTIDEVID.INOUT = 0; the Software Lock is not implemented (FEAT_Debugv8p4); CTIINEN, CTIOUTEN,
// CTIGATE and CTIAPPSET reset to 0; a trigger event with CTICONTROL.GLBEN = 0 is ignored; a
// CTIAPPPULSE with GLBEN = 0 generates no event (CONSTRAINED UNPREDICTABLE, one warning);
// clearing GLBEN leaves unacknowledged output triggers asserted.
#ifndef PMTRACE_PLATFORM_CTI_H
#define PMTRACE_PLATFORM_CTI_H

#include <pmtrace/systemc/log.h>
#include <pmtrace/platform/bus/register_frame.h>
#include <pmtrace/platform/bus/signal_if.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace pmtrace::platform
{

// Trigger numbers of H5.4.
namespace cti_in
{
constexpr unsigned cross_halt = 0, pmu_overflow = 1, spe_sample = 2, trace_out0 = 4,
                   trbe_stopped = 8, trbe_management = 9, trbe_wrap = 10;
}
namespace cti_out
{
constexpr unsigned debug_request = 0, restart_request = 1, cti_interrupt = 2, trace_in0 = 4;
}

struct cti_config {
    unsigned num_channels = 4;       // CTIDEVID.NUMCHAN, 3..32
    unsigned num_triggers = 11;      // CTIDEVID.NUMTRIG, 11..32 (inputs up to 10)
    uint32_t inputs = 0x7F7;         // connected input triggers: 0-2, 4-10
    uint32_t outputs = 0xF7;         // connected output triggers: 0-2, 4-7
    uint32_t acknowledged = 1u << 0; // outputs held until CTIINTACK (H5.4.1; add bit 2 for a
                                     // level-sensitive CTI interrupt, H5.4.8)
    uint8_t aff0 = 0;                // CTIDEVAFF0.Aff0: the PE's MPIDR_EL1.Aff0
    bool uniprocessor = true;        // CTIDEVAFF0.U
    unsigned claim_tags = 4;         // CTICLAIMSET reads as this many ones
    uint16_t part_number = 0;        // CTIPIDR0/1
    sc_core::sc_time access_latency = sc_core::sc_time(10, sc_core::SC_NS);
};

class cti : public sc_core::sc_module, public cti_trigger_if, public register_frame
{
  public:
    tlm_utils::simple_target_socket<cti> socket;                // the 4 KiB CTI frame
    sc_core::sc_vector<trigger_out> out_event;                  // per output trigger
    sc_core::sc_vector<pmtrace::platform::level_out> out_level; // per output trigger

    cti(const sc_core::sc_module_name &name, const cti_config &config = cti_config());

    // An input trigger event (a single event: no multicycle state) at sc_time_stamp() + offset.
    void trigger_event(unsigned trigger, const sc_core::sc_time &offset) override;
    // A multicycle input trigger: asserted while level is high, from sc_time_stamp() + offset.
    void set_trigger_level(unsigned trigger, bool level, const sc_core::sc_time &offset);

    uint32_t trigger_out_status() const; // CTITRIGOUTSTATUS
    uint32_t channel_out_status() const; // CTICHOUTSTATUS
    uint32_t trigger_in_status() const { return trin_; }
    // Channel events this CTI has sent to its output channels (after CTIGATE), per channel.
    uint64_t channel_events(unsigned channel) const
    {
        return channel < 32 ? channel_events_[channel] : 0;
    }

    // This component's log: its verbosity, its warnings and their repeats (log.h).
    module_log &log() { return log_; }

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    module_log log_;
    void b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tx);
    bool enabled() const { return control_ & 1; }
    uint32_t channel_mask() const;
    uint32_t trigger_mask() const;
    // Multicycle channel state: application triggers and asserted level inputs, mapped.
    uint32_t active_channels() const;
    // Channel events on `channels`: output trigger events and output channel events.
    void channel_event(uint32_t channels, const sc_core::sc_time &offset);
    void update_levels(const sc_core::sc_time &offset);

    cti_config config_;
    sc_core::sc_time access_offset_; // the delay of the b_transport being performed
    uint32_t control_ = 0;
    uint32_t appset_ = 0;
    uint32_t gate_ = 0;
    uint32_t claim_ = 0;
    uint32_t trin_ = 0;  // multicycle input trigger levels
    uint32_t latch_ = 0; // acknowledged outputs asserted until CTIINTACK
    uint32_t inen_[32] = {};
    uint32_t outen_[32] = {};
    uint64_t channel_events_[32] = {};
};

} // namespace pmtrace::platform

#endif
