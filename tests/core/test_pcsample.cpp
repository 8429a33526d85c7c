// PC sample-based profiling: the CPU's samples (CreatePCSample), the debug frame (FEAT_PCSRv8:
// Read_EDPCSRlo), the PMU frame (FEAT_PCSRv8p2: Read_PMPCSR, SetPCSample, SetPCSRUnknown),
// PMPCSCTL (FEAT_PCSRv8p9) and the sample taken on a PMU snapshot Capture event (D13.9).
//
// Each test names, in its first comment, the branch of the pseudocode of seed 003 (and of J1.3 of
// DDI0487 M.a.a, which refines it) or the rule it checks. Where the two versions differ the model
// follows M.a.a, and the test says so (docs/choices.md lists the differences). The rule
// identifiers of D13.9 stand apart from their paragraphs in both the seed and the spec text; the
// ones named here are matched to paragraphs by order and kind (R or I), an inference.
//
// Expected values are worked out from the register layouts of H9.2 and I5.3. The PC used by most
// tests is 0xFF12345689ABCDEF: bits [63:56] (0xFF) are not part of PMPCSR, bits [55:32] are
// 0x123456 and bits [31:0] 0x89ABCDEF.
#include "pe_fixture.h"

#include <pmtrace/pmt_pmu_snapshot.h>

namespace
{

constexpr uint64_t PC = 0xFF12345689ABCDEFull;
constexpr uint32_t CID1 = 0xC1D1C1D1u, CID2 = 0xC2D2C2D2u;
constexpr uint32_t ONES = 0xFFFFFFFFu;
constexpr uint32_t PMLAR = 0xFB0, EDLAR = 0xFB0, EDLSR = 0xFB4, KEY = 0xC5ACCE55u;
// Debug frame offsets (H9.2).
constexpr uint32_t EDPCSRlo = 0x0A0, EDCIDSR = 0x0A4, EDVIDSR = 0x0A8, EDPCSRhi = 0x0AC;
// PMU frame offsets (I5.2).
constexpr uint32_t PMPCSR = 0x200, PMPCSR_HI = 0x204, PMCID1SR = 0x208, PMVIDSR = 0x20C,
                   PMCID2SR = 0x22C, PMVCIDSR = 0x208, PMCCIDSR = 0x228, PMPCSCTL = 0xE50;

class PcSample : public PeTest
{
  protected:
    // A PE with the sample registers in the PMU frame, FEAT_VHE and FEAT_VMID16.
    void make_pmu(pmt_ext_layout layout = PMT_EXT32)
    {
        cfg.pcsr = PMT_PCSR_PMU_FRAME;
        cfg.ext_layout = layout;
        cfg.feat_vhe = true;
        cfg.feat_vmid16 = true;
        make();
    }
    // A PE with the sample registers in the debug frame (FEAT_PCSRv8), FEAT_VHE and FEAT_VMID16.
    void make_debug()
    {
        cfg.pcsr = PMT_PCSR_DEBUG_FRAME;
        cfg.feat_vhe = true;
        cfg.feat_vmid16 = true;
        make();
    }

    // An AArch64 guest instruction at Non-secure EL1 with EL2 enabled, VMID 0x1234 (16-bit in
    // use), CONTEXTIDR_EL1 = CID1 and CONTEXTIDR_EL2 = CID2.
    static pmt_pc_sample guest(uint64_t pc = PC)
    {
        pmt_pc_sample s{};
        s.pc = pc;
        s.el = 1;
        s.ss = PMT_SS_NONSECURE;
        s.contextidr_el1 = CID1;
        s.contextidr_el2 = CID2;
        s.el2_enabled = true;
        s.vttbr_vmid = 0x1234;
        s.vtcr_vs = true;
        return s;
    }
    static pmt_pc_sample at_el(unsigned el, pmt_security ss = PMT_SS_NONSECURE)
    {
        pmt_pc_sample s = guest();
        s.el = static_cast<uint8_t>(el);
        s.ss = ss;
        return s;
    }

    void push(const pmt_pc_sample &s) { ASSERT_EQ(pmt_pe_pc_sample(pe, &s), PMT_OK); }

    // Changes fields of the PE state the model was told.
    template <typename F> void state(F change)
    {
        pmt_pe_state s = pmt_pe_get_state(pe);
        change(s);
        ASSERT_EQ(pmt_pe_set_state(pe, &s), PMT_OK);
    }

    // PMU frame and debug frame accesses that must succeed; memory-mapped, Non-secure.
    uint64_t pm(uint32_t off, unsigned size = 4, bool mm = true,
                pmt_security from = PMT_SS_NONSECURE)
    {
        uint64_t v = 0xDEAD;
        pmt_ext_status s = pmt_pmu_ext_read(pe, off, size, from, mm, &v);
        EXPECT_EQ(s, PMT_EXT_OK) << "PMU frame read 0x" << std::hex << off << ": "
                                 << pmt_ext_status_name(s);
        return v;
    }
    void pm_wr(uint32_t off, uint64_t v, unsigned size = 4)
    {
        pmt_ext_status s = pmt_pmu_ext_write(pe, off, size, PMT_SS_NONSECURE, true, v);
        EXPECT_EQ(s, PMT_EXT_OK) << "PMU frame write 0x" << std::hex << off;
    }
    pmt_ext_status pm_status(uint32_t off, unsigned size = 4, pmt_security from = PMT_SS_NONSECURE,
                             uint64_t *value = nullptr)
    {
        uint64_t v = 0xDEAD;
        pmt_ext_status s = pmt_pmu_ext_read(pe, off, size, from, true, &v);
        if (value)
            *value = v;
        return s;
    }
    uint64_t ed(uint32_t off, bool mm = true)
    {
        uint64_t v = 0xDEAD;
        pmt_ext_status s = pmt_debug_ext_read(pe, off, 4, PMT_SS_NONSECURE, mm, &v);
        EXPECT_EQ(s, PMT_EXT_OK) << "debug frame read 0x" << std::hex << off << ": "
                                 << pmt_ext_status_name(s);
        return v;
    }
    void ed_wr(uint32_t off, uint64_t v, bool mm = true)
    {
        EXPECT_EQ(pmt_debug_ext_write(pe, off, 4, PMT_SS_NONSECURE, mm, v), PMT_EXT_OK);
    }
    pmt_ext_status ed_status(uint32_t off, unsigned size = 4, uint64_t *value = nullptr)
    {
        uint64_t v = 0xDEAD;
        pmt_ext_status s = pmt_debug_ext_read(pe, off, size, PMT_SS_NONSECURE, true, &v);
        if (value)
            *value = v;
        return s;
    }

    // FEAT_PCSRv8p9 with PMU snapshots (FEAT_PMUv3_SS), sampling active (PMPCSCTL.EN = 1).
    void make_v8p9(pmt_ext_layout layout = PMT_EXT32)
    {
        cfg.feat_pcsrv8p9 = true;
        cfg.feat_ss = true;
        make_pmu(layout);
        allow_capture();
        pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, EN));
    }
    // EL3 enables and allows PMU snapshot Capture events (MDCR_EL3.PMSSE = 0b11, D13.9).
    void allow_capture()
    {
        at(3, PMT_SS_ROOT);
        wr(PMT_REG_MDCR_EL3, rd(PMT_REG_MDCR_EL3) | PMT_PUT(MDCR_EL3, PMSSE, 3));
        at(cfg.have_el2 ? 2 : 1);
    }
    // A Capture event: the external snapshot request (RSCLCQ), enabled and allowed.
    void capture()
    {
        pmt_pmu_snapshot snapshot{};
        ASSERT_EQ(pmt_pmu_snapshot_get(pe, &snapshot), PMT_OK);
        EXPECT_TRUE(snapshot.allowed);
        ASSERT_EQ(pmt_pmu_snapshot_request(pe), PMT_OK);
    }
};

