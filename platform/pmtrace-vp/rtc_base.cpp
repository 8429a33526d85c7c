// rtc_base.cpp - pmtrace-vp --rtc-base (rtc_base.h). Dates are converted with the proleptic
// Gregorian calendar's day count, not the C library's time zone functions, so a UTC date gives
// the same seconds on every host.
#include "rtc_base.h"

#include <cctype>
#include <cstdio>

namespace pmtrace::vp_cli
{

namespace
{

constexpr int64_t seconds_per_day = 86400;

bool leap(int64_t year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned days_in_month(int64_t year, unsigned month)
{
    static const unsigned days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leap(year) ? 29 : days[month - 1];
}

// Days from 1970-01-01 to year-month-day (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// `width` decimal digits at text[at...].
bool digits(const std::string &text, size_t at, size_t width, unsigned &v)
{
    if (at + width > text.size())
        return false;
    v = 0;
    for (size_t i = at; i < at + width; i++) {
        if (!std::isdigit(static_cast<unsigned char>(text[i])))
            return false;
        v = v * 10 + static_cast<unsigned>(text[i] - '0');
    }
    return true;
}

// YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, each field in its range: seconds since 1970 (UTC).
std::optional<int64_t> parse_date(const std::string &text)
{
    unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    const bool date = digits(text, 0, 4, year) && text[4] == '-' && digits(text, 5, 2, month) &&
                      text[7] == '-' && digits(text, 8, 2, day);
    const bool time = text.size() == 19 && text[10] == 'T' && digits(text, 11, 2, hour) &&
                      text[13] == ':' && digits(text, 14, 2, minute) && text[16] == ':' &&
                      digits(text, 17, 2, second);
    if (!date || (text.size() != 10 && !time) || month < 1 || month > 12 || day < 1 ||
        day > days_in_month(year, month) || hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    return days_from_civil(year, month, day) * seconds_per_day + hour * 3600 + minute * 60 + second;
}

} // namespace

std::string rtc_date_text(int64_t seconds)
{
    // civil_from_days, the inverse of days_from_civil.
    int64_t days = seconds / seconds_per_day, rest = seconds % seconds_per_day;
    if (rest < 0) {
        rest += seconds_per_day;
        days--;
    }
    const int64_t z = days + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t day = doy - (153 * mp + 2) / 5 + 1;
    const int64_t month = mp < 10 ? mp + 3 : mp - 9;
    const int64_t year = yoe + era * 400 + (month <= 2);
    char buf[160]; // room for any int64_t in each field
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld",
                  static_cast<long long>(year), static_cast<long long>(month),
                  static_cast<long long>(day), static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest / 60 % 60), static_cast<long long>(rest % 60));
    return buf;
}

bool parse_rtc_base(const std::string &text, std::time_t now, std::optional<int64_t> &base,
                    std::string &error)
{
    std::optional<int64_t> seconds;
    if (text == "utc") {
        base.reset(); // the RTC reads the host's clock when it is built
        return true;
    }
    if (text == "localtime") {
        // As QEMU's: the local date and time, counted as if they were UTC.
        std::tm local{};
        if (!localtime_r(&now, &local)) {
            error = "--rtc-base localtime: the host's local time is not known";
            return false;
        }
        seconds =
            days_from_civil(local.tm_year + int64_t{1900}, static_cast<unsigned>(local.tm_mon + 1),
                            static_cast<unsigned>(local.tm_mday)) *
                seconds_per_day +
            local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec;
    } else {
        seconds = parse_date(text);
    }
    if (!seconds) {
        error = "--rtc-base: '" + text +
                "' is neither utc, localtime nor a date and time, UTC: 2006-06-17T16:01:21 or "
                "2006-06-17 (QEMU's -rtc base=)";
        return false;
    }
    if (*seconds < rtc_base_first || *seconds > rtc_base_last) {
        const std::string date = rtc_date_text(*seconds);
        error = "--rtc-base: " + text + (date == text ? "" : " (" + date + ")") +
                " is outside what the PL031 counts, seconds since 1970 in 32 bits: " +
                rtc_date_text(rtc_base_first) + " to " + rtc_date_text(rtc_base_last);
        return false;
    }
    base = seconds;
    return true;
}

} // namespace pmtrace::vp_cli
