// generic_timer.cpp - the counter in simulated time, the timers' registers and their interrupt
// lines.
#include "pmtrace/platform/timer/generic_timer.h"

#include "generic_timer_access.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

namespace pmtrace::platform
{

namespace
{

__extension__ typedef unsigned __int128 u128;

bool is_el2_register(cnt_reg reg)
{
    return reg == cnt_reg::CNTVOFF_EL2 || reg == cnt_reg::CNTHCTL_EL2 ||
           reg == cnt_reg::CNTHP_TVAL_EL2 || reg == cnt_reg::CNTHP_CTL_EL2 ||
           reg == cnt_reg::CNTHP_CVAL_EL2;
}

bool is_tval(cnt_reg reg)
{
    return reg == cnt_reg::CNTP_TVAL_EL0 || reg == cnt_reg::CNTV_TVAL_EL0 ||
           reg == cnt_reg::CNTHP_TVAL_EL2;
}

bool is_ctl(cnt_reg reg)
{
    return reg == cnt_reg::CNTP_CTL_EL0 || reg == cnt_reg::CNTV_CTL_EL0 ||
           reg == cnt_reg::CNTHP_CTL_EL2;
}

// TimerValue[31:0] as a signed 32-bit integer, sign-extended to 64 bits.
uint64_t sign_extend_32(uint64_t v)
{
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v & cnt_tval_mask)));
}

std::string hex(uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return buf;
}

} // namespace

generic_timer::generic_timer(const sc_core::sc_module_name &name,
                             const generic_timer_config &config)
    : sc_module(name), cntp_irq("cntp_irq"), cntv_irq("cntv_irq"), cnthp_irq("cnthp_irq"),
      config_(config), units_per_second_(sc_core::sc_time(1, sc_core::SC_SEC).value())
{
    log_.set_name(this->name());
    if (config_.frequency_hz == 0 || config_.frequency_hz > cntfrq_mask) {
        const uint64_t fallback = generic_timer_config().frequency_hz;
        SC_REPORT_WARNING(this->name(), ("frequency_hz " + std::to_string(config_.frequency_hz) +
                                         " does not fit CNTFRQ_EL0 (1 to 4294967295 Hz): using " +
                                         std::to_string(fallback))
                                            .c_str());
        config_.frequency_hz = fallback;
    }
    timers_[el1_physical].irq = &cntp_irq;
    timers_[el1_virtual].irq = &cntv_irq;
    timers_[el2_physical].irq = &cnthp_irq;

    SC_HAS_PROCESS(generic_timer);
    SC_METHOD(on_cntp_due);
    sensitive << timers_[el1_physical].due;
    dont_initialize();
    SC_METHOD(on_cntv_due);
    sensitive << timers_[el1_virtual].due;
    dont_initialize();
    SC_METHOD(on_cnthp_due);
    sensitive << timers_[el2_physical].due;
    dont_initialize();

    reset();
}

void generic_timer::reset()
{
    cntfrq_ = config_.frequency_hz;
    cntkctl_ = 0;
    cnthctl_ = 0;
    cntvoff_ = 0;
    for (unsigned i = 0; i < timer_count; i++) {
        timers_[i].ctl = 0;
        timers_[i].cval = 0;
        update(i, sc_core::sc_time_stamp());
    }
}

// --- Time ---

uint64_t generic_timer::physical_count(const sc_core::sc_time &t) const
{
    return count_at(t);
}

uint64_t generic_timer::timestamp(pmt_ete_timebase timebase, const sc_core::sc_time &at)
{
    const uint64_t physical = count_at(at);
    return timebase == PMT_ETE_TIMEBASE_VIRTUAL ? physical - cntvoff_ : physical;
}

uint64_t generic_timer::count_at(const sc_core::sc_time &t) const
{
    return static_cast<uint64_t>(static_cast<u128>(t.value()) * config_.frequency_hz /
                                 units_per_second_);
}

