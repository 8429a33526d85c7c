#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/<harness>/: a few tiny programs per harness, each a
plain sequence of operations (fuzz_program.h). A kind byte 0xC0 + n is operation n of enum Op in
fuzz_program.cpp whatever the harness's mix; operands follow as decode() reads them.
Run: tests/fuzz/make_seeds.py (rewrites the corpus directories)."""
import base64
import os
import re
import struct
import subprocess
import tempfile

# enum Op in fuzz_program.cpp, in order.
OPS = ["STATE", "STATE_RAW", "MRS", "MSR", "MSR_HIGH", "COUNT", "CYCLES", "RETIRE", "EXC_ENTRY",
       "EXC_RETURN", "DEBUG_ENTRY", "DEBUG_EXIT", "SNAPSHOT_REQUEST", "PC_SAMPLE", "SPE",
       "PMU_FRAME", "DEBUG_FRAME", "TRBE_FRAME", "TRBE_PROGRAM", "TRACE", "TRIGGER", "CSYNC",
       "FLUSH_COMPLETE", "EXT_ABORT", "IMPDEF", "MEMPORT", "FORK", "RESET", "QUERY", "PMU_PROGRAM",
       "CONTEXT_SYNC", "ETE_PROGRAM", "ETE_RANGE", "ETE_EXCEPTION", "ETE_CONTEXT", "ETE_FLUSH"]


def op(name, *operands):
    return bytes([0xC0 + OPS.index(name)]) + b"".join(operands)


def u8(v): return struct.pack("<B", v)
def u16(v): return struct.pack("<H", v)
def u32(v): return struct.pack("<I", v)
def small(v): return u8(5) + u8(v)        # Input::value(): a small value
def ones(): return u8(1)                  # Input::value(): all ones
def below32(k): return u8(3) + u8(k)      # Input::value(): 0xFFFFFFFF - k
def word(v): return u8(6) + u32(v)        # Input::value(): a 32-bit value
def event(e): return u8(e << 2)           # any_event(): 0x00..0x3F


# config_preset(): preset (bits 0-1), no TRBE (2), TRBE_EXC (3), TRBE_EXT (4), Align (6-9),
# ext_abort (10-11: IGNORE, SERROR, REPORT_SYNC, REPORT_ASYNC), FEAT_ETE (19),
# erratum_ctxt_sync_after_enable (25), a 1 KiB trace unit buffer (26).
def preset(p=0, align=6, ea=1, no_trbe=False, ctxt_sync_erratum=False, ete=False,
           unit_buffer=False):
    return u32(p | (no_trbe << 2) | align << 6 | ea << 10 | ete << 19 | ctxt_sync_erratum << 25
               | unit_buffer << 26)


NS_EL1 = op("STATE", u8(0x01), u8(0), u8(0))  # Non-secure EL1, EL2 enabled
# PMU_PROGRAM: bit 0 PMCR.E, bit 1 HPME, bits 3-7 the counter; PMINTENSET; the event; start
PMU_ALL = op("PMU_PROGRAM", u8(0x03), ones(), event(0x08), u8(1))


def trbe_program(limit_shape=0, ptr_shape=0, fm=0, pages=4, off=0, enable=True, trfcr=0):
    # f: firmware (NSTB = 0b11, E2TB = 0b11) at EL1; shape: limit and pointer shapes, E, FM;
    # then TM, TRBTRG and TRFCR (bit 0 E0TRE, bit 1 E1TRE)
    shape = limit_shape | ptr_shape << 2 | (0 if enable else 0x10) | fm << 5
    return op("TRBE_PROGRAM", u8(0x01), u8(shape), u8(0x10), u8(pages), u16(off), u8(0),
              u8(0), u8(trfcr))


# ETE_PROGRAM: TRCCONFIGR (u16), TRCVICTLR 0x201 (u8 1), TRCSYNCPR.PERIOD (u8), TRCPRGCTLR.EN.
ETE_ON = op("ETE_PROGRAM", u16(0), u8(1), u8(8), u8(1))
ETE_ON_TS = op("ETE_PROGRAM", u16(0x800), u8(1), u8(8), u8(1))  # TRCCONFIGR.TS


# ETE_RANGE in the page of code at 0x40000000: instructions start..last (word indexes), then
# the P0 element (0 direct, 1 indirect), taken, going on at next; run once, or `batch` (1..8)
# times as one batch (pmt_ete_report_ranges_held).
def ete_range(start, last, kind, nxt, batch=0):
    g = 1 | (batch - 1) << 1 if batch else 0
    return op("ETE_RANGE", u8(0xF0 | 8 | kind), u8(start), u8(last - start), u8(nxt), u8(g),
              u8(1))


# A loop of a BR and a B: the range after the BR has an Address packet (held into the trace
# unit buffer when there is one).
ETE_LOOP = (ete_range(0, 1, 1, 0x10) + ete_range(0x10, 0x11, 0, 0)) * 8
# A loop of one B (to itself), eight runs a batch; then the BR and B loop.
ETE_BATCHES = ete_range(0x20, 0x21, 0, 0x20, batch=8) * 6 + ete_range(0x20, 0x21, 0, 0) \
    + ETE_LOOP


def trace(n, seed=0):
    return op("TRACE", u8(2), u16(n), u8(seed))


def memport(tmode=0, tmod=0, trem=0, kind=0, stage=1, level=3, wmode=0, wevery=0, wdone=0):
    return op("MEMPORT", u8(tmode | wmode << 2), u8(tmod), u8(trem), u8(kind),
              u8(stage | (level + 3) << 2), u8(0), u8(wevery), u16(wdone))


# fuzz_tlm (tests/fuzz/fuzz_tlm.cpp) has its own operations: a kind byte (bit 7 the model: 0
# EXT32 with the PC sample registers in the debug frame, 1 EXT64 with them in the PMU frame; bits
# 3-4 the socket; bits 0-2 the operation) and a transaction or a CPU operation.
TLM_SOCKETS = {"pmu": 0, "debug": 1, "trbe": 2}
TLM_OPS = {"b_transport": 0, "transport_dbg": 3, "get_dmi": 5, "cpu": 6}
TLM_CMD = {"read": 0, "write": 1, "ignore": 2, "unknown": 3}
# frame_register(): an index into its list of registers
TLM_REGS = {"MDCR_EL3": 0, "MDCR_EL2": 1, "PMCR_EL0": 2, "PMCNTENSET_EL0": 3}


def tlm_kind(model, socket, operation):
    return u8(model << 7 | TLM_SOCKETS[socket] << 3 | TLM_OPS[operation])


def tlm_tx(model, socket, operation, cmd, offset, length, data=b"", width=None, byte_enables=None,
           ext=None):
    """A transaction: a register offset (address mode 0), a length of 4 or 8 (mode 0), of 0..31
    bytes (mode 1) or of whole registers (mode 2), the streaming width equal to the length unless
    given as a mode byte, byte enables (a mode byte and its operands) and an access_extension
    (bit 0 present, bits 1-2 the Security state, bit 3 the external debug interface)."""
    if length in (4, 8):
        lb = u8(length // 8)
    elif length < 32:
        lb = u8(0x40 | length)
    else:
        lb = u8(0x80 | length // 4)
    payload = data.ljust(length, b"\0") if TLM_CMD[cmd] == 1 else b""
    return (tlm_kind(model, socket, operation) + u8(TLM_CMD[cmd]) + u8(0) + u16(offset) + lb
            + payload + u8(4 if width is None else width) + (byte_enables or u8(0))
            + u8(0 if ext is None else ext))


def tlm_msr(model, reg, value):
    return tlm_kind(model, "pmu", "cpu") + u8(0) + u8(TLM_REGS[reg]) + value


EXTERNAL_DEBUG = 0x09  # Non-secure, through the external debug interface (no software lock)
SECURE = 0x03          # Secure, memory-mapped


# config_any(): the fields it reads after the 64 feature bits, in its order, and how. A ranged
# field takes a byte below 0xF0 for a value in range (lo + byte % span) and 0xF3 + u32(v) for any
# value v, which pmt_pe_create must refuse when it is out of range.
CONFIG_ANY = (["version:u8", "num_counters:r", "common_events0:v", "common_events1:v",
               "pmcr_imp:u8", "pmcr_idcode:u8", "pmmir:v", "unattributable:r", "ext_layout:r",
               "mpidr:v", "pmiidr:u32", "part_number:r", "revision:r", "reserved_pmecr_pmee:r",
               "reserved_mdcr_el2_pmee:r", "reserved_mdcr_el3_pmee:r", "reserved_pmecr_sse:r",
               "sync_events:r", "num_sync_events:r"]
              + ["sync_event_list%d:u16" % i for i in range(16)]
              + ["sync_values:r", "va_bits:u8", "pcsr:r", "trbe.align:r", "trbe.pa_bits:r",
                 "trbe.ext_abort:r", "trbe.pad_byte:u8", "trbe.reserved_e2tb:r",
                 "trbe.reserved_trfcr_ee:r", "trbe.erratum_fill_overwrite_bytes:r",
                 "trbe.part_number:r", "trbe.revision:r", "ete.num_ac_pairs:r",
                 "ete.num_cid_comps:r", "ete.num_vmid_comps:r", "ete.num_rs_pairs:r",
                 "ete.num_ext_in_sel:r", "ete.num_counters:r", "ete.ccitmin:r", "ete.cc_size:r",
                 "ete.sync_period:r", "ete.num_claim_tags:r", "ete.designer:u8", "ete.revision:r", "ete.busy_write:r",
                 "ete.unit_buffer:u16"])


def config_any(features, **fields):
    """The bytes config_any() reads: the feature bits, then each field's given bytes (see
    in_range and out_of_range) or its smallest value in range (a zero byte)."""
    out = struct.pack("<Q", features & (1 << 64) - 1)
    for entry in CONFIG_ANY:
        name, how = entry.split(":")
        if name in fields:
            out += fields.pop(name)
        else:
            out += {"u8": u8(0), "r": u8(0), "v": u8(0), "u16": u16(0), "u32": u32(0)}[how]
    assert not fields, fields
    return out


def in_range(i): return u8(i)              # a ranged field: lo + i (i below its span)
def out_of_range(v): return u8(0xF3) + u32(v)  # a ranged field: any value


EL2_EL3 = 0x3
FEAT_TRBE = 1 << 25


# run_restore()'s edits of a saved state: a field by its index in the description of
# c-core/src/pe/state.c (counted here from that file, so the seeds name fields, not offsets),
# then a byte of it: flip a bit (kind bit 0 set, bits 1-3 the bit) or write a byte.
def state_fields():
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "c-core",
                            "src", "pe", "state.c")).read()
    table = src[src.index("state_fields[] = {"):]
    table = table[:table.index("};")]
    return re.findall(r"\b(?:F|R|A|AR|USED)\(([\w.]+)", table)


def prefix(program):
    assert len(program) < 64
    return u8(len(program)) + program


def field_flip(name, byte=0, bit=0):
    return u8(0x81 | bit << 1) + u16(state_fields().index(name)) + u16(byte)


def field_write(name, value, byte=0):
    return u8(0x80) + u16(state_fields().index(name)) + u16(byte) + u8(value)


SEEDS = {
    "fuzz_config": {
        # EL2 and EL3, PMUv3p7 (versions[6]), 6 counters, every other field at the smallest
        # value of its range, and a program
        "default": config_any(EL2_EL3, version=u8(6), num_counters=in_range(6)) + NS_EL1 + PMU_ALL
        + op("COUNT", event(8), small(40)),
        "all_features": config_any(~0, version=u8(8), num_counters=in_range(31)),
        "no_el2_el3": config_any(0, version=u8(6), num_counters=in_range(2)) + NS_EL1 + PMU_ALL
        + op("COUNT", event(8), below32(0)),
        # issue 27: trbe.align 130 without FEAT_TRBE was accepted, and a restore shifted by it
        # (pmt_pe_create must refuse it; a model made anyway is saved and restored at FORK)
        "trbe_align_130": config_any(EL2_EL3, version=u8(6), num_counters=in_range(6),
                                     **{"trbe.align": out_of_range(130)}) + NS_EL1 + op("FORK")
        + PMU_ALL + op("COUNT", event(8), small(40)),
        # the same class: the trace unit's fields out of range without FEAT_ETE
        "ete_fields_without_ete": config_any(EL2_EL3 | FEAT_TRBE, version=u8(6),
                                             num_counters=in_range(6),
                                             **{"ete.ccitmin": out_of_range(0),
                                                "ete.sync_period": out_of_range(64)})
        + NS_EL1 + op("FORK"),
    },
    "fuzz_pe_ops": {
        "overflow_irq": preset(0) + NS_EL1 + PMU_ALL + op("FORK") + op("COUNT", event(8), small(40))
        + op("QUERY", event(8)),
        "count_max": preset(1) + NS_EL1 + PMU_ALL + op("COUNT", event(8), ones()) + op("CYCLES", ones()),
        "exceptions": preset(1) + NS_EL1 + PMU_ALL + op("FORK") + op("COUNT", event(8), small(20))
        + op("RETIRE", small(0x40), u8(0)) + op("EXC_ENTRY", u8(0x02), u8(4), u8(0))
        + op("EXC_RETURN", u8(0x01), u8(0), u8(1), small(0x44)),
        "snapshot": preset(1) + NS_EL1 + op("SNAPSHOT_REQUEST") + op("PC_SAMPLE", small(8), u8(1),
                                                                     u32(0), u32(0), u16(0), u8(0)),
        "ete_unit_buffer": preset(0, ete=True, unit_buffer=True) + trbe_program(trfcr=3) + NS_EL1
        + ETE_ON + ETE_LOOP + op("FORK") + ETE_LOOP + op("CONTEXT_SYNC") + ETE_LOOP,
        "ete_timestamps": preset(0, ete=True, unit_buffer=True) + trbe_program(trfcr=3) + NS_EL1
        + ETE_ON_TS + ETE_LOOP + op("FORK") + ETE_LOOP * 4,
        "ete_batches": preset(0, ete=True, unit_buffer=True) + trbe_program(trfcr=3) + NS_EL1
        + ETE_ON_TS + ETE_BATCHES + op("FORK") + ETE_BATCHES,
    },
    "fuzz_frames": {
        "pmu_frame": preset(0) + op("PMU_FRAME", u16(0xE04), u8(0), u8(0x06), u8(0))
        + op("PMU_FRAME", u16(0xE04), u8(0), u8(0x07), small(1)) + op("FORK")
        + op("PMU_FRAME", u16(0xC00), u8(0), u8(0x06), u8(0)),
        "ext64": preset(1) + op("PMU_FRAME", u16(0x0), u8(1), u8(0x07), ones())
        + op("PMU_FRAME", u16(0x200), u8(0), u8(0x06), u8(0)),
        "debug_trbe": preset(2) + op("DEBUG_FRAME", u16(0x0A0), u8(0), u8(0), u8(0))
        + op("TRBE_FRAME", u16(0x000), u8(1), u8(0x07), word(0x80010000)),
    },
    "fuzz_trbe": {
        "fill": preset(0) + trbe_program() + trace(0x1000) + op("CSYNC") + op("QUERY", u8(0)),
        "ete": preset(0, ete=True, unit_buffer=True) + trbe_program(trfcr=3) + NS_EL1 + ETE_ON
        + ETE_LOOP + op("FORK") + ETE_LOOP + op("CSYNC") + op("ETE_FLUSH"),
        "wrap_fork": preset(0) + trbe_program(fm=1) + trace(0x300) + op("FORK") + trace(0x3F00)
        + op("TRIGGER") + op("CSYNC"),
        "fault": preset(0) + memport(tmode=1, kind=2) + trbe_program() + trace(256) + op("FORK")
        + trace(256),
        "abort": preset(0, ea=2) + memport(wmode=1, wevery=1, wdone=16) + trbe_program()
        + trace(1024),
        "limit_below_base": preset(0) + trbe_program(limit_shape=2, pages=1) + trace(512)
        + trbe_program(ptr_shape=1, off=0x123) + trace(512) + op("CSYNC"),
        # the erratum: enabled at EL1 where TRFCR_EL1 prohibits trace, one ISB, to EL0 (allowed)
        # with the view of EL1 kept; a fork mid-erratum; the second ISB ends it
        "ctxt_sync_erratum": preset(0, ctxt_sync_erratum=True) + trbe_program(trfcr=1)
        + op("CONTEXT_SYNC") + op("STATE", u8(0x00), u8(0), u8(0)) + op("QUERY", u8(0))
        + op("FORK") + op("QUERY", u8(0)) + op("CONTEXT_SYNC") + op("QUERY", u8(0)),
    },
    "fuzz_tlm": {
        # PMCR_EL0 written and read through the EXT32 PMU frame, past its software lock
        "pmu_write_read": tlm_tx(0, "pmu", "b_transport", "write", 0xE04, 4, u32(1),
                                 ext=EXTERNAL_DEBUG)
        + tlm_tx(0, "pmu", "b_transport", "read", 0xE04, 4, ext=EXTERNAL_DEBUG)
        + tlm_tx(0, "pmu", "transport_dbg", "read", 0xC00, 0x80, ext=EXTERNAL_DEBUG),
        # MDCR_EL3.EPMAD (bit 21) set at EL3, then Non-secure and Secure reads
        "epmad": tlm_msr(0, "MDCR_EL3", u8(2) + u8(21))
        + tlm_tx(0, "pmu", "b_transport", "read", 0xE04, 4, ext=EXTERNAL_DEBUG)
        + tlm_tx(0, "pmu", "b_transport", "read", 0xE04, 4, ext=EXTERNAL_DEBUG | 2),
        # the debug frame's PC sample registers, by b_transport and transport_dbg
        "debug_pcsr": tlm_tx(0, "debug", "b_transport", "read", 0x0A0, 4, ext=EXTERNAL_DEBUG)
        + tlm_tx(0, "debug", "transport_dbg", "read", 0x0A0, 16, ext=EXTERNAL_DEBUG),
        # EXT64: the cycle counter written in one 8-byte access; the Trace Buffer frame read by a
        # Secure access (MDCR_EL3.ETBAD is 0b00 out of reset)
        "ext64_trbe": tlm_tx(1, "pmu", "b_transport", "write", 0x0F8, 8, u32(0x1234) + u32(1))
        + tlm_tx(1, "trbe", "b_transport", "read", 0x000, 8, ext=SECURE)
        + tlm_tx(1, "trbe", "transport_dbg", "read", 0x000, 0x40, ext=SECURE),
        # odd shapes: streaming width 0, byte enables, 3 bytes, an unknown command, DMI
        "odd_shapes": tlm_tx(0, "pmu", "b_transport", "write", 0xE04, 4, u32(1), width=0)
        + tlm_tx(0, "pmu", "b_transport", "read", 0xE04, 4, byte_enables=u8(6) + u8(1))
        + tlm_tx(0, "pmu", "b_transport", "read", 0xE04, 3)
        + tlm_tx(1, "pmu", "b_transport", "unknown", 0xE04, 4)
        + tlm_tx(1, "debug", "get_dmi", "read", 0x0A0, 4),
    },
    # a prefix (its length, then a program), then `how` (bits 0-1: 3 the input as the blob, else
    # edits; bits 2-5: edits - 1) and the edits
    "fuzz_restore": {
        # MDCR_EL2.HPMN's bit 0 flipped
        "flip": preset(0) + prefix(NS_EL1 + PMU_ALL) + u8(0) + field_flip("mdcr_el2")
        + PMU_ALL + op("COUNT", event(8), small(40)),
        # the Trace Buffer Unit's write pointer made misaligned while it holds bytes
        "trbe_state": preset(0) + u8(24) + (trbe_program() + trace(100)).ljust(24, b"\0") + u8(0)
        + field_write("trbe.ptr", 0xFF) + trace(200) + op("CSYNC"),
        "bytes": preset(0) + u8(0) + u8(0x0F) + bytes(64),
        # issue 27: 175 in a bool of the trace unit's state (etr.flush_requested), which the
        # next report read (UBSan in ete_trace.c); pmt_pe_restore must refuse it
        "bool_175": preset(0, ete=True, unit_buffer=True) + prefix(trbe_program(trfcr=3) + NS_EL1
                                                                   + ETE_ON + ETE_LOOP[:14])
        + u8(0) + field_write("etr.flush_requested", 0xAF) + ETE_LOOP + op("ETE_FLUSH"),
    },
}

# fuzz_cpu: the flags byte (bit 0 MMU, bits 1-2 the Exception level: 0 EL1, 1 EL0, 2 EL2; bit 3
# a trace session), then A64 instructions, little-endian (fuzz_cpu.cpp).
def a64(*words): return b"".join(u32(w) for w in words)
def movz(d, imm, hw=0): return 0xD2800000 | hw << 21 | imm << 5 | d
def subs_imm(d, n, imm): return 0xF1000000 | imm << 10 | n << 5 | d
def b_ne(words_back): return 0x54000001 | ((-words_back) & 0x7FFFF) << 5
def ldr_x(t, n): return 0xF9400000 | n << 5 | t
def str_x(t, n): return 0xF9000000 | n << 5 | t
def strb(t, n): return 0x39000000 | n << 5 | t
def br(n): return 0xD61F0000 | n << 5
def svc(imm): return 0xD4000001 | imm << 5
def hvc(imm): return 0xD4000002 | imm << 5
def brk(imm): return 0xD4200000 | imm << 5
def sysreg(read, op1, crn, crm, op2, t):  # MRS/MSR with op0 3
    return 0xD5000000 | read << 21 | 1 << 20 | 1 << 19 | op1 << 16 | crn << 12 | crm << 8 \
        | op2 << 5 | t
UDF, NOP, ISB, WFI = 0x00000000, 0xD503201F, 0xD5033FDF, 0xD503207F
LOOP = a64(movz(0, 100), subs_imm(0, 0, 1), b_ne(1))
PMCR, PMCNTENSET, PMEVCNTR5, PMCCNTR = (3, 9, 12, 0), (3, 9, 12, 1), (3, 14, 8, 5), (3, 9, 13, 0)
SEEDS["fuzz_cpu"] = {
    "loop_el1": u8(0) + LOOP,
    "loop_el0_mmu": u8(3) + LOOP,
    "loop_el2": u8(4) + LOOP + a64(hvc(0), svc(1)),
    "trace_el1": u8(8) + LOOP + a64(br(30)),
    "memory_and_devices_mmu": u8(1) + a64(movz(1, 0x4030, 1), str_x(0, 1), ldr_x(2, 1),
                                          movz(3, 0x0900, 1), movz(4, 0x41), strb(4, 3),
                                          str_x(4, 3), ldr_x(5, 3)),
    "exceptions_el0": u8(2) + a64(UDF, svc(1), hvc(0), brk(7), sysreg(1, *PMCCNTR, 0), WFI, ISB),
    # PMCR_EL0.P (reset the counters EL1 may reset), all counters enabled, the reserved counter
    # written and read from EL1 (trapped to EL2: undefined here, so the handler goes on).
    "pmu_el1": u8(0) + a64(movz(0, 3), sysreg(0, *PMCR, 0), movz(1, 0xFFFF),
                           sysreg(0, *PMCNTENSET, 1), sysreg(0, *PMEVCNTR5, 1),
                           sysreg(1, *PMEVCNTR5, 2)) + LOOP,
    "fetch_outside": u8(0) + a64(movz(0, 0x1000), br(0)),
    # The campaign's first finding (a timeout under a loaded machine, not a model error): at EL0
    # with the MMU on, a loop of UNDEFINED instructions and SVCs, thousands of exceptions a run.
    "el0_mmu_exception_loop": base64.b64decode("A4AMgNIABAgBAQD/VNRkHNRkHAAAAABgICDoYAAI"),
}



# fuzz_cpu's self-hosted debug seeds (issue 36), written in assembly and assembled with the cross
# toolchain that builds fuzz_cpu (aarch64-linux-gnu-as, -objcopy; scripts/install-deps.sh). The
# flags: bit 4 debug on at boot (OS Lock unlocked, MDSCR_EL1.MDE and KDE, PSTATE.D clear), bit 5
# software step from the first instruction, bit 6 step over a Breakpoint or Watchpoint exception,
# bit 7 MDCR_EL2.TDE (entered at EL2); bits 1-2 3: an EL1 program under EL2 (cpu/boot.S).
def asm(text):
    with tempfile.TemporaryDirectory() as d:
        src, obj, binary = (os.path.join(d, n) for n in ("p.s", "p.o", "p.bin"))
        with open(src, "w") as f:
            f.write(text + "\n")
        subprocess.run(["aarch64-linux-gnu-as", "-o", obj, src], check=True)
        subprocess.run(["aarch64-linux-gnu-objcopy", "-O", "binary", "-j", ".text", obj, binary],
                       check=True)
        with open(binary, "rb") as f:
            return f.read()


DEBUG, STEP, STEP_OVER, TDE = 0x10, 0x20, 0x40, 0x80
EL1, EL0, EL2, EL1_UNDER_EL2 = 0, 2, 4, 6
# Issue 36's crash (Unicorn 2.0.1 crashed in its translated code): a hardware breakpoint on an
# instruction of the program (DBGBVR0_EL1, DBGBCR0_EL1 0x1E7: BAS 0b1111, PMC EL1 and EL0, E),
# MDSCR_EL1.MDE and KDE, then a branch to it; the program unlocks the OS Lock and clears PSTATE.D
# itself, so the breakpoint is taken from EL1 whatever the flags. At EL2, 0x61E7 (HMC 1, SSC
# 0b01: Non-secure EL2, EL1 and EL0).
def breakpoint_program(bcr): return asm(f"""
    msr oslar_el1, xzr
    adr x0, 1f
    msr dbgbvr0_el1, x0
    mov x1, #{bcr:#x}
    msr dbgbcr0_el1, x1
    mov x2, #0xA000             // MDSCR_EL1: MDE, KDE
    msr mdscr_el1, x2
    msr daifclr, #8
    isb
    b 1f
    udf #0
