/*
 * vp.c - pmtrace-vp's scenario image: the stat, record or trace app over the EL0 loop, as the
 * command line in the device tree asks (bootargs.h; pmtrace-vp writes it from its options, and
 * QEMU's -append gives the same words), with a Fill-mode trace session around stat and record
 * unless pmtrace.trace=0. The trace is the PE's trace unit's (ETE, sw/drivers/ete) when it has
 * one, captured by its Trace Buffer Unit. The tables go to the console; main's status is the apps'.
 *
 *   pmtrace.scenario=stat|record|trace     pmtrace.events=N,N,...   (stat, at most 16)
 *   pmtrace.event=N pmtrace.period=N       (record)                 pmtrace.long=0|1
 *   pmtrace.iterations=N pmtrace.instructions=N pmtrace.per_piece=N pmtrace.el=0|1
 *   pmtrace.exclude=none|user|kernel       pmtrace.trace=0|1
 *   pmtrace.buffer=BASE pmtrace.buffer_size=N pmtrace.mode=fill|wrap|circular
 *   pmtrace.capture=BASE pmtrace.capture_size=N   (a capture area, capture.h: each part of the
 *                                          trace collected, for the host to read after the run)
 *   pmtrace.results=BASE                   (a results area, results.h: the apps' results, for the
 *                                          host to read after the run)
 *   pmtrace.semihosting=1                  (main's status to the host by semihosting SYS_EXIT)
 *   pmtrace.timestamps=0|1                 (the trace unit's Timestamps, TRCCONFIGR.TS)
 */
#include "bootargs.h"
#include "image.h"

#include "a64.h"
#include "apps/results.h"
#include "hal_a64.h"

#include <string.h>

typedef struct vp_args {
    const char *scenario; /* stat, record or trace */
    sw_stat_config stat;
    sw_record_config record;
    sw_trace_config trace;
    bool trace_alongside;
    uint64_t iterations, instructions, per_piece, el;
} vp_args;

static sw_loop loop;
static sw_capture capture;
static sw_record_sample samples[8];
static char text[4096];
static const char *args_text;
static sw_results *results; /* pmtrace.results, or NULL */

/* A number word; false (with a message) when it is present and not a number. */
static bool number(const char *key, uint64_t *v)
{
    char value[24];
    if (!bootarg(args_text, key, value, sizeof value))
        return true;
    if (bootarg_number(value, v))
        return true;
    image_printf("sw/vp: %s=%s is not a number\n", key, value);
    return false;
}

/* One of the words in `names` (NULL-terminated), by index; false when another is given. */
static bool choice(const char *key, const char *const *names, unsigned *v)
{
    char value[16];
    if (!bootarg(args_text, key, value, sizeof value))
        return true;
    for (unsigned i = 0; names[i]; i++)
        if (strcmp(value, names[i]) == 0) {
            *v = i;
            return true;
        }
    image_printf("sw/vp: %s=%s is not one of its values\n", key, value);
    return false;
}

static bool events(sw_stat_config *c)
{
    char value[128];
    if (!bootarg(args_text, "pmtrace.events", value, sizeof value))
        return true;
    c->num_events = 0;
    for (char *p = value; *p;) {
        char *end = p;
        while (*end && *end != ',')
            end++;
        const bool last = !*end;
        *end = '\0';
        uint64_t ev;
        if (c->num_events == SW_STAT_MAX_EVENTS || !bootarg_number(p, &ev) || ev > 0xFFFF) {
            image_printf("sw/vp: pmtrace.events: '%s' is not an event number (or more than %d)\n",
                         p, SW_STAT_MAX_EVENTS);
            return false;
        }
        c->events[c->num_events++] = (uint16_t)ev;
        p = last ? end : end + 1;
    }
    return c->num_events > 0;
}

