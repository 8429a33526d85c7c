/*
 * pmu_events.c - table of PMU common events (Arm ARM DDI0487 M.a.a, D14.3).
 *
 * The table is generated from PMT_EVENT_LIST in pmt_events.h, the same list that
 * generates the PMT_EV_* constants, so the two cannot drift apart.
 */
#include "pmtrace/pmt_events.h"

#include <string.h>

#define PMT_EV_ROW_(number, mnemonic, flags) {(uint16_t)(number), #mnemonic, (uint8_t)(flags)},
static const pmt_event_info pmt_event_table[] = {PMT_EVENT_LIST(PMT_EV_ROW_)};
#undef PMT_EV_ROW_

/*
 * The list must be strictly ascending by number (pmt_event_lookup() is a binary search).
 * Each entry contributes "(n)) && ((n) <", so the whole expression reads
 * ((-1) < (n0)) && ((n0) < (n1)) && ... && ((nk) < 0x10000).
 */
#define PMT_EV_ASCENDING_(number, mnemonic, flags) (number)) && ((number) <
_Static_assert(((-1) < PMT_EVENT_LIST(PMT_EV_ASCENDING_) 0x10000),
               "PMT_EVENT_LIST must be strictly ascending by event number");
#undef PMT_EV_ASCENDING_

#define PMT_EVENT_TABLE_LEN (sizeof pmt_event_table / sizeof pmt_event_table[0])

const pmt_event_info *pmt_event_lookup(uint16_t number)
{
    size_t lo = 0;
    size_t hi = PMT_EVENT_TABLE_LEN;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint16_t at = pmt_event_table[mid].number;

        if (at < number) {
            lo = mid + 1;
        } else if (at > number) {
            hi = mid;
        } else {
            return &pmt_event_table[mid];
        }
    }
    return NULL;
}

const pmt_event_info *pmt_event_by_name(const char *name)
{
    size_t i;

    if (name == NULL) {
        return NULL;
    }
    for (i = 0; i < PMT_EVENT_TABLE_LEN; i++) {
        if (strcmp(pmt_event_table[i].name, name) == 0) {
            return &pmt_event_table[i];
        }
    }
    return NULL;
}

size_t pmt_event_table_size(void)
{
    return PMT_EVENT_TABLE_LEN;
}

const pmt_event_info *pmt_event_at(size_t index)
{
    if (index >= PMT_EVENT_TABLE_LEN) {
        return NULL;
    }
    return &pmt_event_table[index];
}
