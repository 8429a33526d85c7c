// access_extension.h - who makes an access to a register frame.
//
// An initiator attaches an access_extension to a transaction to say its Security state (the
// PMU frame's checks depend on it: MDCR_EL3.EPMAD, the third counter range, ...) and whether
// it comes through the memory-mapped interface (where the software lock applies) or through an
// external debug interface. A transaction without one is a memory-mapped Non-secure access.
#ifndef PMTRACE_SYSTEMC_ACCESS_EXTENSION_H
#define PMTRACE_SYSTEMC_ACCESS_EXTENSION_H

#include <pmtrace/pmt_types.h>

#include <tlm>

namespace pmtrace
{

class access_extension : public tlm::tlm_extension<access_extension>
{
  public:
    explicit access_extension(pmt_security security_state = PMT_SS_NONSECURE,
                              bool through_memory = true)
        : security(security_state), memory_mapped(through_memory)
    {
    }

    tlm::tlm_extension_base *clone() const override { return new access_extension(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override
    {
        *this = static_cast<const access_extension &>(other);
    }

    pmt_security security;
    bool memory_mapped;
};

// The Security state and interface of a transaction (Non-secure, memory-mapped without an
// extension).
inline access_extension access_of(const tlm::tlm_generic_payload &trans)
{
    const access_extension *ext = trans.get_extension<access_extension>();
    return ext ? *ext : access_extension();
}

} // namespace pmtrace

#endif
