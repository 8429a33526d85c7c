// The ETE encoder (the C core's, through the platform's wrapper): packets byte for byte as the ETE
// specification lays them out (the same encodings as ETMv4 for A-Sync, Trace Info, Trace On,
// Context, Address with Context, Address and Atom format 1), periodic re-synchronization, and
// bad calls answered with a status and a log line.
#include <gtest/gtest.h>
#include <pmtrace/platform/trace/ete_encoder.h>

#include <string>
#include <vector>

namespace
{

using namespace pmtrace::platform;
using bytes = std::vector<uint8_t>;

// A-Sync: eleven 0x00 then 0x80.
const bytes async_packet = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80};
// Trace Info with PLCTL 0: no sections.
const bytes trace_info_packet = {0x01, 0x00};
const uint8_t trace_on_packet = 0x04;
// Address with Context, long, 32-bit, IS0 (after Trace Info the address history is 0, so A[63:32]
// need not be sent): 0x82, A[8:2], A[15:9], A[23:16], A[31:24], then the context info byte.
const bytes address_context_40080000 = {0x82, 0x00, 0x00, 0x08, 0x40, 0x31};
// 0x4008_000C: A[8:2] = 3.
const bytes address_context_4008000c = {0x82, 0x03, 0x00, 0x08, 0x40, 0x31};
// Short Address, IS0, one byte: A[8:2] = 3, the rest as in the newest history entry.
const bytes short_address_4008000c = {0x95, 0x03};
constexpr uint64_t start_bytes = 12 + 2 + 1 + 6;

