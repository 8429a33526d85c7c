// Stop on trigger (TRBLIMITR_EL1.TM 0b00): the trace unit's trigger condition at the first call
// after the long loop (call_func), the Trigger Counter at 128 bytes, and 64 more calls after it
// for the trace it counts (ete_capture.inc).
#define VICTLR 0x201
#define TM 0
#define TRG 128
#define TRIGGER_AT call_func
#define CALLS 64
#include "ete_capture.inc"
