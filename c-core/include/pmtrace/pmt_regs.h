/*
 * pmt_regs.h - register layouts: the one place where a field's position is written down.
 *
 * The core, the SystemC layer, the drivers in sw/ and the tests all take field positions from
 * here. PMT_FIELD_LIST expands X(REG, FIELD, LSB, WIDTH) once per field (positions from the Arm
 * ARM D24.3, D24.5, I5.3, H9.2; EDPCSRhi is the SC2 = 1 format of EDPCSR[63:32] as a 32-bit
 * register; LSR is the layout of PMLSR and EDLSR); it generates the PMT_<REG>_<FIELD>_SHIFT/_WIDTH
 * constants and the field-name tables that logs use (pmt_reg_format). The TRBE layouts come from
 * D24.4 and H9.4 (TRB*, TRFCR_EL1/EL2); TRBSR is the layout of TRBSR_EL1, TRBSR_EL2 and TRBSR_EL3.
 *
 * PMT_SYSREG_LIST expands X(ID, op0, op1, CRn, CRm, op2) for every system register with one
 * fixed encoding that the model answers; PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0 and PMEVCNTSVR<n>_EL1
 * are families (pmt_sysreg_decode gives the index), and so are the trace unit's TRCRSCTLR<n>,
 * TRCACVR<n>, TRCACATR<n>, TRCCIDCVR<n>, TRCVMIDCVR<n>, TRCEXTINSELR<n> and the counters'
 * TRCCNTRLDVR<n>, TRCCNTCTLR<n>, TRCCNTVR<n>. The trace unit (FEAT_ETE) layouts and encodings
 * come from D24.4; TRCEVENT is the layout of an 8-bit resource event selector (TRCVICTLR.EVENT,
 * TRCTSCTLR.EVENT, each byte of TRCEVENTCTL0R, and TRCCNTCTLR<n>.CNTEVENT; TRCCNTCTLR<n>.RLDEVENT
 * is the same layout 8 bits up).
 */
#ifndef PMTRACE_PMT_REGS_H
#define PMTRACE_PMT_REGS_H

