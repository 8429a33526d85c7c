#!/usr/bin/env bash
# Busy-waiting on the counter (issue 38): bench/a64/poll.S (100 ms of the virtual count polled
# with mrs, sub, cmp, b.lo; then PSCI SYSTEM_OFF) on pmtrace-vp, with the iterations that go on
# skipped (the default) and run (--no-skip-polls), and on QEMU 7.2 (-M virt,gic-version=3
# -cpu max), alternated, each the best wall time of N runs. Figures go into docs/performance.md.
#   bench/counter_poll.sh [BUILD_DIR (default build)] [RUNS (default 3)]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-3}
image=$build/bench/a64/poll.bin
vp=$build/platform/pmtrace-vp
[ -f "$image" ] && [ -x "$vp" ] || { echo "counter_poll: build first ($image, $vp)" >&2; exit 2; }
declare -A cmds=(
  [skipped]="$vp --kernel $image --quiet"
  [run]="$vp --kernel $image --quiet --no-skip-polls"
)
command -v qemu-system-aarch64 >/dev/null &&
  cmds[qemu]="qemu-system-aarch64 -M virt,gic-version=3 -cpu max -m 128M -nographic -no-reboot -nic none -kernel $image"
declare -A best
for ((i = 0; i < runs; i++)); do
  for name in "${!cmds[@]}"; do
    start=$(date +%s.%N)
    ${cmds[$name]} </dev/null >/dev/null 2>&1 || { echo "counter_poll: $name failed: ${cmds[$name]}" >&2; exit 1; }
    t=$(echo "$(date +%s.%N) - $start" | bc)
    if [ -z "${best[$name]:-}" ] || [ "$(echo "$t < ${best[$name]}" | bc)" = 1 ]; then best[$name]=$t; fi
  done
done
for name in skipped run qemu; do
  if [ -n "${best[$name]:-}" ]; then printf '%-8s %8.3f s\n' "$name" "${best[$name]}"; fi
done
