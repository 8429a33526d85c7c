// fuzz_program.cpp - the interpreter of fuzz programs and the invariants (fuzz_program.h).
//
// The invariants read registers from the model's own state (c-core/src/pe_internal.h) rather
// than through MRS, which would need PE state changes with their own side effects; the values
// compared come from registers, the expected results from the rules quoted at each check.
#include "fuzz_program.h"

extern "C" {
#include "pe/fields.h"
#include "pe_internal.h"
#include "trbe/trbe_internal.h"
}

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fuzz
{

// How often each invariant was put to the test, printed at exit when FUZZ_STATS is set (to see
// that a corpus reaches them: scripts/fuzz.sh --stats).
static struct Stats {
    uint64_t ops, forks, compared, writes, writes_bounded, faults_stopping, irq_high, held,
        held_output;
    ~Stats()
    {
        if (std::getenv("FUZZ_STATS"))
            std::fprintf(stderr,
                         "fuzz stats: %llu operations, %llu forks, %llu compared; %llu writes, "
                         "%llu bounds-checked; %llu stopping faults; %llu with PMUIRQ high; %llu "
                         "held trace unit reports, %llu with output\n",
                         (unsigned long long)ops, (unsigned long long)forks,
                         (unsigned long long)compared, (unsigned long long)writes,
                         (unsigned long long)writes_bounded, (unsigned long long)faults_stopping,
                         (unsigned long long)irq_high, (unsigned long long)held,
                         (unsigned long long)held_output);
    }
} stats;

[[noreturn]] static void violated(const char *what, uint64_t a = 0, uint64_t b = 0)
{
    std::fprintf(stderr, "fuzz invariant violated: %s (0x%llx, 0x%llx)\n", what,
                 static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    std::abort();
}

// ----------------------------------------------------------------------------------------------
// Configs

// A value for a field whose values are lo..hi: from one byte, in range below 0xF0; from 0xF0 on,
// one pmt_pe_create must refuse: one below lo (one above hi when lo is 0), one above hi, a byte
// more above it, or any 32-bit value (the next four bytes).
static unsigned ranged(Input &in, unsigned lo, unsigned hi)
{
    const uint8_t b = in.u8();
    if (b < 0xF0)
        return lo + b % (hi - lo + 1);
    switch (b & 3) {
    case 0: return lo ? lo - 1 : hi + 1;
    case 1: return hi + 1;
    case 2: return hi + 1 + in.u8();
    default: return in.u32();
    }
}

// An enum field set to any value, which C code reads as the unsigned int it is (a C++ enum
// conversion of a value outside the enumeration would be undefined).
template <typename E> static void set_enum(E &field, unsigned v)
{
    static_assert(sizeof(E) == sizeof v, "an enum of the C API is an unsigned int");
    std::memcpy(&field, &v, sizeof v);
}

pmt_pe_config config_any(Input &in)
{
    pmt_pe_config c = pmt_pe_config_default();
    uint64_t b = in.u64(); // feature bits
    auto bit = [&](unsigned n) { return (b >> n & 1) != 0; };
    c.have_el2 = bit(0);
    c.have_el3 = bit(1);
    c.have_sel2 = bit(2);
    c.have_rme = bit(3);
    c.have_aarch32 = bit(4);
    static const unsigned versions[] = {0, 1, 2, 4, 5, 6, 7, 8, 9, 3, 10, 255};
    set_enum(c.pmu_version, versions[in.u8() % 12]);
    c.num_counters = ranged(in, 0, PMT_MAX_EVENT_COUNTERS);
    c.feat_hpmn0 = bit(5);
    c.feat_extpmn = bit(6);
    c.feat_icntr = bit(7);
    c.feat_ebep = bit(8);
    c.feat_sebep = bit(9);
    c.feat_ss = bit(10);
    c.feat_pcsrv8p9 = bit(11);
    c.feat_spev1p2 = bit(12);
    c.feat_spe_dpfzs = bit(13);
    c.feat_pmuv3_sme = bit(14);
    c.feat_debugv8p9 = bit(15);
    c.feat_brbe = bit(16);
    c.common_events[0] = in.value();
    c.common_events[1] = in.value();
    c.pmcr_imp = in.u8();
    c.pmcr_idcode = in.u8();
    c.pmmir = in.value();
    set_enum(c.unattributable, ranged(in, 0, 1));
    set_enum(c.ext_layout, ranged(in, 0, 1));
    c.ext_software_lock = bit(17);
    c.mpidr = in.value();
    c.pmiidr = in.u32();
    c.part_number = static_cast<uint16_t>(ranged(in, 0, 0xFFF));
    c.revision = static_cast<uint8_t>(ranged(in, 0, 0xF));
    c.chain_across_ranges = bit(18);
    set_enum(c.reserved_pmecr_pmee, ranged(in, 0, 3));
    set_enum(c.reserved_mdcr_el2_pmee, ranged(in, 0, 3));
    set_enum(c.reserved_mdcr_el3_pmee, ranged(in, 0, 3));
    set_enum(c.reserved_pmecr_sse, ranged(in, 0, 2));
    c.feat_nv = bit(47);
    set_enum(c.sync_events, ranged(in, 0, 1));
    c.num_sync_events = ranged(in, 0, PMT_MAX_SYNC_EVENT_LIST);
    for (auto &e : c.sync_event_list)
        e = in.u16();
    set_enum(c.sync_values, ranged(in, 0, 1));
    static const unsigned va[] = {0, 48, 52, 56, 47, 64};
    c.va_bits = va[in.u8() % 6];
    c.capture_in_debug = bit(19);
    set_enum(c.pcsr, ranged(in, 0, 2));
    c.feat_vhe = bit(20);
    c.feat_debugv8p2 = bit(21);
    c.feat_vmid16 = bit(22);
    c.debug_software_lock = bit(23);
    c.pmpcsctl_imp = bit(24);
    // The Trace Buffer Unit's and the trace unit's fields are in or out of range whether the
    // feature is implemented or not (issue 27: trbe.align 130 without FEAT_TRBE).
    pmt_trbe_config &t = c.trbe;
    t.feat_trbe = bit(25);
    t.feat_trbe_exc = bit(26);
    t.feat_trbe_ext = bit(27);
    t.armv9p3 = bit(28);
    t.align = ranged(in, 0, 11);
    t.flag_updates = bit(29);
    t.pa_bits = ranged(in, 32, 56);
    set_enum(t.ext_abort, ranged(in, 0, 3));
    t.walk_abort_as_fault = bit(30);
    t.walk_abort_sets_ea = bit(31);
    t.trb_trig_countable = bit(32);
    t.ignore_writes_while_enabled = bit(33);
    t.misaligned_ptr_fault = bit(34);
    t.flush_pad = bit(35);
    t.pad_byte = in.u8();
    t.impdef_events = bit(36);
    set_enum(t.reserved_e2tb, ranged(in, 0, 2));
    set_enum(t.reserved_trfcr_ee, ranged(in, 0, 2));
    t.erratum_fill_overwrite = bit(48);
    t.erratum_fill_overwrite_bytes = static_cast<uint16_t>(ranged(in, 1, 256));
    t.erratum_write_out_of_range = bit(49);
    t.erratum_drain_after_disable = bit(50);
    t.erratum_ctxt_sync_after_enable = bit(45);
    t.part_number = static_cast<uint16_t>(ranged(in, 0, 0xFFF));
    t.revision = static_cast<uint8_t>(ranged(in, 0, 0xF));
    pmt_ete_config &e = c.ete;
    e.feat_ete = bit(37);
    e.num_ac_pairs = ranged(in, 0, PMT_ETE_MAX_AC_PAIRS);
    e.num_cid_comps = ranged(in, 0, PMT_ETE_MAX_CTX_COMPS);
    e.num_vmid_comps = ranged(in, 0, PMT_ETE_MAX_CTX_COMPS);
    e.num_rs_pairs = ranged(in, 0, PMT_ETE_MAX_RS_PAIRS); // 1 is refused
    e.num_ext_in_sel = ranged(in, 0, PMT_ETE_MAX_EXT_IN_SEL);
    e.num_counters = ranged(in, 0, PMT_ETE_MAX_COUNTERS);
    e.wfx_p0 = bit(38);
    e.cc_below_min = bit(39) ? PMT_ETE_CC_BELOW_MIN_NO_COUNTS : PMT_ETE_CC_BELOW_MIN_USE_CCITMIN;
    e.ccitmin = ranged(in, 1, 0xFFF);
    e.cc_size = ranged(in, 0, 8);
    e.timestamps = bit(40);
    e.return_stack = bit(41);
    e.branch_broadcast = bit(42);
    e.fixed_sync_period = bit(43);
    e.sync_period = ranged(in, 8, 20);
    e.trace_id = bit(44);
    e.num_claim_tags = ranged(in, 0, PMT_ETE_MAX_CLAIM_TAGS);
    e.designer = in.u8();
    e.revision = static_cast<uint8_t>(ranged(in, 0, 0xF));
    set_enum(e.busy_write, ranged(in, 0, 1));
    e.unit_buffer = bit(46) ? 1024u << (in.u8() % 3) : in.u16() % 5000u;
    return c;
}

pmt_pe_config config_preset(Input &in)
{
    pmt_pe_config c = pmt_pe_config_default();
    uint32_t b = in.u32();
    auto bit = [&](unsigned n) { return (b >> n & 1) != 0; };
    switch (b & 3) {
    case 0: break; // the default: PMUv3p7, 6 counters, EL2, EL3
    case 1:        // everything of PMUv3p9
        c.pmu_version = PMT_PMUV3P9;
        c.feat_hpmn0 = c.feat_extpmn = c.feat_icntr = c.feat_ebep = c.feat_sebep = true;
        c.feat_ss = true;
        c.num_counters = 31;
        c.pcsr = PMT_PCSR_PMU_FRAME;
        c.feat_pcsrv8p9 = true;
        c.ext_layout = PMT_EXT64;
        c.feat_vhe = true;
        break;
    case 2: // no EL2 or EL3, few counters
        c.have_el2 = c.have_el3 = false;
        c.num_counters = 2;
        c.pcsr = PMT_PCSR_DEBUG_FRAME;
        c.debug_software_lock = true;
        c.ext_software_lock = true;
        break;
    default: // RME and Secure EL2
        c.have_rme = c.have_sel2 = true;
        c.pmu_version = PMT_PMUV3P9;
        c.feat_ebep = true;
        c.num_counters = 8;
        break;
    }
    c.trbe.feat_trbe = !bit(2);
    c.trbe.feat_trbe_exc = bit(3) && c.have_el2;
    c.trbe.feat_trbe_ext = bit(4);
    c.trbe.armv9p3 = bit(5);
    c.trbe.align = (b >> 6 & 0xF) % 12;
    static const pmt_trbe_ext_abort ea[] = {PMT_TRBE_EA_IGNORE, PMT_TRBE_EA_SERROR,
                                            PMT_TRBE_EA_REPORT_SYNC, PMT_TRBE_EA_REPORT_ASYNC};
    c.trbe.ext_abort = ea[b >> 10 & 3];
    if (c.trbe.armv9p3 || c.trbe.feat_trbe_exc)
        if (c.trbe.ext_abort >= PMT_TRBE_EA_REPORT_SYNC)
            c.trbe.ext_abort = PMT_TRBE_EA_SERROR;
    c.trbe.walk_abort_as_fault = !bit(12);
    c.trbe.walk_abort_sets_ea = bit(13);
    c.trbe.ignore_writes_while_enabled = bit(14);
    c.trbe.misaligned_ptr_fault = bit(15);
    c.trbe.flush_pad = bit(16);
    c.trbe.impdef_events = bit(17);
    c.trbe.erratum_ctxt_sync_after_enable = bit(25);
    c.trbe.pa_bits = bit(18) ? 40 : 48;
    c.ete.feat_ete = bit(19);
    c.ete.unit_buffer = bit(26) ? 1024 : 0;
    c.feat_ebep = c.feat_ebep || (bit(20) && c.pmu_version >= PMT_PMUV3P9);
    c.sync_values = bit(21) ? PMT_SYNC_VALUES_BEFORE : PMT_SYNC_VALUES_AFTER;
    c.chain_across_ranges = bit(22);
    c.unattributable = bit(23) ? PMT_UNATTRIB_COUNTED : PMT_UNATTRIB_NOT_COUNTED;
    c.capture_in_debug = bit(24);
    return c;
}

// ----------------------------------------------------------------------------------------------
// One model and everything it reported

enum Tag : uint64_t {
    T_PMUIRQ = 1,
    T_CTI,
    T_BRBE,
    T_HALT,
    T_PMU_EVENT,
    T_PMU_EXC,
    T_BRBE_CAP,
    T_LOG,
    T_TRBIRQ,
    T_TRBE_EXC,
    T_SERROR,
    T_CTI_TRIG,
    T_FLUSH_REQ,
    T_TRBE_EVENT,
    T_TRANSLATE,
    T_WRITE,
    T_RESULT,
    T_TIMESTAMP,
    T_CYCLES,
};

// The memory port's behaviour, set by the MEMPORT operation; the same on both models.
struct MemScript {
    uint8_t tmode = 0; // 0 identity, 1 a fault on some pages (identity on the others), 2 remap
    uint8_t tmod = 0, trem = 0; // faulting pages: (va >> 12) % (tmod + 1) == trem
    pmt_trbe_fault fault{};
    int fault_kind = 0; // may be outside pmt_trbe_fault_kind
    uint64_t xorpa = 0; // remap: pa = va ^ xorpa
    uint8_t wmode = 0;  // 0 OK, 1 synchronous External abort, 2 asynchronous
    uint8_t wevery = 0; // every (wevery + 1)-th write aborts
    uint16_t wdone = 0; // bytes written before the abort (at most n)
};

struct Rig {
    pmt_pe_config cfg{};
    pmt_pe *pe = nullptr;
    std::vector<uint64_t> out; // callbacks and reads, in order
    MemScript mem;
    uint64_t nwrites = 0;
    uint64_t clock = 0;            // the PE's cycles (pmt_ete_callbacks.cycles): 7 per question
    bool irq = false, cti = false; // levels last reported by the callbacks

    // The Trace Buffer Unit at the start of the current operation.
    bool sane = false; // Base < Limit, TRBPTR inside and aligned, memory port identity
    uint64_t base = 0, limit = 0;
    bool stopped_in_op = false;       // a fault or reported abort stopped collection in this op
    bool stopped_at_op_start[4] = {}; // TRBSR_ELx.S, x = 1..3

    ~Rig() { pmt_pe_destroy(pe); }

    void rec(uint64_t tag, uint64_t a = 0, uint64_t b = 0)
    {
        out.push_back(tag);
        out.push_back(a);
        out.push_back(b);
    }

    bool create(const pmt_pe_config &c)
    {
        cfg = c;
        pmt_pe_callbacks cb{};
        cb.user = this;
        cb.pmuirq = [](void *u, bool l) {
            auto *r = static_cast<Rig *>(u);
            if (l == r->irq)
                violated("pmuirq callback without a change of level", l);
            r->irq = l;
            r->rec(T_PMUIRQ, l);
        };
        cb.cti_pmu_overflow = [](void *u, bool l) {
            auto *r = static_cast<Rig *>(u);
            r->cti = l;
            r->rec(T_CTI, l);
        };
        cb.brbe_freeze = [](void *u) { static_cast<Rig *>(u)->rec(T_BRBE); };
        cb.halt_request = [](void *u, bool l) { static_cast<Rig *>(u)->rec(T_HALT, l); };
        cb.pmu_event = [](void *u, uint16_t e, uint64_t n) {
            static_cast<Rig *>(u)->rec(T_PMU_EVENT, e, n);
        };
        cb.pmu_exception = [](void *u, bool p, unsigned el) {
            static_cast<Rig *>(u)->rec(T_PMU_EXC, p, el);
        };
        cb.brbe_capture_freeze = [](void *u) { static_cast<Rig *>(u)->rec(T_BRBE_CAP); };
        cb.log = [](void *u, const char *m) {
            // Compared by length and first bytes: the text names the rule.
            uint64_t h = 0;
            std::memcpy(&h, m, std::min<size_t>(8, std::strlen(m)));
            static_cast<Rig *>(u)->rec(T_LOG, std::strlen(m), h);
        };
        pe = pmt_pe_create(&c, &cb);
        if (!pe)
            return false;
        pmt_trbe_callbacks t{};
        t.user = this;
        t.trbirq = [](void *u, bool l) { static_cast<Rig *>(u)->rec(T_TRBIRQ, l); };
        t.exception = [](void *u, bool take, unsigned el) {
            static_cast<Rig *>(u)->rec(T_TRBE_EXC, take, el);
        };
        t.serror = [](void *u) { static_cast<Rig *>(u)->rec(T_SERROR); };
        t.cti_trigger = [](void *u, unsigned n) { static_cast<Rig *>(u)->rec(T_CTI_TRIG, n); };
        t.flush_request = [](void *u) { static_cast<Rig *>(u)->rec(T_FLUSH_REQ); };
        t.event = [](void *u, uint16_t e) { static_cast<Rig *>(u)->rec(T_TRBE_EVENT, e); };
        t.translate = [](void *u, uint64_t va, const pmt_trbe_regime *r, pmt_trbe_translation *o) {
            static_cast<Rig *>(u)->on_translate(va, r, o);
        };
        t.write = [](void *u, uint64_t pa, pmt_security pas, const uint8_t *bytes, size_t n,
                     size_t *done) {
            return static_cast<Rig *>(u)->on_write(pa, pas, bytes, n, done);
        };
        if (pmt_trbe_set_callbacks(pe, &t) != PMT_OK)
            violated("pmt_trbe_set_callbacks refused callbacks");
        pmt_ete_callbacks e{};
        e.user = this;
        e.timestamp = [](void *u, pmt_ete_timebase tb) -> uint64_t {
            static_cast<Rig *>(u)->rec(T_TIMESTAMP, static_cast<uint64_t>(tb));
            return 0x1234;
        };
        e.cycles = [](void *u) -> uint64_t {
            Rig *r = static_cast<Rig *>(u);
            r->rec(T_CYCLES, r->clock += 7);
            return r->clock;
        };
        if (pmt_ete_set_callbacks(pe, &e) != PMT_OK)
            violated("pmt_ete_set_callbacks refused callbacks");
        return true;
    }

    void on_translate(uint64_t va, const pmt_trbe_regime *r, pmt_trbe_translation *o)
    {
        rec(T_TRANSLATE, va,
            static_cast<uint64_t>(r->ss) | uint64_t{r->el} << 8 | uint64_t{r->nvm} << 16 |
                uint64_t{r->external} << 17);
        if (o->pa != va)
            violated("translate is not handed the identity", va, o->pa);
        if (mem.tmode == 2) {
            o->pa = va ^ mem.xorpa;
            return;
        }
        if (mem.tmode != 1 || (va >> 12) % (mem.tmod + 1u) != mem.trem)
            return;
        o->fault = mem.fault;
        // Stored through memcpy: the kind may be any int, also one pmt_trbe_fault_kind lacks.
        std::memcpy(&o->fault.kind, &mem.fault_kind, sizeof o->fault.kind);
        if (fault_is_complete(o->fault, r)) {
            stopped_in_op = true;
            stats.faults_stopping++;
        }
    }

    // A fault description with every field its kind needs (pmt_trbe.h), which therefore stops
    // collection (RQKLXR: a fault on a trace buffer write is a trace buffer management event).
    // A fault that stops collection: one the model takes (pmt_trbe.h, "What each fault kind
    // needs": trbe_fault_refused, the core's own rule, is the one source of truth) and whose kind
    // this check knows to stop it.
    bool fault_is_complete(const pmt_trbe_fault &given, const pmt_trbe_regime *regime) const
    {
        if (trbe_fault_refused(&given, regime))
            return false;
        const pmt_trbe_fault &f = mem.fault;
        bool stage_ok = f.stage == 1 || f.stage == 2;
        switch (mem.fault_kind) {
        case PMT_TRBE_FAULT_ADDRESS_SIZE:
        case PMT_TRBE_FAULT_TRANSLATION:
        case PMT_TRBE_FAULT_GPF_WALK: return stage_ok && f.level >= -2 && f.level <= 3;
        case PMT_TRBE_FAULT_EXTERNAL_WALK:
            return stage_ok && f.level >= -2 && f.level <= 3 && cfg.trbe.walk_abort_as_fault;
        case PMT_TRBE_FAULT_ACCESS_FLAG:
        case PMT_TRBE_FAULT_PERMISSION: return stage_ok && f.level >= 0 && f.level <= 3;
        default: return false; // the others' required fields are left to the header's work
        }
    }

    // TRBSR_ELel holds a Manual Stop event (EC 0, BSC 0b000011) this operation raised: its S was
    // 0 when the operation started (the event goes to the Exception level the unit's events go
    // to, trbe_default_el: TRBSR_EL3 with FEAT_TRBE_EXC and MDCR_EL3.TRBEE 0b11).
    bool manual_stop_drain(unsigned el) const
    {
        return stop_event_in_op(el, PMT_TRBSR_BSC_MANUAL_STOP);
    }
    // The errata of the wrap (docs/choices.md "Errata"): after the Fill mode wrap this operation
    // made, which stops collection, erratum_fill_overwrite writes up to
    // erratum_fill_overwrite_bytes more bytes from the Base pointer, and
    // erratum_write_out_of_range up to 64 at the Limit pointer.
    bool wrap_erratum(unsigned el) const
    {
        return (cfg.trbe.erratum_fill_overwrite || cfg.trbe.erratum_write_out_of_range) &&
               stop_event_in_op(el, PMT_TRBSR_BSC_FULL);
    }
    bool stop_event_in_op(unsigned el, unsigned bsc) const
    {
        const uint64_t sr = pe->st.trbe.sr[el];
        return !stopped_at_op_start[el] && PMT_GET(TRBSR, EC, sr) == PMT_TRBSR_EC_OTHER &&
               (PMT_GET(TRBSR, MSS, sr) & 0x3F) == bsc; // MSS.BSC
    }

    pmt_trbe_write_result on_write(uint64_t pa, pmt_security pas, const uint8_t *bytes, size_t n,
                                   size_t *done)
    {
        rec(T_WRITE, pa, n | static_cast<uint64_t>(pas) << 32);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum = sum * 31 + bytes[i];
        rec(T_WRITE, sum);
        const pmt_trbe_regs &t = pe->st.trbe;
        // The buffer is [TRBBASER_EL1.BASE:Zeros(12), TRBLIMITR_EL1.LIMIT:Zeros(12)) (D6.4): with a
        // sane buffer and an identity memory port every byte written is inside it. Checked when
        // the buffer registers are those the operation started with.
        stats.writes++;
        if (sane && mem.tmode != 2)
            stats.writes_bounded++;
        // With erratum_write_out_of_range, up to 64 bytes at the Limit pointer after a wrap.
        const bool out_of_range_erratum =
            cfg.trbe.erratum_write_out_of_range && pa >= limit && pa + n <= limit + 64;
        if (sane && (mem.tmode != 2) && base == (t.baser & ~uint64_t{0xFFF}) &&
            limit == (t.limitr & ~uint64_t{0xFFF}) && (pa < base || pa + n > limit || n == 0) &&
            !(out_of_range_erratum && n != 0))
            violated("trace buffer write outside [TRBBASER, TRBLIMITR)", pa, n);
        // Nothing is written while collection is stopped (TraceBufferRunning(), RYMVZL):
        // TRBSR_EL1.S, and TRBSR_EL3.S where MDCR_EL3.TRBEE is 0b1x with FEAT_TRBE_EXC in
        // self-hosted mode. (TRBSR_EL2.S, behind EffectiveTRFCR_EL2_EE, is not checked.)
        // The one exception: a Manual Stop event raised in this operation, after which the unit
        // writes the data it had accepted (RWMPMV).
        if (PMT_GET(TRBSR, S, t.sr[1]) && !manual_stop_drain(1) && !wrap_erratum(1))
            violated("trace buffer write while TRBSR_EL1.S is 1", pa, t.sr[1]);
        if (cfg.trbe.feat_trbe_exc && cfg.have_el3 && !pe->st.pe.self_hosted_trace_disabled &&
            PMT_GET(MDCR_EL3, TRBEE, pe->st.mdcr_el3) >= 2 && PMT_GET(TRBSR, S, t.sr[3]) &&
            !manual_stop_drain(3) && !wrap_erratum(3))
            violated("trace buffer write while TRBSR_EL3.S is 1", pa, t.sr[3]);
        // ... nor after a fault or a reported abort stopped it within the same operation.
        if (stopped_in_op)
            violated("trace buffer write after a fault or abort stopped collection", pa, n);
        nwrites++;
        if (mem.wmode != 0 && nwrites % (mem.wevery + 1u) == 0) {
            *done = std::min<size_t>(mem.wdone, n);
            if (mem.wmode == 1 && cfg.trbe.ext_abort == PMT_TRBE_EA_REPORT_SYNC)
                stopped_in_op = true;
            return mem.wmode == 1 ? PMT_TRBE_WRITE_ABORT_SYNC : PMT_TRBE_WRITE_ABORT_ASYNC;
        }
        *done = n;
        return PMT_TRBE_WRITE_OK;
    }

    // Before each operation: the buffer it starts with.
    void begin_op()
    {
        stopped_in_op = false;
        const pmt_trbe_regs &t = pe->st.trbe;
        for (unsigned el = 1; el <= 3; el++)
            stopped_at_op_start[el] = PMT_GET(TRBSR, S, t.sr[el]);
        base = t.baser & ~uint64_t{0xFFF};
        limit = t.limitr & ~uint64_t{0xFFF};
        uint64_t unit = uint64_t{1} << cfg.trbe.align;
        sane = cfg.trbe.feat_trbe && base < limit && t.ptr >= base && t.ptr < limit &&
               (t.ptr & (unit - 1)) == 0;
    }

    // After each operation.
    void check() const { check_pmuirq(); }

    // PMUIRQ (D13.3.1, CheckForPMUOverflow and CheckPMUOverflowCondition(IRQ) in J1.3): high
    // exactly when PMUInterruptEnabled() and some implemented counter has PMOVSSET and PMINTENSET
    // set and its global enable is 1 - PMCR_EL0.E for the cycle counter, the instruction counter
    // and event counters below the Effective HPMN; MDCR_EL2.HPME from there to EPMN; PMCCR.EPME
    // above (FEAT_PMUv3_EXTPMN). The CTI overflow trigger is the same condition without
    // PMUInterruptEnabled(). The ranges' bounds (EffectiveHPMN, EffectiveEPMN, with their
    // CONSTRAINED UNPREDICTABLE choices, docs/choices.md) and PMUInterruptEnabled() (FEAT_EBEP's
    // PMEE fields) are taken from the model; the rest is read from the registers.
    void check_pmuirq() const
    {
        const pmt_pmu_regs &r = pe->st.pmu;
        unsigned n = cfg.num_counters;
        unsigned hpmn = pmu_effective_hpmn(pe), epmn = pmu_effective_epmn(pe);
        bool e = r.pmcr & 1, hpme = PMT_GET(MDCR_EL2, HPME, pe->st.mdcr_el2) != 0,
             epme = PMT_GET(PMCCR, EPME, r.pmccr) != 0;
        uint64_t pending = r.ovs & r.inten;
        bool cond = false;
        for (unsigned i = 0; i < n; i++)
            if (pending >> i & 1)
                cond = cond || (i < hpmn ? e : i < epmn ? hpme : epme);
        if (pending >> PMT_CYCLE_COUNTER_ID & 1)
            cond = cond || e;
        if (cfg.feat_icntr && (pending >> PMT_INSTRUCTION_COUNTER_ID & 1))
            cond = cond || e;
        bool expect_irq = cond && pmu_interrupt_enabled(pe);
        stats.irq_high += expect_irq;
        if (irq != expect_irq)
            violated("PMUIRQ differs from PMOVSSET & PMINTENSET & the enables", irq, r.ovs);
        if (cti != cond)
            violated("CTI PMU overflow trigger differs from the overflow condition", cti, r.ovs);
    }

    // Everything a caller can observe without side effects, for comparing two models.
    void observe()
    {
        rec(T_RESULT, pmt_pmu_irq_level(pe), pmt_pmu_cti_level(pe));
        rec(T_RESULT, pmt_trbe_irq_level(pe));
        pmt_trbe_status s{};
        if (pmt_trbe_get_status(pe, &s) == PMT_OK) {
            rec(T_RESULT,
                uint64_t{s.enabled} | uint64_t{s.running} << 1 | uint64_t{s.self_hosted} << 2 |
                    uint64_t{s.flush_pending} << 3,
                s.buffered);
            rec(T_RESULT, s.headroom);
        }
        pmt_pmu_exception_state x{};
        if (pmt_pmu_exception_get(pe, &x) == PMT_OK)
            rec(T_RESULT,
                uint64_t{x.enabled} | uint64_t{x.masked} << 1 | uint64_t{x.irq_enabled} << 2 |
                    uint64_t{x.pending} << 3 | uint64_t{x.ppend} << 4 | uint64_t{x.sync_due} << 5,
                x.target_el);
        pmt_pmu_snapshot ss{};
        if (pmt_pmu_snapshot_get(pe, &ss) == PMT_OK) {
            uint64_t h = ss.pmccntsvr ^ ss.pmicntsvr << 1 ^ ss.pmsscr << 2;
            for (uint64_t v : ss.pmevcntsvr)
                h = h * 33 + v;
            rec(T_RESULT, h, uint64_t{ss.enabled} | uint64_t{ss.allowed} << 1);
        }
    }
};

// ----------------------------------------------------------------------------------------------
// Operations

enum Op : uint8_t {
    OP_STATE,
    OP_STATE_RAW,
    OP_MRS,
    OP_MSR,
    OP_MSR_HIGH,
    OP_COUNT,
    OP_CYCLES,
    OP_RETIRE,
    OP_EXC_ENTRY,
    OP_EXC_RETURN,
    OP_DEBUG_ENTRY,
    OP_DEBUG_EXIT,
    OP_SNAPSHOT_REQUEST,
    OP_PC_SAMPLE,
    OP_SPE,
    OP_PMU_FRAME,
    OP_DEBUG_FRAME,
    OP_TRBE_FRAME,
    OP_TRBE_PROGRAM,
    OP_TRACE,
    OP_TRIGGER,
    OP_CSYNC,
    OP_FLUSH_COMPLETE,
    OP_EXT_ABORT,
    OP_IMPDEF,
    OP_MEMPORT,
    OP_FORK,
    OP_RESET,
    OP_QUERY,
    OP_PMU_PROGRAM,
    OP_CONTEXT_SYNC,
    OP_ETE_PROGRAM,
    OP_ETE_RANGE,
    OP_ETE_EXCEPTION,
    OP_ETE_CONTEXT,
    OP_ETE_FLUSH,
    OP_COUNT_OF_OPS
};

static const Op mix_all[] = {OP_STATE,
                             OP_STATE_RAW,
                             OP_MRS,
                             OP_MSR,
                             OP_MSR_HIGH,
                             OP_COUNT,
                             OP_CYCLES,
                             OP_RETIRE,
                             OP_EXC_ENTRY,
                             OP_EXC_RETURN,
                             OP_DEBUG_ENTRY,
                             OP_DEBUG_EXIT,
                             OP_SNAPSHOT_REQUEST,
                             OP_PC_SAMPLE,
                             OP_SPE,
                             OP_PMU_FRAME,
                             OP_DEBUG_FRAME,
                             OP_TRBE_FRAME,
                             OP_TRBE_PROGRAM,
                             OP_TRACE,
                             OP_TRIGGER,
                             OP_CSYNC,
                             OP_FLUSH_COMPLETE,
                             OP_EXT_ABORT,
                             OP_IMPDEF,
                             OP_MEMPORT,
                             OP_FORK,
                             OP_RESET,
                             OP_QUERY,
                             OP_MSR,
                             OP_COUNT,
                             OP_MRS,
                             OP_PMU_PROGRAM,
                             OP_CONTEXT_SYNC,
                             OP_ETE_PROGRAM,
                             OP_ETE_RANGE,
                             OP_ETE_RANGE,
                             OP_ETE_EXCEPTION,
                             OP_ETE_CONTEXT,
                             OP_ETE_FLUSH};
static const Op mix_pe[] = {
    OP_STATE,         OP_STATE_RAW,   OP_MRS,         OP_MSR,        OP_MSR,
    OP_MSR_HIGH,      OP_COUNT,       OP_COUNT,       OP_CYCLES,     OP_RETIRE,
    OP_EXC_ENTRY,     OP_EXC_RETURN,  OP_DEBUG_ENTRY, OP_DEBUG_EXIT, OP_SNAPSHOT_REQUEST,
    OP_PC_SAMPLE,     OP_SPE,         OP_FORK,        OP_QUERY,      OP_MRS,
    OP_PMU_PROGRAM,   OP_PMU_PROGRAM, OP_ETE_PROGRAM, OP_ETE_RANGE,  OP_ETE_RANGE,
    OP_ETE_EXCEPTION, OP_ETE_CONTEXT};
static const Op mix_frames[] = {
    OP_PMU_FRAME, OP_PMU_FRAME, OP_DEBUG_FRAME, OP_TRBE_FRAME, OP_TRBE_FRAME, OP_STATE,
    OP_STATE_RAW, OP_MSR,       OP_MSR_HIGH,    OP_COUNT,      OP_PC_SAMPLE,  OP_FORK,
    OP_QUERY,     OP_TRACE,     OP_MRS,         OP_PMU_FRAME,  OP_PMU_PROGRAM};
static const Op mix_trbe[] = {OP_TRBE_PROGRAM, OP_TRBE_PROGRAM, OP_TRACE,        OP_TRACE,
                              OP_TRACE,        OP_TRIGGER,      OP_CSYNC,        OP_FLUSH_COMPLETE,
                              OP_EXT_ABORT,    OP_IMPDEF,       OP_MEMPORT,      OP_MEMPORT,
                              OP_MSR,          OP_MSR_HIGH,     OP_MRS,          OP_STATE,
                              OP_STATE_RAW,    OP_TRBE_FRAME,   OP_FORK,         OP_COUNT,
                              OP_QUERY,        OP_EXC_ENTRY,    OP_CONTEXT_SYNC, OP_ETE_PROGRAM,
                              OP_ETE_RANGE,    OP_ETE_RANGE,    OP_ETE_RANGE,    OP_ETE_EXCEPTION,
                              OP_ETE_FLUSH};

template <size_t N> static Op pick(const Op (&ops)[N], uint8_t b)
{
    return ops[b % N];
}

// A decoded operation: the same on both models.
struct Decoded {
    Op op = OP_QUERY;
    uint64_t a = 0, b = 0, c = 0, d = 0, e = 0;
    pmt_pe_state st{};
    pmt_pc_sample smp{};
    pmt_sysreg enc{};
    MemScript mem;
    struct Prog {
        bool firmware;
        uint64_t mdcr3, mdcr2;
        uint8_t el;
        uint64_t base, limit, ptr, trg, trfcr;
    } prog{};
};

static pmt_sysreg any_encoding(Input &in)
{
    uint8_t sel = in.u8();
    if (sel & 3) { // one of the model's own (PMT_SYSREG_LIST and the families)
        pmt_reg_ref r;
        r.id = static_cast<pmt_reg_id>(1 + in.u8() % (PMT_REG_COUNT_ - 1));
        r.index = in.u8() % 34;
        return pmt_sysreg_encode(r);
    }
    return PMT_SYSREG(in.u8() & 3, in.u8() & 7, in.u8() & 15, in.u8() & 15, in.u8() & 7);
}

static pmt_pe_state state_of(Input &in, const pmt_pe_config &cfg, bool raw)
{
    pmt_pe_state s{};
    uint8_t a = in.u8();
    if (!raw) { // biased to states that exist in this config
        unsigned top = cfg.have_el3 ? 3 : cfg.have_el2 ? 2 : 1;
        s.el = static_cast<uint8_t>(a % (top + 1));
        static const pmt_security ss[] = {PMT_SS_NONSECURE, PMT_SS_SECURE, PMT_SS_REALM,
                                          PMT_SS_ROOT};
        s.ss = s.el == 3 ? (cfg.have_rme ? PMT_SS_ROOT : PMT_SS_SECURE)
                         : ss[(a >> 2) % (cfg.have_rme   ? 3
                                          : cfg.have_el3 ? 2
                                                         : 1)];
        s.el2_enabled = cfg.have_el2 && (a & 0x10) == 0;
        s.scr_ns = s.ss == PMT_SS_NONSECURE || s.ss == PMT_SS_REALM;
        s.scr_nse = s.ss == PMT_SS_REALM;
        uint8_t f = in.u8();
        s.hcr_e2h = f & 1;
        s.hcr_tge = (f & 2) && s.el2_enabled;
        s.pm = f & 4;
        s.debug = (f & 0xF8) == 0x08;
        return s;
    }
    uint32_t f = in.u32();
    s.el = a & 7;
    s.ss = static_cast<pmt_security>(a >> 3 & 3);
    auto bit = [&](unsigned n) { return (f >> n & 1) != 0; };
    s.debug = bit(0);
    s.el2_enabled = bit(1);
    s.hcr_tge = bit(2);
    s.hcr_e2h = bit(3);
    s.pm = bit(4);
    s.streaming = bit(5);
    s.os_lock = bit(6);
    s.double_lock = bit(7);
    s.powered_down = bit(8);
    s.noninvasive_debug_prohibited = bit(9);
    s.edscr_sc2 = bit(10);
    s.scr_ns = bit(11);
    s.scr_nse = bit(12);
    s.scr_eel2 = bit(13);
    s.scr_ea = bit(14);
    s.scr_gpf = bit(15);
    s.hcr_tea = bit(16);
    s.hcr_gpf = bit(17);
    s.self_hosted_trace_disabled = bit(18);
    s.aarch32_els = static_cast<uint8_t>(f >> 19 & 0x1F);
    s.ext_invasive_prohibited = static_cast<uint8_t>(f >> 24 & 0x1F);
    s.cpacr_tta = bit(29);
    s.cptr_el2_tta = bit(30);
    s.cptr_el3_tta = bit(31);
    return s;
}

static uint16_t any_event(Input &in)
{
    uint8_t sel = in.u8();
    switch (sel & 3) {
    case 0: return sel >> 2;                                 // 0x00..0x3F
    case 1: return static_cast<uint16_t>(0x4000 | sel >> 2); // 0x4000..
    case 2: return static_cast<uint16_t>(0x8000 | in.u8());  // IMPLEMENTATION DEFINED
    default: return in.u16();
    }
}

static unsigned any_size(Input &in)
{
    static const unsigned sizes[] = {4, 8, 4, 8, 0, 1, 2, 3, 16, 4, 8, 7};
    return sizes[in.u8() % 12];
}

static uint32_t any_offset(Input &in)
{
    uint16_t v = in.u16();
    return (v & 0x8000) ? v & 0x1FFF : v & 0xFFC; // mostly aligned, sometimes anything
}

static Decoded decode(Input &in, Mix mix, const pmt_pe_config &cfg)
{
    Decoded d;
    uint8_t k = in.u8();
    // 0xC0 + n is operation n whatever the mix (the seeds of make_seeds.py are written so).
    if (k >= 0xC0) {
        d.op = static_cast<Op>((k - 0xC0) % OP_COUNT_OF_OPS);
    } else
        switch (mix) {
        case Mix::All: d.op = pick(mix_all, k); break;
        case Mix::PeOps: d.op = pick(mix_pe, k); break;
        case Mix::Frames: d.op = pick(mix_frames, k); break;
        case Mix::Trbe: d.op = pick(mix_trbe, k); break;
        }
    switch (d.op) {
    case OP_STATE:
    case OP_EXC_ENTRY:
    case OP_DEBUG_ENTRY:
    case OP_DEBUG_EXIT:
        d.st = state_of(in, cfg, false);
        d.a = in.u8();
        break;
    case OP_STATE_RAW: d.st = state_of(in, cfg, true); break;
    case OP_EXC_RETURN:
        d.st = state_of(in, cfg, false);
        d.a = in.u8();
        d.b = in.value();
        break;
    case OP_MRS: d.enc = any_encoding(in); break;
    case OP_MSR:
    case OP_MSR_HIGH:
        d.enc = any_encoding(in);
        d.a = in.value();
        break;
    case OP_COUNT:
        d.a = any_event(in);
        d.b = in.value();
        break;
    case OP_CYCLES: d.a = in.value(); break;
    case OP_RETIRE:
        d.a = in.value();
        d.b = in.u8();
        break;
    case OP_PC_SAMPLE: {
        d.smp.pc = in.value();
        uint8_t f = in.u8();
        d.smp.el = f & 7;
        d.smp.ss = static_cast<pmt_security>(f >> 3 & 3);
        d.smp.aarch32 = f & 0x20;
        d.smp.el2_enabled = f & 0x40;
        d.smp.in_host = f & 0x80;
        d.smp.contextidr_el1 = in.u32();
        d.smp.contextidr_el2 = in.u32();
        d.smp.vttbr_vmid = in.u16();
        uint8_t g = in.u8();
        d.smp.el2_aarch32 = g & 1;
        d.smp.vtcr_vs = g & 2;
        break;
    }
    case OP_SPE: d.a = in.u8(); break;
    case OP_PMU_FRAME:
    case OP_DEBUG_FRAME:
    case OP_TRBE_FRAME:
        d.a = any_offset(in);
        d.b = any_size(in);
        d.c = in.u8(); // bit 0 write, bits 1-2 from, bit 3 memory-mapped
        d.d = in.value();
        break;
    case OP_TRBE_PROGRAM: {
        uint8_t f = in.u8(), shape = in.u8();
        auto &p = d.prog;
        p.firmware = f & 1;
        p.mdcr3 = PMT_PUT(MDCR_EL3, NSTB, (f & 2) ? 1 : 3) | PMT_PUT(MDCR_EL3, TRBEE, f >> 2 & 3) |
                  PMT_PUT(MDCR_EL3, NSTBE, 0);
        p.mdcr2 =
            PMT_PUT(MDCR_EL2, E2TB, (f & 0x10) ? 0 : 3) | PMT_PUT(MDCR_EL2, HPMN, cfg.num_counters);
        p.el = (f & 0x20) && cfg.have_el2 ? 2 : 1;
        uint64_t ram = 0x80000000;
        p.base = ram + uint64_t{in.u8()} * 0x1000;
        switch (shape & 3) {
        case 0: p.limit = p.base + (1 + in.u8() % 16) * uint64_t{0x1000}; break;
        case 1:
            p.limit = p.base;
            in.u8();
            break;                                                              // Limit == Base
        case 2: p.limit = p.base - (1 + in.u8() % 4) * uint64_t{0x1000}; break; // Limit < Base
        default: p.limit = in.value() & ~uint64_t{0xFFF}; break;
        }
        uint64_t unit = uint64_t{1} << cfg.trbe.align;
        uint16_t off = in.u16();
        switch (shape >> 2 & 3) {
        case 0: p.ptr = p.base + (off & 0x3FFF & ~(unit - 1)); break; // aligned, maybe inside
        case 1: p.ptr = p.base + (off & 0x3FFF); break;               // maybe misaligned
        case 2: p.ptr = p.limit + off; break;                         // at or past the limit
        default: p.ptr = in.value(); break;
        }
        static const uint8_t fm[] = {0, 1, 3, 2};
        p.limit |= PMT_PUT(TRBLIMITR, E, (shape & 0x10) == 0) |
                   PMT_PUT(TRBLIMITR, FM, fm[shape >> 5 & 3]) |
                   PMT_PUT(TRBLIMITR, TM, in.u8() & 3) |
                   PMT_PUT(TRBLIMITR, nVM, (shape & 0x80) != 0);
        p.trg = in.u8();
        p.trfcr = in.u8() & 0x63;
        break;
    }
    case OP_ETE_PROGRAM:         // TRCCONFIGR, TRCVICTLR, TRCSYNCPR, then TRCPRGCTLR
        d.a = in.u16() & 0x18C1; // BB, CCI, CID, VMID, TS, RS
        d.b = in.u8() & 1 ? 0x201 : in.u32();
        d.c = in.u8() % 24;
        d.d = in.u8() & 1;
        break;
    case OP_ETE_RANGE: { // mostly well-formed ranges in one page of code; a few of anything
        const uint8_t f = in.u8();
        const uint64_t code = 0x40000000;
        d.a = (f & 0xC0) ? code + uint64_t{in.u8()} * 4 : in.value();     // start
        d.b = (f & 0xC0) ? d.a + uint64_t{in.u8() % 8u} * 4 : in.value(); // last
        d.c = (f & 0x30) ? code + uint64_t{in.u8()} * 4 : in.value();     // next
        const uint8_t g = in.u8(); // bit 0: a batch (pmt_ete_report_ranges_held); 1-3: size - 1
        d.d = uint64_t{f & 0x0Fu} | uint64_t{g & 0x0Fu} << 4; // kind, taken; batch, size - 1
        d.e = in.u8() % 4 == 0 ? 2 + in.u16() % 300u : 1;     // count: repeated ranges
        break;
    }
    case OP_ETE_EXCEPTION:
        d.a = in.u8();                                                        // type
        d.b = 0x40000000 + uint64_t{in.u8()} * 4;                             // range start
        d.c = d.b + uint64_t{in.u8() % 8u} * 4 - (in.u8() % 16 == 0 ? 4 : 0); // preferred return
        break;
    case OP_ETE_CONTEXT:
        d.a = in.u32();
        d.b = in.u32();
        break;
    case OP_TRACE: {
        uint8_t s = in.u8();
        switch (s & 3) {
        case 0: d.a = s >> 2; break;                             // a few bytes
        case 1: d.a = static_cast<uint64_t>(s >> 2) << 6; break; // some units
        case 2: d.a = in.u16() & 0x3FFF; break;
        default: d.a = in.u16() + static_cast<uint64_t>((s & 4) ? 1 : 0); break; // up to 64 KiB
        }
        d.b = in.u8(); // content seed
        break;
    }
    case OP_EXT_ABORT: d.a = in.u8() % 4; break;
    case OP_IMPDEF:
        d.a = in.u16();
        d.b = in.u32();
        break;
    case OP_MEMPORT: {
        MemScript &m = d.mem;
        uint8_t f = in.u8();
        m.tmode = f % 3;
        m.tmod = in.u8() & 7;
        m.trem = in.u8() & 7;
        m.fault_kind = in.u8() % 14; // 12, 13 are not pmt_trbe_fault_kinds
        uint8_t g = in.u8();
        m.fault.stage = g & 3;
        m.fault.level = static_cast<int8_t>(static_cast<int>(g >> 2 & 7) - 3);
        m.fault.toplevel = g & 0x20;
        m.fault.assuredonly = g & 0x40;
        m.fault.overlay = g & 0x80;
        m.fault.dirtybit = f & 0x80;
        m.xorpa = uint64_t{in.u8()} << 12;
        m.wmode = (f >> 2) % 3;
        m.wevery = in.u8() & 15;
        m.wdone = in.u16() & 0x7FF;
        break;
    }
    case OP_QUERY: d.a = any_event(in); break;
    case OP_PMU_PROGRAM:
        d.a = in.u8();    // bit 0 PMCR.E, bit 1 MDCR_EL2.HPME, bit 2 HPMN = N / 2, bits 3-7 counter
        d.b = in.value(); // PMINTENSET
        d.c = any_event(in);
        d.d = in.u8(); // bit 0: the counter starts just below a 32-bit overflow, else 64-bit
        break;
    default: break;
    }
    return d;
}

// Runs one MSR or MRS at the highest Exception level, then returns to the state it found.
static pmt_access at_highest(Rig &r, pmt_sysreg enc, uint64_t *value, bool write)
{
    pmt_pe_state saved = pmt_pe_get_state(r.pe), s = saved;
    s.el = r.cfg.have_el3 ? 3 : r.cfg.have_el2 ? 2 : 1;
    s.ss = s.el == 3 && r.cfg.have_rme ? PMT_SS_ROOT : s.el == 3 ? PMT_SS_SECURE : s.ss;
    s.debug = false;
    pmt_status st = pmt_pe_set_state(r.pe, &s);
    r.rec(T_RESULT, static_cast<uint64_t>(st));
    pmt_access a =
        write ? pmt_pe_sysreg_write(r.pe, enc, *value) : pmt_pe_sysreg_read(r.pe, enc, value);
    r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(r.pe, &saved)));
    return a;
}