1:  add x3, x3, #1              // the Breakpoint exception (the handler goes on after it)
    add x4, x4, #1""")
BREAKPOINT_EL1, BREAKPOINT_EL2 = breakpoint_program(0x1E7), breakpoint_program(0x61E7)
# A breakpoint for EL0 only (0x1E5: PMC 0b10), EL1's ERET to EL0 code that branches to it.
BREAKPOINT_EL0 = asm("""
    adr x0, 2f
    msr dbgbvr0_el1, x0
    mov x1, #0x1E5
    msr dbgbcr0_el1, x1
    isb
    adr x0, 1f
    msr elr_el1, x0
    msr spsr_el1, xzr           // EL0t
    eret
1:  b 2f
    udf #0
2:  add x3, x3, #1
    add x4, x4, #1""")
# A store watchpoint on a doubleword on the stack (DBGWCR0_EL1 0x1FF7: BAS 0xFF, LSC store, PAC
# EL1 and EL0, E): a load is not watched, the store and the pair over it are, the store beside
# it is not.
WATCHPOINT_STACK = asm("""
    sub sp, sp, #16
    mov x0, sp
    msr dbgwvr0_el1, x0
    mov x1, #0x1FF7
    msr dbgwcr0_el1, x1
    isb
    mov x2, #0x5A
    ldr x3, [sp]
    str x2, [sp]
    str x2, [sp, #8]
    stp x2, x2, [sp]
    add sp, sp, #16""")
