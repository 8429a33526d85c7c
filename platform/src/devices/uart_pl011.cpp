// uart_pl011.cpp - PL011 registers.
#include "pmtrace/platform/devices/uart_pl011.h"

#include <cstdio>

namespace pmtrace::platform
{

namespace
{

enum row {
    DR,
    RSR_ECR,
    FR,
    ILPR,
    IBRD,
    FBRD,
    LCR_H,
    CR,
    IFLS,
    IMSC,
    RIS,
    MIS,
    ICR,
    DMACR,
    PERIPHID,
    PCELLID
};

constexpr uint8_t any = size8 | size16 | size32;
const register_info table[] = {
    {0x000, 1, 4, any, "UARTDR"},       {0x004, 1, 4, any, "UARTRSR"},
    {0x018, 1, 4, any, "UARTFR"},       {0x020, 1, 4, any, "UARTILPR"},
    {0x024, 1, 4, any, "UARTIBRD"},     {0x028, 1, 4, any, "UARTFBRD"},
    {0x02C, 1, 4, any, "UARTLCR_H"},    {0x030, 1, 4, any, "UARTCR"},
    {0x034, 1, 4, any, "UARTIFLS"},     {0x038, 1, 4, any, "UARTIMSC"},
    {0x03C, 1, 4, any, "UARTRIS"},      {0x040, 1, 4, any, "UARTMIS"},
    {0x044, 1, 4, any, "UARTICR"},      {0x048, 1, 4, any, "UARTDMACR"},
    {0xFE0, 4, 4, any, "UARTPeriphID"}, {0xFF0, 4, 4, any, "UARTPCellID"},
};

constexpr uint32_t periph_id[4] = {0x11, 0x10, 0x14, 0x00}; // PL011, as QEMU's virt board
constexpr uint32_t pcell_id[4] = {0x0D, 0xF0, 0x05, 0xB1};

} // namespace

uart_pl011::uart_pl011(const sc_core::sc_module_name &name, const uart_config &config)
    : sc_module(name), register_frame(this->name(), table, sizeof table / sizeof table[0]),
      socket("socket"), config_(config)
{
    regs_[CR] = 0x300;  // TXE, RXE
    regs_[IFLS] = 0x12; // half-full trigger levels
    socket.register_b_transport(this, &uart_pl011::b_transport);
    socket.register_transport_dbg(this, &uart_pl011::transport_dbg);
}

bool uart_pl011::receive_ready()
{
    if (rx_ < 0 && config_.input)
        rx_ = config_.input();
    return rx_ >= 0;
}

uint64_t uart_pl011::read_register(size_t row, unsigned index, bool debug)
{
    switch (row) {
    case DR: { // the received character (0 with none), taken from the FIFO
        if (debug ? rx_ < 0 : !receive_ready())
            return 0;
        const uint64_t c = static_cast<uint8_t>(rx_);
        if (!debug)
            rx_ = -1;
        return c;
    }
    case FR: return uartfr_txfe | ((debug ? rx_ >= 0 : receive_ready()) ? 0 : uartfr_rxfe);
    case RIS:
    case MIS: return 0;
    case PERIPHID: return periph_id[index];
    case PCELLID: return pcell_id[index];
    case ICR: return 0; // write-only
    default: return regs_[row];
    }
}

void uart_pl011::write_register(size_t row, unsigned, uint64_t value, uint64_t mask)
{
    switch (row) {
    case DR: {
        const char c = static_cast<char>(value & 0xFF);
        output_.push_back(c);
        if (config_.echo) {
            std::fputc(c, stdout);
            std::fflush(stdout);
        }
        break;
    }
    case FR:
    case RIS:
    case MIS:
    case PERIPHID:
    case PCELLID:
    case ICR: break; // read-only, or nothing to clear
    default: regs_[row] = static_cast<uint32_t>((regs_[row] & ~mask) | (value & mask)) & 0xFFFF;
    }
}

void uart_pl011::b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    frame_transport(tx, delay, config_.access_latency);
}

unsigned uart_pl011::transport_dbg(tlm::tlm_generic_payload &tx)
{
    return frame_transport_dbg(tx);
}

} // namespace pmtrace::platform
