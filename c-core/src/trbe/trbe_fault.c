/*
 * trbe_fault.c - what a fault description from the translate callback must hold (pmt_trbe.h,
 * "What each fault kind needs"). A description that is incomplete or contradicts itself or the
 * owning translation regime is refused: the model cannot know which fault was meant, so it
 * reports none (docs/choices.md, "A fault description the model refuses").
 */
#include "trbe_internal.h"

/* Levels the FSC encodings of TRBSR_ELx.MSS have for the kind (EncodeLDFSC, D24.4.7), or
 * false when the kind has no level (level must then be 0). */
static bool level_range(pmt_trbe_fault_kind kind, int *lo)
{
    switch (kind) {
    case PMT_TRBE_FAULT_ADDRESS_SIZE:
    case PMT_TRBE_FAULT_TRANSLATION:
    case PMT_TRBE_FAULT_EXTERNAL_WALK:
    case PMT_TRBE_FAULT_GPF_WALK: *lo = -2; return true;
    case PMT_TRBE_FAULT_ACCESS_FLAG:
    case PMT_TRBE_FAULT_PERMISSION: *lo = 0; return true;
    default: return false;
    }
}

const char *trbe_fault_refused(const pmt_trbe_fault *f, const pmt_trbe_regime *r)
{
    if ((unsigned)f->kind > (unsigned)PMT_TRBE_FAULT_GPC)
        return "the kind is not a pmt_trbe_fault_kind";
    if (f->kind == PMT_TRBE_FAULT_NONE)
        return f->stage || f->level || f->toplevel || f->assuredonly || f->overlay || f->dirtybit
                   ? "kind is PMT_TRBE_FAULT_NONE but other fault fields are set"
                   : NULL;
    /* Every fault a write can meet is met by a translation stage or the PA check that follows
     * one (RFSPBK: EC 0x24 or 0x25 by stage; a GPC fault happens on the access the stage
     * made). */
    if (f->stage != 1 && f->stage != 2)
        return "stage must be 1 or 2";
    int lo;
    if (level_range(f->kind, &lo)) {
        if (f->level < lo || f->level > 3)
            return f->kind == PMT_TRBE_FAULT_ACCESS_FLAG || f->kind == PMT_TRBE_FAULT_PERMISSION
                       ? "this kind needs a level 0..3"
                       : "this kind needs a level -2..3";
    } else if (f->level != 0) {
        return "this kind has no level (level must be 0)";
    }
    if (f->kind != PMT_TRBE_FAULT_PERMISSION &&
        (f->toplevel || f->assuredonly || f->overlay || f->dirtybit))
        return "toplevel, assuredonly, overlay, dirtybit are for a Permission fault";
    /* RLYHGV, RYCPZX: TopLevel and AssuredOnly are stage 2 attributes. */
    if (f->stage == 1 && (f->toplevel || f->assuredonly))
        return "toplevel and assuredonly are stage 2 attributes (RLYHGV, RYCPZX)";
    /* RFSPBK: a GPF other than on a walk is reported as stage 1. */
    if (f->kind == PMT_TRBE_FAULT_GPF && f->stage != 1)
        return "a GPF not on a walk is stage 1 (RFSPBK); on a walk it is PMT_TRBE_FAULT_GPF_WALK";
    /* RQKLXR: in External mode the address is a PA and only Granule Protection Checks apply. */
    if (r->external && f->kind != PMT_TRBE_FAULT_GPC && f->kind != PMT_TRBE_FAULT_GPF)
        return "External mode has no translation, only GPC faults and GPFs (RQKLXR)";
    return NULL;
}
