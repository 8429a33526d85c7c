// ete_decode.h - the oracle of the ETE packet encoder tests: OpenCSD's ETE decoder (its C API,
// the full decoder over a memory image of the traced program), reduced to the generic trace
// elements a test compares: instruction ranges, exceptions, contexts, timestamps, cycle counts,
// events, Trace On (with its reason) and losses of synchronization. Also small A64 program
// builders, so a test states the program and derives the expected ranges from its semantics.
#ifndef PMTRACE_TESTS_CORE_ETE_DECODE_H
#define PMTRACE_TESTS_CORE_ETE_DECODE_H

#include <gtest/gtest.h>
#include <opencsd/c_api/opencsd_c_api.h>
#include <opencsd/ete/trc_pkt_types_ete.h>
#include <pmtrace/pmt_ete_packet.h>
#include <pmtrace/platform/trace/trace_types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ete_test
{

enum class kind { range, exception, context, timestamp, cycle_count, event, trace_on, no_sync };

struct element {
    kind k;
    uint64_t a = 0, b = 0; // range: [a, b); exception: b = preferred return; timestamp: a
    uint32_t n = 0;        // range: instructions; exception: number; event: number; cc
    bool taken = false;    // range: the last instruction executed (an E atom)
    // context
    unsigned el = 0;
    ocsd_sec_level sec = ocsd_sec_secure;
    bool sf = false, cid_valid = false, vmid_valid = false, has_cc = false;
    uint32_t cid = 0, vmid = 0;
    bool overflow = false; // trace_on: after an overflow
};

// TRCCONFIGR bit positions (Arm ARM D24.4.25) the decoder is configured with: the encoder's
// configuration expressed as the register the trace unit would hold.
constexpr uint32_t configr_cci = 1u << 4, configr_cid = 1u << 6, configr_vmid = 1u << 7,
                   configr_ts = 1u << 11, configr_rs = 1u << 12, configr_vmidopt = 1u << 15;
// TRCIDR0.TRCCCI [7]; TRCIDR2.CCSIZE [28:25] 0b1000: 20-bit cycle counts; TRCIDR2.VMIDOPT [30:29]
// 0b01: TRCCONFIGR.VMIDOPT implemented.
constexpr uint32_t idr0_trccci = 1u << 7, idr2_ccsize_20 = 8u << 25, idr2_vmidopt = 1u << 29;

struct decoded {
    std::vector<element> elements;
    uint32_t errors = 0; // error responses from the library
    std::vector<element> of(kind k) const
    {
        std::vector<element> r;
        for (const element &e : elements)
            if (e.k == k)
                r.push_back(e);
        return r;
    }
};

inline ocsd_datapath_resp_t on_element(const void *ctx, const ocsd_trc_index_t, const uint8_t,
                                       const ocsd_generic_trace_elem *e)
{
    auto *d = static_cast<decoded *>(const_cast<void *>(ctx));
    element x{kind::range};
    switch (e->elem_type) {
    case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
        x.a = e->st_addr;
        x.b = e->en_addr;
        x.n = e->num_instr_range;
        x.taken = e->last_instr_exec != 0;
        break;
    case OCSD_GEN_TRC_ELEM_EXCEPTION:
        x.k = kind::exception;
        x.b = e->en_addr;
        x.n = e->exception_number;
        break;
    case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
        x.k = kind::context;
        x.el = e->context.exception_level;
        x.sec = e->context.security_level;
        x.sf = e->context.bits64 != 0;
        x.cid_valid = e->context.ctxt_id_valid != 0;
        x.vmid_valid = e->context.vmid_valid != 0;
        x.cid = e->context.context_id;
        x.vmid = e->context.vmid;
        break;
    case OCSD_GEN_TRC_ELEM_TIMESTAMP:
        x.k = kind::timestamp;
        x.a = e->timestamp;
        x.has_cc = e->has_cc != 0;
        x.n = e->cycle_count;
        break;
    case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
        x.k = kind::cycle_count;
        x.n = e->cycle_count;
        break;
    case OCSD_GEN_TRC_ELEM_EVENT:
        x.k = kind::event;
        x.n = e->trace_event.ev_number;
        break;
    case OCSD_GEN_TRC_ELEM_TRACE_ON:
        x.k = kind::trace_on;
        x.overflow = e->trace_on_reason == TRACE_ON_OVERFLOW;
        break;
    case OCSD_GEN_TRC_ELEM_NO_SYNC: x.k = kind::no_sync; break;
    case OCSD_GEN_TRC_ELEM_ADDR_NACC:
    case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN: d->errors++; return OCSD_RESP_CONT;
    default: return OCSD_RESP_CONT;
    }
    d->elements.push_back(x);
    return OCSD_RESP_CONT;
}

// The encoder under test, with a sink large enough for any test.
struct encoder {
    pmt_ete_pkt_config config{};
    pmt_ete_pkt_encoder enc{};
    std::vector<uint8_t> buffer = std::vector<uint8_t>(1u << 16);
    pmt_ete_pkt_sink sink{};
    explicit encoder(const pmt_ete_pkt_config &c = pmt_ete_pkt_config{}) : config(c)
    {
        sink = {buffer.data(), buffer.size(), 0};
        EXPECT_EQ(pmt_ete_pkt_init(&enc, &config), PMT_ETE_PKT_OK);
    }
    std::vector<uint8_t> bytes() const
    {
        return std::vector<uint8_t>(buffer.begin(), buffer.begin() + sink.length);
    }
};

// A range of n instructions from `start`, its last one executed or not.
inline element range_of(uint64_t start, uint32_t n, bool taken)
{
    element x{kind::range};
    x.a = start;
    x.b = start + 4u * n;
    x.n = n;
    x.taken = taken;
    return x;
}

// The decoded ranges are `want`, element by element.
inline void expect_ranges(const std::vector<element> &got, const std::vector<element> &want)
{
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        EXPECT_EQ(got[i].a, want[i].a) << "range " << i;
        EXPECT_EQ(got[i].b, want[i].b) << "range " << i;
        EXPECT_EQ(got[i].n, want[i].n) << "range " << i;
        EXPECT_EQ(got[i].taken, want[i].taken) << "range " << i;
    }
}

