// a64_engine_unicorn.cpp - the A64 engine on Unicorn 2 (Debian libunicorn-dev 2.0.1): QEMU's
// TCG as a library. Everything Unicorn-specific of the platform is in this file.
//
// How the engine's needs map onto Unicorn (measured on 2.0.1, docs/cpu.md):
// - Blocks: a UC_HOOK_BLOCK hook. uc_emu_stop() inside it stops before the block executes.
// - A stop inside a block: the block is translated again with a Unicorn "exit" at the stop
//   address (uc_ctl exits, uc_ctl_remove_cache), so it ends exactly there; then the exit is
//   removed and the block translated again in full.
// - System registers: UC_HOOK_INSN for MRS, MSR, SYS and SYSL, one hook each (its direction),
//   with the exact pc and Xt. A model access writes pc (the instruction after, or the engine's
//   halt address), which ends the block there (skipping alone would restart the block for
//   encodings QEMU does not know).
// - The memory map: a region over every address. RAM is memory; every other address below
//   2^64 (devices, holes, and the virtual ranges above the physical address size) is one of a
//   few uc_mmio_map regions whose callbacks are the client's device accesses. Unicorn 2.0.1
//   checks that the *virtual* address of an access lies in some region before it translates
//   (then goes where the tables say): with every address covered the check always passes, and
//   no mapping per virtual range is needed (UnicornPresence.*, docs/cpu.md). MMIO regions
//   cannot be executed: a fetch through one asks the client (UC_HOOK_MEM_FETCH_PROT) whether it
//   reaches memory.
// - A device access is performed inside the callback, so nothing is replayed. The callback sees
//   the registers before the instruction, but not its pc; uc_emu_stop() inside it stops right
//   after the access with pc at the block's start and the instruction half done: used only for
//   an error, where the registers saved in the callback are put back.
// - Exceptions: Unicorn reports them (UC_HOOK_INTR) and takes none.
#include <pmtrace/platform/cpu/a64_engine.h>

#include "a64_cpu_regs.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <vector>

namespace pmtrace::platform
{

namespace
{

// The engine's own page, outside every platform map: an ERET and the halt address (an exit).
constexpr uint64_t engine_page = 0xFF'FFFF'F000;
constexpr uint64_t eret_address = engine_page;
constexpr uint64_t halt_address = engine_page + 4;
constexpr uint32_t eret_insn = 0xD69F03E0;
constexpr uint64_t no_stop = ~uint64_t{0};

// uc_context of 2.0.1: a 16-byte header, then CPUARMState from its start. env->hflags (the
// translator's cached view of the Exception level, MMU index, ...) is 336 bytes in: after
// regs[16], xregs[32], pc, pstate and aarch64. Checked when the engine is made.
constexpr size_t context_hflags_offset = 16 + 336;

class unicorn_engine final : public a64_engine
{
  public:
    unicorn_engine() = default;
    ~unicorn_engine() override
    {
        if (el1_context_)
            uc_context_free(el1_context_);
        if (scratch_context_)
            uc_context_free(scratch_context_);
        if (error_context_)
            uc_context_free(error_context_);
        if (uc_)
            uc_close(uc_);
    }

    bool open(std::string &error, a64_engine_hooks hooks);

    const char *name() const override { return "unicorn"; }
    void set_client(a64_engine_client *client) override { client_ = client; }
    bool set_block_repeat(a64_block_repeat *repeat) override
    {
        repeat_ = repeat;
        return true;
    }
    bool map_memory(uint64_t base, uint64_t size, uint8_t *host, std::string &error) override;
    a64_stop run() override;
    void request_stop() override
    {
        stop_requested_ = true;
        // Inside a device access uc_emu_stop() would stop in the middle of the instruction: the
        // stop waits for the next block (block_hook).
        if (!in_device_access_)
            uc_emu_stop(uc_);
    }
    uint64_t reg(a64_reg r) override;
    void set_reg(a64_reg r, uint64_t value) override;
    bool sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                uint64_t &value) override;
    bool set_sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                    uint64_t value) override;
    void enter(uint64_t pstate, uint64_t pc) override;
    bool read_memory(uint64_t address, void *dst, size_t n) override
    {
        // Memory only: uc_mem_read of an MMIO region would call the device callbacks.
        for (const region &m : memory_)
            if (address >= m.base && address - m.base < m.size && n <= m.size - (address - m.base))
                return uc_mem_read(uc_, address, dst, n) == UC_ERR_OK;
        return false;
    }
    void invalidate(uint64_t begin, uint64_t end) override
    {
        if (end > begin)
            uc_ctl_remove_cache(uc_, begin, end);
    }