// ---- CreatePCSample ----

TEST_F(PcSample, CreatePcSampleValidWhenNoninvasiveDebugAllowedAndNotHalted)
{
    // CreatePCSample: pc_sample.valid = ExternalNoninvasiveDebugAllowed() && !Halted(), both
    // true; PMPCSR[31:0] is pc<31:0>.
    make_pmu();
    push(guest());
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

TEST_F(PcSample, CreatePcSampleInvalidWhenNoninvasiveDebugNotAllowed)
{
    // CreatePCSample: pc_sample.valid = ExternalNoninvasiveDebugAllowed() && ...: FALSE when the
    // authentication interface prohibits PC sampling at the current state; the read returns
    // Ones(32).
    make_pmu();
    state([](pmt_pe_state &s) { s.noninvasive_debug_prohibited = true; });
    push(guest());
    EXPECT_EQ(pm(PMPCSR), ONES);
}

TEST_F(PcSample, CreatePcSampleInvalidWhenHalted)
{
    // CreatePCSample: pc_sample.valid = ... && !Halted(): a sample made in Debug state is not
    // valid ("EDPCSRlo reads as 0xFFFFFFFF when the PE is in Debug state").
    make_pmu();
    set_debug(true);
    push(guest());
    EXPECT_EQ(pm(PMPCSR), ONES);
}

TEST_F(PcSample, EnteringDebugStateOrAProhibitedStateInvalidatesTheLastSample)
{
    // H9.2/I5.3 PCSample[31:0]: reads as 0xFFFFFFFF while the PE is in Debug state or sampling is
    // prohibited. The next instruction would make an invalid sample (CreatePCSample); the model
    // does not keep the last valid one.
    make_pmu();
    push(guest());
    set_debug(true);
    EXPECT_EQ(pm(PMPCSR), ONES);
    set_debug(false);
    push(guest());
    state([](pmt_pe_state &s) { s.noninvasive_debug_prohibited = true; });
    EXPECT_EQ(pm(PMPCSR), ONES);
}

TEST_F(PcSample, CreatePcSampleRwIsZeroForAArch32)
{
    // CreatePCSample: pc_sample.rw = if UsingAArch32() then '0'; Read_PMPCSR/SetPCSample:
    // PMPCSR<55:32> = Zeros(24) when rw == '0'.
    make_pmu();
    pmt_pc_sample s = guest(0xAB00000080001234ull);
    s.aarch32 = true;
    push(s);
    EXPECT_EQ(pm(PMPCSR), 0x80001234u);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0000000u); // NS, EL1, PC[55:32] zero
}

TEST_F(PcSample, CreatePcSampleNsFromTheSecurityState)
{
    // CreatePCSample: pc_sample.ns = if IsSecure() then '0' else '1' (M.a.a: pc_sample.ss);
    // PMPCSR.NS.
    make_pmu();
    push(at_el(1, PMT_SS_SECURE));
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
    EXPECT_EQ(pm(PMPCSR_HI), 0x20123456u); // NS 0, EL1, PC[55:32]
    push(at_el(1, PMT_SS_NONSECURE));
    pm(PMPCSR);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
}

TEST_F(PcSample, CreatePcSampleContextidrIsContextidrEl1)
{
    // CreatePCSample: pc_sample.contextidr = CONTEXTIDR_EL1 (CONTEXTIDR from AArch32 EL1);
    // PMCID1SR = pc_sample.contextidr, also at its alias 0x228.
    make_pmu();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    EXPECT_EQ(pm(0x228), CID1);
}

TEST_F(PcSample, CreatePcSampleHasEl2IsEl2Enabled)
{
    // CreatePCSample: pc_sample.has_el2 = EL2Enabled(). Without it PMCID2SR and PMVIDSR.VMID
    // are UNKNOWN (0 here).
    make_pmu();
    pmt_pc_sample s = guest();
    s.el2_enabled = false;
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), 0u);
    EXPECT_EQ(pm(PMVIDSR), 0u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
}

TEST_F(PcSample, CreatePcSampleHasEl2IsFalseAtEl3)
{
    // CreatePCSample (M.a.a): pc_sample.has_el2 = PSTATE.EL != EL3 && EL2Enabled(). Seed 003 has
    // EL2Enabled() alone; PMCID2SR/PMCCIDSR say "If the PE is not executing at EL3, ...": a
    // sample at EL3 leaves PMCID2SR UNKNOWN (0).
    make_pmu();
    push(at_el(3, PMT_SS_SECURE));
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), 0u);
}

TEST_F(PcSample, CreatePcSampleVmidFromAArch32El2IsVttbrVmid)
{
    // CreatePCSample: if ELUsingAArch32(EL2) then pc_sample.vmid = ZeroExtend(VTTBR.VMID, 16)
    // (VTTBR.VMID is 8 bits).
    make_pmu();
    pmt_pc_sample s = guest();
    s.el2_aarch32 = true;
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0x34u);
}

TEST_F(PcSample, CreatePcSampleVmidIs8BitsWithoutFeatVmid16)
{
    // CreatePCSample: elsif !Have16bitVMID() || VTCR_EL2.VS == '0' then
    // pc_sample.vmid = ZeroExtend(VTTBR_EL2.VMID<7:0>, 16): no FEAT_VMID16.
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    make();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0x34u);
}

TEST_F(PcSample, CreatePcSampleVmidIs8BitsWhenVtcrVsIsZero)
{
    // CreatePCSample: elsif !Have16bitVMID() || VTCR_EL2.VS == '0': FEAT_VMID16 with VS = 0.
    make_pmu();
    pmt_pc_sample s = guest();
    s.vtcr_vs = false;
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0x34u);
}

TEST_F(PcSample, CreatePcSampleVmidIs16BitsWithVmid16AndVs)
{
    // CreatePCSample: else pc_sample.vmid = VTTBR_EL2.VMID (FEAT_VMID16, VTCR_EL2.VS = 1).
    make_pmu();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0x1234u);
}

TEST_F(PcSample, CreatePcSampleContextidrEl2WithVheAndAArch64El2)
{
    // CreatePCSample: if HaveVirtHostExt() && !ELUsingAArch32(EL2) then
    // pc_sample.contextidr_el2 = CONTEXTIDR_EL2; PMCID2SR = contextidr_el2 (has_el2).
    make_pmu();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), CID2);
}

TEST_F(PcSample, CreatePcSampleContextidrEl2UnknownWithoutVhe)
{
    // CreatePCSample: else pc_sample.contextidr_el2 = bits(32) UNKNOWN (0 here): neither FEAT_VHE
    // nor FEAT_Debugv8p2.
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    make();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), 0u);
}

