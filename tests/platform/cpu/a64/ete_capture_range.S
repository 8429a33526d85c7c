// A ViewInst include range, [func, func + 4] (its two instructions: BL's and BLR's callee), with
// TRCVIIECTLR.INCLUDE[0] (ete_capture.inc).
#define VICTLR 0x201
#define RANGE_LO func
#define RANGE_HI (func + 4)
#include "ete_capture.inc"
