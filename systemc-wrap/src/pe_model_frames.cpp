// pe_model_frames.cpp - the register frames as TLM-2.0 targets: the external PMU frame, the
// debug frame's PC sample registers, and the external Trace Buffer frame.
//
// b_transport: the access happens at sc_time_stamp() + delay (the initiator's local time), then
// the frame latency is added to the delay; it never waits. transport_dbg: reads without side
// effects (the core's state is saved before and restored after, because a read of PMPCSR[31:0]
// or EDPCSRlo samples the PC; the Trace Buffer frame's reads have none), writes as b_transport
// does. DMI is refused.
//
// Responses: an offset beyond the 4 KB frame or where the core has no register:
// ADDRESS_ERROR; a length other than 4 or 8, a streaming width other than the length, or a size
// the register does not take: BURST_ERROR; byte enables: BYTE_ENABLE_ERROR; an access the core
// refuses (PMT_EXT_ERROR: MDCR_EL3.EPMAD or .ETBAD, the OS Lock, ...): GENERIC_ERROR (the
// "slave-generated error" of the architecture); TLM_IGNORE_COMMAND: OK; a command value that is
// none of the three: COMMAND_ERROR (IEEE 1666-2011 14.17: the target is unable to execute the
// command).
#include "pmtrace/systemc/pe_model.h"

#include "frame_names.h"
#include "pmtrace/systemc/log.h"

#include <cstdio>
#include <cstring>