TEST_F(PcSample, CreatePcSampleContextidrEl2UnknownFromAArch32El2)
{
    // CreatePCSample: else pc_sample.contextidr_el2 = bits(32) UNKNOWN: EL2 using AArch32.
    make_pmu();
    pmt_pc_sample s = guest();
    s.el2_aarch32 = true;
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), 0u);
}

TEST_F(PcSample, CreatePcSampleContextidrEl2WithDebugv8p2WithoutVhe)
{
    // CreatePCSample (M.a.a): (FEAT_VHE || FEAT_Debugv8p2) && !ELUsingAArch32(EL2): FEAT_Debugv8p2
    // alone samples CONTEXTIDR_EL2 (seed 003 names only HaveVirtHostExt()).
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    cfg.feat_debugv8p2 = true;
    make();
    push(guest());
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), CID2);
}

TEST_F(PcSample, CreatePcSampleEl0InHostHasNoVmid)
{
    // CreatePCSample: pc_sample.el0h = PSTATE.EL == EL0 && IsInHost(); PMPCSR:
    // PMVIDSR.VMID = UNKNOWN when el0h (PMVIDSR: "EL0 with HCR_EL2.{E2H,TGE} = {1,1}").
    make_pmu();
    pmt_pc_sample s = at_el(0);
    s.in_host = true;
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0u);
    EXPECT_EQ(pm(PMCID2SR), CID2); // CONTEXTIDR_EL2 still sampled
    s.in_host = false;             // EL0 of a guest: the VMID is sampled
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0x1234u);
}

TEST_F(PcSample, SampleSourceIsAskedAtEachSamplingRead)
{
    // "on request through a callback": CreatePCSample made when a read needs pc_sample.
    make_pmu();
    struct Cpu {
        uint64_t pc = 0x1000;
        int calls = 0;
    } cpu;
    auto source = [](void *u, pmt_pc_sample *s) {
        auto *c = static_cast<Cpu *>(u);
        c->calls++;
        *s = guest(c->pc);
        return true;
    };
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, source, &cpu), PMT_OK);
    EXPECT_EQ(pm(PMPCSR), 0x1000u);
    cpu.pc = 0x2000;
    EXPECT_EQ(pm(PMPCSR), 0x2000u);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0000000u); // no new sample for the high half
    EXPECT_EQ(cpu.calls, 2);
    // A source with nothing new keeps the last sample.
    auto none = [](void *, pmt_pc_sample *) { return false; };
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, none, nullptr), PMT_OK);
    EXPECT_EQ(pm(PMPCSR), 0x2000u);
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, nullptr, nullptr), PMT_OK);
    push(guest(0x3000));
    EXPECT_EQ(pm(PMPCSR), 0x3000u);
}

TEST_F(PcSample, SampleSourceValidityComesFromTheStateAtTheRead)
{
    // CreatePCSample at the time of the read: valid = ExternalNoninvasiveDebugAllowed() &&
    // !Halted() of the state then.
    make_debug();
    auto source = [](void *, pmt_pc_sample *s) {
        *s = guest();
        return true;
    };
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, source, nullptr), PMT_OK);
    EXPECT_EQ(ed(EDPCSRlo), 0x89ABCDEFu);
    set_debug(true);
    EXPECT_EQ(ed(EDPCSRlo), ONES);
}

TEST_F(PcSample, BadSamplesAreRefused)
{
    // Bad input: samples of Exception levels, Security states and execution states the PE does
    // not have are refused with a log line; the last good sample stays.
    cfg.have_aarch32 = false;
    make_pmu();
    push(guest(0x1000));
    pmt_pc_sample s = guest();
    s.el = 4;
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    s = at_el(1, PMT_SS_REALM); // no FEAT_RME
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    s = at_el(1, static_cast<pmt_security>(7));
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    s = guest();
    s.aarch32 = true;
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    EXPECT_FALSE(log_lines.empty());
    EXPECT_EQ(pmt_pe_pc_sample(pe, nullptr), PMT_ERR_NULL);
    EXPECT_EQ(pmt_pe_pc_sample(nullptr, &s), PMT_ERR_NULL);
    EXPECT_EQ(pm(PMPCSR), 0x1000u);
}

TEST_F(PcSample, BadSamplesFromTheSourceAreIgnored)
{
    // Bad input through the sample source: a sample of an EL that does not exist is ignored with
    // a log line; the last good sample stays.
    make_pmu();
    push(guest(0x1000));
    auto bad = [](void *, pmt_pc_sample *s) {
        *s = guest();
        s->el = 9;
        return true;
    };
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, bad, nullptr), PMT_OK);
    EXPECT_EQ(pm(PMPCSR), 0x1000u);
    EXPECT_FALSE(log_lines.empty());
    EXPECT_EQ(pmt_pe_set_pc_sample_source(nullptr, bad, nullptr), PMT_ERR_NULL);
}

TEST_F(PcSample, SamplesOfUnimplementedElsAreRefused)
{
    // Bad input: EL3 without EL3, EL2 without EL2.
    cfg.have_el3 = false;
    cfg.have_el2 = false;
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    make();
    pmt_pc_sample s = at_el(3);
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    s = at_el(2);
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_ARG);
    s = at_el(1); // EL2Enabled() is FALSE without EL2, whatever the CPU says
    push(s);
    pm(PMPCSR);
    EXPECT_EQ(pm(PMCID2SR), 0u);
    EXPECT_EQ(pm_status(PMVIDSR), PMT_EXT_NO_REGISTER); // PMVIDSR needs EL2
}

