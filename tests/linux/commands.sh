# What the guest runs (tests/linux/linux_boot.sh): perf on a program of known length.
echo "guest: uname $(uname -r)"
# The system clock, which rtc-pl031 set from the PL031 at boot (--rtc-base), and a file's time.
echo "guest: date $(date -u +%Y-%m-%dT%H:%M:%S)"
touch /tmp/stamp
echo "guest: file time $(date -u -r /tmp/stamp +%Y-%m-%dT%H:%M:%S)"
. /modules.sh
echo "guest: perf stat"
perf stat -x, -e instructions:u,cycles:u,branches:u -- /count_loop 2>&1
perf stat -x, -e r08:u,r11:u,r13:u,r1e:u -- /count_loop 2>&1
echo "guest: perf record"
perf record -q -e instructions:u -c 100000 -o /tmp/perf.data -- /count_loop 2>&1
perf report -i /tmp/perf.data --stdio --sort sym 2>&1 | grep -v '^#' | grep -v '^$'
# A C program built as docs/platform.md shows (static, the cross C library), when there is one.
if [ -x /primes ]; then
  perf stat -x, -e instructions:u,branches:u -- /primes 100000 2>&1 | sed 's/^/guest: primes /'
fi
# The trace unit and the Trace Buffer Unit through Linux's drivers and perf (issue 29): the
# program's user-space trace decoded by perf (OpenCSD) into branch samples, counted by
# (from, to); then the kernel's trace of the same program, decoded over /proc/kcore.
echo "guest: cs_etm user"
perf record -q -e cs_etm/@trbe0/u --per-thread -o /tmp/cs_user.data -- /trace_loop 2>&1
perf script -i /tmp/cs_user.data --itrace=b -F ip,addr,sym 2>&1 | sort | uniq -c |
  sort -rn | head -3 | sed 's/^/guest: branches /'
echo "guest: cs_etm timestamp"
perf record -q -e cs_etm/timestamp/u -o /tmp/cs_ts.data -- /trace_loop 2>&1
perf script -i /tmp/cs_ts.data --itrace=b -F ip,addr,sym 2>&1 | sort | uniq -c |
  sort -rn | head -1 | sed 's/^/guest: timestamp branches /'
echo "guest: timestamps $(perf report -i /tmp/cs_ts.data -D 2>&1 | grep -c I_TIMESTAMP)"
echo "guest: cs_etm kernel"
perf record -q --kcore -e cs_etm/@trbe0/k --per-thread -o /tmp/cs_kernel -- /trace_loop 2>&1
perf report -i /tmp/cs_kernel --stdio --sort sym 2>&1 |
  grep -E '\[k\] (el0_svc|invoke_syscall|do_exit)$' | sed 's/^/guest: kernel /'
# Hardware watchpoints and breakpoints (self-hosted debug, issue 36): wp_loop's 1000 stores to
# the doubleword at 0x420000 counted by a watchpoint, and sampled at the storing function; perf
# test's breakpoint and watchpoint tests.
echo "guest: watchpoint"
perf stat -x, -e mem:0x420000:w -- /wp_loop 2>&1 | sed 's/^/guest: wp /'
perf record -q -e mem:0x420000:w -c 1 -o /tmp/wp.data -- /wp_loop 2>&1
perf report -i /tmp/wp.data --stdio --sort sym 2>&1 | grep -v '^#' | grep -v '^$' |
  sed 's/^/guest: wp record /'
perf test Breakpoint Watchpoint 2>&1 | sed 's/^/guest: perf test /'
