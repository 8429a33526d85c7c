// The capture area (sw/apps/capture.h): what a trace session writes part by part is what a
// reader gets back, and a reader refuses what is not a capture area.
#include "apps/capture.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace
{

struct area {
    alignas(8) uint8_t bytes[256] = {};
    sw_capture c{};
};

// Appends `text` to the open part as the trace app does: reserve, write, commit.
uint64_t append(sw_capture &c, const std::string &text)
{
    uint64_t n = text.size();
    uint8_t *to = sw_capture_reserve(&c, &n);
    std::memcpy(to, text.data(), static_cast<size_t>(n));
    sw_capture_commit(&c, n, text.size() - n);
    return n;
}

std::vector<std::string> parts_of(const uint8_t *bytes, uint64_t size)
{
    std::vector<std::string> out;
    uint64_t offset = 0, len = 0;
    const uint8_t *data = nullptr;
    const char *error = nullptr;
    while (sw_capture_next(bytes, size, &offset, &data, &len, &error))
        out.emplace_back(reinterpret_cast<const char *>(data), static_cast<size_t>(len));
    EXPECT_EQ(error, nullptr) << error;
    return out;
}

} // namespace

TEST(SwCapture, PartsComeBackAsWritten)
{
    area a;
    ASSERT_TRUE(sw_capture_init(&a.c, a.bytes, sizeof a.bytes));
    append(a.c, "abc");
    append(a.c, "defgh"); // the same part: no break between
    sw_capture_close(&a.c);
    append(a.c, "0123456789");
    sw_capture_close(&a.c);
    EXPECT_EQ(parts_of(a.bytes, sizeof a.bytes),
              (std::vector<std::string>{"abcdefgh", "0123456789"}));
    sw_capture_header h;
    std::memcpy(&h, a.bytes, sizeof h);
    EXPECT_EQ(h.magic, SW_CAPTURE_MAGIC);
    EXPECT_EQ(h.parts, 2u);
    EXPECT_EQ(h.used, 8u + 8u + 8u + 16u); // each part: its length word, its bytes padded to 8
    EXPECT_EQ(h.lost, 0u);
}

// An open part reads back as far as it goes (a reader after a run that did not close it).
TEST(SwCapture, AnOpenPartReadsBack)
{
    area a;
    ASSERT_TRUE(sw_capture_init(&a.c, a.bytes, sizeof a.bytes));
    append(a.c, "xyz");
    EXPECT_EQ(parts_of(a.bytes, sizeof a.bytes), (std::vector<std::string>{"xyz"}));
}

// What does not fit is counted as lost, never written past the area.
TEST(SwCapture, WhatDoesNotFitIsLost)
{
    area a;
    const uint64_t size = sizeof(sw_capture_header) + 8 + 16;
    ASSERT_TRUE(sw_capture_init(&a.c, a.bytes, size));
    a.bytes[size] = 0xEE;
    EXPECT_EQ(append(a.c, std::string(20, 'q')), 16u);
    sw_capture_close(&a.c);
    EXPECT_EQ(append(a.c, "more"), 0u); // no room for another part's length
    EXPECT_EQ(a.bytes[size], 0xEE);
    EXPECT_EQ(parts_of(a.bytes, size), (std::vector<std::string>{std::string(16, 'q')}));
    sw_capture_header h;
    std::memcpy(&h, a.bytes, sizeof h);
    EXPECT_EQ(h.lost, 4u + 4u);
}

TEST(SwCapture, InitRefusesTooSmallOrMisaligned)
{
    area a;
    EXPECT_FALSE(sw_capture_init(&a.c, a.bytes, sizeof(sw_capture_header) - 1));
    EXPECT_FALSE(sw_capture_init(&a.c, a.bytes + 1, 64));
    EXPECT_FALSE(sw_capture_init(nullptr, a.bytes, 64));
}

// A reader is told why memory is not a capture area: no magic, a header or a part's length
// larger than the area.
TEST(SwCapture, ReaderRefusesWhatIsNotACaptureArea)
{
    area a;
    uint64_t offset = 0, len = 0;
    const uint8_t *data = nullptr;
    const char *error = nullptr;
    EXPECT_FALSE(sw_capture_next(a.bytes, sizeof a.bytes, &offset, &data, &len, &error));
    EXPECT_NE(error, nullptr);

    ASSERT_TRUE(sw_capture_init(&a.c, a.bytes, sizeof a.bytes));
    append(a.c, "abcd");
    sw_capture_close(&a.c);
    const uint64_t huge = 1000;
    std::memcpy(a.bytes + sizeof(sw_capture_header), &huge, sizeof huge);
    error = nullptr;
    EXPECT_FALSE(sw_capture_next(a.bytes, sizeof a.bytes, &offset, &data, &len, &error));
    EXPECT_NE(error, nullptr);

    sw_capture_header h;
    std::memcpy(&h, a.bytes, sizeof h);
    h.used = sizeof a.bytes;
    std::memcpy(a.bytes, &h, sizeof h);
    offset = 0;
    error = nullptr;
    EXPECT_FALSE(sw_capture_next(a.bytes, sizeof a.bytes, &offset, &data, &len, &error));
    EXPECT_NE(error, nullptr);
}
