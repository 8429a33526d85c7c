// fuzz_trbe.cpp - harness (4): TRBE programming, UNPREDICTABLE programming included (Limit <=
// Base, misaligned pointers, a pointer outside the buffer), trace chunks of 0..64 KiB, translations
// returning every fault kind and stage (and invalid ones), writes returning External aborts.
#include "fuzz_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    pmt_pe_config cfg = fuzz::config_preset(in);
    fuzz::run(cfg, fuzz::Mix::Trbe, in);
    return 0;
}
