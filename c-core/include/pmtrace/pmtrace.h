/* pmtrace.h - the whole C interface of the pmtrace core. */
#ifndef PMTRACE_PMTRACE_H
#define PMTRACE_PMTRACE_H

#include "pmt_ete.h"
#include "pmt_ete_packet.h"
#include "pmt_events.h"
#include "pmt_pcsample.h"
#include "pmt_pe.h"
#include "pmt_pmu.h"
#include "pmt_pmu_exception.h"
#include "pmt_pmu_snapshot.h"
#include "pmt_regs.h"
#include "pmt_trbe.h"
#include "pmt_types.h"

#endif