// The first time at which the count is `count`: ceil(count / frequency) in time units.
bool generic_timer::time_of_count(uint64_t count, sc_core::sc_time &t) const
{
    const u128 units = (static_cast<u128>(count) * units_per_second_ + config_.frequency_hz - 1) /
                       config_.frequency_hz;
    if (units > UINT64_MAX)
        return false;
    t = sc_core::sc_time::from_value(static_cast<uint64_t>(units));
    return true;
}

// The Offset of "Operation of the CompareValue views of the timers" (D12): CNTVOFF_EL2 for the
// virtual timer (a fixed zero without EL2: cntvoff_ then stays 0), none for the physical timers.
uint64_t generic_timer::timer_offset(unsigned i) const
{
    return i == el1_virtual ? cntvoff_ : 0;
}

// The timer condition: (count - Offset) - CVAL >= 0, unsigned, so a CVAL of 2^64 - 1 is met only
// by a count of 2^64 - 1.
bool generic_timer::condition_met(unsigned i, uint64_t physical) const
{
    return physical - timer_offset(i) >= timers_[i].cval;
}

// The physical count, after `physical`, at which the condition next changes. The timer's count
// rises to CVAL (met), or wraps from 2^64 - 1 to 0 (no longer met; the virtual count wraps when
// the physical count reaches CNTVOFF_EL2).
bool generic_timer::next_change(unsigned i, uint64_t physical, uint64_t &at_physical) const
{
    const uint64_t count = physical - timer_offset(i);
    const uint64_t cval = timers_[i].cval;
    uint64_t distance;
    if (count < cval)
        distance = cval - count;
    else if (cval != 0)
        distance = 0 - count; // 2^64 - count: the wrap
    else
        return false; // always met
    at_physical = physical + distance;
    return at_physical > physical; // else beyond the 64-bit physical count
}

// After a change of timer i's registers at `at`: the line follows from then on.
void generic_timer::update(unsigned i, const sc_core::sc_time &at)
{
    timer &t = timers_[i];
    t.due.cancel();
    t.due_at = sc_core::sc_max_time();
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (at > now) {
        t.due.notify(at - now); // a decoupled initiator's write acts at its local time
        t.due_at = at;
    } else {
        evaluate(i);
    }
}

// The line at the current time, and the event at its next change.
void generic_timer::evaluate(unsigned i)
{
    timer &t = timers_[i];
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const uint64_t physical = count_at(now);
    const bool armed = (t.ctl & cnt_ctl_enable) && !(t.ctl & cnt_ctl_imask);
    t.irq->write(armed && condition_met(i, physical), sc_core::SC_ZERO_TIME); // now
    uint64_t next;
    sc_core::sc_time when;
    t.due_at = sc_core::sc_max_time();
    if (armed && next_change(i, physical, next) && time_of_count(next, when)) {
        t.due.notify(when - now);
        t.due_at = when;
    }
}

sc_core::sc_time generic_timer::next_event() const
{
    sc_core::sc_time next = sc_core::sc_max_time();
    for (const timer &t : timers_)
        next = std::min(next, t.due_at);
    return next;
}

// --- Registers ---

// The timer a TVAL, CTL or CVAL register belongs to (timer_count: none).
unsigned generic_timer::timer_of(cnt_reg reg)
{
    switch (reg) {
    case cnt_reg::CNTP_TVAL_EL0:
    case cnt_reg::CNTP_CTL_EL0:
    case cnt_reg::CNTP_CVAL_EL0: return el1_physical;
    case cnt_reg::CNTV_TVAL_EL0:
    case cnt_reg::CNTV_CTL_EL0:
    case cnt_reg::CNTV_CVAL_EL0: return el1_virtual;
    case cnt_reg::CNTHP_TVAL_EL2:
    case cnt_reg::CNTHP_CTL_EL2:
    case cnt_reg::CNTHP_CVAL_EL2: return el2_physical;
    default: return timer_count;
    }
}

