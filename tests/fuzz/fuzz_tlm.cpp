// fuzz_tlm.cpp - harness (6): TLM-2.0 transactions of every command, address, data length, byte
// enable and streaming width into pmtrace::pe_model's frame sockets (the external PMU frame, the
// debug frame, the Trace Buffer frame), between MSRs and PE state changes that move the frames'
// locks and enables (MDCR_EL3.EPMAD/ETBAD, the OS Lock, the software lock ...).
//
// Two pe_models are elaborated once per process (SystemC cannot elaborate again): one with the
// EXT32 frame layout and the PC sample registers in the debug frame, one with EXT64 and them in
// the PMU frame; both have FEAT_TRBE_EXT. Their optional ports and the trace bus stay unbound.
// Every input starts from the state saved after elaboration, so inputs do not depend on each
// other. b_transport's delay is always zero: the PE's clock never moves, so the cycle counter
// does not carry from one input to the next either.
//
// An input is a program of operations, each a kind byte and its operands (fuzz::Input: zeros past
// the end); make_seeds.py writes the seeds and documents the encoding.
//
// Invariants (a violation aborts with "fuzz invariant violated: ..."):
//   - b_transport sets a response status other than TLM_INCOMPLETE_RESPONSE, and not
//     TLM_OK_RESPONSE to a command value that is none of read, write and ignore;
//   - a read answered with an error leaves the data buffer untouched, an OK read writes only its
//     data length; no access writes the byte enables, and a write never writes its data buffer;
//   - a transaction answered with an error, and any command that is neither a read nor a write,
//     leaves the core's state (pmt_pe_save) unchanged;
//   - transport_dbg returns at most the data length, writes nothing of a read's buffer past that
//     count, and a debug read has no side effect: the core's saved state is the same after it
//     and no output port is driven (the first model's ports are bound to a probe); the core
//     takes back its own saved state, which a debug read relies on;
//   - get_direct_mem_ptr grants nothing (the frames are registers);
//   - nothing SystemC reports as an error (an exception) and, under ASan and UBSan, no memory
//     error and no undefined behaviour.
#include "fuzz_program.h"

#include <pmtrace/systemc/pe_model.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

// libFuzzer provides main(). libsystemc.so has a main() too, which calls sc_main: the executable's
// main wins (a shared library's definition does not clash with it), but the linker still wants
// every symbol libsystemc.so uses defined, so here is an sc_main that is never called. The
// harness elaborates itself in LLVMFuzzerInitialize and runs the kernel with sc_start.
int sc_main(int, char **)
{
    return 1;
}

