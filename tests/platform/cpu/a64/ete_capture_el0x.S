// EL0 excluded: TRCVICTLR.EXLEVEL_NS_EL0 [20] (ete_capture.inc).
#define VICTLR (0x201 | (1 << 20))
#include "ete_capture.inc"
