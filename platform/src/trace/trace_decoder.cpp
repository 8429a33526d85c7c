// trace_decoder.cpp - a decode tree for one ETE source through OpenCSD's C API.
#include "pmtrace/platform/trace/trace_decoder.h"

#include <opencsd/c_api/opencsd_c_api.h>
#include <opencsd/ete/trc_pkt_types_ete.h>

#include <algorithm>
#include <limits>
#include <sstream>

namespace pmtrace::platform
{

namespace
{

std::string hex(uint64_t v)
{
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// What the element callback updates while OpenCSD decodes.
struct decode_state {
    decode_result *result;
    const trace_log *log;
    bool runs = false;  // decode_options::runs
    bool broken = true; // trace (re)started since the last range

    uint32_t lost_sync = 0; // NO_SYNC elements after a bad packet
    // Problems counted before the current library call: an error response is counted only when
    // nothing during the call said what it was.
    uint32_t problems_at_call_start = 0;
    uint32_t problems() const { return result->errors + lost_sync; }

    void error(const std::string &message)
    {
        result->errors++;
        if (result->messages.size() < decode_result::max_messages) {
            result->messages.push_back(message);
            log_line(*log, "trace_decoder: " + message);
        }
    }
};

instr_kind kind_of(ocsd_instr_type t)
{
    switch (t) {
    case OCSD_INSTR_BR: return instr_kind::branch;
    case OCSD_INSTR_BR_INDIRECT: return instr_kind::indirect_branch;
    case OCSD_INSTR_ISB: return instr_kind::isb;
    case OCSD_INSTR_DSB_DMB: return instr_kind::dsb_dmb;
    case OCSD_INSTR_WFI_WFE: return instr_kind::wfi_wfe;
    case OCSD_INSTR_TSTART: return instr_kind::tstart;
    case OCSD_INSTR_OTHER: break;
    }
    return instr_kind::other;
}

ocsd_datapath_resp_t on_element(const void *context, const ocsd_trc_index_t index,
                                const uint8_t /*trace_id*/, const ocsd_generic_trace_elem *e)
{
    // OpenCSD passes the context back const; it is ours, and meant to be updated.
    auto *s = static_cast<decode_state *>(const_cast<void *>(context));
    decode_result &r = *s->result;
    switch (e->elem_type) {
    case OCSD_GEN_TRC_ELEM_INSTR_RANGE: {
        const instruction_range range{e->st_addr, e->en_addr, e->num_instr_range,
                                      kind_of(e->last_i_type), e->last_instr_exec != 0};
        if (!s->runs)
            r.ranges.push_back(range);
        else if (!s->broken && !r.runs.empty() && r.runs.back().range == range)
            r.runs.back().count++;
        else
            r.runs.push_back({range, 1, s->broken});
        s->broken = false;
        break;
    }
    case OCSD_GEN_TRC_ELEM_NO_SYNC:
        s->broken = true;
        r.no_sync++;
        if (e->unsync_eot_info == UNSYNC_BAD_PACKET) {
            // Counted as errors after decoding, with the packet processor's own count.
            s->lost_sync++;
            if (r.messages.size() < decode_result::max_messages)
                log_line(*s->log, "trace_decoder: bad packet; the decoder lost synchronization "
                                  "at byte " +
                                      std::to_string(index));
        }
        break;
    case OCSD_GEN_TRC_ELEM_TRACE_ON:
        s->broken = true;
        r.trace_on++;
        break;
    case OCSD_GEN_TRC_ELEM_PE_CONTEXT: r.pe_context++; break;
    case OCSD_GEN_TRC_ELEM_TIMESTAMP:
        r.timestamps.push_back(e->timestamp);
        if (e->has_cc)
            r.timestamp_cycles.push_back(e->cycle_count);
        break;
    case OCSD_GEN_TRC_ELEM_EXCEPTION:
        r.exceptions.push_back({e->exception_number, s->runs ? r.runs.size() : r.ranges.size()});
        break;
    case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
        r.cycle_counts.push_back(
            {e->cycle_count, s->runs ? r.runs.size() : r.ranges.size(), r.exceptions.size()});
        break;
    case OCSD_GEN_TRC_ELEM_EVENT:
        r.events.push_back({e->trace_event.ev_number, r.ranges.size(), index});
        break;
    case OCSD_GEN_TRC_ELEM_ADDR_NACC:
        r.memory_gaps++;
        s->error("no memory image at " + hex(e->st_addr) + " (trace byte " + std::to_string(index) +
                 "): cannot follow the program there");
        break;
    case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN:
        s->error("atoms with no known address (trace byte " + std::to_string(index) + ")");
        break;
    default: break;
    }
    return OCSD_RESP_CONT;
}

// The A-Sync sequences of the buffer, found as OpenCSD's packet processor finds its first one:
// a 0x80 after at least eleven 0x00 bytes; the sequence is the last eleven of those and the 0x80.
void scan_async(const uint8_t *data, size_t size, decode_result &r)
{
    size_t zeros = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == 0x00) {
            zeros++;
            continue;
        }
        if (data[i] == 0x80 && zeros >= 11) {
            if (!r.sync_offset)
                r.sync_offset = i - 11;
            r.async_packets++;
        }
        zeros = 0;
    }
    r.unsynced_bytes = r.sync_offset ? *r.sync_offset : size;
}

// A library call's response: fatal errors, and errors reported without a packet or element
// saying which, are counted here.
bool check_response(decode_state &s, ocsd_datapath_resp_t resp, const char *what)
{
    if (OCSD_DATA_RESP_IS_FATAL(resp)) {
        s.error(std::string("OpenCSD stopped on ") + what + " (response " +
                std::to_string(static_cast<int>(resp)) + ")");
        return false;
    }
    if (OCSD_DATA_RESP_IS_ERR(resp) && s.problems() == s.problems_at_call_start)
        s.error(std::string("OpenCSD reported an error on ") + what);
    return true;
}

// Deletes the decode tree however decoding ends.
struct tree_guard {
    dcd_tree_handle_t tree;
    ~tree_guard()
    {
        if (tree != C_API_INVALID_TREE_HANDLE)
            ocsd_destroy_dcd_tree(tree);
    }
};

} // namespace

