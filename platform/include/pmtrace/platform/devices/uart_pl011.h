// uart_pl011.h - a minimal Arm PrimeCell UART (PL011), as at 0x0900_0000 on QEMU's virt board:
// characters written to UARTDR are collected (and echoed to stdout, unbuffered, when asked);
// UARTFR says the transmit FIFO is empty, so a polling driver never waits. Received characters
// come from an input function (a console's stdin): UARTFR.RXFE is clear while one is waiting,
// and a read of UARTDR takes it.
//
// Choices: polled receive only (no interrupts: UARTRIS reads 0), a one-character receive FIFO,
// characters are taken whatever UARTCR says (as QEMU does); the control registers hold what is
// written.
#ifndef PMTRACE_PLATFORM_UART_PL011_H
#define PMTRACE_PLATFORM_UART_PL011_H

#include <pmtrace/platform/bus/register_frame.h>

#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace pmtrace::platform
{

struct uart_config {
    bool echo = false; // also write characters to stdout, each at once (a console)
    // The receive side: the next character, or -1 when none is waiting (never blocks). Empty:
    // nothing is ever received.
    std::function<int()> input;
    sc_core::sc_time access_latency = sc_core::sc_time(10, sc_core::SC_NS);
};

// UARTFR bits.
constexpr uint32_t uartfr_busy = 1u << 3, uartfr_rxfe = 1u << 4, uartfr_txff = 1u << 5,
                   uartfr_rxff = 1u << 6, uartfr_txfe = 1u << 7;

class uart_pl011 : public sc_core::sc_module, public register_frame
{
  public:
    tlm_utils::simple_target_socket<uart_pl011> socket; // 4 KiB

    uart_pl011(const sc_core::sc_module_name &name, const uart_config &config = uart_config());

    const std::string &output() const { return output_; }
    void clear_output() { output_.clear(); }

  protected:
    uint64_t read_register(size_t row, unsigned index, bool debug) override;
    void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) override;

  private:
    void b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tx);

    uart_config config_;
    bool receive_ready(); // a character is waiting in rx_ (asks the input for one if not)

    std::string output_;
    int rx_ = -1;            // the receive FIFO: a character, or -1
    uint32_t regs_[16] = {}; // control registers by table row
};

} // namespace pmtrace::platform

#endif
