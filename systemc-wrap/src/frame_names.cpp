// frame_names.cpp - the log lines of frame accesses (I5.2, I5.3, H9.2, H9.4). The core says
// what an offset names (pmt_pmu_ext_name, pmt_debug_ext_name, pmt_trbe_ext_name); this only
// formats it.
#include "frame_names.h"

#include "pmtrace/systemc/log.h"

#include <pmtrace/pmt_pcsample.h>
#include <pmtrace/pmt_pmu.h>
#include <pmtrace/pmt_trbe.h>

#include <cstdio>

namespace pmtrace
{

namespace
{

std::string plain(const char *name, uint32_t offset, uint64_t value, bool write)
{
    char buf[96];
    if (name)
        std::snprintf(buf, sizeof buf, "%s %s 0x%llx", name, write ? "<=" : "=>",
                      static_cast<unsigned long long>(value));
    else
        std::snprintf(buf, sizeof buf, "0x%03x %s 0x%llx", static_cast<unsigned>(offset),
                      write ? "<=" : "=>", static_cast<unsigned long long>(value));
    return buf;
}

// A register of the frame only is named as a whole, whichever half the access reached.
std::string describe(const pmt_ext_name &name, uint32_t offset, uint64_t value, bool write)
{
    if (name.reg.id == PMT_REG_NONE)
        return plain(name.own, offset, value, write);
    if (name.half == 0)
        return format_access(name.reg, value, write);
    // The upper half of a 64-bit register: the name without fields.
    std::string reg = format_access(name.reg, 0, write);
    reg = reg.substr(0, reg.find(' '));
    return plain((reg + "[63:32]").c_str(), offset, value, write);
}

} // namespace

std::string describe_pmu_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value, bool write)
{
    return describe(pmt_pmu_ext_name(pe, offset), offset, value, write);
}

std::string describe_debug_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value,
                                        bool write)
{
    return describe(pmt_debug_ext_name(pe, offset), offset, value, write);
}

std::string describe_trbe_frame_access(const pmt_pe *pe, uint32_t offset, uint64_t value,
                                       bool write)
{
    return describe(pmt_trbe_ext_name(pe, offset), offset, value, write);
}

} // namespace pmtrace
