// a64_cpu.cpp - the AArch64 CPU (a64_cpu.h): the thread that runs the engine, the accounting of
// retired instructions and their events, and the budget that ends a run where something visible
// happens. Exceptions, devices and system registers are in a64_cpu_{exceptions,device,sysreg}.cpp.
#include <pmtrace/platform/a64_cpu.h>
#include <pmtrace/platform/a64_decode.h>

#include "a64_cpu_regs.h"
#include "hal/hal_impl.h"

#include <pmtrace/pmt_events.h>

#include <algorithm>

namespace pmtrace::platform
{

using a64::to_pmt;

a64_cpu::a64_cpu(const sc_core::sc_module_name &name, const a64_cpu_config &config,
                 std::unique_ptr<a64_engine> engine)
    : sc_module(name), bus("bus"), sysreg("sysreg"), events("events"), state("state"), trbe("trbe"),
      irq("irq"), serror("serror"), config_(config), engine_(std::move(engine)), blocks_(4096)
{
    irq.bind(*this);
    serror.bind(*this);
    if (config_.cycles_per_instruction == 0)
        config_.cycles_per_instruction = 1;
    if (config_.entry_el < 1 || config_.entry_el > 2 ||
        (config_.entry_el == 2 && !config_.have_el2))
        error_ = "a64_cpu: entry_el must be 1, or 2 with EL2";
    if (!engine_ && error_.empty()) {
        std::string why;
        engine_ = make_unicorn_engine(why);
        if (!engine_)
            error_ = why;
    }
    if (engine_)
        engine_->set_client(this);
    tlm_utils::tlm_quantumkeeper::set_global_quantum(config_.quantum);
    qk_.reset();
    SC_HAS_PROCESS(a64_cpu);
    SC_THREAD(main);
}

a64_cpu::~a64_cpu() = default;

bool a64_cpu::map_ram(uint64_t base, uint64_t size, uint8_t *host)
{
    if (!engine_)
        return false;
    std::string why;
    if (!engine_->map_memory(base, size, host, why)) {
        error_ = why;
        return false;
    }
    return true;
}

void a64_cpu::set_boot(uint64_t pc, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3)
{
    boot_set_ = true;
    boot_pc_ = pc;
    boot_x_ = {x0, x1, x2, x3};
}

void a64_cpu::set_level(bool level)
{
    if (level == irq_level_)
        return;
    irq_level_ = level;
    if (level) {
        wake_.notify(sc_core::SC_ZERO_TIME);
        if (in_engine_)
            engine_->request_stop();
    }
}

void a64_cpu::notify_event()
{
    serror_pending_ = true;
    wake_.notify(sc_core::SC_ZERO_TIME);
    if (in_engine_)
        engine_->request_stop();
}

void a64_cpu::fail(const std::string &why)
{
    if (error_.empty())
        error_ = why;
    end_ = a64_cpu_end::error;
    SC_REPORT_ERROR(name(), why.c_str());
}

// ---- the thread -----------------------------------------------------------------------------

void a64_cpu::main()
{
    qk_.reset();
    if (!error_.empty() || !engine_) {
        fail(error_.empty() ? "no engine" : error_);
    } else if (!boot_set_) {
        fail("nothing to run: no boot address (set_boot)");
    } else {
        boot();
    }
    while (end_ == a64_cpu_end::running) {
        if (serror_pending_)
            take_serror();
        if (irq_deliverable())
            take_irq();
        uint64_t b = budget(), q = quantum_budget();
        stop_at_ = b > ~uint64_t{0} - retired_ ? ~uint64_t{0} : retired_ + b;
        quantum_stop_at_ = q > ~uint64_t{0} - retired_ ? ~uint64_t{0} : retired_ + q;
        in_engine_ = true;
        a64_stop stop = engine_->run();
        in_engine_ = false;
        handle_stop(stop);
        report();
        if (qk_.need_sync()) {
            qk_.sync();
            stats_.syncs++;
        }
    }
    report();
    qk_.sync();
    if (config_.stop_at_end)
        sc_core::sc_stop();
}

// What firmware (TF-A, a hypervisor) leaves and the boot loader does (QEMU hw/arm/boot.c): the
// image entered at entry_el with the MMU off, interrupts masked, x0 the device tree.
void a64_cpu::boot()
{
    const sc_core::sc_time &t = qk_.get_local_time();
    if (config_.firmware) {
        if (config_.have_el3) {
            (void)state->set_pe_state(pe_state_for(3), t);
            (void)sysreg->write_sysreg(
                to_pmt(HAL_MDCR_EL3),
                hal_firmware_mdcr_el3(config_.pmuv3p9, config_.trbe, config_.trbe_exc), t);
        }
        if (config_.have_el2 && config_.entry_el < 2 && timer_) {
            // CNTHCTL_EL2: EL1 uses the physical counter and timer.
            (void)timer_->write(PMT_SYSREG(3, 4, 14, 1, 0), 2, timer_pe_state_of(pe_state_for(2)),
                                cnthctl_el1pcten | cnthctl_el1pcen, t);
        }
        if (config_.have_el2 && config_.entry_el < 2) {
            (void)state->set_pe_state(pe_state_for(2), t);
            (void)sysreg->write_sysreg(
                to_pmt(HAL_MDCR_EL2),
                hal_firmware_mdcr_el2(config_.num_counters, config_.trbe, config_.entry_el), t);
        }
    }
    el_ = config_.entry_el;
    (void)state->set_pe_state(pe_state_for(el_), t);
    // EL1h or EL2h, D, A, I and F masked.
    engine_->enter(0x3C0 | (uint64_t{config_.entry_el} << 2) | 1, boot_pc_);
    for (unsigned n = 0; n < 4; n++)
        engine_->set_x(n, boot_x_[n]);
}

// ---- accounting -----------------------------------------------------------------------------

const a64_cpu::block_info &a64_cpu::info(uint64_t address, uint32_t size)
{
    block_info &b = blocks_[(address >> 2) & (blocks_.size() - 1)];
    if (b.address == address && b.size == size)
        return b;
    b = block_info{};
    count_range(address, address + size, b);
    b.address = address;
    b.size = size;
    return b;
}

void a64_cpu::count_range(uint64_t begin, uint64_t end, block_info &counts)
{
    for (uint64_t pc = begin; pc < end; pc += 4) {
        uint32_t insn = 0;
        if (!engine_->read_memory(pc, &insn, 4))
            break;
        uint32_t c = a64_classify(insn);
        counts.loads += (c & A64_LOAD) != 0;
        counts.stores += (c & A64_STORE) != 0;
        counts.branches += (c & A64_BRANCH) != 0;
        counts.immed += (c & A64_BR_IMMED) != 0;
        counts.returns += (c & A64_BR_RETURN) != 0;
        if (pc + 4 >= end)
            counts.last_class = c;
    }
}

void a64_cpu::retire_range(uint64_t begin, uint64_t end)
{
    if (end <= begin)
        return;
    block_info partial;
    const block_info *c = current_info_;
    if (!c || begin != c->address || end != c->address + c->size) {
        count_range(begin, end, partial);
        c = &partial;
    }
    uint64_t n = (end - begin) / 4;
    retired_ += n;
    unreported_insns_ += n;
    unreported_loads_ += c->loads;
    unreported_stores_ += c->stores;
    unreported_branches_ += c->branches;
    unreported_immed_ += c->immed;
    unreported_returns_ += c->returns;
}

void a64_cpu::report()
{
    if (!unreported_insns_)
        return;
    const sc_core::sc_time &period = config_.clock_period;
    qk_.inc(period * static_cast<double>(unreported_insns_ * config_.cycles_per_instruction));
    const sc_core::sc_time &t = qk_.get_local_time();
    stats_.instructions += unreported_insns_;
    (void)events->count_event(PMT_EV_INST_RETIRED, unreported_insns_, t);
    auto count = [&](uint16_t event, uint64_t &n) {
        if (n)
            (void)events->count_event(event, n, t);
        n = 0;
    };
    if (unreported_loads_ || unreported_stores_) {
        uint64_t mem = unreported_loads_ + unreported_stores_;
        count(PMT_EV_MEM_ACCESS, mem);
    }
    count(PMT_EV_LD_RETIRED, unreported_loads_);
    count(PMT_EV_ST_RETIRED, unreported_stores_);
    count(PMT_EV_BR_RETIRED, unreported_branches_);
    count(PMT_EV_BR_IMMED_RETIRED, unreported_immed_);
    count(PMT_EV_BR_RETURN_RETIRED, unreported_returns_);
    unreported_insns_ = 0;
}

// How many instructions may run before the PMU does something visible: the run stops exactly
// there, also inside a block.
uint64_t a64_cpu::budget()
{
    uint64_t b = ~uint64_t{0};
    const uint64_t cpi = config_.cycles_per_instruction;
    if (peek_) {
        const sc_core::sc_time &t = qk_.get_local_time();
        uint64_t h = peek_(PMT_EV_INST_RETIRED, t);
        if (h != ~uint64_t{0})
            b = std::min(b, h);
        uint64_t hc = peek_(PMT_EV_CPU_CYCLES, t);
        if (hc != ~uint64_t{0})
            b = std::min(b, (hc + cpi - 1) / cpi);
    }
    return std::max<uint64_t>(b, 1);
}

// How many instructions may run before the quantum ends. The run stops at the first block
// boundary after that (the local time passes the quantum by less than a block): a stop inside
// a block costs two translations of it, and nothing needs the quantum's end exactly.
uint64_t a64_cpu::quantum_budget()
{
    uint64_t b = ~uint64_t{0};
    const uint64_t cpi = config_.cycles_per_instruction;
    sc_core::sc_time q = tlm_utils::tlm_quantumkeeper::get_global_quantum();
    if (q > sc_core::SC_ZERO_TIME) {
        sc_core::sc_time local = qk_.get_local_time();
        sc_core::sc_time left = q > local ? q - local : sc_core::SC_ZERO_TIME;
        double cycles = left / config_.clock_period;
        uint64_t n = static_cast<uint64_t>(cycles / static_cast<double>(cpi)) + 1;
        b = std::min(b, n);
    }
    return std::max<uint64_t>(b, 1);
}

uint64_t a64_cpu::on_block(uint64_t address, uint32_t size)
{
    if (block_active_) {
        retire_range(block_begin_, block_end_);
        block_active_ = false;
        if (current_info_ && (current_info_->last_class & (A64_ERET | A64_PSTATE)))
            check_state((current_info_->last_class & A64_ERET) != 0);
    }
    if (serror_pending_ || (irq_level_ && irq_deliverable()))
        return address;
    if (retired_ >= stop_at_ || retired_ >= quantum_stop_at_)
        return address;
    uint64_t n = size / 4;
    if (n > stop_at_ - retired_)
        return address + 4 * (stop_at_ - retired_);
    current_info_ = &info(address, size);
    block_begin_ = address;
    block_end_ = address + size;
    block_active_ = true;
    return ~uint64_t{0};
}

void a64_cpu::on_block_cut(uint64_t pc)
{
    if (!block_active_)
        return;
    retire_range(block_begin_, std::min(pc, block_end_));
    block_active_ = false;
}

// The Exception level may have changed (an ERET, a PSTATE write the engine executed).
void a64_cpu::check_state(bool eret)
{
    unsigned el = current_el();
    if (!eret && el == el_)
        return;
    report();
    if (eret)
        (void)events->count_event(PMT_EV_EXC_RETURN, 1, qk_.get_local_time());
    if (el != el_) {
        el_ = el;
        (void)state->set_pe_state(pe_state_for(el_), qk_.get_local_time());
    }
}

unsigned a64_cpu::current_el()
{
    return static_cast<unsigned>((engine_->reg(a64_reg::pstate) >> 2) & 3);
}

pmt_pe_state a64_cpu::pe_state_for(unsigned el)
{
    pmt_pe_state s{};
    s.el = static_cast<uint8_t>(el);
    s.ss = el == 3 ? PMT_SS_SECURE : PMT_SS_NONSECURE;
    s.scr_ns = true;
    s.el2_enabled = config_.have_el2;
    if (config_.have_el2 && engine_) {
        uint64_t hcr = 0;
        engine_->sysreg(3, 4, 1, 1, 0, hcr);
        s.hcr_tge = (hcr >> 27) & 1;
        s.hcr_e2h = (hcr >> 34) & 1;
    }
    return s;
}

} // namespace pmtrace::platform