static void apply(Rig &r, const Decoded &d)
{
    pmt_pe *pe = r.pe;
    switch (d.op) {
    case OP_STATE:
    case OP_STATE_RAW: r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(pe, &d.st))); break;
    case OP_MRS: {
        uint64_t v = 0x5A5A;
        pmt_access a = pmt_pe_sysreg_read(pe, d.enc, &v);
        r.rec(T_RESULT, a, a == PMT_ACCESS_OK ? v : 0);
        break;
    }
    case OP_MSR: r.rec(T_RESULT, pmt_pe_sysreg_write(pe, d.enc, d.a)); break;
    case OP_MSR_HIGH: {
        uint64_t v = d.a;
        r.rec(T_RESULT, at_highest(r, d.enc, &v, true));
        break;
    }
    case OP_COUNT:
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pmu_count(pe, static_cast<uint16_t>(d.a), d.b)));
        break;
    case OP_CYCLES: r.rec(T_RESULT, static_cast<uint64_t>(pmt_pmu_cycles(pe, d.a))); break;
    case OP_RETIRE: {
        bool due = false;
        pmt_status s = pmt_pmu_retire(pe, d.a, d.b & 1, (d.b & 2) ? nullptr : &due);
        r.rec(T_RESULT, static_cast<uint64_t>(s), due);
        break;
    }
    case OP_EXC_ENTRY: {
        bool pp = false;
        pmt_status s = pmt_pmu_exception_entry(pe, (d.a & 1) ? nullptr : &d.st, &pp);
        r.rec(T_RESULT, static_cast<uint64_t>(s), pp);
        break;
    }
    case OP_EXC_RETURN: {
        bool due = false;
        pmt_status s = pmt_pmu_exception_return(pe, d.a & 1, &d.st, d.b, &due);
        r.rec(T_RESULT, static_cast<uint64_t>(s), due);
        break;
    }
    case OP_DEBUG_ENTRY: {
        bool pp = false;
        pmt_pe_state st = d.st;
        st.debug = true;
        pmt_status s = pmt_pmu_debug_entry(pe, d.a & 1, &st, &pp);
        r.rec(T_RESULT, static_cast<uint64_t>(s), pp);
        break;
    }
    case OP_DEBUG_EXIT: {
        pmt_pe_state st = d.st;
        st.debug = false;
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pmu_debug_exit(pe, d.a & 1, d.a & 2, &st)));
        break;
    }
    case OP_SNAPSHOT_REQUEST:
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pmu_snapshot_request(pe)));
        break;
    case OP_PC_SAMPLE: r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_pc_sample(pe, &d.smp))); break;
    case OP_SPE:
        r.rec(T_RESULT,
              static_cast<uint64_t>(pmt_pmu_set_spe_state(pe, d.a & 1, d.a & 2, d.a & 4)));
        break;
    case OP_PMU_FRAME:
    case OP_DEBUG_FRAME:
    case OP_TRBE_FRAME: {
        uint32_t off = static_cast<uint32_t>(d.a);
        unsigned size = static_cast<unsigned>(d.b);
        bool write = d.c & 1, mm = d.c & 8;
        pmt_security from = static_cast<pmt_security>(d.c >> 1 & 3);
        uint64_t v = 0x5A5A;
        pmt_ext_status s;
        if (d.op == OP_PMU_FRAME)
            s = write ? pmt_pmu_ext_write(pe, off, size, from, mm, d.d)
                      : pmt_pmu_ext_read(pe, off, size, from, mm, &v);
        else if (d.op == OP_DEBUG_FRAME)
            s = write ? pmt_debug_ext_write(pe, off, size, from, mm, d.d)
                      : pmt_debug_ext_read(pe, off, size, from, mm, &v);
        else
            s = write ? pmt_trbe_ext_write(pe, off, size, from, d.d)
                      : pmt_trbe_ext_read(pe, off, size, from, &v);
        r.rec(T_RESULT, s, !write && s == PMT_EXT_OK ? v : 0);
        break;
    }
    case OP_TRBE_PROGRAM: {
        const auto &p = d.prog;
        auto msr = [&](pmt_reg_id id, uint64_t v) {
            r.rec(T_RESULT, pmt_pe_sysreg_write(pe, pmt_sysreg_encode({id, 0}), v));
        };
        if (p.firmware) {
            uint64_t v = p.mdcr3;
            if (r.cfg.have_el3)
                r.rec(T_RESULT, at_highest(r, pmt_sysreg_encode({PMT_REG_MDCR_EL3, 0}), &v, true));
            v = p.mdcr2;
            if (r.cfg.have_el2) {
                pmt_pe_state saved = pmt_pe_get_state(pe), s = saved;
                s.el = 2;
                s.ss = PMT_SS_NONSECURE;
                s.el2_enabled = true;
                s.debug = false;
                r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(pe, &s)));
                msr(PMT_REG_MDCR_EL2, v);
                r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(pe, &saved)));
            }
        }
        // Software's sequence (docs/trbe.md): disable, program, clear TRBSR, enable.
        pmt_pe_state saved = pmt_pe_get_state(pe), s = saved;
        s.el = p.el;
        s.ss = PMT_SS_NONSECURE;
        s.el2_enabled = r.cfg.have_el2;
        s.debug = false;
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(pe, &s)));
        msr(PMT_REG_TRBLIMITR_EL1, 0);
        msr(PMT_REG_TRBBASER_EL1, p.base);
        msr(PMT_REG_TRBPTR_EL1, p.ptr);
        msr(PMT_REG_TRBSR_EL1, 0);
        msr(PMT_REG_TRBTRG_EL1, p.trg);
        msr(p.el == 2 ? PMT_REG_TRFCR_EL2 : PMT_REG_TRFCR_EL1, p.trfcr);
        msr(PMT_REG_TRBLIMITR_EL1, p.limit);
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_set_state(pe, &saved)));
        break;
    }
    case OP_TRACE: {
        static uint8_t bytes[65536 + 1];
        size_t n = static_cast<size_t>(d.a);
        for (size_t i = 0; i < n; i++)
            bytes[i] = static_cast<uint8_t>(d.b + i * 7);
        size_t acc = 0;
        pmt_status s = pmt_trbe_trace(pe, bytes, n, &acc);
        r.rec(T_RESULT, static_cast<uint64_t>(s), acc);
        break;
    }
    case OP_TRIGGER: r.rec(T_RESULT, static_cast<uint64_t>(pmt_trbe_detected_trigger(pe))); break;
    case OP_CSYNC: r.rec(T_RESULT, static_cast<uint64_t>(pmt_trbe_tsb_csync(pe))); break;
    case OP_CONTEXT_SYNC: r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_context_sync(pe))); break;
    case OP_ETE_PROGRAM: {
        auto msr = [&](pmt_reg_id id, uint64_t v) {
            r.rec(T_RESULT, pmt_pe_sysreg_write(pe, pmt_sysreg_encode({id, 0}), v));
        };
        msr(PMT_REG_TRCPRGCTLR, 0);
        msr(PMT_REG_TRCCONFIGR, d.a);
        msr(PMT_REG_TRCVICTLR, d.b);
        msr(PMT_REG_TRCSYNCPR, d.c);
        msr(PMT_REG_TRCTRACEIDR, 0x10);
        msr(PMT_REG_TRCPRGCTLR, d.d);
        break;
    }
    case OP_ETE_RANGE: {
        // As a CPU reports (platform/src/trace/ete_reporter.cpp): held when it can be, else at its
        // time. Alone, or (d.d bit 4) a batch of 1 to 8 runs of the range, each once: held up to
        // the first not held (pmt_ete_report_ranges_held), that one at its time, then on from
        // the next. A held report needs no time: it calls nothing out of the model (no
        // timestamp or cycles, no Trace Buffer Unit write, translation, interrupt or event) but a
        // log line (the filter derived again may name an UNPREDICTABLE programming or erratum
        // 2038923's stale view).
        const bool batch = (d.d & 16) != 0;
        const size_t m = batch ? 1 + ((d.d >> 5) & 7) : 1;
        pmt_ete_range rs[8];
        for (size_t k = 0; k < m; k++)
            rs[k] = {
                d.a, d.b, static_cast<pmt_ete_p0>(d.d & 7), (d.d & 8) != 0, d.c, m > 1 ? 1 : d.e};
        for (size_t i = 0; i < m; i++) {
            const size_t calls = r.out.size();
            pmt_ete_stats before{}, after{};
            (void)pmt_ete_get_stats(pe, &before);
            const size_t held = batch ? pmt_ete_report_ranges_held(pe, &rs[i], m - i)
                                      : pmt_ete_report_range_held(pe, &rs[i]);
            if (held) {
                for (size_t k = calls; k < r.out.size(); k += 3)
                    if (r.out[k] != T_LOG)
                        violated("a held report called out of the model", r.out[k]);
                (void)pmt_ete_get_stats(pe, &after);
                stats.held += held;
                stats.held_output += after.bytes != before.bytes;
            }
            r.rec(T_RESULT, held);
            i += held;
            if (i < m)
                r.rec(T_RESULT, static_cast<uint64_t>(pmt_ete_report_range(pe, &rs[i])));
        }
        break;
    }
    case OP_ETE_EXCEPTION: {
        const pmt_ete_exception_taken e{static_cast<pmt_ete_exception>(d.a), d.b, d.c};
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_ete_report_exception(pe, &e)));
        break;
    }
    case OP_ETE_CONTEXT:
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_ete_report_context_ids(
                            pe, static_cast<uint32_t>(d.a), static_cast<uint32_t>(d.b))));
        break;
    case OP_ETE_FLUSH: r.rec(T_RESULT, static_cast<uint64_t>(pmt_ete_flush(pe))); break;
    case OP_FLUSH_COMPLETE:
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_trbe_flush_complete(pe)));
        break;
    case OP_EXT_ABORT:
        r.rec(T_RESULT,
              static_cast<uint64_t>(pmt_trbe_external_abort(pe, static_cast<unsigned>(d.a))));
        break;
    case OP_IMPDEF:
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_trbe_impdef_event(pe, static_cast<uint16_t>(d.a),
                                                                    static_cast<uint32_t>(d.b))));
        break;
    case OP_MEMPORT: r.mem = d.mem; break;
    case OP_RESET: r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_reset(pe))); break;
    case OP_QUERY: {
        r.rec(T_RESULT, pmt_pmu_headroom(pe, static_cast<uint16_t>(d.a)));
        uint64_t d0 = 0, d1 = 0;
        r.rec(T_RESULT, static_cast<uint64_t>(pmt_pe_id_aa64dfr(pe, &d0, &d1)), d0 ^ d1 << 1);
        for (unsigned el = 0; el < 5; el++) {
            unsigned t = 9;
            r.rec(T_RESULT, pmt_trbe_exception_state(pe, el, &t), t);
        }
        pmt_pe_state s = pmt_pe_get_state(pe);
        r.rec(T_RESULT, s.el | uint64_t{s.el2_enabled} << 8, static_cast<uint64_t>(s.ss));
        r.rec(T_RESULT, pmt_trbe_trace_allowed(pe));
        r.observe();
        break;
    }
    case OP_PMU_PROGRAM: {
        // As a driver does at its highest EL: counter n counts the event everywhere, near its
        // overflow, with the cycle counter; PMINTENSET and the global enables from the input.
        unsigned n = r.cfg.num_counters ? static_cast<unsigned>(d.a >> 3) % r.cfg.num_counters : 0;
        uint64_t start = (d.d & 1) ? 0xFFFFFFF0u : ~uint64_t{0} - 16;
        auto msr = [&](pmt_reg_id id, uint64_t v, unsigned idx = 0) {
            r.rec(T_RESULT, at_highest(r, pmt_sysreg_encode({id, idx}), &v, true));
        };
        if (r.cfg.have_el2)
            msr(PMT_REG_MDCR_EL2,
                PMT_PUT(MDCR_EL2, HPMN, (d.a & 4) ? r.cfg.num_counters / 2 : r.cfg.num_counters) |
                    PMT_PUT(MDCR_EL2, HPME, d.a >> 1 & 1));
        if (r.cfg.num_counters) {
            msr(PMT_REG_PMEVTYPER_EL0, d.c | PMT_MASK(PMEVTYPER, NSH), n);
            msr(PMT_REG_PMEVCNTR_EL0, start, n);
        }
        msr(PMT_REG_PMCCFILTR_EL0, PMT_MASK(PMEVTYPER, NSH));
        msr(PMT_REG_PMCCNTR_EL0, start);
        msr(PMT_REG_PMINTENSET_EL1, d.b);
        msr(PMT_REG_PMCNTENSET_EL0, (uint64_t{1} << n) | (uint64_t{1} << PMT_CYCLE_COUNTER_ID));
        msr(PMT_REG_PMCR_EL0, PMT_PUT(PMCR, E, d.a & 1) | PMT_PUT(PMCR, LC, 1));
        break;
    }
    case OP_FORK:
    case OP_COUNT_OF_OPS: break; // run()
    }
}

