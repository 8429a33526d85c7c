// Everything traced: TRCVICTLR EVENT = resource 1 (TRUE), SSSTATUS = 1; a PMU overflow IRQ after
// 1000 instructions, inside the long loop, returned from with ERET (ete_capture.inc).
#define VICTLR 0x201
#define PMU_IRQ 1000
#include "ete_capture.inc"