bytes cat(std::initializer_list<bytes> parts)
{
    bytes out;
    for (const bytes &p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

struct log_probe {
    std::vector<std::string> lines;
    trace_log fn()
    {
        return [this](const std::string &l) { lines.push_back(l); };
    }
};

ete_encoder_config no_resync()
{
    ete_encoder_config c;
    c.resync_period = 0;
    return c;
}

bytes take_all(ete_encoder &e)
{
    bytes out;
    e.take(out);
    return out;
}

TEST(EteEncoder, StartEmitsASyncTraceInfoTraceOnAndAddressWithContext)
{
    ete_encoder e(no_resync());
    ASSERT_EQ(e.start(ete_context{1, true, true}, 0x4008'0000), ete_status::ok);
    EXPECT_EQ(take_all(e),
              cat({async_packet, trace_info_packet, {trace_on_packet}, address_context_40080000}));
    EXPECT_EQ(e.bytes_emitted(), start_bytes);
    EXPECT_EQ(e.sync_offsets(), std::vector<uint64_t>{0});
}

TEST(EteEncoder, ContextInfoByteCarriesElSfAndNs)
{
    struct row {
        ete_context ctx;
        uint8_t info;
    };
    // EL in bits [1:0], SF (AArch64) bit 4, NS bit 5.
    const row rows[] = {
        {{0, false, true}, 0x10}, // EL0, Secure, AArch64
        {{1, true, true}, 0x31},  // EL1, Non-secure
        {{2, true, true}, 0x32},  // EL2, Non-secure
        {{3, false, true}, 0x13}, // EL3, Secure
        {{1, true, false}, 0x21}, // EL1, Non-secure, AArch32
    };
    // 0x1000 is within reach of a short address from the cleared history (A[16:2]): a Context
    // packet, then the short address 0x95 0x80 0x08.
    for (const row &r : rows) {
        ete_encoder e(no_resync());
        ASSERT_EQ(e.start(r.ctx, 0x1000), ete_status::ok);
        const bytes out = take_all(e);
        ASSERT_EQ(out.size(), 12u + 2 + 1 + 2 + 3);
        EXPECT_EQ(out[15], 0x81);
        EXPECT_EQ(out[16], r.info) << "EL" << r.ctx.el << " ns=" << r.ctx.ns;
    }
}

TEST(EteEncoder, LongAddressCarriesBits63To2WhenTheHighHalfDiffers)
{
    ete_encoder e(no_resync());
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    bytes start;
    e.take(start);
    // 0xFFFF_8000_1234_567C: A[8:2] = 0x1F, A[15:9] = 0x2B, then 0x34, 0x12, 0x00, 0x80, 0xFF,
    // 0xFF.
    ASSERT_EQ(e.address(0xFFFF'8000'1234'567C), ete_status::ok);
    EXPECT_EQ(take_all(e), (bytes{0x9D, 0x1F, 0x2B, 0x34, 0x12, 0x00, 0x80, 0xFF, 0xFF}));
    EXPECT_EQ(e.current_address(), std::optional<uint64_t>(0xFFFF'8000'1234'567C));
}

TEST(EteEncoder, AtomFormat1IsF7ForTakenAndF6ForNotTaken)
{
    ete_encoder e(no_resync());
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    bytes start;
    e.take(start);
    EXPECT_EQ(e.atom(true, 0x4008'0000), ete_status::ok);
    EXPECT_EQ(e.atom(false, 0x4008'0004), ete_status::ok);
    EXPECT_EQ(e.atom(false, 0x4008'0008), ete_status::ok);
    EXPECT_EQ(take_all(e), (bytes{0xF7, 0xF6, 0xF6}));
}

TEST(EteEncoder, ResyncAfterThePeriodStatesTheCurrentAddress)
{
    ete_encoder_config c;
    c.resync_period = 32;
    ete_encoder e(c);
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok); // bytes 0..20
    // Eleven atoms bring the stream to 32 bytes since the A-Sync at 0: the end of the call of the
    // eleventh is a restart point for the instruction executed next.
    for (int i = 0; i < 10; i++)
        ASSERT_EQ(e.atom(i % 2 == 1, 0x4008'0000), ete_status::ok);
    ASSERT_EQ(e.atom(false, 0x4008'000C), ete_status::ok);
    const bytes expected = cat({async_packet,
                                trace_info_packet,
                                {trace_on_packet},
                                address_context_40080000,
                                {0xF6, 0xF7, 0xF6, 0xF7, 0xF6, 0xF7, 0xF6, 0xF7, 0xF6, 0xF7, 0xF6},
                                async_packet,
                                trace_info_packet,
                                address_context_4008000c});
    EXPECT_EQ(take_all(e), expected);
    EXPECT_EQ(e.sync_offsets(), (std::vector<uint64_t>{0, 32}));
    // The next one is due 32 bytes after the second A-Sync, at 64: the restart point ends at 52,
    // twelve atoms after it reach 64.
    for (int i = 0; i < 11; i++)
        e.atom(true, 0x4008'0000);
    EXPECT_EQ(e.sync_offsets().size(), 2u);
    e.atom(true, 0x4008'0000);
    EXPECT_EQ(e.sync_offsets(), (std::vector<uint64_t>{0, 32, 64}));
    EXPECT_EQ(take_all(e),
              cat({bytes(12, 0xF7), async_packet, trace_info_packet, address_context_40080000}));
}
TEST(EteEncoder, PeriodZeroNeverResynchronizes)
{
    ete_encoder e(no_resync());
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    for (int i = 0; i < 5000; i++)
        e.atom(true, 0x4008'0000);
    EXPECT_EQ(e.sync_offsets().size(), 1u);
    EXPECT_EQ(e.bytes_emitted(), start_bytes + 5000);
}

TEST(EteEncoder, AtomFollowsTheProgramMap)
{
    // A two-waypoint program: the run from 0x100 ends at a branch to 0x200 (taken) or 0x108.
    auto map = [](uint64_t from, bool taken) -> std::optional<uint64_t> {
        if (from == 0x100)
            return taken ? 0x200 : 0x108;
        return std::nullopt;
    };
    ete_encoder e(no_resync(), map);
    ASSERT_EQ(e.start(ete_context{}, 0x100), ete_status::ok);
    EXPECT_EQ(e.atom(false), ete_status::ok);
    EXPECT_EQ(e.current_address(), std::optional<uint64_t>(0x108));
}

TEST(EteEncoder, UnknownNextAddressPostponesResyncUntilAnAddress)
{
    log_probe log;
    ete_encoder_config c;
    c.resync_period = 32;
    c.log = log.fn();
    auto map = [](uint64_t, bool) -> std::optional<uint64_t> { return std::nullopt; };
    ete_encoder e(c, map);
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    EXPECT_EQ(e.atom(true), ete_status::address_unknown);
    EXPECT_FALSE(e.current_address().has_value());
    for (int i = 0; i < 20; i++)
        e.atom(true);
    EXPECT_EQ(e.sync_offsets().size(), 1u) << "a restart point needs an address";
    EXPECT_FALSE(log.lines.empty());
    bytes head;
    e.take(head);
    ASSERT_EQ(e.address(0x4008'000C), ete_status::ok);
    // The address packet (compressed against the start address), then the overdue restart point
    // stating the same address.
    EXPECT_EQ(take_all(e), cat({short_address_4008000c, async_packet, trace_info_packet,
                                address_context_4008000c}));
}

TEST(EteEncoder, RestartEmitsTraceOnAgain)
{
    ete_encoder e(no_resync());
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    e.atom(true, 0x4008'0000);
    ASSERT_EQ(e.start(ete_context{}, 0x4008'000C), ete_status::ok);
    const bytes out = take_all(e);
    ASSERT_EQ(out.size(), start_bytes + 1 + start_bytes);
    EXPECT_EQ(out[start_bytes + 1 + 14], trace_on_packet);
    EXPECT_EQ(e.sync_offsets(), (std::vector<uint64_t>{0, start_bytes + 1}));
}

TEST(EteEncoder, CallsBeforeStartAreRefusedWithALogLine)
{
    log_probe log;
    ete_encoder_config c;
    c.log = log.fn();
    ete_encoder e(c);
    EXPECT_EQ(e.atom(true), ete_status::not_started);
    EXPECT_EQ(e.atom(true, 0x1000), ete_status::not_started);
    EXPECT_EQ(e.address(0x1000), ete_status::not_started);
    EXPECT_EQ(e.bytes_emitted(), 0u);
    EXPECT_EQ(log.lines.size(), 3u);
}

TEST(EteEncoder, BadArgumentsAreRefusedWithALogLine)
{
    log_probe log;
    ete_encoder_config c;
    c.log = log.fn();
    ete_encoder e(c);
    EXPECT_EQ(e.start(ete_context{4, true, true}, 0x1000), ete_status::bad_argument);
    EXPECT_EQ(e.start(ete_context{}, 0x1002), ete_status::bad_argument);
    EXPECT_EQ(e.bytes_emitted(), 0u);
    ASSERT_EQ(e.start(ete_context{}, 0x1000), ete_status::ok);
    const uint64_t n = e.bytes_emitted();
    EXPECT_EQ(e.address(0x1001), ete_status::bad_argument);
    EXPECT_EQ(e.atom(true, 0x1003), ete_status::bad_argument);
    EXPECT_EQ(e.bytes_emitted(), n);
    EXPECT_EQ(log.lines.size(), 4u);
}

TEST(EteEncoder, BadTraceIdIsReplacedWithALogLine)
{
    log_probe log;
    ete_encoder_config c;
    c.trace_id = 0x70; // 0x70..0x7F are reserved CoreSight IDs
    c.log = log.fn();
    ete_encoder e(c);
    EXPECT_EQ(e.registers().trctraceidr, 0x10u);
    EXPECT_EQ(log.lines.size(), 1u);
}

TEST(EteEncoder, RegistersDescribeAnEte)
{
    ete_encoder_config c;
    c.trace_id = 0x22;
    const ete_registers r = ete_encoder(c).registers();
    EXPECT_EQ(r.trctraceidr, 0x22u);
    // TRCDEVARCH: ARCHITECT 0x23B (Arm) [31:21], PRESENT [20], REVISION 0, ARCHVER 5, ARCHPART
    // 0xA13.
    EXPECT_EQ(r.trcdevarch, 0x47705A13u);
    EXPECT_TRUE(r.is_ete());
    EXPECT_EQ(r.trcidr2 & 0x1Fu, 0x8u) << "IASIZE: 64-bit instruction addresses";
    // TRCCCI reads as 1 in ETE (D24.4.31): cycle counting is implemented, and not enabled.
    EXPECT_EQ(r.trcidr0 & (1u << 7), 1u << 7) << "TRCCCI: cycle counting implemented";
    EXPECT_EQ(r.trcconfigr & ((1u << 4) | (1u << 6) | (1u << 7) | (1u << 11)), 0u)
        << "CCI, CID, VMID, TS off";
}

TEST(EteEncoder, RollbackUndoesPacketsSinceTheMark)
{
    ete_encoder_config c;
    c.resync_period = 32;
    ete_encoder e(c);
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    const ete_encoder::position p = e.mark();
    for (int i = 0; i < 11; i++) // crosses a restart point
        e.atom(true, 0x4008'0000);
    ASSERT_EQ(e.sync_offsets().size(), 2u);
    ASSERT_TRUE(e.rollback(p));
    EXPECT_EQ(e.bytes_emitted(), start_bytes);
    EXPECT_EQ(e.sync_offsets().size(), 1u);
    e.atom(false, 0x4008'000C);
    EXPECT_EQ(take_all(e), cat({async_packet,
                                trace_info_packet,
                                {trace_on_packet},
                                address_context_40080000,
                                {0xF6}}));
}

TEST(EteEncoder, RollbackPastTakenBytesIsRefused)
{
    log_probe log;
    ete_encoder_config c;
    c.log = log.fn();
    ete_encoder e(c);
    ASSERT_EQ(e.start(ete_context{}, 0x4008'0000), ete_status::ok);
    const ete_encoder::position p = e.mark();
    e.atom(true, 0x4008'0000);
    bytes out;
    e.take(out);
    EXPECT_FALSE(e.rollback(p));
    EXPECT_EQ(e.bytes_emitted(), start_bytes + 1);
    EXPECT_EQ(log.lines.size(), 1u);
}

} // namespace
