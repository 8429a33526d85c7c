// router.h - the bus: decodes addresses to target sockets through an address map.
//
// Initiators bind to `target`; targets bind to `initiator`, and the n-th target bound is
// port n. map(n, base, size, local_base) sends [base, base + size) to port n, which sees
// `base` as `local_base` (0 by default: a device sees offsets in its frame). An address outside
// every mapping, or an access that runs past the end of its mapping, is answered
// TLM_ADDRESS_ERROR_RESPONSE with a warning: the first is reported, the rest counted and
// reported once at the end of simulation (log()). transport_dbg is routed the same way (0 bytes at
// a hole). DMI requests pass through: the range a target grants or refuses is trimmed to the
// mapping and translated back to bus addresses, and a target's invalidate_direct_mem_ptr
// reaches every initiator, translated likewise for each mapping of that target.
#ifndef PMTRACE_PLATFORM_ROUTER_H
#define PMTRACE_PLATFORM_ROUTER_H

#include <pmtrace/systemc/log.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

namespace pmtrace::platform
{

class router : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<router> target;       // initiators bind here
    tlm_utils::multi_passthrough_initiator_socket<router> initiator; // targets bind here

    struct mapping {
        unsigned port;
        uint64_t base;
        uint64_t size;
        uint64_t local_base;
    };

    // latency: added to the delay of every b_transport that reaches a target.
    explicit router(const sc_core::sc_module_name &name,
                    const sc_core::sc_time &latency = sc_core::SC_ZERO_TIME);

    // Adds a mapping. Refused (false, one warning) when size is 0, the range wraps, or it
    // overlaps an existing mapping.
    bool map(unsigned port, uint64_t base, uint64_t size, uint64_t local_base = 0);
    // The mapping holding address, or nullptr.
    const mapping *decode(uint64_t address) const;
    const std::vector<mapping> &mappings() const { return map_; }
    // This router's log (its verbosity, its warnings and their repeats).
    module_log &log() { return log_; }

  private:
    void end_of_simulation() override { log_.report_repeats(); }
    void b_transport(int id, tlm::tlm_generic_payload &tx, sc_core::sc_time &delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload &tx);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload &tx, tlm::tlm_dmi &dmi);
    void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
    // The bus addresses around `address` that no mapping holds: [start, end].
    void hole_around(uint64_t address, uint64_t &start, uint64_t &end) const;
    // The mapping that holds the whole access, or nullptr.
    const mapping *decode_access(const tlm::tlm_generic_payload &tx) const;

    sc_core::sc_time latency_;
    std::vector<mapping> map_;
    module_log log_;
};

} // namespace pmtrace::platform

#endif
