// rtc_pl031.cpp - the PL031 real-time clock: registers, the counter in simulated time and the
// match interrupt (rtc_pl031.h).
#include "pmtrace/platform/devices/rtc_pl031.h"

#include <ctime>

namespace pmtrace::platform
{

namespace
{

// DDI 0224C, Table 3-1 "RTC register summary": 32-bit registers on a 32-bit APB (PWDATA[31:0],
// PADDR[11:2]); 0x020-0x07C, 0x094-0xFCC and 0xFD0-0xFDC reserved, 0x080-0x090 the test
// registers (Table 4-1), none of them here.
enum row { DR, MR, LR, CR, IMSC, RIS, MIS, ICR, PERIPHID, PCELLID };
const register_info table[] = {
    {0x000, 1, 4, size32, "RTCDR"},       {0x004, 1, 4, size32, "RTCMR"},
    {0x008, 1, 4, size32, "RTCLR"},       {0x00C, 1, 4, size32, "RTCCR"},
    {0x010, 1, 4, size32, "RTCIMSC"},     {0x014, 1, 4, size32, "RTCRIS"},
    {0x018, 1, 4, size32, "RTCMIS"},      {0x01C, 1, 4, size32, "RTCICR"},
    {0xFE0, 4, 4, size32, "RTCPeriphID"}, {0xFF0, 4, 4, size32, "RTCPCellID"},
};

// Tables 3-11 to 3-18: part number 0x031, designer 0x41 (Arm), revision 0, configuration 0
// (PeriphID 0x00041031, which Linux's AMBA bus matches to rtc-pl031); PCellID 0xB105F00D.
constexpr uint32_t periph_id[4] = {0x31, 0x10, 0x04, 0x00};
constexpr uint32_t pcell_id[4] = {0x0D, 0xF0, 0x05, 0xB1};

const sc_core::sc_time one_second(1, sc_core::SC_SEC);

} // namespace

rtc_pl031::rtc_pl031(const sc_core::sc_module_name &name, const rtc_config &config)
    : sc_module(name), register_frame(this->name(), table, sizeof table / sizeof table[0]),
      socket("socket"), intr("intr"), config_(config), built_(sc_core::sc_time_stamp())
{
    const int64_t base = config_.base ? *config_.base : static_cast<int64_t>(std::time(nullptr));
    base_ = static_cast<uint32_t>(base); // the counter's 32 bits
    offset_ = base_;
    socket.register_b_transport(this, &rtc_pl031::b_transport);
    socket.register_transport_dbg(this, &rtc_pl031::transport_dbg);
    SC_HAS_PROCESS(rtc_pl031);
    SC_METHOD(matched);
    sensitive << match_event_;
    dont_initialize();
    find_match(built_);
}

uint64_t rtc_pl031::seconds(const sc_core::sc_time &t) const
{
    return t > built_ ? (t - built_).value() / one_second.value() : 0;
}

uint32_t rtc_pl031::value(const sc_core::sc_time &t) const
{
    // TRM 2.2.4: the RTC value is the counter plus the offset a load set (modulo 2^32, 2.2.6:
    // the counter wraps from 0xFFFFFFFF to 0).
    return offset_ + static_cast<uint32_t>(seconds(t));
}

sc_core::sc_time rtc_pl031::access_time() const
{
    return sc_core::sc_time_stamp() + access_offset_;
}

bool rtc_pl031::raw_at(const sc_core::sc_time &t) const
{
    return ris_ || (match_due_ && match_at_ <= t);
}

void rtc_pl031::find_match(const sc_core::sc_time &t)
{
    match_event_.cancel();
    match_due_ = false;
    // The counter and the equivalent match value meet when RTCDR steps to RTCMR: after
    // (RTCMR - RTCDR) mod 2^32 more edges, or 2^32 when they are equal now (this second's match
    // is behind).
    const uint64_t now = seconds(t);
    uint64_t edges = static_cast<uint32_t>(mr_ - value(t));
    if (edges == 0)
        edges = uint64_t{1} << 32;
    const uint64_t last = (sc_core::sc_max_time() - built_).value() / one_second.value();
    if (now + edges > last)
        return; // past the end of simulated time: it never comes
    match_due_ = true;
    match_at_ = built_ + sc_core::sc_time::from_value((now + edges) * one_second.value());
    if (imsc_) {
        const sc_core::sc_time stamp = sc_core::sc_time_stamp();
        match_event_.notify(match_at_ > stamp ? match_at_ - stamp : sc_core::SC_ZERO_TIME);
    }
}

void rtc_pl031::catch_up(const sc_core::sc_time &t)
{
    if (!match_due_ || match_at_ > t)
        return;
    // TRM 2.1: "When both values are equal, the RTCINTR interrupt is asserted HIGH" - at the
    // match's time, which an access at a later local time may learn of before SystemC time
    // reaches it.
    ris_ = true;
    if (imsc_) {
        const sc_core::sc_time stamp = sc_core::sc_time_stamp();
        intr.write(true, match_at_ > stamp ? match_at_ - stamp : sc_core::SC_ZERO_TIME);
    }
    find_match(match_at_);
}

void rtc_pl031::matched()
{
    catch_up(sc_core::sc_time_stamp());
    update();
}

// RTCINTR changes at the time of the access that changed it (the initiator's time,
// sc_time_stamp() + delay), or now for the RTC's own event.
void rtc_pl031::update()
{
    intr.write(ris_ && imsc_, access_offset_);
}

uint64_t rtc_pl031::read_register(size_t row, unsigned index, bool debug)
{
    const sc_core::sc_time t = debug ? sc_core::sc_time_stamp() : access_time();
    switch (row) {
    case DR: return value(t);
    case MR: return mr_;
    case LR: return lr_; // "Reads return the last written value"
    case CR: return rtccr_start;
    case IMSC: return imsc_ ? rtc_int : 0;
    case RIS:
    case MIS:
        if (!debug) {
            catch_up(t);
            update();
        }
        return raw_at(t) && (row == RIS || imsc_) ? rtc_int : 0;
    case ICR: return 0; // write-only
    case PERIPHID: return periph_id[index];
    case PCELLID: return pcell_id[index];
    default: return 0;
    }
}

void rtc_pl031::write_register(size_t row, unsigned, uint64_t value_written, uint64_t mask)
{
    const sc_core::sc_time t = access_time();
    const uint32_t v = static_cast<uint32_t>(value_written & mask);
    catch_up(t); // a match before the write happened
    switch (row) {
    case MR:
    case LR:
        if (row == MR) {
            mr_ = v;
        } else {
            // TRM 2.2.4: the load sets the offset that makes the RTC value v now; the counter
            // goes on at its own edges.
            lr_ = v;
            offset_ = v - static_cast<uint32_t>(seconds(t));
        }
        // The comparator sees them equal from now on: a match (as QEMU's pl031_set_alarm).
        if (value(t) == mr_)
            ris_ = true;
        find_match(t);
        break;
    case IMSC:
        imsc_ = v & rtc_int;
        find_match(t); // the event is scheduled only while the interrupt is enabled
        break;
    case ICR:
        if (v & rtc_int) // "Writing 1 clears the interrupt. Writing 0 has no effect."
            ris_ = false;
        break;
    case CR: // started out of reset; a write neither stops nor restarts it (rtc_pl031.h)
    case DR:
    case RIS:
    case MIS:
    case PERIPHID:
    case PCELLID:
    default: break; // read-only: "A write has no effect"
    }
    update();
}

void rtc_pl031::b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    access_offset_ = delay;
    frame_transport(tx, delay, config_.access_latency);
    access_offset_ = sc_core::SC_ZERO_TIME;
}

unsigned rtc_pl031::transport_dbg(tlm::tlm_generic_payload &tx)
{
    return frame_transport_dbg(tx);
}

} // namespace pmtrace::platform