  private:
    static void block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user);
    template <bool read>
    static uint32_t sysreg_hook(uc_engine *uc, uc_arm64_reg reg, const uc_arm64_cp_reg *cp,
                                void *user);
    uint32_t sysreg_access(uc_arm64_reg reg, const uc_arm64_cp_reg *cp, bool read);
    static uint64_t device_read(uc_engine *uc, uint64_t offset, unsigned size, void *user);
    static void device_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value,
                             void *user);
    bool device_access(uint64_t pa, unsigned size, bool write, uint64_t &value);
    static bool fetch_prot_hook(uc_engine *uc, uc_mem_type type, uint64_t address, int size,
                                int64_t value, void *user);
    bool cover_the_rest(std::string &error);
    static void intr_hook(uc_engine *uc, uint32_t intno, void *user);
    void set_exits(uint64_t extra);
    uint64_t pc() { return reg(a64_reg::pc); }
    void raw_enter(uint64_t pstate, uint64_t pc);
    void flush_tlb();

    uc_engine *uc_ = nullptr;
    a64_engine_client *client_ = nullptr;
    a64_block_repeat *repeat_ = nullptr;
    alignas(4096) std::array<uint32_t, 1024> page_{};
    // The stop the current run is heading for.
    bool stop_requested_ = false;
    bool partial_pending_ = false;
    uint64_t partial_stop_ = no_stop, partial_begin_ = 0, partial_end_ = 0;
    a64_stop sysreg_stop_;
    bool sysreg_stopped_ = false;
    a64_exception exception_ = a64_exception::none;
    bool fetch_refused_ = false;
    a64_stop fetch_stop_;
    bool in_engine_page_ = false;
    bool calls_client_ = false; // hooks::all
    bool in_device_access_ = false;
    // A device access the client answered with an error: the context saved in the callback
    // (the registers before the instruction).
    bool bus_error_ = false;
    uc_context *el1_context_ = nullptr, *scratch_context_ = nullptr, *error_context_ = nullptr;
    struct region {
        uint64_t base, size;
        uint8_t *host;
    };
    std::vector<region> memory_; // map_memory's
    bool covered_ = false;       // the MMIO regions over the rest (cover_the_rest)
    // Each MMIO region's base: its callbacks get offsets into it.
    struct mmio_region {
        unicorn_engine *engine;
        uint64_t base;
    };
    std::deque<mmio_region> mmio_;
};

