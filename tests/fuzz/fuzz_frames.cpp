// fuzz_frames.cpp - harness (3): the external PMU, debug and Trace Buffer frames with any
// offset, size, Security state and value, between PE state changes and MSRs.
#include "fuzz_program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    pmt_pe_config cfg = fuzz::config_preset(in);
    fuzz::run(cfg, fuzz::Mix::Frames, in);
    return 0;
}
