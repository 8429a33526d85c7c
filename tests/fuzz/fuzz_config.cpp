// fuzz_config.cpp - harness (1): any config to pmt_pe_create (refused or accepted, never a
// crash), then any operation on the model it made.
#include "fuzz_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    pmt_pe_config cfg = fuzz::config_any(in);
    fuzz::run(cfg, fuzz::Mix::All, in);
    return 0;
}