pmt_access generic_timer::check(cnt_reg reg, bool write, unsigned el, const timer_pe_state &pe,
                                bool &in_host)
{
    if (reg == cnt_reg::none)
        return PMT_ACCESS_NOT_MINE;
    if (el > 3 || (el == 3 && !config_.have_el3) || (el == 2 && !config_.have_el2)) {
        log_.warning("access from an EL not implemented",
                     std::string(cnt_name(reg)) + " accessed from EL" + std::to_string(el) +
                         ", which is not implemented: UNDEFINED");
        return PMT_ACCESS_UNDEFINED;
    }
    cnt_access_state s;
    s.el = el;
    s.have_el2 = config_.have_el2;
    s.have_el3 = config_.have_el3;
    s.el2_enabled = pe.el2_enabled;
    s.hcr_e2h = pe.hcr_e2h;
    s.hcr_tge = pe.hcr_tge;
    s.cntkctl = cntkctl_;
    s.cnthctl = cnthctl_;
    const pmt_access access = cnt_access(reg, write, s);
    in_host = cnt_in_host(s);
    // FEAT_VHE redirects these encodings at EL2 with E2H (CNTP_* to CNTHP_*, CNTV_* to CNTHV_*,
    // CNTKCTL_EL1 to CNTHCTL_EL2) and in the EL2&0 host regime at EL0: not modelled.
    const bool redirected = timer_of(reg) < el2_physical || reg == cnt_reg::CNTKCTL_EL1;
    if (access == PMT_ACCESS_OK && in_host && redirected && !vhe_warned_) {
        vhe_warned_ = true;
        SC_REPORT_WARNING(name(), (std::string(cnt_name(reg)) + " with HCR_EL2.E2H = 1 at EL" +
                                   std::to_string(el) +
                                   ": FEAT_VHE's redirection to the EL2 registers is not "
                                   "modelled; the EL1 register is accessed (reported once)")
                                      .c_str());
    }
    return access;
}

pmt_access generic_timer::read(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe,
                               uint64_t &value, const sc_core::sc_time &offset)
{
    const cnt_reg reg = cnt_decode(encoding);
    bool in_host = false;
    const pmt_access access = check(reg, false, el, pe, in_host);
    if (access == PMT_ACCESS_OK)
        value = read_register(reg, in_host, sc_core::sc_time_stamp() + offset);
    if (reg != cnt_reg::none)
        log_access(reg, false, access, access == PMT_ACCESS_OK ? value : 0);
    return access;
}

pmt_access generic_timer::write(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe,
                                uint64_t value, const sc_core::sc_time &offset)
{
    const cnt_reg reg = cnt_decode(encoding);
    bool in_host = false;
    const pmt_access access = check(reg, true, el, pe, in_host);
    if (access == PMT_ACCESS_OK)
        write_register(reg, value, sc_core::sc_time_stamp() + offset);
    if (reg != cnt_reg::none)
        log_access(reg, true, access, value);
    return access;
}

bool generic_timer::peek_count(pmt_sysreg encoding, unsigned el, const timer_pe_state &pe,
                               const sc_core::sc_time &offset, uint64_t more, uint64_t &value,
                               sc_core::sc_time &next)
{
    const cnt_reg reg = cnt_decode(encoding);
    bool in_host = false;
    if ((reg != cnt_reg::CNTPCT_EL0 && reg != cnt_reg::CNTVCT_EL0) ||
        check(reg, false, el, pe, in_host) != PMT_ACCESS_OK)
        return false;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time at = now + offset;
    value = read_register(reg, in_host, at);
    const uint64_t count = count_at(at);
    sc_core::sc_time then;
    if (more > ~uint64_t{0} - count || !time_of_count(count + more, then))
        then = sc_core::sc_time::from_value(~uint64_t{0});
    next = then - now;
    return true;
}