# Software step across an ERET to EL0 (MDSCR_EL1.SS, SPSR_EL1.SS): a loop, a BRK and a
# Load-Exclusive stepped at EL0. The program unlocks the OS Lock itself and keeps PSTATE.D set at
# EL1 (no debug flag), so EL1 is not stepped (its ELR_EL1 and SPSR_EL1 stay its own).
STEP_ERET_EL0 = asm("""
    msr oslar_el1, xzr
    mov x0, #0xA001             // MDSCR_EL1: MDE, KDE, SS
    msr mdscr_el1, x0
    adr x1, 1f
    msr elr_el1, x1
    mov x2, #(1 << 21)          // SPSR_EL1: EL0t, SS
    msr spsr_el1, x2
    eret
1:  mov x3, #3
2:  subs x3, x3, #1
    b.ne 2b
    brk #5
    adr x5, 1b
    ldxr x4, [x5]""")
# A breakpoint on a subroutine's first instruction, called with the OS Lock unlocked (an
# exception), locked again (OSLAR_EL1 = 1: none), unlocked, with the OS Double Lock (OSDLR_EL1 =
# 1: none), and without it.
OS_LOCK_RELOCK = asm("""
    adr x0, 9f
    msr dbgbvr0_el1, x0
    mov x1, #0x1E7
    msr dbgbcr0_el1, x1
    isb
    bl 9f
    mov x2, #1
    msr oslar_el1, x2
    isb
    bl 9f
    msr oslar_el1, xzr
    isb
    bl 9f
    msr osdlr_el1, x2
    isb
    bl 9f
    msr osdlr_el1, xzr
    isb
    bl 9f
    b 8f
9:  nop
    ret
8:  mrs x3, oslsr_el1""")
# Every DBGBCR0_EL1.BT value (0..15, LBN 4, BAS 0b1111, PMC 0b11, E) on the NOP of a loop;
# breakpoint 4 (context-aware) a linked Context ID match of CONTEXTIDR_EL1 0.
BCR_BT_LOOP = asm("""
    msr dbgbvr4_el1, xzr
    mov x1, #0x1E7
    movk x1, #0x30, lsl #16     // BT 0b0011
    msr dbgbcr4_el1, x1
    adr x0, 2f
    mov x24, #0
1:  msr dbgbvr0_el1, x0
    lsl x25, x24, #20
    orr x25, x25, #0x40000      // LBN 4
    movk x25, #0x1E7
    msr dbgbcr0_el1, x25
    isb
2:  nop
    add x24, x24, #1
    cmp x24, #16
    b.ne 1b
    msr dbgbcr0_el1, xzr
    msr dbgbcr4_el1, xzr""")
