// ete_loop.cpp - the workload loop's trace as ETE (ete_loop.h).
#include "pmtrace/platform/trace/ete_loop.h"

#include <cstring>

namespace pmtrace::platform
{

ete_loop::ete_loop(uint64_t program_base, const ete_encoder_config &config)
    : program_(program_base, config.log), stream_(program_, config)
{
}

void ete_loop::attach(sw_loop &loop)
{
    loop.trace_fill = fill;
    loop.trace_arg = this;
    loop.trace_bytes = 2 + ete_packet::start_size; // the most an iteration adds
}

size_t ete_loop::fill(void *arg, uint64_t iterations, uint8_t *buf, size_t size)
{
    return static_cast<ete_loop *>(arg)->stream_.run(iterations, buf, size);
}

bool ete_loop::place(memory &ram, uint64_t ram_base) const
{
    const std::vector<uint8_t> code = program_.image_bytes();
    const uint64_t base = program_.base();
    if (base < ram_base || base - ram_base > ram.size() ||
        code.size() > ram.size() - (base - ram_base))
        return false;
    std::memcpy(ram.data() + (base - ram_base), code.data(), code.size());
    return true;
}

trace_capture ete_loop::capture(std::vector<uint8_t> trace) const
{
    trace_capture c;
    c.trace = std::move(trace);
    c.images.push_back(program_.image());
    c.registers = registers();
    c.description = "pmtrace-vp: the synthetic loop traced by the ETE model, captured by the TRBE";
    return c;
}

} // namespace pmtrace::platform
