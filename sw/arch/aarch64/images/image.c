/* image.c - what the bare-metal mains share (image.h). */
#include "image.h"

#include "hal_a64.h"

#include <stdarg.h>
#include <stdio.h>

void image_print(const char *text)
{
    hal_puts(hal_a64(), text);
}

void image_printf(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    image_print(line);
}

void image_banner(const char *app)
{
    uint64_t el = 0;
    (void)hal_sysreg_read(hal_a64(), HAL_CURRENTEL, &el);
    image_printf("pmtrace sw/%s on AArch64: entered at EL%u, running at EL%u\n", app,
                 hal_a64_entry_el(), (unsigned)(el >> 2) & 3);
}

sw_workload image_loop(sw_loop *loop, uint64_t iterations, uint64_t instructions, uint8_t el)
{
    sw_loop_init(loop);
    loop->iterations = iterations;
    loop->instructions = instructions;
    loop->el = el;
    return sw_loop_workload(loop);
}