// The saved state of a, restored into a new model with a's config and memory port.
static std::unique_ptr<Rig> fork(Rig &a)
{
    size_t size = pmt_pe_state_size(a.pe);
    std::vector<uint8_t> blob(size + 1);
    if (pmt_pe_save(a.pe, blob.data(), size - 1) != PMT_ERR_ARG)
        violated("pmt_pe_save accepted a short buffer");
    if (pmt_pe_save(a.pe, blob.data(), size) != PMT_OK)
        violated("pmt_pe_save failed");
    auto b = std::make_unique<Rig>();
    if (!b->create(a.cfg))
        violated("a config that created once does not create again");
    if (pmt_pe_restore(b->pe, blob.data(), size + 1) != PMT_ERR_STATE_BLOB)
        violated("pmt_pe_restore accepted a blob of the wrong size");
    if (pmt_pe_restore(b->pe, blob.data(), size) != PMT_OK)
        violated("pmt_pe_restore refused a state pmt_pe_save made");
    b->mem = a.mem;
    b->nwrites = a.nwrites;
    b->clock = a.clock;
    // The callbacks' levels: b reported its changes from reset; a its own.
    if (pmt_pmu_irq_level(b->pe) != a.irq || pmt_pmu_cti_level(b->pe) != a.cti)
        violated("restored output levels differ", pmt_pmu_irq_level(b->pe), a.irq);
    b->irq = a.irq;
    b->cti = a.cti;
    a.out.clear();
    b->out.clear();
    a.observe();
    b->observe();
    return b;
}

