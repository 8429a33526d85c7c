// uart_pl011.cpp - PL011 registers, transmit and the interrupt output (uart_pl011.h; the receive
// side is uart_pl011_receive.cpp).
#include "pmtrace/platform/devices/uart_pl011.h"

#include "uart_pl011_rows.h"

#include <cstdio>

namespace pmtrace::platform
{

namespace
{

using namespace pl011;

constexpr uint8_t any = size8 | size16 | size32;
// DDI 0183, "Summary of registers".
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

// The writable bits of the control registers (the rest reserved: RAZ/WI).
uint32_t writable(size_t row)
{
    switch (row) {
    case ILPR: return 0xFF;   // ILPDVSR
    case IBRD: return 0xFFFF; // BAUD DIVINT
    case FBRD: return 0x3F;   // BAUD DIVFRAC
    case LCR_H: return 0xFF;  // SPS, WLEN, FEN, STP2, EPS, PEN, BRK
    case CR: return 0xFF87;   // CTSEn .. RXE, TXE, LBE, SIRLP, SIREN, UARTEN ([6:3] reserved)
    case IFLS: return 0x3F;   // RXIFLSEL, TXIFLSEL
    case IMSC: return uart_int_all;
    case DMACR: return 0x7; // DMAONERR, TXDMAE, RXDMAE
    default: return 0;
    }
}

constexpr uint32_t periph_id[4] = {0x11, 0x10, 0x14, 0x00}; // PL011 revision 1, as QEMU's virt
constexpr uint32_t pcell_id[4] = {0x0D, 0xF0, 0x05, 0xB1};

} // namespace

uart_pl011::uart_pl011(const sc_core::sc_module_name &name, const uart_config &config)
    : sc_module(name), register_frame(this->name(), table, sizeof table / sizeof table[0]),
      socket("socket"), intr("intr"), config_(config)
{
    if (config_.input_poll == sc_core::SC_ZERO_TIME) {
        SC_REPORT_WARNING(this->name(), "input_poll of 0: polling the input every 1 ms");
        config_.input_poll = uart_config().input_poll;
    }
    if (config_.clock_hz == 0) {
        SC_REPORT_WARNING(this->name(), "a UARTCLK of 0 Hz: 24 MHz instead");
        config_.clock_hz = uart_config().clock_hz;
    }
    regs_[CR] = 0x300;  // TXE, RXE
    regs_[IFLS] = 0x12; // both trigger levels at 1/2 full
    socket.register_b_transport(this, &uart_pl011::b_transport);
    socket.register_transport_dbg(this, &uart_pl011::transport_dbg);
    SC_HAS_PROCESS(uart_pl011);
    SC_METHOD(poll);
    sensitive << poll_event_;
    dont_initialize();
    SC_METHOD(timeout_expired);
    sensitive << timeout_event_;
    dont_initialize();
}

// UARTINTR changes at the time of the access that changed it (the initiator's time,
// sc_time_stamp() + delay), or now for the UART's own events.
void uart_pl011::update()
{
    intr.write((ris_ & regs_[IMSC]) != 0, access_offset_);
}

uint64_t uart_pl011::read_register(size_t row, unsigned index, bool debug)
{
    switch (row) {
    case DR:
        if (debug)
            return rx_.empty() ? 0 : rx_.front();
        return read_data();
    case FR: {
        if (!debug)
            take_input();
        uint32_t fr = uartfr_txfe; // transmit FIFO empty; not busy, never full
        if (rx_.empty())
            fr |= uartfr_rxfe;
        if (rx_.size() >= rx_depth())
            fr |= uartfr_rxff;
        return fr;
    }
    case RSR_ECR: return 0; // no framing, parity, break or overrun errors
    case RIS: return ris_;
    case MIS: return ris_ & regs_[IMSC];
    case ICR: return 0; // write-only
    case PERIPHID: return periph_id[index];
    case PCELLID: return pcell_id[index];
    default: return regs_[row];
    }
}

void uart_pl011::write_register(size_t row, unsigned, uint64_t value, uint64_t mask)
{
    switch (row) {
    case DR: {
        if (!(mask & 0xFF))
            return; // the data byte is not written: nothing to send
        const char c = static_cast<char>(value & 0xFF);
        output_.push_back(c);
        if (config_.echo) {
            std::fputc(c, stdout);
            std::fflush(stdout);
        }
        // The character leaves the transmit FIFO (or holding register) at once: the FIFO passes
        // through its trigger level to empty (DDI 0183, UARTTXINTR).
        ris_ |= uart_int_tx;
        break;
    }
    case ICR: ris_ &= ~static_cast<uint32_t>(value & mask & uart_int_all); break;
    case RSR_ECR: break; // a write clears the errors: there are none
    case FR:
    case RIS:
    case MIS:
    case PERIPHID:
    case PCELLID: return; // read-only
    default: {
        const uint32_t w = writable(row) & static_cast<uint32_t>(mask);
        regs_[row] = (regs_[row] & ~w) | (static_cast<uint32_t>(value) & w);
        if (row == IMSC)
            start_polling();
    }
    }
    update();
}

void uart_pl011::b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    access_offset_ = delay;
    frame_transport(tx, delay, config_.access_latency);
    access_offset_ = sc_core::SC_ZERO_TIME;
}

unsigned uart_pl011::transport_dbg(tlm::tlm_generic_payload &tx)
{
    return frame_transport_dbg(tx);
}

} // namespace pmtrace::platform
