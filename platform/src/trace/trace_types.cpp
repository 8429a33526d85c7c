// trace_types.cpp - printing an instruction range.
#include "pmtrace/platform/trace/trace_types.h"

#include <ostream>

namespace pmtrace::platform
{

namespace
{
const char *kind_name(instr_kind k)
{
    switch (k) {
    case instr_kind::other: return "other";
    case instr_kind::branch: return "branch";
    case instr_kind::indirect_branch: return "indirect branch";
    case instr_kind::isb: return "ISB";
    case instr_kind::dsb_dmb: return "DSB/DMB";
    case instr_kind::wfi_wfe: return "WFI/WFE";
    case instr_kind::tstart: return "TSTART";
    }
    return "?";
}
} // namespace

std::ostream &operator<<(std::ostream &os, const instruction_range &r)
{
    const auto flags = os.flags();
    os << "[0x" << std::hex << r.start << ", 0x" << r.end << std::dec << ") " << r.instructions
       << " instructions, " << kind_name(r.last_kind) << ' ' << (r.taken ? 'E' : 'N');
    os.flags(flags);
    return os;
}

} // namespace pmtrace::platform