bool unicorn_engine::open(std::string &error, a64_engine_hooks hooks)
{
    uc_err err = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_);
    if (err != UC_ERR_OK) {
        error = std::string("unicorn: uc_open: ") + uc_strerror(err);
        uc_ = nullptr;
        return false;
    }
    page_[0] = eret_insn;
    page_[1] = eret_insn; // never executed: the halt address is an exit
    err = uc_mem_map_ptr(uc_, engine_page, 4096, UC_PROT_READ | UC_PROT_EXEC, page_.data());
    if (err != UC_ERR_OK) {
        error = std::string("unicorn: engine page: ") + uc_strerror(err);
        return false;
    }
    uc_hook h;
    calls_client_ = hooks == a64_engine_hooks::all;
    if (calls_client_) {
        uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void *>(block_hook), this, 1, 0);
        // The direction is the hook's: MRS and SYSL read into Xt, MSR and SYS write.
        uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void *>(sysreg_hook<true>), this, 1, 0,
                    UC_ARM64_INS_MRS);
        uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void *>(sysreg_hook<false>), this, 1, 0,
                    UC_ARM64_INS_MSR);
        uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void *>(sysreg_hook<false>), this, 1, 0,
                    UC_ARM64_INS_SYS);
        uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void *>(sysreg_hook<true>), this, 1, 0,
                    UC_ARM64_INS_SYSL);
    }
    // Called only when an exception happens, or code is translated from an MMIO region's
    // address: free while code runs.
    uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void *>(intr_hook), this, 1, 0);
    uc_hook_add(uc_, &h, UC_HOOK_MEM_FETCH_PROT, reinterpret_cast<void *>(fetch_prot_hook), this, 1,
                0);
    uc_ctl_exits_enable(uc_);
    set_exits(no_stop);

    // SCR_EL3: RW and NS (EL2 and EL1 are AArch64 and Non-secure; QEMU's reset makes them
    // AArch32), HCE (HVC is enabled); HCR_EL2.RW: EL1 is AArch64.
    set_sysreg(3, 6, 1, 1, 0, (1u << 10) | (1u << 8) | 1u);
    set_sysreg(3, 4, 1, 1, 0, 1ull << 31);
    // Leave the reset state through an ERET, so the translator is at EL1 (AArch64), and keep
    // that state's context: its hflags let an exception from EL0 be entered (raw_enter).
    raw_enter(0x3C5, halt_address);
    uc_context_alloc(uc_, &el1_context_);
    uc_context_alloc(uc_, &scratch_context_);
    uc_context_alloc(uc_, &error_context_);
    if (!el1_context_ || !scratch_context_ || !error_context_ ||
        uc_context_size(uc_) < context_hflags_offset + 4) {
        error = "unicorn: no context support";
        return false;
    }
    uc_context_save(uc_, el1_context_);
    // The hflags offset is right when the EL1 context's pc is where this file expects it.
    uint64_t saved_pc = 0;
    std::memcpy(&saved_pc, reinterpret_cast<const uint8_t *>(el1_context_) + 16 + 320, 8);
    if (saved_pc != halt_address) {
        error = "unicorn: unexpected uc_context layout (this engine file is for Unicorn 2.0.x)";
        return false;
    }
    return true;
}

void unicorn_engine::set_exits(uint64_t extra)
{
    uint64_t exits[2] = {halt_address, extra};
    uc_ctl_set_exits(uc_, exits, extra == no_stop ? 1 : 2);
}

bool unicorn_engine::map_memory(uint64_t base, uint64_t size, uint8_t *host, std::string &error)
{
    if (covered_) {
        error = "unicorn: memory mapped after the engine ran";
        return false;
    }
    uc_err err = uc_mem_map_ptr(uc_, base, size, UC_PROT_ALL, host);
    if (err != UC_ERR_OK) {
        error = std::string("unicorn: map memory: ") + uc_strerror(err);
        return false;
    }
    memory_.push_back({base, size, host});
    return true;
}

// Every address that is not memory (nor the engine's page) becomes part of an MMIO region, in
// pieces of at most 2^63 bytes (a size is 64 bits).
bool unicorn_engine::cover_the_rest(std::string &error)
{
    covered_ = true;
    std::vector<region> taken = memory_;
    taken.push_back({engine_page, 4096, nullptr});
    std::sort(taken.begin(), taken.end(),
              [](const region &a, const region &b) { return a.base < b.base; });
    // [base, base + size), size 0 meaning up to 2^64.
    auto cover = [&](uint64_t base, uint64_t size) {
        do {
            const uint64_t piece = size == 0 || size > uint64_t{1} << 63 ? uint64_t{1} << 63 : size;
            mmio_region &r = mmio_.emplace_back(mmio_region{this, base});
            uc_err err = uc_mmio_map(uc_, base, piece, device_read, &r, device_write, &r);
            if (err != UC_ERR_OK) {
                error = std::string("unicorn: map the address space: ") + uc_strerror(err);
                return false;
            }
            base += piece;
            size -= piece;
        } while (size != 0 && base != 0);
        return true;
    };
    uint64_t next = 0;
    for (const region &t : taken) {
        if (t.base > next && !cover(next, t.base - next))
            return false;
        next = t.base + t.size; // 0: the region ends the address space
        if (next == 0)
            return true;
    }
    return cover(next, 0 - next);
}

// ---- registers ------------------------------------------------------------------------------

