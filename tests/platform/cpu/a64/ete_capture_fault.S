// A fault on a page of the buffer stops the capture: a long loop of 400000 iterations (about
// 17 KiB of trace) into the 256 KiB buffer, whose second page the test makes answer a
// Translation fault (ete_capture.inc).
#define VICTLR 0x201
#define LONG 400000
#include "ete_capture.inc"
