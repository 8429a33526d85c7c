// kernel_trace.cpp - the trace session around a --kernel image (kernel_trace.h).
#include "kernel_trace.h"

#include <pmtrace/platform/cpu/a64_debug_hal.h>
#include <pmtrace/platform/bus/memory_map.h>
#include <pmtrace/platform/trace/opencsd_snapshot.h>

#include <cstdio>

namespace pmtrace::vp_cli
{

namespace
{

const char *mode_name(unsigned fm)
{
    return fm == PMT_TRBLIMITR_FM_WRAP       ? "Wrap"
           : fm == PMT_TRBLIMITR_FM_CIRCULAR ? "Circular Buffer"
                                             : "Fill";
}

// TRFCR_EL2's EL2 and host EL0 trace enables, the rest (TRFCR_EL2.EE, TS) as firmware left it.
void write_trfcr_el2(const hal *h, uint64_t enables)
{
    const uint64_t mask = PMT_MASK(TRFCR_EL2, E0HTRE) | PMT_MASK(TRFCR_EL2, E2TRE);
    uint64_t v = 0;
    (void)hal_sysreg_read(h, HAL_TRFCR_EL2, &v);
    (void)hal_sysreg_write(h, HAL_TRFCR_EL2, (v & ~mask) | (enables & mask));
}

} // namespace

kernel_trace::kernel_trace(const options &o, platform::vp &vp) : o_(o), vp_(vp)
{
    vp_.a64->set_boot_hook([this] { start(); });
}

// etm_event_start's order: the sink (the Trace Buffer Unit), then the source (the ETE), then
// the trace filters (TRFCR_EL1 for EL0 and EL1; TRFCR_EL2 for EL2 and, with E2H, its EL0).
void kernel_trace::start()
{
    platform::with_debug_hal(*vp_.a64, [this](const hal *h) {
        int st = sw_trbe_probe(&trbe_, h);
        sw_trbe_buf buf =
            sw_trbe_linux_buf(o_.buffer_base, o_.buffer_base, o_.buffer_base + o_.buffer_size);
        buf.fill_mode = o_.fill_mode;
        st = st ? st : sw_trbe_enable(&trbe_, &buf);
        sw_ete_config c{};
        c.trace_id = 0x10;
        c.timestamp = o_.timestamps;
        c.exclude_user = o_.exclude_user;
        c.exclude_kernel = o_.exclude_kernel;
        st = st ? st : sw_ete_probe(&ete_, h);
        st = st ? st : sw_ete_enable(&ete_, &c);
        if (!st) {
            sw_trbe_write_trfcr(&trbe_, sw_ete_trfcr_el1(&c));
            if (vp_.config().pe.core.have_el2)
                write_trfcr_el2(h, (o_.exclude_user ? 0 : PMT_MASK(TRFCR_EL2, E0HTRE)) |
                                       (o_.exclude_kernel ? 0 : PMT_MASK(TRFCR_EL2, E2TRE)));
        }
        status_ = st;
    });
}

bool kernel_trace::finish(std::vector<uint8_t> &trace, std::string &error)
{
    if (status_) {
        error = std::string("the trace session did not start: ") + sw_strerror(status_);
        return false;
    }
    sw_trbe_irq_info info{};
    int st = 0;
    // etm_event_stop: the filters, the source, then the sink's buffer.
    platform::with_debug_hal(*vp_.a64, [&](const hal *h) {
        trbe_.h = h;
        ete_.h = h;
        sw_trbe_write_trfcr(&trbe_, 0);
        if (vp_.config().pe.core.have_el2)
            write_trfcr_el2(h, 0);
        st = sw_ete_disable(&ete_);
        const int r2 = sw_trbe_update_buffer(&trbe_, &info);
        st = st ? st : r2;
    });
    if (st) {
        error = std::string("the trace session did not stop: ") + sw_strerror(st);
        return false;
    }
    const uint64_t base = o_.buffer_base, size = o_.buffer_size;
    const uint8_t *ram = vp_.ram.data() + (base - platform::virt::ram_base);
    const bool wrapped = PMT_GET(TRBSR, WRAP, info.trbsr) != 0;
    const uint64_t ptr = info.trbptr - base;
    if (ptr > size) {
        error = "TRBPTR_EL1 is outside the buffer at the end";
        return false;
    }
    if (o_.fill_mode == PMT_TRBLIMITR_FM_FILL)
        trace.assign(ram, ram + (wrapped ? size : ptr)); // full: the buffer's bytes, oldest first
    else if (platform::trace_buffer_in_time_order(std::vector<uint8_t>(ram, ram + size), ptr,
                                                  wrapped,
                                                  trace) != platform::snapshot_status::ok) {
        error = "the buffer could not be put in time order";
        return false;
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  "trace: %s mode, buffer 0x%llx..0x%llx: %zu bytes captured%s, TRBSR_EL1 0x%llx, "
                  "TRBPTR_EL1 0x%llx\n",
                  mode_name(o_.fill_mode), static_cast<unsigned long long>(base),
                  static_cast<unsigned long long>(base + size), trace.size(),
                  wrapped ? (o_.fill_mode == PMT_TRBLIMITR_FM_FILL ? " (the buffer filled)"
                                                                   : " (the buffer wrapped)")
                          : "",
                  static_cast<unsigned long long>(info.trbsr),
                  static_cast<unsigned long long>(info.trbptr));
    text_ = line;
    return true;
}

} // namespace pmtrace::vp_cli
