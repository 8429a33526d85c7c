// test_state_fields.cpp - the descriptions of the saved state (c-core/src/pe/state.c) and of the
// configuration (c-core/src/pe/config.c) are complete: every byte of struct pmt_pe_arch and of
// pmt_pe_config that is not padding belongs to exactly one described field, and each entry is
// well formed. pmt_pe_save and pmt_pe_restore copy the state only through its description, and
// pmt_pe_restore and pmt_pe_create check each described field's values: a field added to either
// struct without a description fails here (issue 27: the hand-kept list of a state's bools that
// the state had grown past).
//
// Which bytes are padding comes from the compiler: GCC's __builtin_clear_padding clears exactly
// the padding of an object (GCC 11 and later; the test is skipped with a compiler without it).
// This test reaches past the public headers (c-core/src), as the trace unit's filter tests do.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

extern "C" {
#include "pe/fields.h"
#include "pe_internal.h"
}

#include <cstring>
#include <set>
#include <string>
#include <vector>

#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
#define HAVE_CLEAR_PADDING 1
#endif
#endif

namespace
{

struct Description {
    const pe_field *fields;
    size_t n;
};

// Each entry: its element size, its place inside the struct, its range within its type, a
// distinct name; entries in the order of the struct, none overlapping; a count of used bytes that
// is described before the array it counts.
void expect_well_formed(const Description &d, size_t struct_size)
{
    std::set<std::string> names;
    size_t end = 0;
    for (size_t i = 0; i < d.n; i++) {
        const pe_field &f = d.fields[i];
        SCOPED_TRACE(f.name);
        EXPECT_TRUE(names.insert(f.name).second) << "described twice";
        EXPECT_TRUE(f.elem == 1 || f.elem == 2 || f.elem == 4 || f.elem == 8);
        EXPECT_EQ(f.size % f.elem, 0u);
        EXPECT_GE(f.offset, end) << "out of the struct's order, or overlapping the one before";
        EXPECT_LE(f.offset + f.size, struct_size);
        end = f.offset + f.size;
        EXPECT_LE(f.lo, f.hi);
        EXPECT_LE(f.hi, UINT64_MAX >> (64 - 8 * f.elem)) << "a range wider than the type";
        if (f.is_bool) {
            EXPECT_EQ(f.elem, 1u);
        }
        if (f.count_size) {
            bool described = false;
            for (size_t k = 0; k < i; k++)
                described |=
                    d.fields[k].offset == f.count_offset && d.fields[k].size == f.count_size;
            EXPECT_TRUE(described) << "the count is not a field described before the array";
            EXPECT_EQ(f.elem, 1u);
        }
    }
}

// The bytes of a T that are not padding (1) and those that are (0).
template <typename T> std::vector<uint8_t> member_bytes()
{
    alignas(T) unsigned char obj[sizeof(T)];
    std::memset(obj, 0xFF, sizeof obj);
#ifdef HAVE_CLEAR_PADDING
    __builtin_clear_padding(reinterpret_cast<T *>(obj));
#endif
    std::vector<uint8_t> member(sizeof(T));
    for (size_t i = 0; i < sizeof(T); i++)
        member[i] = obj[i] != 0;
    return member;
}

// Every member byte belongs to exactly one described field; no field covers padding.
void expect_complete(const Description &d, const std::vector<uint8_t> &member)
{
    std::vector<int> owner(member.size(), -1);
    for (size_t i = 0; i < d.n; i++)
        for (size_t b = d.fields[i].offset; b < d.fields[i].offset + d.fields[i].size; b++) {
            ASSERT_LT(b, owner.size());
            EXPECT_EQ(owner[b], -1) << d.fields[i].name << " overlaps another field";
            owner[b] = static_cast<int>(i);
            EXPECT_TRUE(member[b]) << d.fields[i].name << " covers padding at byte " << b;
        }
    for (size_t b = 0; b < member.size(); b++)
        if (member[b] && owner[b] < 0) {
            // Name the field before the hole: the new field is after it.
            std::string before = "(the start)";
            for (size_t i = 0; i < d.n; i++)
                if (d.fields[i].offset + d.fields[i].size <= b)
                    before = d.fields[i].name;
            ADD_FAILURE() << "byte " << b << " of the struct is a member's but no field's: a "
                          << "field after " << before << " is not described";
            while (b + 1 < member.size() && member[b + 1] && owner[b + 1] < 0)
                b++;
        }
}

Description state()
{
    Description d{};
    d.fields = pe_state_fields(&d.n);
    return d;
}

Description config()
{
    Description d{};
    d.fields = pe_config_fields(&d.n);
    return d;
}

} // namespace

TEST(StateFields, TheSavedStateDescriptionIsWellFormed)
{
    expect_well_formed(state(), sizeof(pmt_pe_arch));
}

TEST(StateFields, EveryByteOfTheSavedStateBelongsToADescribedField)
{
#ifndef HAVE_CLEAR_PADDING
    GTEST_SKIP() << "the compiler has no __builtin_clear_padding";
#endif
    expect_complete(state(), member_bytes<pmt_pe_arch>());
}

TEST(StateFields, TheConfigDescriptionIsWellFormed)
{
    expect_well_formed(config(), sizeof(pmt_pe_config));
}

TEST(StateFields, EveryByteOfTheConfigBelongsToADescribedField)
{
#ifndef HAVE_CLEAR_PADDING
    GTEST_SKIP() << "the compiler has no __builtin_clear_padding";
#endif
    expect_complete(config(), member_bytes<pmt_pe_config>());
}

