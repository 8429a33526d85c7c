/*
 * hal_a64_sysreg.c - the HAL's sysreg_read and sysreg_write as MRS and MSR (hal_a64.h).
 *
 * A hal_sysreg is the instruction's system register field (op0:op1:CRn:CRm:op2, bits [20:5] of
 * MRS and MSR (register), Arm ARM C6.2.241 and C6.2.244), but an instruction names its register
 * at assembly time: each encoding the HAL knows is a case of a switch with its own MRS or MSR,
 * in the S<op0>_<op1>_C<n>_C<m>_<op2> form, generated from the lists of the encodings:
 * PMT_SYSREG_LIST (the model's registers), HAL_CPU_SYSREG_LIST (the CPU's registers the drivers
 * use) and the PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 families (n = 0..30). Every one is in the
 * fixup table (a64.h): an access that is UNDEFINED or trapped to EL1 (or to EL2 when the image
 * owns it) returns HAL_UNDEFINED or HAL_TRAP_ELx and a failed read gives 0. An encoding in no
 * list has no instruction here: HAL_UNSUPPORTED.
 */
#include "a64.h"
#include "hal_a64.h"

#define A64_SYSREG_(op0, op1, crn, crm, op2) "S" #op0 "_" #op1 "_C" #crn "_C" #crm "_" #op2

#define A64_MRS_(op0, op1, crn, crm, op2)                                                          \
    case HAL_SYSREG(op0, op1, crn, crm, op2):                                                      \
        __asm__ __volatile__(                                                                      \
            "1: mrs %0, " A64_SYSREG_(op0, op1, crn, crm, op2) "\n\t" A64_FIXUP("1b")              \
            : "+r"(v)                                                                              \
            :                                                                                      \
            : "memory");                                                                           \
        break;
#define A64_MSR_(op0, op1, crn, crm, op2)                                                          \
    case HAL_SYSREG(op0, op1, crn, crm, op2):                                                      \
        __asm__ __volatile__(                                                                      \
            "1: msr " A64_SYSREG_(op0, op1, crn, crm, op2) ", %0\n\t" A64_FIXUP("1b")              \
            :                                                                                      \
            : "r"(value)                                                                           \
            : "memory");                                                                           \
        break;

/* The lists as X(op0, op1, CRn, CRm, op2). */
#define A64_NAMED_READ_(id, op0, op1, crn, crm, op2)  A64_MRS_(op0, op1, crn, crm, op2)
#define A64_NAMED_WRITE_(id, op0, op1, crn, crm, op2) A64_MSR_(op0, op1, crn, crm, op2)
/* PMEVCNTR<n>_EL0 is (3, 3, 14, 8 + n / 8, n % 8), PMEVTYPER<n>_EL0 (3, 3, 14, 12 + n / 8, n % 8);
 * n = 31 does not exist (its PMEVTYPER encoding is PMCCFILTR_EL0's). */
/* clang-format off */
#define A64_PMEV7_(X, crm) \
    X(3, 3, 14, crm, 0) X(3, 3, 14, crm, 1) X(3, 3, 14, crm, 2) X(3, 3, 14, crm, 3) \
    X(3, 3, 14, crm, 4) X(3, 3, 14, crm, 5) X(3, 3, 14, crm, 6)
#define A64_PMEV8_(X, crm) A64_PMEV7_(X, crm) X(3, 3, 14, crm, 7)
#define A64_PMEV_LIST_(X) \
    A64_PMEV8_(X, 8)  A64_PMEV8_(X, 9)  A64_PMEV8_(X, 10) A64_PMEV7_(X, 11) \
    A64_PMEV8_(X, 12) A64_PMEV8_(X, 13) A64_PMEV8_(X, 14) A64_PMEV7_(X, 15)
/* clang-format on */

hal_status hal_a64_sysreg_read(void *ctx, hal_sysreg reg, uint64_t *value)
{
    uint64_t v = 0;
    (void)ctx;
    a64_fixup_clear();
    switch (reg) {
        PMT_SYSREG_LIST(A64_NAMED_READ_)
        HAL_CPU_SYSREG_LIST(A64_NAMED_READ_)
        A64_PMEV_LIST_(A64_MRS_)
    default:
        if (value)
            *value = 0;
        return HAL_UNSUPPORTED;
    }
    hal_status s = a64_fixup_take();
    if (value)
        *value = s == HAL_OK ? v : 0;
    return s;
}

hal_status hal_a64_sysreg_write(void *ctx, hal_sysreg reg, uint64_t value)
{
    (void)ctx;
    a64_fixup_clear();
    switch (reg) {
        PMT_SYSREG_LIST(A64_NAMED_WRITE_)
        HAL_CPU_SYSREG_LIST(A64_NAMED_WRITE_)
        A64_PMEV_LIST_(A64_MSR_)
    default: return HAL_UNSUPPORTED;
    }
    return a64_fixup_take();
}
