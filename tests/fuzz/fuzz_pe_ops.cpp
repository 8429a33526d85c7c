// fuzz_pe_ops.cpp - harness (2): PE state changes, MRS/MSR by encoding (mostly the model's
// own), counts of any event with n up to 2^64-1, exception entry, return and retire, Debug state,
// snapshot requests, PC samples.
#include "fuzz_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    pmt_pe_config cfg = fuzz::config_preset(in);
    fuzz::run(cfg, fuzz::Mix::PeOps, in);
    return 0;
}