TEST_F(PcSample, WithoutPcSamplingNothingIsThere)
{
    // Bad input: an unconfigured feature. No sample registers in either frame; samples are
    // refused as not implemented; PMDEVID.PCSample is 0.
    make();
    pmt_pc_sample s = guest();
    EXPECT_EQ(pmt_pe_pc_sample(pe, &s), PMT_ERR_NOT_IMPLEMENTED);
    auto source = [](void *, pmt_pc_sample *) { return false; };
    EXPECT_EQ(pmt_pe_set_pc_sample_source(pe, source, nullptr), PMT_ERR_NOT_IMPLEMENTED);
    EXPECT_EQ(pm_status(PMPCSR), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pm_status(PMPCSCTL), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(ed_status(EDPCSRlo), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(PMT_GET(PMDEVID, PCSample, pm(0xFC8)), 0u);
}

// ---- The debug frame: Read_EDPCSRlo ----

TEST_F(PcSample, EdpcsrloEdprsrDlkGivesAnError)
{
    // Read_EDPCSRlo: if EDPRSR<6:5,0> != '001' (DLK set) then IMPLEMENTATION_DEFINED "signal
    // slave-generated error": PMT_EXT_ERROR, no side effects; the same for EDCIDSR, EDVIDSR and
    // EDPCSRhi ("When DoubleLockStatus() ... accesses return an ERROR").
    make_debug();
    push(guest());
    state([](pmt_pe_state &s) { s.double_lock = true; });
    uint64_t v;
    EXPECT_EQ(ed_status(EDPCSRlo, 4, &v), PMT_EXT_ERROR);
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(ed_status(EDCIDSR), PMT_EXT_ERROR);
    EXPECT_EQ(ed_status(EDVIDSR), PMT_EXT_ERROR);
    EXPECT_EQ(ed_status(EDPCSRhi), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_debug_ext_write(pe, EDPCSRlo, 4, PMT_SS_NONSECURE, true, 0), PMT_EXT_ERROR);
    state([](pmt_pe_state &s) { s.double_lock = false; });
    EXPECT_EQ(ed(EDCIDSR), 0u); // the failed read had no side effect
}

TEST_F(PcSample, EdpcsrloEdprsrOslkGivesAnError)
{
    // Read_EDPCSRlo: EDPRSR<6:5,0> != '001' with OSLK set: error response.
    make_debug();
    push(guest());
    state([](pmt_pe_state &s) { s.os_lock = true; });
    EXPECT_EQ(ed_status(EDPCSRlo), PMT_EXT_ERROR);
    EXPECT_EQ(ed_status(EDVIDSR), PMT_EXT_ERROR);
}

TEST_F(PcSample, EdpcsrloEdprsrPuClearGivesAnError)
{
    // Read_EDPCSRlo: EDPRSR<6:5,0> != '001' with PU clear (Core powered down): error response.
    make_debug();
    push(guest());
    state([](pmt_pe_state &s) { s.powered_down = true; });
    EXPECT_EQ(ed_status(EDPCSRlo), PMT_EXT_ERROR);
    EXPECT_EQ(ed_status(EDPCSRhi), PMT_EXT_ERROR);
}

TEST_F(PcSample, EdpcsrloSoftwareLockedMemoryMappedReadHasNoSideEffects)
{
    // Read_EDPCSRlo: update = !memory_mapped || EDLSR.SLK == '0'. Locked (out of reset) and
    // memory-mapped: the sample is returned, EDPCSRhi, EDCIDSR, EDVIDSR are unchanged.
    cfg.debug_software_lock = true;
    make_debug();
    EXPECT_EQ(ed(EDLSR), 0x3u); // SLI, SLK
    push(guest());
    EXPECT_EQ(ed(EDPCSRlo), 0x89ABCDEFu);
    EXPECT_EQ(ed(EDPCSRhi), 0u);
    EXPECT_EQ(ed(EDCIDSR), 0u);
    EXPECT_EQ(ed(EDVIDSR), 0u);
}

TEST_F(PcSample, EdpcsrloSoftwareLockDoesNotApplyToTheExternalDebugInterface)
{
    // Read_EDPCSRlo: update = !memory_mapped || ...: a read that is not memory-mapped updates
    // while the lock is set; EDLSR reads 0 for it.
    cfg.debug_software_lock = true;
    make_debug();
    EXPECT_EQ(ed(EDLSR, false), 0u);
    push(guest());
    EXPECT_EQ(ed(EDPCSRlo, false), 0x89ABCDEFu);
    EXPECT_EQ(ed(EDCIDSR), CID1);
}

TEST_F(PcSample, EdpcsrloUnlockedMemoryMappedReadUpdates)
{
    // Read_EDPCSRlo: update when EDLSR.SLK == '0': EDLAR with the key unlocks; another value
    // locks again.
    cfg.debug_software_lock = true;
    make_debug();
    ed_wr(EDLAR, KEY);
    EXPECT_EQ(ed(EDLSR), 0x1u);
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDCIDSR), CID1);
    ed_wr(EDLAR, 0);
    EXPECT_EQ(ed(EDLSR), 0x3u);
    ed_wr(EDLAR, KEY, false); // EDLAR is reached through the memory-mapped interface only
    EXPECT_EQ(ed(EDLSR), 0x3u);
}

TEST_F(PcSample, EdpcsrloVheAndSc2EdpcsrhiHoldsPcElAndNs)
{
    // Read_EDPCSRlo: if HaveVirtHostExt() && EDSCR.SC2 == '1' then EDPCSRhi.PC = pc<55:32>,
    // EDPCSRhi.EL = pc_sample.el, EDPCSRhi.NS = pc_sample.ns.
    make_debug();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    push(guest());
    EXPECT_EQ(ed(EDPCSRlo), 0x89ABCDEFu);
    EXPECT_EQ(ed(EDPCSRhi), 0xA0123456u); // NS, EL1, PC[55:32]
    push(at_el(2));
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0xC0123456u); // NS, EL2
}

TEST_F(PcSample, EdpcsrloVheAndSc2AArch32PcIsZeros)
{
    // Read_EDPCSRlo: EDPCSRhi.PC = (if pc_sample.rw == '0' then Zeros(24) ...) with SC2.
    make_debug();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    pmt_pc_sample s = guest(0x12345678ABCDull);
    s.aarch32 = true;
    push(s);
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0xA0000000u);
}

TEST_F(PcSample, EdpcsrloWithoutSc2EdpcsrhiIsPcHighWord)
{
    // Read_EDPCSRlo: else EDPCSRhi = (if pc_sample.rw == '0' then Zeros(32) else pc<63:32>).
    make_debug();
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0xFF123456u);
    pmt_pc_sample s = guest(0xFFFF000080000000ull);
    s.aarch32 = true;
    push(s);
    EXPECT_EQ(ed(EDPCSRlo), 0x80000000u);
    EXPECT_EQ(ed(EDPCSRhi), 0u);
}

TEST_F(PcSample, EdpcsrloSc2IsIgnoredWhereItIsNotImplemented)
{
    // EDSCR.SC2 exists with FEAT_PCSRv8, EL2 and FEAT_Debugv8p1 (implied by FEAT_VHE or
    // FEAT_Debugv8p2); otherwise RES0, and Read_EDPCSRlo takes the SC2 == '0' branches.
    cfg.pcsr = PMT_PCSR_DEBUG_FRAME;
    make();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0xFF123456u);
    EXPECT_EQ(ed(EDVIDSR), 0x90000034u); // NS, HV, VMID[7:0] (no FEAT_VMID16)
}

TEST_F(PcSample, EdpcsrloEdcidsrIsContextidr)
{
    // Read_EDPCSRlo: EDCIDSR = pc_sample.contextidr.
    make_debug();
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDCIDSR), CID1);
}

TEST_F(PcSample, EdpcsrloVheAndSc2EdvidsrIsContextidrEl2)
{
    // Read_EDPCSRlo: if HaveVirtHostExt() && EDSCR.SC2 == '1' then EDVIDSR = contextidr_el2
    // when EL2 is there (M.a.a: pc_sample.has_el2; seed 003: HaveEL(EL2) && ns == '1').
    make_debug();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), CID2);
}

TEST_F(PcSample, EdpcsrloVheAndSc2EdvidsrUnknownWithoutEl2)
{
    // Read_EDPCSRlo: ... else bits(32) UNKNOWN (0 here): a Secure sample without Secure EL2.
    make_debug();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    pmt_pc_sample s = at_el(1, PMT_SS_SECURE);
    s.el2_enabled = false;
    push(s);
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0u);
}

TEST_F(PcSample, EdpcsrloDebugv8p2AndSc2WithoutVhe)
{
    // Read_EDPCSRlo (M.a.a): EDPCSRhi takes the SC2 format with FEAT_VHE only, EDVIDSR with
    // FEAT_VHE or FEAT_Debugv8p2: with FEAT_Debugv8p2 alone, EDPCSRhi = pc<63:32> and
    // EDVIDSR = CONTEXTIDR_EL2.
    cfg.pcsr = PMT_PCSR_DEBUG_FRAME;
    cfg.feat_debugv8p2 = true;
    make();
    state([](pmt_pe_state &s) { s.edscr_sc2 = true; });
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0xFF123456u);
    EXPECT_EQ(ed(EDVIDSR), CID2);
}

