// The third page of the buffer read-only (AP[2] 1): a Permission fault on the unit's write.
#define THIRD 0x40102783
#include "ete_capture_va_fault.S"
