// gic_cpu_interface.h - one PE's GICv3 CPU interface: the ICC_*_EL1 System registers as calls.
//
// A CPU model reaches it by name (iar1(), eoir1(v), ...) or by encoding (read/write with a
// pmt_sysreg, for a HAL that addresses System registers by op0, op1, CRn, CRm, op2). It sees the
// PE's SGIs and PPIs in its Redistributor and the SPIs the Distributor routes to the PE.
// Priorities have 5 bits (ICC_CTLR_EL1.PRIbits = 4): a priority value keeps bits [7:3], there
// are 32 preemption levels, ICC_AP0R0_EL1 and ICC_AP1R0_EL1 hold the active priorities, and the
// minimum binary points are BPR0 = 2 and BPR1 = 3.
#ifndef PMTRACE_PLATFORM_GIC_CPU_INTERFACE_H
#define PMTRACE_PLATFORM_GIC_CPU_INTERFACE_H

#include <pmtrace/pmt_types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

namespace pmtrace::platform
{

class gic_distributor;
class gic_redistributor;

// The time of the access a GIC is performing, as an offset from sc_time_stamp(): the outputs the
// access changes change at that time. Set for the duration of an access, then restored.
class gic_access_scope
{
  public:
    gic_access_scope(sc_core::sc_time &current, const sc_core::sc_time &offset)
        : current_(current), saved_(current)
    {
        current_ = offset;
    }
    ~gic_access_scope() { current_ = saved_; }
    gic_access_scope(const gic_access_scope &) = delete;
    gic_access_scope &operator=(const gic_access_scope &) = delete;

  private:
    sc_core::sc_time &current_;
    sc_core::sc_time saved_;
};

// ICC_CTLR_EL1 bits.
constexpr uint64_t icc_ctlr_cbpr = 1u << 0;
constexpr uint64_t icc_ctlr_eoimode = 1u << 1;

enum class icc_reg {
    PMR,
    IAR0,
    EOIR0,
    HPPIR0,
    BPR0,
    AP0R0,
    AP1R0,
    DIR,
    RPR,
    SGI1R,
    IAR1,
    EOIR1,
    HPPIR1,
    BPR1,
    CTLR,
    SRE,
    IGRPEN0,
    IGRPEN1,
    none
};

// The register an encoding names (icc_reg::none if it is not an ICC_*_EL1 register), and its name.
icc_reg icc_decode(pmt_sysreg encoding);
const char *icc_name(icc_reg reg);

class gic_cpu_interface
{
  public:
    // sgi(target_mask, intid): an SGI for the PEs of target_mask (bit n = PE n). changed: called
    // after a write that can change the outputs. access_offset: the GIC's offset of the access
    // in progress (gic_access_scope), which an access by encoding sets.
    gic_cpu_interface(const std::string &log_name, unsigned cpu, gic_redistributor &redistributor,
                      gic_distributor &distributor, std::function<void(uint32_t, unsigned)> sgi,
                      std::function<void()> changed, sc_core::sc_time &access_offset);

    // By name. Group 1 (IRQ) and Group 0 (FIQ).
    unsigned iar1() { return acknowledge(1); }
    unsigned iar0() { return acknowledge(0); }
    void eoir1(uint64_t v) { end_of_interrupt(1, v); }
    void eoir0(uint64_t v) { end_of_interrupt(0, v); }
    unsigned hppir1() const { return highest_pending_of(1); }
    unsigned hppir0() const { return highest_pending_of(0); }
    void dir(uint64_t v);
    uint8_t rpr() const { return running_priority(); }
    uint8_t pmr() const { return pmr_; }
    void set_pmr(uint64_t v);
    void sgi1r(uint64_t v);

    // By encoding, as a CPU model accesses them, at sc_time_stamp() + offset (its local time
    // offset: the GIC's outputs the access changes change then): true when the register exists
    // and the access is allowed (a read of a write-only register or a write of a read-only one
    // is false: UNDEFINED). By name or icc_reg: at sc_time_stamp().
    bool read(pmt_sysreg encoding, uint64_t &value, const sc_core::sc_time &offset);
    bool write(pmt_sysreg encoding, uint64_t value, const sc_core::sc_time &offset);
    bool read(icc_reg reg, uint64_t &value);
    bool write(icc_reg reg, uint64_t value);

    // The outputs: an interrupt of the group can be signalled to the PE.
    bool irq() const { return signalled(1); }
    bool fiq() const { return signalled(0); }

    // Statistics: how many times ICC_IAR0/1_EL1 returned `intid` (0..1019).
    uint64_t acknowledged(unsigned intid) const
    {
        return intid < acked_.size() ? acked_[intid] : 0;
    }

  private:
    unsigned acknowledge(unsigned group);
    void end_of_interrupt(unsigned group, uint64_t v);
    unsigned highest_pending_of(unsigned group) const;
    // An interrupt of the PE (an SGI or PPI of its Redistributor, or an SPI of the Distributor).
    unsigned highest_pending() const;
    unsigned group(unsigned intid) const;
    uint8_t priority(unsigned intid) const;
    bool active(unsigned intid) const;
    void deactivate(unsigned intid);
    bool signalled(unsigned group) const;
    bool can_preempt(unsigned intid) const;
    uint8_t group_priority(unsigned intid) const;
    uint8_t running_priority() const;
    unsigned bpr(unsigned group) const;
    void warn(const std::string &what) const;

    std::string log_name_;
    unsigned cpu_;
    gic_redistributor &rd_;
    gic_distributor &gicd_;
    std::function<void(uint32_t, unsigned)> sgi_;
    std::function<void()> changed_;
    sc_core::sc_time &access_offset_;

    uint8_t pmr_ = 0; // masks everything until software writes it
    unsigned bpr0_ = 2, bpr1_ = 3;
    uint64_t ctlr_ = 0; // CBPR, EOImode
    bool igrpen_[2] = {false, false};
    uint32_t ap_[2] = {0, 0}; // ICC_AP0R0_EL1, ICC_AP1R0_EL1
    std::vector<uint64_t> acked_ = std::vector<uint64_t>(1020, 0);
};

} // namespace pmtrace::platform

#endif
