// uart_pl011_receive.cpp - the PL011's receive side: the receive FIFO filled from the input, the
// receive and receive timeout interrupts, and the input's polling while software waits for it by
// interrupt (uart_pl011.h).
#include "pmtrace/platform/devices/uart_pl011.h"

#include "uart_pl011_rows.h"

namespace pmtrace::platform
{

using namespace pl011;

bool uart_pl011::fifo_enabled() const
{
    return regs_[LCR_H] & uartlcr_h_fen;
}

unsigned uart_pl011::rx_depth() const
{
    // Without FIFOs the receive side is a one-character holding register.
    return fifo_enabled() ? uart_fifo_depth : 1;
}

unsigned uart_pl011::rx_level() const
{
    if (!fifo_enabled())
        return 1; // "data is received thereby filling the location"
    // UARTIFLS.RXIFLSEL [5:3]: the FIFO becomes >= 1/8, 1/4, 1/2, 3/4, 7/8 full. The reserved
    // values 0b101-0b111 behave as 1/2, the reset value.
    static const unsigned eighths[8] = {1, 2, 4, 6, 7, 4, 4, 4};
    return uart_fifo_depth * eighths[regs_[IFLS] >> 3 & 7] / 8;
}

sc_core::sc_time uart_pl011::receive_timeout() const
{
    // 32 bit periods; a bit period is 16 x BAUDDIV / UARTCLK, BAUDDIV = UARTIBRD + UARTFBRD / 64.
    // UARTIBRD 0 is not a divisor ("the minimum divide ratio is 1"): then 1.
    const unsigned ibrd = regs_[IBRD], fbrd = regs_[FBRD];
    const double divisor_64ths = ibrd ? 64.0 * ibrd + fbrd : 64.0;
    return sc_core::sc_time(32 * 16 * divisor_64ths / 64 / config_.clock_hz, sc_core::SC_SEC);
}

bool uart_pl011::waiting_by_interrupt() const
{
    return config_.input && !input_ended_ && (regs_[IMSC] & (uart_int_rx | uart_int_rt));
}

void uart_pl011::receive(uint8_t c)
{
    rx_.push_back(c);
    // UARTRXINTR: the FIFO reaches the trigger level (rises through it: one character at a
    // time, so when it holds exactly that many), or the holding register fills.
    if (rx_.size() == rx_level())
        ris_ |= uart_int_rx;
    // UARTRTINTR: asserted if nothing more is received in the next 32 bit periods.
    timeout_event_.cancel();
    timeout_event_.notify(receive_timeout());
}

void uart_pl011::take_input()
{
    if (!config_.input || input_ended_)
        return;
    bool any = false;
    while (rx_.size() < rx_depth()) {
        const int c = config_.input();
        if (c == uart_input_ended) {
            input_ended_ = true;
            break;
        }
        if (c < 0 || c > 0xFF)
            break;
        receive(static_cast<uint8_t>(c));
        any = true;
    }
    if (any)
        update();
}

uint32_t uart_pl011::read_data()
{
    if (rx_.empty())
        take_input();
    if (rx_.empty())
        return 0; // nothing received: no data, no error bits
    const uint32_t c = rx_.front();
    rx_.pop_front();
    // RXRIS clears when reads take the FIFO below the trigger level (the holding register: one
    // read); RTRIS when the FIFO empties.
    if (rx_.size() < rx_level())
        ris_ &= ~uart_int_rx;
    if (rx_.empty()) {
        ris_ &= ~uart_int_rt;
        timeout_event_.cancel();
    }
    update();
    return c;
}

void uart_pl011::start_polling()
{
    if (waiting_by_interrupt())
        poll_event_.notify(sc_core::SC_ZERO_TIME);
}

void uart_pl011::poll()
{
    take_input();
    if (waiting_by_interrupt())
        poll_event_.notify(config_.input_poll);
}

void uart_pl011::timeout_expired()
{
    if (rx_.empty())
        return;
    ris_ |= uart_int_rt;
    update();
}

} // namespace pmtrace::platform
