/*
 * pmt_types.h - types shared by every part of the pmtrace C core: status codes, the result of a
 * register access, system-register encodings and the PE state the model is told about.
 */
#ifndef PMTRACE_PMT_TYPES_H
#define PMTRACE_PMT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status of a call that can fail because of its arguments. Never fatal. */
typedef enum pmt_status {
    PMT_OK = 0,
    PMT_ERR_NULL = -1,           /* a required pointer argument is NULL */
    PMT_ERR_CONFIG = -2,         /* the configuration is invalid (the log line says why) */
    PMT_ERR_ARG = -3,            /* an argument is out of range */
    PMT_ERR_STATE_BLOB = -4,     /* a saved state does not match this model or is corrupt */
    PMT_ERR_NOT_IMPLEMENTED = -5 /* the feature this call needs is not configured */
} pmt_status;

const char *pmt_status_name(pmt_status status);

/*
 * Outcome of a system-register access (MRS/MSR) by the PE, in the order the architecture's
 * accessibility pseudocode decides it.
 */
typedef enum pmt_access {
    PMT_ACCESS_OK = 0,    /* performed; for a read the value is valid */
    PMT_ACCESS_UNDEFINED, /* the instruction is UNDEFINED at the current state */
    PMT_ACCESS_TRAP_EL1,  /* trapped to EL1 (AArch64.SystemAccessTrap, EC 0x18) */
    PMT_ACCESS_TRAP_EL2,  /* trapped to EL2 */
    PMT_ACCESS_TRAP_EL3,  /* trapped to EL3 */
    PMT_ACCESS_NOT_MINE   /* the encoding is not a register of this model: the CPU decides */
} pmt_access;

const char *pmt_access_name(pmt_access access);

/* Result of an access to an external (memory-mapped) frame: the PMU frame (I5.2), the Trace
 * Buffer frame (H9.4). */
typedef enum pmt_ext_status {
    PMT_EXT_OK = 0,
    PMT_EXT_NO_REGISTER, /* nothing at this offset (a TLM target answers ADDRESS_ERROR) */
    PMT_EXT_BAD_SIZE,    /* size or alignment not supported there (BURST_ERROR) */
    PMT_EXT_ERROR        /* the access is not permitted, e.g. MDCR_EL3.EPMAD (an error response) */
} pmt_ext_status;

const char *pmt_ext_status_name(pmt_ext_status status);

/* A system-register encoding as in MRS/MSR: op0, op1, CRn, CRm, op2. */
typedef struct pmt_sysreg {
    uint8_t op0, op1, crn, crm, op2;
} pmt_sysreg;

static inline pmt_sysreg pmt_sysreg_make(unsigned op0, unsigned op1, unsigned crn, unsigned crm,
                                         unsigned op2)
{
    pmt_sysreg r;
    r.op0 = (uint8_t)op0;
    r.op1 = (uint8_t)op1;
    r.crn = (uint8_t)crn;
    r.crm = (uint8_t)crm;
    r.op2 = (uint8_t)op2;
    return r;
}
#define PMT_SYSREG(op0, op1, crn, crm, op2) pmt_sysreg_make(op0, op1, crn, crm, op2)

/* Security state (CurrentSecurityState()). */
typedef enum pmt_security {
    PMT_SS_NONSECURE = 0,
    PMT_SS_SECURE = 1,
    PMT_SS_REALM = 2,
    PMT_SS_ROOT = 3
} pmt_security;

/*
 * The state of the PE that the model depends on. The CPU model pushes it whenever it changes
 * (pmt_pe_set_state); the model re-evaluates everything that depends on it.
 */