decode_result decode_ete_trace(const uint8_t *data, size_t size, const ete_registers &regs,
                               const std::vector<memory_image> &images,
                               const decode_options &options, const trace_log &log)
{
    decode_result r;
    decode_state s{&r, &log};
    s.runs = options.runs;
    r.bytes = size;
    if (data == nullptr || size == 0) {
        s.error("empty trace buffer: nothing to decode");
        return r;
    }
    scan_async(data, size, r);
    if (!regs.is_ete()) {
        s.error("TRCDEVARCH " + hex(regs.trcdevarch) + " does not name an ETE: not decoded");
        return r;
    }

    tree_guard guard{ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0)};
    if (guard.tree == C_API_INVALID_TREE_HANDLE) {
        s.error("OpenCSD could not create a decode tree");
        return r;
    }
    ocsd_ete_cfg cfg{};
    cfg.reg_idr0 = regs.trcidr0;
    cfg.reg_idr1 = regs.trcidr1;
    cfg.reg_idr2 = regs.trcidr2;
    cfg.reg_idr8 = regs.trcidr8;
    cfg.reg_devarch = regs.trcdevarch;
    cfg.reg_configr = regs.trcconfigr;
    cfg.reg_traceidr = regs.trctraceidr;
    cfg.arch_ver = ARCH_AA64; // an AArch64 A-profile PE (OpenCSD's "ARM-AA64")
    cfg.core_prof = profile_CortexA;
    unsigned char csid = 0;
    ocsd_err_t err = ocsd_dt_create_decoder(guard.tree, OCSD_BUILTIN_DCD_ETE,
                                            OCSD_CREATE_FLG_FULL_DECODER, &cfg, &csid);
    if (err != OCSD_OK) {
        s.error("OpenCSD could not create an ETE decoder (error " + std::to_string(err) + ")");
        return r;
    }
    // (OpenCSD 1.3.3's C API has no packet monitor for ETE: elements and statistics only.)
    if (ocsd_dt_set_gen_elem_outfn(guard.tree, on_element, &s) != OCSD_OK) {
        s.error("OpenCSD refused the element callback");
        return r;
    }
    if (images.empty()) {
        // The decoder stops at the first atom without a memory accessor: say why instead.
        s.error("no memory image: the program the trace describes cannot be followed");
        return r;
    }
    for (const memory_image &image : images) {
        if (image.bytes.empty() || image.bytes.size() > std::numeric_limits<uint32_t>::max()) {
            s.error("memory image at " + hex(image.address) + " of " +
                    std::to_string(image.bytes.size()) + " bytes: not used (1 byte to 4 GiB)");
            continue;
        }
        err = ocsd_dt_add_buffer_mem_acc(guard.tree, image.address, OCSD_MEM_SPACE_ANY,
                                         image.bytes.data(),
                                         static_cast<uint32_t>(image.bytes.size()));
        if (err != OCSD_OK)
            s.error("OpenCSD refused the memory image at " + hex(image.address) + " (error " +
                    std::to_string(err) + "; images must not overlap)");
    }

    // Feed the buffer; after a fatal response reset the decoder and carry on past the bytes it
    // took (at least one), so one bad stretch does not hide the rest of the buffer.
    size_t done = 0;
    while (done < size) {
        const uint32_t block = static_cast<uint32_t>(
            std::min<size_t>(size - done, std::numeric_limits<uint32_t>::max()));
        uint32_t used = 0;
        s.problems_at_call_start = s.problems();
        const ocsd_datapath_resp_t resp =
            ocsd_dt_process_data(guard.tree, OCSD_OP_DATA, done, block, data + done, &used);
        if (!check_response(s, resp, "trace data")) {
            ocsd_dt_process_data(guard.tree, OCSD_OP_RESET, 0, 0, nullptr, nullptr);
            s.broken = true;
            if (used == 0)
                used = 1;
        } else if (OCSD_DATA_RESP_IS_WAIT(resp)) {
            // Our element callback never asks to wait; flush in case the library does.
            ocsd_dt_process_data(guard.tree, OCSD_OP_FLUSH, 0, 0, nullptr, nullptr);
        }
        done += used;
    }
    s.problems_at_call_start = s.problems();
    check_response(s, ocsd_dt_process_data(guard.tree, OCSD_OP_EOT, 0, 0, nullptr, nullptr),
                   "end of trace");

    // One bad packet shows twice: rejected by the packet processor, then the decoder waits for
    // the next sync point. Count it once.
    ocsd_decode_stats_t *stats = nullptr;
    if (ocsd_dt_get_decode_stats(guard.tree, csid, &stats) == OCSD_OK && stats != nullptr)
        r.bad_packets = stats->bad_header_errs + stats->bad_sequence_errs;
    const uint32_t bad = std::max(r.bad_packets, s.lost_sync);
    if (bad > 0)
        s.error(std::to_string(bad) + " bad packet(s): the decoder lost synchronization " +
                std::to_string(s.lost_sync) + " time(s)");
    if (bad > 1)
        r.errors += bad - 1;
    if (r.async_packets == 0)
        s.error("no A-Sync in " + std::to_string(size) + " bytes: nothing could be decoded");
    return r;
}

} // namespace pmtrace::platform