// Unicorn's register id of ours (-1: none).
int uc_reg_id(a64_reg r)
{
    unsigned n = static_cast<unsigned>(r);
    if (n <= 28) // X29 and X30 are not numbered after X28 in Unicorn
        return UC_ARM64_REG_X0 + static_cast<int>(n);
    if (n <= 30)
        return n == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
    switch (r) {
    case a64_reg::sp: return UC_ARM64_REG_SP;
    case a64_reg::pc: return UC_ARM64_REG_PC;
    case a64_reg::pstate: return UC_ARM64_REG_PSTATE;
    case a64_reg::sp_el0: return UC_ARM64_REG_SP_EL0;
    case a64_reg::sp_el1: return UC_ARM64_REG_SP_EL1;
    case a64_reg::sp_el2: return UC_ARM64_REG_SP_EL2;
    case a64_reg::sp_el3: return UC_ARM64_REG_SP_EL3;
    default: return -1;
    }
}

uint64_t unicorn_engine::reg(a64_reg r)
{
    int id = uc_reg_id(r);
    uint64_t v = 0;
    if (id >= 0)
        uc_reg_read(uc_, id, &v);
    return r == a64_reg::pstate ? v & 0xFFFF'FFFF : v;
}

void unicorn_engine::set_reg(a64_reg r, uint64_t value)
{
    int id = uc_reg_id(r);
    if (id >= 0)
        uc_reg_write(uc_, id, &value);
}

bool unicorn_engine::sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                            uint64_t &value)
{
    // Unicorn 2.0.1 defines OSDLR_EL1 as a NOP register with no storage, whose raw read asserts
    // (qemu/target/arm/helper.c raw_read: SIGABRT): known, and 0. The only such encoding (every
    // MRS with op0 2 and 3 scanned at EL0, EL1 and EL2 by fuzz_cpu's campaign).
    if (op0 == 2 && op1 == 0 && crn == 1 && crm == 3 && op2 == 4) {
        value = 0;
        return true;
    }
    uc_arm64_cp_reg r{crn, crm, op0, op1, op2, 0};
    if (uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &r) != UC_ERR_OK)
        return false;
    value = r.val;
    return true;
}

bool unicorn_engine::set_sysreg(unsigned op0, unsigned op1, unsigned crn, unsigned crm,
                                unsigned op2, uint64_t value)
{
    uc_arm64_cp_reg r{crn, crm, op0, op1, op2, value};
    return uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &r) == UC_ERR_OK;
}

// ---- entering a state -----------------------------------------------------------------------

// Unicorn 2.0.1 cannot change the Exception level from the host: writing PSTATE leaves the
// translator at the old level (and an EL1 booted as AArch32). An ERET it executes rebuilds
// everything from the architectural state, so the engine enters a state by running one: PSTATE
// EL3h for the helper, SPSR_EL3 the target state, the target address in ELR of the level the
// translator is at (the ERET reads it there), with the MMU of the translator's regime off while
// the engine page is fetched. From EL0 (where ERET does not translate) the translator is first
// given the hflags of EL1 from a saved context. This is the only workaround of the file's kind.
// Unicorn 2.0.1 has no TLB flush of its own: uc_ctl_flush_tlb is a flush of the translated code
// (UC_CTL_TB_FLUSH), which also clears the whole code buffer (tcg_region_reset_all: about a
// second of page faults with the MMU on, measured). Unmapping a range flushes the TLB: the
// engine page is mapped again at once.
void unicorn_engine::flush_tlb()
{
    uc_mem_unmap(uc_, engine_page, 4096);
    uc_mem_map_ptr(uc_, engine_page, 4096, UC_PROT_READ | UC_PROT_EXEC, page_.data());
}

