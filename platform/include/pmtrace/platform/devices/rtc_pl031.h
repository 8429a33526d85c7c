// rtc_pl031.h - the Arm PrimeCell Real Time Clock (PL031, Arm DDI 0224C, r1p3), as at 0x0901_0000
// on QEMU's virt board, with its interrupt (RTCINTR) on SPI 2 (INTID 34).
//
// The counter counts seconds of simulated time: its 1 Hz clock (CLK1HZ) ticks every whole second
// after the RTC is built (simulated time 0 on a platform), so RTCDR at time t (an access's time:
// sc_time_stamp() plus its b_transport delay) is
//     RTCDR = (base + floor((t - built) / 1 s)) mod 2^32
// until software loads another value with RTCLR (TRM 2.2.4: the load sets an offset to the
// counter, which goes on ticking on its own edges; RTCLR reads back what was written). `base` is
// rtc_config::base, or the host's clock (time(nullptr)) when the RTC is built, as QEMU's -rtc
// base=utc: seconds since 1970-01-01 00:00:00 UTC, which Linux's rtc-pl031 reads as such.
//
// The match interrupt (TRM 2.1, 3.6): RTCRIS is set when RTCDR becomes equal to RTCMR, at the
// tick that makes it so, or at a write of RTCMR or RTCLR that makes them equal, and stays set
// until a write of 1 to RTCICR bit 0; RTCMIS = RTCRIS & RTCIMSC; the `intr` output (RTCINTR) is
// RTCMIS. While RTCIMSC is set a match in the future is one scheduled sc_event at its exact time,
// never a tick per second; while it is clear nothing is scheduled and RTCRIS is brought up to
// date when it is read.
//
// Choices (docs/choices.md): RTCCR reads 1, the RTC started, out of reset (as its always-on
// domain or firmware leaves it, and as QEMU's), and writes to it are ignored (r1p3's TRM says a
// write to the started RTC resets its value to zero; Linux's rtc-pl031 writes RTCCR.EN at every
// probe, and QEMU ignores it); 32-bit accesses only (an APB slave with PWDATA[31:0] and
// PADDR[11:2]: others are BURST_ERROR); the reserved offsets and the test registers
// (0x080-0x090, "must not be accessed during normal operation") are ADDRESS_ERROR.
#ifndef PMTRACE_PLATFORM_RTC_PL031_H
#define PMTRACE_PLATFORM_RTC_PL031_H

#include <pmtrace/platform/bus/register_frame.h>
#include <pmtrace/platform/bus/signal_if.h>

#include <cstdint>
#include <optional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace pmtrace::platform
{

struct rtc_config {
    // RTCDR when the RTC is built: seconds since 1970-01-01 00:00:00 UTC (its low 32 bits, the
    // counter's width). Empty: the host's clock at that moment (time(nullptr)).
    std::optional<int64_t> base;
    sc_core::sc_time access_latency = sc_core::sc_time(10, sc_core::SC_NS);
};

// RTCIMSC, RTCRIS, RTCMIS, RTCICR: the one interrupt, bit 0.
constexpr uint32_t rtc_int = 1;
// RTCCR bit 0: RTC start.
constexpr uint32_t rtccr_start = 1;

class rtc_pl031 : public sc_core::sc_module, public register_frame
{
  public:
    tlm_utils::simple_target_socket<rtc_pl031> socket; // 4 KiB
    level_out intr;                                    // RTCINTR

    rtc_pl031(const sc_core::sc_module_name &name, const rtc_config &config = rtc_config());

    // RTCDR at simulated time t (not before the RTC was built).
    uint32_t value(const sc_core::sc_time &t) const;
    // The value RTCDR had when the RTC was built (its base's low 32 bits).
    uint32_t base() const { return base_; }

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    void b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tx);

    // Whole seconds (CLK1HZ edges) from when the RTC was built to t.
    uint64_t seconds(const sc_core::sc_time &t) const;
    // The time of the access in progress: sc_time_stamp() plus its delay.
    sc_core::sc_time access_time() const;
    // RTCRIS at t: latched, or a match due at or before t.
    bool raw_at(const sc_core::sc_time &t) const;
    // Latches a match due at or before t (RTCINTR rises at the match's time), then looks for the
    // next.
    void catch_up(const sc_core::sc_time &t);
    // The next time after t at which RTCDR becomes RTCMR (none past the end of simulated time),
    // and its event while RTCIMSC is set.
    void find_match(const sc_core::sc_time &t);
    void matched(); // SC_METHOD: the scheduled match
    void update();  // RTCINTR from RTCMIS, at the access's time

    rtc_config config_;
    sc_core::sc_time built_; // the counter's start: its edges are whole seconds after
    uint32_t base_ = 0;      // RTCDR then
    uint32_t offset_ = 0;    // RTCDR = offset_ + seconds (the update block's offset)
    uint32_t mr_ = 0;        // RTCMR
    uint32_t lr_ = 0;        // RTCLR, as last written
    bool imsc_ = false;      // RTCIMSC bit 0
    bool ris_ = false;       // RTCRIS bit 0, latched
    bool match_due_ = false; // a match at match_at_
    sc_core::sc_time match_at_;
    sc_core::sc_event match_event_;
    sc_core::sc_time access_offset_ = sc_core::SC_ZERO_TIME; // of the access in progress
};

} // namespace pmtrace::platform

#endif
