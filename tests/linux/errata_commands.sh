# What the guest runs for the TRBE errata tests (linux_trbe_errata.sh): the errata Linux found
# by MIDR_EL1, then perf capturing through coresight-trbe, which works around them.
dmesg | grep -E "CPU features: detected: ARM errat" | sed 's/^.*detected: /guest: detected /' |
  sort -u
. /modules.sh
# trace_loop: one capture, no wrap; where its first Alignment Synchronization packet is.
echo "guest: cs_etm user"
perf record -q -e cs_etm/@trbe0/u --per-thread -o /tmp/u.data -- /trace_loop 2>&1
perf script -i /tmp/u.data --itrace=b -F ip,addr,sym 2>&1 | sort | uniq -c | sort -rn |
  head -3 | sed 's/^/guest: branches /'
perf report -i /tmp/u.data -D 2>&1 | grep -m1 I_ASYNC | sed 's/^/guest: first /'
# count_loop in a 16 KiB AUX buffer: the Trace Buffer Unit wraps (Fill mode, TRBIRQ), the driver
# restarts it; what perf decodes.
echo "guest: cs_etm wrapping"
perf record -q -m,4 -e cs_etm/@trbe0/u --per-thread -o /tmp/w.data -- /count_loop 2>&1
perf script -i /tmp/w.data --itrace=b -F ip,addr,sym 2>/dev/null | sort | uniq -c | sort -rn |
  sed 's/^/guest: wrapping branches /'
perf report -i /tmp/w.data -D 2>&1 | grep -E 'PERF_RECORD_AUX ' | sed 's/^/guest: wrapping /'
