/* regs.c - register names, encodings and field-by-field formatting, from pmt_regs.h's lists. */
#include "pmtrace/pmt_regs.h"

#include <stdio.h>
#include <string.h>

const char *pmt_status_name(pmt_status status)
{
    switch (status) {
    case PMT_OK: return "OK";
    case PMT_ERR_NULL: return "NULL argument";
    case PMT_ERR_CONFIG: return "bad configuration";
    case PMT_ERR_ARG: return "argument out of range";
    case PMT_ERR_STATE_BLOB: return "not a saved state of this model";
    case PMT_ERR_NOT_IMPLEMENTED: return "feature not configured";
    }
    return "unknown status";
}

const char *pmt_access_name(pmt_access access)
{
    switch (access) {
    case PMT_ACCESS_OK: return "OK";
    case PMT_ACCESS_UNDEFINED: return "UNDEFINED";
    case PMT_ACCESS_TRAP_EL1: return "trap to EL1";
    case PMT_ACCESS_TRAP_EL2: return "trap to EL2";
    case PMT_ACCESS_TRAP_EL3: return "trap to EL3";
    case PMT_ACCESS_NOT_MINE: return "not a register of this model";
    }
    return "unknown access result";
}

/* Name and encoding of every register, from PMT_SYSREG_LIST. */
#define PMT_REG_ENTRY_(id, op0, op1, crn, crm, op2)                                                \
    [PMT_REG_##id] = {#id, {op0, op1, crn, crm, op2}},
static const struct {
    const char *name;
    pmt_sysreg enc;
} sysregs[PMT_REG_COUNT_] = {[PMT_REG_PMEVCNTR_EL0] = {"PMEVCNTR<n>_EL0", {3, 3, 14, 8, 0}},
                             [PMT_REG_PMEVTYPER_EL0] = {"PMEVTYPER<n>_EL0", {3, 3, 14, 12, 0}},
                             [PMT_REG_PMEVCNTSVR_EL1] = {"PMEVCNTSVR<n>_EL1", {2, 0, 14, 8, 0}},
                             PMT_SYSREG_LIST(PMT_REG_ENTRY_)};
#undef PMT_REG_ENTRY_

static bool same(pmt_sysreg a, pmt_sysreg b)
{
    return a.op0 == b.op0 && a.op1 == b.op1 && a.crn == b.crn && a.crm == b.crm && a.op2 == b.op2;
}

/* The register families: member n has CRm = base CRm | n[4:3] and op2 = n[2:0]. Index 31 of
 * each family is another register (PMCCFILTR_EL0, unallocated, PMCCNTSVR_EL1). */
static const struct {
    pmt_reg_id id, at31;
    const char *prefix, *suffix;
} families[] = {
    {PMT_REG_PMEVCNTR_EL0, PMT_REG_NONE, "PMEVCNTR", "_EL0"},
    {PMT_REG_PMEVTYPER_EL0, PMT_REG_PMCCFILTR_EL0, "PMEVTYPER", "_EL0"},
    {PMT_REG_PMEVCNTSVR_EL1, PMT_REG_PMCCNTSVR_EL1, "PMEVCNTSVR", "_EL1"},
};
#define NUM_FAMILIES (sizeof families / sizeof families[0])

static int family_of(pmt_reg_id id)
{
    for (unsigned f = 0; f < NUM_FAMILIES; f++)
        if (families[f].id == id)
            return (int)f;
    return -1;
}

pmt_reg_ref pmt_sysreg_decode(pmt_sysreg enc)
{
    pmt_reg_ref ref = {PMT_REG_NONE, 0};
    for (unsigned f = 0; f < NUM_FAMILIES; f++) {
        pmt_sysreg base = sysregs[families[f].id].enc;
        if (enc.op0 == base.op0 && enc.op1 == base.op1 && enc.crn == base.crn &&
            (enc.crm & ~3u) == base.crm && enc.op2 <= 7) {
            unsigned n = (unsigned)(enc.crm & 3) << 3 | enc.op2;
            ref.id = n == 31 ? families[f].at31 : families[f].id;
            ref.index = n == 31 ? 0 : n;
            return ref;
        }
    }
    for (int id = 1; id < PMT_REG_COUNT_; id++) {
        if (family_of((pmt_reg_id)id) < 0 && same(sysregs[id].enc, enc)) {
            ref.id = (pmt_reg_id)id;
            return ref;
        }
    }
    return ref;
}

pmt_sysreg pmt_sysreg_encode(pmt_reg_ref reg)
{
    if (reg.id <= PMT_REG_NONE || reg.id >= PMT_REG_COUNT_)
        return PMT_SYSREG(0, 0, 0, 0, 0);
    pmt_sysreg e = sysregs[reg.id].enc;
    if (family_of(reg.id) >= 0) {
        unsigned n = reg.index & 31;
        e.crm = (uint8_t)(e.crm | n >> 3);
        e.op2 = (uint8_t)(n & 7);
    }
    return e;
}

const char *pmt_reg_name(pmt_reg_id id)
{
    if (id <= PMT_REG_NONE || id >= PMT_REG_COUNT_)
        return "?";
    return sysregs[id].name;
}

/* The field list of each layout, generated from PMT_FIELD_LIST. */
typedef struct {
    const char *layout;
    const char *name;
    unsigned lsb, width;
} field_desc;

static const field_desc fields[] = {
#define PMT_FIELD_ENTRY_(reg, field, lsb, width) {#reg, #field, lsb, width},
    PMT_FIELD_LIST(PMT_FIELD_ENTRY_)
#undef PMT_FIELD_ENTRY_
};

/* The layout a register's fields are listed under in PMT_FIELD_LIST. */
static const char *layout_of(pmt_reg_id id)
{
    switch (id) {
    case PMT_REG_PMCR_EL0: return "PMCR";
    case PMT_REG_PMEVTYPER_EL0:
    case PMT_REG_PMXEVTYPER_EL0:
    case PMT_REG_PMCCFILTR_EL0:
    case PMT_REG_PMICFILTR_EL0: return "PMEVTYPER";
    case PMT_REG_PMUSERENR_EL0: return "PMUSERENR";
    case PMT_REG_PMSELR_EL0: return "PMSELR";
    case PMT_REG_PMMIR_EL1: return "PMMIR";
    case PMT_REG_PMECR_EL1: return "PMECR";
    case PMT_REG_PMSSCR_EL1: return "PMSSCR";
    case PMT_REG_MDCR_EL2: return "MDCR_EL2";
    case PMT_REG_MDCR_EL3: return "MDCR_EL3";
    case PMT_REG_TRBLIMITR_EL1: return "TRBLIMITR";
    case PMT_REG_TRBBASER_EL1: return "TRBBASER";
    case PMT_REG_TRBSR_EL1:
    case PMT_REG_TRBSR_EL2:
    case PMT_REG_TRBSR_EL12:
    case PMT_REG_TRBSR_EL3: return "TRBSR";
    case PMT_REG_TRBTRG_EL1: return "TRBTRG";
    case PMT_REG_TRBMAR_EL1: return "TRBMAR";
    case PMT_REG_TRBIDR_EL1: return "TRBIDR";
    case PMT_REG_TRFCR_EL1:
    case PMT_REG_TRFCR_EL12: return "TRFCR_EL1";
    case PMT_REG_TRFCR_EL2: return "TRFCR_EL2";
    default: return NULL;
    }
}

size_t pmt_reg_format(pmt_reg_ref reg, uint64_t value, char *buf, size_t size)
{
    char name[32];
    int fam = family_of(reg.id);
    if (fam >= 0)
        snprintf(name, sizeof name, "%s%u%s", families[fam].prefix, reg.index,
                 families[fam].suffix);
    else
        snprintf(name, sizeof name, "%s", pmt_reg_name(reg.id));
    char out[512];
    size_t len = (size_t)snprintf(out, sizeof out, "%s = 0x%llx", name, (unsigned long long)value);
    const char *layout = layout_of(reg.id);
    if (layout) {
        const char *sep = " {";
        for (size_t i = 0; i < sizeof fields / sizeof fields[0] && len < sizeof out; i++) {
            if (strcmp(fields[i].layout, layout) != 0)
                continue;
            uint64_t f = value >> fields[i].lsb & (~UINT64_C(0) >> (64 - fields[i].width));
            if (!f)
                continue;
            len +=
                (size_t)snprintf(out + len, sizeof out - len, f > 9 ? "%s%s=0x%llx" : "%s%s=%llu",
                                 sep, fields[i].name, (unsigned long long)f);
            sep = ", ";
        }
        if (sep[0] == ',' && len < sizeof out)
            len += (size_t)snprintf(out + len, sizeof out - len, "}");
    }
    if (len >= sizeof out)
        len = sizeof out - 1;
    if (buf && size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, out, n);
        buf[n] = '\0';
    }
    return len;
}