namespace pmtrace
{

namespace
{

constexpr uint64_t frame_size = 0x1000;

tlm::tlm_response_status response_of(pmt_ext_status status)
{
    switch (status) {
    case PMT_EXT_OK: return tlm::TLM_OK_RESPONSE;
    case PMT_EXT_NO_REGISTER: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    case PMT_EXT_BAD_SIZE: return tlm::TLM_BURST_ERROR_RESPONSE;
    case PMT_EXT_ERROR: return tlm::TLM_GENERIC_ERROR_RESPONSE;
    }
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

// The checks that do not depend on the register (TLM-2.0 base protocol order: address, then
// burst, then byte enables).
tlm::tlm_response_status check(const tlm::tlm_generic_payload &trans)
{
    uint64_t address = trans.get_address();
    unsigned length = trans.get_data_length();
    if (address >= frame_size || length > frame_size - address)
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if ((length != 4 && length != 8) || trans.get_streaming_width() != length)
        return tlm::TLM_BURST_ERROR_RESPONSE;
    if (trans.get_byte_enable_ptr())
        return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    // is_read() and is_write() are false for any command but those two: a value outside the
    // three commands (found by tests/fuzz/fuzz_tlm) is no TLM_IGNORE_COMMAND.
    if (!trans.is_read() && !trans.is_write() && trans.get_command() != tlm::TLM_IGNORE_COMMAND)
        return tlm::TLM_COMMAND_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

// The data array holds the value in host byte order (TLM-2.0 convention).
uint64_t load(const unsigned char *data, unsigned length)
{
    if (length == 4) {
        uint32_t v;
        std::memcpy(&v, data, 4);
        return v;
    }
    uint64_t v;
    std::memcpy(&v, data, 8);
    return v;
}

void store(unsigned char *data, unsigned length, uint64_t value)
{
    if (length == 4) {
        uint32_t v = static_cast<uint32_t>(value);
        std::memcpy(data, &v, 4);
        return;
    }
    std::memcpy(data, &value, 8);
}

} // namespace

pmt_ext_status pe_model::frame_access(int id, bool write, uint32_t offset, unsigned size,
                                      const access_extension &access, uint64_t &value)
{
    pmt_ext_status status;
    if (id == PMU_FRAME)
        status = write ? pmt_pmu_ext_write(pe_, offset, size, access.security, access.memory_mapped,
                                           value)
                       : pmt_pmu_ext_read(pe_, offset, size, access.security, access.memory_mapped,
                                          &value);
    else if (id == DEBUG_FRAME)
        status = write ? pmt_debug_ext_write(pe_, offset, size, access.security,
                                             access.memory_mapped, value)
                       : pmt_debug_ext_read(pe_, offset, size, access.security,
                                            access.memory_mapped, &value);
    else // the Trace Buffer frame has no software lock: the interface does not matter
        status = write ? pmt_trbe_ext_write(pe_, offset, size, access.security, value)
                       : pmt_trbe_ext_read(pe_, offset, size, access.security, &value);
    rearm();
    if (!log_.enabled(config_.access_verbosity))
        return status;
    static const char *const frame_names[] = {"pmu_frame: ", "debug_frame: ", "trbe_frame: "};
    std::string line = frame_names[id];
    if (status == PMT_EXT_OK) {
        line += id == PMU_FRAME     ? describe_pmu_frame_access(pe_, offset, value, write)
                : id == DEBUG_FRAME ? describe_debug_frame_access(pe_, offset, value, write)
                                    : describe_trbe_frame_access(pe_, offset, value, write);
    } else {
        // Why the access got an error response, for the person debugging the driver.
        char buf[96];
        std::snprintf(buf, sizeof buf, "%u-byte %s at 0x%03x refused: %s", size,
                      write ? "write" : "read", static_cast<unsigned>(offset),
                      pmt_ext_status_name(status));
        line += buf;
    }
    log_.info(line, config_.access_verbosity);
    return status;
}

void pe_model::frame_b_transport(int id, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay)
{
    trans.set_dmi_allowed(false);
    tlm::tlm_response_status response = check(trans);
    if (response == tlm::TLM_OK_RESPONSE && !trans.is_read() && !trans.is_write()) {
        trans.set_response_status(tlm::TLM_OK_RESPONSE); // TLM_IGNORE_COMMAND
        return;
    }
    if (response != tlm::TLM_OK_RESPONSE) {
        trans.set_response_status(response);
        return;
    }
    advance(delay);
    uint32_t offset = static_cast<uint32_t>(trans.get_address());
    unsigned length = trans.get_data_length();
    bool write = trans.is_write();
    uint64_t value = write ? load(trans.get_data_ptr(), length) : 0;
    pmt_ext_status status = frame_access(id, write, offset, length, access_of(trans), value);
    if (status == PMT_EXT_OK && !write)
        store(trans.get_data_ptr(), length, value);
    trans.set_response_status(response_of(status));
    delay += config_.frame_latency;
}

unsigned pe_model::frame_transport_dbg(int id, tlm::tlm_generic_payload &trans)
{
    // Any length that is a multiple of 4 from a 4-byte aligned offset, register by register;
    // the transfer stops at the first register the core does not answer.
    uint64_t address = trans.get_address();
    unsigned length = trans.get_data_length();
    if (address >= frame_size || length > frame_size - address || address % 4 || length % 4 ||
        (!trans.is_read() && !trans.is_write()))
        return 0;
    advance();
    bool write = trans.is_write();
    access_extension access = access_of(trans);
    // A read must not change the state: save it, read, restore it.
    if (!write)
        pmt_pe_save(pe_, saved_.data(), saved_.size());
    unsigned done = 0;
    for (; done < length; done += 4) {
        uint64_t value = write ? load(trans.get_data_ptr() + done, 4) : 0;
        if (frame_access(id, write, static_cast<uint32_t>(address + done), 4, access, value) !=
            PMT_EXT_OK)
            break;
        if (!write)
            store(trans.get_data_ptr() + done, 4, value);
    }
    if (!write)
        pmt_pe_restore(pe_, saved_.data(), saved_.size());
    return done;
}

bool pe_model::frame_get_dmi(int, tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi)
{
    // Registers, not memory: no DMI for the whole frame (so the initiator does not ask again).
    dmi.allow_none();
    dmi.set_start_address(0);
    dmi.set_end_address(frame_size - 1);
    return false;
}

} // namespace pmtrace
