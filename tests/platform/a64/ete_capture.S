// Everything traced: TRCVICTLR EVENT = resource 1 (TRUE), SSSTATUS = 1 (ete_capture.inc).
#define VICTLR 0x201
#include "ete_capture.inc"
