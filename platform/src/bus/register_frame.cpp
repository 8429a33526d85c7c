// register_frame.cpp - decoding TLM accesses against a register table.
#include "pmtrace/platform/bus/register_frame.h"

#include <cstdio>
#include <cstring>

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

} // namespace

register_frame::register_frame(const char *log_name, const register_info *table, size_t rows)
    : log_name_(log_name), table_(table), rows_(rows)
{
}

bool register_frame::decode(uint64_t offset, size_t &row, unsigned &index) const
{
    for (size_t r = 0; r < rows_; r++) {
        const register_info &reg = table_[r];
        uint64_t end = reg.offset + uint64_t{reg.count} * reg.width;
        if (offset >= reg.offset && offset < end) {
            row = r;
            index = static_cast<unsigned>((offset - reg.offset) / reg.width);
            return true;
        }
    }
    return false;
}

std::string register_frame::register_name(size_t row, unsigned index) const
{
    std::string name = table_[row].name;
    if (table_[row].count > 1)
        name += std::to_string(index);
    return name;
}

bool register_frame::access(tlm::tlm_generic_payload &tx, bool debug)
{
    auto fail = [&](tlm::tlm_response_status status, const std::string &why) {
        tx.set_response_status(status);
        if (!debug)
            SC_REPORT_WARNING(log_name_.c_str(),
                              (why + " at offset " + hex(tx.get_address())).c_str());
        return false;
    };
    if (tx.get_command() == tlm::TLM_IGNORE_COMMAND) {
        tx.set_response_status(tlm::TLM_OK_RESPONSE);
        return true;
    }
    const uint64_t offset = tx.get_address();
    const unsigned size = tx.get_data_length();
    size_t row = 0;
    unsigned index = 0;
    if (!decode(offset, row, index))
        return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE, "no register");
    if (tx.get_byte_enable_ptr())
        return fail(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, "byte enables refused");
    const register_info &reg = table_[row];
    const unsigned within = static_cast<unsigned>((offset - reg.offset) % reg.width);
    const bool size_ok = (size == 1 || size == 2 || size == 4 || size == 8) && (reg.sizes & size);
    if (!size_ok || tx.get_streaming_width() < size || within % size != 0 ||
        within + size > reg.width)
        return fail(tlm::TLM_BURST_ERROR_RESPONSE, std::to_string(size) + "-byte access to " +
                                                       register_name(row, index) + " not allowed");

    const unsigned shift = within * 8;
    const uint64_t mask = (size == 8 ? ~uint64_t{0} : (uint64_t{1} << (size * 8)) - 1) << shift;
    const std::string name = register_name(row, index);
    if (tx.is_read()) {
        uint64_t value = (read_register(row, index, debug) & mask) >> shift;
        std::memcpy(tx.get_data_ptr(), &value, size); // little-endian host
        if (!debug)
            SC_REPORT_INFO_VERB(log_name_.c_str(), (name + " => " + hex(value)).c_str(),
                                sc_core::SC_HIGH);
    } else {
        if (debug) {
            tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return false; // a debugger's write would have side effects: refused
        }
        uint64_t value = 0;
        std::memcpy(&value, tx.get_data_ptr(), size);
        SC_REPORT_INFO_VERB(log_name_.c_str(), (name + " <= " + hex(value)).c_str(),
                            sc_core::SC_HIGH);
        write_register(row, index, value << shift, mask);
    }
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

void register_frame::frame_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay,
                                     const sc_core::sc_time &latency)
{
    access(tx, false);
    delay += latency;
    tx.set_dmi_allowed(false);
}

unsigned register_frame::frame_transport_dbg(tlm::tlm_generic_payload &tx)
{
    return access(tx, true) ? tx.get_data_length() : 0;
}

} // namespace pmtrace::platform