uint64_t generic_timer::read_register(cnt_reg reg, bool in_host, const sc_core::sc_time &at) const
{
    // Without EL2, its registers are RES0 from EL3 (CNTHCTL_EL2, CNTVOFF_EL2).
    if (!config_.have_el2 && is_el2_register(reg))
        return 0;
    const uint64_t physical = count_at(at);
    const unsigned i = timer_of(reg);
    if (is_ctl(reg)) {
        const timer &t = timers_[i];
        // ISTATUS is UNKNOWN while the timer is disabled: it reads 0.
        const bool status = (t.ctl & cnt_ctl_enable) && condition_met(i, physical);
        return t.ctl | (status ? cnt_ctl_istatus : 0);
    }
    if (is_tval(reg)) // (CVAL - count)[31:0], also while disabled (UNKNOWN then)
        return (timers_[i].cval - (physical - timer_offset(i))) & cnt_tval_mask;
    switch (reg) {
    case cnt_reg::CNTFRQ_EL0: return cntfrq_;
    case cnt_reg::CNTPCT_EL0: return physical;
    case cnt_reg::CNTVCT_EL0:
        // CNTVCT_EL0: a fixed virtual offset of zero without EL2 and in the EL2&0 regime (at EL2
        // with HCR_EL2.E2H, at EL0 with {E2H, TGE} = {1, 1}).
        return config_.have_el2 && !in_host ? physical - cntvoff_ : physical;
    case cnt_reg::CNTKCTL_EL1: return cntkctl_;
    case cnt_reg::CNTHCTL_EL2: return cnthctl_;
    case cnt_reg::CNTVOFF_EL2: return cntvoff_;
    case cnt_reg::CNTP_CVAL_EL0:
    case cnt_reg::CNTV_CVAL_EL0:
    case cnt_reg::CNTHP_CVAL_EL2: return timers_[i].cval;
    default: return 0;
    }
}

void generic_timer::write_register(cnt_reg reg, uint64_t value, const sc_core::sc_time &at)
{
    if (!config_.have_el2 && is_el2_register(reg))
        return; // RES0 from EL3
    const unsigned i = timer_of(reg);
    if (is_ctl(reg)) {
        timers_[i].ctl = value & (cnt_ctl_enable | cnt_ctl_imask);
        update(i, at);
        return;
    }
    if (is_tval(reg)) { // CVAL = count + TimerValue as a signed 32-bit integer
        timers_[i].cval = (count_at(at) - timer_offset(i)) + sign_extend_32(value);
        update(i, at);
        return;
    }
    switch (reg) {
    case cnt_reg::CNTFRQ_EL0: cntfrq_ = value & cntfrq_mask; break;
    case cnt_reg::CNTKCTL_EL1: cntkctl_ = value & cntkctl_writable; break;
    case cnt_reg::CNTHCTL_EL2: cnthctl_ = value & cnthctl_writable; break;
    case cnt_reg::CNTVOFF_EL2:
        cntvoff_ = value;
        update(el1_virtual, at);
        break;
    case cnt_reg::CNTP_CVAL_EL0:
    case cnt_reg::CNTV_CVAL_EL0:
    case cnt_reg::CNTHP_CVAL_EL2:
        timers_[i].cval = value;
        update(i, at);
        break;
    default: break;
    }
}

void generic_timer::log_access(cnt_reg reg, bool write, pmt_access access, uint64_t value) const
{
    if (!log_.enabled(sc_core::SC_HIGH))
        return;
    std::string line = std::string(cnt_name(reg)) + (write ? " <= " : " => ");
    line += access == PMT_ACCESS_OK || write ? hex(value) : std::string("-");
    if (access != PMT_ACCESS_OK)
        line += std::string(" (") + pmt_access_name(access) + ")";
    log_.info(line, sc_core::SC_HIGH);
}

} // namespace pmtrace::platform