// The check itself finds a field left out: with one entry dropped from the description, the
// bytes of that field are reported.
TEST(StateFields, AFieldLeftOutIsFound)
{
#ifndef HAVE_CLEAR_PADDING
    GTEST_SKIP() << "the compiler has no __builtin_clear_padding";
#endif
    Description full = state();
    std::vector<pe_field> less;
    for (size_t i = 0; i < full.n; i++)
        if (std::strcmp(full.fields[i].name, "etr.flush_requested") != 0)
            less.push_back(full.fields[i]);
    ASSERT_EQ(less.size() + 1, full.n);
    EXPECT_NONFATAL_FAILURE(
        expect_complete({less.data(), less.size()}, member_bytes<pmt_pe_arch>()),
        "is not described");
}

// --- Every field of a blob out of its range is refused ---
//
// A blob is a header (magic, size: 8 bytes) and then each described field's bytes in the order
// of the description (c-core/src/pe/state.c), so the test finds a field in a blob by adding up the
// sizes before it.

namespace
{

struct Blob {
    pmt_pe *pe = nullptr;
    std::vector<uint8_t> saved;
    Description d = state();

    Blob()
    {
        pmt_pe_config cfg = pmt_pe_config_default();
        cfg.trbe.feat_trbe = true;
        cfg.ete.feat_ete = true;
        cfg.ete.unit_buffer = PMT_ETE_UNIT_BUFFER_MIN;
        pe = pmt_pe_create(&cfg, nullptr);
        saved.resize(pmt_pe_state_size(pe));
        EXPECT_EQ(pmt_pe_save(pe, saved.data(), saved.size()), PMT_OK);
    }
    ~Blob() { pmt_pe_destroy(pe); }

    size_t at(const char *name) const
    {
        size_t pos = 8;
        for (size_t i = 0; i < d.n; i++) {
            if (std::strcmp(d.fields[i].name, name) == 0)
                return pos;
            pos += d.fields[i].size;
        }
        ADD_FAILURE() << name << " is not described";
        return 0;
    }

    // The blob with element i of field f set to v (little-endian, as the host stores it).
    std::vector<uint8_t> with(const pe_field &f, size_t i, uint64_t v) const
    {
        std::vector<uint8_t> b = saved;
        std::memcpy(&b[at(f.name) + i * f.elem], &v, f.elem);
        return b;
    }

    pmt_status restore(const std::vector<uint8_t> &b)
    {
        return pmt_pe_restore(pe, b.data(), b.size());
    }
};

} // namespace

// Issue 27: a blob whose trace unit state holds 175 in a bool (etr.flush_requested) was restored,
// and the next report loaded it as a bool (UBSan: "load of value 175, which is not a valid value
// for type 'bool'" in ete_trace.c). Every bool of the state, each set to 2, 175 and 255, is refused
// (PMT_ERR_STATE_BLOB), and the model keeps the state it had.
TEST(StateFields, EveryBoolOfTheStateOtherThan0Or1IsRefused)
{
    Blob b;
    ASSERT_EQ(b.restore(b.saved), PMT_OK);
    size_t bools = 0;
    for (size_t i = 0; i < b.d.n; i++) {
        const pe_field &f = b.d.fields[i];
        if (!f.is_bool)
            continue;
        bools++;
        for (uint64_t v : {2u, 175u, 255u}) {
            EXPECT_EQ(b.restore(b.with(f, 0, v)), PMT_ERR_STATE_BLOB) << f.name << " = " << v;
            std::vector<uint8_t> now(b.saved.size());
            ASSERT_EQ(pmt_pe_save(b.pe, now.data(), now.size()), PMT_OK);
            EXPECT_EQ(now, b.saved) << f.name << " = " << v << " changed the model";
        }
    }
    EXPECT_GT(bools, 50u);
    EXPECT_EQ(b.restore(b.saved), PMT_OK);
}

// Every field with a range narrower than its type (an enum, a count, an index, a shift) is refused
// one past each end of its range, in every element.
TEST(StateFields, EveryFieldOutOfItsRangeIsRefused)
{
    Blob b;
    size_t ranged = 0;
    for (size_t i = 0; i < b.d.n; i++) {
        const pe_field &f = b.d.fields[i];
        const uint64_t type_max = UINT64_MAX >> (64 - 8 * f.elem);
        if (f.is_bool || f.count_size)
            continue;
        for (size_t e = 0; e < f.size / f.elem; e++) {
            if (f.hi < type_max) {
                ranged++;
                EXPECT_EQ(b.restore(b.with(f, e, f.hi + 1)), PMT_ERR_STATE_BLOB)
                    << f.name << "[" << e << "] = " << f.hi + 1;
                EXPECT_EQ(b.restore(b.with(f, e, type_max)), PMT_ERR_STATE_BLOB)
                    << f.name << "[" << e << "] = " << type_max;
            }
            if (f.lo > 0) {
                EXPECT_EQ(b.restore(b.with(f, e, f.lo - 1)), PMT_ERR_STATE_BLOB)
                    << f.name << "[" << e << "] = " << f.lo - 1;
            }
        }
    }
    EXPECT_GT(ranged, 20u);
}

// The bytes of a buffer past those in use are 0 in a blob; any other value there is refused.
TEST(StateFields, ABufferByteBeyondThoseInUseIsRefused)
{
    Blob b;
    for (const char *name : {"trbe.buf", "etr.buffer"}) {
        std::vector<uint8_t> bad = b.saved;
        bad[b.at(name) + 100] = 0x5A; // both are empty in a reset state
        EXPECT_EQ(b.restore(bad), PMT_ERR_STATE_BLOB) << name;
    }
}