namespace
{

[[noreturn]] void violated(const char *what, uint64_t a = 0, uint64_t b = 0)
{
    std::fprintf(stderr, "fuzz invariant violated: %s (0x%llx, 0x%llx)\n", what,
                 static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    std::abort();
}

constexpr unsigned canary = 0xA5;
constexpr size_t tail = 16;             // canary bytes past the data length
constexpr unsigned max_length = 0x2100; // beyond the 4 KB frame and some

// One bus master per frame socket of one pe_model.
struct master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<master> sockets[3];
    explicit master(const sc_core::sc_module_name &name) : sc_module(name) {}
};

// The platform behind every output port of the first model: counts what the ports deliver (a
// debug read must deliver nothing).
struct output_probe : pmtrace::level_if,
                      pmtrace::event_if,
                      pmtrace::cti_trigger_if,
                      pmtrace::exception_request_if,
                      pmtrace::generated_event_if {
    uint64_t calls = 0;
    void set_level(bool, const sc_core::sc_time &) override { calls++; }
    void notify_event(const sc_core::sc_time &) override { calls++; }
    void trigger_event(unsigned, const sc_core::sc_time &) override { calls++; }
    void set_exception_request(bool, unsigned) override { calls++; }
    void generated_event(uint16_t, uint64_t) override { calls++; }
};

struct platform {
    std::unique_ptr<pmtrace::pe_model> pe;
    std::unique_ptr<master> bus;
    std::unique_ptr<output_probe> outputs; // the first model's; the second's ports stay unbound
    std::vector<unsigned char> initial;    // the state after elaboration
    uint64_t output_calls() const { return outputs ? outputs->calls : 0; }
};

// How often the interesting outcomes happened, printed at exit when FUZZ_STATS is set (to see
// that a corpus reaches past the frames' checks).
struct stats {
    uint64_t transports, transports_ok[3], debug, debug_bytes[3], sysreg_writes_ok;
    ~stats()
    {
        if (std::getenv("FUZZ_STATS"))
            std::fprintf(stderr,
                         "fuzz stats: %llu b_transport, OK by frame (PMU, debug, TRBE) %llu %llu "
                         "%llu; %llu transport_dbg, bytes by frame %llu %llu %llu; %llu MSRs "
                         "performed\n",
                         (unsigned long long)transports, (unsigned long long)transports_ok[0],
                         (unsigned long long)transports_ok[1], (unsigned long long)transports_ok[2],
                         (unsigned long long)debug, (unsigned long long)debug_bytes[0],
                         (unsigned long long)debug_bytes[1], (unsigned long long)debug_bytes[2],
                         (unsigned long long)sysreg_writes_ok);
    }
} counts;

void bind_outputs(pmtrace::pe_model &pe, output_probe &probe)
{
    pe.pmuirq.bind(probe);
    pe.pmu_exception.bind(probe);
    pe.cti_pmu_overflow.bind(probe);
    pe.brbe_freeze.bind(probe);
    pe.brbe_capture_freeze.bind(probe);
    pe.halt_request.bind(probe);
    pe.generated.bind(probe);
    pe.trbirq.bind(probe);
    pe.trbe_exception.bind(probe);
    pe.serror.bind(probe);
    pe.cti_trbe_stopped.bind(probe);
    pe.cti_trbe_management.bind(probe);
    pe.cti_trbe_wrap.bind(probe);
}

platform platforms[2];

pmtrace::pe_model_config config_of(int n)
{
    pmtrace::pe_model_config c;
    c.core.trbe.feat_trbe = c.core.trbe.feat_trbe_ext = true;
    c.core_log_severity = sc_core::SC_INFO; // UNPREDICTABLE programming is the fuzzer's job
    if (n == 0) {
        c.core.pcsr = PMT_PCSR_DEBUG_FRAME;
        c.core.debug_software_lock = c.core.ext_software_lock = true;
        c.access_verbosity = sc_core::SC_LOW; // the access log's lines are made (not printed)
    } else {
        c.core.pmu_version = PMT_PMUV3P9;
        c.core.num_counters = 31;
        c.core.feat_icntr = c.core.feat_ebep = c.core.feat_hpmn0 = c.core.feat_extpmn = true;
        c.core.pcsr = PMT_PCSR_PMU_FRAME;
        c.core.feat_pcsrv8p9 = true;
        c.core.ext_layout = PMT_EXT64;
        c.access_verbosity = sc_core::SC_DEBUG; // not logged
    }
    return c;
}

void elaborate()
{
    using sc_core::sc_report_handler;
    // Reports are built (the access log's formatting is code under test) but not printed;
    // SC_ERROR keeps its default action (an exception, which aborts the harness).
    sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    for (int n = 0; n < 2; n++) {
        platform &p = platforms[n];
        std::string name = "pe" + std::to_string(n);
        pmtrace::pe_model_config cfg = config_of(n);
        p.pe = std::make_unique<pmtrace::pe_model>(name.c_str(), cfg);
        if (p.pe->config().core.pcsr != cfg.core.pcsr)
            violated("pe_model refused the harness's config", n);
        p.bus = std::make_unique<master>(("bus" + name).c_str());
        p.bus->sockets[0].bind(p.pe->pmu_frame);
        p.bus->sockets[1].bind(p.pe->debug_frame);
        p.bus->sockets[2].bind(p.pe->trbe_frame);
        if (n == 0) {
            p.outputs = std::make_unique<output_probe>();
            bind_outputs(*p.pe, *p.outputs);
        }
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME); // end of elaboration, start of simulation
    for (platform &p : platforms) {
        p.initial.resize(pmt_pe_state_size(p.pe->core()));
        pmt_pe_save(p.pe->core(), p.initial.data(), p.initial.size());
    }
}

std::vector<unsigned char> saved(pmtrace::pe_model &pe)
{
    std::vector<unsigned char> blob(pmt_pe_state_size(pe.core()));
    if (pmt_pe_save(pe.core(), blob.data(), blob.size()) != PMT_OK)
        violated("pmt_pe_save failed");
    return blob;
}

// ------------------------------------------------------------------------------------------------
// A transaction from the input

struct transaction {
    tlm::tlm_generic_payload trans;
    std::vector<unsigned char> data, sent; // sent: the data buffer as the initiator filled it
    std::vector<unsigned char> byte_enables, byte_enables_sent;
    pmtrace::access_extension ext;
    bool has_ext = false;
    ~transaction()
    {
        if (has_ext)
            trans.clear_extension(&ext);
    }
};

uint64_t any_address(fuzz::Input &in)
{
    switch (in.u8() & 3) {
    case 0: return in.u16() & 0xFFC;          // a register of the frame
    case 1: return in.u16() & 0x1FFF;         // anywhere in or just past it
    case 2: return 0x1000 - (in.u8() & 0x1F); // straddling its end
    default: return in.value();               // any
    }
}

unsigned any_length(fuzz::Input &in)
{
    uint8_t b = in.u8();
    switch (b >> 6) {
    case 0: return 4u << (b & 1);  // 4 or 8
    case 1: return b & 0x1F;       // 0..31
    case 2: return (b & 0x3F) * 4; // whole registers, for transport_dbg
    default: return in.u16() % (max_length + 1);
    }
}

unsigned any_streaming_width(fuzz::Input &in, unsigned length)
{
    switch (in.u8() & 7) {
    case 0: return 0;
    case 1: return length ? in.u8() % length : 0; // smaller than the length
    case 2: return length + 1 + (in.u8() & 7);    // larger
    case 3: return in.u32();
    default: return length; // equal (the usual)
    }
}

void fill_byte_enables(fuzz::Input &in, transaction &t, unsigned length)
{
    uint8_t b = in.u8();
    if ((b & 3) == 0)
        return; // mostly none
    size_t n = b & 2 ? length : in.u8() % 24;
    t.byte_enables.resize(n);
    uint8_t pattern = in.u8();
    for (size_t i = 0; i < n; i++)
        t.byte_enables[i] = pattern & 1 ? (i >> (pattern >> 1 & 3) & 1 ? 0xFF : 0x00)
                                        : static_cast<unsigned char>(in.u8());
    t.byte_enables_sent = t.byte_enables;
    // Sometimes a byte enable length that is not the array's (it must not be read past n).
    unsigned be_length = b & 4 ? static_cast<unsigned>(n) : in.u8() % (n + 1);
    t.trans.set_byte_enable_ptr(t.byte_enables.empty() ? nullptr : t.byte_enables.data());
    t.trans.set_byte_enable_length(t.byte_enables.empty() ? 0 : be_length);
}

// Fills t from the input: command (read, write, ignore or the one value the enum also holds),
// address, length, data, streaming width, byte enables and an access_extension.
void make(fuzz::Input &in, transaction &t)
{
    t.trans.set_command(static_cast<tlm::tlm_command>(in.u8() & 3));
    t.trans.set_address(any_address(in));
    unsigned length = any_length(in);
    t.data.assign(length + tail, canary);
    if (t.trans.is_write())
        for (unsigned i = 0; i < length; i++)
            t.data[i] = in.u8();
    t.sent = t.data;
    t.trans.set_data_ptr(t.data.data());
    t.trans.set_data_length(length);
    t.trans.set_streaming_width(any_streaming_width(in, length));
    fill_byte_enables(in, t, length);
    uint8_t e = in.u8();
    if (e & 1) {
        t.ext = pmtrace::access_extension(static_cast<pmt_security>(e >> 1 & 3), (e & 8) == 0);
        t.trans.set_extension(&t.ext);
        t.has_ext = true;
    }
    t.trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// The buffers an access may have written: a read's data up to `written` bytes, nothing else.
void check_buffers(const transaction &t, unsigned written)
{
    if (t.byte_enables != t.byte_enables_sent)
        violated("the target wrote the byte enables");
    size_t from = t.trans.is_read() ? written : 0;
    for (size_t i = from; i < t.data.size(); i++)
        if (t.data[i] != t.sent[i])
            violated("the target wrote data it did not report", i, written);
}

// ------------------------------------------------------------------------------------------------
// Operations

void op_b_transport(platform &p, unsigned socket, fuzz::Input &in)
{
    transaction t;
    make(in, t);
    std::vector<unsigned char> before = saved(*p.pe);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    p.bus->sockets[socket]->b_transport(t.trans, delay);
    tlm::tlm_response_status r = t.trans.get_response_status();
    if (r == tlm::TLM_INCOMPLETE_RESPONSE)
        violated("b_transport left TLM_INCOMPLETE_RESPONSE", socket, t.trans.get_address());
    bool ok = r == tlm::TLM_OK_RESPONSE;
    bool known =
        t.trans.is_read() || t.trans.is_write() || t.trans.get_command() == tlm::TLM_IGNORE_COMMAND;
    if (ok && !known)
        violated("b_transport answered OK to a command that is not one", socket,
                 t.trans.get_command());
    counts.transports++;
    counts.transports_ok[socket] += ok;
    check_buffers(t, ok ? t.trans.get_data_length() : 0);
    bool accessed = ok && (t.trans.is_read() || t.trans.is_write());
    if (!accessed && saved(*p.pe) != before)
        violated("a refused or ignored b_transport changed the core's state", socket,
                 t.trans.get_address());
}

void op_transport_dbg(platform &p, unsigned socket, fuzz::Input &in)
{
    transaction t;
    make(in, t);
    std::vector<unsigned char> before = saved(*p.pe);
    // A debug read restores the state it saved (pe_model_frames.cpp): the core must take back
    // every state it can be in.
    if (pmt_pe_restore(p.pe->core(), before.data(), before.size()) != PMT_OK)
        violated("pmt_pe_restore refused the core's own saved state", socket);
    uint64_t calls = p.output_calls();
    unsigned n = p.bus->sockets[socket]->transport_dbg(t.trans);
    if (n > t.trans.get_data_length())
        violated("transport_dbg reported more bytes than the data length", n,
                 t.trans.get_data_length());
    counts.debug++;
    counts.debug_bytes[socket] += n;
    check_buffers(t, n);
    if (t.trans.is_write())
        return;
    if (saved(*p.pe) != before)
        violated("transport_dbg without a write changed the core's state", socket,
                 t.trans.get_address());
    if (p.output_calls() != calls)
        violated("transport_dbg without a write drove an output port", socket,
                 t.trans.get_address());
}

void op_get_dmi(platform &p, unsigned socket, fuzz::Input &in)
{
    transaction t;
    make(in, t);
    tlm::tlm_dmi dmi;
    if (p.bus->sockets[socket]->get_direct_mem_ptr(t.trans, dmi) ||
        dmi.get_granted_access() != tlm::tlm_dmi::DMI_ACCESS_NONE)
        violated("a frame granted DMI", socket, t.trans.get_address());
    check_buffers(t, 0);
}

// The registers that lock, unlock and enable the frames, and any of the model's.
pmt_sysreg frame_register(fuzz::Input &in)
{
    static const pmt_reg_id ids[] = {
        PMT_REG_MDCR_EL3,       PMT_REG_MDCR_EL2,     PMT_REG_PMCR_EL0,      PMT_REG_PMCNTENSET_EL0,
        PMT_REG_PMINTENSET_EL1, PMT_REG_PMOVSSET_EL0, PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBBASER_EL1,
        PMT_REG_TRBPTR_EL1,     PMT_REG_TRBSR_EL1,    PMT_REG_TRFCR_EL1};
    uint8_t b = in.u8();
    pmt_reg_ref r;
    r.id = b & 0x80 ? static_cast<pmt_reg_id>(1 + in.u8() % (PMT_REG_COUNT_ - 1))
                    : ids[b % (sizeof ids / sizeof ids[0])];
    r.index = b & 0x40 ? in.u8() % 34 : 0;
    return pmt_sysreg_encode(r);
}

// The PE at EL3 (Secure), or Non-secure EL2, EL1 or EL0, with the debug lock and power bits
// from the input (pmt_pe_set_state may refuse a combination; that is fine).
pmt_pe_state any_state(fuzz::Input &in)
{
    uint8_t b = in.u8();
    pmt_pe_state s{};
    s.el = b & 3;
    s.ss = s.el == 3 ? PMT_SS_SECURE : PMT_SS_NONSECURE;
    s.el2_enabled = true;
    s.scr_ns = s.el != 3;
    s.os_lock = b & 0x04;
    s.double_lock = b & 0x08;
    s.powered_down = b & 0x10;
    s.noninvasive_debug_prohibited = b & 0x20;
    s.debug = b & 0x40;
    s.edscr_sc2 = b & 0x80;
    return s;
}

void op_cpu(platform &p, fuzz::Input &in)
{
    uint8_t b = in.u8();
    switch (b & 3) {
    case 0:
    case 1: {
        pmt_sysreg encoding = frame_register(in);
        counts.sysreg_writes_ok +=
            p.pe->sysreg->write_sysreg(encoding, in.value(), sc_core::SC_ZERO_TIME) ==
            PMT_ACCESS_OK;
        break;
    }
    case 2: p.pe->state->set_pe_state(any_state(in), sc_core::SC_ZERO_TIME); break;
    default:
        if (b & 4)
            p.pe->reset_in->reset();
        else
            sc_core::sc_start(sc_core::SC_ZERO_TIME); // delta notifications (deferred calls)
        break;
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    elaborate();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (platform &p : platforms) {
        if (pmt_pe_restore(p.pe->core(), p.initial.data(), p.initial.size()) != PMT_OK)
            violated("restoring the initial state failed");
        p.pe->sync(); // the overflow event for the restored counters
    }
    fuzz::Input in(data, size);
    for (int ops = 0; !in.empty() && ops < 1024; ops++) {
        uint8_t kind = in.u8();
        platform &p = platforms[kind >> 7];
        unsigned socket = (kind >> 3 & 3) % 3;
        switch (kind & 7) {
        case 0:
        case 1:
        case 2: op_b_transport(p, socket, in); break;
        case 3:
        case 4: op_transport_dbg(p, socket, in); break;
        case 5: op_get_dmi(p, socket, in); break;
        default: op_cpu(p, in); break;
        }
    }
    return 0;
}
