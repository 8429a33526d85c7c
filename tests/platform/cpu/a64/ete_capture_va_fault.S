// ete_capture_va.S with a long capture that reaches the buffer's third page, whose level 3
// descriptor THIRD (when not defined: invalid) makes the Trace Buffer Unit's stage 1 walk fault.
#ifndef THIRD
#define THIRD 0                 // invalid: a Translation fault
#endif
#define LONG 400000
#include "ete_capture_va.S"