TEST_F(PcSample, EdpcsrloEdvidsrVmidNsE2E3AndHv)
{
    // Read_EDPCSRlo: else EDVIDSR.VMID = vmid for EL1/EL0 with EL2 (else Zeros), EDVIDSR.NS =
    // pc_sample.ns, EDVIDSR.E2 = (el == EL2), EDVIDSR.E3 = (el == EL3) AND rw, EDVIDSR.HV = 1 when
    // EDPCSRhi is not zero. Layout: NS 31, E2 30, E3 29, HV 28, VMID [15:0].
    make_debug();
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0x90001234u); // NS, HV, VMID
    push(at_el(0));
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0x90001234u); // EL0 of a guest: VMID too
    push(at_el(2));
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0xD0000000u); // NS, E2, HV; no VMID at EL2
    push(at_el(3, PMT_SS_SECURE));
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0x30000000u); // E3, HV
    pmt_pc_sample s = at_el(3, PMT_SS_SECURE);
    s.aarch32 = true;
    s.pc = 0x1000;
    push(s);
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0u); // E3 AND rw = 0; EDPCSRhi zero and rw 0: HV 0
}

TEST_F(PcSample, EdpcsrloEdvidsrVmidNeedsEl2)
{
    // Read_EDPCSRlo: EDVIDSR.VMID = Zeros() when the sample has no EL2 (EL2 disabled).
    make_debug();
    pmt_pc_sample s = guest();
    s.el2_enabled = false;
    push(s);
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0x90000000u); // NS, HV
}

TEST_F(PcSample, EdpcsrloEdvidsrVmidOfSecureEl1WithSecureEl2)
{
    // Read_EDPCSRlo (M.a.a): EDVIDSR.VMID = vmid if pc_sample.has_el2 && el IN {EL1,EL0}. Seed
    // 003 also asks pc_sample.ns == '1'; M.a.a samples the VMID of Secure EL1 under Secure EL2.
    cfg.have_sel2 = true;
    make_debug();
    push(at_el(1, PMT_SS_SECURE));
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDVIDSR), 0x10001234u); // HV, VMID; NS 0
}

TEST_F(PcSample, EdpcsrloHvWhenEdpcsrhiIsZeroIsRw)
{
    // Read_EDPCSRlo: EDVIDSR.HV = (if !IsZero(EDPCSRhi) then '1' else bit IMPLEMENTATION_DEFINED
    // "0 or 1"): pmtrace takes pc_sample.rw, the example implementation (docs/choices.md).
    make_debug();
    push(guest(0x80000000u)); // AArch64, PC[63:32] zero
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDPCSRhi), 0u);
    EXPECT_EQ(ed(EDVIDSR), 0x90001234u);
}

TEST_F(PcSample, EdpcsrloInvalidSampleReadsOnesAndForgetsTheContext)
{
    // Read_EDPCSRlo: else sample = Ones(32); if update then EDPCSRhi, EDCIDSR, EDVIDSR =
    // bits(32) UNKNOWN (0 here).
    make_debug();
    push(guest());
    ed(EDPCSRlo);
    EXPECT_EQ(ed(EDCIDSR), CID1);
    set_debug(true);
    EXPECT_EQ(ed(EDPCSRlo), ONES);
    EXPECT_EQ(ed(EDPCSRhi), 0u);
    EXPECT_EQ(ed(EDCIDSR), 0u);
    EXPECT_EQ(ed(EDVIDSR), 0u);
}

TEST_F(PcSample, EdpcsrloInvalidSampleLockedKeepsTheContext)
{
    // Read_EDPCSRlo: else ... if update: a locked memory-mapped read of an invalid sample reads
    // Ones(32) and leaves EDPCSRhi, EDCIDSR, EDVIDSR unchanged.
    cfg.debug_software_lock = true;
    make_debug();
    ed_wr(EDLAR, KEY);
    push(guest());
    ed(EDPCSRlo);
    ed_wr(EDLAR, 0);
    set_debug(true);
    EXPECT_EQ(ed(EDPCSRlo), ONES);
    EXPECT_EQ(ed(EDCIDSR), CID1);
    EXPECT_EQ(ed(EDPCSRhi), 0xFF123456u);
}