void unicorn_engine::raw_enter(uint64_t pstate, uint64_t target)
{
    // Unicorn keeps the stack pointer in use in SP and banks it into SP_ELx only when QEMU
    // itself changes the EL or SPSel; a PSTATE written from the host does not. Bank it here, or
    // the ERET below restores a stale SP_ELx. That ERET banks SP into SP_EL3: keep SP_EL3.
    static constexpr a64_reg sp_el[4] = {a64_reg::sp_el0, a64_reg::sp_el1, a64_reg::sp_el2,
                                         a64_reg::sp_el3};
    const uint64_t now = reg(a64_reg::pstate);
    set_reg((now & 1) ? sp_el[(now >> 2) & 3] : a64_reg::sp_el0, reg(a64_reg::sp));
    const uint64_t saved_sp_el3 = reg(a64_reg::sp_el3);
    unsigned tel = static_cast<unsigned>((now >> 2) & 3);
    if (tel == 0 && el1_context_) {
        uc_context_save(uc_, scratch_context_);
        std::memcpy(reinterpret_cast<uint8_t *>(scratch_context_) + context_hflags_offset,
                    reinterpret_cast<const uint8_t *>(el1_context_) + context_hflags_offset, 4);
        uc_context_restore(uc_, scratch_context_);
        tel = 1;
    }
    // ELR_ELx of the translator's level.
    const uint64_t saved_elr = a64::get(*this, a64::elr(tel));
    // SCTLR_ELx.M of the regimes the fetches use (the translator's, the target's).
    unsigned target_el = static_cast<unsigned>((pstate >> 2) & 3);
    unsigned regimes[2] = {tel == 0 ? 1u : tel, target_el == 0 ? 1u : target_el};
    uint64_t sctlr[2] = {0, 0};
    bool mmu_was_on = false;
    for (int i = 0; i < 2; i++) {
        sctlr[i] = a64::get(*this, a64::sctlr(regimes[i]));
        if (sctlr[i] & a64::sctlr_m) {
            mmu_was_on = true;
            a64::put(*this, a64::sctlr(regimes[i]), sctlr[i] & ~a64::sctlr_m);
        }
    }
    if (mmu_was_on)
        flush_tlb();
    a64::put(*this, a64::elr(tel), halt_address);
    a64::put(*this, a64::spsr(3), pstate);
    uint64_t el3h = 0x3CD;
    uc_reg_write(uc_, UC_ARM64_REG_PSTATE, &el3h);
    in_engine_page_ = true;
    uc_emu_start(uc_, eret_address, 0, 0, 0);
    in_engine_page_ = false;
    // Restore what the passage used (in reverse, the target's regime last: they may be one).
    for (int i = 1; i >= 0; i--)
        if (sctlr[i] & a64::sctlr_m)
            a64::put(*this, a64::sctlr(regimes[i]), sctlr[i]);
    if (mmu_was_on)
        flush_tlb();
    a64::put(*this, a64::elr(tel), saved_elr);
    if (((pstate >> 2) & 3) != 3 || !(pstate & 1))
        set_reg(a64_reg::sp_el3, saved_sp_el3);
    set_reg(a64_reg::pc, target);
}

void unicorn_engine::enter(uint64_t pstate, uint64_t pc)
{
    raw_enter(pstate, pc);
}

// ---- running --------------------------------------------------------------------------------

a64_stop unicorn_engine::run()
{
    if (!covered_) {
        std::string why;
        if (!cover_the_rest(why)) {
            a64_stop stop;
            stop.reason = a64_stop_reason::error;
            stop.pc = pc();
            stop.detail = why;
            return stop;
        }
    }
    for (;;) {
        a64_stop stop;
        bool cut_run = partial_pending_;
        if (cut_run) {
            // Translate the block again, ending at the stop address.
            partial_pending_ = false;
            set_exits(partial_stop_);
            uc_ctl_remove_cache(uc_, partial_begin_, partial_end_);
        }
        stop_requested_ = false;
        sysreg_stopped_ = false;
        exception_ = a64_exception::none;
        fetch_refused_ = false;
        bus_error_ = false;
        // Unicorn ends a run at an exit address by imitating a WFI there, which at EL0 with
        // SCTLR_EL1.nTWI = 0 traps (UNDEFINED at the instruction before the exit). The cut run is
        // straight-line code ending before its block's end, so no WFI of the software's (which
        // ends a block) runs in it, and EL0 cannot read SCTLR_EL1: nTWI is set for the run alone.
        const uint64_t sctlr = a64::get(*this, a64::sctlr(1));
        const bool lift_twi =
            cut_run && ((reg(a64_reg::pstate) >> 2) & 3) == 0 && !(sctlr & a64::sctlr_ntwi);
        if (lift_twi)
            a64::put(*this, a64::sctlr(1), sctlr | a64::sctlr_ntwi);
        uc_err err = uc_emu_start(uc_, pc(), 0, 0, 0);
        if (lift_twi)
            a64::put(*this, a64::sctlr(1), sctlr);
        if (cut_run) {
            set_exits(no_stop);
            uc_ctl_remove_cache(uc_, partial_begin_, partial_end_);
        }
        if (bus_error_) {
            // The instruction that made the access did not complete: its registers as before.
            uc_context_restore(uc_, error_context_);
            stop.reason = a64_stop_reason::bus_error;
            stop.pc = pc();
            return stop;
        }
        stop.pc = pc();
        if (sysreg_stopped_) {
            set_reg(a64_reg::pc, sysreg_stop_.pc);
            return sysreg_stop_;
        }
        if (fetch_refused_) {
            stop = fetch_stop_;
            stop.pc = pc(); // the block that was to run did not start
            return stop;
        }
        if (exception_ != a64_exception::none) {
            stop.reason = a64_stop_reason::exception;
            stop.exception = exception_;
            return stop;
        }
        if (err != UC_ERR_OK) {
            stop.reason = a64_stop_reason::error;
            stop.detail = uc_strerror(err);
            return stop;
        }
        if (partial_pending_)
            continue; // stopped before a block that ends inside: run it cut
        if (stop_requested_ || (cut_run && stop.pc == partial_stop_)) {
            stop.reason = a64_stop_reason::requested;
            return stop;
        }
        // uc_emu_start returned without a stop of ours: WFI (pc after it).
        stop.reason = a64_stop_reason::wfi;
        return stop;
    }
}

