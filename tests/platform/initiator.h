// initiator.h - a test initiator: b_transport, transport_dbg and DMI requests from a test, and a
// record of the DMI invalidations it receives.
#ifndef PMTRACE_TESTS_PLATFORM_INITIATOR_H
#define PMTRACE_TESTS_PLATFORM_INITIATOR_H

#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <utility>
#include <vector>

namespace pmtrace::test
{

struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> socket;
    std::vector<std::pair<uint64_t, uint64_t>> invalidations;
    sc_core::sc_time delay;

    explicit initiator(const sc_core::sc_module_name &name) : sc_module(name), socket("socket")
    {
        socket.register_invalidate_direct_mem_ptr(this, &initiator::invalidate);
    }

    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, void *data, unsigned n,
                                    unsigned char *be = nullptr, unsigned be_n = 0)
    {
        tlm::tlm_generic_payload tx;
        tx.set_command(cmd);
        tx.set_address(address);
        tx.set_data_ptr(static_cast<unsigned char *>(data));
        tx.set_data_length(n);
        tx.set_streaming_width(n);
        tx.set_byte_enable_ptr(be);
        tx.set_byte_enable_length(be_n);
        tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(tx, delay);
        last_address = tx.get_address();
        dmi_hint = tx.is_dmi_allowed();
        return tx.get_response_status();
    }
    tlm::tlm_response_status write(uint64_t address, uint64_t value, unsigned n = 4)
    {
        return access(tlm::TLM_WRITE_COMMAND, address, &value, n);
    }
    tlm::tlm_response_status read(uint64_t address, uint64_t &value, unsigned n = 4)
    {
        value = 0;
        return access(tlm::TLM_READ_COMMAND, address, &value, n);
    }
    // A 32-bit read that must succeed (0xDEADBEEF marks a failed one).
    uint32_t rd(uint64_t address)
    {
        uint64_t v = 0;
        return read(address, v) == tlm::TLM_OK_RESPONSE ? static_cast<uint32_t>(v) : 0xDEADBEEF;
    }
    bool wr(uint64_t address, uint32_t value)
    {
        return write(address, value) == tlm::TLM_OK_RESPONSE;
    }

    unsigned debug(tlm::tlm_command cmd, uint64_t address, void *data, unsigned n)
    {
        tlm::tlm_generic_payload tx;
        tx.set_command(cmd);
        tx.set_address(address);
        tx.set_data_ptr(static_cast<unsigned char *>(data));
        tx.set_data_length(n);
        tx.set_streaming_width(n);
        return socket->transport_dbg(tx);
    }

    bool dmi(uint64_t address, tlm::tlm_dmi &d, tlm::tlm_command cmd = tlm::TLM_READ_COMMAND)
    {
        tlm::tlm_generic_payload tx;
        tx.set_command(cmd);
        tx.set_address(address);
        d.init();
        return socket->get_direct_mem_ptr(tx, d);
    }

    uint64_t last_address = 0;
    bool dmi_hint = false;

  private:
    void invalidate(sc_dt::uint64 start, sc_dt::uint64 end)
    {
        invalidations.emplace_back(start, end);
    }
};

} // namespace pmtrace::test

#endif
