// Cycle counting: TRCCONFIGR.CCI [4], TRCCCCTLR.THRESHOLD 1 (the platform's TRCIDR3.CCITMIN is
// set to 1 by the test): a Cycle Count element at every P0 element; everything traced, a PMU
// overflow IRQ after 1000 instructions (ete_capture.inc).
#define VICTLR 0x201
#define CONFIGR (1 << 4)
#define CCCTLR 1
#define PMU_IRQ 1000
#include "ete_capture.inc"