TEST_F(PcSample, DebugFrameAnswersOnlyItsRegisters)
{
    // Bad input: EDSCR (0x088) and the rest of the frame are the platform's debug unit
    // (NO_REGISTER); EDLAR/EDLSR only with the software lock; 32-bit registers refuse other
    // sizes and misaligned offsets; the sample registers are RO.
    make_debug();
    uint64_t v;
    EXPECT_EQ(ed_status(0x088), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(ed_status(EDLSR), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(ed_status(0x1000), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(ed_status(EDPCSRlo, 8), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(ed_status(EDPCSRlo, 2), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(ed_status(EDPCSRlo + 1), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(pmt_debug_ext_read(nullptr, EDPCSRlo, 4, PMT_SS_NONSECURE, true, &v), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_debug_ext_read(pe, EDPCSRlo, 4, PMT_SS_NONSECURE, true, nullptr), PMT_EXT_ERROR);
    EXPECT_EQ(pmt_debug_ext_write(nullptr, EDLAR, 4, PMT_SS_NONSECURE, true, KEY), PMT_EXT_ERROR);
    push(guest());
    ed(EDPCSRlo);
    ed_wr(EDCIDSR, 0);
    EXPECT_EQ(ed(EDCIDSR), CID1);
    // With the samples in the PMU frame the debug frame has nothing of the model's.
    cfg.pcsr = PMT_PCSR_PMU_FRAME;
    remake();
    EXPECT_EQ(ed_status(EDPCSRlo), PMT_EXT_NO_REGISTER);
}

// ---- The PMU frame: Read_PMPCSR ----

TEST_F(PcSample, PmpcsrEdprsrDlkGivesAnError)
{
    // Read_PMPCSR (seed 003): if EDPRSR<6:5,0> != '001' (DLK) then slave-generated error; I5.3
    // PMPCSR: "When DoubleLockStatus() or !IsCorePowered(), ... error response". Every sample
    // register and PMPCSCTL.
    cfg.feat_pcsrv8p9 = true;
    make_pmu();
    push(guest());
    state([](pmt_pe_state &s) { s.double_lock = true; });
    uint64_t v;
    EXPECT_EQ(pm_status(PMPCSR, 4, PMT_SS_NONSECURE, &v), PMT_EXT_ERROR);
    EXPECT_EQ(v, 0u);
    for (uint32_t off : {PMPCSR_HI, PMCID1SR, PMVIDSR, PMCID2SR, PMPCSCTL})
        EXPECT_EQ(pm_status(off), PMT_EXT_ERROR) << std::hex << off;
    EXPECT_EQ(pmt_pmu_ext_write(pe, PMPCSCTL, 4, PMT_SS_NONSECURE, true, 1), PMT_EXT_ERROR);
    state([](pmt_pe_state &s) { s.double_lock = false; });
    EXPECT_EQ(pm(PMCID1SR), 0u); // no side effect
}

TEST_F(PcSample, PmpcsrEdprsrPuClearGivesAnError)
{
    // Read_PMPCSR: EDPRSR<6:5,0> != '001' with PU clear (!IsCorePowered()): error response.
    make_pmu();
    push(guest());
    state([](pmt_pe_state &s) { s.powered_down = true; });
    EXPECT_EQ(pm_status(PMPCSR), PMT_EXT_ERROR);
}

TEST_F(PcSample, PmpcsrEdprsrOslkGivesAnError)
{
    // Read_PMPCSR: EDPRSR<6:5,0> != '001' with OSLK set (OSLockStatus()): error response.
    make_pmu();
    push(guest());
    state([](pmt_pe_state &s) { s.os_lock = true; });
    EXPECT_EQ(pm_status(PMPCSR), PMT_EXT_ERROR);
    EXPECT_EQ(pm_status(PMCID1SR, 4, PMT_SS_SECURE), PMT_EXT_ERROR);
}

TEST_F(PcSample, PmpcsrOsLockOverriddenByOsloForAMostSecureAccess)
{
    // I5.3 PMPCSR accessibility (M.a.a): the OS Lock gives an error unless FEAT_PMUv3_EXTPMN,
    // a Most secure access and PMCCR.OSLO == '1'.
    cfg.pmu_version = PMT_PMUV3P9;
    cfg.feat_extpmn = true;
    make_pmu();
    pmt_pmu_ext_write(pe, 0xE58, 4, PMT_SS_SECURE, true,
                      PMT_MASK(PMCCR, OSLO) | PMT_PUT(PMCCR, EPMN, cfg.num_counters));
    push(guest());
    state([](pmt_pe_state &s) { s.os_lock = true; });
    EXPECT_EQ(pm(PMPCSR, 4, true, PMT_SS_SECURE), 0x89ABCDEFu); // Secure: Most secure here
    EXPECT_EQ(pm_status(PMPCSR, 4, PMT_SS_NONSECURE), PMT_EXT_ERROR);
}

TEST_F(PcSample, PmpcsrIsNotBlockedByEpmad)
{
    // I5.3: the accessibility of the PC sample registers does not include AllowExternalPMUAccess
    // (MDCR_EL3.EPMAD): sampling is governed by ExternalNoninvasiveDebugAllowed().
    make_pmu();
    wr_high(PMT_REG_MDCR_EL3, PMT_MASK(MDCR_EL3, EPMAD));
    push(guest());
    EXPECT_EQ(pm_status(0x000), PMT_EXT_ERROR); // a counter is blocked
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

TEST_F(PcSample, PmpcsrSoftwareLockedMemoryMappedReadHasNoSideEffects)
{
    // Read_PMPCSR: update = !memory_mapped || PMLSR.SLK == '0'. Locked and memory-mapped: no side
    // effects. M.a.a returns PMPCSR as it is (seed 003 returns pc_sample.pc<31:0>): the value the
    // last updating read left.
    cfg.ext_software_lock = true;
    make_pmu();
    push(guest(0x1000));
    EXPECT_EQ(pm(PMPCSR, 4, false), 0x1000u); // not memory-mapped: updates
    push(guest());
    EXPECT_EQ(pm(PMPCSR), 0x1000u);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0000000u);
    pm_wr(PMLAR, KEY);
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
}

TEST_F(PcSample, PmpcsrValidSampleSetsHighWordElAndNs)
{
    // Read_PMPCSR: if pc_sample.valid: sample = pc<31:0>; PMPCSR<55:32> = pc<55:32>,
    // PMPCSR.EL = el, PMPCSR.NS = ns (NS 63, EL 62:61, PC 55:32; bits 60:56 RES0).
    make_pmu();
    push(at_el(2));
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
    EXPECT_EQ(pm(PMPCSR_HI), 0xC0123456u);
    EXPECT_EQ(pm(0x220), 0x89ABCDEFu); // the alias
    EXPECT_EQ(pm(0x224), 0xC0123456u);
}

TEST_F(PcSample, PmpcsrHighWordReadDoesNotSample)
{
    // I5.3 PMPCSR, Note: a 32-bit access to PMPCSR[63:32] does not update the PC sample
    // registers.
    make_pmu();
    push(guest());
    pm(PMPCSR);
    push(at_el(2, PMT_SS_NONSECURE));
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u); // still the EL1 sample
    EXPECT_EQ(pm(PMCID1SR), CID1);
}

TEST_F(PcSample, PmpcsrVmidOnlyForEl1AndEl0OfAGuest)
{
    // Read_PMPCSR: PMVIDSR.VMID = vmid if has_el2 && el IN {EL1,EL0} && !el0h, else UNKNOWN (0):
    // at EL2 the VMID is not sampled.
    make_pmu();
    push(at_el(2));
    pm(PMPCSR);
    EXPECT_EQ(pm(PMVIDSR), 0u);
    EXPECT_EQ(pm(PMCID2SR), CID2);
}

TEST_F(PcSample, PmpcsrInvalidSampleReadsOnesAndForgetsTheContext)
{
    // Read_PMPCSR: else sample = Ones(32); if update: PMPCSR<55:32>, EL, NS, PMCID1SR, PMCID2SR,
    // PMVIDSR.VMID = UNKNOWN (0 here).
    make_pmu();
    push(guest());
    pm(PMPCSR);
    set_debug(true);
    EXPECT_EQ(pm(PMPCSR), ONES);
    EXPECT_EQ(pm(PMPCSR_HI), 0u);
    EXPECT_EQ(pm(PMCID1SR), 0u);
    EXPECT_EQ(pm(PMCID2SR), 0u);
    EXPECT_EQ(pm(PMVIDSR), 0u);
}

TEST_F(PcSample, PmpcsrInvalidSampleLockedKeepsTheContext)
{
    // Read_PMPCSR: else ... if update: locked and memory-mapped, an invalid sample reads Ones(32)
    // and the other registers are unchanged.
    cfg.ext_software_lock = true;
    make_pmu();
    push(guest());
    pm(PMPCSR, 4, false);
    set_debug(true);
    EXPECT_EQ(pm(PMPCSR), ONES);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
}

TEST_F(PcSample, PmpcsrBeforeAnySampleReadsOnes)
{
    // PMPCSR[31:0] reads UNKNOWN "in reset state": pmtrace's pc_sample is invalid out of reset,
    // so the read gives Ones(32).
    make_pmu();
    EXPECT_EQ(pm(PMPCSR), ONES);
}

TEST_F(PcSample, PmpcsrExt64ViewsAndDoublewordRead)
{
    // Read_PMPCSR returns bits(64) (M.a.a); SetPCSample with FEAT_PMUv3_EXT64: PMCCIDSR =
    // contextidr_el2:contextidr, PMVCIDSR.VMID = vmid (VMID 47:32, CONTEXTIDR_EL1 31:0).
    make_pmu(PMT_EXT64);
    push(guest());
    EXPECT_EQ(pm(PMPCSR, 8), 0xA012345689ABCDEFull);
    EXPECT_EQ(pm(PMVCIDSR, 8), 0x00001234C1D1C1D1ull);
    EXPECT_EQ(pm(PMCCIDSR, 8), 0xC2D2C2D2C1D1C1D1ull);
    EXPECT_EQ(pm(PMCCIDSR + 4), CID2); // a 32-bit half
    EXPECT_EQ(pm(0x220, 8), 0xA012345689ABCDEFull);
    push(at_el(2));
    EXPECT_EQ(pm(PMPCSR + 4), 0xA0123456u); // [63:32] alone does not sample
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);     // [31:0] does
    EXPECT_EQ(pm(PMPCSR + 4), 0xC0123456u);
    EXPECT_EQ(pm(PMVCIDSR, 8), 0x00000000C1D1C1D1ull);
    set_debug(true); // invalid: (bits(32) UNKNOWN : Ones(32))
    EXPECT_EQ(pm(PMPCSR, 8), 0x00000000FFFFFFFFull);
    EXPECT_EQ(pm(PMCCIDSR, 8), 0u);
}

TEST_F(PcSample, PmpcsrWithRmeHasNseAndNs)
{
    // SetPCSample (M.a.a) with FEAT_RME: {NSE,NS} = Secure 00, Non-secure 01, Root 10, Realm 11
    // (NSE is bit 59).
    cfg.have_rme = true;
    make_pmu(PMT_EXT64);
    struct {
        pmt_security ss;
        unsigned el;
        uint64_t top;
    } rows[] = {{PMT_SS_SECURE, 1, 0x2000000000000000ull},
                {PMT_SS_NONSECURE, 1, 0xA000000000000000ull},
                {PMT_SS_ROOT, 3, 0x6800000000000000ull},
                {PMT_SS_REALM, 1, 0xA800000000000000ull}};
    for (auto &r : rows) {
        push(at_el(r.el, r.ss));
        EXPECT_EQ(pm(PMPCSR, 8), r.top | 0x0012345689ABCDEFull) << r.ss;
    }
}

TEST_F(PcSample, PmuFrameHolesAndSizes)
{
    // Bad input: the reserved words between the two blocks, 64-bit accesses in EXT32 (64-bit
    // atomic reads of PMPCSR are IMPLEMENTATION DEFINED: not supported), writes to the RO sample
    // registers (ignored), PMPCSCTL without FEAT_PCSRv8p9.
    make_pmu();
    EXPECT_EQ(pm_status(0x210), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pm_status(0x21C), PMT_EXT_NO_REGISTER);
    EXPECT_EQ(pm_status(PMPCSR, 8), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(pm_status(PMPCSR + 2), PMT_EXT_BAD_SIZE);
    EXPECT_EQ(pm_status(PMPCSCTL), PMT_EXT_NO_REGISTER);
    push(guest());
    pm(PMPCSR);
    pm_wr(PMCID1SR, 0);
    pm_wr(PMPCSR_HI, 0);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(PMT_GET(PMDEVID, PCSample, pm(0xFC8)), 1u); // FEAT_PCSRv8p2
}

TEST_F(PcSample, SampleRegistersAreSavedAndRestored)
{
    // State is plain data: pc_sample, the sample registers and PMPCSCTL survive save/restore.
    make_v8p9();
    push(guest());
    pm(PMPCSR);
    std::vector<unsigned char> blob(pmt_pe_state_size(pe));
    ASSERT_EQ(pmt_pe_save(pe, blob.data(), blob.size()), PMT_OK);
    ASSERT_EQ(pmt_pe_reset(pe), PMT_OK);
    EXPECT_EQ(pm(PMCID1SR), 0u);
    ASSERT_EQ(pmt_pe_restore(pe, blob.data(), blob.size()), PMT_OK);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    EXPECT_EQ(pm(PMPCSCTL), 0x3u); // IMP, EN
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

// ---- FEAT_PCSRv8p9: PMPCSCTL ----

TEST_F(PcSample, PmpcsctlResetsSuspendedAndFirstReadResumes)
{
    // PMPCSCTL (I5.3): IMP reads 1, EN resets to 0 (suspended). CreatePCSample: if
    // PCSRSuspended() then return. Read_PMPCSR: elsif PMPCSCTL.<IMP,EN> == '10' then
    // pc_sample.valid = FALSE; SetPCSRActive(): the read gives Ones(32) and sets EN.
    cfg.feat_pcsrv8p9 = true;
    make_pmu();
    EXPECT_EQ(pm(PMPCSCTL), 0x2u);
    EXPECT_EQ(PMT_GET(PMDEVID, PCSample, pm(0xFC8)), 2u); // FEAT_PCSRv8p9
    push(guest());                                        // ignored: suspended
    EXPECT_EQ(pm(PMPCSR), ONES);
    EXPECT_EQ(pm(PMPCSCTL), 0x3u);
    push(guest());
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

TEST_F(PcSample, PmpcsctlEnZeroSuspendsSampling)
{
    // PMPCSCTL.EN = 0: PC Sample-based Profiling is suspended (PCSRSuspended()): samples are
    // ignored and a read of PMPCSR invalidates pc_sample and resumes (SetPCSRActive).
    make_v8p9();
    push(guest());
    pm_wr(PMPCSCTL, 0);
    push(guest(0x2000)); // ignored
    EXPECT_EQ(pm(PMPCSR), ONES);
    EXPECT_EQ(PMT_GET(PMPCSCTL, EN, pm(PMPCSCTL)), 1u);
}

TEST_F(PcSample, PmpcsctlWithoutImpEnIsRazWi)
{
    // PMPCSCTL.IMP == 0 (IMPLEMENTATION DEFINED, cfg.pmpcsctl_imp): EN is RAZ/WI; PCSRSuspended()
    // is then IMPLEMENTATION DEFINED: pmtrace never suspends (docs/choices.md).
    cfg.feat_pcsrv8p9 = true;
    cfg.pmpcsctl_imp = false;
    make_pmu();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, EN));
    EXPECT_EQ(pm(PMPCSCTL), 0u);
    push(guest());
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

TEST_F(PcSample, PmpcsctlSsIsRes0WithoutSnapshots)
{
    // PMPCSCTL.SS: RES0 without FEAT_PMUv3_SS.
    cfg.feat_pcsrv8p9 = true;
    make_pmu();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS) | PMT_MASK(PMPCSCTL, EN));
    EXPECT_EQ(pm(PMPCSCTL), 0x3u);
}

TEST_F(PcSample, PmpcsctlIsTwoWordsInExt32AndADoublewordInExt64)
{
    // PMPCSCTL at 0xE50 (and [63:32] at 0xE54, RES0).
    make_v8p9(PMT_EXT64);
    EXPECT_EQ(pm(PMPCSCTL, 8), 0x3u);
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS) | PMT_MASK(PMPCSCTL, EN), 8);
    EXPECT_EQ(pm(PMPCSCTL, 8), 0x13u);
    EXPECT_EQ(pm(PMPCSCTL + 4), 0u);
}

TEST_F(PcSample, PmpcsctlSsReadReturnsTheCapturedSample)
{
    // Read_PMPCSR (M.a.a): if FEAT_PMUv3_SS && PMPCSCTL.SS == '1' then update = FALSE: the read
    // returns PMPCSR as the last Capture event left it (PMPCSCTL.SS: "Sample on Snapshot").
    make_v8p9();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS));
    push(guest(0x1000));
    capture();
    push(guest());
    EXPECT_EQ(pm(PMPCSR), 0x1000u);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0000000u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, EN)); // sample on read again
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
}

