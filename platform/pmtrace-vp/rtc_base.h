// rtc_base.h - pmtrace-vp --rtc-base: the time the PL031 real-time clock (rtc_pl031.h) shows when
// the platform starts, in the forms of QEMU's -rtc base=:
//   utc                  the host's clock then (the default)
//   localtime            the host's clock in its local time zone (the RTC shows local time, as
//                        QEMU's: seconds since 1970 of the local date and time)
//   2006-06-17T16:01:21  that date and time, UTC: a fixed time, so runs are reproducible
//   2006-06-17           that day at 00:00:00 UTC
// The RTC counts seconds since 1970-01-01T00:00:00 in 32 bits, so a date must lie from then to
// 2106-02-07T06:28:15.
#ifndef PMTRACE_VP_RTC_BASE_H
#define PMTRACE_VP_RTC_BASE_H

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>

namespace pmtrace::vp_cli
{

// The dates --rtc-base takes: the RTC's 32-bit counter, in seconds since 1970-01-01T00:00:00 UTC.
constexpr int64_t rtc_base_first = 0;
constexpr int64_t rtc_base_last = 0xFFFF'FFFF;

// Seconds since 1970-01-01T00:00:00 UTC of `text`, or empty for "utc" (the RTC takes the host's
// clock when it is built); "localtime" is the host's clock at `now` in the local time zone.
// False, with a sentence in `error`, for anything else or a date out of the range above.
bool parse_rtc_base(const std::string &text, std::time_t now, std::optional<int64_t> &base,
                    std::string &error);

// 2006-06-17T16:01:21 for 1150560081 (UTC).
std::string rtc_date_text(int64_t seconds);

} // namespace pmtrace::vp_cli

#endif