void unicorn_engine::block_hook(uc_engine *, uint64_t address, uint32_t size, void *user)
{
    auto *self = static_cast<unicorn_engine *>(user);
    a64_block_repeat *r = self->repeat_;
    if (r && r->left && address == r->address && size == r->size && !self->sysreg_stopped_) {
        r->left--;
        r->runs++;
        return;
    }
    if ((address & ~uint64_t{0xFFF}) == engine_page || !self->client_)
        return;
    if (self->stop_requested_) {
        // Asked for inside a device access (request_stop): before this block.
        uc_emu_stop(self->uc_);
        return;
    }
    if (self->sysreg_stopped_) {
        // A system register access asked to stop: the pc written in its hook does not always
        // take effect before the next block starts; that block does not run.
        uc_emu_stop(self->uc_);
        return;
    }
    uint64_t stop = self->client_->on_block(address, size);
    if (stop == address) {
        self->stop_requested_ = true;
        uc_emu_stop(self->uc_);
    } else if (stop > address && stop < address + size) {
        self->partial_pending_ = true;
        self->partial_stop_ = stop;
        self->partial_begin_ = address;
        self->partial_end_ = address + size;
        uc_emu_stop(self->uc_);
    }
}

// Xt of a system register instruction, from the register Unicorn names (31: XZR).
unsigned xt_of(uc_arm64_reg reg)
{
    if (reg >= UC_ARM64_REG_X0 && reg <= UC_ARM64_REG_X28)
        return static_cast<unsigned>(reg - UC_ARM64_REG_X0);
    if (reg == UC_ARM64_REG_X29)
        return 29;
    if (reg == UC_ARM64_REG_X30)
        return 30;
    return 31;
}

template <bool read>
uint32_t unicorn_engine::sysreg_hook(uc_engine *, uc_arm64_reg reg, const uc_arm64_cp_reg *cp,
                                     void *user)
{
    return static_cast<unicorn_engine *>(user)->sysreg_access(reg, cp, read);
}

