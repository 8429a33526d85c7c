// gic.cpp - the GICv3 module: the frames on their sockets, the PPI lines, the outputs.
#include "pmtrace/platform/interrupt/gic.h"

#include <string>

namespace pmtrace::platform
{

class gicv3::ppi_line : public level_if
{
  public:
    ppi_line(sc_core::sc_time &access_offset, gic_redistributor &rd, unsigned intid)
        : access_offset_(access_offset), rd_(rd), intid_(intid)
    {
    }
    void set_level(bool level, const sc_core::sc_time &offset) override
    {
        gic_access_scope at(access_offset_, offset);
        rd_.set_line(intid_, level);
    }

  private:
    sc_core::sc_time &access_offset_;
    gic_redistributor &rd_;
    unsigned intid_;
};

class gicv3::spi_line : public level_if
{
  public:
    spi_line(sc_core::sc_time &access_offset, gic_distributor *gicd, unsigned intid)
        : access_offset_(access_offset), gicd_(gicd), intid_(intid)
    {
    }
    void set_level(bool level, const sc_core::sc_time &offset) override
    {
        gic_access_scope at(access_offset_, offset);
        if (gicd_)
            gicd_->set_line(intid_, level);
    }

  private:
    sc_core::sc_time &access_offset_;
    gic_distributor *gicd_; // null: a line to nowhere
    unsigned intid_;
};

gicv3::gicv3(const sc_core::sc_module_name &name, const gic_config &config)
    : sc_module(name), distributor("distributor"), redistributors("redistributors"),
      irq("irq", config.num_cpus ? (config.num_cpus > 16 ? 16 : config.num_cpus) : 1),
      fiq("fiq", irq.size()), config_(config)
{
    log_.set_name(this->name());
    if (config_.num_cpus < 1 || config_.num_cpus > 16) {
        SC_REPORT_WARNING(this->name(), "num_cpus must be 1..16: using the nearest");
        config_.num_cpus = static_cast<unsigned>(irq.size());
    }
    if (config_.num_spis > gic_max_spis) {
        SC_REPORT_WARNING(this->name(), ("num_spis must be 0.." + std::to_string(gic_max_spis) +
                                         ": using " + std::to_string(gic_max_spis))
                                            .c_str());
        config_.num_spis = gic_max_spis;
    }
    const std::string base = this->name();
    gicd_ = std::make_unique<gic_distributor>(
        base + ".gicd", config_.iidr, config_.num_spis, config_.num_cpus,
        [this](unsigned n) { return n < rds_.size() && rds_[n]->asleep(); },
        [this] { update_all(); });
    for (unsigned n = 0; n < config_.num_cpus; n++) {
        rds_.push_back(std::make_unique<gic_redistributor>(
            base + ".gicr" + std::to_string(n), n, n + 1 == config_.num_cpus,
            config_.redistributors_awake, config_.iidr, *gicd_, [this] { update_all(); }));
        cpus_.push_back(std::make_unique<gic_cpu_interface>(
            base + ".icc" + std::to_string(n), n, *rds_[n], *gicd_,
            [this](uint32_t targets, unsigned intid) { send_sgi(targets, intid); },
            [this, n] { update(n); }, access_offset_));
        for (unsigned i = 16; i < 32; i++)
            lines_.push_back(std::make_unique<ppi_line>(access_offset_, *rds_[n], i));
    }
    for (unsigned i = 0; i < config_.num_spis; i++)
        spi_lines_.push_back(
            std::make_unique<spi_line>(access_offset_, gicd_.get(), gic_first_spi + i));
    spi_lines_.push_back(std::make_unique<spi_line>(access_offset_, nullptr, 0));
    distributor.register_b_transport(this, &gicv3::gicd_b_transport);
    distributor.register_transport_dbg(this, &gicv3::gicd_transport_dbg);
    redistributors.register_b_transport(this, &gicv3::gicr_b_transport);
    redistributors.register_transport_dbg(this, &gicv3::gicr_transport_dbg);
}

gicv3::~gicv3() = default;

level_if &gicv3::ppi(unsigned cpu, unsigned intid)
{
    if (cpu >= config_.num_cpus || intid < 16 || intid > 31) {
        SC_REPORT_WARNING(name(), ("no PPI " + std::to_string(intid) + " on PE " +
                                   std::to_string(cpu) + ": PE 0's INTID 16 instead")
                                      .c_str());
        return *lines_[0];
    }
    return *lines_[cpu * 16 + (intid - 16)];
}

level_if &gicv3::spi(unsigned intid)
{
    if (intid < gic_first_spi || intid - gic_first_spi >= config_.num_spis) {
        const std::string spis =
            config_.num_spis
                ? "SPIs are INTIDs 32.." + std::to_string(gic_first_spi + config_.num_spis - 1)
                : "this GIC has no SPIs";
        SC_REPORT_WARNING(name(), ("no SPI " + std::to_string(intid) + " (" + spis +
                                   "): a line that goes nowhere")
                                      .c_str());
        return *spi_lines_.back();
    }
    return *spi_lines_[intid - gic_first_spi];
}

// The outputs change at the time of the access that changed them.
void gicv3::update(unsigned cpu)
{
    irq[cpu].write(cpus_[cpu]->irq(), access_offset_);
    fiq[cpu].write(cpus_[cpu]->fiq(), access_offset_);
}

void gicv3::update_all()
{
    for (unsigned n = 0; n < config_.num_cpus; n++)
        update(n);
}

void gicv3::send_sgi(uint32_t targets, unsigned intid)
{
    for (unsigned n = 0; n < config_.num_cpus; n++)
        if (targets >> n & 1)
            rds_[n]->raise_sgi(intid);
}

// A frame access takes effect at the initiator's time, sc_time_stamp() + delay.
void gicv3::gicd_b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    gic_access_scope at(access_offset_, delay);
    gicd_->frame_transport(tx, delay, config_.access_latency);
}

unsigned gicv3::gicd_transport_dbg(tlm::tlm_generic_payload &tx)
{
    return gicd_->frame_transport_dbg(tx);
}

gic_redistributor *gicv3::frame(tlm::tlm_generic_payload &tx, uint64_t &offset)
{
    const uint64_t address = tx.get_address();
    const uint64_t n = address / gicr_frame_size;
    offset = address % gicr_frame_size;
    return n < rds_.size() ? rds_[n].get() : nullptr;
}

void gicv3::gicr_b_transport(tlm::tlm_generic_payload &tx, sc_core::sc_time &delay)
{
    uint64_t offset = 0;
    const uint64_t address = tx.get_address();
    gic_redistributor *rd = frame(tx, offset);
    if (!rd) {
        tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        log_.warning("no Redistributor", "no Redistributor at offset " + std::to_string(address));
        return;
    }
    tx.set_address(offset);
    {
        gic_access_scope at(access_offset_, delay);
        rd->frame_transport(tx, delay, config_.access_latency);
    }
    tx.set_address(address);
}

unsigned gicv3::gicr_transport_dbg(tlm::tlm_generic_payload &tx)
{
    uint64_t offset = 0;
    const uint64_t address = tx.get_address();
    gic_redistributor *rd = frame(tx, offset);
    if (!rd)
        return 0;
    tx.set_address(offset);
    unsigned n = rd->frame_transport_dbg(tx);
    tx.set_address(address);
    return n;
}

} // namespace pmtrace::platform
