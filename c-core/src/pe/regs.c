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

/* Name and encoding of every register, from PMT_SYSREG_LIST. A family's entry holds the encoding
 * of member 0 with the index bits clear. */
#define PMT_REG_ENTRY_(id, op0, op1, crn, crm, op2)                                                \
    [PMT_REG_##id] = {#id, {op0, op1, crn, crm, op2}},
static const struct {
    const char *name;
    pmt_sysreg enc;
} sysregs[PMT_REG_COUNT_] = {[PMT_REG_PMEVCNTR_EL0] = {"PMEVCNTR<n>_EL0", {3, 3, 14, 8, 0}},
                             [PMT_REG_PMEVTYPER_EL0] = {"PMEVTYPER<n>_EL0", {3, 3, 14, 12, 0}},
                             [PMT_REG_PMEVCNTSVR_EL1] = {"PMEVCNTSVR<n>_EL1", {2, 0, 14, 8, 0}},
                             [PMT_REG_TRCRSCTLR] = {"TRCRSCTLR<n>", {2, 1, 1, 0, 0}},
                             [PMT_REG_TRCACVR] = {"TRCACVR<n>", {2, 1, 2, 0, 0}},
                             [PMT_REG_TRCACATR] = {"TRCACATR<n>", {2, 1, 2, 0, 2}},
                             [PMT_REG_TRCCIDCVR] = {"TRCCIDCVR<n>", {2, 1, 3, 0, 0}},
                             [PMT_REG_TRCVMIDCVR] = {"TRCVMIDCVR<n>", {2, 1, 3, 0, 1}},
                             [PMT_REG_TRCEXTINSELR] = {"TRCEXTINSELR<n>", {2, 1, 0, 8, 4}},
                             [PMT_REG_TRCCNTRLDVR] = {"TRCCNTRLDVR<n>", {2, 1, 0, 0, 5}},
                             [PMT_REG_TRCCNTCTLR] = {"TRCCNTCTLR<n>", {2, 1, 0, 4, 5}},
                             [PMT_REG_TRCCNTVR] = {"TRCCNTVR<n>", {2, 1, 0, 8, 5}},
                             PMT_SYSREG_LIST(PMT_REG_ENTRY_)};
#undef PMT_REG_ENTRY_

static bool same(pmt_sysreg a, pmt_sysreg b)
{
    return a.op0 == b.op0 && a.op1 == b.op1 && a.crn == b.crn && a.crm == b.crm && a.op2 == b.op2;
}

/* Where a family puts the index n in CRm and op2 (D24.3, D24.4). */
enum index_layout {
    IDX_PMU,     /* CRm = base | n[4:3], op2 = n[2:0] (n = 0..31) */
    IDX_RSCTLR,  /* CRm = n[3:0], op2 = n[4] (n = 0..31) */
    IDX_AC,      /* CRm = n[2:0]:0, op2 = base | n[3] (n = 0..15) */
    IDX_CC,      /* CRm = n[2:0]:0 (n = 0..7) */
    IDX_CRM_LOW2 /* CRm = base | n[1:0] (n = 0..3): TRCEXTINSELR<n>, TRCCNT*<n> */
};

/* The register families. For the PMU families index 31 is another register (PMCCFILTR_EL0,
 * unallocated, PMCCNTSVR_EL1). */
static const struct {
    pmt_reg_id id, at31;
    enum index_layout layout;
    const char *prefix, *suffix;
} families[] = {
    {PMT_REG_PMEVCNTR_EL0, PMT_REG_NONE, IDX_PMU, "PMEVCNTR", "_EL0"},
    {PMT_REG_PMEVTYPER_EL0, PMT_REG_PMCCFILTR_EL0, IDX_PMU, "PMEVTYPER", "_EL0"},
    {PMT_REG_PMEVCNTSVR_EL1, PMT_REG_PMCCNTSVR_EL1, IDX_PMU, "PMEVCNTSVR", "_EL1"},
    {PMT_REG_TRCRSCTLR, PMT_REG_NONE, IDX_RSCTLR, "TRCRSCTLR", ""},
    {PMT_REG_TRCACVR, PMT_REG_NONE, IDX_AC, "TRCACVR", ""},
    {PMT_REG_TRCACATR, PMT_REG_NONE, IDX_AC, "TRCACATR", ""},
    {PMT_REG_TRCCIDCVR, PMT_REG_NONE, IDX_CC, "TRCCIDCVR", ""},
    {PMT_REG_TRCVMIDCVR, PMT_REG_NONE, IDX_CC, "TRCVMIDCVR", ""},
    {PMT_REG_TRCEXTINSELR, PMT_REG_NONE, IDX_CRM_LOW2, "TRCEXTINSELR", ""},
    {PMT_REG_TRCCNTRLDVR, PMT_REG_NONE, IDX_CRM_LOW2, "TRCCNTRLDVR", ""},
    {PMT_REG_TRCCNTCTLR, PMT_REG_NONE, IDX_CRM_LOW2, "TRCCNTCTLR", ""},
    {PMT_REG_TRCCNTVR, PMT_REG_NONE, IDX_CRM_LOW2, "TRCCNTVR", ""},
};
#define NUM_FAMILIES (sizeof families / sizeof families[0])

static int family_of(pmt_reg_id id)
{
    for (unsigned f = 0; f < NUM_FAMILIES; f++)
        if (families[f].id == id)
            return (int)f;
    return -1;
}

/* The encoding of member n of family f. */
static pmt_sysreg family_encode(unsigned f, unsigned n)
{
    pmt_sysreg e = sysregs[families[f].id].enc;
    switch (families[f].layout) {
    case IDX_PMU:
        n &= 31;
        e.crm = (uint8_t)(e.crm | n >> 3);
        e.op2 = (uint8_t)(n & 7);
        break;
    case IDX_RSCTLR:
        n &= 31;
        e.crm = (uint8_t)(n & 15);
        e.op2 = (uint8_t)(n >> 4);
        break;
    case IDX_AC:
        n &= 15;
        e.crm = (uint8_t)((n & 7) << 1);
        e.op2 = (uint8_t)(e.op2 | n >> 3);
        break;
    case IDX_CC: e.crm = (uint8_t)((n & 7) << 1); break;
    case IDX_CRM_LOW2: e.crm = (uint8_t)(e.crm | (n & 3)); break;
    }
    return e;
}

/* Whether enc is a member of family f, and which. */
static bool family_decode(unsigned f, pmt_sysreg enc, unsigned *n)
{
    pmt_sysreg base = sysregs[families[f].id].enc;
    if (enc.op0 != base.op0 || enc.op1 != base.op1 || enc.crn != base.crn)
        return false;
    switch (families[f].layout) {
    case IDX_PMU:
        if ((enc.crm & ~3u) != base.crm || enc.op2 > 7)
            return false;
        *n = (unsigned)(enc.crm & 3) << 3 | enc.op2;
        return true;
    case IDX_RSCTLR:
        if (enc.crm > 15 || enc.op2 > 1)
            return false;
        *n = (unsigned)enc.op2 << 4 | enc.crm;
        return *n >= 2; /* TRCRSCTLR0 and TRCRSCTLR1 do not exist */
    case IDX_AC:
        if ((enc.crm & 1) || enc.crm > 15 || (enc.op2 & ~1u) != base.op2)
            return false;
        *n = (unsigned)(enc.op2 & 1) << 3 | enc.crm >> 1;
        return true;
    case IDX_CC:
        if ((enc.crm & 1) || enc.crm > 15 || enc.op2 != base.op2)
            return false;
        *n = enc.crm >> 1;
        return true;
    case IDX_CRM_LOW2:
        if ((enc.crm & ~3u) != base.crm || enc.op2 != base.op2)
            return false;
        *n = enc.crm & 3;
        return true;
    }
    return false;
}

pmt_reg_ref pmt_sysreg_decode(pmt_sysreg enc)
{
    pmt_reg_ref ref = {PMT_REG_NONE, 0};
    for (int id = 1; id < PMT_REG_COUNT_; id++) {
        if (family_of((pmt_reg_id)id) < 0 && same(sysregs[id].enc, enc)) {
            ref.id = (pmt_reg_id)id;
            return ref;
        }
    }
    for (unsigned f = 0; f < NUM_FAMILIES; f++) {
        unsigned n;
        if (family_decode(f, enc, &n)) {
            bool other = families[f].layout == IDX_PMU && n == 31;
            ref.id = other ? families[f].at31 : families[f].id;
            ref.index = other ? 0 : n;
            return ref;
        }
    }
    return ref;
}

pmt_sysreg pmt_sysreg_encode(pmt_reg_ref reg)
{
    if (reg.id <= PMT_REG_NONE || reg.id >= PMT_REG_COUNT_)
        return PMT_SYSREG(0, 0, 0, 0, 0);
    int f = family_of(reg.id);
    return f >= 0 ? family_encode((unsigned)f, reg.index) : sysregs[reg.id].enc;
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
    case PMT_REG_TRCPRGCTLR: return "TRCPRGCTLR";
    case PMT_REG_TRCSTATR: return "TRCSTATR";
    case PMT_REG_TRCRSR: return "TRCRSR";
    case PMT_REG_TRCCONFIGR: return "TRCCONFIGR";
    case PMT_REG_TRCEVENTCTL1R: return "TRCEVENTCTL1R";
    case PMT_REG_TRCTSCTLR: return "TRCEVENT";
    case PMT_REG_TRCSYNCPR: return "TRCSYNCPR";
    case PMT_REG_TRCCCCTLR: return "TRCCCCTLR";
    case PMT_REG_TRCBBCTLR: return "TRCBBCTLR";
    case PMT_REG_TRCTRACEIDR: return "TRCTRACEIDR";
    case PMT_REG_TRCVICTLR: return "TRCVICTLR";
    case PMT_REG_TRCVIIECTLR: return "TRCVIIECTLR";
    case PMT_REG_TRCVISSCTLR: return "TRCVISSCTLR";
    case PMT_REG_TRCRSCTLR: return "TRCRSCTLR";
    case PMT_REG_TRCACATR: return "TRCACATR";
    case PMT_REG_TRCEXTINSELR: return "TRCEXTINSELR";
    case PMT_REG_TRCCNTRLDVR: return "TRCCNTRLDVR";
    case PMT_REG_TRCCNTCTLR: return "TRCCNTCTLR";
    case PMT_REG_TRCCNTVR: return "TRCCNTVR";
    case PMT_REG_TRCIDR0: return "TRCIDR0";
    case PMT_REG_TRCIDR1: return "TRCIDR1";
    case PMT_REG_TRCIDR2: return "TRCIDR2";
    case PMT_REG_TRCIDR3: return "TRCIDR3";
    case PMT_REG_TRCIDR4: return "TRCIDR4";
    case PMT_REG_TRCIDR5: return "TRCIDR5";
    case PMT_REG_TRCIDR6: return "TRCIDR6";
    case PMT_REG_TRCOSLSR: return "TRCOSLSR";
    case PMT_REG_TRCDEVARCH: return "TRCDEVARCH";
    case PMT_REG_TRCAUTHSTATUS: return "TRCAUTHSTATUS";
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