// A program image: 32-bit words at addresses.
struct image {
    std::map<uint64_t, std::vector<uint8_t>> blocks;
    void word(uint64_t address, uint32_t w)
    {
        // Each word is its own block unless it continues the block before it.
        for (auto &[base, bytes] : blocks)
            if (base + bytes.size() == address) {
                for (int i = 0; i < 4; i++)
                    bytes.push_back(static_cast<uint8_t>(w >> (8 * i)));
                return;
            }
        std::vector<uint8_t> b;
        for (int i = 0; i < 4; i++)
            b.push_back(static_cast<uint8_t>(w >> (8 * i)));
        blocks[address] = b;
    }
};

// A64 encodings (Arm ARM C6).
constexpr uint32_t a64_nop = 0xD503201F;
constexpr uint32_t a64_svc0 = 0xD4000001;
constexpr uint32_t a64_eret = 0xD69F03E0;
constexpr uint32_t a64_br_x0 = 0xD61F0000;
inline uint32_t a64_b(uint64_t from, uint64_t to)
{
    return 0x14000000u | (static_cast<uint32_t>((to - from) >> 2) & 0x3FFFFFFu);
}
inline uint32_t a64_b_ne(uint64_t from, uint64_t to)
{
    return 0x54000001u | ((static_cast<uint32_t>((to - from) >> 2) & 0x7FFFFu) << 5);
}

inline uint32_t configr_of(const pmt_ete_pkt_config &c)
{
    return pmtrace::platform::ete_fields::trcconfigr_res1 | (c.cci ? configr_cci : 0) |
           (c.cid ? configr_cid : 0) | (c.vmid ? configr_vmid : 0) | (c.ts ? configr_ts : 0) |
           (c.rs ? configr_rs : 0) | (c.vmidopt ? configr_vmidopt : 0);
}

inline decoded decode(const std::vector<uint8_t> &trace, const image &img,
                      const pmt_ete_pkt_config &config)
{
    decoded d;
    const pmtrace::platform::ete_registers regs;
    dcd_tree_handle_t tree = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
    if (tree == C_API_INVALID_TREE_HANDLE) {
        d.errors++;
        return d;
    }
    ocsd_ete_cfg cfg{};
    cfg.reg_idr0 = regs.trcidr0 | idr0_trccci;
    cfg.reg_idr1 = regs.trcidr1;
    cfg.reg_idr2 = regs.trcidr2 | idr2_ccsize_20 | idr2_vmidopt;
    cfg.reg_idr8 = regs.trcidr8;
    cfg.reg_devarch = regs.trcdevarch;
    cfg.reg_configr = configr_of(config);
    cfg.reg_traceidr = regs.trctraceidr;
    cfg.arch_ver = ARCH_AA64;
    cfg.core_prof = profile_CortexA;
    unsigned char csid = 0;
    if (ocsd_dt_create_decoder(tree, OCSD_BUILTIN_DCD_ETE, OCSD_CREATE_FLG_FULL_DECODER, &cfg,
                               &csid) != OCSD_OK ||
        ocsd_dt_set_gen_elem_outfn(tree, on_element, &d) != OCSD_OK) {
        d.errors++;
        ocsd_destroy_dcd_tree(tree);
        return d;
    }
    for (const auto &[base, bytes] : img.blocks)
        if (ocsd_dt_add_buffer_mem_acc(tree, base, OCSD_MEM_SPACE_ANY, bytes.data(),
                                       static_cast<uint32_t>(bytes.size())) != OCSD_OK)
            d.errors++;
    uint32_t done = 0;
    while (done < trace.size()) {
        uint32_t n = 0;
        const ocsd_datapath_resp_t r = ocsd_dt_process_data(
            tree, OCSD_OP_DATA, done, static_cast<uint32_t>(trace.size() - done),
            trace.data() + done, &n);
        if (OCSD_DATA_RESP_IS_FATAL(r)) {
            d.errors++;
            break;
        }
        if (OCSD_DATA_RESP_IS_ERR(r))
            d.errors++;
        if (n == 0 && !OCSD_DATA_RESP_IS_WAIT(r))
            break;
        done += n;
    }
    uint32_t n = 0;
    ocsd_dt_process_data(tree, OCSD_OP_EOT, 0, 0, nullptr, &n);
    ocsd_destroy_dcd_tree(tree);
    return d;
}

} // namespace ete_test

#endif
