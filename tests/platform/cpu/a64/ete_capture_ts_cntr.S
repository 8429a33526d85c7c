// Timestamps as perf asks for them by default (cs_etm/timestamp/): TRCCONFIGR.TS [11] and
// Linux's timestamp counter (ete_capture.inc, TS_COUNTER).
#define VICTLR 0x201
#define CONFIGR (1 << 11)
#define TS_COUNTER
#include "ete_capture.inc"