#include "pmt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define PMT_FIELD_LIST(X) \
    X(PMCR, E, 0, 1) X(PMCR, P, 1, 1) X(PMCR, C, 2, 1) X(PMCR, D, 3, 1) X(PMCR, X, 4, 1) \
    X(PMCR, DP, 5, 1) X(PMCR, LC, 6, 1) X(PMCR, LP, 7, 1) X(PMCR, FZO, 9, 1) X(PMCR, N, 11, 5) \
    X(PMCR, IDCODE, 16, 8) X(PMCR, IMP, 24, 8) X(PMCR, FZS, 32, 1) \
    X(PMEVTYPER, evtCount, 0, 16) X(PMEVTYPER, RLH, 20, 1) X(PMEVTYPER, RLU, 21, 1) \
    X(PMEVTYPER, RLK, 22, 1) X(PMEVTYPER, SH, 24, 1) X(PMEVTYPER, MT, 25, 1) \
    X(PMEVTYPER, M, 26, 1) X(PMEVTYPER, NSH, 27, 1) X(PMEVTYPER, NSU, 28, 1) \
    X(PMEVTYPER, NSK, 29, 1) X(PMEVTYPER, U, 30, 1) X(PMEVTYPER, P, 31, 1) \
    X(PMEVTYPER, TH, 32, 12) X(PMEVTYPER, TLC, 54, 2) X(PMEVTYPER, VS, 56, 2) \
    X(PMEVTYPER, SYNC, 58, 1) X(PMEVTYPER, TE, 60, 1) X(PMEVTYPER, TC, 61, 3) \
    X(PMUSERENR, EN, 0, 1) X(PMUSERENR, SW, 1, 1) X(PMUSERENR, CR, 2, 1) X(PMUSERENR, ER, 3, 1) \
    X(PMUSERENR, UEN, 4, 1) X(PMUSERENR, IR, 5, 1) X(PMUSERENR, TID, 6, 1) \
    X(PMSELR, SEL, 0, 5) \
    X(PMCCR, EPMN, 0, 5) X(PMCCR, EPME, 7, 1) X(PMCCR, OSLO, 8, 1) \
    X(PMMIR, SLOTS, 0, 8) X(PMMIR, BUS_SLOTS, 8, 8) X(PMMIR, BUS_WIDTH, 16, 4) \
    X(PMMIR, THWIDTH, 20, 4) X(PMMIR, EDGE, 24, 4) X(PMMIR, SME, 28, 1) \
    X(PMECR, PMEE, 0, 2) X(PMECR, KPME, 2, 1) X(PMECR, SSE, 3, 2) \
    X(PMSSCR, SS, 0, 1) X(PMSSCR, NC, 32, 1) \
    X(MDCR_EL2, HPMN, 0, 5) X(MDCR_EL2, TPMCR, 5, 1) X(MDCR_EL2, TPM, 6, 1) \
    X(MDCR_EL2, HPME, 7, 1) X(MDCR_EL2, TDE, 8, 1) X(MDCR_EL2, TDOSA, 10, 1) \
    X(MDCR_EL2, HPMD, 17, 1) X(MDCR_EL2, TTRF, 19, 1) \
    X(MDCR_EL2, HCCD, 23, 1) X(MDCR_EL2, E2TB, 24, 2) X(MDCR_EL2, HLP, 26, 1) \
    X(MDCR_EL2, MTPME, 28, 1) X(MDCR_EL2, HPMFZO, 29, 1) X(MDCR_EL2, PMSSE, 30, 2) \
    X(MDCR_EL2, HPMFZS, 36, 1) X(MDCR_EL2, PMEE, 40, 2) \
    X(MDCR_EL3, RLTE, 0, 1) X(MDCR_EL3, TPM, 6, 1) X(MDCR_EL3, EnPM2, 7, 1) \
    X(MDCR_EL3, TDOSA, 10, 1) \
    X(MDCR_EL3, SPME, 17, 1) X(MDCR_EL3, STE, 18, 1) X(MDCR_EL3, TTRF, 19, 1) \
    X(MDCR_EL3, EPMAD, 21, 1) X(MDCR_EL3, SCCD, 23, 1) X(MDCR_EL3, NSTB, 24, 2) \
    X(MDCR_EL3, NSTBE, 26, 1) X(MDCR_EL3, MTPME, 28, 1) X(MDCR_EL3, PMSSE, 30, 2) \
    X(MDCR_EL3, MCCD, 34, 1) X(MDCR_EL3, MPMX, 35, 1) X(MDCR_EL3, EnTB2, 39, 1) \
    X(MDCR_EL3, PMEE, 40, 2) X(MDCR_EL3, EnPMSS, 44, 1) X(MDCR_EL3, EPMSSAD, 45, 2) \
    X(MDCR_EL3, ETBAD, 48, 2) X(MDCR_EL3, TRBEE, 53, 2) \
    X(DFR0, TraceVer, 4, 4) X(DFR0, PMUVer, 8, 4) X(DFR0, PMSS, 16, 4) X(DFR0, SEBEP, 24, 4) \
    X(DFR0, DoubleLock, 36, 4) X(DFR0, TraceFilt, 40, 4) X(DFR0, TraceBuffer, 44, 4) \
    X(DFR0, ExtTrcBuff, 56, 4) X(DFR0, HPMN0, 60, 4) \
    X(OSLAR, OSLK, 0, 1) \
    X(OSLSR, OSLM0, 0, 1) X(OSLSR, OSLK, 1, 1) X(OSLSR, nTT, 2, 1) X(OSLSR, OSLM1, 3, 1) \
    X(OSDLR, DLK, 0, 1) X(DBGPRCR, CORENPDRQ, 0, 1) \
    X(DFR1, PMICNTR, 36, 4) X(DFR1, EBEP, 48, 4) X(DFR1, DPFZS, 52, 4) \
    X(PMPCSR, PCSample, 0, 56) X(PMPCSR, NSE, 59, 1) X(PMPCSR, EL, 61, 2) X(PMPCSR, NS, 63, 1) \
    X(PMVIDSR, VMID, 0, 16) \
    X(PMVCIDSR, CONTEXTIDR_EL1, 0, 32) X(PMVCIDSR, VMID, 32, 16) \
    X(PMCCIDSR, CONTEXTIDR_EL1, 0, 32) X(PMCCIDSR, CONTEXTIDR_EL2, 32, 32) \
    X(PMPCSCTL, EN, 0, 1) X(PMPCSCTL, IMP, 1, 1) X(PMPCSCTL, SS, 4, 1) \
    X(PMDEVID, PCSample, 0, 4) X(PMDEVID, PMSS, 4, 4) X(PMDEVID, EXTPMN, 8, 4) \
    X(EDPCSRhi, PC, 0, 24) X(EDPCSRhi, EL, 29, 2) X(EDPCSRhi, NS, 31, 1) \
    X(EDVIDSR, VMID, 0, 16) X(EDVIDSR, HV, 28, 1) X(EDVIDSR, E3, 29, 1) X(EDVIDSR, E2, 30, 1) \
    X(EDVIDSR, NS, 31, 1) \
    X(EDPRSR, PU, 0, 1) X(EDPRSR, HALTED, 4, 1) X(EDPRSR, OSLK, 5, 1) X(EDPRSR, DLK, 6, 1) \
    X(EDSCR, SC2, 19, 1) \
    X(LSR, SLI, 0, 1) X(LSR, SLK, 1, 1) X(LSR, nTT, 2, 1) \
    X(TRBLIMITR, E, 0, 1) X(TRBLIMITR, FM, 1, 2) X(TRBLIMITR, TM, 3, 2) \
    X(TRBLIMITR, nVM, 5, 1) X(TRBLIMITR, XE, 6, 1) X(TRBLIMITR, LIMIT, 12, 52) \
    X(TRBBASER, BASE, 12, 52) \
    X(TRBSR, MSS, 0, 16) X(TRBSR, S, 17, 1) X(TRBSR, EA, 18, 1) X(TRBSR, WRAP, 20, 1) \
    X(TRBSR, TRG, 21, 1) X(TRBSR, IRQ, 22, 1) X(TRBSR, DAT, 23, 1) X(TRBSR, EC, 26, 6) \
    X(TRBSR, MSS2, 32, 24) \
    X(TRBTRG, TRG, 0, 32) \
    X(TRBMAR, Attr, 0, 8) X(TRBMAR, SH, 8, 2) X(TRBMAR, PAS, 10, 2) \
    X(TRBIDR, Align, 0, 4) X(TRBIDR, P, 4, 1) X(TRBIDR, F, 5, 1) X(TRBIDR, AddrMode, 6, 2) \
    X(TRBIDR, EA, 8, 4) X(TRBIDR, MPAM, 12, 4) X(TRBIDR, MaxBuffSize, 32, 16) \
    X(TRFCR_EL1, E0TRE, 0, 1) X(TRFCR_EL1, E1TRE, 1, 1) X(TRFCR_EL1, CX, 3, 1) \
    X(TRFCR_EL1, TS, 5, 2) X(TRFCR_EL1, EE, 8, 2) X(TRFCR_EL1, KE, 10, 1) \
    X(TRFCR_EL1, DnVM, 11, 1) \
    X(TRFCR_EL2, E0HTRE, 0, 1) X(TRFCR_EL2, E2TRE, 1, 1) X(TRFCR_EL2, CX, 3, 1) \
    X(TRFCR_EL2, TS, 5, 2) X(TRFCR_EL2, EE, 8, 2) X(TRFCR_EL2, KE, 10, 1) \
    X(TRFCR_EL2, DnVM, 11, 1) \
    X(TRBCR, ManStop, 0, 1) \
    X(TRCPRGCTLR, EN, 0, 1) X(TRCSTATR, IDLE, 0, 1) X(TRCSTATR, PMSTABLE, 1, 1) \
    X(TRCCONFIGR, RES1, 0, 1) X(TRCCONFIGR, BB, 3, 1) X(TRCCONFIGR, CCI, 4, 1) \
    X(TRCCONFIGR, CID, 6, 1) X(TRCCONFIGR, VMID, 7, 1) X(TRCCONFIGR, TS, 11, 1) \
    X(TRCCONFIGR, RS, 12, 1) X(TRCCONFIGR, QE, 13, 2) X(TRCCONFIGR, VMIDOPT, 15, 1) \
    X(TRCCONFIGR, ITO, 18, 1) \
    X(TRCEVENTCTL1R, INSTEN, 0, 4) X(TRCEVENTCTL1R, ATB, 11, 1) \
    X(TRCEVENTCTL1R, LPOVERRIDE, 12, 1) X(TRCEVENTCTL1R, OE, 13, 1) \
    X(TRCEVENT, SEL, 0, 5) X(TRCEVENT, TYPE, 7, 1) \
    X(TRCEXTINSELR, evtCount, 0, 16) X(TRCRSR, EXTIN, 0, 4) X(TRCRSR, EVENT, 8, 4) X(TRCRSR, TA, 12, 1) \
    X(TRCSYNCPR, PERIOD, 0, 5) X(TRCCCCTLR, THRESHOLD, 0, 12) \
    X(TRCBBCTLR, RANGE, 0, 8) X(TRCBBCTLR, MODE, 8, 1) X(TRCTRACEIDR, TRACEID, 0, 7) \
    X(TRCVICTLR, EVENT_SEL, 0, 5) X(TRCVICTLR, EVENT_TYPE, 7, 1) X(TRCVICTLR, SSSTATUS, 9, 1) \
    X(TRCVICTLR, TRCRESET, 10, 1) X(TRCVICTLR, TRCERR, 11, 1) X(TRCVICTLR, EXLEVEL_S, 16, 4) \
    X(TRCVICTLR, EXLEVEL_NS, 20, 3) X(TRCVICTLR, EXLEVEL_RL, 24, 3) \
    X(TRCVIIECTLR, INCLUDE, 0, 8) X(TRCVIIECTLR, EXCLUDE, 16, 8) \
    X(TRCVISSCTLR, START, 0, 16) X(TRCVISSCTLR, STOP, 16, 16) \
    X(TRCRSCTLR, SELECT, 0, 16) X(TRCRSCTLR, GROUP, 16, 4) X(TRCRSCTLR, INV, 20, 1) \
    X(TRCRSCTLR, PAIRINV, 21, 1) \
    X(TRCCNTCTLR, CNTEVENT_SEL, 0, 5) X(TRCCNTCTLR, CNTEVENT_TYPE, 7, 1) \
    X(TRCCNTCTLR, RLDEVENT_SEL, 8, 5) X(TRCCNTCTLR, RLDEVENT_TYPE, 15, 1) \
    X(TRCCNTCTLR, RLDSELF, 16, 1) X(TRCCNTCTLR, CNTCHAIN, 17, 1) \
    X(TRCCNTRLDVR, VALUE, 0, 16) X(TRCCNTVR, VALUE, 0, 16) \
    X(TRCACATR, TYPE, 0, 2) X(TRCACATR, CONTEXTTYPE, 2, 2) X(TRCACATR, CONTEXT, 4, 3) \
    X(TRCACATR, EXLEVEL_S, 8, 4) X(TRCACATR, EXLEVEL_NS, 12, 3) X(TRCACATR, EXLEVEL_RL, 16, 3) \
    X(TRCIDR0, RES1, 0, 1) X(TRCIDR0, INSTP0, 1, 2) X(TRCIDR0, TRCDATA, 3, 2) \
    X(TRCIDR0, TRCBB, 5, 1) X(TRCIDR0, TRCCOND, 6, 1) X(TRCIDR0, TRCCCI, 7, 1) \
    X(TRCIDR0, RETSTACK, 9, 1) X(TRCIDR0, NUMEVENT, 10, 2) X(TRCIDR0, CONDTYPE, 12, 2) \
    X(TRCIDR0, QFILT, 14, 1) X(TRCIDR0, QSUPP, 15, 2) X(TRCIDR0, TRCEXDATA, 17, 1) \
    X(TRCIDR0, ITE, 22, 1) X(TRCIDR0, TSMARK, 23, 1) X(TRCIDR0, TSSIZE, 24, 5) \
    X(TRCIDR0, COMMOPT, 29, 1) X(TRCIDR0, COMMTRANS, 30, 1) \
    X(TRCIDR1, REVISION, 0, 4) X(TRCIDR1, TRCARCHMIN, 4, 4) X(TRCIDR1, TRCARCHMAJ, 8, 4) \
    X(TRCIDR1, RES1, 12, 4) X(TRCIDR1, DESIGNER, 24, 8) \
    X(TRCIDR2, IASIZE, 0, 5) X(TRCIDR2, CIDSIZE, 5, 5) X(TRCIDR2, VMIDSIZE, 10, 5) \
    X(TRCIDR2, DASIZE, 15, 5) X(TRCIDR2, DVSIZE, 20, 5) X(TRCIDR2, CCSIZE, 25, 4) \
    X(TRCIDR2, VMIDOPT, 29, 2) X(TRCIDR2, WFXMODE, 31, 1) \
    X(TRCIDR3, CCITMIN, 0, 12) X(TRCIDR3, EXLEVEL_S, 16, 4) X(TRCIDR3, EXLEVEL_NS, 20, 3) \
    X(TRCIDR3, TRCERR, 24, 1) X(TRCIDR3, SYNCPR, 25, 1) X(TRCIDR3, STALLCTL, 26, 1) \
    X(TRCIDR3, SYSSTALL, 27, 1) X(TRCIDR3, NOOVERFLOW, 31, 1) \
    X(TRCIDR4, NUMACPAIRS, 0, 4) X(TRCIDR4, NUMDVC, 4, 4) X(TRCIDR4, SUPPDAC, 8, 1) \
    X(TRCIDR4, NUMPC, 12, 4) X(TRCIDR4, NUMRSPAIR, 16, 4) X(TRCIDR4, NUMSSCC, 20, 4) \
    X(TRCIDR4, NUMCIDC, 24, 4) X(TRCIDR4, NUMVMIDC, 28, 4) \
    X(TRCIDR5, NUMEXTIN, 0, 9) X(TRCIDR5, NUMEXTINSEL, 9, 3) X(TRCIDR5, TRACEIDSIZE, 16, 6) \
    X(TRCIDR5, ATBTRIG, 22, 1) X(TRCIDR5, LPOVERRIDE, 23, 1) X(TRCIDR5, NUMSEQSTATE, 25, 3) \
    X(TRCIDR5, NUMCNTR, 28, 3) X(TRCIDR5, OE, 31, 1) \
    X(TRCIDR6, EXLEVEL_RL, 0, 3) \
    X(TRCOSLSR, OSLM0, 0, 1) X(TRCOSLSR, OSLK, 1, 1) X(TRCOSLSR, OSLM, 3, 2) \
    X(TRCDEVARCH, ARCHPART, 0, 12) X(TRCDEVARCH, ARCHVER, 12, 4) \
    X(TRCDEVARCH, REVISION, 16, 4) X(TRCDEVARCH, PRESENT, 20, 1) \
    X(TRCDEVARCH, ARCHITECT, 21, 11) \
    X(TRCAUTHSTATUS, NSID, 0, 2) X(TRCAUTHSTATUS, NSNID, 2, 2) X(TRCAUTHSTATUS, SID, 4, 2) \
    X(TRCAUTHSTATUS, SNID, 6, 2) X(TRCAUTHSTATUS, HID, 8, 2) X(TRCAUTHSTATUS, HNID, 10, 2) \
    X(TRCAUTHSTATUS, RLID, 12, 2) X(TRCAUTHSTATUS, RLNID, 14, 2) \
    X(TRCAUTHSTATUS, RTID, 24, 2) X(TRCAUTHSTATUS, RTNID, 26, 2)

