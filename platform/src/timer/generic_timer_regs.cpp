// generic_timer_regs.cpp - the Generic Timer's encodings and register names.
#include "pmtrace/platform/timer/generic_timer_regs.h"

namespace pmtrace::platform
{

namespace
{

struct cnt_info {
    cnt_reg reg;
    uint8_t op1, crm, op2; // every one is op0 = 3, CRn = 14
    const char *name;
};

const cnt_info cnt_table[] = {
    {cnt_reg::CNTFRQ_EL0, 3, 0, 0, "CNTFRQ_EL0"},
    {cnt_reg::CNTPCT_EL0, 3, 0, 1, "CNTPCT_EL0"},
    {cnt_reg::CNTVCT_EL0, 3, 0, 2, "CNTVCT_EL0"},
    {cnt_reg::CNTKCTL_EL1, 0, 1, 0, "CNTKCTL_EL1"},
    {cnt_reg::CNTP_TVAL_EL0, 3, 2, 0, "CNTP_TVAL_EL0"},
    {cnt_reg::CNTP_CTL_EL0, 3, 2, 1, "CNTP_CTL_EL0"},
    {cnt_reg::CNTP_CVAL_EL0, 3, 2, 2, "CNTP_CVAL_EL0"},
    {cnt_reg::CNTV_TVAL_EL0, 3, 3, 0, "CNTV_TVAL_EL0"},
    {cnt_reg::CNTV_CTL_EL0, 3, 3, 1, "CNTV_CTL_EL0"},
    {cnt_reg::CNTV_CVAL_EL0, 3, 3, 2, "CNTV_CVAL_EL0"},
    {cnt_reg::CNTVOFF_EL2, 4, 0, 3, "CNTVOFF_EL2"},
    {cnt_reg::CNTHCTL_EL2, 4, 1, 0, "CNTHCTL_EL2"},
    {cnt_reg::CNTHP_TVAL_EL2, 4, 2, 0, "CNTHP_TVAL_EL2"},
    {cnt_reg::CNTHP_CTL_EL2, 4, 2, 1, "CNTHP_CTL_EL2"},
    {cnt_reg::CNTHP_CVAL_EL2, 4, 2, 2, "CNTHP_CVAL_EL2"},
};

} // namespace

cnt_reg cnt_decode(pmt_sysreg e)
{
    if (e.op0 != 3 || e.crn != 14)
        return cnt_reg::none;
    for (const cnt_info &i : cnt_table)
        if (i.op1 == e.op1 && i.crm == e.crm && i.op2 == e.op2)
            return i.reg;
    return cnt_reg::none;
}

const char *cnt_name(cnt_reg reg)
{
    for (const cnt_info &i : cnt_table)
        if (i.reg == reg)
            return i.name;
    return "not a Generic Timer register";
}

} // namespace pmtrace::platform
