#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run pmtrace-vp on its default
# scenario. Arguments go to pmtrace-vp (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The build's progress goes to stderr (the first build takes minutes); stdout is pmtrace-vp's.
echo "pmtrace: building into ${PMTRACE_BUILD_DIR:-build}/ ..." >&2
scripts/build.sh >&2
exec "${PMTRACE_BUILD_DIR:-build}/platform/pmtrace-vp" "$@"
