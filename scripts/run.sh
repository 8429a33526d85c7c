#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run pmtrace-vp on its default
# scenario. Arguments go to pmtrace-vp; --help is this script's own (printed at once).
set -euo pipefail
usage() {
  cat <<'HELP'
usage: scripts/run.sh [--help] [--] [pmtrace-vp's arguments ...]

Installs the packages pmtrace needs that are missing (scripts/install-deps.sh), configures and
builds pmtrace (scripts/build.sh), then runs pmtrace-vp with the arguments given: with none, its
default scenario (perf stat of a loop on the platform's AArch64 CPU, a trace session alongside).
The build's progress goes to stderr; stdout is pmtrace-vp's.

  --help, -h   this help (nothing is installed or built)
  --           the arguments after it go to pmtrace-vp as they are (scripts/run.sh -- --help:
               pmtrace-vp's own help, after the build)

Environment:
  PMTRACE_BUILD_DIR   the build directory (default: build/, in the source tree); pmtrace-vp is
                      $PMTRACE_BUILD_DIR/platform/pmtrace-vp

Examples:
  scripts/run.sh                                   the default scenario
  scripts/run.sh -s record --period 100000         sample INST_RETIRED every 100000
  scripts/run.sh --kernel image.elf                boot your own image
HELP
}
case "${1:-}" in
  --help | -h) usage; exit 0 ;;
  --) shift ;;
esac
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The build's progress goes to stderr (the first build takes minutes); stdout is pmtrace-vp's.
echo "pmtrace: building into ${PMTRACE_BUILD_DIR:-build}/ ..." >&2
scripts/build.sh >&2
exec "${PMTRACE_BUILD_DIR:-build}/platform/pmtrace-vp" "$@"