/* Bit positions shared by the counter-bitmap registers PMCNTEN*, PMOVS*, PMINTEN*, PMZR, PMUACR. */
#define PMT_CYCLE_COUNTER_ID 31       /* bit C, and CYCLE_COUNTER_ID of the pseudocode */
#define PMT_INSTRUCTION_COUNTER_ID 32 /* bit F0, and INSTRUCTION_COUNTER_ID of the pseudocode */
#define PMT_MAX_EVENT_COUNTERS 31

/* System registers with a single encoding that the model answers: X(ID, op0, op1, CRn, CRm, op2). */
#define PMT_SYSREG_LIST(X) \
    X(PMCR_EL0,       3, 3,  9, 12, 0) X(PMCNTENSET_EL0, 3, 3,  9, 12, 1) \
    X(PMCNTENCLR_EL0, 3, 3,  9, 12, 2) X(PMOVSCLR_EL0,   3, 3,  9, 12, 3) \
    X(PMSWINC_EL0,    3, 3,  9, 12, 4) X(PMSELR_EL0,     3, 3,  9, 12, 5) \
    X(PMCEID0_EL0,    3, 3,  9, 12, 6) X(PMCEID1_EL0,    3, 3,  9, 12, 7) \
    X(PMCCNTR_EL0,    3, 3,  9, 13, 0) X(PMXEVTYPER_EL0, 3, 3,  9, 13, 1) \
    X(PMXEVCNTR_EL0,  3, 3,  9, 13, 2) X(PMZR_EL0,       3, 3,  9, 13, 4) \
    X(PMUSERENR_EL0,  3, 3,  9, 14, 0) X(PMOVSSET_EL0,   3, 3,  9, 14, 3) \
    X(PMINTENSET_EL1, 3, 0,  9, 14, 1) X(PMINTENCLR_EL1, 3, 0,  9, 14, 2) \
    X(PMMIR_EL1,      3, 0,  9, 14, 6) X(PMUACR_EL1,     3, 0,  9, 14, 4) \
    X(PMECR_EL1,      3, 0,  9, 14, 5) X(PMIAR_EL1,      3, 0,  9, 14, 7) \
    X(PMCCFILTR_EL0,  3, 3, 14, 15, 7) X(PMICNTR_EL0,    3, 3,  9,  4, 0) \
    X(PMICFILTR_EL0,  3, 3,  9,  6, 0) X(PMSSCR_EL1,     3, 0,  9, 13, 3) \
    X(PMCCNTSVR_EL1,  2, 0, 14, 11, 7) X(PMICNTSVR_EL1,  2, 0, 14, 12, 0) \
    X(MDCR_EL2,       3, 4,  1,  1, 1) X(MDCR_EL3,       3, 6,  1,  3, 1) \
    X(OSLAR_EL1,      2, 0,  1,  0, 4) X(OSLSR_EL1,      2, 0,  1,  1, 4) \
    X(OSDLR_EL1,      2, 0,  1,  3, 4) X(DBGPRCR_EL1,    2, 0,  1,  4, 4) \
    X(TRBLIMITR_EL1,  3, 0,  9, 11, 0) X(TRBPTR_EL1,     3, 0,  9, 11, 1) \
    X(TRBBASER_EL1,   3, 0,  9, 11, 2) X(TRBSR_EL1,      3, 0,  9, 11, 3) \
    X(TRBMAR_EL1,     3, 0,  9, 11, 4) X(TRBMPAM_EL1,    3, 0,  9, 11, 5) \
    X(TRBTRG_EL1,     3, 0,  9, 11, 6) X(TRBIDR_EL1,     3, 0,  9, 11, 7) \
    X(TRBSR_EL2,      3, 4,  9, 11, 3) X(TRBSR_EL12,     3, 5,  9, 11, 3) \
    X(TRBSR_EL3,      3, 6,  9, 11, 3) \
    X(TRFCR_EL1,      3, 0,  1,  2, 1) X(TRFCR_EL2,      3, 4,  1,  2, 1) \
    X(TRFCR_EL12,     3, 5,  1,  2, 1) \
    X(TRCPRGCTLR,     2, 1,  0,  1, 0) X(TRCSTATR,       2, 1,  0,  3, 0) \
    X(TRCRSR,         2, 1,  0, 10, 0) \
    X(TRCCONFIGR,     2, 1,  0,  4, 0) X(TRCAUXCTLR,     2, 1,  0,  6, 0) \
    X(TRCEVENTCTL0R,  2, 1,  0,  8, 0) X(TRCEVENTCTL1R,  2, 1,  0,  9, 0) \
    X(TRCSTALLCTLR,   2, 1,  0, 11, 0) X(TRCTSCTLR,      2, 1,  0, 12, 0) \
    X(TRCSYNCPR,      2, 1,  0, 13, 0) X(TRCCCCTLR,      2, 1,  0, 14, 0) \
    X(TRCBBCTLR,      2, 1,  0, 15, 0) X(TRCTRACEIDR,    2, 1,  0,  0, 1) \
    X(TRCQCTLR,       2, 1,  0,  1, 1) X(TRCVICTLR,      2, 1,  0,  0, 2) \
    X(TRCVIIECTLR,    2, 1,  0,  1, 2) X(TRCVISSCTLR,    2, 1,  0,  2, 2) \
    X(TRCIDR0,        2, 1,  0,  8, 7) X(TRCIDR1,        2, 1,  0,  9, 7) \
    X(TRCIDR2,        2, 1,  0, 10, 7) X(TRCIDR3,        2, 1,  0, 11, 7) \
    X(TRCIDR4,        2, 1,  0, 12, 7) X(TRCIDR5,        2, 1,  0, 13, 7) \
    X(TRCIDR6,        2, 1,  0, 14, 7) X(TRCIDR7,        2, 1,  0, 15, 7) \
    X(TRCIDR8,        2, 1,  0,  0, 6) X(TRCIDR9,        2, 1,  0,  1, 6) \
    X(TRCIDR10,       2, 1,  0,  2, 6) X(TRCIDR11,       2, 1,  0,  3, 6) \
    X(TRCIDR12,       2, 1,  0,  4, 6) X(TRCIDR13,       2, 1,  0,  5, 6) \
    X(TRCCIDCCTLR0,   2, 1,  3,  0, 2) X(TRCCIDCCTLR1,   2, 1,  3,  1, 2) \
    X(TRCVMIDCCTLR0,  2, 1,  3,  2, 2) X(TRCVMIDCCTLR1,  2, 1,  3,  3, 2) \
    X(TRCOSLSR,       2, 1,  1,  1, 4) X(TRCCLAIMSET,    2, 1,  7,  8, 6) \
    X(TRCCLAIMCLR,    2, 1,  7,  9, 6) X(TRCDEVARCH,     2, 1,  7, 15, 6) \
    X(TRCDEVID,       2, 1,  7,  2, 7) X(TRCAUTHSTATUS,  2, 1,  7, 14, 6)
