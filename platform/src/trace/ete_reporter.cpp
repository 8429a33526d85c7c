// ete_reporter.cpp - the CPU's reports to the trace unit (ete_reporter.h).
#include <pmtrace/platform/trace/ete_reporter.h>

#include <pmtrace/pmtrace.h>

#include <algorithm>
#include <array>
#include <utility>

namespace pmtrace::platform
{

namespace
{

pmt_ete_p0 p0_of(a64_p0_kind k)
{
    switch (k) {
    case a64_p0_kind::indirect:
    case a64_p0_kind::indirect_link:
    case a64_p0_kind::ret:
    case a64_p0_kind::eret: return PMT_ETE_P0_INDIRECT;
    case a64_p0_kind::isb: return PMT_ETE_P0_ISB;
    case a64_p0_kind::wfx: return PMT_ETE_P0_WFX;
    default: return PMT_ETE_P0_DIRECT;
    }
}

pmt_ete_range ete_range(const a64_trace_range &r)
{
    return {r.start, r.last, p0_of(r.kind), r.taken, r.next, r.count};
}

} // namespace

ete_registers ete_registers_of(pmt_pe *pe)
{
    auto read = [pe](pmt_reg_id id) {
        uint64_t v = 0;
        (void)pmt_pe_sysreg_read(pe, pmt_sysreg_encode({id, 0}), &v);
        return static_cast<uint32_t>(v);
    };
    ete_registers r;
    r.trcidr0 = read(PMT_REG_TRCIDR0);
    r.trcidr1 = read(PMT_REG_TRCIDR1);
    r.trcidr2 = read(PMT_REG_TRCIDR2);
    r.trcidr8 = read(PMT_REG_TRCIDR8);
    r.trcconfigr = read(PMT_REG_TRCCONFIGR);
    r.trctraceidr = read(PMT_REG_TRCTRACEIDR);
    r.trcdevarch = read(PMT_REG_TRCDEVARCH);
    return r;
}

// The Exception packet's types: SVC, HVC and an SMC taken to EL3 are Calls; an SMC that
// HCR_EL2.TSC traps to EL2, an UNDEFINED instruction and a trapped System register access are
// Traps; BRK is an Instruction debug exception; aborts are Instruction and Data Faults; the
// Profiling exceptions (EC 0x3D), which ETE names no type for, are Traps (docs/choices.md).
pmt_ete_exception ete_exception_type(const a64_trace_exception_taken &e)
{
    switch (e.type) {
    case a64_trace_exception::svc:
    case a64_trace_exception::hvc: return PMT_ETE_EXC_CALL;
    case a64_trace_exception::smc: return e.to.el == 3 ? PMT_ETE_EXC_CALL : PMT_ETE_EXC_TRAP;
    case a64_trace_exception::brk: return PMT_ETE_EXC_INST_DEBUG;
    case a64_trace_exception::instruction_abort: return PMT_ETE_EXC_INST_FAULT;
    case a64_trace_exception::data_abort: return PMT_ETE_EXC_DATA_FAULT;
    case a64_trace_exception::irq: return PMT_ETE_EXC_IRQ;
    case a64_trace_exception::fiq: return PMT_ETE_EXC_FIQ;
    case a64_trace_exception::serror: return PMT_ETE_EXC_SERROR;
    default: return PMT_ETE_EXC_TRAP;
    }
}

ete_reporter::ete_reporter(pmtrace::ete_report_if &unit, std::function<sc_core::sc_time()> offset)
    : unit_(unit), offset_(std::move(offset))
{
}

void ete_reporter::check(pmt_status status)
{
    if (status != PMT_OK)
        refused_++;
}

void ete_reporter::on_context(const a64_trace_context &c, uint64_t)
{
    const auto el1 = static_cast<uint32_t>(c.contextidr_el1);
    const auto el2 = static_cast<uint32_t>(c.contextidr_el2);
    if (ids_valid_ && el1 == contextidr_el1_ && el2 == contextidr_el2_)
        return; // the Exception level and Security state come from the PE state
    ids_valid_ = true;
    contextidr_el1_ = el1;
    contextidr_el2_ = el2;
    check(unit_.report_context_ids(el1, el2, offset_()));
}

void ete_reporter::on_range(const a64_trace_range &r)
{
    const pmt_ete_range range = ete_range(r);
    if (!unit_.report_ranges_held(&range, 1))
        check(unit_.report_range(range, offset_()));
}

// The trace unit holds as many as it can in one call; the first it cannot is reported at its
// time, and it goes on from the next.
void ete_reporter::on_ranges(const a64_trace_range *ranges, size_t n, const a64_trace_times &times)
{
    std::array<pmt_ete_range, 64> chunk;
    for (size_t base = 0; base < n; base += chunk.size()) {
        const size_t m = std::min(chunk.size(), n - base);
        for (size_t i = 0; i < m; i++)
            chunk[i] = ete_range(ranges[base + i]);
        for (size_t i = 0; i < m; i++) {
            i += unit_.report_ranges_held(&chunk[i], m - i);
            if (i < m)
                check(unit_.report_range(chunk[i], times.offset(base + i)));
        }
    }
}

void ete_reporter::on_exception(const a64_trace_exception_taken &e)
{
    const pmt_ete_exception_taken x{ete_exception_type(e), e.range_start, e.preferred_return};
    check(unit_.report_exception(x, offset_()));
}

void ete_reporter::on_end(const a64_trace_end &)
{
    check(unit_.flush_trace(offset_()));
}

} // namespace pmtrace::platform
