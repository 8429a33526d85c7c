#!/usr/bin/env bash
# The Trace Buffer Unit's silicon errata on Linux (issue 29): pmtrace-vp reproduces an erratum
# (--trbe-erratum) and names a part Linux knows to have it (--midr); Debian's unmodified kernel
# detects the erratum by MIDR_EL1 at boot, its coresight-trbe module works around it, and perf's
# capture of a program of known length still decodes exactly (errata_commands.sh).
#   linux_trbe_errata.sh PMTRACE_VP WORK_DIR PART
#   PART a710: Cortex-A710 r2p0 (MIDR 0x412FD470), fill-overwrite and write-out-of-range
#     (Linux: errata 2119858, 2224489; TRBE_WORKAROUND_OVERWRITE_FILL_MODE, _WRITE_OUT_OF_RANGE)
#   PART a510: Cortex-A510 r0p2 (MIDR 0x410FD462), drain-after-disable and ctxt-sync-after-enable
#     (Linux: errata 2064142, 2038923; TRBE_NEEDS_DRAIN_AFTER_DISABLE, _CTXT_SYNC_AFTER_ENABLE)
# Exit 0: passed; 77: skipped, only when the guest's packages cannot be had (the reason printed).
set -uo pipefail
vp=$1
work=$2
part=$3
. "$(dirname "$0")/guest.sh"
case $part in
a710) guest_boot errata_a710 "$here/errata_commands.sh" --midr cortex-a710r2p0 \
        --trbe-erratum fill-overwrite,write-out-of-range ;;
a510) guest_boot errata_a510 "$here/errata_commands.sh" --midr cortex-a510r0p2 \
        --trbe-erratum drain-after-disable,ctxt-sync-after-enable ;;
*) echo "linux_trbe_errata.sh: PART is a710 or a510, not '$part'"; exit 2 ;;
esac
check "coresight-trbe probed the TRBE (trbe0)" "^guest: coresight devices: .*trbe0"
# trace_loop's b.ne taken 9,999 times back to the loop's top.
check "cs_etm//u: the loop's taken branches, exactly" \
  "^guest: branches +9999 +[0-9a-f]+ count_loop => +[0-9a-f]+ count_loop$end"
# count_loop's trace wraps a 16 KiB AUX buffer: every branch perf decodes is the loop's, or where
# the trace starts (from 0) or stops (to 0) around a wrap.
check_each "cs_etm//u wrapping: only the loop's branches, and the trace's starts and stops" \
  "^guest: wrapping branches " \
  "branches +[0-9]+ +([0-9a-f]+ count_loop => +[0-9a-f]+ count_loop|0 \[unknown\] => +[0-9a-f]+ (_start|count_loop)|[0-9a-f]+ count_loop => +0 \[unknown\])$end"
if [ "$part" = a710 ]; then
  check "Linux detected erratum 2119858 (A710: TRBE overwrites trace in Fill mode)" \
    "^guest: detected ARM erratum 2119858"
  check "Linux detected erratum 2224489 (A710: TRBE writes out of range)" \
    "^guest: detected ARM erratum 2253138 or 2224489"
  # OVERWRITE_FILL_MODE: the driver starts the TRBE 256 bytes into the AUX buffer and fills
  # those with Ignore packets (0x70), which the decoder passes over to the first A-sync.
  check "coresight-trbe skipped 256 bytes of Ignore packets (fill-overwrite workaround)" \
    "^guest: first[[:space:]]+Idx:256; .*I_ASYNC"
  # The wrap made both errata happen (the model's messages): what the driver's workarounds are
  # for, and the decode above is still the loop's.
  check "the wrap overwrote the buffer's start (fill-overwrite)" \
    "erratum_fill_overwrite: [0-9]+ bytes written from the Base pointer"
  check "the wrap wrote past the Limit pointer (write-out-of-range)" \
    "erratum_write_out_of_range: 64 bytes written at the Limit pointer"
else
  check "Linux detected erratum 2038923 (A510: TRBE enable needs context synchronization)" \
    "^guest: detected ARM erratum 2038923$end"
  check "Linux detected erratum 2064142 (A510: TRBE writes ignored until drained)" \
    "^guest: detected ARM erratum 2064142$end"
  check "no padding without the fill-overwrite erratum" "^guest: first[[:space:]]+Idx:0; .*I_ASYNC"
  # The driver drains after disabling (TSB CSYNC) and synchronizes twice after enabling (ISB,
  # ISB): no register write was ignored and the PE's view of the prohibited regions was never
  # stale; the TRBE restarted after the wrap (a second AUX record).
  check_absent "no TRBE register write ignored (drain-after-disable worked around)" \
    "write ignored: erratum_drain_after_disable"
  check_absent "no stale view of the prohibited regions (ctxt-sync-after-enable worked around)" \
    "erratum_ctxt_sync_after_enable"
  # A record at a non-zero offset (perf prints 0 as "0", any other offset in hex) with data.
  check "the driver restarted the TRBE after the wrap (a second AUX record)" \
    "^guest: wrapping .*PERF_RECORD_AUX offset: 0x[1-9a-f][0-9a-f]* size: 0x[1-9a-f]"
fi
guest_result
echo "passed: $part; $(grep -E '^guest: branches' "$console" | head -1)"
