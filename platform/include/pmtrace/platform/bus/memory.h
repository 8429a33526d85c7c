// memory.h - RAM with DMI, read and write latency, transport_dbg, and a fault table.
//
// Addresses are offsets from 0 (the router translates). b_transport adds the read or write
// latency to the delay; DMI is granted read-write with the same latencies over the largest
// fault-free range around the requested address. A fault is an address range that answers a
// chosen TLM response status (to reads, writes or both) instead of the access; DMI is refused
// there, and adding a fault invalidates DMI pointers over its range. Faults can be added and
// removed at any time, also while the simulation runs. transport_dbg sees the contents and
// ignores faults. Accesses outside the memory are ADDRESS_ERROR with one warning.
#ifndef PMTRACE_PLATFORM_MEMORY_H
#define PMTRACE_PLATFORM_MEMORY_H

#include <pmtrace/systemc/log.h>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace pmtrace::platform
{

struct memory_config {
    uint64_t size = 0x800'0000; // bytes
    sc_core::sc_time read_latency = sc_core::SC_ZERO_TIME;
    sc_core::sc_time write_latency = sc_core::SC_ZERO_TIME;
    bool dmi = true; // grant DMI where no fault is
};

// Which accesses a fault answers.
enum class fault_access { read, write, both };

class memory : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<memory> socket;

    struct fault {
        unsigned id;
        uint64_t base;
        uint64_t size;
        tlm::tlm_response_status status;
        fault_access on;
    };

    memory(const sc_core::sc_module_name &name, const memory_config &config);

    // Adds a fault range; returns its id (> 0), or 0 with one warning when the range is empty,
    // outside the memory, or status is OK or INCOMPLETE.
    unsigned add_fault(uint64_t base, uint64_t size, tlm::tlm_response_status status,
                       fault_access on = fault_access::both);
    // Removes a fault; false when no fault has that id.
    bool remove_fault(unsigned id);
    void clear_faults();
    const std::vector<fault> &faults() const { return faults_; }

    uint64_t size() const { return config_.size; }
    uint8_t *data() { return data_.get(); }
    const uint8_t *data() const { return data_.get(); }

    // Statistics: b_transport accesses served and answered with a fault.
    uint64_t reads() const { return reads_; }
    uint64_t writes() const { return writes_; }
    uint64_t faults_answered() const { return faults_answered_; }

    // This component's log: its verbosity, its warnings and their repeats (log.h).
    module_log &log() { return log_; }

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    module_log log_;
    struct free_deleter {
        void operator()(uint8_t *p) const { std::free(p); }
    };

    void b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tx);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &tx, tlm::tlm_dmi &dmi);
    bool in_range(uint64_t address, uint64_t length) const;
    const fault *find_fault(uint64_t address, uint64_t length, bool write) const;
    void copy(tlm::tlm_generic_payload &tx);
    void invalidate(uint64_t start, uint64_t end);

    memory_config config_;
    std::unique_ptr<uint8_t, free_deleter> data_;
    std::vector<fault> faults_;
    unsigned next_id_ = 1;
    uint64_t reads_ = 0, writes_ = 0, faults_answered_ = 0;
};

} // namespace pmtrace::platform

#endif
