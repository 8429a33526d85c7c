// pe_model_fixture.h - stand-ins for the platform around a pe_model: probes that record what the
// output ports deliver (and when), a frame initiator, and register helpers.
#ifndef PMTRACE_TESTS_PE_MODEL_FIXTURE_H
#define PMTRACE_TESTS_PE_MODEL_FIXTURE_H

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <pmtrace/systemc/pe_model.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace pmtrace_test
{

using sc_core::SC_NS;
using sc_core::sc_time;

inline sc_time ns(double n)
{
    return sc_time(n, SC_NS);
}

// A GIC line (or a CPU's halt request input): records each level with the simulated time of
// the call (at) and the offset it was given (the level changes at at + offset).
struct level_probe : pmtrace::level_if {
    struct change {
        sc_time at;
        bool level;
        sc_time offset;
    };
    std::vector<change> changes;
    void set_level(bool level, const sc_time &offset) override
    {
        changes.push_back({sc_core::sc_time_stamp(), level, offset});
    }
};

// A BRBE: records the time of each freeze event's call, and its offset.
struct event_probe : pmtrace::event_if {
    std::vector<sc_time> events;
    std::vector<sc_time> offsets;
    void notify_event(const sc_time &offset) override
    {
        events.push_back(sc_core::sc_time_stamp());
        offsets.push_back(offset);
    }
};

// A CTI: records each input trigger event (the time of the call, and its offset).
struct cti_probe : pmtrace::cti_trigger_if {
    struct trigger {
        sc_time at;
        unsigned number;
        sc_time offset;
    };
    std::vector<trigger> triggers;
    void trigger_event(unsigned number, const sc_time &offset) override
    {
        triggers.push_back({sc_core::sc_time_stamp(), number, offset});
    }
};

// A CPU's PMU exception input.
struct exception_probe : pmtrace::exception_request_if {
    struct request {
        sc_time at;
        bool pending;
        unsigned target_el;
    };
    std::vector<request> requests;
    void set_exception_request(bool pending, unsigned target_el) override
    {
        requests.push_back({sc_core::sc_time_stamp(), pending, target_el});
    }
};

// What a waveform view did: (time, value) at each change of its signal.
template <class T> struct view_watcher : sc_core::sc_module {
    const sc_core::sc_signal_in_if<T> &signal;
    std::vector<std::pair<sc_time, T>> changes;
    view_watcher(const sc_core::sc_module_name &name, const sc_core::sc_signal_in_if<T> &s)
        : sc_module(name), signal(s)
    {
        SC_HAS_PROCESS(view_watcher);
        SC_METHOD(seen);
        sensitive << signal.value_changed_event();
        dont_initialize();
    }
    void seen() { changes.emplace_back(sc_core::sc_time_stamp(), signal.read()); }
};
using view_changes = std::vector<std::pair<sc_time, bool>>;

// A trace unit receiving PMU_OVFS / PMU_HOVFS.
struct generated_probe : pmtrace::generated_event_if {
    struct event {
        uint16_t number;
        uint64_t count;
    };
    std::vector<event> events;
    void generated_event(uint16_t number, uint64_t count) override
    {
        events.push_back({number, count});
    }
};

// A bus master reaching a frame socket.
struct frame_initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<frame_initiator> socket;
    explicit frame_initiator(const sc_core::sc_module_name &name)
        : sc_module(name), socket("socket")
    {
    }

    // One access with the given transaction fields; returns the response.
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, unsigned length,
                                    uint64_t &data, sc_time &delay,
                                    pmtrace::access_extension *ext = nullptr,
                                    unsigned streaming_width = 0,
                                    unsigned char *byte_enables = nullptr)
    {
        tlm::tlm_generic_payload trans;
        unsigned char buf[8] = {};
        std::memcpy(buf, &data, sizeof buf);
        trans.set_command(cmd);
        trans.set_address(address);
        trans.set_data_ptr(buf);
        trans.set_data_length(length);
        trans.set_streaming_width(streaming_width ? streaming_width : length);
        trans.set_byte_enable_ptr(byte_enables);
        trans.set_byte_enable_length(byte_enables ? length : 0);
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (ext)
            trans.set_extension(ext);
        socket->b_transport(trans, delay);
        if (ext)
            trans.clear_extension(ext);
        data = 0;
        std::memcpy(&data, buf, length <= 8 ? length : 8);
        return trans.get_response_status();
    }

    tlm::tlm_response_status read(uint64_t address, unsigned length, uint64_t &value,
                                  pmtrace::access_extension *ext = nullptr)
    {
        sc_time delay = sc_core::SC_ZERO_TIME;
        value = 0;
        return access(tlm::TLM_READ_COMMAND, address, length, value, delay, ext);
    }

    tlm::tlm_response_status write(uint64_t address, unsigned length, uint64_t value,
                                   pmtrace::access_extension *ext = nullptr)
    {
        sc_time delay = sc_core::SC_ZERO_TIME;
        return access(tlm::TLM_WRITE_COMMAND, address, length, value, delay, ext);
    }

    // transport_dbg read of `length` bytes; returns the bytes transferred.
    unsigned debug_read(uint64_t address, unsigned char *data, unsigned length)
    {
        tlm::tlm_generic_payload trans;
        trans.set_command(tlm::TLM_READ_COMMAND);
        trans.set_address(address);
        trans.set_data_ptr(data);
        trans.set_data_length(length);
        trans.set_streaming_width(length);
        return socket->transport_dbg(trans);
    }
};

