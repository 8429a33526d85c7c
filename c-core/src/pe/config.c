/*
 * config.c - the configuration's description: every field of pmt_pe_config (with its nested
 * pmt_trbe_config and pmt_ete_config) and the values it may hold, whatever the features say: a
 * field of a feature the PE does not implement is in its range too, so that no code that reads
 * it (with the feature or without) meets a value it cannot use (issue 27: trbe.align 130 without
 * FEAT_TRBE, a shift of 130 at a restore). pmt_pe_create checks these first, then the rules
 * between fields (config_error in pe.c, trbe_config_error, ete_config_error), which read the
 * fields as their types only once they are known to be in range.
 * tests/core/test_state_fields.cpp checks that every byte of pmt_pe_config that is not padding
 * belongs to a field described here.
 */
#include "../pe_internal.h"
#include "fields.h"

#define C            pmt_pe_config
#define F(m)         PE_FIELD(C, m)
#define R(m, lo, hi) PE_FIELD_RANGE(C, m, lo, hi)
#define A(m)         PE_ARRAY(C, m)

/* clang-format off */
static const struct pe_field config_fields[] = {
    F(have_el2), F(have_el3), F(have_sel2), F(have_rme), F(have_aarch32),
    /* PMU (pmu_version's values between PMT_PMUV3 and PMT_PMUV3P9 that name no version are
     * refused by config_error). */
    R(pmu_version, PMT_PMUV3, PMT_PMUV3P9), R(num_counters, 0, PMT_MAX_EVENT_COUNTERS),
    F(feat_hpmn0), F(feat_extpmn), F(feat_icntr), F(feat_ebep), F(feat_sebep), F(feat_ss),
    F(feat_pcsrv8p9), F(feat_spev1p2), F(feat_spe_dpfzs), F(feat_pmuv3_sme), F(feat_debugv8p9),
    F(feat_brbe), A(common_events),
    F(pmcr_imp), F(pmcr_idcode), F(pmmir), R(unattributable, 0, PMT_UNATTRIB_COUNTED),
    R(ext_layout, 0, PMT_EXT64), F(ext_software_lock), F(mpidr), F(pmiidr),
    R(part_number, 0, 0xFFF), R(revision, 0, 0xF), F(chain_across_ranges),
    R(reserved_pmecr_pmee, 0, PMT_RESPMEE_AS_11), R(reserved_mdcr_el2_pmee, 0, PMT_RESPMEE_AS_11),
    R(reserved_mdcr_el3_pmee, 0, PMT_RESPMEE_AS_11), R(reserved_pmecr_sse, 0, PMT_RESPMSSE_AS_11),
    F(feat_nv),
    R(sync_events, 0, PMT_SYNC_EVENTS_LIST), A(sync_event_list),
    R(num_sync_events, 0, PMT_MAX_SYNC_EVENT_LIST), R(sync_values, 0, PMT_SYNC_VALUES_BEFORE),
    R(va_bits, 0, 56), /* 0 (48), 48, 52 or 56: config_error */
    F(capture_in_debug), R(pcsr, 0, PMT_PCSR_PMU_FRAME), F(feat_vhe), F(feat_debugv8p2),
    F(feat_vmid16), F(debug_software_lock), F(pmpcsctl_imp), F(os_lock_registers),
    /* The Trace Buffer Unit. */
    F(trbe.feat_trbe), F(trbe.feat_trbe_exc), F(trbe.feat_trbe_ext), F(trbe.armv9p3),
    R(trbe.align, 0, 11), F(trbe.flag_updates), R(trbe.pa_bits, 32, 56),
    R(trbe.ext_abort, 0, PMT_TRBE_EA_REPORT_ASYNC), F(trbe.walk_abort_as_fault),
    F(trbe.walk_abort_sets_ea), F(trbe.trb_trig_countable), F(trbe.ignore_writes_while_enabled),
    F(trbe.misaligned_ptr_fault), F(trbe.flush_pad), F(trbe.pad_byte), F(trbe.impdef_events),
    R(trbe.reserved_e2tb, 0, PMT_RESE2TB_AS_00), R(trbe.reserved_trfcr_ee, 0, PMT_RESTRFEE_AS_11),
    F(trbe.erratum_fill_overwrite), R(trbe.erratum_fill_overwrite_bytes, 1, 256),
    F(trbe.erratum_write_out_of_range), F(trbe.erratum_drain_after_disable),
    F(trbe.erratum_ctxt_sync_after_enable), R(trbe.part_number, 0, 0xFFF),
    R(trbe.revision, 0, 0xF),
    /* The trace unit (num_rs_pairs 1 and unit_buffer 1..1023 are refused by ete_config_error). */
    F(ete.feat_ete), R(ete.num_ac_pairs, 0, PMT_ETE_MAX_AC_PAIRS),
    R(ete.num_cid_comps, 0, PMT_ETE_MAX_CTX_COMPS), R(ete.num_vmid_comps, 0, PMT_ETE_MAX_CTX_COMPS),
    R(ete.num_rs_pairs, 0, PMT_ETE_MAX_RS_PAIRS), R(ete.num_ext_in_sel, 0, PMT_ETE_MAX_EXT_IN_SEL),
    R(ete.num_counters, 0, PMT_ETE_MAX_COUNTERS),
    F(ete.wfx_p0), R(ete.ccitmin, 1, 0xFFF), R(ete.cc_size, 0, 8),
    F(ete.timestamps), F(ete.return_stack), F(ete.branch_broadcast), F(ete.fixed_sync_period),
    R(ete.sync_period, 8, 20), F(ete.trace_id), R(ete.num_claim_tags, 0, PMT_ETE_MAX_CLAIM_TAGS),
    R(ete.unit_buffer, 0, PMT_ETE_UNIT_BUFFER_MAX), F(ete.designer), R(ete.revision, 0, 0xF),
    R(ete.busy_write, 0, PMT_ETE_BUSY_WRITE_IGNORED),
    R(ete.cc_below_min, 0, PMT_ETE_CC_BELOW_MIN_NO_COUNTS),
};
/* clang-format on */

const struct pe_field *pe_config_fields(size_t *n)
{
    *n = sizeof config_fields / sizeof config_fields[0];
    return config_fields;
}

bool pe_config_fields_valid(const pmt_pe_config *c, char *why, size_t why_size)
{
    for (size_t i = 0; i < sizeof config_fields / sizeof config_fields[0]; i++)
        if (!pe_field_valid(&config_fields[i], c, why, why_size))
            return false;
    return true;
}
