// Circular Buffer mode with a 4 KiB buffer and a long loop of 400000 iterations (about 17 KiB of
// trace): the buffer wraps with no management event and keeps the newest trace (ete_capture.inc).
#define VICTLR 0x201
#define FM 3
#define LIMIT 0x40101000
#define LONG 400000
#include "ete_capture.inc"
