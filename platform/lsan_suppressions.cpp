// lsan_suppressions.cpp - LeakSanitizer suppressions for leaks inside the platform's dependencies,
// which the sanitizer build of the trace tests and of pmtrace-vp would otherwise report.
// Unicorn 2.0.1 (Debian bookworm's libunicorn2):
//   - tb_invalidate_phys_page_fast allocates a page's code bitmap (QEMU's self-modifying code
//     detection) that uc_close never frees: a Linux boot writes to pages holding translated code
//     (tests/linux).
// OpenCSD 1.3.3 (Debian bookworm's libopencsd):
//   - ocsd_dt_set_gen_elem_outfn allocates the element callback object that
//     ocsd_destroy_dcd_tree never frees (Linaro/OpenCSD issue #55, fixed in later releases);
//   - EtmV4P0Stack::createAddrElem leaks an element when nonsense trace makes the decoder cancel
//     speculative elements (Linaro/OpenCSD issue #52, found by fuzzing; the random-buffer tests
//     reach it).
// All are in the libraries, not in pmtrace; every other leak is still reported. The sanitizer
// runtime asks the program for this function; it does nothing in a build without sanitizers.
extern "C" const char *__lsan_default_suppressions();
extern "C" const char *__lsan_default_suppressions()
{
    return "leak:tb_invalidate_phys_page_fast_aarch64\n"
           "leak:ocsd_dt_set_gen_elem_outfn\n"
           "leak:EtmV4P0Stack::createAddrElem\n";
}
