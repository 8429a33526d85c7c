// pe_model frames: the external PMU frame (I5.2) and the debug frame's PC sample registers
// (H9.2) as TLM-2.0 targets - accesses, error responses, timing, transport_dbg, DMI.
#include "pe_model_fixture.h"

namespace
{

using namespace pmtrace_test;

struct frames {
    pmtrace::pe_model pe;
    frame_initiator pmu{"pmu_master"};
    frame_initiator debug{"debug_master"};
    explicit frames(const pmtrace::pe_model_config &cfg = {}) : pe("pe", cfg)
    {
        pmu.socket.bind(pe.pmu_frame);
        debug.socket.bind(pe.debug_frame);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        enter_el1(pe);
    }
};

// PMCR_EL0 in the EXT32 layout is at 0xE04: a write through the frame is what MRS reads.
TEST(PmuFrame, WriteThroughTheSocketIsSeenByMrs)
{
    frames f;
    EXPECT_EQ(f.pmu.write(0xE04, 4, PMT_MASK(PMCR, E)), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), PMT_MASK(PMCR, E));
}

// PMCNTENSET_EL0 at 0xC00: an MSR is what the frame reads.
TEST(PmuFrame, ReadThroughTheSocketSeesMsr)
{
    frames f;
    wr(f.pe, PMT_REG_PMCNTENSET_EL0, 0, 0x5);
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0xC00, 4, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0x5u);
}

// The CPU export answers the core's access results: MDCR_EL3 is UNDEFINED below EL3
// (MRS from EL1), PMUSERENR_EL0.EN = 0 traps EL0 reads of PMCR_EL0 to EL1 (D13.3), and an
// encoding that is not the PMU's is the CPU's own.
TEST(CpuExport, AccessResultsOfTheCore)
{
    frames f;
    uint64_t v = 0;
    EXPECT_EQ(f.pe.sysreg->read_sysreg(enc(PMT_REG_MDCR_EL3), v), PMT_ACCESS_UNDEFINED);
    f.pe.state->set_pe_state(at_el(0));
    EXPECT_EQ(f.pe.sysreg->read_sysreg(enc(PMT_REG_PMCR_EL0), v), PMT_ACCESS_TRAP_EL1);
    EXPECT_EQ(f.pe.sysreg->read_sysreg(PMT_SYSREG(3, 0, 1, 0, 0), v), PMT_ACCESS_NOT_MINE);
}

// EXT64 takes 8-byte accesses to a 64-bit register: PMCCNTR_EL0 at 0x0F8.
TEST(PmuFrame, Ext64TakesAnEightByteCounterAccess)
{
    pmtrace::pe_model_config cfg;
    cfg.core.ext_layout = PMT_EXT64;
    frames f(cfg);
    EXPECT_EQ(f.pmu.write(0x0F8, 8, 0x123456789ABull), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCCNTR_EL0), 0x123456789ABull);
}

// b_transport happens at sc_time_stamp() + delay, adds the frame latency and never waits.
TEST(PmuFrame, AccessHappensAtTheAnnotatedTimeAndAddsTheLatency)
{
    frames f;
    arm_cycle_counter(f.pe, 0);
    sc_core::sc_start(ns(100));
    uint64_t v = 0;
    sc_time delay = ns(20);
    EXPECT_EQ(f.pmu.access(tlm::TLM_READ_COMMAND, 0x0F8, 4, v, delay), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 120u);
    EXPECT_EQ(delay, ns(30)); // 20 ns + frame_latency (10 ns by default)
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(100));
}