# DBGBCR0_EL1's PMC (x24<1:0>), HMC, SSC and LBN<2:0> (x24<7:2>) in every combination on the
# NOP of a loop (BT 0: unlinked address match).
BCR_FIELDS_LOOP = asm("""
    adr x0, 2f
    mov x23, #0x1E1             // BAS 0b1111, E
    mov x24, #0
1:  msr dbgbvr0_el1, x0
    lsr x25, x24, #2
    lsl x25, x25, #13
    bfi x25, x24, #1, #2
    orr x25, x25, x23
    msr dbgbcr0_el1, x25
    isb
2:  nop
    add x24, x24, #1
    cmp x24, #256
    b.ne 1b""")
# Every DBGWCR0_EL1.BAS value (LSC load and store, PAC EL1 and EL0) on a doubleword of the stack,
# each with a byte store at one of its bytes.
WCR_BAS_LOOP = asm("""
    sub sp, sp, #16
    mov x0, sp
    msr dbgwvr0_el1, x0
    mov x24, #0
1:  lsl x25, x24, #5
    orr x25, x25, #0x1F
    msr dbgwcr0_el1, x25
    isb
    and x1, x24, #7
    strb w24, [x0, x1]
    add x24, x24, #1
    cmp x24, #256
    b.ne 1b
    add sp, sp, #16""")