TEST_F(PcSample, PmpcsctlSsInvalidSampleReadsOnesAndKeepsTheCapture)
{
    // Read_PMPCSR with PMPCSCTL.SS == '1' (update = FALSE) and pc_sample not valid: the read
    // gives Ones(32) and the captured registers stay.
    make_v8p9();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS));
    push(guest());
    capture();
    set_debug(true);
    EXPECT_EQ(pm(PMPCSR), ONES);
    set_debug(false);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
}

// ---- D13.9: sampling on a PMU snapshot Capture event ----

TEST_F(PcSample, CaptureWithSsSamplesWhenAllowedAndNotInDebugState)
{
    // D13.9 RVPZHN (inferred ID), PMUCaptureEvent: FEAT_PCSRv8p9 and PMPCSCTL.SS, PC sampling
    // allowed and Non-debug state: a recently-executed instruction's address and state are
    // written to PMPCSR; with EXT32 CONTEXTIDR_EL2/EL1 to PMCID2SR/PMCID1SR and the VMID to
    // PMVIDSR (SetPCSRActive; SetPCSample).
    make_v8p9();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS));
    push(guest());
    capture();
    EXPECT_EQ(pm(PMPCSR), 0x89ABCDEFu);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    EXPECT_EQ(pm(PMCID2SR), CID2);
    EXPECT_EQ(pm(PMVIDSR), 0x1234u);
    EXPECT_EQ(pm(PMPCSCTL), 0x13u); // SetPCSRActive: EN = 1
}