static bool parse(vp_args *a)
{
    static const char *const scenarios[] = {"stat", "record", "trace", NULL};
    static const char *const excludes[] = {"none", "user", "kernel", NULL};
    static const char *const modes[] = {"fill", "wrap", "circular", NULL};
    static const unsigned mode_values[] = {PMT_TRBLIMITR_FM_FILL, PMT_TRBLIMITR_FM_WRAP,
                                           PMT_TRBLIMITR_FM_CIRCULAR};
    unsigned scenario = 0, exclude = 0, mode = 0;
    uint64_t trace = 1, long_counters = 0, event = PMT_EV_INST_RETIRED, timestamps = 0;
    uint64_t period = 1000000, base = 0x40100000, size = 0x10000, area = 0, area_size = 0;
    uint64_t results_area = 0;
    a->iterations = 1000;
    a->instructions = 1000;
    a->per_piece = 100;
    a->el = 0;
    a->stat = (sw_stat_config){
        .events = {PMT_EV_CPU_CYCLES, PMT_EV_INST_RETIRED, PMT_EV_BR_RETIRED}, .num_events = 3};
    bool ok = choice("pmtrace.scenario", scenarios, &scenario) &&
              choice("pmtrace.exclude", excludes, &exclude) &&
              choice("pmtrace.mode", modes, &mode) && events(&a->stat) &&
              number("pmtrace.iterations", &a->iterations) &&
              number("pmtrace.instructions", &a->instructions) &&
              number("pmtrace.per_piece", &a->per_piece) && number("pmtrace.el", &a->el) &&
              number("pmtrace.trace", &trace) && number("pmtrace.long", &long_counters) &&
              number("pmtrace.event", &event) && number("pmtrace.period", &period) &&
              number("pmtrace.buffer", &base) && number("pmtrace.buffer_size", &size) &&
              number("pmtrace.capture", &area) && number("pmtrace.capture_size", &area_size) &&
              number("pmtrace.timestamps", &timestamps) && number("pmtrace.results", &results_area);
    if (!ok)
        return false;
    if (a->el > 1 || a->per_piece == 0 || event > 0xFFFF || period == 0 || trace > 1 ||
        long_counters > 1 || timestamps > 1) {
        image_print("sw/vp: pmtrace.el is 0 or 1, pmtrace.per_piece and pmtrace.period at least "
                    "1, pmtrace.event 16 bits, pmtrace.trace, pmtrace.long and pmtrace.timestamps "
                    "0 or 1\n");
        return false;
    }
    if (area_size && !sw_capture_init(&capture, (void *)(uintptr_t)area, area_size)) {
        image_print("sw/vp: pmtrace.capture: an 8-byte aligned address and at least 40 bytes\n");
        return false;
    }
    if (results_area % 8) {
        image_print("sw/vp: pmtrace.results: an 8-byte aligned address\n");
        return false;
    }
    if (results_area) {
        results = (sw_results *)(uintptr_t)results_area;
        memset(results, 0, sizeof *results);
        results->layout = SW_RESULTS_LAYOUT;
    }
    a->scenario = scenarios[scenario];
    a->stat.long_counters = long_counters;
    a->stat.exclude_user = exclude == 1;
    a->stat.exclude_kernel = exclude == 2;
    a->record = (sw_record_config){.event = (uint16_t)event,
                                   .period = period,
                                   .long_counter = long_counters,
                                   .exclude_user = exclude == 1,
                                   .exclude_kernel = exclude == 2,
                                   .samples = samples,
                                   .max_samples = sizeof samples / sizeof samples[0]};
    a->trace =
        (sw_trace_config){.base = base,
                          .size = size,
                          .fill_mode = scenario == 2 ? mode_values[mode] : PMT_TRBLIMITR_FM_FILL,
                          .trigger = SW_TRACE_NO_TRIGGER,
                          .exclude_user = exclude == 1,
                          .exclude_kernel = exclude == 2,
                          .trace_id = 0x10,
                          .timestamps = timestamps,
                          .capture = area_size ? &capture : NULL};
    a->trace_alongside = trace && scenario != 2;
    return true;
}

/* The counting session (stat or record) over the loop; its table on the console. */
typedef struct counting {
    const vp_args *args;
    const sw_env *env;
    sw_workload loop;
    int status;
    bool done;
} counting;

static void count(counting *c)
{
    if (strcmp(c->args->scenario, "stat") == 0) {
        sw_stat_result res;
        c->status = sw_stat_run(c->env, &c->args->stat, &c->loop, &res);
        sw_stat_format(&res, text, sizeof text);
        if (results) {
            results->stat = res;
            results->have |= SW_RESULTS_STAT;
        }
    } else {
        sw_record_result res;
        c->status = sw_record_run(c->env, &c->args->record, &c->loop, &res);
        sw_record_format(&c->args->record, &res, text, sizeof text);
        if (results) {
            results->record = res;
            results->have |= SW_RESULTS_RECORD;
        }
    }
    image_print(text);
}

/* The trace session's workload around the counting one: its first and only piece is the
 * counting session (so the counts are the loop's alone, without the trace driver's work). */
static bool counting_next(void *arg, hal_work *work)
{
    (void)work;
    counting *c = arg;
    if (!c->done) {
        c->done = true;
        count(c);
    }
    return false;
}

int main(void)
{
    image_banner("vp");
    args_text = bootargs_of((const void *)(uintptr_t)hal_a64_dtb());
    char semihosting[4];
    a64_semihosting = bootarg(args_text, "pmtrace.semihosting", semihosting, sizeof semihosting) &&
                      strcmp(semihosting, "1") == 0;
    vp_args a;
    if (!parse(&a))
        return SW_EINVAL;
    image_printf("%s: %lu x %lu instructions at EL%lu, %lu a piece%s\n", a.scenario, a.iterations,
                 a.instructions, a.el, a.per_piece,
                 a.trace_alongside ? ", traced in Fill mode alongside" : "");
    sw_env env = sw_env_virt(hal_a64());
    sw_gic gic;
    int ret = sw_gic_init(&gic, env.h, env.gicd_base, env.gicr_base);
    if (ret) {
        image_printf("sw/vp: GIC bring-up failed: %s\n", sw_strerror(ret));
        return ret;
    }
    env.gic = &gic;
    /* The trace is the trace unit's, when the PE has one (else the buffer stays empty). */
    sw_ete ete;
    a.trace.trace_unit = sw_ete_probe(&ete, env.h) == SW_OK;
    sw_workload w = image_loop(&loop, a.iterations, a.instructions, (uint8_t)a.el);
    loop.per_piece = a.per_piece;
    counting c = {.args = &a, .env = &env, .loop = w};
    const sw_workload around = {&c, counting_next};
    if (strcmp(a.scenario, "trace") == 0 || a.trace_alongside) {
        sw_trace_result res;
        ret = sw_trace_run(&env, &a.trace, a.trace_alongside ? &around : &w, &res);
        if (c.status)
            ret = c.status;
        image_print("\n");
        sw_trace_format(&a.trace, &res, text, sizeof text);
        image_print(text);
        if (results) {
            results->trace = res;
            results->have |= SW_RESULTS_TRACE;
        }
    } else {
        count(&c);
        ret = c.status;
    }
    image_printf("\nsw/vp: %s %s\n", a.scenario, ret ? sw_strerror(ret) : "ok");
    if (results) {
        results->status = ret;
        results->magic = SW_RESULTS_MAGIC; /* last: the results are whole */
    }
    return ret;
}