uint32_t unicorn_engine::sysreg_access(uc_arm64_reg reg, const uc_arm64_cp_reg *cp, bool read)
{
    unicorn_engine *self = this;
    if (!self->client_)
        return 0;
    uint64_t pc = self->pc();
    a64_sysreg_access a{};
    a.pc = pc;
    a.op0 = static_cast<uint8_t>(cp->op0);
    a.op1 = static_cast<uint8_t>(cp->op1);
    a.crn = static_cast<uint8_t>(cp->crn);
    a.crm = static_cast<uint8_t>(cp->crm);
    a.op2 = static_cast<uint8_t>(cp->op2);
    a.read = read;
    a.rt = xt_of(reg);
    uint64_t value = cp->val;
    a64_sysreg_action action = self->client_->on_sysreg(a, value);
    switch (action) {
    case a64_sysreg_action::engine: return 0;
    case a64_sysreg_action::done: {
        if (a.read && a.rt != 31)
            uc_reg_write(self->uc_, reg, &value);
        self->client_->on_block_cut(pc + 4);
        // Skipped: for an encoding QEMU implements, the block goes on after the instruction;
        // for one it would UNDEF, the skip restarts the block, so execution is sent past it.
        // (Writing the pc for the former makes the rest of the block run twice.)
        uint64_t known = 0;
        if (!self->sysreg(a.op0, a.op1, a.crn, a.crm, a.op2, known))
            self->set_reg(a64_reg::pc, pc + 4);
        return 1;
    }
    case a64_sysreg_action::done_stop:
    case a64_sysreg_action::stop: {
        bool done = action == a64_sysreg_action::done_stop;
        if (done && a.read && a.rt != 31)
            uc_reg_write(self->uc_, reg, &value);
        self->sysreg_stopped_ = true;
        self->sysreg_stop_ = a64_stop{};
        self->sysreg_stop_.reason = a64_stop_reason::sysreg;
        self->sysreg_stop_.pc = done ? pc + 4 : pc;
        self->client_->on_block_cut(self->sysreg_stop_.pc);
        self->set_reg(a64_reg::pc, halt_address);
        return 1;
    }
    }
    return 0;
}

void unicorn_engine::intr_hook(uc_engine *uc, uint32_t intno, void *user)
{
    auto *self = static_cast<unicorn_engine *>(user);
    // QEMU's EXCP_* numbers (target/arm/cpu.h).
    switch (intno) {
    case 1: self->exception_ = a64_exception::undefined; break;
    case 2: self->exception_ = a64_exception::svc; break;
    case 3: self->exception_ = a64_exception::instruction_abort; break;
    case 4: self->exception_ = a64_exception::data_abort; break;
    case 7: self->exception_ = a64_exception::brk; break;
    case 11: self->exception_ = a64_exception::hvc; break;
    case 12: self->exception_ = a64_exception::smc_trapped; break; // EXCP_HYP_TRAP (pre_smc)
    case 13: self->exception_ = a64_exception::smc; break;
    default: self->exception_ = a64_exception::other; break;
    }
    uc_emu_stop(uc);
}

uint64_t unicorn_engine::device_read(uc_engine *, uint64_t offset, unsigned size, void *user)
{
    auto *r = static_cast<mmio_region *>(user);
    uint64_t value = 0;
    (void)r->engine->device_access(r->base + offset, size, false, value);
    return value;
}

void unicorn_engine::device_write(uc_engine *, uint64_t offset, unsigned size, uint64_t value,
                                  void *user)
{
    auto *r = static_cast<mmio_region *>(user);
    (void)r->engine->device_access(r->base + offset, size, true, value);
}

// An MMIO region's access, at physical address pa. An access after an error of the same
// instruction (a pair's second element) is not made.
bool unicorn_engine::device_access(uint64_t pa, unsigned size, bool write, uint64_t &value)
{
    if (bus_error_)
        return false;
    bool ok = false;
    if (calls_client_ && client_ && !in_engine_page_) {
        in_device_access_ = true;
        ok = client_->on_device_access(pa, size, write, value);
        in_device_access_ = false;
    }
    if (!ok) {
        uc_context_save(uc_, error_context_);
        bus_error_ = true;
        uc_emu_stop(uc_);
    }
    return ok;
}

bool unicorn_engine::fetch_prot_hook(uc_engine *, uc_mem_type, uint64_t address, int size, int64_t,
                                     void *user)
{
    auto *self = static_cast<unicorn_engine *>(user);
    if (self->calls_client_ && self->client_ && self->client_->on_fetch(address))
        return true;
    self->fetch_refused_ = true;
    self->fetch_stop_ = a64_stop{};
    self->fetch_stop_.reason = a64_stop_reason::fetch;
    self->fetch_stop_.address = address;
    self->fetch_stop_.size = static_cast<unsigned>(size);
    return false;
}

} // namespace

std::unique_ptr<a64_engine> make_unicorn_engine(std::string &error, a64_engine_hooks hooks)
{
    auto engine = std::make_unique<unicorn_engine>();
    if (!engine->open(error, hooks))
        return nullptr;
    return engine;
}

} // namespace pmtrace::platform
