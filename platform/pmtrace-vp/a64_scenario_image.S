// a64_scenario_image.S - the scenario image (sw_vp.bin, built from sw/arch/aarch64/images/vp.c
// by the cross compiler) inside pmtrace-vp, so the executable runs wherever it is installed.
// PMTRACE_VP_IMAGE is the file's path, given by CMake; without it (no cross compiler) the image
// is empty and pmtrace-vp says so.
    .section .rodata
    .balign 16
    .global pmtrace_vp_image
    .global pmtrace_vp_image_end
pmtrace_vp_image:
#ifdef PMTRACE_VP_IMAGE
    .incbin PMTRACE_VP_IMAGE
#endif
pmtrace_vp_image_end:
    .section .note.GNU-stack, "", %progbits