static void compare(Rig &a, Rig &b, const Decoded &d)
{
    a.observe();
    b.observe();
    if (a.out != b.out) {
        size_t i = 0;
        while (i < a.out.size() && i < b.out.size() && a.out[i] == b.out[i])
            i++;
        std::fprintf(stderr, "after operation %u: entry %zu of %zu/%zu differs\n",
                     static_cast<unsigned>(d.op), i, a.out.size(), b.out.size());
        violated("a restored model behaves differently from the saved one",
                 i < a.out.size() ? a.out[i] : 0, i < b.out.size() ? b.out[i] : 0);
    }
    a.out.clear();
    b.out.clear();
}

static void run_rig(Rig &a, Mix mix, Input &in)
{
    std::unique_ptr<Rig> b;
    for (unsigned steps = 0; !in.empty() && steps < 4096; steps++) {
        Decoded d = decode(in, mix, a.cfg);
        if (d.op == OP_FORK) {
            if (!b) {
                b = fork(a);
                stats.forks++;
            }
            continue;
        }
        stats.ops++;
        a.begin_op();
        apply(a, d);
        a.check();
        if (b) {
            b->begin_op();
            apply(*b, d);
            b->check();
            compare(a, *b, d);
            stats.compared++;
        } else {
            a.out.clear();
        }
    }
}