typedef struct pmt_pe_state {
    uint8_t el;       /* current Exception level, 0..3 (PSTATE.EL) */
    pmt_security ss;  /* current Security state */
    bool debug;       /* the PE is in Debug state (Halted()) */
    bool el2_enabled; /* EL2Enabled(): EL2 implemented and enabled in the current Security state;
                         must agree with scr_ns and scr_eel2 (below) */
    bool hcr_tge;     /* HCR_EL2.TGE */
    bool hcr_e2h;     /* HCR_EL2.E2H */
    bool pm;          /* PSTATE.PM (FEAT_EBEP) */
    bool streaming;   /* PSTATE.SM (FEAT_PMUv3_SME filtering) */
    /* Debug power and lock state (EDPRSR, OSLSR_EL1): all false is powered up and unlocked.
     * With pmt_pe_config.os_lock_registers the model holds os_lock and double_lock (its
     * OSLAR_EL1, OSDLR_EL1 and DBGPRCR_EL1 make them): pmt_pe_set_state keeps its own and
     * pmt_pe_get_state reports them. */
    bool os_lock;      /* OSLSR_EL1.OSLK: the OS Lock is locked (OSLockStatus()) */
    bool double_lock;  /* EDPRSR.DLK: the OS Double Lock is locked (DoubleLockStatus()) */
    bool powered_down; /* the Core power domain is off (EDPRSR.PU == 0) */
    /* PC sample-based profiling: all false is "allowed" and EDSCR.SC2 = 0 (its reset value). */
    bool noninvasive_debug_prohibited; /* !ExternalNoninvasiveDebugAllowed() at the current state:
                                          the authentication interface prohibits trace and PC
                                          sampling here (J1.3.1.17) */
    bool edscr_sc2; /* EDSCR.SC2 (FEAT_PCSRv8 with FEAT_Debugv8p1): owned by the platform's
                       external debug unit, which reports it here */
    /* SCR_EL3 and HCR_EL2 fields the model reads, as the registers hold them (raw values; the
     * model computes the Effective values). Below EL3 the model derives SCR_EL3.{NS, NSE} from
     * ss; at EL3 scr_ns and scr_nse give them. One source of truth: pmt_pe_set_state refuses
     * (PMT_ERR_ARG and a log line) a state where el2_enabled is not EL2Enabled() as the
     * configuration, ss, scr_ns (at EL3) and scr_eel2 (with FEAT_SEL2) make it (without EL3 it is
     * true whenever EL2 exists), or where ss is not a Security state of el (EL3 is Root with
     * FEAT_RME, else Secure; Realm needs FEAT_RME). Without EL2 el2_enabled is ignored. */
    bool scr_ns;   /* SCR_EL3.NS, at EL3 */
    bool scr_nse;  /* SCR_EL3.NSE, at EL3 (FEAT_RME) */
    bool scr_eel2; /* SCR_EL3.EEL2: Secure EL2 enabled (IsSecureEL2Enabled, with FEAT_SEL2) */
    bool scr_ea;   /* SCR_EL3.EA (routing of External aborts, RBNQRP); the model uses
                      EffectiveEA(): this bit with EL3, 0 without EL3 or in Debug state */
    bool scr_gpf;  /* SCR_EL3.GPF (routing of GPFs, RBNQRP) */
    bool hcr_tea;  /* HCR_EL2.TEA (HCR2.TEA with EL2 in AArch32); the model uses
                      EffectiveHCR_TEA(): this bit when EL2 is enabled (FEAT_RAS, which FEAT_TRBE's
                      Armv9 implies), else 0 */
    bool hcr_gpf;  /* HCR_EL2.GPF */
    bool self_hosted_trace_disabled; /* SelfHostedTraceEnabled() is FALSE (EDSCR.TFO and the
                                        authentication interface give trace to an external
                                        debugger): the Trace Buffer Unit uses External mode */
    uint8_t aarch32_els;             /* bit n set: ELn is using AArch32 (ELUsingAArch32) */
    uint8_t ext_invasive_prohibited; /* bit (1 << pmt_security): the authentication interface
                                        prohibits external invasive debug of that physical
                                        address space (External mode, RCMYYF) */
    /* Trap controls of the trace unit System registers (FEAT_ETE, D24.4): the CPU owns
     * CPACR_EL1, CPTR_EL2 and CPTR_EL3 and reports their TTA bits as they apply (the field of
     * CPTR_EL2 that the current HCR_EL2.E2H selects). All false: no trap. */
    bool cpacr_tta;    /* CPACR_EL1.TTA */
    bool cptr_el2_tta; /* CPTR_EL2.TTA */
    bool cptr_el3_tta; /* CPTR_EL3.TTA */
} pmt_pe_state;

#ifdef __cplusplus
}
#endif

#endif
