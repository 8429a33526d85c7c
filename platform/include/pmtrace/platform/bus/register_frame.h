// register_frame.h - the memory-mapped side of a register-based component: a table of
// registers (offset, instances, width, the access sizes allowed, name), decoding of a TLM
// transaction against it, and the TLM error answers for a bad access.
//
// A component lists its registers once, in a table, and implements read and write of a whole
// register by its row and instance; accesses narrower than a register (where the table allows
// them) reach the component as a masked write or a slice of the read. Errors are TLM responses
// with one SC_REPORT_WARNING naming the component and the offset: an unmapped offset is
// ADDRESS_ERROR, a size or alignment the register does not allow BURST_ERROR, byte enables
// BYTE_ENABLE_ERROR. transport_dbg reads the same registers without reports or side effects;
// a debug write is refused (0 bytes), since a register write has side effects.
#ifndef PMTRACE_PLATFORM_REGISTER_FRAME_H
#define PMTRACE_PLATFORM_REGISTER_FRAME_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

namespace pmtrace::platform
{

// Access sizes a register allows (a bitmask).
enum access_size : uint8_t { size8 = 1, size16 = 2, size32 = 4, size64 = 8 };

struct register_info {
    uint32_t offset; // of instance 0
    uint16_t count;  // instances, at offset + n * width
    uint8_t width;   // bytes: 4 or 8
    uint8_t sizes;   // access_size mask
    const char *name;
};

class register_frame
{
  public:
    register_frame(const char *log_name, const register_info *table, size_t rows);
    virtual ~register_frame() = default;

    // b_transport body (adds `latency` to delay) and transport_dbg body.
    void frame_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay,
                         const sc_core::sc_time &latency);
    unsigned frame_transport_dbg(tlm::tlm_generic_payload &tx);

    // The row and instance of a register offset, or false.
    bool decode(uint64_t offset, size_t &row, unsigned &index) const;
    // "GICR_IPRIORITYR5" for row and instance.
    std::string register_name(size_t row, unsigned index) const;

  protected:
    // Whole-register access by table row and instance. debug: a debugger's read, which must
    // not change state (it never does in these components, but the flag is passed).
    virtual uint64_t read_register(size_t row, unsigned index, bool debug) = 0;
    // value holds the written bits in place; mask says which bits the access wrote.
    virtual void write_register(size_t row, unsigned index, uint64_t value, uint64_t mask) = 0;

  private:
    bool access(tlm::tlm_generic_payload &tx, bool debug);

    std::string log_name_;
    const register_info *table_;
    size_t rows_;
};

} // namespace pmtrace::platform

#endif
