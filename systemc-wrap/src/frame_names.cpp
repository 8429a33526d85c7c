// frame_names.cpp - register names for the log lines of frame accesses (I5.2, I5.3, H9.2,
// H9.4).
#include "frame_names.h"

#include "pmtrace/systemc/log.h"

#include <cstdio>

namespace pmtrace
{

namespace
{

struct frame_register {
    pmt_reg_ref reg{PMT_REG_NONE, 0}; // a register of the PE's view, or PMT_REG_NONE
    const char *own = nullptr;        // the name of a register of the frame only
    unsigned half = 0;                // 1: bits [63:32] of a 64-bit register
};

frame_register pe_register(pmt_reg_id id, unsigned index, uint32_t offset, unsigned size)
{
    frame_register r;
    r.reg = {id, index};
    r.half = size == 4 && (offset & 4) ? 1 : 0;
    return r;
}

frame_register own_register(const char *name)
{
    frame_register r;
    r.own = name;
    return r;
}

pmt_reg_id control_register(uint32_t base)
{
    switch (base) {
    case 0xC00: return PMT_REG_PMCNTENSET_EL0;
    case 0xC20: return PMT_REG_PMCNTENCLR_EL0;
    case 0xC40: return PMT_REG_PMINTENSET_EL1;
    case 0xC60: return PMT_REG_PMINTENCLR_EL1;
    case 0xC80: return PMT_REG_PMOVSCLR_EL0;
    case 0xCC0: return PMT_REG_PMOVSSET_EL0;
    default: return PMT_REG_NONE;
    }
}

frame_register pc_sample_register(bool ext64, uint32_t offset)
{
    uint32_t at = offset & 0x1F;
    if (at < 0x08)
        return own_register("PMPCSR");
    if (ext64)
        return own_register(offset < 0x220 ? "PMVCIDSR" : "PMCCIDSR");
    if (at == 0x08)
        return own_register("PMCID1SR");
    return own_register(offset == 0x20C ? "PMVIDSR" : "PMCID2SR");
}

frame_register own_frame_register(uint32_t offset)
{
    static const char *const pidr[] = {"PMPIDR0", "PMPIDR1", "PMPIDR2", "PMPIDR3"};
    static const char *const cidr[] = {"PMCIDR0", "PMCIDR1", "PMCIDR2", "PMCIDR3"};
    static const char *const ceid[] = {"PMCEID0", "PMCEID1", "PMCEID2", "PMCEID3"};
    switch (offset & ~3u) {
    case 0xE00: return own_register("PMCFGR");
    case 0xE08: return own_register("PMIIDR");
    case 0xE50: return own_register("PMPCSCTL");
    case 0xE58: return own_register("PMCCR");
    case 0xFA8:
    case 0xFAC: return own_register("PMDEVAFF");
    case 0xFB0: return own_register("PMLAR");
    case 0xFB4: return own_register("PMLSR");
    case 0xFB8: return own_register("PMAUTHSTATUS");
    case 0xFBC: return own_register("PMDEVARCH");
    case 0xFC8: return own_register("PMDEVID");
    case 0xFCC: return own_register("PMDEVTYPE");
    case 0xFD0: return own_register("PMPIDR4");
    default: break;
    }
    if (offset >= 0xE20 && offset < 0xE30)
        return own_register(ceid[(offset - 0xE20) / 4]);
    if (offset >= 0xFE0 && offset < 0xFF0)
        return own_register(pidr[(offset - 0xFE0) / 4]);
    if (offset >= 0xFF0 && offset < 0x1000)
        return own_register(cidr[(offset - 0xFF0) / 4]);
    return {};
}

frame_register decode(const pmt_pe_config &c, uint32_t off, unsigned size)
{
    bool ext64 = c.ext_layout == PMT_EXT64;
    uint32_t base = off & ~7u;
    if (off < 0x0F8)
        return pe_register(PMT_REG_PMEVCNTR_EL0, off / 8, off, size);
    if (base == 0x0F8)
        return pe_register(PMT_REG_PMCCNTR_EL0, 0, off, size);
    if (base == 0x100)
        return pe_register(PMT_REG_PMICNTR_EL0, 0, off, size);
    if (off >= 0x200 && off < 0x230)
        return pc_sample_register(ext64, off);
    if (off >= 0x600 && off < 0x6F8)
        return pe_register(PMT_REG_PMEVCNTSVR_EL1, (off - 0x600) / 8, off, size);
    if (base == 0x6F8)
        return pe_register(PMT_REG_PMCCNTSVR_EL1, 0, off, size);
    if (base == 0x700)
        return pe_register(PMT_REG_PMICNTSVR_EL1, 0, off, size);
    if (base == 0xE30)
        return pe_register(PMT_REG_PMSSCR_EL1, 0, off, size);
    if (ext64 && off >= 0x400 && off < 0x508) {
        unsigned n = (off - 0x400) / 8;
        pmt_reg_id id = n < 31    ? PMT_REG_PMEVTYPER_EL0
                        : n == 31 ? PMT_REG_PMCCFILTR_EL0
                                  : PMT_REG_PMICFILTR_EL0;
        return pe_register(id, n < 31 ? n : 0, off, size);
    }
    if (!ext64 && ((off >= 0x400 && off < 0x484) || (off >= 0xA00 && off < 0xA84))) {
        unsigned n = (off & 0xFF) / 4;
        pmt_reg_id id = n < 31    ? PMT_REG_PMEVTYPER_EL0
                        : n == 31 ? PMT_REG_PMCCFILTR_EL0
                                  : PMT_REG_PMICFILTR_EL0;
        frame_register r = pe_register(id, n < 31 ? n : 0, off, size);
        r.half = off >= 0xA00;
        return r;
    }
    if (off >= 0xC00 && off < 0xCE0) {
        pmt_reg_id id = control_register(off & ~0x1Fu);
        if (id != PMT_REG_NONE && (off & 0x18) == 0)
            return pe_register(id, 0, off, size);
        if (base == 0xCA0)
            return ext64 || c.pmu_version >= PMT_PMUV3P9
                       ? pe_register(PMT_REG_PMZR_EL0, 0, off, size)
                       : pe_register(PMT_REG_PMSWINC_EL0, 0, off, size);
        if (base == 0xC10)
            return own_register("PMCNTEN");
        if (base == 0xC50)
            return own_register("PMINTEN");
        if (base == 0xC90)
            return own_register("PMOVS");
    }
    if (base == 0xCE0)
        return own_register("PMCGCR0");
    if (!ext64 && off == 0xE04)
        return pe_register(PMT_REG_PMCR_EL0, 0, 0xE00, size); // a 32-bit register in EXT32
    if (ext64 && base == 0xE10)
        return pe_register(PMT_REG_PMCR_EL0, 0, off, size);
    if (base == 0xE40)
        return pe_register(PMT_REG_PMMIR_EL1, 0, off, size);
    return own_frame_register(off);
}

std::string plain(const char *name, uint32_t offset, uint64_t value, bool write)
{
    char buf[96];
    if (name)
        std::snprintf(buf, sizeof buf, "%s %s 0x%llx", name, write ? "<=" : "=>",
                      static_cast<unsigned long long>(value));
    else
        std::snprintf(buf, sizeof buf, "0x%03x %s 0x%llx", static_cast<unsigned>(offset),
                      write ? "<=" : "=>", static_cast<unsigned long long>(value));
    return buf;
}

// The Trace Buffer frame (Table D6-4): the TRB*_EL1 registers at 0x000..0x037, then TRBCR and
// the CoreSight management registers.
frame_register decode_trbe(uint32_t off, unsigned size)
{
    static const pmt_reg_id regs[7] = {
        PMT_REG_TRBBASER_EL1, PMT_REG_TRBPTR_EL1, PMT_REG_TRBLIMITR_EL1, PMT_REG_TRBSR_EL1,
        PMT_REG_TRBTRG_EL1,   PMT_REG_TRBMAR_EL1, PMT_REG_TRBIDR_EL1};
    static const char *const pidr[] = {"TRBPIDR0", "TRBPIDR1", "TRBPIDR2", "TRBPIDR3",
                                       "TRBPIDR4", "TRBPIDR5", "TRBPIDR6", "TRBPIDR7"};
    static const char *const cidr[] = {"TRBCIDR0", "TRBCIDR1", "TRBCIDR2", "TRBCIDR3"};
    static const char *const devid[] = {"TRBDEVID2", "TRBDEVID1", "TRBDEVID"};
    if (off < 0x038)
        return pe_register(regs[off / 8], 0, off, size);
    switch (off & ~3u) {
    case 0x038:
    case 0x03C: return own_register("TRBCR");
    case 0xF00: return own_register("TRBITCTRL");
    case 0xFA8:
    case 0xFAC: return own_register("TRBDEVAFF");
    case 0xFB0: return own_register("TRBLAR");
    case 0xFB4: return own_register("TRBLSR");
    case 0xFB8: return own_register("TRBAUTHSTATUS");
    case 0xFBC: return own_register("TRBDEVARCH");
    case 0xFCC: return own_register("TRBDEVTYPE");
    default: break;
    }
    if (off >= 0xFC0 && off < 0xFCC)
        return own_register(devid[(off - 0xFC0) / 4]);
    if (off >= 0xFD0 && off < 0xFE0)
        return own_register(pidr[4 + (off - 0xFD0) / 4]);
    if (off >= 0xFE0 && off < 0xFF0)
        return own_register(pidr[(off - 0xFE0) / 4]);
    if (off >= 0xFF0 && off < 0x1000)
        return own_register(cidr[(off - 0xFF0) / 4]);
    return {};
}

std::string describe(const frame_register &r, uint32_t offset, uint64_t value, bool write)
{
    if (r.reg.id == PMT_REG_NONE)
        return plain(r.own, offset, value, write);
    if (r.half == 0)
        return format_access(r.reg, value, write);
    // The upper half of a 64-bit register: the name without fields.
    std::string name = format_access(r.reg, 0, write);
    name = name.substr(0, name.find(' '));
    return plain((name + "[63:32]").c_str(), offset, value, write);
}

} // namespace

std::string describe_pmu_frame_access(const pmt_pe_config &config, uint32_t offset, unsigned size,
                                      uint64_t value, bool write)
{
    return describe(decode(config, offset, size), offset, value, write);
}

std::string describe_trbe_frame_access(uint32_t offset, unsigned size, uint64_t value, bool write)
{
    return describe(decode_trbe(offset, size), offset, value, write);
}

std::string describe_debug_frame_access(uint32_t offset, uint64_t value, bool write)
{
    switch (offset) {
    case 0x0A0: return plain("EDPCSRlo", offset, value, write);
    case 0x0A4: return plain("EDCIDSR", offset, value, write);
    case 0x0A8: return plain("EDVIDSR", offset, value, write);
    case 0x0AC: return plain("EDPCSRhi", offset, value, write);
    case 0xFB0: return plain("EDLAR", offset, value, write);
    case 0xFB4: return plain("EDLSR", offset, value, write);
    default: return plain(nullptr, offset, value, write);
    }
}

} // namespace pmtrace
