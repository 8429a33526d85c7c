// bus_access.h - one CPU data access on the bus, as both CPUs make it: a b_transport of 1 to 8
// bytes (little-endian, as the bus), no byte enables, no DMI, `delay` the initiator's local time
// in and out. A read's value is 0 unless the response is OK.
#ifndef PMTRACE_PLATFORM_BUS_ACCESS_H
#define PMTRACE_PLATFORM_BUS_ACCESS_H

#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>

namespace pmtrace::platform
{

inline tlm::tlm_response_status bus_access(tlm::tlm_fw_transport_if<> &bus, bool write,
                                           uint64_t address, unsigned size, uint64_t &value,
                                           sc_core::sc_time &delay)
{
    unsigned char data[8] = {};
    if (write)
        std::memcpy(data, &value, size);
    tlm::tlm_generic_payload tx;
    tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(size);
    tx.set_streaming_width(size);
    tx.set_byte_enable_ptr(nullptr);
    tx.set_dmi_allowed(false);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bus.b_transport(tx, delay);
    if (!write) {
        value = 0;
        if (tx.get_response_status() == tlm::TLM_OK_RESPONSE)
            std::memcpy(&value, data, size);
    }
    return tx.get_response_status();
}

} // namespace pmtrace::platform

#endif
