// uart_pl011.h - the Arm PrimeCell UART (PL011, Arm DDI 0183), as at 0x0900_0000 on QEMU's virt
// board, with its interrupt on SPI 1 (INTID 33). Its PrimeCell ID says revision 1, whose FIFOs are
// 16 deep (r1p5, revision 3, has 32; Linux's amba-pl011 sizes them from the revision).
//
// Transmit: a character written to UARTDR goes out at once (collected in output(), and written
// to stdout when `echo` is set): there is no baud rate, the transmit FIFO is always empty
// (UARTFR.TXFE 1, TXFF and BUSY 0). Receive: characters come from an input function (a console's
// stdin) into the receive FIFO, 16 deep with UARTLCR_H.FEN (1 without): when software reads
// UARTFR or UARTDR, and, while it waits for them by interrupt (UARTIMSC.RXIM or RTIM set), every
// `input_poll` of simulated time. A character that finds the FIFO full stays with the input (no
// overrun). The interrupts of the TRM's "Interrupts" section:
//   RXRIS  the receive FIFO reaches the UARTIFLS.RXIFLSEL trigger level (1/8 .. 7/8 of 16), or,
//          without FIFOs, the holding register fills; cleared by reads that take it below the
//          level (the holding register: one read) or by UARTICR;
//   RTRIS  the receive timeout: the FIFO is not empty and nothing more arrived for 32 bit periods
//          (of the baud rate UARTIBRD/UARTFBRD give from UARTCLK); cleared when a read empties the
//          FIFO or by UARTICR;
//   TXRIS  the transmit FIFO is at or below its level once written data has left it ("a transition
//          through a level"): empty at once, so set by every write to UARTDR, never out of reset
//          before one; a write cannot fill the FIFO above a level, so only UARTICR clears it;
// the error and modem interrupts never rise. UARTMIS = UARTRIS & UARTIMSC; the `intr` output
// (UARTINTR, the combined interrupt) is high while UARTMIS is not 0.
//
// Choices (docs/choices.md): characters are taken and sent whatever UARTCR.UARTEN, TXE and RXE say
// (as QEMU); no loopback (UARTCR.LBE), no IrDA, no DMA (UARTDMACR holds what is written); clearing
// UARTLCR_H.FEN keeps what the FIFO holds; the other control registers hold what is written.
#ifndef PMTRACE_PLATFORM_UART_PL011_H
#define PMTRACE_PLATFORM_UART_PL011_H

#include <pmtrace/platform/bus/register_frame.h>
#include <pmtrace/platform/bus/signal_if.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace pmtrace::platform
{

// What the input function answers besides a character (0-255).
constexpr int uart_input_none = -1;  // nothing waiting now
constexpr int uart_input_ended = -2; // nothing ever again (the end of the input)

struct uart_config {
    bool echo = false; // also write characters to stdout, each at once (a console)
    // The receive side: the next character, uart_input_none or uart_input_ended; never blocks.
    // Empty: nothing is ever received.
    std::function<int()> input;
    // How often the input is asked while software waits for characters by interrupt (simulated
    // time; 0 is refused with a warning for the default).
    sc_core::sc_time input_poll = sc_core::sc_time(1, sc_core::SC_MS);
    // UARTCLK, which the baud rate divisor divides: 24 MHz, as virt's apb-pclk.
    uint32_t clock_hz = 24000000;
    sc_core::sc_time access_latency = sc_core::sc_time(10, sc_core::SC_NS);
};

// UARTFR bits.
constexpr uint32_t uartfr_busy = 1u << 3, uartfr_rxfe = 1u << 4, uartfr_txff = 1u << 5,
                   uartfr_rxff = 1u << 6, uartfr_txfe = 1u << 7;
// UARTIMSC, UARTRIS, UARTMIS, UARTICR bits: the modem interrupts RI, CTS, DCD, DSR [3:0], then
// RX, TX, RT, FE, PE, BE, OE.
constexpr uint32_t uart_int_rx = 1u << 4, uart_int_tx = 1u << 5, uart_int_rt = 1u << 6;
constexpr uint32_t uart_int_all = 0x7FF;
// UARTLCR_H.FEN.
constexpr uint32_t uartlcr_h_fen = 1u << 4;
// The FIFOs' depth (UARTPeriphID2 revision 1).
constexpr unsigned uart_fifo_depth = 16;

class uart_pl011 : public sc_core::sc_module, public register_frame
{
  public:
    tlm_utils::simple_target_socket<uart_pl011> socket; // 4 KiB
    level_out intr;                                     // UARTINTR

    uart_pl011(const sc_core::sc_module_name &name, const uart_config &config = uart_config());

    const std::string &output() const { return output_; }
    void clear_output() { output_.clear(); }
    // Characters in the receive FIFO.
    size_t received() const { return rx_.size(); }

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    void b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tx);

    // The receive side (uart_pl011_receive.cpp).
    bool fifo_enabled() const;
    unsigned rx_depth() const;
    unsigned rx_level() const; // the RX interrupt's level: the trigger level, or 1 without FIFOs
    sc_core::sc_time receive_timeout() const;
    bool waiting_by_interrupt() const;
    void take_input(); // from the input while the FIFO has room
    void receive(uint8_t c);
    uint32_t read_data();   // UARTDR: the oldest character (0 when none), taken
    void start_polling();   // when software starts waiting by interrupt
    void poll();            // SC_METHOD: every input_poll while it waits
    void timeout_expired(); // SC_METHOD: 32 bit periods without a character

    void update(); // the intr output from UARTMIS

    uart_config config_;
    std::string output_;
    std::deque<uint8_t> rx_;   // the receive FIFO, oldest first
    bool input_ended_ = false; // the input said uart_input_ended
    uint32_t ris_ = 0;         // UARTRIS
    uint32_t regs_[16] = {};   // control registers by table row
    sc_core::sc_event poll_event_, timeout_event_;
    sc_core::sc_time access_offset_ = sc_core::SC_ZERO_TIME; // of the access in progress
};

} // namespace pmtrace::platform

#endif
