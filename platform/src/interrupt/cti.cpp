// cti.cpp - channel mapping, application triggers, acknowledge, and the CTI registers (H9.5).
#include "pmtrace/platform/interrupt/cti.h"

#include <string>

namespace pmtrace::platform
{

namespace
{

enum row {
    CTICONTROL,
    CTIINTACK,
    CTIAPPSET,
    CTIAPPCLEAR,
    CTIAPPPULSE,
    CTIINEN,
    CTIOUTEN,
    CTITRIGINSTATUS,
    CTITRIGOUTSTATUS,
    CTICHINSTATUS,
    CTICHOUTSTATUS,
    CTIGATE,
    ASICCTL,
    CTIITCTRL,
    CTICLAIMSET,
    CTICLAIMCLR,
    CTIDEVAFF0,
    CTIDEVAFF1,
    CTILAR,
    CTILSR,
    CTIAUTHSTATUS,
    CTIDEVARCH,
    CTIDEVID2,
    CTIDEVID1,
    CTIDEVID,
    CTIDEVTYPE,
    CTIPIDR4,
    CTIPIDR,
    CTICIDR
};

const register_info table[] = {
    {0x000, 1, 4, size32, "CTICONTROL"},       {0x010, 1, 4, size32, "CTIINTACK"},
    {0x014, 1, 4, size32, "CTIAPPSET"},        {0x018, 1, 4, size32, "CTIAPPCLEAR"},
    {0x01C, 1, 4, size32, "CTIAPPPULSE"},      {0x020, 32, 4, size32, "CTIINEN"},
    {0x0A0, 32, 4, size32, "CTIOUTEN"},        {0x130, 1, 4, size32, "CTITRIGINSTATUS"},
    {0x134, 1, 4, size32, "CTITRIGOUTSTATUS"}, {0x138, 1, 4, size32, "CTICHINSTATUS"},
    {0x13C, 1, 4, size32, "CTICHOUTSTATUS"},   {0x140, 1, 4, size32, "CTIGATE"},
    {0x144, 1, 4, size32, "ASICCTL"},          {0xF00, 1, 4, size32, "CTIITCTRL"},
    {0xFA0, 1, 4, size32, "CTICLAIMSET"},      {0xFA4, 1, 4, size32, "CTICLAIMCLR"},
    {0xFA8, 1, 4, size32, "CTIDEVAFF0"},       {0xFAC, 1, 4, size32, "CTIDEVAFF1"},
    {0xFB0, 1, 4, size32, "CTILAR"},           {0xFB4, 1, 4, size32, "CTILSR"},
    {0xFB8, 1, 4, size32, "CTIAUTHSTATUS"},    {0xFBC, 1, 4, size32, "CTIDEVARCH"},
    {0xFC0, 1, 4, size32, "CTIDEVID2"},        {0xFC4, 1, 4, size32, "CTIDEVID1"},
    {0xFC8, 1, 4, size32, "CTIDEVID"},         {0xFCC, 1, 4, size32, "CTIDEVTYPE"},
    {0xFD0, 1, 4, size32, "CTIPIDR4"},         {0xFE0, 4, 4, size32, "CTIPIDR"},
    {0xFF0, 4, 4, size32, "CTICIDR"},
};

// CTIDEVARCH: ARCHITECT Arm (0x23B), PRESENT, REVISION 0, ARCHID 0x1A14 (CTIv2).
constexpr uint32_t devarch = 0x23Bu << 21 | 1u << 20 | 0x1A14;
constexpr uint32_t devtype = 0x14;   // SUB 1 (within a PE), MAJOR 4 (cross-trigger)
constexpr uint32_t authstatus = 0xF; // NSNID, NSID: implemented and enabled
constexpr uint32_t cidr[4] = {0x0D, 0x90, 0x05, 0xB1};

unsigned clamp(unsigned v, unsigned lo, unsigned hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

} // namespace

cti::cti(const sc_core::sc_module_name &name, const cti_config &config)
    : sc_module(name), register_frame(this->name(), table, sizeof table / sizeof table[0]),
      socket("socket"), out_event("out_event", clamp(config.num_triggers, 11, 32)),
      out_level("out_level", out_event.size()), config_(config)
{
    log_.set_name(this->name());
    config_.num_triggers = static_cast<unsigned>(out_event.size());
    config_.num_channels = clamp(config.num_channels, 3, 32);
    config_.claim_tags = clamp(config.claim_tags, 0, 32);
    if (config_.num_triggers != config.num_triggers || config_.num_channels != config.num_channels)
        SC_REPORT_WARNING(this->name(), "num_triggers must be 11..32 and num_channels 3..32: "
                                        "using the nearest");
    for (unsigned n = 0; n < out_event.size(); n++)
        out_event[n].set_trigger(n);
    socket.register_b_transport(this, &cti::b_transport);
    socket.register_transport_dbg(this, &cti::transport_dbg);
}

uint32_t cti::channel_mask() const
{
    return config_.num_channels >= 32 ? ~0u : (1u << config_.num_channels) - 1;
}

uint32_t cti::trigger_mask() const
{
    return config_.num_triggers >= 32 ? ~0u : (1u << config_.num_triggers) - 1;
}

uint32_t cti::active_channels() const
{
    if (!enabled())
        return 0;
    uint32_t active = appset_;
    for (unsigned n = 0; n < config_.num_triggers; n++)
        if (trin_ >> n & 1)
            active |= inen_[n];
    return active & channel_mask();
}

uint32_t cti::trigger_out_status() const
{
    const uint32_t active = active_channels();
    uint32_t status = latch_;
    for (unsigned n = 0; n < config_.num_triggers; n++)
        if (outen_[n] & active)
            status |= 1u << n;
    return status & config_.outputs & trigger_mask();
}

uint32_t cti::channel_out_status() const
{
    return active_channels() & gate_;
}

void cti::channel_event(uint32_t channels, const sc_core::sc_time &offset)
{
    channels &= channel_mask();
    if (!channels || !enabled())
        return;
    for (unsigned c = 0; c < 32; c++)
        if ((channels & gate_) >> c & 1)
            channel_events_[c]++;
    for (unsigned n = 0; n < config_.num_triggers; n++) {
        if (!(outen_[n] & channels) || !(config_.outputs >> n & 1))
            continue;
        if (config_.acknowledged >> n & 1)
            latch_ |= 1u << n;
        out_event[n].notify(offset);
    }
    update_levels(offset);
}

void cti::update_levels(const sc_core::sc_time &offset)
{
    const uint32_t status = trigger_out_status();
    for (unsigned n = 0; n < config_.num_triggers; n++)
        out_level[n].write(status >> n & 1, offset);
}

void cti::trigger_event(unsigned trigger, const sc_core::sc_time &offset)
{
    if (trigger >= config_.num_triggers || !(config_.inputs >> trigger & 1)) {
        log_.warning("input trigger not connected",
                     "input trigger " + std::to_string(trigger) + " is not connected: ignored");
        return;
    }
    channel_event(inen_[trigger], offset);
}

void cti::set_trigger_level(unsigned trigger, bool level, const sc_core::sc_time &offset)
{
    if (trigger >= config_.num_triggers || !(config_.inputs >> trigger & 1)) {
        log_.warning("input trigger not connected",
                     "input trigger " + std::to_string(trigger) + " is not connected: ignored");
        return;
    }
    const uint32_t bit = 1u << trigger;
    const bool rising = level && !(trin_ & bit);
    trin_ = level ? trin_ | bit : trin_ & ~bit;
    if (rising)
        channel_event(inen_[trigger], offset); // calls update_levels
    else
        update_levels(offset);
}

uint64_t cti::read_register(size_t row, unsigned index, bool)
{
    switch (row) {
    case CTICONTROL: return control_;
    case CTIAPPSET: return appset_;
    case CTIINEN: return index < config_.num_triggers ? inen_[index] : 0;
    case CTIOUTEN: return index < config_.num_triggers ? outen_[index] : 0;
    case CTITRIGINSTATUS: return trin_;
    case CTITRIGOUTSTATUS: return trigger_out_status();
    case CTICHINSTATUS: return 0; // no Cross-Trigger Matrix: input channels are inactive
    case CTICHOUTSTATUS: return channel_out_status();
    case CTIGATE: return gate_;
    case CTICLAIMSET: return config_.claim_tags >= 32 ? ~0u : (1u << config_.claim_tags) - 1;
    case CTICLAIMCLR: return claim_;
    case CTIDEVAFF0: return 1u << 31 | (config_.uniprocessor ? 1u << 30 : 0) | config_.aff0;
    case CTIAUTHSTATUS: return authstatus;
    case CTIDEVARCH: return devarch;
    case CTIDEVID: return (config_.num_channels << 16) | (config_.num_triggers << 8);
    case CTIDEVTYPE: return devtype;
    case CTIPIDR4: return 0x04; // SIZE 0, DES_2: Arm's JEP106 continuation code
    case CTIPIDR:
        switch (index) {
        case 0: return config_.part_number & 0xFF;
        case 1: return 0xB0 | (config_.part_number >> 8 & 0xF); // DES_0, PART_1
        case 2: return 0x0B;                                    // JEDEC, DES_1
        default: return 0;
        }
    case CTICIDR: return cidr[index];
    default: return 0; // write-only registers, ASICCTL, CTIITCTRL, CTILSR (no Software Lock)
    }
}

void cti::write_register(size_t row, unsigned index, uint64_t value, uint64_t mask)
{
    const uint32_t v = static_cast<uint32_t>(value & mask);
    const uint32_t chans = v & channel_mask();
    switch (row) {
    case CTICONTROL: control_ = v & 1; break;
    case CTIINTACK:
        // An acknowledge is ignored while the mapping still asserts the trigger.
        for (unsigned n = 0; n < config_.num_triggers; n++)
            if ((v >> n & 1) && !(outen_[n] & active_channels()))
                latch_ &= ~(1u << n);
        break;
    case CTIAPPSET:
        if (!enabled())
            break; // application triggers are disabled
        appset_ |= chans;
        channel_event(chans, access_offset_);
        break;
    case CTIAPPCLEAR: appset_ &= ~chans; break;
    case CTIAPPPULSE:
        if (chans && !enabled()) {
            log_.warning("CTIAPPPULSE with GLBEN 0",
                         "CTIAPPPULSE with CTICONTROL.GLBEN 0 "
                         "(CONSTRAINED UNPREDICTABLE): no channel event");
            break;
        }
        channel_event(chans, access_offset_);
        break;
    case CTIINEN:
        if (index < config_.num_triggers && (config_.inputs >> index & 1))
            inen_[index] = chans;
        break;
    case CTIOUTEN:
        if (index < config_.num_triggers && (config_.outputs >> index & 1))
            outen_[index] = chans;
        break;
    case CTIGATE: gate_ = chans; break;
    case CTICLAIMSET:
        claim_ |= v & (config_.claim_tags >= 32 ? ~0u : (1u << config_.claim_tags) - 1);
        break;
    case CTICLAIMCLR: claim_ &= ~v; break;
    default: return; // read-only or WI
    }
    update_levels(access_offset_);
}

// A write takes effect at the initiator's time, sc_time_stamp() + delay (its outputs change then).
void cti::b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    access_offset_ = delay;
    frame_transport(tx, delay, config_.access_latency);
    access_offset_ = sc_core::SC_ZERO_TIME;
}

unsigned cti::transport_dbg(tlm::tlm_generic_payload &tx)
{
    return frame_transport_dbg(tx);
}

} // namespace pmtrace::platform