/* clang-format on */

/* PMT_<REG>_<FIELD>_SHIFT and PMT_<REG>_<FIELD>_WIDTH for every field of PMT_FIELD_LIST. */
#define PMT_FIELD_CONSTANTS_(reg, field, lsb, width)                                               \
    PMT_##reg##_##field##_SHIFT = (lsb), PMT_##reg##_##field##_WIDTH = (width),
enum { PMT_FIELD_LIST(PMT_FIELD_CONSTANTS_) PMT_FIELD_CONSTANTS_END_ };

/* Mask, extract and place a field: PMT_MASK(PMCR, N), PMT_GET(PMCR, N, v), PMT_PUT(PMCR, N, x). */
#define PMT_WMASK_(width) (~UINT64_C(0) >> (64 - (width)))
#define PMT_MASK(reg, field)                                                                       \
    (PMT_WMASK_(PMT_##reg##_##field##_WIDTH) << PMT_##reg##_##field##_SHIFT)
#define PMT_GET(reg, field, value)                                                                 \
    (((uint64_t)(value) >> PMT_##reg##_##field##_SHIFT) & PMT_WMASK_(PMT_##reg##_##field##_WIDTH))
#define PMT_PUT(reg, field, x)                                                                     \
    (((uint64_t)(x)&PMT_WMASK_(PMT_##reg##_##field##_WIDTH)) << PMT_##reg##_##field##_SHIFT)

/* Identity of a register the model answers. */
#define PMT_REG_ID_(id, op0, op1, crn, crm, op2) PMT_REG_##id,
typedef enum pmt_reg_id {
    PMT_REG_NONE = 0,
    PMT_SYSREG_LIST(PMT_REG_ID_) PMT_REG_PMEVCNTR_EL0, /* PMEVCNTR<n>_EL0, index n */
    PMT_REG_PMEVTYPER_EL0,                             /* PMEVTYPER<n>_EL0, index n */
    PMT_REG_PMEVCNTSVR_EL1,                            /* PMEVCNTSVR<n>_EL1, index n */
    PMT_REG_TRCRSCTLR,                                 /* TRCRSCTLR<n>, index n = 2..31 */
    PMT_REG_TRCACVR,                                   /* TRCACVR<n>, index n = 0..15 */
    PMT_REG_TRCACATR,                                  /* TRCACATR<n>, index n = 0..15 */
    PMT_REG_TRCCIDCVR,                                 /* TRCCIDCVR<n>, index n = 0..7 */
    PMT_REG_TRCVMIDCVR,                                /* TRCVMIDCVR<n>, index n = 0..7 */
    PMT_REG_TRCEXTINSELR,                              /* TRCEXTINSELR<n>, index n = 0..3 */
    PMT_REG_TRCCNTRLDVR,                               /* TRCCNTRLDVR<n>, index n = 0..3 */
    PMT_REG_TRCCNTCTLR,                                /* TRCCNTCTLR<n>, index n = 0..3 */
    PMT_REG_TRCCNTVR,                                  /* TRCCNTVR<n>, index n = 0..3 */
    PMT_REG_COUNT_
} pmt_reg_id;

/* A decoded register: which one, and for a family the index n. */
typedef struct pmt_reg_ref {
    pmt_reg_id id;
    unsigned index;
} pmt_reg_ref;

/*
 * What an offset of an external frame names (pmt_pmu_ext_name, pmt_debug_ext_name,
 * pmt_trbe_ext_name): a register the PE also reaches with MRS/MSR, with the 32-bit half a 4-byte
 * access at the offset reaches; or a register of the frame only, by its architectural name; or
 * nothing (reg.id PMT_REG_NONE and own NULL).
 */
typedef struct pmt_ext_name {
    pmt_reg_ref reg; /* a register of the PE's view, or PMT_REG_NONE */
    const char *own; /* otherwise the name of a register of the frame only, e.g. "PMDEVARCH" */
    unsigned half;   /* 1: bits [63:32] of a 64-bit register; 0: bits [31:0], or a 32-bit one */
} pmt_ext_name;

/* Decodes an MRS/MSR encoding; id is PMT_REG_NONE when the encoding is not one of ours. */
pmt_reg_ref pmt_sysreg_decode(pmt_sysreg enc);
/* The encoding of a register (for a family the index picks the member). */
pmt_sysreg pmt_sysreg_encode(pmt_reg_ref reg);
/* The architectural name, e.g. "PMCR_EL0", or "PMEVCNTR<n>_EL0" for a family. */
const char *pmt_reg_name(pmt_reg_id id);

/*
 * Formats "NAME = 0xVALUE {F1=v, F2=v}" into buf (always NUL-terminated, truncated to size),
 * listing the fields of the register's layout that are nonzero. Returns the length it wanted.
 */
size_t pmt_reg_format(pmt_reg_ref reg, uint64_t value, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