void run(const pmt_pe_config &cfg, Mix mix, Input &in)
{
    Rig a;
    if (!a.create(cfg))
        return;
    a.check();
    run_rig(a, mix, in);
}

// A byte of one field of a saved state, every field as likely as any other however big (a blob
// is a header of 8 bytes, then each field of c-core/src/pe/state.c's description in its order).
static size_t field_byte(Input &in)
{
    size_t n = 0;
    const pe_field *f = pe_state_fields(&n);
    const size_t k = in.u16() % n;
    size_t at = 8;
    for (size_t i = 0; i < k; i++)
        at += f[i].size;
    return at + in.u16() % f[k].size;
}

void run_restore(Input &in)
{
    pmt_pe_config cfg = config_preset(in);
    Rig a;
    if (!a.create(cfg))
        return;
    // A short program makes a state worth saving.
    size_t prefix = in.u8() % 64;
    std::vector<uint8_t> head;
    for (size_t i = 0; i < prefix; i++)
        head.push_back(in.u8());
    Input hin(head.data(), head.size());
    run_rig(a, Mix::All, hin);
    size_t size = pmt_pe_state_size(a.pe);
    std::vector<uint8_t> blob(size);
    if (pmt_pe_save(a.pe, blob.data(), size) != PMT_OK)
        violated("pmt_pe_save failed");
    // Mutations: flip bits or overwrite bytes, anywhere or in a field chosen by its place in the
    // description, or take the input as the blob.
    uint8_t how = in.u8();
    if ((how & 3) == 3) {
        size_t n = 0;
        const uint8_t *p = in.rest(&n);
        blob.assign(p, p + n);
        if (how & 4) // keep the header so the rest is looked at
            for (size_t i = 0; i < 8 && i < n; i++) {
                uint8_t good[8];
                std::vector<uint8_t> tmp(size);
                pmt_pe_save(a.pe, tmp.data(), size);
                std::memcpy(good, tmp.data(), 8);
                blob[i] = good[i];
            }
        if ((how & 8) && blob.size() < size)
            blob.resize(size, 0);
    } else {
        unsigned edits = 1 + (how >> 2) % 16;
        for (unsigned i = 0; i < edits && !in.empty(); i++) {
            const uint8_t kind = in.u8();
            const size_t at = (kind & 0x80) ? field_byte(in) : in.u32() % size;
            if (kind & 1)
                blob[at] ^= static_cast<uint8_t>(1u << (kind >> 1 & 7));
            else
                blob[at] = in.u8();
        }
        if ((how & 3) == 1)
            blob.resize(in.u16() % (size + 16));
    }
    pmt_status s = pmt_pe_restore(a.pe, blob.data(), blob.size());
    if (s != PMT_OK && s != PMT_ERR_STATE_BLOB)
        violated("pmt_pe_restore answered neither OK nor STATE_BLOB", static_cast<uint64_t>(s));
    if (s != PMT_OK)
        return;
    // A restore is a copy: the state taken, saved again, is the blob byte for byte (a state the
    // model would change on the way in is one no model of the config is in, and refused).
    std::vector<uint8_t> again(size);
    if (blob.size() != size || pmt_pe_save(a.pe, again.data(), size) != PMT_OK || again != blob)
        violated("a restored state saves as another blob");
    // A state restore accepted is a state the model works from: run the rest on it. The outputs'
    // levels follow from the restored registers, reported through the callbacks.
    a.irq = pmt_pmu_irq_level(a.pe);
    a.cti = pmt_pmu_cti_level(a.pe);
    a.check();
    run_rig(a, Mix::All, in);
}

} // namespace fuzz