# At EL1 under EL2 with MDCR_EL2.TDE: BRK goes to EL2, the debug registers are trapped to EL2,
# an HVC, then a loop.
GUEST_TDE = asm("""
    brk #1
    msr dbgbvr0_el1, x0
    mrs x1, mdscr_el1
    msr mdscr_el1, xzr
    msr oslar_el1, xzr
    hvc #1
    mov x0, #100
1:  subs x0, x0, #1
    b.ne 1b""")
SEEDS["fuzz_cpu"].update({
    "debug_breakpoint_el1": u8(EL1) + BREAKPOINT_EL1,
    "debug_breakpoint_el1_trace": u8(EL1 | 8) + BREAKPOINT_EL1,
    "debug_breakpoint_el2_tde": u8(EL2 | DEBUG | TDE) + BREAKPOINT_EL2,
    "debug_breakpoint_under_el2": u8(EL1_UNDER_EL2 | DEBUG) + BREAKPOINT_EL1,
    "debug_breakpoint_el0_step_over": u8(EL1 | DEBUG | STEP_OVER) + BREAKPOINT_EL0,
    "debug_watchpoint_stack": u8(EL1 | DEBUG) + WATCHPOINT_STACK,
    "debug_watchpoint_stack_step_over_mmu": u8(EL1 | DEBUG | STEP_OVER | 1) + WATCHPOINT_STACK,
    "debug_step_eret_el0": u8(EL1) + STEP_ERET_EL0,
    "debug_step_el0_mmu": u8(EL0 | STEP | 1) + LOOP + a64(brk(3)),
    "debug_step_el1": u8(EL1 | STEP) + LOOP,
    "debug_step_el2_tde": u8(EL2 | STEP | TDE) + LOOP + a64(hvc(0)),
    "debug_step_under_el2_tde": u8(EL1_UNDER_EL2 | STEP | TDE) + LOOP,
    "debug_brk_el0": u8(EL0 | DEBUG) + a64(brk(1), brk(0xFFFF)),
    "debug_os_lock_relock": u8(EL1 | DEBUG) + OS_LOCK_RELOCK,
    "debug_bcr_bt_loop": u8(EL1 | DEBUG) + BCR_BT_LOOP,
    "debug_bcr_fields_loop": u8(EL1 | DEBUG | STEP_OVER) + BCR_FIELDS_LOOP,
    "debug_wcr_bas_loop": u8(EL1 | DEBUG) + WCR_BAS_LOOP,
    "debug_under_el2_tde": u8(EL1_UNDER_EL2 | DEBUG | TDE) + GUEST_TDE,
})

here = os.path.dirname(os.path.abspath(__file__))
for harness, seeds in SEEDS.items():
    d = os.path.join(here, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
