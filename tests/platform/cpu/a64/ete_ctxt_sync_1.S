// One ISB after enabling the TRBE (ete_ctxt_sync.inc).
#define ISBS 1
#include "ete_ctxt_sync.inc"
