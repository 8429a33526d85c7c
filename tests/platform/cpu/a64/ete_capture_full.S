// Fill mode with a 4 KiB buffer and a long loop of 400000 iterations (about 17 KiB of trace):
// collection stops when the buffer is full and it keeps the oldest trace (ete_capture.inc).
#define VICTLR 0x201
#define LIMIT 0x40101000
#define LONG 400000
#include "ete_capture.inc"
