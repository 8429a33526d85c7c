// pe_model's external Trace Buffer frame (H9.4, FEAT_TRBE_EXT) as a TLM-2.0 target: the
// registers the PE reaches with MRS/MSR (RRGHMG), every error response, transport_dbg without
// side effects, DMI refused, and the access log.
#include "pe_trbe_fixture.h"

namespace
{

using namespace pmtrace_test;
using P = trbe_platform;

constexpr uint64_t TRBBASER = 0x000, TRBPTR = 0x008, TRBLIMITR = 0x010, TRBSR = 0x018,
                   TRBIDR = 0x030, TRBITCTRL = 0xF00, TRBDEVARCH = 0xFBC, TRBCIDR0 = 0xFF0;

// RRGHMG: TRBBASER_EL1 written through the frame (8 bytes, Secure: MDCR_EL3.ETBAD = 0) is what
// MRS reads; TRBPTR_EL1 written by MSR is what the frame reads, also as two 32-bit halves.
TEST(TrbeFrame, RRGHMG_RegistersAreTheSystemRegisters)
{
    P p;
    EXPECT_EQ(p.dbg.write(TRBBASER, 8, P::BASE, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(p.pe, PMT_REG_TRBBASER_EL1), P::BASE);
    wr(p.pe, PMT_REG_TRBPTR_EL1, 0, 0x0000'1234'5678'9AC0);
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBPTR, 8, v, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x0000'1234'5678'9AC0u);
    EXPECT_EQ(p.dbg.read(TRBPTR + 4, 4, v, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x1234u);
    EXPECT_EQ(p.dbg.read(TRBIDR, 8, v, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, rd(p.pe, PMT_REG_TRBIDR_EL1));
    EXPECT_EQ(PMT_GET(TRBIDR, Align, v), 6u);
}

// The identification registers: a CoreSight component (TRBCIDR0..3 = 0x0D, 0x90, 0x05, 0xB1),
// TRBDEVARCH ARCHITECT Arm, PRESENT, ARCHPART 0xA18.
TEST(TrbeFrame, IdentificationRegisters)
{
    P p;
    const uint64_t cidr[] = {0x0D, 0x90, 0x05, 0xB1};
    for (unsigned i = 0; i < 4; i++) {
        uint64_t v = 0;
        EXPECT_EQ(p.dbg.read(TRBCIDR0 + 4 * i, 4, v), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(v, cidr[i]) << i;
    }
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBDEVARCH, 4, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x47700A18u);
}

// A write through the frame programs the buffer; trace lands in memory.
TEST(TrbeFrame, AnExternalAgentProgramsTheBuffer)
{
    P p;
    EXPECT_EQ(p.dbg.write(TRBBASER, 8, P::BASE, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(p.dbg.write(TRBPTR, 8, P::BASE, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(p.dbg.write(TRBLIMITR, 8,
                          P::LIMIT | PMT_PUT(TRBLIMITR, TM, 3) | PMT_MASK(TRBLIMITR, E), &p.secure),
              tlm::TLM_OK_RESPONSE);
    EXPECT_TRUE(p.pe.trbe_status().running);
    p.trace(256);
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBPTR, 8, v, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, P::BASE + 256);
    EXPECT_TRUE(p.holds(P::BASE, 0, 256));
}

// Error responses: beyond the frame ADDRESS_ERROR; a length other than 4 or 8, a streaming
// width other than the length, an 8-byte access to a 32-bit register or a misaligned one
// BURST_ERROR; byte enables BYTE_ENABLE_ERROR; IGNORE OK.
TEST(TrbeFrame, ErrorResponses)
{
    P p;
    uint64_t v = 0;
    sc_time d = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, 0x1000, 4, v, d, &p.secure),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBSR, 2, v, d, &p.secure),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBSR, 8, v, d, &p.secure, 4),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBITCTRL, 8, v, d, &p.secure),
              tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBSR + 4, 8, v, d, &p.secure),
              tlm::TLM_BURST_ERROR_RESPONSE);
    unsigned char be[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBSR, 8, v, d, &p.secure, 0, be),
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    d = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(p.dbg.access(tlm::TLM_IGNORE_COMMAND, TRBSR, 8, v, d, &p.secure),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d, sc_core::SC_ZERO_TIME); // no access was made
}

// H9.4 access conditions as the "slave-generated error" (GENERIC_ERROR): a Non-secure access
// while MDCR_EL3.ETBAD = 0b00, the OS Lock, powered down. The identification registers stay
// accessible under ETBAD and the OS Lock; RMXBCY: a reserved offset reads as zero.
TEST(TrbeFrame, AccessConditionsAreErrorResponses)
{
    P p;
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBSR, 8, v), tlm::TLM_GENERIC_ERROR_RESPONSE); // Non-secure
    EXPECT_EQ(p.dbg.read(TRBCIDR0, 4, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(p.dbg.read(0x100, 4, v, &p.secure), tlm::TLM_OK_RESPONSE); // reserved
    EXPECT_EQ(v, 0u);
    pmt_pe_state s = p.pe.pe_state();
    s.os_lock = true;
    p.pe.state->set_pe_state(s);
    EXPECT_EQ(p.dbg.read(TRBSR, 8, v, &p.secure), tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.read(TRBCIDR0, 4, v, &p.secure), tlm::TLM_OK_RESPONSE);
    s.os_lock = false;
    s.powered_down = true;
    p.pe.state->set_pe_state(s);
    EXPECT_EQ(p.dbg.read(TRBCIDR0, 4, v, &p.secure), tlm::TLM_GENERIC_ERROR_RESPONSE);
    // MDCR_EL3.ETBAD = 0b11: Non-secure accesses are allowed.
    s.powered_down = false;
    p.pe.state->set_pe_state(s);
    give_buffer_to_el1(p.pe, PMT_PUT(MDCR_EL3, ETBAD, 3));
    EXPECT_EQ(p.dbg.read(TRBSR, 8, v), tlm::TLM_OK_RESPONSE);
}

// Without FEAT_TRBE_EXT there is no frame: every offset is an address error.
TEST(TrbeFrame, NoFrameWithoutTrbeExt)
{
    pmtrace::pe_model_config cfg = trbe_config();
    cfg.core.trbe.feat_trbe_ext = false;
    P p(cfg);
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBSR, 8, v, &p.secure), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(p.dbg.read(TRBCIDR0, 4, v, &p.secure), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// b_transport happens at the annotated time and adds the frame latency; it never waits.
TEST(TrbeFrame, AccessAddsTheFrameLatency)
{
    P p;
    uint64_t v = 0;
    sc_time d = ns(20);
    EXPECT_EQ(p.dbg.access(tlm::TLM_READ_COMMAND, TRBSR, 8, v, d, &p.secure), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d, ns(30));
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

// transport_dbg reads the register block without side effects: the same values as b_transport,
// the core's state unchanged, no output called; a refused access transfers nothing.
TEST(TrbeFrame, TransportDbgReadsWithoutSideEffects)
{
    P p;
    p.program_fill();
    p.trace(0x4000); // buffer full: TRBSR_EL1 has S, IRQ, WRAP
    std::vector<unsigned char> before(pmt_pe_state_size(p.pe.core()));
    std::vector<unsigned char> after(before.size());
    ASSERT_EQ(pmt_pe_save(p.pe.core(), before.data(), before.size()), PMT_OK);
    const size_t irq_changes = p.irq.changes.size(), triggers = p.cti.triggers.size();

    unsigned char data[0x40] = {};
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(0);
    tx.set_data_ptr(data);
    tx.set_data_length(sizeof data);
    tx.set_streaming_width(sizeof data);
    tx.set_extension(&p.secure);
    EXPECT_EQ(p.dbg.socket->transport_dbg(tx), 0x40u);
    tx.clear_extension(&p.secure);
    uint64_t sr = 0, ptr = 0;
    std::memcpy(&sr, data + TRBSR, 8);
    std::memcpy(&ptr, data + TRBPTR, 8);
    EXPECT_EQ(sr, p.trbsr());
    EXPECT_EQ(ptr, P::BASE);
    uint64_t v = 0;
    EXPECT_EQ(p.dbg.read(TRBLIMITR, 8, v, &p.secure), tlm::TLM_OK_RESPONSE);
    uint64_t limitr = 0;
    std::memcpy(&limitr, data + TRBLIMITR, 8);
    EXPECT_EQ(limitr, v);

    ASSERT_EQ(pmt_pe_save(p.pe.core(), after.data(), after.size()), PMT_OK);
    EXPECT_EQ(before, after);
    EXPECT_EQ(p.irq.changes.size(), irq_changes);
    EXPECT_EQ(p.cti.triggers.size(), triggers);
    // Non-secure (no extension) with ETBAD = 0b00: refused, nothing transferred.
    EXPECT_EQ(p.dbg.debug_read(TRBSR, data, 8), 0u);
}

// DMI is refused for the whole frame.
TEST(TrbeFrame, DmiIsRefused)
{
    P p;
    tlm::tlm_generic_payload tx;
    tx.set_address(TRBSR);
    tlm::tlm_dmi dmi;
    EXPECT_FALSE(p.dbg.socket->get_direct_mem_ptr(tx, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0u);
    EXPECT_EQ(dmi.get_end_address(), 0xFFFu);
}

// Accesses are logged with register and field names at SC_HIGH; a refused one says why.
std::vector<std::string> infos;
void keep_infos(const sc_core::sc_report &report, const sc_core::sc_actions &)
{
    if (report.get_severity() == sc_core::SC_INFO)
        infos.push_back(std::string(report.get_msg_type()) + ": " + report.get_msg());
}

TEST(TrbeFrame, AccessesAreLoggedWithRegisterNames)
{
    P p;
    sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_HIGH);
    sc_core::sc_report_handler::set_handler(keep_infos);
    p.dbg.write(TRBLIMITR, 8, P::LIMIT | PMT_PUT(TRBLIMITR, TM, 3), &p.secure);
    uint64_t v = 0;
    p.dbg.read(TRBSR, 8, v);
    p.dbg.read(TRBCIDR0, 4, v);
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    ASSERT_EQ(infos.size(), 3u);
    EXPECT_EQ(infos[0], "pe: trbe_frame: TRBLIMITR_EL1 <= 0x40014018 {TM=3, LIMIT=0x40014}");
    EXPECT_EQ(infos[1], "pe: trbe_frame: 8-byte read at 0x018 refused: access not permitted");
    EXPECT_EQ(infos[2], "pe: trbe_frame: TRBCIDR0 => 0xd");
}

// Trace buffer write errors are logged at the access verbosity, naming the response.
TEST(TrbeFrame, TraceWriteErrorsAreLogged)
{
    P p;
    p.ram.add_fault(P::BASE - P::RAM, 0x40, tlm::TLM_GENERIC_ERROR_RESPONSE,
                    plat::fault_access::write);
    p.program_fill();
    sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_HIGH);
    sc_core::sc_report_handler::set_handler(keep_infos);
    p.trace(64);
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    bool found = false;
    for (const std::string &line : infos)
        found |= line == "pe: trace_bus: 64-byte write at 0x40010000 answered "
                         "TLM_GENERIC_ERROR_RESPONSE: a synchronous External abort";
    EXPECT_TRUE(found);
}

} // namespace
