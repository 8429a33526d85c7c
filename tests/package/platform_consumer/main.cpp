// A user of the installed platform: a bus, RAM and the PL011 on QEMU virt's map, each from its
// subsystem's folder (bus/, devices/), driven by an initiator of the user's own.
#include <pmtrace/platform/bus/memory.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/bus/router.h>
#include <pmtrace/platform/devices/uart_pl011.h>

#include <cstring>
#include <iostream>
#include <tlm_utils/simple_initiator_socket.h>

namespace
{

struct user_initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<user_initiator> socket{"socket"};
    explicit user_initiator(const sc_core::sc_module_name &name) : sc_core::sc_module(name) {}

    bool access(tlm::tlm_command command, uint64_t address, uint32_t &value)
    {
        unsigned char data[4];
        std::memcpy(data, &value, sizeof data);
        tlm::tlm_generic_payload trans;
        trans.set_command(command);
        trans.set_address(address);
        trans.set_data_ptr(data);
        trans.set_data_length(sizeof data);
        trans.set_streaming_width(sizeof data);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(trans, delay);
        std::memcpy(&value, data, sizeof data);
        return trans.is_response_ok();
    }
};

} // namespace

int sc_main(int, char **)
{
    namespace virt = pmtrace::platform::virt;
    pmtrace::platform::memory_config ram_config;
    ram_config.size = 0x1000;
    user_initiator cpu("cpu");
    pmtrace::platform::router bus("bus");
    pmtrace::platform::memory ram("ram", ram_config);
    pmtrace::platform::uart_pl011 uart("uart");
    cpu.socket.bind(bus.target);
    bus.initiator.bind(ram.socket);
    bus.initiator.bind(uart.socket);
    bus.map(0, virt::ram_base, ram_config.size);
    bus.map(1, virt::uart_base, virt::uart_size);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint32_t word = 0x12345678;
    uint32_t back = 0;
    uint32_t letter = 'k';
    bool ok = cpu.access(tlm::TLM_WRITE_COMMAND, virt::ram_base + 0x10, word) &&
              cpu.access(tlm::TLM_READ_COMMAND, virt::ram_base + 0x10, back) &&
              cpu.access(tlm::TLM_WRITE_COMMAND, virt::uart_base, letter);
    std::cout << "platform: RAM 0x" << std::hex << back << std::dec << ", UART \"" << uart.output()
              << "\"\n";
    return ok && back == word && uart.output() == "k" ? 0 : 1;
}
