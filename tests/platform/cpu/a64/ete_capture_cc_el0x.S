// Cycle counting with timestamps, Linux's default threshold (TRCCCCTLR 0x100) and EL0 excluded
// (TRCVICTLR.EXLEVEL_NS_EL0 [20]): TRCCONFIGR.CCI [4] and TS [11] (ete_capture.inc).
#define VICTLR (0x201 | (1 << 20))
#define CONFIGR ((1 << 4) | (1 << 11))
#define CCCTLR 0x100
#include "ete_capture.inc"
