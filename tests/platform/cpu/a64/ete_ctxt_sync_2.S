// Two ISBs after enabling the TRBE, as Linux does with ARM64_WORKAROUND_2038923
// (ete_ctxt_sync.inc).
#define ISBS 2
#include "ete_ctxt_sync.inc"
