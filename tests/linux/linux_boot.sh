#!/usr/bin/env bash
# Boots Debian bookworm's unmodified arm64 kernel on pmtrace-vp with an initramfs made from
# Debian's packages (scripts/linux_guest.py), runs perf on a program of known length
# (count_loop.S, commands.sh) and checks the console: the PL031's time (--rtc-base) set as the
# system clock by rtc-pl031 and seen by date and a file's time; Debian's coresight-etm4x and
# coresight-trbe modules probe the trace unit and the Trace Buffer Unit the device tree describes
# (ete0, trbe0), perf stat's counts exact against the program, perf record's samples taken
# through PMUIRQ and named by perf report, perf record -e cs_etm// capturing through the ETE and
# the TRBE and perf decoding it (user space: the loop's branches exactly; the kernel: the exit
# system call's path), a C program of the user's (docs/examples/primes.c, when the build could
# link it) under perf stat, a hardware watchpoint counting a program's stores exactly (wp_loop.S)
# and perf test's breakpoint and watchpoint tests, the run ended by poweroff with exit 0.
#   linux_boot.sh PMTRACE_VP WORK_DIR (WORK_DIR holds count_loop, trace_loop, wp_loop and primes,
#   built by the tests)
# Exit 0: passed; 77: skipped, only when the guest's packages cannot be had (the reason printed).
set -uo pipefail
vp=$1
work=$2
. "$(dirname "$0")/guest.sh"
# A fixed time for the RTC (QEMU's -rtc base=): the guest's clock is reproducible.
guest_boot boot "$(dirname "$0")/commands.sh" --rtc-base 2006-06-17T16:01:21
# rtc-pl031 (built into Debian's kernel, CONFIG_RTC_HCTOSYS) reads the RTC before 1 s simulated.
check "rtc-pl031 set the system clock from the PL031" \
  "rtc-pl031 9010000\.pl031: setting system clock to 2006-06-17T16:01:21 UTC \(1150560081\)"
check "date: the RTC's day, not 1970" "^guest: date 2006-06-17T16:01:2[1-9]$end"
check "a new file's time: the RTC's day" "^guest: file time 2006-06-17T16:01:2[1-9]$end"
check "coresight-etm4x probed the ETE (ete0)" "^guest: coresight devices: .*ete0"
check "etm4x found an ETE on CPU0 (its probe read TRCDEVARCH and TRCIDR*)" "coresight ete0: CPU0: ete v1\.0 initialized"
check "coresight-trbe probed the TRBE (trbe0)" "^guest: coresight devices: .*trbe0"
# count_loop: 2 + 2 * 1000000 + 3 instructions at EL0, 1000000 branches.
check "instructions:u exact" "^2000005,,instructions:u,"
check "r08:u (INST_RETIRED) exact" "^2000005,,r08:u,"
check "cycles:u counted" "^[1-9][0-9]*,,cycles:u,"
check "r11:u counted" "^[1-9][0-9]*,,r11:u,"
check "perf record's samples named" "^ +[0-9.]+% +\[\.\] count_loop"
# perf record -e cs_etm//u: trace_loop's b.ne taken 9,999 times back to the loop's top, each one
# branch sample from count_loop to count_loop, the most frequent (from, to).
check "cs_etm//u: the loop's taken branches, exactly" \
  "^guest: branches +9999 +[0-9a-f]+ count_loop => +[0-9a-f]+ count_loop$end"
# cs_etm/timestamp/u (per CPU, as perf records by default): the same branches, and Timestamps
# from Linux's counter (reload value 1: one per two P0 elements, about 10000 / 2, and one after
# each Trace Info).
check "cs_etm/timestamp/u: the loop's taken branches, exactly" \
  "^guest: timestamp branches +9999 +[0-9a-f]+ count_loop => +[0-9a-f]+ count_loop$end"
check "cs_etm/timestamp/u: a Timestamp every second P0 element" "^guest: timestamps 50[0-9][0-9]$end"
# cs_etm//k: the kernel's trace decodes into the exit system call's path.
check "cs_etm//k: el0_svc decoded" "^guest: kernel .*\[k\] el0_svc$end"
check "cs_etm//k: invoke_syscall decoded" "^guest: kernel .*\[k\] invoke_syscall$end"
check "cs_etm//k: do_exit decoded" "^guest: kernel .*\[k\] do_exit$end"
# docs/examples/primes.c, compiled by aarch64-linux-gnu-gcc -static -O2 with Debian's cross C
# library (libc6-dev-arm64-cross): its answer, and perf stat counts it.
if [ -x "$work/primes" ]; then
  check "primes: the C program's answer" "^guest: primes 9592 primes below 100000$end"
  check "primes: instructions:u counted" "^guest: primes [1-9][0-9]*,,instructions:u,"
  check "primes: branches:u counted" "^guest: primes [1-9][0-9]*,,branches:u,"
else
  echo "note: no C program in the guest ($work/primes: the cross C library, libc6-dev-arm64-cross, was missing when the build was configured)"
fi
# Self-hosted debug: the watchpoint counts each of wp_loop's 1000 stores, its samples are all in
# wp_store, and perf test's breakpoint accounting and its four watchpoint cases pass (as on QEMU).
check "mem:0x420000:w counts the 1000 stores exactly" "^guest: wp 1000,,mem:0x420000:w,"
check "the watchpoint's samples name the storing function" \
  "^guest: wp record +100\.00% +\[\.\] wp_store$end"
check "perf test: Breakpoint accounting" "^guest: perf test +[0-9]+: Breakpoint accounting +: Ok"
for t in "Read Only" "Write Only" "Read / Write" "Modify"; do
  check "perf test: $t Watchpoint" "^guest: perf test +[0-9]+\.[0-9]+: $t Watchpoint +: Ok"
done
check_absent "no perf test failed" "^guest: perf test .*FAILED"
guest_result
echo "passed: $(grep -cE '^\[ *[0-9.]+\]' "$console") kernel lines; $(grep -E 'instructions:u' "$console" | head -1)"
