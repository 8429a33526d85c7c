// The common event table (D14.3).
#include <gtest/gtest.h>
#include <pmtrace/pmt_events.h>

#include <cstring>

namespace
{

TEST(Events, NumbersMapToTheirMnemonics)
{
    EXPECT_STREQ(pmt_event_lookup(0x0000)->name, "SW_INCR");
    EXPECT_STREQ(pmt_event_lookup(0x0008)->name, "INST_RETIRED");
    EXPECT_STREQ(pmt_event_lookup(0x0011)->name, "CPU_CYCLES");
    EXPECT_STREQ(pmt_event_lookup(0x001E)->name, "CHAIN");
    EXPECT_STREQ(pmt_event_lookup(0x400C)->name, "TRB_WRAP");
    EXPECT_STREQ(pmt_event_lookup(0x400D)->name, "PMU_OVFS");
    EXPECT_STREQ(pmt_event_lookup(0x400E)->name, "TRB_TRIG");
    EXPECT_STREQ(pmt_event_lookup(0x400F)->name, "PMU_HOVFS");
}

TEST(Events, ReservedNumbersAreNotInTheTable)
{
    EXPECT_EQ(pmt_event_lookup(0x1000), nullptr);
    EXPECT_EQ(pmt_event_lookup(0xFFFF), nullptr);
}

TEST(Events, LookupByNameFindsTheSameEntry)
{
    const pmt_event_info *e = pmt_event_by_name("BR_MIS_PRED_RETIRED");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->number, 0x0022);
    EXPECT_EQ(pmt_event_by_name("NO_SUCH_EVENT"), nullptr);
    EXPECT_EQ(pmt_event_by_name(nullptr), nullptr);
}

TEST(Events, TableIsSortedAndEveryEntryIsFoundByNumber)
{
    size_t n = pmt_event_table_size();
    ASSERT_GT(n, 100u);
    for (size_t i = 0; i < n; i++) {
        const pmt_event_info *e = pmt_event_at(i);
        if (i > 0) {
            EXPECT_LT(pmt_event_at(i - 1)->number, e->number);
        }
        EXPECT_EQ(pmt_event_lookup(e->number), e);
    }
    EXPECT_EQ(pmt_event_at(n), nullptr);
}

TEST(Events, PmuInternalEventsAreFlagged)
{
    EXPECT_TRUE(pmt_event_lookup(0x0000)->flags & PMT_EVENT_PMU_INTERNAL);
    EXPECT_TRUE(pmt_event_lookup(0x001E)->flags & PMT_EVENT_PMU_INTERNAL);
    EXPECT_FALSE(pmt_event_lookup(0x0008)->flags & PMT_EVENT_PMU_INTERNAL);
}

} // namespace