inline pmt_sysreg enc(pmt_reg_id id, unsigned n = 0)
{
    return pmt_sysreg_encode(pmt_reg_ref{id, n});
}

// The PE at Non-secure EL1 with EL2 enabled (where a kernel runs).
inline pmt_pe_state el1_ns()
{
    pmt_pe_state s{};
    s.el = 1;
    s.ss = PMT_SS_NONSECURE;
    s.el2_enabled = true;
    s.scr_ns = true; // EL2Enabled() at EL3 too (the model checks el2_enabled against it)
    return s;
}

inline pmt_pe_state at_el(unsigned el, pmt_security ss = PMT_SS_NONSECURE)
{
    pmt_pe_state s = el1_ns();
    s.el = static_cast<uint8_t>(el);
    s.ss = ss;
    return s;
}

// MSR through the CPU export; expects the access to be performed.
inline void wr(pmtrace::pe_model &pe, pmt_reg_id id, unsigned n, uint64_t value,
               const sc_time &offset = sc_core::SC_ZERO_TIME)
{
    EXPECT_EQ(pe.sysreg->write_sysreg(enc(id, n), value, offset), PMT_ACCESS_OK)
        << pmt_reg_name(id) << " " << n;
}

// MRS through the CPU export.
inline uint64_t rd(pmtrace::pe_model &pe, pmt_reg_id id, unsigned n = 0,
                   const sc_time &offset = sc_core::SC_ZERO_TIME)
{
    uint64_t v = 0;
    EXPECT_EQ(pe.sysreg->read_sysreg(enc(id, n), v, offset), PMT_ACCESS_OK)
        << pmt_reg_name(id) << " " << n;
    return v;
}

// From EL3 (the reset state): MDCR_EL3 as given, then the PE to Non-secure EL1.
inline void enter_el1(pmtrace::pe_model &pe, uint64_t mdcr_el3 = 0)
{
    pe.state->set_pe_state(at_el(3, PMT_SS_SECURE));
    if (mdcr_el3)
        wr(pe, PMT_REG_MDCR_EL3, 0, mdcr_el3);
    pe.state->set_pe_state(el1_ns());
}

// The cycle counter counting at EL1, from `preset`, with its overflow interrupt enabled;
// PMCR_EL0.LC = 1 (overflow at bit 63) unless `lc` is false.
inline void arm_cycle_counter(pmtrace::pe_model &pe, uint64_t preset, bool lc = true)
{
    wr(pe, PMT_REG_PMCCNTR_EL0, 0, preset);
    wr(pe, PMT_REG_PMINTENSET_EL1, 0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
    wr(pe, PMT_REG_PMCNTENSET_EL0, 0, uint64_t(1) << PMT_CYCLE_COUNTER_ID);
    wr(pe, PMT_REG_PMCR_EL0, 0, PMT_MASK(PMCR, E) | (lc ? PMT_MASK(PMCR, LC) : 0));
}

} // namespace pmtrace_test

#endif
