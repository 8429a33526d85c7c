// The third page of the buffer with its Access flag 0, TCR_EL1.HA 0: an Access flag fault.
#define THIRD 0x40102303
#include "ete_capture_va_fault.S"
