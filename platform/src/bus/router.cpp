// router.cpp - address decode, DMI range translation and invalidation fan-out.
#include "pmtrace/platform/bus/router.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace pmtrace::platform
{

namespace
{

std::string hex(uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

uint64_t last(const router::mapping &m)
{
    return m.base + (m.size - 1);
}

} // namespace

router::router(const sc_core::sc_module_name &name, const sc_core::sc_time &latency)
    : sc_module(name), target("target"), initiator("initiator"), latency_(latency),
      log_(this->name())
{
    target.register_b_transport(this, &router::b_transport);
    target.register_transport_dbg(this, &router::transport_dbg);
    target.register_get_direct_mem_ptr(this, &router::get_direct_mem_ptr);
    initiator.register_invalidate_direct_mem_ptr(this, &router::invalidate_direct_mem_ptr);
}

bool router::map(unsigned port, uint64_t base, uint64_t size, uint64_t local_base)
{
    mapping m{port, base, size, local_base};
    bool ok = size != 0 && base + (size - 1) >= base && local_base + (size - 1) >= local_base;
    for (const mapping &o : map_)
        ok = ok && (last(m) < o.base || m.base > last(o));
    if (!ok) {
        SC_REPORT_WARNING(name(),
                          ("mapping of port " + std::to_string(port) + " at " + hex(base) +
                           " size " + hex(size) + " refused: empty, wrapping or overlapping")
                              .c_str());
        return false;
    }
    map_.push_back(m);
    std::sort(map_.begin(), map_.end(),
              [](const mapping &a, const mapping &b) { return a.base < b.base; });
    return true;
}

const router::mapping *router::decode(uint64_t address) const
{
    for (const mapping &m : map_)
        if (address >= m.base && address <= last(m))
            return &m;
    return nullptr;
}

const router::mapping *router::decode_access(const tlm::tlm_generic_payload &tx) const
{
    const mapping *m = decode(tx.get_address());
    const uint64_t n = tx.get_streaming_width() && tx.get_streaming_width() < tx.get_data_length()
                           ? tx.get_streaming_width()
                           : tx.get_data_length();
    if (!m || (n && last(*m) - tx.get_address() < n - 1))
        return nullptr;
    return m;
}

void router::hole_around(uint64_t address, uint64_t &start, uint64_t &end) const
{
    start = 0;
    end = ~uint64_t{0};
    for (const mapping &m : map_) {
        if (last(m) < address)
            start = std::max(start, last(m) + 1);
        else if (m.base > address)
            end = std::min(end, m.base - 1);
    }
}

void router::b_transport(int, tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    const mapping *m = decode_access(tx);
    if (!m) {
        tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        log_.warning("no target", "no target at " + hex(tx.get_address()) + " (" +
                                      std::to_string(tx.get_data_length()) + " bytes)");
        return;
    }
    const uint64_t address = tx.get_address();
    tx.set_address(address - m->base + m->local_base);
    delay += latency_;
    initiator[m->port]->b_transport(tx, delay);
    tx.set_address(address);
}

unsigned router::transport_dbg(int, tlm::tlm_generic_payload &tx)
{
    const mapping *m = decode(tx.get_address());
    if (!m)
        return 0;
    const uint64_t address = tx.get_address();
    // A debug access is cut at the end of its mapping.
    const uint64_t room = last(*m) - address + 1;
    const unsigned length = tx.get_data_length();
    if (room < length)
        tx.set_data_length(static_cast<unsigned>(room));
    tx.set_address(address - m->base + m->local_base);
    unsigned n = initiator[m->port]->transport_dbg(tx);
    tx.set_address(address);
    tx.set_data_length(length);
    return n;
}

bool router::get_direct_mem_ptr(int, tlm::tlm_generic_payload &tx, tlm::tlm_dmi &dmi)
{
    const uint64_t address = tx.get_address();
    const mapping *m = decode(address);
    if (!m) {
        uint64_t start = 0, end = 0;
        hole_around(address, start, end);
        dmi.set_start_address(start);
        dmi.set_end_address(end);
        dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
        return false;
    }
    tx.set_address(address - m->base + m->local_base);
    bool granted = initiator[m->port]->get_direct_mem_ptr(tx, dmi);
    tx.set_address(address);

    // Trim the target's range to the mapping, then translate it to bus addresses.
    const uint64_t local_last = m->local_base + (m->size - 1);
    uint64_t start = dmi.get_start_address(), end = dmi.get_end_address();
    if (start < m->local_base) {
        if (granted && dmi.get_dmi_ptr())
            dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (m->local_base - start));
        start = m->local_base;
    }
    end = std::min<uint64_t>(end, local_last);
    dmi.set_start_address(start - m->local_base + m->base);
    dmi.set_end_address(end - m->local_base + m->base);
    return granted;
}

void router::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end)
{
    for (const mapping &m : map_) {
        if (m.port != static_cast<unsigned>(port))
            continue;
        const uint64_t local_last = m.local_base + (m.size - 1);
        if (end < m.local_base || start > local_last)
            continue;
        const uint64_t s = std::max<uint64_t>(start, m.local_base) - m.local_base + m.base;
        const uint64_t e = std::min<uint64_t>(end, local_last) - m.local_base + m.base;
        for (unsigned i = 0; i < target.size(); i++)
            target[i]->invalidate_direct_mem_ptr(s, e);
    }
}

} // namespace pmtrace::platform
