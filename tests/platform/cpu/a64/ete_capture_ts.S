// Timestamps: TRCCONFIGR.TS [11] (ete_capture.inc).
#define VICTLR 0x201
#define CONFIGR (1 << 11)
#include "ete_capture.inc"
