// memory.cpp - RAM, DMI and the fault table.
#include "pmtrace/platform/bus/memory.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

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

bool answers(const memory::fault &f, bool write)
{
    return f.on == fault_access::both || (f.on == fault_access::write) == write;
}

} // namespace

memory::memory(const sc_core::sc_module_name &name, const memory_config &config)
    : sc_module(name), socket("socket"), config_(config),
      data_(static_cast<uint8_t *>(std::calloc(config.size ? config.size : 1, 1)))
{
    log_.set_name(this->name());
    if (!data_) {
        SC_REPORT_ERROR(this->name(), ("cannot allocate " + hex(config.size) + " bytes").c_str());
        config_.size = 0;
    }
    socket.register_b_transport(this, &memory::b_transport);
    socket.register_transport_dbg(this, &memory::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &memory::get_direct_mem_ptr);
}

bool memory::in_range(uint64_t address, uint64_t length) const
{
    return length != 0 && address < config_.size && length <= config_.size - address;
}

const memory::fault *memory::find_fault(uint64_t address, uint64_t length, bool write) const
{
    for (const fault &f : faults_)
        if (answers(f, write) && address <= f.base + (f.size - 1) &&
            f.base <= address + (length - 1))
            return &f;
    return nullptr;
}

unsigned memory::add_fault(uint64_t base, uint64_t size, tlm::tlm_response_status status,
                           fault_access on)
{
    if (!in_range(base, size) || status == tlm::TLM_OK_RESPONSE ||
        status == tlm::TLM_INCOMPLETE_RESPONSE) {
        SC_REPORT_WARNING(name(), ("fault at " + hex(base) + " size " + hex(size) +
                                   " refused: outside the memory, empty, or not an error status")
                                      .c_str());
        return 0;
    }
    faults_.push_back({next_id_, base, size, status, on});
    // DMI pointers over the range are no longer valid: an initiator must see the error.
    invalidate(base, base + (size - 1));
    return next_id_++;
}

bool memory::remove_fault(unsigned id)
{
    auto it =
        std::find_if(faults_.begin(), faults_.end(), [id](const fault &f) { return f.id == id; });
    if (it == faults_.end())
        return false;
    const uint64_t base = it->base, end = it->base + (it->size - 1);
    faults_.erase(it);
    // Initiators that were refused DMI here may ask again.
    invalidate(base, end);
    return true;
}

void memory::invalidate(uint64_t start, uint64_t end)
{
    // Before the end of elaboration nobody can hold a pointer (and the socket is not bound).
    if (sc_core::sc_get_status() >= sc_core::SC_END_OF_ELABORATION)
        socket->invalidate_direct_mem_ptr(start, end);
}

void memory::clear_faults()
{
    while (!faults_.empty())
        remove_fault(faults_.front().id);
}

void memory::copy(tlm::tlm_generic_payload &tx)
{
    uint8_t *mem = data_.get() + tx.get_address();
    uint8_t *data = tx.get_data_ptr();
    const unsigned length = tx.get_data_length();
    const unsigned width = tx.get_streaming_width() ? tx.get_streaming_width() : length;
    const unsigned char *be = tx.get_byte_enable_ptr();
    const unsigned be_length = tx.get_byte_enable_length();
    if (!be && width >= length) {
        if (tx.is_read())
            std::memcpy(data, mem, length);
        else
            std::memcpy(mem, data, length);
        return;
    }
    for (unsigned i = 0; i < length; i++) {
        if (be && be_length && be[i % be_length] != TLM_BYTE_ENABLED)
            continue;
        if (tx.is_read())
            data[i] = mem[i % width];
        else
            mem[i % width] = data[i];
    }
}

void memory::b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    const uint64_t address = tx.get_address();
    const unsigned length = tx.get_data_length();
    const unsigned width = tx.get_streaming_width() && tx.get_streaming_width() < length
                               ? tx.get_streaming_width()
                               : length;
    if (tx.get_command() == tlm::TLM_IGNORE_COMMAND) {
        tx.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (!in_range(address, width)) {
        tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        log_.warning("access outside the memory", "access outside the memory at " + hex(address) +
                                                      " (" + std::to_string(length) + " bytes)");
        return;
    }
    const bool write = tx.is_write();
    delay += write ? config_.write_latency : config_.read_latency;
    if (const fault *f = find_fault(address, width, write)) {
        faults_answered_++;
        tx.set_response_status(f->status);
        tx.set_dmi_allowed(false);
        if (log_.enabled(sc_core::SC_MEDIUM))
            log_.info(std::string(write ? "write" : "read") + " at " + hex(address) + " answered " +
                          tx.get_response_string() + " by fault " + std::to_string(f->id),
                      sc_core::SC_MEDIUM);
        return;
    }
    copy(tx);
    (write ? writes_ : reads_)++;
    tx.set_dmi_allowed(config_.dmi && !find_fault(address, width, !write));
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned memory::transport_dbg(tlm::tlm_generic_payload &tx)
{
    const uint64_t address = tx.get_address();
    if (address >= config_.size || tx.get_command() == tlm::TLM_IGNORE_COMMAND)
        return 0;
    const uint64_t n = std::min<uint64_t>(tx.get_data_length(), config_.size - address);
    if (tx.is_read())
        std::memcpy(tx.get_data_ptr(), data_.get() + address, n);
    else
        std::memcpy(data_.get() + address, tx.get_data_ptr(), n);
    return static_cast<unsigned>(n);
}

bool memory::get_direct_mem_ptr(tlm::tlm_generic_payload &tx, tlm::tlm_dmi &dmi)
{
    const uint64_t address = tx.get_address();
    dmi.set_read_latency(config_.read_latency);
    dmi.set_write_latency(config_.write_latency);
    if (!config_.dmi || address >= config_.size) { // refused: everywhere, or past the end
        dmi.set_start_address(config_.dmi ? config_.size : 0);
        dmi.set_end_address(~uint64_t{0});
        dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
        return false;
    }
    // Inside a fault: refused over that fault's range.
    for (const fault &f : faults_)
        if (address >= f.base && address <= f.base + (f.size - 1)) {
            dmi.set_start_address(f.base);
            dmi.set_end_address(f.base + (f.size - 1));
            dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
            return false;
        }
    // Otherwise granted over the fault-free range around the address.
    uint64_t start = 0, end = config_.size - 1;
    for (const fault &f : faults_) {
        if (f.base + (f.size - 1) < address)
            start = std::max(start, f.base + f.size);
        else if (f.base > address)
            end = std::min(end, f.base - 1);
    }
    dmi.set_dmi_ptr(data_.get() + start);
    dmi.set_start_address(start);
    dmi.set_end_address(end);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
    return true;
}

} // namespace pmtrace::platform