TEST_F(PcSample, CaptureWithSsWritesTheExt64Views)
{
    // D13.9 RVPZHN (inferred ID): with FEAT_PMUv3_EXT64, CONTEXTIDR_EL2 and CONTEXTIDR_EL1 are
    // written to PMCCIDSR, and the VMID and CONTEXTIDR_EL1 to PMVCIDSR.
    make_v8p9(PMT_EXT64);
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS), 8);
    push(guest());
    capture();
    EXPECT_EQ(pm(PMCCIDSR, 8), 0xC2D2C2D2C1D1C1D1ull);
    EXPECT_EQ(pm(PMVCIDSR, 8), 0x00001234C1D1C1D1ull);
    EXPECT_EQ(pm(PMPCSR, 8), 0xA012345689ABCDEFull);
}

TEST_F(PcSample, CaptureWithSsInDebugStateWritesOnesToTheLowWord)
{
    // D13.9 RVPZHN (inferred ID), otherwise-branch: in Debug state PMPCSR[31:0] = 0xFFFFFFFF and
    // PMPCSR[63:32], PMCID1SR, PMCID2SR, PMVIDSR are unchanged (PMUCaptureEvent:
    // if pc_sample.valid && !debug_state ... else PMPCSR<31:0> = Ones(32)). A Capture event in
    // Debug state needs the PE to allow it (RTSYTY, pmt_pe_config.capture_in_debug).
    cfg.capture_in_debug = true;
    make_v8p9();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS));
    push(guest());
    capture();
    push(at_el(2));
    set_debug(true);
    capture();
    set_debug(false);
    push(guest()); // valid again, so that the SS read returns PMPCSR
    EXPECT_EQ(pm(PMPCSR), ONES);
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(pm(PMCID1SR), CID1);
    EXPECT_EQ(pm(PMVIDSR), 0x1234u);
}

TEST_F(PcSample, CaptureWithSsWhenSamplingIsProhibitedWritesOnesToTheLowWord)
{
    // D13.9 RVPZHN (inferred ID), otherwise-branch: PC sampling not allowed
    // (ExternalNoninvasiveDebugAllowed() FALSE): PMPCSR[31:0] = 0xFFFFFFFF, the rest unchanged.
    make_v8p9(PMT_EXT64);
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS), 8);
    push(guest());
    capture();
    state([](pmt_pe_state &s) { s.noninvasive_debug_prohibited = true; });
    push(at_el(2));
    capture();
    state([](pmt_pe_state &s) { s.noninvasive_debug_prohibited = false; });
    push(guest());
    EXPECT_EQ(pm(PMPCSR, 8), 0xA0123456FFFFFFFFull);
    EXPECT_EQ(pm(PMCCIDSR, 8), 0xC2D2C2D2C1D1C1D1ull);
}

TEST_F(PcSample, CaptureWithoutSsLeavesTheSampleRegisters)
{
    // D13.9: "If sampling on PMU snapshot is disabled then PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR,
    // PMCCIDSR, and PMVCIDSR are unchanged."
    make_v8p9();
    push(guest());
    pm(PMPCSR);
    push(at_el(2));
    capture();
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
    EXPECT_EQ(pm(PMVIDSR), 0x1234u);
}

TEST_F(PcSample, CaptureWithoutFeatPcsrv8p9LeavesTheSampleRegisters)
{
    // D13.9: sampling on Capture events needs FEAT_PCSRv8p9 (PMUCaptureEvent:
    // IsFeatureImplemented(FEAT_PCSRv8p9) && PMPCSCTL.SS == '1').
    cfg.feat_ss = true;
    make_pmu();
    allow_capture();
    push(guest());
    pm(PMPCSR);
    push(at_el(2));
    capture();
    EXPECT_EQ(pm(PMPCSR_HI), 0xA0123456u);
}

TEST_F(PcSample, CaptureTakesARecentlyExecutedInstructionFromTheSource)
{
    // D13.9 RTYNSW/RWSVYM (inferred IDs): the recently-executed instruction follows the rules of
    // a read with PMPCSCTL.SS = 0; with a sample source the model asks the CPU at the Capture.
    make_v8p9();
    pm_wr(PMPCSCTL, PMT_MASK(PMPCSCTL, SS));
    auto source = [](void *, pmt_pc_sample *s) {
        *s = guest(0x4000);
        return true;
    };
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, source, nullptr), PMT_OK);
    capture();
    ASSERT_EQ(pmt_pe_set_pc_sample_source(pe, nullptr, nullptr), PMT_OK);
    EXPECT_EQ(pm(PMPCSR), 0x4000u);
}

// ---- Configuration ----

TEST_F(PcSample, ConfigurationsThatCannotExistAreRefused)
{
    // Bad configurations: FEAT_PCSRv8p9 needs FEAT_PCSRv8p2; the debug software lock needs the
    // samples in the debug frame; FEAT_VHE and FEAT_VMID16 need EL2; pcsr out of range.
    pmt_pe_callbacks cb = callbacks();
    pmt_pe_config c = pmt_pe_config_default();
    EXPECT_EQ(c.pcsr, PMT_PCSR_NONE);
    EXPECT_TRUE(c.pmpcsctl_imp);
    c.feat_pcsrv8p9 = true;
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c = pmt_pe_config_default();
    c.debug_software_lock = true;
    c.pcsr = PMT_PCSR_PMU_FRAME;
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c = pmt_pe_config_default();
    c.have_el2 = false;
    c.feat_vhe = true;
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    c = pmt_pe_config_default();
    c.pcsr = static_cast<pmt_pcsr_location>(3);
    EXPECT_EQ(pmt_pe_create(&c, &cb), nullptr);
    EXPECT_EQ(log_lines.size(), 4u);
}

} // namespace