TEST(PmuFrame, HoleAnswersAddressError)
{
    frames f;
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0x300, 4, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Event counter 6 does not exist with 6 counters (PMCR_EL0.N = 6).
    EXPECT_EQ(f.pmu.read(0x030, 4, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(PmuFrame, BeyondTheFrameAnswersAddressError)
{
    frames f;
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0x1000, 4, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(PmuFrame, BadLengthAnswersBurstError)
{
    frames f;
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0xE04, 2, v), tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(PmuFrame, StreamingWidthBelowTheLengthAnswersBurstError)
{
    frames f;
    uint64_t v = 0;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(f.pmu.access(tlm::TLM_READ_COMMAND, 0xE04, 4, v, delay, nullptr, 2),
              tlm::TLM_BURST_ERROR_RESPONSE);
}

// EXT32 has 32-bit registers only: an 8-byte access to PMCCNTR is a size the register refuses.
TEST(PmuFrame, EightBytesInExt32AnswersBurstError)
{
    frames f;
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0x0F8, 8, v), tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(PmuFrame, ByteEnablesAnswerByteEnableError)
{
    frames f;
    uint64_t v = 0;
    sc_time delay = sc_core::SC_ZERO_TIME;
    unsigned char be[4] = {0xFF, 0xFF, 0, 0};
    EXPECT_EQ(f.pmu.access(tlm::TLM_WRITE_COMMAND, 0xE04, 4, v, delay, nullptr, 0, be),
              tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
}

// MDCR_EL3.EPMAD = 1: external PMU accesses are refused except for a Most secure (here Secure)
// access: the slave-generated error is TLM_GENERIC_ERROR_RESPONSE.
TEST(PmuFrame, EpmadRefusesANonSecureAccessWithAnError)
{
    pmtrace::pe_model pe("pe");
    frame_initiator pmu("pmu_master");
    pmu.socket.bind(pe.pmu_frame);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    enter_el1(pe, PMT_MASK(MDCR_EL3, EPMAD));
    uint64_t v = 0;
    EXPECT_EQ(pmu.read(0xE04, 4, v), tlm::TLM_GENERIC_ERROR_RESPONSE);
    pmtrace::access_extension secure(PMT_SS_SECURE);
    EXPECT_EQ(pmu.read(0xE04, 4, v, &secure), tlm::TLM_OK_RESPONSE);
}

// The software lock (PMLAR/PMLSR, locked out of reset) applies to memory-mapped accesses only:
// a memory-mapped write is ignored, a write through the external debug interface is performed.
TEST(PmuFrame, AccessExtensionSaysWhichInterfaceTheAccessUses)
{
    pmtrace::pe_model_config cfg;
    cfg.core.ext_software_lock = true;
    frames f(cfg);
    EXPECT_EQ(f.pmu.write(0xE04, 4, PMT_MASK(PMCR, E)), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), 0u);
    pmtrace::access_extension external_debug(PMT_SS_NONSECURE, false);
    EXPECT_EQ(f.pmu.write(0xE04, 4, PMT_MASK(PMCR, E), &external_debug), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), PMT_MASK(PMCR, E));
}

TEST(PmuFrame, IgnoreCommandAnswersOkAndChangesNothing)
{
    frames f;
    uint64_t v = PMT_MASK(PMCR, E);
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(f.pmu.access(tlm::TLM_IGNORE_COMMAND, 0xE04, 4, v, delay), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), 0u);
}

// A command value that is neither read, write nor ignore is one the frame cannot execute: a
// command error (IEEE 1666-2011 14.17), not the OK of TLM_IGNORE_COMMAND, and nothing is written.
TEST(PmuFrame, UnknownCommandAnswersCommandErrorAndChangesNothing)
{
    frames f;
    uint64_t v = PMT_MASK(PMCR, E);
    sc_time delay = sc_core::SC_ZERO_TIME;
    auto unknown = static_cast<tlm::tlm_command>(3); // the one more value the enum holds
    EXPECT_EQ(f.pmu.access(unknown, 0xE04, 4, v, delay), tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), 0u);
}

TEST(PmuFrame, RefusesDmi)
{
    frames f;
    tlm::tlm_generic_payload trans;
    trans.set_address(0xE04);
    trans.set_command(tlm::TLM_READ_COMMAND);
    tlm::tlm_dmi dmi;
    EXPECT_FALSE(f.pmu.socket->get_direct_mem_ptr(trans, dmi));
    EXPECT_FALSE(dmi.is_read_allowed());
    EXPECT_FALSE(dmi.is_write_allowed());
}

// transport_dbg reads a register without time or latency, and several registers at once.
TEST(PmuFrame, DebugReadOfSeveralRegisters)
{
    frames f;
    wr(f.pe, PMT_REG_PMCNTENSET_EL0, 0, 0x3);
    wr(f.pe, PMT_REG_PMINTENSET_EL1, 0, 0x5);
    unsigned char buf[16] = {};
    // PMCNTENSET at 0xC00 ... PMINTENSET at 0xC40.
    EXPECT_EQ(f.pmu.debug_read(0xC00, buf, 4), 4u);
    uint32_t cnten, inten;
    std::memcpy(&cnten, buf, 4);
    EXPECT_EQ(cnten, 0x3u);
    EXPECT_EQ(f.pmu.debug_read(0xC40, buf, 8), 8u);
    std::memcpy(&inten, buf, 4);
    EXPECT_EQ(inten, 0x5u);
    // A transfer stops at the first hole: with 6 counters PMEVCNTR5 is the last at 0x028..0x02F.
    EXPECT_EQ(f.pmu.debug_read(0x028, buf, 16), 8u);
}

// A transport_dbg write is a write.
TEST(PmuFrame, DebugWriteIsAWrite)
{
    frames f;
    tlm::tlm_generic_payload trans;
    uint32_t pmcr = PMT_MASK(PMCR, E);
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(0xE04);
    trans.set_data_ptr(reinterpret_cast<unsigned char *>(&pmcr));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    EXPECT_EQ(f.pmu.socket->transport_dbg(trans), 4u);
    EXPECT_EQ(rd(f.pe, PMT_REG_PMCR_EL0) & PMT_MASK(PMCR, E), PMT_MASK(PMCR, E));
}

// PC sampling in the PMU frame (FEAT_PCSRv8p2, EXT64): a read of PMPCSR samples the PC and
// captures the context into PMVCIDSR (Read_PMPCSR); transport_dbg returns what the read would
// return, without capturing anything.
pmtrace::pe_model_config pcsr_in_pmu_frame()
{
    pmtrace::pe_model_config cfg;
    cfg.core.pcsr = PMT_PCSR_PMU_FRAME;
    cfg.core.ext_layout = PMT_EXT64;
    return cfg;
}

pmt_pc_sample sample_at(uint64_t pc, uint32_t contextidr)
{
    pmt_pc_sample s{};
    s.pc = pc;
    s.el = 1;
    s.ss = PMT_SS_NONSECURE;
    s.contextidr_el1 = contextidr;
    s.el2_enabled = true;
    s.vttbr_vmid = 5;
    return s;
}

TEST(PmuFrame, PmpcsrReadSamplesThePc)
{
    frames f(pcsr_in_pmu_frame());
    EXPECT_EQ(f.pe.pc_samples->pc_sample(sample_at(0x1000, 1)), PMT_OK);
    uint64_t pmpcsr = 0, pmvcidsr = 0;
    EXPECT_EQ(f.pmu.read(0x200, 8, pmpcsr), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(pmpcsr, 0xA000000000001000ull); // NS = 1, EL = 1, PC[55:0]
    EXPECT_EQ(f.pmu.read(0x208, 8, pmvcidsr), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(pmvcidsr, 0x0000000500000001ull); // VMID 5, CONTEXTIDR_EL1 1
}

TEST(PmuFrame, DebugReadOfPmpcsrHasNoSideEffects)
{
    frames f(pcsr_in_pmu_frame());
    f.pe.pc_samples->pc_sample(sample_at(0x1000, 1));
    uint64_t v = 0;
    EXPECT_EQ(f.pmu.read(0x200, 8, v), tlm::TLM_OK_RESPONSE); // captures CONTEXTIDR_EL1 = 1
    f.pe.pc_samples->pc_sample(sample_at(0x2000, 2));
    unsigned char buf[8];
    ASSERT_EQ(f.pmu.debug_read(0x200, buf, 8), 8u);
    std::memcpy(&v, buf, 8);
    EXPECT_EQ(v, 0xA000000000002000ull);
    // PMVCIDSR still holds what the last sampling read captured.
    EXPECT_EQ(f.pmu.read(0x208, 8, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v & 0xFFFFFFFFu, 1u);
}

// The debug frame (FEAT_PCSRv8): EDPCSRlo at 0x0A0 samples, EDCIDSR at 0x0A4 holds the context.
pmtrace::pe_model_config pcsr_in_debug_frame()
{
    pmtrace::pe_model_config cfg;
    cfg.core.pcsr = PMT_PCSR_DEBUG_FRAME;
    return cfg;
}

TEST(DebugFrame, EdpcsrloReadSamplesThePc)
{
    frames f(pcsr_in_debug_frame());
    f.pe.pc_samples->pc_sample(sample_at(0xFFFF800010081234ull, 42));
    uint64_t lo = 0, cidsr = 0;
    EXPECT_EQ(f.debug.read(0x0A0, 4, lo), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(lo, 0x10081234u);
    EXPECT_EQ(f.debug.read(0x0A4, 4, cidsr), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cidsr, 42u);
}

// With a sample source the model asks the CPU at the read.
TEST(DebugFrame, SampleSourceIsAskedAtTheRead)
{
    frames f(pcsr_in_debug_frame());
    EXPECT_EQ(f.pe.pc_samples->set_pc_sample_source([](pmt_pc_sample &s) {
        s = sample_at(0x12345678, 7);
        return true;
    }),
              PMT_OK);
    uint64_t lo = 0;
    EXPECT_EQ(f.debug.read(0x0A0, 4, lo), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(lo, 0x12345678u);
}

// EDPRSR.OSLK = 1: the sample registers answer an error (the "slave-generated error").
TEST(DebugFrame, OsLockAnswersAnError)
{
    frames f(pcsr_in_debug_frame());
    pmt_pe_state locked = el1_ns();
    locked.os_lock = true;
    f.pe.state->set_pe_state(locked);
    uint64_t v = 0;
    EXPECT_EQ(f.debug.read(0x0A0, 4, v), tlm::TLM_GENERIC_ERROR_RESPONSE);
}

// The rest of the debug frame belongs to the platform's debug unit.
TEST(DebugFrame, OtherOffsetsAnswerAddressError)
{
    frames f(pcsr_in_debug_frame());
    uint64_t v = 0;
    EXPECT_EQ(f.debug.read(0x088, 4, v), tlm::TLM_ADDRESS_ERROR_RESPONSE); // EDSCR
}

TEST(DebugFrame, DebugReadOfEdpcsrloHasNoSideEffects)
{
    frames f(pcsr_in_debug_frame());
    f.pe.pc_samples->pc_sample(sample_at(0x1000, 1));
    uint64_t v = 0;
    EXPECT_EQ(f.debug.read(0x0A0, 4, v), tlm::TLM_OK_RESPONSE); // EDCIDSR = 1
    f.pe.pc_samples->pc_sample(sample_at(0x2000, 2));
    unsigned char buf[4];
    ASSERT_EQ(f.debug.debug_read(0x0A0, buf, 4), 4u);
    uint32_t lo;
    std::memcpy(&lo, buf, 4);
    EXPECT_EQ(lo, 0x2000u);
    EXPECT_EQ(f.debug.read(0x0A4, 4, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 1u);
}

} // namespace
