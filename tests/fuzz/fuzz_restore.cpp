// fuzz_restore.cpp - harness (5): saved states mutated, or any bytes, into pmt_pe_restore; a
// state it accepts is run on.
#include "fuzz_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    fuzz::run_restore(in);
    return 0;
}
